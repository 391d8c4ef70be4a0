// `nvpg` as scripts use it: exit statuses, where output goes, error formats, and PTX that is
// byte-identical to plain libNVVM calls.
#include <QtTest>

#include <sys/resource.h>
#include <sys/stat.h>

#include <functional>

#include <nlohmann/json.hpp>

#include "PlainNvvm.h"
#include "PlainTools.h"
#include "TestSupport.h"
#include "core/nvvm/Options.h"
#include "core/support/Text.h"

using namespace nvpg;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

// `inChild` runs in the child before nvpg starts (to set resource limits, say).
Run runNvpgAs(const QString& program, const QStringList& args, const QString& workDir, const QProcessEnvironment& env,
              const std::function<void()>& inChild = {}) {
    QProcess p;
    if (inChild) p.setChildProcessModifier(inChild);
    if (!workDir.isEmpty()) p.setWorkingDirectory(workDir);
    if (!env.isEmpty()) p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(120000)) qFatal("nvpg did not finish: %s", qPrintable(args.join(' ')));
    if (p.exitStatus() != QProcess::NormalExit) qFatal("nvpg crashed: %s", qPrintable(args.join(' ')));
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

Run runNvpg(const QStringList& args, const QString& workDir = {}, const QProcessEnvironment& env = {},
            const std::function<void()>& inChild = {}) {
    return runNvpgAs(QString::fromStdString(test::nvpgPath()), args, workDir, env, inChild);
}

// Hostile inputs run with 1 GB of address space and 60 s, so that a regression costs neither
// the machine's memory nor the suite's time.
const QString kBounded = QString::fromLatin1(NVPG_ASAN ? "exec timeout 60 \"$NVPG\" \"$@\""
                                                       : "ulimit -v 1000000; exec timeout 60 \"$NVPG\" \"$@\"");

mode_t modeOf(const QString& path) {
    struct stat st {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_mode & 07777 : 0;
}

QByteArray contents(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// nvpg under /bin/sh, for what QProcess does not set up: a closed stdout, a memory limit, a
// time limit. The script finds nvpg in $NVPG and its arguments in $1, $2, ...
Run runShell(const QString& script, const QStringList& args = {}, const QString& workDir = {}) {
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("NVPG", QString::fromStdString(test::nvpgPath()));
    return runNvpgAs("/bin/sh", QStringList{"-c", script, "sh"} + args, workDir, env);
}

// An address space of 1 GiB for nvpg and its engine: a run that built a 4 GB buffer would fail.
// (Under ASan, the tests that use it check the exit status and the time alone.)
void limitAddressSpace() {
    if (NVPG_ASAN) return;
    const rlimit limit{1ull << 30, 1ull << 30};
    setrlimit(RLIMIT_AS, &limit);
}

QString data(const char* rel) {
    return QString::fromStdString((test::dataDir() / rel).string());
}
QString example(const char* rel) {
    return QString::fromStdString((test::examplesDir() / rel).string());
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void infoSaysWhereEachLibraryCameFrom() {
        const auto r = runNvpg({"info"});
        QCOMPARE(r.exitCode, 0);
        const auto& tk = *test::realToolkit();
        for (const auto* lib : {&tk.nvvmReport(), &tk.libdeviceReport(), &tk.nvJitLinkReport()}) {
            QVERIFY2(r.out.contains(QByteArray::fromStdString(lib->path.string())), r.out.constData());
            QVERIFY(r.out.contains(QByteArray::fromStdString(lib->via)));
        }
        QVERIFY(r.out.contains("compute_90"));
        QVERIFY(r.out.contains("GPUs"));
    }

    void infoAsJson() {
        const auto r = runNvpg({"info", "--json"});
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["libraries"][0]["name"], "libNVVM");
        QCOMPARE(j["libraries"][0]["found"], true);
        QVERIFY(j["libraries"][0]["via"].get<std::string>().starts_with("via "));
        QVERIFY(j.contains("gpus"));
        QVERIFY(j["gpus"].size() > 0 || j.contains("no_gpu_reason"));
    }

    void infoListsNvdisasm() {
        const auto r = runNvpg({"info"});
        QCOMPARE(r.exitCode, 0);
        const auto& nvdisasm = test::realToolkit()->nvdisasmReport();
        if (nvdisasm.found) {
            QVERIFY2(r.out.contains("nvdisasm    " + QByteArray::fromStdString(nvdisasm.version)), r.out.constData());
            QVERIFY(r.out.contains(QByteArray::fromStdString(nvdisasm.path.string())));
        } else {
            // Where it looked, and how to get it.
            QVERIFY2(r.out.contains("nvdisasm    not found: "), r.out.constData());
            QVERIFY(r.out.contains("pip install nvidia-cuda-nvdisasm"));
            QVERIFY(r.out.contains("tried nvdisasm (via PATH): not on PATH"));
        }
        const auto j = nlohmann::json::parse(runNvpg({"info", "--json"}).out.toStdString());
        bool listed = false;
        for (const auto& lib : j["libraries"])
            listed =
                listed || (lib["name"] == "nvdisasm" && lib["found"] == nvdisasm.found &&
                           (nvdisasm.found || lib["problem"].get<std::string>().find("nvdisasm") != std::string::npos));
        QVERIFY(listed);
    }

    void emitSassWithoutNvdisasmExitsTwoSayingWhereItLooked() {
        // A toolkit of links to the real libraries and ptxas, without bin/nvdisasm.
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        const auto& real = *test::realToolkit();
        std::filesystem::create_directories(root / "nvvm/lib64");
        std::filesystem::create_directories(root / "nvvm/libdevice");
        std::filesystem::create_directories(root / "lib64");
        std::filesystem::create_directories(root / "bin");
        std::filesystem::create_symlink(real.nvvmReport().path, root / "nvvm/lib64/libnvvm.so.4");
        std::filesystem::create_symlink(real.libdeviceReport().path, root / "nvvm/libdevice/libdevice.10.bc");
        std::filesystem::create_symlink(real.nvJitLinkReport().path,
                                        root / "lib64" / real.nvJitLinkReport().path.filename());
        if (const auto* ptxas = real.ptxas()) std::filesystem::create_symlink(*ptxas, root / "bin/ptxas");
        const auto r = runNvpg({"compile", "--cuda-path", dir.path(), "--arch", "compute_90", "--emit", "sass",
                                example("src/saxpy/saxpy.ll")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("nvpg: --emit sass: nvdisasm not found in the chosen toolkit"), r.err.constData());
        QVERIFY(r.err.contains("nvdisasm not found in the chosen toolkit"));
        QVERIFY(r.err.contains(
            QByteArray::fromStdString((root / "bin/nvdisasm").string() + " (beside libNVVM): not found")));
        QVERIFY(r.err.contains("(via --cuda-path)"));
        // The report says why it has no SASS counts, and the compile still succeeds.
        const auto report = dir.filePath("r.json");
        const auto withReport = runNvpg({"compile", "--cuda-path", dir.path(), "--arch", "compute_90", "--report",
                                         report, "-o", "/dev/null", example("src/saxpy/saxpy.ll")});
        QCOMPARE(withReport.exitCode, 0);
        const auto j = nlohmann::json::parse(test::readText(report.toStdString()));
        QVERIFY2(j["sass"]["unavailable"].get<std::string>().find("nvdisasm not found") != std::string::npos,
                 j["sass"].dump().c_str());
        QVERIFY(!j["kernels"][0].contains("sass_instructions"));
    }

    // nvpg parses with the named subcommand's options alone first; an
    // argument that is a subcommand's name but a value (a toolkit folder called "run") must still
    // be read as the whole table reads it, and a mistake still gets the whole table's error.
    void aValueNamedLikeASubcommandIsReadAsTheValue() {
        QTemporaryDir dir;
        const std::filesystem::path root = std::filesystem::path(dir.path().toStdString()) / "run";
        const auto& real = *test::realToolkit();
        std::filesystem::create_directories(root / "nvvm/lib64");
        std::filesystem::create_directories(root / "nvvm/libdevice");
        std::filesystem::create_symlink(real.nvvmReport().path, root / "nvvm/lib64/libnvvm.so.4");
        std::filesystem::create_symlink(real.libdeviceReport().path, root / "nvvm/libdevice/libdevice.10.bc");
        const auto out = dir.filePath("out.ptx");
        const auto r = runNvpg(
            {"--cuda-path", "run", "compile", "--arch", "compute_90", "--no-cache", "-o", out, data("ir/sinf.ll")},
            dir.path());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(contents(out).contains(".entry"));
        const auto wrong = runNvpg({"compile", "--no-such-option", data("ir/sinf.ll")});
        QCOMPARE(wrong.exitCode, 2);
        QVERIFY2(wrong.err.contains("--no-such-option"), wrong.err.constData());
        const auto help = runNvpg({"compile", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--emit"));
    }

    void emptyCudaPathExitsTwoListingPlacesTried() {
        QTemporaryDir empty;
        for (const QStringList& args : {QStringList{"compile", "--cuda-path", empty.path(), data("ir/sinf.ll")},
                                        QStringList{"info", "--cuda-path", empty.path()}}) {
            const auto r = runNvpg(args);
            QCOMPARE(r.exitCode, 2);
            QVERIFY(r.out.isEmpty());
            QVERIFY2(r.err.contains((empty.path() + "/nvvm/lib64/libnvvm.so.4").toUtf8()), r.err.constData());
            QVERIFY(r.err.contains((empty.path() + "/lib64/libnvvm.so.4").toUtf8()));
            QVERIFY(!r.err.contains("/usr/local/cuda"));
        }
    }

    void compileWritesPtxToStdout() {
        const auto r = runNvpg({"compile", "--arch", "compute_90", data("ir/sinf.ll"), "--libdevice"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(".visible .entry sin_kernel("));
        QVERIFY(!r.out.contains(".extern .func"));
        QVERIFY(r.err.isEmpty());
    }

    void compilePrintsAPitfallsHintAndItsFix() {
        const auto r = runNvpg({"compile", "--arch", "compute_90", data("ir/pitfalls/no-version.ll")});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("no-version.ll:13: error: "), r.err.constData());
        QVERIFY2(r.err.contains("has no !nvvmir.version"), r.err.constData());
        // Modules are named by the path given.
        QVERIFY2(r.err.contains(
                     ("\n  fix: Add !nvvmir.version 2.0 to " + data("ir/pitfalls/no-version.ll") + "\n").toUtf8()),
                 r.err.constData());
        const auto w =
            runNvpg({"compile", "--arch", "compute_90", "--no-libdevice", data("ir/pitfalls/libdevice-off.ll")});
        QCOMPARE(w.exitCode, 1);  // an unresolved __nv_sinf: nothing could load the PTX
        QVERIFY2(w.err.contains("libdevice-off.ll:10:"), w.err.constData());
        QVERIFY2(w.err.contains("\n  fix: Link libdevice\n"), w.err.constData());
    }

    // Lesson 2's step 3 with @tile's zeroinitializer kept: the location line says where and why
    // (what libNVVM's verifier says two lines further down), the IR it quotes follows.
    void compilePlacesTheSharedInitializerErrorOnTheGlobal() {
        const QString input = data("ir/shared-init.ll");
        const auto r = runNvpg({"compile", "--no-cache", "--arch", "compute_75", input});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains((input + ":19:1: error: Global Variable `tile': Shared variables can't be "
                                         "initialized\n  context: @tile = internal addrspace(3) global")
                                    .toUtf8()),
                 r.err.constData());
    }

    // clang-14's IR for a CUDA kernel below compute_100: what libNVVM stops at is named as newer
    // than LLVM 7.0.1, with the release that added it, and both ways out are offered.
    void compileSaysIrIsFromANewerLlvm() {
        const QString input = data("ir/newer/kernels-clang14.ll");
        const auto r = runNvpg({"compile", "--no-cache", "--arch", "compute_75", input});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains((input + ":9:36: error: parse expected ')' at end of argument list; `noundef` is an "
                                         "attribute newer than LLVM 7.0.1 (added in LLVM 11)")
                                    .toUtf8()),
                 r.err.constData());
        QVERIFY2(r.err.contains(("\n  fix: Rewrite " + input + " for LLVM 7.0.1\n").toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("\n  fix: Compile for compute_100, which reads the modern dialect\n"),
                 r.err.constData());
    }

    // A numba module calling libdevice, compiled without it: the same verdict (exit 1) whatever
    // is emitted, as the app's, with one error per unresolved function at its call's file:line.
    void numbaWithoutLibdeviceFailsAtTheCalls_data() {
        QTest::addColumn<QString>("output");
        for (const char* e : {"ptx", "lto-ptx", "cubin", "ltoir"}) QTest::newRow(e) << e;
    }
    void numbaWithoutLibdeviceFailsAtTheCalls() {
        QFETCH(QString, output);
        QTemporaryDir dir;
        const QString input = data("numba/math_kernel.ll");
        const auto r = runNvpg({"compile", "--no-cache", "--no-libdevice", "--arch", "compute_90", "--emit", output,
                                input, "-o", dir.filePath("out")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(!QFile::exists(dir.filePath("out")), r.err.constData());
        QCOMPARE(r.err.count(": error: "), qsizetype(3));
        QCOMPARE(r.err.count(": warning: "), qsizetype(0));
        for (const char* at :
             {":103:23: error: @__nv_sinf ", ":133:24: error: @__nv_expf ", ":167:25: error: @__nv_pow "})
            QVERIFY2(r.err.contains((input + at).toUtf8()), r.err.constData());
        QCOMPARE(r.err.count("\n  fix: Link libdevice\n"), qsizetype(3));
        QVERIFY2(!r.err.contains("NVJITLINK"), r.err.constData());
    }

    // A module that calls libdevice, given without --libdevice or --no-libdevice, links it and
    // says so; --no-libdevice and a workspace's saved choice win.
    void libdeviceIsLinkedWhenTheModulesCallIt() {
        QTemporaryDir dir;
        const QString input = data("numba/math_kernel.ll");
        const auto r = runNvpg({"compile", "--no-cache", "--arch", "compute_90", input, "-o", dir.filePath("k.ptx")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.err, QByteArray("nvpg: libdevice linked: the modules call __nv_sinf, __nv_expf, __nv_pow "
                                   "(--no-libdevice compiles without it)\n"));
        QVERIFY(!contents(dir.filePath("k.ptx")).contains(".extern .func"));
        const auto off = runNvpg({"compile", "--no-cache", "--arch", "compute_90", "--no-libdevice", input});
        QCOMPARE(off.exitCode, 1);
        QVERIFY(!off.err.contains("libdevice linked"));
        const auto plain = runNvpg({"compile", "--no-cache", "--arch", "compute_90", data("numba/axpy.ll")});
        QCOMPARE(plain.exitCode, 0);
        QVERIFY2(plain.err.isEmpty(), plain.err.constData());
        QCOMPARE(runNvpg({"compile", "--libdevice", "--no-libdevice", input}).exitCode, 2);

        // A workspace: its saved "libdevice": false wins; without the key the modules decide.
        auto ws = nlohmann::json::parse(test::readText(test::examplePath("libdevice-math")));
        ws["libdevice"] = false;
        const QString saved = dir.filePath("saved.nvpg");
        const auto write = [](const QString& path, const std::string& text) {
            QFile f(path);
            return f.open(QIODevice::WriteOnly) && f.write(text.data(), qint64(text.size())) == qint64(text.size());
        };
        QVERIFY(write(saved, ws.dump()));
        QCOMPARE(runNvpg({"compile", "--no-cache", "--arch", "compute_90", saved}).exitCode, 1);
        ws.erase("libdevice");
        const QString unsaid = dir.filePath("unsaid.nvpg");
        QVERIFY(write(unsaid, ws.dump()));
        const auto decided = runNvpg({"compile", "--no-cache", "--arch", "compute_90", unsaid});
        QVERIFY2(decided.exitCode == 0 && decided.err.contains("nvpg: libdevice linked: the modules call __nv_sinf"),
                 decided.err.constData());
    }

    // The two-modules example with its helper marked lazy: a lazy text module, which libNVVM
    // would fail with an empty log; nvpg says so and prints the fix that unmarks it.
    void lazyTextModuleInAWorkspaceGetsTheUnmarkFix() {
        auto ws = nlohmann::json::parse(test::readText(test::examplePath("two-modules")));
        ws["modules"][1]["lazy"] = true;
        QTemporaryDir dir;
        const QString path = dir.filePath("lazy.nvpg");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(ws.dump()));
        f.close();
        const auto r = runNvpg({"compile", "--arch", "compute_90", path});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("helper.ll: error: module helper.ll is marked lazy but is text IR"), r.err.constData());
        QVERIFY2(r.err.contains("\n  fix: Unmark helper.ll as lazy\n"), r.err.constData());
    }

    void ptxIsByteIdenticalToPlainLibnvvm_data() {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<bool>("libdevice");
        QTest::newRow("numba axpy") << QStringList{"numba/axpy.ll"} << QStringList{"-opt=3", "-arch=compute_90"}
                                    << true;
        QTest::newRow("numba math, fastmath")
            << QStringList{"numba/math_kernel_fastmath.ll"}
            << QStringList{"-opt=3", "-arch=compute_90", "-ftz=1", "-fma=1", "-prec-div=0", "-prec-sqrt=0"} << true;
        QTest::newRow("numba two modules") << QStringList{"numba/call_device.1.ll", "numba/call_device.2.ll"}
                                           << QStringList{"-opt=3", "-arch=compute_90"} << true;
        QTest::newRow("two modules, opt 0")
            << QStringList{"ir/caller.ll", "ir/callee.ll"} << QStringList{"-arch=compute_80", "-opt=0"} << false;
        QTest::newRow("jump tables") << QStringList{"ir/sinf.ll"}
                                     << QStringList{"-arch=compute_100a", "-jump-table-density=10"} << true;
    }
    void ptxIsByteIdenticalToPlainLibnvvm() {
        QFETCH(QStringList, files);
        QFETCH(QStringList, flags);
        QFETCH(bool, libdevice);
        QStringList args = {"compile"};
        std::vector<test::PlainModule> plain;
        std::vector<std::string> plainFlags;
        for (const auto& f : files) {
            args << data(f.toUtf8().constData());
            plain.push_back({data(f.toUtf8().constData()).toStdString(),
                             test::readText(data(f.toUtf8().constData()).toStdString()), false});
        }
        for (const auto& flag : flags) {
            // "-opt=3" is "--opt 3" on nvpg's command line.
            const auto eq = flag.indexOf('=');
            args << "-" + flag.left(eq) << flag.mid(eq + 1);
            plainFlags.push_back(flag.toStdString());
        }
        if (libdevice) {
            args << "--libdevice";
            plain.push_back({"libdevice.10.bc", **test::realToolkit()->libdevice(), true});
        }
        const auto r = runNvpg(args);
        QCOMPARE(r.exitCode, 0);
        const auto reference = test::plainCompile(test::realToolkit()->nvvm(), plain, plainFlags);
        QVERIFY(!support::startsWith(reference, "ERROR"));
        QCOMPARE(r.out.toStdString(), reference);
    }

    void compileErrorsAreFileLineColOnStderr() {
        const auto r = runNvpg({"compile", "--arch", "compute_90", data("ir/caller.ll"), data("ir/broken.ll")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.trimmed(), (data("ir/broken.ll") + ":8:8: error: parse expected instruction opcode").toUtf8());
    }

    void verifyOnly() {
        auto r = runNvpg({"compile", "--verify-only", "--arch", "compute_90", data("ir/verify-alloca.ll")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith((data("ir/verify-alloca.ll") + ":8:3: error: ").toUtf8()), r.err.constData());
        r = runNvpg({"compile", "--verify-only", "--arch", "compute_90", data("ir/sinf.ll")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.isEmpty());
    }

    // Every compile runs libNVVM's verifier first: what it refuses exits 1 with module:line;
    // --no-verify compiles it anyway. The report's stages list the verify.
    void compileVerifiesFirst_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("alloca") << "ir/verify-alloca.ll" << 8
                                << "Allocation instruction pointer not in the stack address space";
        QTest::newRow("datalayout") << "ir/verify-layout.ll" << 3 << "DataLayoutError: Unsupported integer alignment";
    }
    void compileVerifiesFirst() {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, message);
        const QString path = data(file.toUtf8().constData());
        auto r = runNvpg({"compile", "--arch", "compute_90", path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        const QString at = path + ":" + QString::number(line) + ":";
        QVERIFY2(r.err.startsWith(at.toUtf8()) && r.err.contains((": error: " + message).toUtf8()), r.err.constData());

        r = runNvpg({"compile", "--no-verify", "--arch", "compute_90", path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(".target sm_90"), r.err.constData());

        QTemporaryDir dir;
        const auto report = dir.filePath("r.json");
        for (const bool on : {true, false}) {
            QStringList args{"compile",  "--arch", "compute_90", data("ir/lto-kept-dropped.ll"),
                             "--report", report,   "-o",         dir.filePath("k.ptx")};
            if (!on) args << "--no-verify";
            QCOMPARE(runNvpg(args).exitCode, 0);
            const auto j = nlohmann::json::parse(test::readText(report.toStdString()));
            QCOMPARE(j["verify"].get<bool>(), on);
            QStringList stages;
            for (const auto& st : j["stages"]) stages << QString::fromStdString(st["name"].get<std::string>());
            QVERIFY2(stages.contains("compile PTX"), qPrintable(stages.join(", ")));
            QVERIFY2(on ? stages.indexOf("verify") >= 0 && stages.indexOf("verify") < stages.indexOf("compile PTX")
                        : !stages.contains("verify"),
                     qPrintable(stages.join(", ")));
        }
    }

    // Each libNVVM option of nvvm::optionTable() is an option of nvpg compile under its name,
    // with the table's help and allowed values; gen-lto is not (it is --emit ltoir).
    void compileHelpListsEveryTableOption() {
        const auto r = runNvpg({"compile", "--help"});
        QCOMPARE(r.exitCode, 0);
        const QString help = QString::fromUtf8(r.out);
        for (const auto& info : nvvm::optionTable()) {
            const auto name = QString::fromUtf8(info.name.data(), qsizetype(info.name.size()));
            const QString option = (name.size() == 1 ? "-" : "--") + name;
            const QRegularExpression listed("(^|\\s)" + QRegularExpression::escape(option) + "(\\s|,)",
                                            QRegularExpression::MultilineOption);
            if (info.outputChoice) {
                QVERIFY2(!help.contains(listed), qPrintable(option));
                continue;
            }
            QVERIFY2(help.contains(listed), qPrintable(option + " not in:\n" + help));
            QVERIFY2(help.contains(QString::fromUtf8(info.help.data(), qsizetype(info.help.size()))),
                     qPrintable(option));
            if (info.kind != nvvm::OptionKind::Switch)
                QVERIFY2(help.contains(QString::fromStdString(nvvm::allowedValues(info))), qPrintable(option));
        }
    }

    // A bad value for any table option is a usage error naming the option, before any compile.
    void everyTableOptionRefusesABadValue() {
        for (const auto& info : nvvm::optionTable()) {
            if (info.outputChoice || info.kind == nvvm::OptionKind::Switch) continue;
            const auto name = QString::fromUtf8(info.name.data(), qsizetype(info.name.size()));
            const auto r = runNvpg({"compile", "--" + name, "bogus", data("ir/sinf.ll")});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(("option " + name + ": 'bogus'").toUtf8()), r.err.constData());
            QVERIFY(r.out.isEmpty());
        }
    }

    void usageErrorsExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("bad opt") << QStringList{"compile", "--opt", "2", data("ir/sinf.ll")} << "use 0 or 3";
        QTest::newRow("bad arch") << QStringList{"compile", "--arch", "sm_90", data("ir/sinf.ll")}
                                  << "compute_90, not sm_90";
        QTest::newRow("double-dash flag")
            << QStringList{"compile", "--nvvm-flag=--generate-line-info", data("ir/sinf.ll")}
            << "single dash: '-generate-line-info'";
        QTest::newRow("bad emit") << QStringList{"compile", "--emit", "sass", data("ir/sinf.ll")} << "--emit";
        QTest::newRow("missing file") << QStringList{"compile", data("ir/nope.ll")} << "nope.ll";
        QTest::newRow("unknown extension") << QStringList{"compile", data("ptx/multi.ptx")} << "expected a .ll";
        QTest::newRow("no input") << QStringList{"compile"} << "INPUT";
        QTest::newRow("no command") << QStringList{} << "subcommand";
    }
    void usageErrorsExitTwo() {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const auto r = runNvpg(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(mentions.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    // An extra flag that sets a typed option gets one answer however it is written, in nvpg's
    // words: the nvpg option to use, not the app's "field".
    void extraFlagForATypedOptionNamesTheNvpgOption_data() {
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("-opt=3") << "-opt=3"
                                << "sets the option opt, which has its own nvpg option --opt";
        QTest::newRow("--opt=3") << "--opt=3"
                                 << "sets the option opt, which has its own nvpg option --opt";
        QTest::newRow("-ftz=1") << "-ftz=1"
                                << "its own nvpg option --ftz";
        QTest::newRow("-g") << "-g"
                            << "its own nvpg option -g:";
    }
    void extraFlagForATypedOptionNamesTheNvpgOption() {
        QFETCH(QString, flag);
        QFETCH(QString, mentions);
        const auto r = runNvpg({"compile", "--nvvm-flag=" + flag, data("ir/sinf.ll")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(mentions.toUtf8()), r.err.constData());
        QVERIFY2(!r.err.contains("field") && !r.err.contains("single dash"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void ltoPtxKeepsNumbaKernels() {
        const auto r = runNvpg(
            {"compile", "--emit", "lto-ptx", "--libdevice", "--arch", "compute_90", data("numba/math_kernel.ll")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.count(".entry "), 1);
        QVERIFY(r.err.isEmpty());
    }

    void droppedKernelWarningNamesIt() {
        QTemporaryDir dir;
        auto ir = test::readText((test::dataDir() / "numba/axpy.ll").string());
        const auto from = ir.find("@\"llvm.used\"");
        ir.erase(from, ir.find('\n', from) - from);
        const auto path = dir.filePath("axpy-no-used.ll");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(ir.data(), qint64(ir.size()));
        f.close();
        const auto r = runNvpg({"compile", "--emit", "lto-ptx", "--libdevice", "--arch", "compute_90", path});
        QCOMPARE(r.exitCode, 0);  // a warning: the link itself succeeded
        QVERIFY(!r.out.contains(".entry"));
        QVERIFY2(r.err.contains(": warning: kernel '_ZN8__main__4axpy"), r.err.constData());
        QVERIFY(r.err.contains("@llvm.used"));
        QVERIFY(r.err.startsWith(path.toUtf8() + ":"));
    }

    void outputsGoWhereAsked() {
        QTemporaryDir dir;
        const auto ptx = dir.filePath("k.ptx"), ltoir = dir.filePath("k.ltoir"), cubin = dir.filePath("k.cubin");
        QCOMPARE(runNvpg({"compile", "--arch", "compute_90", data("ir/sinf.ll"), "--libdevice", "-o", ptx}).exitCode,
                 0);
        QVERIFY(QFileInfo(ptx).size() > 0);
        QCOMPARE(
            runNvpg({"compile", "--arch", "compute_90", data("ir/lto-kept-dropped.ll"), "--emit", "ltoir", "-o", ltoir})
                .exitCode,
            0);
        QVERIFY(QFileInfo(ltoir).size() > 0);
        const auto c = runNvpg(
            {"compile", "--arch", "compute_90", data("ir/lto-kept-dropped.ll"), "--emit", "cubin", "-o", cubin});
        QCOMPARE(c.exitCode, 0);
        QFile cf(cubin);
        QVERIFY(cf.open(QIODevice::ReadOnly));
        QCOMPARE(cf.read(4), QByteArray("\x7f"
                                        "ELF"));
        QVERIFY(c.err.contains("warning: kernel 'dropped'"));  // from the cubin link's listing
    }

    void separateLtoModeWritesOneFilePerModule() {
        QTemporaryDir dir;
        const auto out = dir.filePath("prog.ltoir");
        const auto r = runNvpg({"compile", "--arch", "compute_90", "--emit", "ltoir", "--lto-mode", "separate",
                                data("ir/caller.ll"), data("ir/callee.ll"), "-o", out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFileInfo(dir.filePath("prog.caller.ltoir")).size() > 0);
        QVERIFY(QFileInfo(dir.filePath("prog.callee.ltoir")).size() > 0);
        const auto noOut = runNvpg({"compile", "--arch", "compute_90", "--emit", "ltoir", "--lto-mode", "separate",
                                    data("ir/caller.ll"), data("ir/callee.ll")});
        QCOMPARE(noOut.exitCode, 2);
        QVERIFY(noOut.err.contains("-o FILE"));
    }

    void separateLtoModeNeverWritesTwoModulesToOnePath() {
        // Two files of one stem in two folders: each module gets its own file, holding its own LTO-IR.
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("d1") && QDir(dir.path()).mkpath("d2") && QDir(dir.path()).mkpath("out"));
        const auto k1 = dir.filePath("d1/k.ll"), k2 = dir.filePath("d2/k.ll");
        QVERIFY(QFile::copy(data("ir/caller.ll"), k1) && QFile::copy(data("ir/callee.ll"), k2));
        const QStringList separate = {"compile", "--arch", "compute_90", "--emit", "ltoir", "--lto-mode", "separate"};
        const auto r = runNvpg(separate + QStringList{"-o", dir.filePath("out/out.ltoir"), k1, k2});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QDir(dir.filePath("out")).entryList(QDir::Files), QStringList({"out.k-2.ltoir", "out.k.ltoir"}));
        QVERIFY2(r.err.contains(("wrote " + dir.filePath("out/out.k.ltoir") + " (LTO-IR of " + k1).toUtf8()),
                 r.err.constData());
        QVERIFY2(r.err.contains(("wrote " + dir.filePath("out/out.k-2.ltoir") + " (LTO-IR of " + k2).toUtf8()),
                 r.err.constData());
        for (const auto& [input, written] : {std::pair{k1, QString("out/out.k.ltoir")}, {k2, "out/out.k-2.ltoir"}}) {
            const auto alone = dir.filePath("alone.ltoir");
            QCOMPARE(runNvpg(separate + QStringList{"-o", alone, input}).exitCode, 0);
            QFile a(alone), w(dir.filePath(written));
            QVERIFY(a.open(QIODevice::ReadOnly) && w.open(QIODevice::ReadOnly));
            QCOMPARE(w.readAll(), a.readAll());
        }

        // Workspace module names are free text: "..", "x/.." stay in the -o file's folder, apart.
        auto ws = nlohmann::json::parse(R"({"format": "nvvm-playground-workspace", "version": 1, "modules": []})");
        for (const auto& [name, file] : {std::pair{"..", k1}, {"x/..", k2}}) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            ws["modules"].push_back({{"name", name}, {"text", f.readAll().toStdString()}});
        }
        const auto wsPath = dir.filePath("odd.nvpg");
        QFile wf(wsPath);
        QVERIFY(wf.open(QIODevice::WriteOnly));
        wf.write(QByteArray::fromStdString(ws.dump()));
        wf.close();
        QVERIFY(QDir(dir.path()).mkpath("odd"));
        const auto odd = runNvpg(separate + QStringList{"-o", dir.filePath("odd/p.ltoir"), wsPath});
        QCOMPARE(odd.exitCode, 0);
        QCOMPARE(QDir(dir.filePath("odd")).entryList(QDir::Files), QStringList({"p.module-2.ltoir", "p.module.ltoir"}));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList({"alone.ltoir", "odd.nvpg"}));
    }

    // --line-map on the libdevice example: a JSON file of the documented shape, whose sinf call
    // line has a libdevice entry and ranges within the PTX that -o wrote; and the PTX -o writes
    // is the same with the map as without.
    void lineMapFileHasTheDocumentedShape() {
        QTemporaryDir dir;
        const auto map = dir.filePath("map.json");
        const auto plain = runNvpg({"compile", example("libdevice-math.nvpg"), "-o", dir.filePath("plain.ptx")});
        QCOMPARE(plain.exitCode, 0);
        const auto r =
            runNvpg({"compile", example("libdevice-math.nvpg"), "--line-map", map, "-o", dir.filePath("k.ptx")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto ptx = test::readText(dir.filePath("k.ptx").toStdString());
        QCOMPARE(ptx, test::readText(dir.filePath("plain.ptx").toStdString()));
        const int ptxLines = int(support::splitLines(ptx).size());
        const auto j = nlohmann::json::parse(test::readText(map.toStdString()));
        QCOMPARE(j["version"].get<int>(), 1);
        QVERIFY(j["outputs"]["ptx"].is_array());
        QVERIFY(j["outputs"]["lto-ptx"]["unavailable"].is_string());  // --emit ptx links nothing
        QVERIFY(j["outputs"]["sass"]["unavailable"].is_string());
        const auto source = test::readText(test::examplesDir() / "src/libdevice-math/math.ll");
        int call = 0, n = 1;
        for (auto line : support::splitLines(source)) {
            if (line.find("call float @__nv_sinf") != std::string_view::npos) call = n;
            ++n;
        }
        QVERIFY(call > 0);
        bool found = false;
        for (const auto& e : j["libdevice"])
            if (e["line"] == call && e["function"] == "__nv_sinf" && e["output"] == "ptx") {
                QVERIFY(e["lines"].get<int>() >= 30);
                found = true;
            }
        QVERIFY2(found, j["libdevice"].dump().c_str());
        bool callMapped = false;
        for (const auto& e : j["outputs"]["ptx"]) {
            QVERIFY(e["module"].is_string());
            for (const auto& range : e["ranges"]) {
                QVERIFY(range[0].get<int>() >= 1 && range[0].get<int>() <= range[1].get<int>());
                QVERIFY(range[1].get<int>() <= ptxLines);
            }
            if (e["line"] == call) callMapped = true;
        }
        QVERIFY(callMapped);
    }

    // At -opt=0 the map of the PTX is unavailable, saying why, rather than wrong.
    void lineMapAtOptZeroIsUnavailable() {
        QTemporaryDir dir;
        const auto map = dir.filePath("map.json");
        const auto r = runNvpg({"compile", "--opt", "0", "--arch", "compute_90", "--libdevice", data("ir/sinf.ll"),
                                "--line-map", map, "-o", dir.filePath("k.ptx")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = nlohmann::json::parse(test::readText(map.toStdString()));
        QVERIFY(j["outputs"]["ptx"].is_object());
        const auto why = j["outputs"]["ptx"]["unavailable"].get<std::string>();
        QVERIFY2(why.find("-opt=0") != std::string::npos, why.c_str());
        // --line-map onto the output is refused like --report onto it.
        const auto same = runNvpg({"compile", "--arch", "compute_90", data("ir/sinf.ll"), "--line-map",
                                   dir.filePath("k.ptx"), "-o", dir.filePath("k.ptx")});
        QCOMPARE(same.exitCode, 2);
        QVERIFY2(same.err.contains("--line-map") && same.err.contains("same file"), same.err.constData());
    }

    void reportJson() {
        QTemporaryDir dir;
        const auto report = dir.filePath("r.json");
        const auto r = runNvpg({"compile", "--arch", "compute_90", "--libdevice", data("numba/math_kernel.ll"),
                                "--report", report, "-o", dir.filePath("k.ptx")});
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::json::parse(test::readText(report.toStdString()));
        QCOMPARE(j["ok"], true);
        QCOMPARE(j["kernels"].size(), 1u);
        const auto& k = j["kernels"][0];
        QVERIFY(k["name"].get<std::string>().find("math_kernel") != std::string::npos);
        QCOMPARE(k["params"].size(), 14u);  // numba passes each array as 7 parameters
        QVERIFY(k["registers"].get<int>() > 0);
        for (const char* key : {"spill_stores", "spill_loads", "shared_bytes", "local_bytes"}) QVERIFY(k.contains(key));
        const auto fns = j["libdevice_functions"].get<std::vector<std::string>>();
        QVERIFY(std::find(fns.begin(), fns.end(), "__nv_sinf") != fns.end());
        QVERIFY(j["stages"].size() >= 2);

        // A failed compile still writes its report, with the diagnostics.
        const auto bad = runNvpg({"compile", "--arch", "compute_90", data("ir/broken.ll"), "--report", report});
        QCOMPARE(bad.exitCode, 1);
        const auto jb = nlohmann::json::parse(test::readText(report.toStdString()));
        QCOMPARE(jb["ok"], false);
        QCOMPARE(jb["diagnostics"][0]["line"], 8);
        QCOMPARE(jb["diagnostics"][0]["column"], 8);
    }

    // --report with libdevice turns the line map on for its per-function sizes: each linked
    // function's call lines and PTX lines, the same count as --line-map gives those lines, and
    // the PTX written is byte for byte the PTX of a compile without --report.
    void reportGivesEachLibdeviceFunctionsCallsAndPtxSize() {
        QTemporaryDir dir;
        const auto report = dir.filePath("r.json"), map = dir.filePath("map.json");
        const auto r = runNvpg({"compile", example("libdevice-math.nvpg"), "--arch", "compute_90", "--report", report,
                                "--line-map", map, "-o", dir.filePath("with.ptx")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto plain = runNvpg(
            {"compile", example("libdevice-math.nvpg"), "--arch", "compute_90", "-o", dir.filePath("plain.ptx")});
        QVERIFY2(plain.exitCode == 0, plain.err.constData());
        QCOMPARE(test::readText(dir.filePath("with.ptx").toStdString()),
                 test::readText(dir.filePath("plain.ptx").toStdString()));
        // A report alone maps too (the map file above is only there to check it against).
        const auto alone = runNvpg({"compile", example("libdevice-math.nvpg"), "--arch", "compute_90", "--report",
                                    dir.filePath("alone.json"), "-o", dir.filePath("alone.ptx")});
        QVERIFY2(alone.exitCode == 0, alone.err.constData());
        QCOMPARE(test::readText(dir.filePath("alone.ptx").toStdString()),
                 test::readText(dir.filePath("plain.ptx").toStdString()));

        const auto j = nlohmann::json::parse(test::readText(report.toStdString()));
        const auto m = nlohmann::json::parse(test::readText(map.toStdString()));
        const auto ja = nlohmann::json::parse(test::readText(dir.filePath("alone.json").toStdString()));
        QCOMPARE(ja["libdevice_use"], j["libdevice_use"]);
        const auto fns = j["libdevice_functions"].get<std::vector<std::string>>();  // still the names
        QCOMPARE(j["libdevice_use"].size(), fns.size());
        const auto text = test::readText(test::examplesDir() / "libdevice-math.nvpg");
        const auto module = nlohmann::json::parse(text)["modules"][0]["text"].get<std::string>();
        auto mappedLines = [&](int line) {
            int n = 0;
            for (const auto& l : m["outputs"]["ptx"])
                if (l["module"] == "math.ll" && l["line"] == line)
                    for (const auto& range : l["ranges"]) n += range[1].get<int>() - range[0].get<int>() + 1;
            return n;
        };
        int checked = 0;
        for (const auto& u : j["libdevice_use"]) {
            const auto name = u["name"].get<std::string>();
            QVERIFY(std::find(fns.begin(), fns.end(), name) != fns.end());
            if (name != "__nv_sinf" && name != "__nv_expf" && name != "__nv_powf") continue;
            int line = 0, n = 1;
            for (auto l : support::splitLines(module)) {
                if (l.find("call float @" + name + "(") != std::string_view::npos) line = n;
                ++n;
            }
            QCOMPARE(u["calls"].size(), 1u);
            QCOMPARE(u["calls"][0]["module"], "math.ll");
            QCOMPARE(u["calls"][0]["line"].get<int>(), line);
            QVERIFY2(u["ptx"].contains("lines"), u.dump().c_str());
            QCOMPARE(u["ptx"]["lines"].get<int>(), mappedLines(line));
            QVERIFY(u["ptx"]["lines"].get<int>() > 0);
            QVERIFY(u["ptx"]["how"].get<std::string>().find("line map") != std::string::npos);
            // SASS: a count, or why there is none (no nvdisasm here).
            QVERIFY2(u["sass"].contains("instructions") || u["sass"].contains("unavailable"), u.dump().c_str());
            qInfo("%s: math.ll:%d, %d PTX lines, SASS %s", name.c_str(), line, u["ptx"]["lines"].get<int>(),
                  u["sass"].dump().c_str());
            ++checked;
        }
        QCOMPARE(checked, 3);
    }

    // The PTX output's figures are those of that PTX as the driver loads it (whole program), which
    // is what `ptxas -v` on it says; nvJitLink's relocatable compile of it gave 17-18 registers
    // and a 32-byte stack frame for libdevice-math's wave, where the PTX runs with 21 and none.
    void reportFiguresAreThoseOfThePtxAsLoaded() {
        QTemporaryDir dir;
        const auto report = dir.filePath("r.json"), ptx = dir.filePath("wave.ptx");
        const auto r = runNvpg({"compile", example("libdevice-math.nvpg"), "--report", report, "-o", ptx});
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::json::parse(test::readText(report.toStdString()));
        QCOMPARE(j["kernels"].size(), 1u);
        const auto& k = j["kernels"][0];
        QCOMPARE(k["name"], "wave");
        const auto plain = test::plainPtxas(ptx, QString::fromStdString(j["target"].get<std::string>()), "wave");
        QVERIFY2(plain.registers > 0, qPrintable(plain.log));
        QVERIFY2(k.contains("registers") && k.contains("stack_frame"), j.dump(2).c_str());
        QCOMPARE(k["registers"].get<int>(), plain.registers);
        QCOMPARE(k["stack_frame"].get<int>(), plain.stackFrame);
        QCOMPARE(k["spill_stores"].get<int>(), plain.spillStores);
        QCOMPARE(k["spill_loads"].get<int>(), plain.spillLoads);
        // Where they come from, said in the report.
        QCOMPARE(k["figures_of"], "ptx");
        QVERIFY2(j.contains("figures") && j["figures"].contains("ptx"), j.dump(2).c_str());
        const auto source = j["figures"]["ptx"]["source"].get<std::string>();
        QVERIFY2(source.find("ptxas") != std::string::npos && source.find("whole program") != std::string::npos,
                 source.c_str());
    }

    // --report asks for figures, and figures of a PTX that does not assemble cannot be had; the
    // verdict is the input's, so the exit status is the one without --report (an
    // unresolved __nv_sinf fails both).
    void reportDoesNotChangeTheExitStatus() {
        QTemporaryDir dir;
        const auto report = dir.filePath("r.json");
        const QStringList compile = {
            "compile", "--no-cache",          "--arch",        "compute_90", data("ir/sinf.ll"),
            "-o",      dir.filePath("k.ptx"), "--no-libdevice"};
        const auto plain = runNvpg(compile);
        QCOMPARE(plain.exitCode, 1);
        const auto r = runNvpg(compile + QStringList{"--report", report});
        QCOMPARE(r.exitCode, plain.exitCode);
        const auto j = nlohmann::json::parse(test::readText(report.toStdString()));
        QCOMPARE(j["ok"], false);
        QVERIFY2(j.contains("figures") && j["figures"].contains("ptx"), j.dump(2).c_str());
        const auto why = j["figures"]["ptx"].value("unavailable", std::string());
        QVERIFY2(why.find("__nv_sinf") != std::string::npos && why.find("libdevice") != std::string::npos,
                 j.dump(2).c_str());
        QVERIFY(!j["kernels"][0].contains("registers"));
        // One row for the one cause, with or without the report's figures.
        QCOMPARE(r.err.count("__nv_sinf"), plain.err.count("__nv_sinf"));
        auto linked = compile;
        linked.removeOne("--no-libdevice");
        QCOMPARE(runNvpg(linked + QStringList{"--libdevice", "--report", report}).exitCode, 0);
    }

    void runUsageErrorsExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        const auto saxpy = example("saxpy.nvpg");
        const QStringList base = {"run", saxpy, "--kernel", "saxpy", "--grid", "16", "--block", "256"};
        QTest::newRow("bad spec") << (base + QStringList{"--arg", "i32:4096", "--arg", "f32:2", "--arg",
                                                         "buf:f32:4096:cons", "--arg", "ptr:null"})
                                  << "SPEC 'buf:f32:4096:cons': unknown initialiser 'cons'";
        QTest::newRow("unknown kernel") << QStringList{"run", saxpy, "--kernel", "saxpi"}
                                        << "there is no kernel saxpi; the kernels are saxpy";
        QTest::newRow("too few args") << (base + QStringList{"--arg", "i32:4096"})
                                      << "takes 4 parameters (.u32, .f32, .u64, .u64), but 1 argument was given";
        QTest::newRow("wrong size") << (base + QStringList{"--arg", "i64:4096", "--arg", "f32:2", "--arg", "ptr:null",
                                                           "--arg", "ptr:null"})
                                    << "argument 0 (i64:4096)";
        QTest::newRow("bad grid") << QStringList{"run", saxpy, "--kernel", "saxpy", "--grid", "0", "--block", "256"}
                                  << "--grid '0'";
        QTest::newRow("config without workspace")
            << QStringList{"run", data("ir/sinf.ll"), "--config", "x"} << "run configurations come from a workspace";
        QTest::newRow("unknown config") << QStringList{"run", saxpy, "--config", "nope"} << "no run configuration nope";
        QTest::newRow("missing npy") << (base + QStringList{"--arg", "i32:4096", "--arg", "f32:2", "--arg",
                                                            "buf:@missing.npy", "--arg", "ptr:null"})
                                     << "missing.npy";
        QTest::newRow("no kernel") << QStringList{"run", data("ir/sinf.ll"), "--libdevice"} << "give --kernel NAME";
    }
    void runUsageErrorsExitTwo() {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const auto r = runNvpg(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(mentions.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void runOfBrokenIrExitsOne() {
        const auto r = runNvpg({"run", data("ir/broken.ll"), "--kernel", "broken"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains(":8:8: error:"));
    }

    void runWithoutAGpuExitsThreeSayingWhy_data() {
        QTest::addColumn<QString>("workspace");
        for (const char* e : {"saxpy", "libdevice-math", "two-modules", "lto-kept", "lto-dropped", "bitcode"})
            QTest::newRow(e) << example((std::string(e) + ".nvpg").c_str());
    }
    void runWithoutAGpuExitsThreeSayingWhy() {
        if (test::realToolkit()->driver()) QSKIP("this machine has a CUDA driver: tst_gpu_launch covers runs");
        // Every example's run configuration passes the checks that need no GPU, then stops here.
        QFETCH(QString, workspace);
        const auto r = runNvpg({"run", workspace});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("libcuda.so.1"), r.err.constData());
    }

    void runLooksForTheGpuBeforeBuildingBuffers() {
        if (test::realToolkit()->driver()) QSKIP("this machine has a CUDA driver: the buffer would be built and used");
        QElapsedTimer t;
        t.start();
        const auto r =
            runNvpg({"run", example("saxpy.nvpg"), "--kernel", "saxpy", "--grid", "16", "--block", "256", "--arg",
                     "i32:4096", "--arg", "f32:2", "--arg", "buf:f32:1000000000:random:7", "--arg", "ptr:null"},
                    {}, {}, limitAddressSpace);
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("libcuda.so.1") && !r.err.contains("allocate"), r.err.constData());
        QVERIFY2(t.elapsed() < 10000, qPrintable(QString("%1 ms").arg(t.elapsed())));
    }

    // Sizes are checked by arithmetic, before any GPU or memory is used, naming the argument.
    void runRefusesBuffersTooLargeToSend_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("20 GB") << "buf:f32:5000000000:zeros"
                               << "argument 2 (buf:f32:5000000000:zeros): its 18.6 GiB are more than the 16 GiB";
        QTest::newRow("400 GB") << "buf:f32:100000000000:random:7"
                                << "argument 2 (buf:f32:100000000000:random:7): its 372.5 GiB are more than the 16 GiB";
        QTest::newRow("past size_t")
            << "buf:f64:3000000000000000000:iota"
            << "SPEC 'buf:f64:3000000000000000000:iota': count '3000000000000000000' is too large";
    }
    void runRefusesBuffersTooLargeToSend() {
        QFETCH(QString, spec);
        QFETCH(QString, mentions);
        const auto r = runNvpg({"run", example("saxpy.nvpg"), "--kernel", "saxpy", "--grid", "16", "--block", "256",
                                "--arg", "i32:4096", "--arg", "f32:2", "--arg", spec, "--arg", "ptr:null"},
                               {}, {}, limitAddressSpace);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(mentions.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    // A --save-outputs that cannot be written is found before the compile, not after a long run.
    void badSaveOutputsIsRefusedBeforeTheCompile_data() {
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("a file") << "file"
                                << "is a file, not a folder";
        QTest::newRow("under a file") << "file/outputs"
                                      << "cannot be made: ";
        QTest::newRow("empty") << ""
                               << "needs a folder";
    }
    void badSaveOutputsIsRefusedBeforeTheCompile() {
        QFETCH(QString, where);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        QFile file(dir.filePath("file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const auto target = where.isEmpty() ? where : dir.filePath(where);
        // broken.ll fails to compile (exit 1): the --save-outputs error must come first.
        const auto r = runNvpg({"run", data("ir/broken.ll"), "--kernel", "broken", "--save-outputs", target});
        QCOMPARE(r.exitCode, 2);
        const auto named = "--save-outputs " + (target.isEmpty() ? "''" : target) + ":";
        QVERIFY2(r.err.contains(named.toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains(mentions.toUtf8()), r.err.constData());
        QVERIFY2(!r.err.contains(":8:8: error:"), r.err.constData());
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList{"file"});
    }

    void bitcodeThatKillsLibnvvmExitsOneNamingIt() {
        QString why;
        const auto killer = test::bitcodeThatKillsLibnvvm(&why);
        if (!killer) QSKIP(qPrintable(why));
        const auto path = QString::fromStdString(killer->string());
        // The engine as nvpg starts it (a fork of itself), and as an exec of `nvpg engine`.
        auto execEngine = QProcessEnvironment::systemEnvironment();
        execEngine.insert("NVPG_ENGINE", QString::fromStdString(test::nvpgPath()) + " engine");
        for (const auto& env : {QProcessEnvironment(), execEngine})
            for (const char* command : {"compile", "run"}) {
                QStringList args{command, data("ir/sinf.ll"), path};
                if (QByteArray(command) == "run")
                    args << "--kernel"
                         << "sin_kernel"
                         << "--arg"
                         << "ptr:null"
                         << "--arg"
                         << "f32:1";
                const auto r = runNvpg(args, {}, env);
                QCOMPARE(r.exitCode, 1);
                QVERIFY(r.out.isEmpty());
                QVERIFY2(r.err.contains("error: libNVVM crashed (SIG"), r.err.constData());
                QVERIFY2(r.err.contains(("the bitcode of " + path + " is the likely cause").toUtf8()),
                         r.err.constData());
                QVERIFY2(r.err.contains((" for the modules " + data("ir/sinf.ll") + ", " + path).toUtf8()),
                         r.err.constData());
                // The stage reads as words: "while verifying the IR for the modules", never "compiling
                // of modules".
                QVERIFY2(QRegularExpression("while [a-z]+ (the IR|PTX|LTO-IR)[^,]* for the modules ")
                                 .match(r.err)
                                 .hasMatch() ||
                             r.err.contains("while adding module"),
                         r.err.constData());
                QVERIFY2(!r.err.contains(" of modules "), r.err.constData());
            }
    }

    void aFileNameThatIsNotUtf8IsNoProblem() {
        // Latin-1 "café.ll": it travels to the engine and into the report as U+FFFD, not as an
        // exception that ends nvpg.
        QTemporaryDir dir;
        const QByteArray name = dir.path().toUtf8() + "/caf\xe9.ll";
        QFile::copy(data("ir/sinf.ll"), QFile::decodeName(name));
        QVERIFY(QFile::exists(QFile::decodeName(name)));
        const auto report = dir.filePath("r.json");
        const auto r = runNvpg({"compile", "--libdevice", QFile::decodeName(name), "--report", report});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(".entry sin_kernel"));
        QFile f(report);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(!nlohmann::json::parse(f.readAll().toStdString(), nullptr, false).is_discarded());
    }

    void engineThatStopsAnsweringIsTimedOut() {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("NVPG_ENGINE", "/bin/sleep 600");
        QElapsedTimer t;
        t.start();
        const auto r = runNvpg({"compile", "--engine-timeout", "1", data("ir/sinf.ll")}, {}, env);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("did not finish") && r.err.contains("within 1 s"), r.err.constData());
        QVERIFY(t.elapsed() < 30000);
    }

    void inProcessModeCompilesTheSame() {
        const auto viaEngine = runNvpg({"compile", "--libdevice", "--arch", "compute_90", data("ir/sinf.ll")});
        const auto inProcess =
            runNvpg({"compile", "--in-process", "--libdevice", "--arch", "compute_90", data("ir/sinf.ll")});
        QCOMPARE(viaEngine.exitCode, 0);
        QCOMPARE(inProcess.exitCode, 0);
        QCOMPARE(inProcess.out, viaEngine.out);
    }

    // Inputs that never end (a device, a FIFO) are refused by type, before any byte is read.
    void inputsThatAreNotRegularFilesAreRefused() {
        QTemporaryDir dir;
        const auto fifo = dir.filePath("pipe.ll");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QVERIFY(QFile::link("/dev/zero", dir.filePath("zero.ll")));
        QVERIFY(QFile::link("/dev/zero", dir.filePath("zero.nvpg")));
        const std::pair<QString, QString> cases[] = {
            {dir.filePath("zero.ll"), dir.filePath("zero.ll") + " is a character device, not a regular file"},
            {dir.filePath("zero.nvpg"), dir.filePath("zero.nvpg") + " is a character device, not a regular file"},
            {fifo, fifo + " is a FIFO (named pipe), not a regular file"},
        };
        for (const auto& [input, says] : cases) {
            const auto r = runShell(kBounded, {"compile", input});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(says.toUtf8()), r.err.left(300).constData());
            QVERIFY(r.out.isEmpty());
        }
    }

    // What is not a .ll, .bc or .nvpg is refused by its name, without opening it.
    void theExtensionIsCheckedBeforeReading() {
        QTemporaryDir dir;
        for (const auto& input : {dir.filePath("missing.ptx"), QString("/dev/zero")}) {
            const auto r = runShell(kBounded, {"compile", input});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains((input + ": expected a .ll (text) or .bc (bitcode) module").toUtf8()),
                     r.err.left(300).constData());
        }
    }

    // A module over the size cap is refused at once, naming it, its size and the cap (the file
    // is a hole: it takes no disk).
    void aModuleOverTheSizeCapIsRefused() {
        QTemporaryDir dir;
        const auto big = dir.filePath("big.ll");
        QFile f(big);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize((qint64(1) << 30) + 1));
        f.close();
        QElapsedTimer t;
        t.start();
        const auto r = runShell(kBounded, {"compile", big});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains((big + " is 1 GiB (1073741825 bytes), more than the 1 GiB (1073741824 bytes) an "
                                       "NVVM IR module may be")
                                    .toUtf8()),
                 r.err.left(300).constData());
        QVERIFY(t.elapsed() < 10000);
    }

    // Short of memory, nvpg says so; it never compiles the part of a file it managed to read.
    void aModuleThatDoesNotFitInMemoryIsNotCutShort() {
        if (NVPG_ASAN) QSKIP("AddressSanitizer cannot run under ulimit -v");
        QTemporaryDir dir;
        const auto big = dir.filePath("big.ll");
        QFile f(big);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(qint64(1000) << 20));  // under the cap, over the memory left
        f.close();
        const auto r = runShell(kBounded, {"compile", big});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(("not enough memory to read " + big + " (1048576000 bytes)").toUtf8()),
                 r.err.left(300).constData());
    }

    // Output that cannot be written is an error, whichever output and however stdout failed.
    void aFailedWriteToStdoutExitsTwo_data() {
        QTest::addColumn<QStringList>("args");
        const auto sinf = data("ir/sinf.ll"), lto = data("ir/lto-kept-dropped.ll");
        QTest::newRow("compile ptx") << QStringList{"compile", "--arch", "compute_90", "--libdevice", sinf};
        QTest::newRow("compile lto-ptx") << QStringList{"compile", "--arch", "compute_90", "--emit", "lto-ptx", lto};
        QTest::newRow("compile ltoir") << QStringList{"compile", "--arch", "compute_90", "--emit", "ltoir", lto};
        QTest::newRow("compile cubin") << QStringList{"compile", "--arch", "compute_90", "--emit", "cubin", lto};
        QTest::newRow("compile -o -") << QStringList{"compile", "--arch", "compute_90", "--libdevice", sinf, "-o", "-"};
        QTest::newRow("info") << QStringList{"info"};
        QTest::newRow("info --json") << QStringList{"info", "--json"};
    }
    void aFailedWriteToStdoutExitsTwo() {
        QFETCH(QStringList, args);
        const auto full = runShell("exec \"$NVPG\" \"$@\" > /dev/full", args);
        QCOMPARE(full.exitCode, 2);
        QVERIFY2(full.err.contains("nvpg: cannot write to standard output: No space left on device\n"),
                 full.err.constData());
        const auto closed = runShell("exec \"$NVPG\" \"$@\" >&-", args);
        QCOMPARE(closed.exitCode, 2);
        QVERIFY2(closed.err.contains("nvpg: cannot write to standard output: Bad file descriptor\n"),
                 closed.err.constData());
        // Nothing to write and stdout closed is no error.
        QCOMPARE(runShell("exec \"$NVPG\" \"$@\" >&-", {"compile", "--verify-only", data("ir/sinf.ll")}).exitCode, 0);
    }

    // A run's report to stdout is checked as well (on a machine with a GPU: elsewhere the run
    // stops before it prints, as runWithoutAGpuExitsThreeSayingWhy checks).
    void aRunWhoseOutputCannotBeWrittenExitsTwo() {
        if (!test::realToolkit()->driver()) QSKIP("no CUDA driver here, so no run gets as far as its output");
        const auto r = runShell("exec \"$NVPG\" \"$@\" > /dev/full", {"run", example("saxpy.nvpg")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("nvpg: cannot write to standard output: No space left on device\n"), r.err.constData());
        QCOMPARE(runShell("exec \"$NVPG\" \"$@\" > /dev/null", {"run", example("saxpy.nvpg")}).exitCode, 0);
    }

    // -o and --report replace a file as the user set it up: its mode, its other names (hard
    // links), the file a symbolic link names (even one not there yet); a read-only file only
    // with --force.
    void outputFilesKeepTheirModeAndLinks() {
        QTemporaryDir dir;
        const QStringList compile = {"compile", "--arch", "compute_90", data("ir/sinf.ll"), "--libdevice"};
        const auto ptx = dir.filePath("k.ptx"), report = dir.filePath("r.json");
        for (const auto& p : {ptx, report}) {
            QVERIFY(QFile(p).open(QIODevice::WriteOnly));
            QVERIFY(::chmod(QFile::encodeName(p).constData(), 0600) == 0);
        }
        QCOMPARE(runNvpg(compile + QStringList{"-o", ptx, "--report", report}).exitCode, 0);
        QVERIFY(contents(ptx).contains(".entry sin_kernel"));
        QVERIFY(contents(report).contains("\"kernels\""));
        QCOMPARE(modeOf(ptx), mode_t(0600));
        QCOMPARE(modeOf(report), mode_t(0600));

        const auto readOnly = dir.filePath("ro.ptx");
        {
            QFile f(readOnly);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("keep");
        }
        QVERIFY(::chmod(QFile::encodeName(readOnly).constData(), 0444) == 0);
        const auto refused = runNvpg(compile + QStringList{"-o", readOnly});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains((readOnly + " is read-only").toUtf8()), refused.err.constData());
        QVERIFY2(refused.err.contains("--force"), refused.err.constData());
        QCOMPARE(contents(readOnly), QByteArray("keep"));
        QCOMPARE(runNvpg(compile + QStringList{"-o", readOnly, "--force"}).exitCode, 0);
        QVERIFY(contents(readOnly).contains(".entry sin_kernel"));
        QCOMPARE(modeOf(readOnly), mode_t(0444));

        const auto linked = dir.filePath("linked.ptx"), other = dir.filePath("other-name.ptx");
        QVERIFY(QFile(linked).open(QIODevice::WriteOnly));
        QVERIFY(::link(QFile::encodeName(linked).constData(), QFile::encodeName(other).constData()) == 0);
        QCOMPARE(runNvpg(compile + QStringList{"-o", linked}).exitCode, 0);
        QVERIFY(contents(other).contains(".entry sin_kernel"));

        QVERIFY(QDir(dir.path()).mkdir("real"));
        const auto dangling = dir.filePath("dangling.ptx");
        QVERIFY(::symlink("real/made.ptx", QFile::encodeName(dangling).constData()) == 0);
        QCOMPARE(runNvpg(compile + QStringList{"-o", dangling}).exitCode, 0);
        QVERIFY(QFileInfo(dangling).isSymLink());
        QVERIFY(contents(dir.filePath("real/made.ptx")).contains(".entry sin_kernel"));
    }

    // -o or --report naming an input (as written, through a link or another name) would replace
    // the source with the output: refused, the input left as it was.
    void anOutputThatIsAnInputIsRefused() {
        QTemporaryDir dir;
        const auto source = dir.filePath("k.ll");
        QVERIFY(QFile::copy(data("ir/sinf.ll"), source));
        const auto original = contents(source);
        QVERIFY(QFile::link(source, dir.filePath("alias.ptx")));
        QVERIFY(::link(QFile::encodeName(source).constData(),
                       QFile::encodeName(dir.filePath("hard.ptx")).constData()) == 0);
        const QStringList outputs[] = {
            {"-o", source},       {"-o", "./k.ll"}, {"-o", dir.filePath("alias.ptx")}, {"-o", dir.filePath("hard.ptx")},
            {"--report", source},
        };
        for (const auto& out : outputs) {
            const auto r = runNvpg(QStringList{"compile", "--libdevice", "k.ll"} + out, dir.path());
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("is the input k.ll"), qPrintable(out.join(' ') + ": " + r.err));
            QCOMPARE(contents(source), original);
        }
        const auto same = runNvpg({"compile", "--libdevice", "k.ll", "-o", "x.ptx", "--report", "x.ptx"}, dir.path());
        QCOMPARE(same.exitCode, 2);
        QVERIFY2(same.err.contains("-o and --report name the same file"), same.err.constData());
    }

    // Outputs nvpg derives, or a second command's, over an input: e.g. o/x.k.ll (the LTO-IR of
    // module k.ll, derived from -o o/x.ll) over a second input named so, which must not end in
    // exit 0 with the input gone. Each is refused before anything is compiled or written, the input
    // left as it was: as named, through a symlink and through a hard link.
    void aDerivedOrSecondCommandsOutputOntoAnInputIsRefused() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("d1") && QDir(dir.path()).mkpath("o"));
        QVERIFY(QFile::copy(data("ir/sinf.ll"), dir.filePath("d1/k.ll")));
        QVERIFY(QFile::copy(data("ir/callee.ll"), dir.filePath("o/x.k.ll")));
        const auto second = dir.filePath("o/x.k.ll");
        const auto original = contents(second);
        const auto r = runNvpg({"compile", "--lto-mode", "separate", "--emit", "ltoir", "d1/k.ll", "o/x.k.ll", "-o",
                                "o/x.ll", "--libdevice"},
                               dir.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("is the input o/x.k.ll") && r.err.contains("one LTO-IR per module"), r.err.constData());
        QCOMPARE(contents(second), original);
        QVERIFY(!QFile::exists(dir.filePath("o/x.ll")));
        // The derived name reaching an input through a link.
        QVERIFY(QFile::link(second, dir.filePath("o/y.k.ll")));
        QVERIFY(::link(QFile::encodeName(second).constData(),
                       QFile::encodeName(dir.filePath("o/z.k.ll")).constData()) == 0);
        for (const char* out : {"o/y.ll", "o/z.ll"}) {
            const auto linked = runNvpg({"compile", "--lto-mode", "separate", "--emit", "ltoir", "d1/k.ll", "o/x.k.ll",
                                         "-o", out, "--libdevice"},
                                        dir.path());
            QCOMPARE(linked.exitCode, 2);
            QVERIFY2(linked.err.contains("is the input o/x.k.ll"), linked.err.constData());
            QCOMPARE(contents(second), original);
        }
        // nvpg compare's -o (the diff) and --report.
        for (const char* option : {"-o", "--report"}) {
            const auto c =
                runNvpg({"compare", "d1/k.ll", "--libdevice", "--a", "--ftz 0", "--b", "--ftz 1", option, "d1/k.ll"},
                        dir.path());
            QCOMPARE(c.exitCode, 2);
            QVERIFY2(c.err.contains("is the input d1/k.ll"), c.err.constData());
        }
        // nvpg run --save-outputs DIR writes DIR/argK.npy: not over a buffer's own file (checked
        // before the compile, so without a GPU too).
        QVERIFY(QFile::copy(data("npy/f32_4.npy"), dir.filePath("o/arg0.npy")));
        const auto npy = contents(dir.filePath("o/arg0.npy"));
        const auto run = runNvpg({"run", "d1/k.ll", "--libdevice", "--kernel", "sin_kernel", "--grid", "1", "--block",
                                  "4", "--arg", "buf:@o/arg0.npy", "--arg", "f32:0.5", "--save-outputs", "o"},
                                 dir.path());
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--save-outputs") && run.err.contains("is the input"), run.err.constData());
        QCOMPARE(contents(dir.filePath("o/arg0.npy")), npy);
    }

    // nvpg has no Problems dock to point at: its failure lines say what
    // failed and the first error, and every diagnostic is printed above them.
    void aFailedSideSaysWhatFailedWithoutPointingAtTheApp() {
        const auto r = runNvpg({"compare", data("ir/broken.ll"), "--a", "--ftz 0", "--b", "--ftz 1"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("side A") && r.err.contains("failed with"), r.err.constData());
        QVERIFY2(!r.err.contains("see Problems"), r.err.constData());
    }

    void compilesAWorkspace() {
        const auto ws = example("saxpy.nvpg");
        if (!QFile::exists(ws)) QFAIL("the saxpy example workspace is missing");
        const auto r = runNvpg({"compile", ws, "--arch", "compute_90"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(".entry"));
        const auto mixed = runNvpg({"compile", ws, data("ir/sinf.ll")});
        QCOMPARE(mixed.exitCode, 2);
    }

    // The result cache, in a folder of the test's own (the suites run with NVPG_NO_CACHE=1).
    void aSecondCompileIsServedFromTheCache() {
        QTemporaryDir dir;
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove("NVPG_NO_CACHE");
        env.insert("NVPG_CACHE_DIR", dir.filePath("cache"));
        const QStringList args{"compile", "--arch", "compute_90", "--libdevice", data("ir/sinf.ll"), "--report"};
        const auto first = runNvpg(args + QStringList{dir.filePath("1.json")}, {}, env);
        QCOMPARE(first.exitCode, 0);
        const auto second = runNvpg(args + QStringList{dir.filePath("2.json")}, {}, env);
        QCOMPARE(second.exitCode, 0);
        QVERIFY(!first.out.isEmpty());
        QCOMPARE(second.out, first.out);  // the same PTX, byte for byte
        QCOMPARE(second.err, first.err);  // and the same diagnostics
        const auto r1 = nlohmann::json::parse(contents(dir.filePath("1.json")).toStdString());
        const auto r2 = nlohmann::json::parse(contents(dir.filePath("2.json")).toStdString());
        QCOMPARE(r1["cache"].get<std::string>(), std::string("compiled"));
        QCOMPARE(r2["cache"].get<std::string>(), std::string("hit"));
        QCOMPARE(r2["kernels"].dump(), r1["kernels"].dump());

        // Another option misses, and setting it back hits again.
        const auto o0 =
            runNvpg({"compile", "--arch", "compute_90", "--libdevice", "--opt", "0", data("ir/sinf.ll")}, {}, env);
        QCOMPARE(o0.exitCode, 0);
        QVERIFY(o0.out != first.out);
        const auto back = runNvpg(args + QStringList{dir.filePath("3.json")}, {}, env);
        QCOMPARE(back.out, first.out);
        QCOMPARE(nlohmann::json::parse(contents(dir.filePath("3.json")).toStdString())["cache"].get<std::string>(),
                 std::string("hit"));

        // --no-cache compiles, and neither reads nor writes the folder.
        const auto uncached =
            runNvpg(QStringList{"compile", "--no-cache"} + args.mid(1) + QStringList{dir.filePath("4.json")}, {}, env);
        QCOMPARE(uncached.exitCode, 0);
        QCOMPARE(uncached.out, first.out);
        QCOMPARE(nlohmann::json::parse(contents(dir.filePath("4.json")).toStdString())["cache"].get<std::string>(),
                 std::string("compiled"));
        env.insert("NVPG_CACHE_DIR", dir.filePath("untouched"));
        QCOMPARE(runNvpg({"compile", "--no-cache", "--arch", "compute_90", "--libdevice", data("ir/sinf.ll")}, {}, env)
                     .exitCode,
                 0);
        QVERIFY(!QFileInfo::exists(dir.filePath("untouched")));
    }

    void aDamagedCacheFileIsIgnoredWithAWarning() {
        QTemporaryDir dir;
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove("NVPG_NO_CACHE");
        env.insert("NVPG_CACHE_DIR", dir.filePath("cache"));
        const QStringList args{"compile", "--arch", "compute_90", "--libdevice", data("ir/sinf.ll")};
        const auto first = runNvpg(args, {}, env);
        QCOMPARE(first.exitCode, 0);
        QDirIterator it(dir.filePath("cache"), {"*.nvpgr"}, QDir::Files, QDirIterator::Subdirectories);
        QVERIFY(it.hasNext());
        const auto file = it.next();
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.seek(f.size() / 2);
        f.write("garbage!");
        f.close();
        const auto again = runNvpg(args, {}, env);
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.out, first.out);
        QVERIFY2(again.err.contains("was damaged") && again.err.contains(file.toUtf8()), again.err.constData());
        const auto third = runNvpg(args, {}, env);  // whole again
        QCOMPARE(third.out, first.out);
        QVERIFY(!third.err.contains("damaged"));
    }

    void nvpgsCompilingAtOnceShareTheCache() {
        QTemporaryDir dir;
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove("NVPG_NO_CACHE");
        env.insert("NVPG_CACHE_DIR", dir.filePath("cache"));
        const QString nvpg = QString::fromStdString(test::nvpgPath());
        // Four at once on one input (one key), two on others.
        const std::vector<QStringList> jobs = {{"--opt", "3"}, {"--opt", "3"}, {"--opt", "3"},
                                               {"--opt", "3"}, {"--opt", "0"}, {"--ftz", "1"}};
        std::vector<std::unique_ptr<QProcess>> running;
        for (const auto& extra : jobs) {
            auto p = std::make_unique<QProcess>();
            p->setProcessEnvironment(env);
            p->start(nvpg, QStringList{"compile", "--arch", "compute_90", "--libdevice", data("ir/sinf.ll")} + extra);
            running.push_back(std::move(p));
        }
        std::vector<QByteArray> outs;
        for (auto& p : running) {
            QVERIFY(p->waitForFinished(120000));
            QCOMPARE(p->exitCode(), 0);
            outs.push_back(p->readAllStandardOutput());
        }
        for (int i = 1; i < 4; ++i) QCOMPARE(outs[i], outs[0]);
        // Each file is whole: a second round reads every one without a warning, and gives the same PTX.
        for (size_t i = 0; i < jobs.size(); ++i) {
            const auto r = runNvpg(QStringList{"compile", "--arch", "compute_90", "--libdevice", data("ir/sinf.ll"),
                                               "--report", dir.filePath("r.json")} +
                                       jobs[i],
                                   {}, env);
            QCOMPARE(r.exitCode, 0);
            QCOMPARE(r.out, outs[i]);
            QVERIFY2(!r.err.contains("damaged"), r.err.constData());
        }
        QDirIterator it(dir.filePath("cache"), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            const auto name = QFileInfo(it.next()).fileName();
            QVERIFY2(name.endsWith(".nvpgr") && !name.startsWith('.'), qPrintable(name));  // no temporary left
            ++files;
        }
        QCOMPARE(files, 6);  // three keys, each with and without --report
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
