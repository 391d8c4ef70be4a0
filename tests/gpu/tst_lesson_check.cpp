// A learner's lesson file graded on a real GPU, as a teacher does it: a step's reference solution
// written into another folder than the course's (`nvpg lesson state --solution -o`), then `nvpg
// check` on it. Its output check compares the buffer the run gives back with the data the lesson
// carries, and passes. Without a GPU the suite says so with QSKIP.
#include <QtTest>

#include <filesystem>

#include "TestSupport.h"
#include "core/gpu/Devices.h"
#include "core/support/Installed.h"

using namespace nvpg;
namespace fs = std::filesystem;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run runNvpg(const QStringList& args) {
    auto env = QProcessEnvironment::systemEnvironment();
    if (!support::runsFromBuildTree() && !env.contains("NVPG_DATA_DIR"))
        env.insert("NVPG_DATA_DIR", QString::fromStdString((test::sourceDir() / "resources").string()));
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QString::fromStdString(test::nvpgPath()), args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished(-1);
        qFatal("nvpg did not finish in 120 s: %s", qPrintable(args.join(' ')));
    }
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

QByteArray both(const Run& r) {
    return "exit " + QByteArray::number(r.exitCode) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

}  // namespace

class TestGpuLessonCheck : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        const auto devices = gpu::listDevices(*test::realToolkit());
        if (!devices) QSKIP(qPrintable(QString::fromStdString("no usable GPU here: " + devices.error().message)));
        if (devices->empty()) QSKIP("no usable GPU here: the driver sees no GPU");
    }

    // nvpg lesson state resources/lessons/01-first-kernel.nvpg --step 2 --solution -o elsewhere/s2.nvpg
    // nvpg check elsewhere/s2.nvpg
    void aSolutionCheckedInAnotherFolderPasses() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("elsewhere"));
        const auto s2 = dir.filePath("elsewhere/s2.nvpg");
        const auto lesson =
            QString::fromStdString((test::sourceDir() / "resources/lessons/01-first-kernel.nvpg").string());
        auto r = runNvpg({"lesson", "state", lesson, "--step", "2", "--solution", "-o", s2});
        QVERIFY2(r.exitCode == 0, both(r));
        r = runNvpg({"check", s2});
        QVERIFY2(r.exitCode == 0, both(r));
        QVERIFY2(r.out.contains("  passed       output \"scale 1024\" arg 1 == scale-1024.npy\n"), both(r));
        QVERIFY2(r.out.endsWith("all 4 checks passed\n"), both(r));
        QVERIFY2(!r.out.contains("FAILED") && !r.out.contains("not checked"), both(r));
    }
};

QTEST_GUILESS_MAIN(TestGpuLessonCheck)
#include "tst_lesson_check.moc"
