// nvpg --on DEST: the engine on another machine over OpenSSH, through an sshd of the test's own
// on 127.0.0.1 (SshdFixture.h). The far nvpg is this build's, behind a wrapper of a name of its
// own, so that a far engine left behind can be found. What comes back must be what a local
// compile gives, with the local toolkit hidden too; each failure of ssh is named (exit 2); and
// nothing is left running, here or there.
#include <QtTest>

#include <sys/prctl.h>

#include <nlohmann/json.hpp>

#include "SshdFixture.h"
#include "TestSupport.h"
#include "core/engine/Remote.h"

using namespace nvpg;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

class TestCliRemote : public QObject {
    Q_OBJECT

    test::Sshd sshd_;
    std::string skip_;
    QTemporaryDir dir_;
    QString farNvpg_;  // the wrapper the far login starts

    QProcessEnvironment env(const std::string& config = "ssh_config") const {
        auto e = QProcessEnvironment::systemEnvironment();
        e.insert("NVPG_SSH_COMMAND", QString::fromStdString(sshd_.sshCommand(config)));
        e.remove("NVPG_ON");
        e.remove("NVPG_ENGINE");
        return e;
    }

    Run nvpg(QStringList args, const QProcessEnvironment& e, const QString& program = {}) const {
        QProcess p;
        p.setProcessEnvironment(e);
        p.setWorkingDirectory(dir_.path());
        if (program.isEmpty()) {
            p.start(QString::fromStdString(test::nvpgPath()), args);
        } else {
            args.prepend(QString::fromStdString(test::nvpgPath()));
            p.start(program, args);
        }
        if (!p.waitForFinished(120000)) qFatal("nvpg did not finish: %s", qPrintable(args.join(' ')));
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                p.readAllStandardError()};
    }

    QStringList on(QStringList args, const QString& far = {}) const {
        return args << "--on"
                    << "127.0.0.1"
                    << "--remote-nvpg" << (far.isEmpty() ? farNvpg_ : far);
    }

    QString script(const char* name, const std::string& body) const {
        const auto path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
        f.write(("#!/bin/bash\n" + body).c_str());
        f.close();
        f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
        return path;
    }

    // The processes of the far wrapper's name (the far engines) that are still running.
    std::vector<pid_t> farEngines() const {
        std::vector<pid_t> found;
        for (const auto& name : QDir("/proc").entryList(QDir::Dirs)) {
            bool isPid = false;
            const pid_t pid = name.toInt(&isPid);
            if (!isPid || !test::alive(pid)) continue;
            QFile f("/proc/" + name + "/cmdline");
            if (f.open(QIODevice::ReadOnly) && f.readAll().startsWith(farNvpg_.toUtf8() + '\0')) found.push_back(pid);
        }
        return found;
    }
    bool noFarEngineWithin(int ms) const {
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        while (!farEngines().empty() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return farEngines().empty();
    }

private slots:
    void initTestCase() {
        skip_ = sshd_.start();
        // The far login has sshd's environment, not this one's: the wrapper gives it this PATH
        // (where the test's nvdisasm may be) and a name of its own.
        farNvpg_ = dir_.filePath("far-nvpg.sh");
        script("far-nvpg.sh", "export PATH='" + qgetenv("PATH").toStdString() + "'\nexec -a " + farNvpg_.toStdString() +
                                  " " + test::nvpgPath() + " \"$@\"\n");
    }

    void launcherSplitsAndQuotes() {
        // NVPG_SSH_COMMAND as git splits GIT_SSH_COMMAND: quotes and backslashes, nothing else.
        auto words = engine::splitShellWords(R"(ssh -F "/a b/c" -i '/k $x' -o\ X=1 $HOME)", "NVPG_SSH_COMMAND");
        QVERIFY(words);
        QCOMPARE(*words, (std::vector<std::string>{"ssh", "-F", "/a b/c", "-i", "/k $x", "-o X=1", "$HOME"}));
        QVERIFY(!engine::splitShellWords("ssh -F 'open", "NVPG_SSH_COMMAND"));
        QVERIFY(!engine::splitShellWords("   ", "NVPG_SSH_COMMAND"));
        QCOMPARE(engine::shellQuoted("/opt/nvpg/bin/nvpg"), std::string("/opt/nvpg/bin/nvpg"));
        QCOMPARE(engine::shellQuoted("~/bin/nvpg"), std::string("~/bin/nvpg"));
        QCOMPARE(engine::shellQuoted("/a b/it's"), std::string("'/a b/it'\\''s'"));
        QVERIFY(!engine::checkDestination("-oProxyCommand=x", "--on"));
        QVERIFY(!engine::checkDestination("", "--on"));
        QVERIFY(!engine::checkDestination("a b", "--on"));
        QVERIFY(engine::checkDestination("ssh://me@gpu.example:2222", "--on"));
        // One argv: the ssh words, BatchMode and a connect timeout, no terminal, "--" before DEST.
        qputenv("NVPG_SSH_COMMAND", "/usr/bin/ssh -F '/x y/config'");
        auto l = engine::engineLauncher("engine", engine::FarEnd{"me@gpu", "~/bin/nvpg", 7});
        qunsetenv("NVPG_SSH_COMMAND");
        QVERIFY(l);
        QCOMPARE(l->argv, (std::vector<std::string>{"/usr/bin/ssh", "-F", "/x y/config", "-o", "BatchMode=yes", "-o",
                                                    "ConnectTimeout=7", "-T", "-e", "none", "--", "me@gpu",
                                                    "~/bin/nvpg engine"}));
        QVERIFY(l->far);
    }

    void optionsRefusedWithOn() {
        const auto e = env();
        auto r = nvpg({"compile", "saxpy", "--on", "-oProxyCommand=touch x"}, e);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("cannot start with '-'"), r.err.constData());
        QVERIFY(!QFile::exists(dir_.filePath("x")));
        r = nvpg({"compile", "saxpy", "--on", "h", "--in-process"}, e);
        QCOMPARE(r.exitCode, 2);
        auto withEngine = e;
        withEngine.insert("NVPG_ENGINE", "/bin/true");
        withEngine.insert("NVPG_ON", "h");
        r = nvpg({"compile", "saxpy"}, withEngine);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("NVPG_ENGINE and NVPG_ON"), r.err.constData());
    }

    void compileGivesTheLocalPtx() {
        if (!skip_.empty()) QSKIP(skip_.c_str());
        const QStringList args{"compile", "saxpy", "--arch", "compute_90", "--libdevice"};
        const auto local = nvpg(args, env());
        QCOMPARE(local.exitCode, 0);
        const auto far = nvpg(on(args), env());
        QVERIFY2(far.exitCode == 0, far.err.constData());
        QCOMPARE(far.out, local.out);
        // NVPG_ON does the same as --on.
        auto e = env();
        e.insert("NVPG_ON", "127.0.0.1");
        const auto viaEnv = nvpg(QStringList(args) << "--remote-nvpg" << farNvpg_, e);
        QCOMPARE(viaEnv.exitCode, 0);
        QCOMPARE(viaEnv.out, local.out);
        QVERIFY(noFarEngineWithin(5000));
    }

    void nothingOfTheToolkitIsNeededHere() {
        if (!skip_.empty()) QSKIP(skip_.c_str());
        // A mount namespace in which the local toolkit's folder is empty, and CUDA_PATH names an
        // empty folder: nvpg alone cannot compile there, nvpg --on can.
        if (support::findInPath("unshare").empty()) QSKIP("no unshare (util-linux)");
        const auto cuda = std::filesystem::canonical("/usr/local/cuda").string();
        const auto empty = dir_.filePath("empty");
        QDir().mkpath(empty);
        const auto hide =
            script("hide.sh", "mount --bind '" + empty.toStdString() + "' '" + cuda + "' || exit 99\nexec \"$@\"\n");
        auto e = env();
        e.insert("CUDA_PATH", empty);
        e.remove("CUDA_HOME");
        e.remove("CONDA_PREFIX");
        const QStringList args{"compile", "saxpy", "--arch", "compute_90"};
        const auto unshare = QString::fromStdString(support::findInPath("unshare"));
        QProcess probe;
        probe.start(unshare, {"-rm", "/bin/true"});
        probe.waitForFinished();
        if (probe.exitCode() != 0) QSKIP("unshare -rm does not work here (no user or mount namespaces)");
        // unshare -rm HIDE NVPG ARGS: run through the hiding script.
        auto hidden = [&](const QStringList& a) {
            QProcess p;
            p.setProcessEnvironment(e);
            p.start(unshare, QStringList{"-rm", hide, QString::fromStdString(test::nvpgPath())} + a);
            p.waitForFinished(120000);
            return Run{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
        };
        const auto alone = hidden(args);
        QVERIFY2(alone.exitCode == 2, alone.err.constData());
        const auto far = hidden(on(args));
        QVERIFY2(far.exitCode == 0, far.err.constData());
        QCOMPARE(far.out, nvpg(args, env()).out);
        // A lesson's check, and compare, there too.
        const auto lesson = test::sourceDir() / "resources/lessons/02-reading-ptx.nvpg";
        const auto solved = dir_.filePath("solved.nvpg");
        QCOMPARE(nvpg({"lesson", "state", QString::fromStdString(lesson.string()), "--step", "1", "--solution", "-o",
                       solved, "--force"},
                      env())
                     .exitCode,
                 0);
        const auto local = nvpg({"check", solved, "--step", "1"}, env());
        const auto checked = hidden(on({"check", solved, "--step", "1"}));
        QVERIFY2(checked.exitCode == local.exitCode, checked.out + checked.err);
        QCOMPARE(checked.exitCode, 0);
        const QStringList compare{"compare", "saxpy", "--arch", "compute_90", "--a", "--ftz 0", "--b", "--ftz 1"};
        const auto localDiff = nvpg(compare, env());
        const auto farDiff = hidden(on(compare));
        QVERIFY2(farDiff.exitCode == localDiff.exitCode, farDiff.err.constData());
        // The same changed lines (the labels name the toolkit, here and there).
        auto changes = [](const QByteArray& out) {
            QList<QByteArray> lines;
            for (const auto& line : out.split('\n'))
                if ((line.startsWith('+') || line.startsWith('-')) && !line.startsWith("+++") &&
                    !line.startsWith("---"))
                    lines << line;
            return lines;
        };
        QVERIFY(!changes(localDiff.out).isEmpty());
        QCOMPARE(changes(farDiff.out), changes(localDiff.out));
    }

    void sassComesFromTheFarNvdisasm() {
        if (!skip_.empty()) QSKIP(skip_.c_str());
        const QStringList args{"compile", "saxpy", "--arch", "compute_90", "--emit", "sass"};
        const auto local = nvpg(args, env());
        const auto far = nvpg(on(args), env());
        // Where nvdisasm is missing, both say so (the far one naming the far machine), exit 2.
        QCOMPARE(far.exitCode, local.exitCode);
        if (local.exitCode != 0) {
            QVERIFY2(far.err.contains("--emit sass: on "), far.err.constData());
            QSKIP("no nvdisasm here: the far nvpg said so (checked); the listing itself is not compared");
        }
        QCOMPARE(far.out, local.out);
    }

    void infoNamesTheFarMachine() {
        if (!skip_.empty()) QSKIP(skip_.c_str());
        const auto r = nvpg(on({"info", "--json"}), env());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = nlohmann::json::parse(r.out.toStdString());
        char host[256] = {};
        ::gethostname(host, sizeof host - 1);
        QCOMPARE(QString::fromStdString(j["host"].get<std::string>()), QString(host));
        QCOMPARE(QString::fromStdString(j["on"].get<std::string>()), QString("127.0.0.1"));
        QVERIFY(j["cuda_release"].get<std::string>().find("CUDA") != std::string::npos);
        QVERIFY(j.contains("gpus"));
        const auto text = nvpg(on({"info"}), env());
        QVERIFY(text.out.contains("engine on   127.0.0.1 (host "));
    }

    void cacheKeysOnTheFarToolkit() {
        if (!skip_.empty()) QSKIP(skip_.c_str());
        auto e = env();
        e.insert("NVPG_NO_CACHE", "");
        e.insert("NVPG_CACHE_DIR", dir_.filePath("cache"));
        auto cacheOf = [&](const QStringList& args) {
            const auto report = dir_.filePath("report.json");
            const auto r = nvpg(QStringList(args) << "--report" << report << "-o" << dir_.filePath("out.ptx"), e);
            if (r.exitCode != 0) qFatal("%s", r.err.constData());
            return QString::fromStdString(
                nlohmann::json::parse(test::readText(report.toStdString()))["cache"].get<std::string>());
        };
        const QStringList args{"compile", "saxpy", "--arch", "compute_90"};
        QCOMPARE(cacheOf(on(args)), QString("compiled"));
        QCOMPARE(cacheOf(on(args)), QString("hit"));
        // A local compile of the same inputs is not answered with the far result.
        QCOMPARE(cacheOf(args), QString("compiled"));
    }

    // nvpg run --on: the far engine compiles and is asked for its GPUs; on a far machine with
    // none (this one, in CI) the run says which machine and why, exit 3 as a run here would.
    // tst_gpu_remote runs kernels this way on a GPU.
    void runThereNamesTheFarMachine() {
        if (!skip_.empty()) QSKIP(skip_.c_str());
        const auto r = nvpg(on({"run", "saxpy"}), env());
        if (r.exitCode == 0) QSKIP("this machine has a GPU: tst_gpu_remote checks runs over ssh");
        char host[256] = {};
        QVERIFY(::gethostname(host, sizeof host - 1) == 0);
        QVERIFY2(r.exitCode == 3, r.err.constData());
        QVERIFY2(r.err.contains(QByteArray("127.0.0.1 (") + host + ") has no GPU the engine there can use: "),
                 r.err.constData());
        // A buffer file is read on this side: one that is not there is this side's error, exit 2.
        const auto bad = nvpg(on({"run", "saxpy", "--arg", "i32:4", "--arg", "f32:2", "--arg", "buf:@missing.npy",
                                  "--arg", "buf:f32:4:iota"}),
                              env());
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("missing.npy"), bad.err.constData());
    }

    void failuresAreNamed_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("far");
        QTest::addColumn<QString>("says");
        QTest::newRow("unreachable") << "ssh_config_closed"
                                     << ""
                                     << "cannot be reached";
        QTest::newRow("authentication") << "ssh_config_otherkey"
                                        << ""
                                        << "refused the login";
        QTest::newRow("host key unknown") << "ssh_config_nohostkey"
                                          << ""
                                          << "ssh-keyscan";
        QTest::newRow("far nvpg missing") << "ssh_config"
                                          << "/nonexistent/nvpg"
                                          << "--remote-nvpg PATH";
        QTest::newRow("protocol version") << "ssh_config"
                                          << "v2"
                                          << "protocol version 2, but this side speaks 1";
        QTest::newRow("connection cut") << "ssh_config"
                                        << "cut"
                                        << "connection to 127.0.0.1 was cut";
    }
    void failuresAreNamed() {
        if (!skip_.empty()) QSKIP(skip_.c_str());
        QFETCH(QString, config);
        QFETCH(QString, far);
        QFETCH(QString, says);
        if (far == "v2")  // a far engine of another protocol version: a frame header of version 2
            far = script("v2.sh",
                         "printf 'NVPG\\002\\000\\002\\000\\000\\000\\000\\000\\002\\000\\000\\000\\000\\000\\000"
                         "\\000{}'\n");
        if (far == "cut")  // the far side's sshd dies mid-request
            far = script("cut.sh", "head -c 20 >/dev/null\nkill -9 $PPID\n");
        QElapsedTimer t;
        t.start();
        const auto r = nvpg(on({"compile", "saxpy", "--arch", "compute_90"}, far), env(config.toStdString()));
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(r.err.contains(says.toUtf8()), r.err.constData());
        QVERIFY2(t.elapsed() < 30000, "ssh asked something, or waited");
    }

    void timeoutAndKillLeaveNothing() {
        if (!skip_.empty()) QSKIP(skip_.c_str());
        const auto slow = dir_.filePath("slow.ll");
        QVERIFY(support::writeFileAtomic(slow.toStdString(), test::manyKernelsModule(3000).bytes));
        // A timeout: nvpg ends ssh, the far engine ends with its stdin.
        const auto r =
            nvpg(on({"compile", slow, "--arch", "compute_90", "--opt", "3", "--engine-timeout", "4"}), env());
        QVERIFY2(r.exitCode == 1, r.err.constData());
        QVERIFY2(noFarEngineWithin(5000), "a far engine outlived nvpg's timeout");
        // kill -9 of nvpg mid-compile: its ssh sees the socket close and ends, and the far engine.
        QVERIFY(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(QString::fromStdString(test::nvpgPath()), on({"compile", slow, "--arch", "compute_90", "--opt", "3"}));
        QVERIFY(p.waitForStarted());
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (farEngines().empty() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        QVERIFY(!farEngines().empty());
        const auto ssh = test::childrenOf(pid_t(p.processId()));
        ::kill(pid_t(p.processId()), SIGKILL);
        p.waitForFinished();
        for (const pid_t child : ssh) {
            QVERIFY2(test::endsWithin(child, 10000), "ssh outlived nvpg");
            ::waitpid(child, nullptr, 0);  // this process inherited it: reaped, no zombie
        }
        ::prctl(PR_SET_CHILD_SUBREAPER, 0);
        QVERIFY2(noFarEngineWithin(10000), "a far engine outlived a killed nvpg");
    }

    void cleanupTestCase() { sshd_.stop(); }
};

}  // namespace

QTEST_GUILESS_MAIN(TestCliRemote)
#include "tst_cli_remote.moc"
