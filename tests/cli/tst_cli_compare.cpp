// `nvpg compare` and toolkits from pip wheels: the same module under two CUDA toolkits (13.0 and
// the 12.9 of the pip wheels tests/FetchCuda12.sh unpacks), each side byte-identical to its own
// toolkit's plain libNVVM calls, and under two option sets (-ftz), as a compiler author and a
// teacher would compare them; `nvpg toolkits` and `--cuda-path` on a pip nvidia folder.
#include <QtTest>

#include <nlohmann/json.hpp>

#include "TestSupport.h"
#include "core/support/Diff.h"
#include "core/support/Text.h"

using namespace nvpg;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run run(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(180000)) qFatal("%s did not finish: %s", qPrintable(program), qPrintable(args.join(' ')));
    if (p.exitStatus() != QProcess::NormalExit)
        qFatal("%s crashed: %s", qPrintable(program), qPrintable(args.join(' ')));
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

Run runNvpg(const QStringList& args) {
    return run(QString::fromStdString(test::nvpgPath()), args);
}

QString data(const char* rel) {
    return QString::fromStdString((test::dataDir() / rel).string());
}

// The CUDA 12.9 pip wheels' nvidia folder, or why there is none (no network when they were
// fetched).
QString cuda12(QString* why) {
    const QString dir = qEnvironmentVariable("NVPG_TEST_CUDA12");
    if (dir.isEmpty()) {
        *why = "NVPG_TEST_CUDA12 is not set (run through ctest, which fetches the CUDA 12.9 wheels)";
        return {};
    }
    const auto status = QString::fromStdString(test::readText((dir + "/status").toStdString())).trimmed();
    if (!status.startsWith("ok")) {
        *why = "the CUDA 12.9 pip wheels are unavailable: " + status;
        return {};
    }
    return dir + "/site-packages/nvidia";
}

#define NEED_CUDA12(var)               \
    QString why_;                      \
    const QString var = cuda12(&why_); \
    if (var.isEmpty()) QSKIP(qPrintable(why_));

// The plain libNVVM calls with `libnvvm`, in a process of their own.
std::string plainPtx(const std::string& libnvvm, const QString& module, const QStringList& flags) {
    QTemporaryDir dir;
    const QString out = dir.path() + "/plain.ptx";
    const auto r =
        run(test::built::plainCompile, QStringList{QString::fromStdString(libnvvm), out, module, "--"} + flags);
    if (r.exitCode != 0) qFatal("plain compile with %s failed: %s", libnvvm.c_str(), r.err.constData());
    return test::readText(out.toStdString());
}

nlohmann::json readJson(const QString& path) {
    return nlohmann::json::parse(test::readText(path.toStdString()));
}

// The diff's hunks, without its two header lines (they name the sides).
std::string hunks(std::string_view diff) {
    const auto at = diff.find("\n@@");
    return at == std::string_view::npos ? std::string() : std::string(diff.substr(at + 1));
}

// Writes `text` to `dir`/`name` and gives its path.
QString written(const QTemporaryDir& dir, const QString& name, const std::string& text) {
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly) || f.write(text.data(), qint64(text.size())) != qint64(text.size()))
        qFatal("cannot write %s", qPrintable(f.fileName()));
    return f.fileName();
}

std::string fsubOf(std::string ir, const std::string& fadd) {
    const auto at = ir.find(fadd);
    if (at == std::string::npos) qFatal("no \"%s\" in the IR", fadd.c_str());
    auto fsub = fadd;
    fsub.replace(fsub.find("fadd"), 4, "fsub");
    return ir.replace(at, fadd.size(), fsub);
}

}  // namespace

class TestCliCompare : public QObject {
    Q_OBJECT

private slots:
    // A pip nvidia folder is a toolkit: --cuda-path takes it, and says which file of which of its
    // folders it used and which release it is (from the wheel's .dist-info).
    void aPipNvidiaFolderIsAToolkit() {
        NEED_CUDA12(nvidia);
        const auto r = runNvpg({"--cuda-path", nvidia, "info", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["cuda_release"]["version"].get<std::string>(), std::string("12.9.86"));
        std::map<std::string, nlohmann::json> libs;
        for (const auto& l : j["libraries"]) libs[l["name"].get<std::string>()] = l;
        QCOMPARE(libs["libNVVM"]["path"].get<std::string>(),
                 (nvidia + "/cuda_nvcc/nvvm/lib64/libnvvm.so").toStdString());
        QCOMPARE(libs["libNVVM"]["via"].get<std::string>(), std::string("via --cuda-path (nvidia/cuda_nvcc)"));
        QCOMPARE(libs["libdevice"]["path"].get<std::string>(),
                 (nvidia + "/cuda_nvcc/nvvm/libdevice/libdevice.10.bc").toStdString());
        QCOMPARE(libs["nvJitLink"]["path"].get<std::string>(),
                 (nvidia + "/nvjitlink/lib/libnvJitLink.so.12").toStdString());
        QVERIFY2(libs["nvJitLink"]["version"].get<std::string>().rfind("12.", 0) == 0, r.out.constData());
        // CUDA 12 still takes Volta, which 13 dropped: the arch list is the toolkit's.
        QVERIFY(j["archs"].dump().find("compute_70") != std::string::npos);

        // The site-packages that holds it is taken as well, and so is a compile with it.
        const auto site = QFileInfo(nvidia).path();
        QTemporaryDir dir;
        const auto c = runNvpg({"--cuda-path", site, "compile", data("numba/axpy.ll"), "--arch", "compute_70", "-o",
                                dir.path() + "/axpy.ptx", "--report", dir.path() + "/report.json"});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        const auto report = readJson(dir.path() + "/report.json");
        QCOMPARE(report["toolkit"]["libnvvm"]["path"].get<std::string>(),
                 (nvidia + "/cuda_nvcc/nvvm/lib64/libnvvm.so").toStdString());
        QVERIFY(test::readText((dir.path() + "/axpy.ptx").toStdString()).find(".target sm_70") != std::string::npos);
    }

    void toolkitsListsEachWithItsRelease() {
        NEED_CUDA12(nvidia);
        const auto r = runNvpg({"--cuda-path", nvidia, "toolkits", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j.size(), size_t(1));
        QCOMPARE(j[0]["release"]["version"].get<std::string>(), std::string("12.9.86"));
        QVERIFY(j[0]["release"]["source"].get<std::string>().find("nvidia_cuda_nvcc_cu12-12.9.86.dist-info") !=
                std::string::npos);
        // Without --cuda-path: every toolkit this machine has, the one the tests use among them.
        const auto all = nlohmann::json::parse(runNvpg({"toolkits", "--json"}).out.toStdString());
        bool sawOurs = false;
        for (const auto& t : all)
            sawOurs =
                sawOurs || t["libnvvm"]["path"].get<std::string>() == test::realToolkit()->nvvmReport().path.string();
        QVERIFY(sawOurs);
    }

    // The same module under CUDA 13.0 and 12.9: each side is its toolkit's plain PTX, and the diff
    // between them is the diff of those two (the release line at least differs), with --raw.
    void twoToolkitsEachGiveTheirOwnPlainPtx() {
        NEED_CUDA12(nvidia);
        QTemporaryDir dir;
        const auto module = data("numba/axpy.ll");
        const auto ours = test::realToolkit()->nvvmReport().path.string();
        const auto theirs = (nvidia + "/cuda_nvcc/nvvm/lib64/libnvvm.so").toStdString();
        // --raw: the byte-for-byte diff, which is diff -u's of the two plain PTXs.
        const auto r = runNvpg({"compare", module, "--arch", "compute_90", "--a", "--opt 3", "--b",
                                "--opt 3 --cuda-path " + nvidia, "--report", dir.path() + "/cmp.json", "-o",
                                dir.path() + "/diff.txt", "--raw"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto plainA = plainPtx(ours, module, {"-arch=compute_90", "-opt=3"});
        const auto plainB = plainPtx(theirs, module, {"-arch=compute_90", "-opt=3"});
        QVERIFY(plainA.find("release 13.") != std::string::npos);
        QVERIFY(plainB.find("release 12.9") != std::string::npos);
        const auto diff = test::readText((dir.path() + "/diff.txt").toStdString());
        QCOMPARE(hunks(diff), hunks(support::unifiedDiff(plainA, plainB, "a", "b").text));
        QVERIFY(diff.find("\n-// Cuda compilation tools, release 13.") != std::string::npos);
        QVERIFY(diff.find("\n+// Cuda compilation tools, release 12.9") != std::string::npos);
        QVERIFY2(r.out.contains("PTX: ") && r.out.contains(" lines differ"), r.out.constData());
        // And each side's PTX written by nvpg compile is that plain PTX, byte for byte.
        for (const auto& [path, plain] : {std::pair{QString(), plainA}, std::pair{nvidia, plainB}}) {
            QStringList args;
            if (!path.isEmpty()) args << "--cuda-path" << path;
            args << "compile" << module << "--arch"
                 << "compute_90"
                 << "-o" << dir.path() + "/side.ptx";
            const auto c = runNvpg(args);
            QVERIFY2(c.exitCode == 0, c.err.constData());
            QCOMPARE(test::readText((dir.path() + "/side.ptx").toStdString()), plain);
        }
        const auto report = readJson(dir.path() + "/cmp.json");
        QCOMPARE(report["a"]["toolkit"]["libnvvm"]["path"].get<std::string>(), ours);
        QCOMPARE(report["b"]["toolkit"]["libnvvm"]["path"].get<std::string>(), theirs);
        QCOMPARE(report["b"]["toolkit"]["release"]["version"].get<std::string>(), std::string("12.9.86"));
        QCOMPARE(report["comparison"]["identical"].get<bool>(), false);
        QVERIFY(report["comparison"]["b"].get<std::string>().find("CUDA 12.9.86") != std::string::npos);
    }

    // What -ftz=1 changes on the libdevice example: the float instructions take their .ftz forms.
    void ftzShowsTheFtzInstructionVariants() {
        QTemporaryDir dir;
        const auto r =
            runNvpg({"compare", QString::fromStdString(test::examplePath("libdevice-math").string()), "--arch",
                     "compute_90", "--a", "--ftz 0", "--b", "--ftz 1", "--report", dir.path() + "/r.json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        int ftzAdded = 0, ftzRemoved = 0;
        for (auto line : support::splitLines(std::string_view(r.out.constData(), size_t(r.out.size())))) {
            if (support::startsWith(line, "+") && line.find(".ftz.") != std::string_view::npos) ++ftzAdded;
            if (support::startsWith(line, "-") && line.find(".ftz.") != std::string_view::npos) ++ftzRemoved;
        }
        QVERIFY2(ftzAdded > ftzRemoved && ftzAdded >= 3, r.out.constData());
        // The table names the kernel with its figures on both sides.
        QVERIFY2(r.out.contains("\nwave "), r.out.constData());
        const auto report = readJson(dir.path() + "/r.json");
        const auto& k = report["comparison"]["kernels"][0];
        QCOMPARE(k["kernel"].get<std::string>(), std::string("wave"));
        QVERIFY(k["a"]["registers"].is_number() && k["b"]["registers"].is_number());
        QVERIFY(k["a"]["ptx_lines"].get<int>() > 10);
    }

    // Numba's kernel symbol is ~230 characters; the figures table names it
    // demangled and cut in the middle so that it fits a terminal; --wide gives it whole,
    // --raw-names the symbol; the JSON keeps the symbol.
    void longKernelNamesAreReadableAndFit() {
        QTemporaryDir dir;
        const QStringList args{"compare", "--no-cache", data("numba/math_kernel.ll"),
                               "--arch",  "compute_90", "--a",
                               "--ftz 0", "--b",        "--ftz 1"};
        const auto tableOf = [](const QByteArray& out) {
            const auto at = out.indexOf("\nkernel ");
            return at < 0 ? QByteArray() : out.mid(at + 1);
        };
        const auto r = runNvpg(args + QStringList{"--report", dir.filePath("r.json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto table = tableOf(r.out);
        QVERIFY2(!table.isEmpty(), r.out.constData());
        for (const auto& line : table.split('\n')) QVERIFY2(QString::fromUtf8(line).size() <= 120, line.constData());
        QVERIFY2(table.contains("\n__main__::math_kernel(Array<") && table.contains("…"), table.constData());
        QVERIFY2(!table.contains("_ZN8__main__"), table.constData());
        const auto report = readJson(dir.filePath("r.json"));
        const auto kernel = report["comparison"]["kernels"][0]["kernel"].get<std::string>();
        QVERIFY2(kernel.starts_with("_ZN8__main__11math_kernel"), kernel.c_str());

        const auto wide = tableOf(runNvpg(args + QStringList{"--wide"}).out);
        QVERIFY2(wide.contains("\n__main__::math_kernel(Array<float, 1, C, mutable, aligned>, Array<float, 1, C, "
                               "mutable, aligned>) "),
                 wide.constData());
        const auto raw = tableOf(runNvpg(args + QStringList{"--wide", "--raw-names"}).out);
        QVERIFY2(raw.contains(("\n" + kernel + " ").c_str()), raw.constData());
    }

    void identicalSidesSaySoAndSucceed() {
        const auto r =
            runNvpg({"compare", data("numba/axpy.ll"), "--arch", "compute_90", "--a", "--ftz 0", "--b", "--opt 3"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("PTX identical"), r.out.constData());
        QVERIFY(!r.out.contains("\n@@"));
    }

    // A side that fails is named, with what it was given, and the status says a compile failed.
    void aSideThatFailsIsNamed() {
        const auto r = runNvpg({"compare", data("numba/axpy.ll"), "--arch", "compute_90", "--a", "--ftz 0", "--b",
                                "--nvvm-flag=-no-such-option=1"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("side B (--nvvm-flag=-no-such-option=1"), r.err.constData());
        QVERIFY(!r.err.contains("side A"));
        // A side's options are checked as compile's are, naming the side.
        const auto bad = runNvpg({"compare", data("numba/axpy.ll"), "--a", "--ftz 2", "--b", "--ftz 1"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("side A") && bad.err.contains("ftz"), bad.err.constData());
    }

    // Two versions of the inputs under the same options (--against), diffed with
    // registers and labels renamed: numba's axpy with one fadd made fsub is the fma that became
    // a sub and the mul added, where byte for byte the renumbered registers differ too.
    void againstDiffsTwoVersionsOfTheInputs() {
        QTemporaryDir dir;
        const auto ir = test::readText(test::dataDir() / "numba/axpy.ll");
        const auto old = written(dir, "axpy.ll", ir);
        const auto edited = written(dir, "axpy2.ll", fsubOf(ir, "%\".137\" = fadd float %\".101\", %\".134\""));
        const auto r = runNvpg({"compare", old, "--against", edited, "--arch", "compute_90", "--report",
                                dir.filePath("r.json"), "-o", dir.filePath("diff.txt")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // The fma made a sub (changed) and the mul added: 2 lines, the parts adding up to it.
        QVERIFY2(r.out.contains("PTX: 2 lines differ (1 changed, 0 removed, 1 added) in 1 hunk, renumbering aside;"),
                 r.out.constData());
        const auto diff = test::readText(dir.filePath("diff.txt").toStdString());
        QVERIFY2(support::startsWith(diff, "--- A: " + old.toStdString() + " · CUDA ") &&
                     diff.find("\n+++ B: " + edited.toStdString() + " · CUDA ") != std::string::npos,
                 diff.c_str());
        int minus = 0, plus = 0;
        for (auto line : support::splitLines(diff)) {
            if (support::startsWith(line, "-") && !support::startsWith(line, "---")) ++minus;
            if (support::startsWith(line, "+") && !support::startsWith(line, "+++")) ++plus;
        }
        QCOMPARE(minus, 1);  // the fma
        QCOMPARE(plus, 2);   // its sub, and the mul
        QVERIFY2(diff.find("\n-\tfma.rn.f32") != std::string::npos, diff.c_str());
        const auto report = readJson(dir.filePath("r.json"));
        QCOMPARE(report["comparison"]["normalized_diff"]["changed"].get<int>(), 1);
        QCOMPARE(report["comparison"]["normalized_diff"]["added"].get<int>(), 1);
        QVERIFY(report["comparison"]["diff"]["added"].get<int>() > 2);
        QCOMPARE(report["b"]["inputs"].get<std::string>(), edited.toStdString());
        QVERIFY(report["a"]["kernels"].is_array());
        // --raw: the old diff, every renumbered line.
        const auto raw = runNvpg({"compare", old, "--against", edited, "--arch", "compute_90", "--raw"});
        QVERIFY2(raw.exitCode == 0, raw.err.constData());
        QVERIFY2(raw.out.contains(" lines differ (") && !raw.out.contains("renumbering aside"), raw.out.constData());
        QVERIFY(raw.out.count("\n+") > r.out.count("\n+"));
    }

    // Several modules a side, and workspaces: the same modules are identical; a workspace whose
    // kernel has fadd made fsub is at most 3 PTX lines (libdevice-math, 37 byte for byte).
    void againstTakesSeveralModulesAndWorkspaces() {
        QTemporaryDir dir;
        const auto one = data("numba/call_device.1.ll"), two = data("numba/call_device.2.ll");
        const auto copy1 = written(dir, "c1.ll", test::readText(one.toStdString()));
        const auto copy2 = written(dir, "c2.ll", test::readText(two.toStdString()));
        const auto same = runNvpg({"compare", one, two, "--against", copy1, copy2, "--arch", "compute_90"});
        QVERIFY2(same.exitCode == 0, same.err.constData());
        QVERIFY2(same.out.contains("PTX identical"), same.out.constData());

        const auto ws = test::readText(test::examplePath("libdevice-math"));
        const auto edited = written(dir, "libdevice-math-fsub.nvpg", fsubOf(ws, "%r = fadd float %s, %ep"));
        const auto r = runNvpg({"compare", QString::fromStdString(test::examplePath("libdevice-math").string()),
                                "--against", edited, "--arch", "compute_90", "--report", dir.filePath("r.json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto n = readJson(dir.filePath("r.json"))["comparison"]["normalized_diff"];
        const int rows = n["changed"].get<int>() + n["removed"].get<int>() + n["added"].get<int>();
        QVERIFY2(rows >= 1 && rows <= 3, r.out.constData());
        int lines = 0;
        for (auto line : support::splitLines(std::string_view(r.out.constData(), size_t(r.out.size()))))
            if ((support::startsWith(line, "+") && !support::startsWith(line, "+++")) ||
                (support::startsWith(line, "-") && !support::startsWith(line, "---")))
                ++lines;
        QVERIFY2(lines >= 2 && lines <= 4, r.out.constData());  // at most 3 rows: a changed one prints 2 lines
        QVERIFY2(r.out.contains("sub.f32"), r.out.constData());
        QVERIFY2(r.out.contains("\nwave "), r.out.constData());
    }

    // Without --against, the sides' options are needed; with it, its inputs are inputs too.
    void optionSetsOrVersionsAreNeeded() {
        const auto r = runNvpg({"compare", data("numba/axpy.ll"), "--a", "--ftz 1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--against"), r.err.constData());
        // The diff is not written over side B's input either.
        QTemporaryDir dir;
        const auto b = written(dir, "b.ll", test::readText(test::dataDir() / "numba/axpy.ll"));
        const auto onto = runNvpg({"compare", data("numba/axpy.ll"), "--against", b, "-o", b});
        QCOMPARE(onto.exitCode, 2);
        QVERIFY2(onto.err.contains("is the input"), onto.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliCompare)
#include "tst_cli_compare.moc"
