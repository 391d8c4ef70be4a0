// Seeded mutations of real inputs through the engine, as broken input from a user reaches it:
// libdevice.10.bc and the bitcode example with bytes replaced, the bundled examples' IR with
// typos, each alone or alongside good modules. Whatever libNVVM does with them (reject them,
// segfault, abort, hang), the front end gets an answer: ok, or failed with a diagnostic; a crash
// is reported as one, naming the modules, and the next compile works. A subset also goes through
// `nvpg compile`, which must exit 0 or 1. NVPG_FUZZ_INPUTS sets how many inputs (default 300).
#include <QtTest>

#include <algorithm>
#include <climits>
#include <map>

#include "TestSupport.h"
#include "core/engine/Compiler.h"
#include "core/workspace/Workspace.h"

using namespace nvpg;

namespace {

struct Input {
    QString what;  // how it was made, to reproduce it
    pipeline::Job job;
    std::string mutated;  // the name of the mutated module
    bool lto = false;     // compiled to LTO-linked PTX as well
};

// A text module of an example and the example's other modules, as its workspace has them.
struct TextSource {
    std::string name;
    std::string text;
    workspace::Workspace example;
};

// NVPG_FUZZ_INPUTS, else 300: a few seconds, for every CI run.
int inputCount() {
    return qEnvironmentVariableIsSet("NVPG_FUZZ_INPUTS") ? qEnvironmentVariableIntValue("NVPG_FUZZ_INPUTS") : 300;
}

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

}  // namespace

class TestEngineFuzz : public QObject {
    Q_OBJECT

    std::string libdevice_;
    workspace::Workspace bitcodeExample_;  // kernel.ll, then mathlib.bc added lazily
    workspace::Workspace libdeviceMath_;   // math.ll, which calls libdevice functions
    workspace::Workspace saxpy_;
    std::vector<TextSource> texts_;

    Input makeInput(int i) const;
    int runCli(const Input& in, int i, QString* why) const;

public:
    // Before QCoreApplication: Qt Test's watchdog stops a test function after 5 minutes; a long
    // run (NVPG_FUZZ_INPUTS) needs about 30 ms an input here, a second at most.
    static void initMain() {
        if (qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT")) return;
        const qint64 ms = 600000 + 1000 * qint64(std::max(inputCount(), 0));
        qputenv("QTEST_FUNCTION_TIMEOUT", QByteArray::number(std::min<qint64>(ms, INT_MAX)));
    }

private slots:
    void initTestCase();
    void mutatedInputsNeverTakeTheFrontEndDown();
};

void TestEngineFuzz::initTestCase() {
    test::useNvpgAsEngine();
    auto ld = test::realToolkit()->libdevice();
    QVERIFY2(ld, ld ? "" : ld.error().message.c_str());
    libdevice_ = **ld;
    auto load = [](const char* name) {
        auto ws = workspace::loadWorkspace(test::examplesDir() / name);
        if (!ws) qFatal("%s", ws.error().message.c_str());
        return *ws;
    };
    bitcodeExample_ = load("bitcode.nvpg");
    QVERIFY(bitcodeExample_.modules.size() == 2 && bitcodeExample_.modules[1].isBitcode());
    libdeviceMath_ = load("libdevice-math.nvpg");
    saxpy_ = load("saxpy.nvpg");
    // The examples' IR sources; each keeps the company of its example's other modules.
    for (const auto& dir : std::filesystem::directory_iterator(test::examplesDir() / "src")) {
        const auto example = load((dir.path().filename().string() + ".nvpg").c_str());
        for (const auto& file : std::filesystem::directory_iterator(dir.path()))
            if (file.path().extension() == ".ll")
                texts_.push_back({file.path().filename().string(), test::readText(file.path()), example});
    }
    std::sort(texts_.begin(), texts_.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    QVERIFY(texts_.size() >= 8);
}

// Input i, made with seed i + 1: the same bytes on every machine.
Input TestEngineFuzz::makeInput(int i) const {
    const uint64_t seed = uint64_t(i) + 1;
    Input in;
    in.job.archFromGpu = true;  // as nvpg compile does without --arch
    in.lto = i % 3 == 0;
    in.job.outputs = in.lto ? pipeline::kPtx | pipeline::kLtoPtx : pipeline::kPtx;
    in.job.generation = uint64_t(i);
    switch (i % 10) {
        case 0:
        case 1:  // damaged libdevice, compiled whole
            in.mutated = "libdevice.bc";
            in.job.modules = {{in.mutated, test::mutateBytes(libdevice_, seed), false}};
            in.what = QString("libdevice.10.bc, mutateBytes seed %1, alone").arg(seed);
            break;
        case 2:
        case 3:  // damaged libdevice standing in for libdevice: added lazily after math.ll
            in.mutated = "libdevice.bc";
            in.job.modules = {libdeviceMath_.modules.at(0), {in.mutated, test::mutateBytes(libdevice_, seed), true}};
            in.what = QString("libdevice.10.bc, mutateBytes seed %1, lazily after math.ll").arg(seed);
            break;
        case 4: {  // the bitcode example with its library damaged
            in.job.modules = bitcodeExample_.modules;
            auto& lib = in.job.modules[1];
            lib.bytes = test::mutateBytes(lib.bytes, seed, 4);
            in.mutated = lib.name;
            in.what = QString("the bitcode example's %1, mutateBytes seed %2, lazily after kernel.ll")
                          .arg(QString::fromStdString(lib.name))
                          .arg(seed);
            break;
        }
        case 5: {  // the damaged library alone
            auto lib = bitcodeExample_.modules[1];
            lib.bytes = test::mutateBytes(lib.bytes, seed, 4);
            lib.lazy = false;
            in.mutated = lib.name;
            in.job.modules = {lib};
            in.what = QString("the bitcode example's %1, mutateBytes seed %2, alone")
                          .arg(QString::fromStdString(lib.name))
                          .arg(seed);
            break;
        }
        default: {  // an example's IR with typos, alone or in its example
            const auto& src = texts_[size_t(i / 10) % texts_.size()];
            nvvm::Module m{src.name, test::mutateText(src.text, seed), false};
            in.mutated = m.name;
            const bool alone = i % 10 >= 8;
            if (alone) {
                in.job.modules = {m};
            } else {
                // Its place in the example (mathlib.ll is mathlib.bc there, added lazily).
                const auto stem = std::filesystem::path(src.name).stem().string();
                in.job.modules = src.example.modules;
                in.job.options = src.example.options;
                in.job.libdevice = src.example.libdevice;
                for (auto& other : in.job.modules)
                    if (std::filesystem::path(other.name).stem() == stem) other = m;
            }
            in.what = QString("%1, mutateText seed %2, %3")
                          .arg(QString::fromStdString(src.name))
                          .arg(seed)
                          .arg(alone ? "alone" : "in its example");
        }
    }
    if (in.lto) in.what += ", with LTO";
    return in;
}

void TestEngineFuzz::mutatedInputsNeverTakeTheFrontEndDown() {
    const int inputs = inputCount();
    QVERIFY(inputs > 0);
    // libNVVM takes seconds on the largest input (all of libdevice); a minute means it hangs.
    constexpr int kTimeoutSeconds = 60;
    engine::Compiler compiler(test::realToolkit(), std::nullopt, engine::engineCommand("engine"), kTimeoutSeconds);
    QVERIFY(!compiler.inProcess());
    pipeline::Job good;  // what the user compiles after a crash
    good.modules = saxpy_.modules;
    good.options = saxpy_.options;

    QElapsedTimer clock;
    clock.start();
    QStringList failures;
    auto fail = [&](const Input& in, const QString& why) {
        if (failures.size() < 20) failures << in.what + ": " + why;
    };
    int ok = 0, rejected = 0, timeouts = 0, crashes = 0, frontEndDeaths = 0;
    int cliRuns = 0, cliOk = 0, cliErrors = 0, cliAgrees = 0;
    std::map<std::string, int> bySignal;

    for (int i = 0; i < inputs; ++i) {
        const auto in = makeInput(i);
        const int pidBefore = compiler.enginePid();
        support::Result<pipeline::CompileResult> ran = support::makeError(support::ErrorKind::Internal, "not run");
        try {
            ran = compiler.run(in.job);
        } catch (const std::exception& e) {
            ++frontEndDeaths;
            fail(in, QString("the front end threw: %1").arg(e.what()));
            continue;
        }
        if (!ran) {
            ++frontEndDeaths;  // no result at all: the front end could not do its job
            fail(in, QString("no result: %1").arg(QString::fromStdString(ran.error().message)));
            continue;
        }
        const auto& r = *ran;
        // No engine left: it crashed, or was stopped at the timeout.
        const bool died = compiler.enginePid() == 0;
        const std::string first = r.diagnostics.empty() ? std::string() : r.diagnostics[0].message;
        if (r.ok) {
            ++ok;
            if (r.ptx.empty()) fail(in, "ok without PTX");
        } else if (r.diagnostics.empty()) {
            fail(in, "failed without a diagnostic");
        } else if (!died) {
            ++rejected;
        }
        if (died != (contains(first, "crashed (") || contains(first, "did not finish"))) {
            fail(in, QString("the engine %1, but the diagnostic says: %2")
                         .arg(died ? "died" : "lives")
                         .arg(QString::fromStdString(first)));
        } else if (died) {
            if (contains(first, "did not finish")) {
                ++timeouts;
            } else {
                ++crashes;
                const auto open = first.find("crashed (") + 9;
                ++bySignal[first.substr(open, first.find_first_of(":)", open) - open)];
                // The words say what crashed on which modules, and blame the damaged input.
                for (const auto& m : in.job.modules)
                    if (!contains(first, m.name))
                        fail(in, "the crash report does not name " + QString::fromStdString(m.name));
                const bool bitcode = std::any_of(in.job.modules.begin(), in.job.modules.end(),
                                                 [&](const auto& m) { return m.name == in.mutated && m.isBitcode(); });
                // ... and sit on it, so that the Problems row leads there.
                if (bitcode && (!contains(first, "the bitcode of " + in.mutated + " is the likely cause") ||
                                r.diagnostics[0].module != in.mutated))
                    fail(in, "the crash report does not blame " + QString::fromStdString(in.mutated) + ": " +
                                 QString::fromStdString(r.diagnostics[0].module + ": " + first));
            }
            qInfo("input %d (%s): %s", i, qPrintable(in.what), first.c_str());
            // The next compile starts a new engine and works.
            auto after = compiler.run(good);
            if (!after || !after->ok || !contains(after->ptx, ".entry saxpy") || compiler.enginePid() <= 0 ||
                compiler.enginePid() == pidBefore)
                fail(in, "the compile after the engine died did not work, in a new engine");
        }

        // Every seventh input (all kinds come round) also through nvpg compile, as a user would.
        if (i % 7) continue;
        ++cliRuns;
        QString why;
        const int exit = runCli(in, i, &why);
        if (exit < 0 || exit > 1) {
            ++frontEndDeaths;
            fail(in, "nvpg compile: " + why);
            continue;
        }
        ++(exit == 0 ? cliOk : cliErrors);
        if ((exit == 0) == r.ok) ++cliAgrees;
        if (exit == 1 && !why.contains("error:")) fail(in, "nvpg compile failed without an error line: " + why);
    }

    qInfo(
        "inputs %d: ok %d, rejected with diagnostics %d, engine crashes %d, timeouts %d, "
        "front-end deaths %d",
        inputs, ok, rejected, crashes, timeouts, frontEndDeaths);
    QString sigs;
    for (const auto& [sig, n] : bySignal) sigs += QString(" %1 %2").arg(QString::fromStdString(sig)).arg(n);
    qInfo("engine crashes by signal:%s", sigs.isEmpty() ? " none" : qPrintable(sigs));
    qInfo("nvpg compile runs %d: exit 0 %d, exit 1 %d, as the in-process verdict %d; %.0f s in all", cliRuns, cliOk,
          cliErrors, cliAgrees, clock.elapsed() / 1000.0);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    QCOMPARE(frontEndDeaths, 0);
    // The inputs must have reached libNVVM's hard cases, or this proves little.
    if (inputs >= 100) {
        QVERIFY(crashes > 0);
        QVERIFY(rejected > 0);
        QVERIFY(ok > 0);
    }
}

// nvpg compile on the input's modules (files as a user passes them; a workspace when a module
// is lazy or the example sets options or libdevice): its exit status, -1 when it died or hung;
// `why` gets its stderr.
int TestEngineFuzz::runCli(const Input& in, int i, QString* why) const {
    const auto dir = test::scratchDir() / ("cli" + std::to_string(i));
    std::filesystem::create_directories(dir);
    QStringList args{"compile", "--engine-timeout", "60", "--emit", in.lto ? "lto-ptx" : "ptx", "-o", "/dev/null"};
    const bool lazy = std::any_of(in.job.modules.begin(), in.job.modules.end(), [](const auto& m) { return m.lazy; });
    if (lazy || in.job.libdevice || !(in.job.options == nvvm::Options{})) {
        workspace::Workspace ws;
        ws.name = "fuzz";
        ws.modules = in.job.modules;
        ws.options = in.job.options;
        ws.libdevice = in.job.libdevice;
        if (auto st = workspace::saveWorkspace(ws, dir / "fuzz.nvpg"); !st) qFatal("%s", st.error().message.c_str());
        args << "fuzz.nvpg";
    } else {
        for (const auto& m : in.job.modules) {
            if (auto st = support::writeFileAtomic(dir / m.name, m.bytes); !st)
                qFatal("%s", st.error().message.c_str());
            args << QString::fromStdString(m.name);
        }
    }
    QProcess p;
    p.setWorkingDirectory(QString::fromStdString(dir.string()));
    p.start(QString::fromStdString(test::nvpgPath()), args);
    const bool finished = p.waitForFinished(180000);
    if (!finished) {
        p.kill();
        p.waitForFinished();
    }
    *why = QString::fromUtf8(p.readAllStandardError()).trimmed();
    std::filesystem::remove_all(dir);
    if (!finished) {
        *why = "did not finish within 180 s; " + *why;
        return -1;
    }
    if (p.exitStatus() == QProcess::CrashExit) {
        *why = "killed by a signal; " + *why;
        return -1;
    }
    if (p.exitCode() > 1) *why = QString("exit status %1; %2").arg(p.exitCode()).arg(*why);
    return p.exitCode();
}

QTEST_MAIN(TestEngineFuzz)
#include "tst_engine_fuzz.moc"
