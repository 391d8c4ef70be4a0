// Every bundled example run from the app, as a user would: open it, let it compile, press Run.
// Needs a GPU (ctest -L gpu); without one it says so and skips.
#include <QtTest>

#include <QLabel>
#include <QTabWidget>

#include "TestSupport.h"
#include "engine/CompileController.h"
#include "run/RunPanel.h"
#include "window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

class TestGpuApp : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("nvpg-test");
        QCoreApplication::setApplicationName("tst_gui_gpu_app");
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
};

QTEST_MAIN(TestGpuApp)
#include "tst_gpu_app.moc"
