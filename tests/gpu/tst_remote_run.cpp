// nvpg run --on DEST on a real GPU, through an sshd of the test's own on 127.0.0.1
// (cli/SshdFixture.h; NVPG_TEST_SSHD names one where none is installed): the far engine compiles
// and runs on its GPU, the buffers cross the connection both ways, and what comes back is what a
// run here gives, byte for byte. A 256 MiB buffer goes there and back; the time it took, here and
// over ssh, is printed for docs/user/engine.md. Without a GPU or an sshd the suite says which
// with QSKIP.
#include <QtTest>

#include <filesystem>

#include "TestSupport.h"
#include "cli/SshdFixture.h"
#include "core/gpu/Devices.h"
#include "core/gpu/Npy.h"
#include "core/support/Files.h"
#include "core/support/Installed.h"

using namespace nvpg;
namespace fs = std::filesystem;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
    double seconds = 0;
};

QByteArray both(const Run& r) {
    return "exit " + QByteArray::number(r.exitCode) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

}  // namespace

class TestGpuRemoteRun : public QObject {
    Q_OBJECT

    test::Sshd sshd_;
    QTemporaryDir dir_;
    QString farNvpg_;

    Run nvpg(const QStringList& args, bool far) const {
        auto e = QProcessEnvironment::systemEnvironment();
        e.insert("NVPG_SSH_COMMAND", QString::fromStdString(sshd_.sshCommand()));
        e.remove("NVPG_ON");
        e.remove("NVPG_ENGINE");
        // The examples and lessons where the build tree is not (the GPU machine's copy).
        if (!support::runsFromBuildTree() && !e.contains("NVPG_DATA_DIR"))
            e.insert("NVPG_DATA_DIR", QString::fromStdString((test::sourceDir() / "resources").string()));
        QStringList all = args;
        if (far)
            all << "--on"
                << "127.0.0.1"
                << "--remote-nvpg" << farNvpg_;
        QProcess p;
        p.setProcessEnvironment(e);
        p.setWorkingDirectory(dir_.path());
        QElapsedTimer t;
        t.start();
        p.start(QString::fromStdString(test::nvpgPath()), all);
        if (!p.waitForFinished(300000)) {
            p.kill();
            p.waitForFinished(-1);
            qFatal("nvpg did not finish in 300 s: %s", qPrintable(all.join(' ')));
        }
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                p.readAllStandardError(), double(t.nsecsElapsed()) / 1e9};
    }

    static QByteArray fileBytes(const QString& path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private slots:
    void initTestCase() {
        const auto devices = gpu::listDevices(*test::realToolkit());
        if (!devices) QSKIP(qPrintable(QString::fromStdString("no usable GPU here: " + devices.error().message)));
        if (devices->empty()) QSKIP("no usable GPU here: the driver sees no GPU");
        if (const auto why = sshd_.start(); !why.empty()) QSKIP(qPrintable(QString::fromStdString("no sshd: " + why)));
        // The far login has sshd's environment: the wrapper gives the far nvpg this one's library
        // path and PATH (the GPU machine carries nvpg's libraries beside it).
        farNvpg_ = dir_.filePath("far-nvpg.sh");
        QFile f(farNvpg_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(("#!/bin/bash\nexport PATH='" + qgetenv("PATH").toStdString() + "'\nexport LD_LIBRARY_PATH='" +
                 qgetenv("LD_LIBRARY_PATH").toStdString() + "'\nexport CUDA_HOME='" +
                 qgetenv("CUDA_HOME").toStdString() + "'\nexec " + test::nvpgPath() + " \"$@\"\n")
                    .c_str());
        f.close();
        f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
    }

    // The example's kernel, run here and there: the same buffers come back, and the far run
    // names the machine it ran on.
    void runThereGivesWhatRunsHere() {
        const QStringList args{"run", "saxpy", "--save-outputs"};
        const auto here = nvpg(args + QStringList{dir_.filePath("here")}, false);
        QVERIFY2(here.exitCode == 0, both(here));
        const auto there = nvpg(args + QStringList{dir_.filePath("there")}, true);
        QVERIFY2(there.exitCode == 0, both(there));
        char host[256] = {};
        QVERIFY(::gethostname(host, sizeof host - 1) == 0);
        QVERIFY2(there.out.split('\n').front().contains(QByteArray("(") + host + ")"), both(there));
        for (const char* name : {"arg2.npy", "arg3.npy"}) {
            const auto a = fileBytes(dir_.filePath(QString("here/") + name));
            QVERIFY2(!a.isEmpty(), name);
            QCOMPARE(fileBytes(dir_.filePath(QString("there/") + name)), a);
        }
    }

    // A lesson's output check graded with the far GPU: the step's solution passes there as here.
    void aLessonsOutputCheckRunsThere() {
        const auto lesson =
            QString::fromStdString((test::sourceDir() / "resources/lessons/01-first-kernel.nvpg").string());
        const auto s2 = dir_.filePath("s2.nvpg");
        auto r = nvpg({"lesson", "state", lesson, "--step", "2", "--solution", "-o", s2}, false);
        QVERIFY2(r.exitCode == 0, both(r));
        r = nvpg({"check", s2}, true);
        QVERIFY2(r.exitCode == 0, both(r));
        QVERIFY2(r.out.contains("  passed       output \"scale 1024\" arg 1 == scale-1024.npy\n"), both(r));
        QVERIFY2(r.out.endsWith("all 4 checks passed\n"), both(r));
    }

    // 256 MiB in each of saxpy's two buffers: 512 MiB to the far GPU, 512 MiB back.
    void aBigBufferCrossesBothWays() {
        const qint64 n = 64ll << 20;  // floats: 256 MiB
        const QStringList args{"run",           "saxpy",
                               "--kernel",      "saxpy",
                               "--grid",        QString::number(n / 256),
                               "--block",       "256",
                               "--arg",         QString("i32:%1").arg(n),
                               "--arg",         "f32:2",
                               "--arg",         QString("buf:f32:%1:iota").arg(n),
                               "--arg",         QString("buf:f32:%1:const:1").arg(n),
                               "--save-outputs"};
        const auto here = nvpg(args + QStringList{dir_.filePath("big-here")}, false);
        QVERIFY2(here.exitCode == 0, both(here));
        const auto there = nvpg(args + QStringList{dir_.filePath("big-there")}, true);
        QVERIFY2(there.exitCode == 0, both(there));
        const auto a = fileBytes(dir_.filePath("big-here/arg3.npy"));
        QVERIFY(a.size() > (256 << 20));
        QVERIFY(fileBytes(dir_.filePath("big-there/arg3.npy")) == a);
        qInfo("256 MiB buffers (512 MiB each way): nvpg run %.2f s here, %.2f s with --on over loopback ssh",
              here.seconds, there.seconds);
    }

    void cleanupTestCase() { sshd_.stop(); }
};

QTEST_GUILESS_MAIN(TestGpuRemoteRun)
#include "tst_remote_run.moc"
