// nvpg info and nvpg toolkits with a libnvvm.so.4 that aborts, segfaults, _exit(0)s or sleeps for
// ever as it is loaded: nvpg never maps it itself, so it says what that library
// did and what to do, exits 2 (a toolkit problem), and leaves no process behind.
#include <QtTest>

#include <sys/prctl.h>
#include <sys/wait.h>

#include "HostileToolkit.h"
#include "TestSupport.h"

using namespace nvpg;

namespace {

struct Ran {
    bool finished = false;
    bool crashed = false;
    int exitCode = -1;
    QString out, err;
    std::vector<pid_t> left;  // processes of nvpg's still running after it ended
};

// nvpg as a subreaper's child: whatever it leaves running is reparented to this process and seen.
Ran runNvpg(const QStringList& args, const QProcessEnvironment& env, int ms) {
    Ran r;
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QString::fromStdString(test::nvpgPath()), args);
    r.finished = p.waitForFinished(ms);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.exitCode = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    QThread::msleep(200);  // an orphan's reparenting is not instant
    r.left = test::childrenOf(::getpid());
    for (const pid_t pid : r.left) ::kill(pid, SIGKILL);
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    ::prctl(PR_SET_CHILD_SUBREAPER, 0);
    return r;
}

QProcessEnvironment cleanEnv() {
    auto env = QProcessEnvironment::systemEnvironment();
    env.remove("NVPG_ENGINE");
    env.insert("NVPG_NO_CACHE", "1");
    return env;
}

}  // namespace

class TestCliHostile : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void info_data() {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("said");
        QTest::addColumn<bool>("viaEnvironment");
        for (const auto& h : test::kHostileNvvms) {
            QTest::newRow(h.action) << h.action << h.said << false;
            QTest::newRow((std::string(h.action) + " via CUDA_PATH").c_str()) << h.action << h.said << true;
        }
    }
    // nvpg info names the library, says what it did and what to do, and exits 2.
    void info() {
        QFETCH(QString, action);
        QFETCH(QString, said);
        QFETCH(bool, viaEnvironment);
        const auto root = test::hostileToolkit(
            std::filesystem::path(dir_.path().toStdString()) / (viaEnvironment ? "env" : "opt"), action.toStdString());
        auto env = cleanEnv();
        QStringList args{"info", "--engine-timeout", "3"};
        if (viaEnvironment)
            env.insert("CUDA_PATH", QString::fromStdString(root.string()));
        else
            args << "--cuda-path" << QString::fromStdString(root.string());
        const auto r = runNvpg(args, env, 30000);
        QVERIFY2(r.finished, "nvpg info hung");
        QVERIFY2(!r.crashed, qPrintable("nvpg info died: " + r.err));
        QVERIFY2(r.exitCode == 2, qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.contains(QString::fromStdString((root / "lib64/libnvvm.so.4").string())), qPrintable(r.err));
        QVERIFY2(r.err.contains(said), qPrintable(r.err));
        QVERIFY2(r.err.contains("--cuda-path DIR or CUDA_PATH"), qPrintable(r.err));
        QVERIFY2(r.left.empty(), qPrintable(QString("%1 processes left running").arg(r.left.size())));
    }

    void toolkits_data() {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("said");
        for (const auto& h : test::kHostileNvvms) QTest::newRow(h.action) << h.action << h.said;
    }
    // nvpg toolkits lists such a toolkit with the reason, beside its files.
    void toolkits() {
        QFETCH(QString, action);
        QFETCH(QString, said);
        const auto root =
            test::hostileToolkit(std::filesystem::path(dir_.path().toStdString()) / "list", action.toStdString());
        const auto r =
            runNvpg({"toolkits", "--engine-timeout", "3", "--cuda-path", QString::fromStdString(root.string())},
                    cleanEnv(), 30000);
        QVERIFY2(r.finished, "nvpg toolkits hung");
        QVERIFY2(!r.crashed, qPrintable("nvpg toolkits died: " + r.err));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QString::fromStdString(root.string())), qPrintable(r.out));
        QVERIFY2(r.out.contains("unusable: "), qPrintable(r.out));
        QVERIFY2(r.out.contains(said), qPrintable(r.out));
        QVERIFY2(r.left.empty(), qPrintable(QString("%1 processes left running").arg(r.left.size())));
    }

    void compile_data() {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("said");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("abort") << "abort"
                               << "the engine crashed (SIGABRT: hostile libnvvm: aborting as it loads)" << 2;
        QTest::newRow("segv") << "segv"
                              << "the engine crashed (SIGSEGV" << 2;
        QTest::newRow("exit0") << "exit0"
                               << "the engine crashed (the engine process ended" << 2;
        // A timeout is a compile that did not finish in time (1), whatever was running.
        QTest::newRow("sleep") << "sleep"
                               << "the engine did not finish loading the toolkit" << 1;
    }
    // A compile whose libNVVM crashes or hangs as it loads: the toolkit is
    // named as the likely cause and the input is not blamed ("Change or remove that input", exit
    // 1, before); a crash is the environment's (exit 2).
    void compile() {
        QFETCH(QString, action);
        QFETCH(QString, said);
        QFETCH(int, exitCode);
        const auto root =
            test::hostileToolkit(std::filesystem::path(dir_.path().toStdString()) / "compile", action.toStdString());
        const auto input = QString::fromStdString((test::dataDir() / "ir/sinf.ll").string());
        const auto r = runNvpg({"compile", "--arch", "compute_90", "--libdevice", "--engine-timeout", "3",
                                "--cuda-path", QString::fromStdString(root.string()), "-o", "/dev/null", input},
                               cleanEnv(), 30000);
        QVERIFY2(r.finished, "nvpg compile hung");
        QVERIFY2(!r.crashed, qPrintable("nvpg compile died: " + r.err));
        QVERIFY2(r.exitCode == exitCode, qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.contains(said), qPrintable(r.err));
        QVERIFY2(r.err.contains("before it began on the module " + input), qPrintable(r.err));
        QVERIFY2(r.err.contains("the toolkit is the likely cause, not the input"), qPrintable(r.err));
        QVERIFY2(r.err.contains("--cuda-path DIR or CUDA_PATH"), qPrintable(r.err));
        QVERIFY2(!r.err.contains("Change or remove") && !r.err.contains("input is the likely cause"),
                 qPrintable(r.err));
        QVERIFY2(r.left.empty(), qPrintable(QString("%1 processes left running").arg(r.left.size())));
    }

    // nvpg toolkits --cuda-path BAD lists only what it searched, BAD, and why it is no toolkit:
    // not CUDA_PATH and CUDA_HOME, which --cuda-path overrides, and never without a reason.
    void toolkitsSaysWhyAPathIsNoToolkit() {
        const auto base = std::filesystem::path(dir_.path().toStdString()) / "bad";
        std::filesystem::create_directories(base / "empty");
        std::filesystem::create_directories(base / "junk/lib64");
        QVERIFY(support::writeFileAtomic(base / "junk/lib64/libnvvm.so.4", "not a library\n"));
        auto env = cleanEnv();
        env.insert("CUDA_PATH", QString::fromStdString((base / "empty").string()));
        env.insert("CUDA_HOME", QString::fromStdString((base / "empty").string()));
        const QString empty = QString::fromStdString((base / "empty").string());
        const QString junk = QString::fromStdString((base / "junk").string());
        const auto none = runNvpg({"toolkits", "--cuda-path", empty}, env, 30000);
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.startsWith("nvpg: no CUDA toolkit found. Searched:\n  " + empty +
                                     " (via --cuda-path): no libNVVM: none of nvvm/lib64/libnvvm.so.4, "
                                     "lib64/libnvvm.so.4"),
                 qPrintable(none.err));
        QVERIFY2(!none.err.contains("CUDA_PATH") && !none.err.contains("CUDA_HOME"), qPrintable(none.err));
        const auto bad = runNvpg({"toolkits", "--cuda-path", junk}, env, 30000);
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(junk + " (via --cuda-path): no usable libNVVM: " + junk +
                                  "/lib64/libnvvm.so.4: not an ELF shared library"),
                 qPrintable(bad.err));
        QVERIFY2(!bad.err.contains("CUDA_PATH") && !bad.err.contains("CUDA_HOME"), qPrintable(bad.err));
    }

    // The real toolkit still gets its version from the engine.
    void infoOfTheRealToolkit() {
        const auto r = runNvpg({"info"}, cleanEnv(), 60000);
        QVERIFY(r.finished && !r.crashed);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(QRegularExpression("libNVVM\\s+\\d+\\.\\d+ \\(NVVM IR").match(r.out).hasMatch(), qPrintable(r.out));
        QVERIFY(r.left.empty());
    }
};

QTEST_GUILESS_MAIN(TestCliHostile)
#include "tst_cli_hostile.moc"
