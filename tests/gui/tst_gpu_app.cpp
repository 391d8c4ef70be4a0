// Every bundled example run from the app, as a user would: open it, let it compile, press Run.
// Needs a GPU (ctest -L gpu); without one it says so and skips.
#include <QtTest>

#include <QLabel>
#include <QTabWidget>

#include "TestSupport.h"
#include "core/gpu/ArgSpec.h"
#include "gui/compile/CompileController.h"
#include "gui/panels/RunHistory.h"
#include "gui/panels/RunPanel.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

class TestGpuApp : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::isolateAppData("tst_gui_gpu_app");
        test::useNvpgAsEngine();
        auto drv = test::realToolkit()->driver();
        if (!drv) QSKIP(qPrintable("no GPU here: " + QString::fromStdString(drv.error().message)));
    }

    void everyExampleRunsFromTheApp_data() {
        QTest::addColumn<QString>("example");
        for (const auto& name : MainWindow::exampleNames()) QTest::newRow(qPrintable(name)) << name;
    }
    void everyExampleRunsFromTheApp() {
        QFETCH(QString, example);
        MainWindow w;
        w.setErrorSink([](const QString& t, const QString& m) { qWarning("%s: %s", qPrintable(t), qPrintable(m)); });
        w.setSaveQuestion([] { return QMessageBox::Discard; });
        w.show();
        QSignalSpy compiled(w.controller(), &CompileController::replyShown);
        QVERIFY(w.openExample(example));
        QVERIFY(compiled.wait(120000));
        auto* panel = w.runPanel();
        QTRY_VERIFY2_WITH_TIMEOUT(panel->runBlockers().isEmpty(), qPrintable(panel->runBlockers().join("; ")), 30000);
        QSignalSpy busy(panel, &RunPanel::busyChanged);
        panel->runNow();
        QTRY_VERIFY_WITH_TIMEOUT(!busy.isEmpty() && !panel->isBusy(), 60000);
        const auto summary = panel->summaryLabel()->text();
        qInfo("%s: %s", qPrintable(example), qPrintable(summary));
        QVERIFY2(summary.contains(" ms") && !summary.contains("failed"), qPrintable(summary));
        QVERIFY(panel->bufferTabs()->count() >= 1);
    }

    // A kernel that writes out of bounds and one that never ends, run from the Run panel: each
    // is reported, the window keeps answering meanwhile, and the next run is correct.
    void faultingAndHungKernelsLeaveTheAppUsable() {
        MainWindow w;
        w.setErrorSink([](const QString& t, const QString& m) { qWarning("%s: %s", qPrintable(t), qPrintable(m)); });
        w.setSaveQuestion([] { return QMessageBox::Discard; });
        w.show();
        QSignalSpy compiled(w.controller(), &CompileController::replyShown);
        const auto gpuDir = test::dataDir() / "ir/gpu";
        const auto saxpy = test::examplesDir() / "src/saxpy/saxpy.ll";
        QVERIFY(w.openPaths({QString::fromStdString((gpuDir / "oob.ll").string()),
                             QString::fromStdString((gpuDir / "spin.ll").string()),
                             QString::fromStdString(saxpy.string())}));
        QVERIFY(compiled.wait(120000));
        auto* panel = w.runPanel();

        auto run = [&](const std::string& kernel, std::vector<std::string> args, double timeout) {
            gpu::RunConfig config;
            config.kernel = kernel;
            config.grid = {kernel == "saxpy" ? 16u : 1u, 1, 1};
            config.block = {kernel == "saxpy" ? 256u : 1u, 1, 1};
            config.timeoutSeconds = timeout;
            for (const auto& a : args) config.args.push_back(*gpu::parseArgSpec(a));
            panel->loadConfig(config);
            QTRY_VERIFY2_WITH_TIMEOUT(panel->runBlockers().isEmpty(), qPrintable(panel->runBlockers().join("; ")),
                                      30000);
            // The window answers while the kernel runs.
            test::EventLoopProbe probe([&] { return panel->isBusy(); });
            panel->runNow();
            QVERIFY(panel->isBusy());
            QTRY_VERIFY_WITH_TIMEOUT(!panel->isBusy(), 60000);
            probe.stop();
            const auto longest = probe.worstGapMs();
            QVERIFY2(longest < 500, qPrintable(QString("the event loop stalled %1 ms").arg(longest)));
            qInfo("%s: %s (longest event-loop gap %lld ms)", kernel.c_str(), qPrintable(panel->summaryLabel()->text()),
                  longest);
        };

        run("oob", {"buf:f32:16:zeros"}, 10);
        QVERIFY2(panel->history()->record(0).error.contains("CUDA_ERROR_ILLEGAL_ADDRESS"),
                 qPrintable(panel->history()->record(0).error));
        QVERIFY(panel->summaryLabel()->text().contains("CUDA_ERROR_ILLEGAL_ADDRESS"));

        QElapsedTimer hung;
        hung.start();
        run("spin", {"buf:i32:1:zeros"}, 2);
        QVERIFY2(panel->history()->record(0).error.contains("did not finish within 2 s"),
                 qPrintable(panel->history()->record(0).error));
        QVERIFY(hung.elapsed() < 30000);

        run("saxpy", {"i32:4096", "f32:2", "buf:f32:4096:iota", "buf:f32:4096:const:1"}, 10);
        const auto& done = panel->history()->record(0);
        QVERIFY2(done.outcome, qPrintable(done.error));
        const auto& y = done.outcome->buffers.back();
        QCOMPARE(y.count, size_t(4096));
        const auto* v = reinterpret_cast<const float*>(y.bytes.data());
        for (size_t i = 0; i < y.count; ++i) QCOMPARE(v[i], 2.0f * float(i) + 1.0f);
        QCOMPARE(panel->history()->count(), 3);
    }
};

QTEST_MAIN(TestGpuApp)
#include "tst_gpu_app.moc"
