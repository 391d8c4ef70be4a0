// Without nvdisasm the SASS pane says so in core's one sentence: once, with
// how to get it and which wheel release serves which toolkit.
#include <QtTest>

#include <QTemporaryDir>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "core/toolkit/Toolkit.h"
#include "gui/compile/CompileController.h"
#include "gui/output/OutputView.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;

class TestSassNotice : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_sassnotice");
    }

    void theSassPaneSaysOnceWhyThereIsNoSass() {
        // No nvdisasm on PATH, and no python3 whose site-packages might hold the wheel.
        QTemporaryDir empty;
        const auto saved = qgetenv("PATH");
        qputenv("PATH", empty.path().toUtf8());
        auto tk = toolkit::Toolkit::load({});
        std::unique_ptr<gui::MainWindow> w;
        if (tk && !(*tk)->nvdisasm()) w = test::makeWindow();
        qputenv("PATH", saved);
        QVERIFY2(tk, tk ? "" : tk.error().message.c_str());
        if (!w) QSKIP("this toolkit has its own nvdisasm (beside libNVVM): there is always SASS here");
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QSignalSpy shown(w->controller(), &gui::CompileController::replyShown);
        QVERIFY(w->openExample("saxpy"));
        QVERIFY(!shown.isEmpty() || shown.wait(120000));
        w->output()->showSassTab(true);
        const QString notice = w->output()->sassNotice();
        QCOMPARE(notice, QString::fromStdString((*tk)->nvdisasmReport().problem));
        QCOMPARE(notice.count("nvdisasm not found"), qsizetype(1));
        QVERIFY2(!notice.contains("was not found"), qPrintable(notice));
        QVERIFY2(notice.contains("nvidia-cuda-nvdisasm==13.2.*") && notice.contains("CUDA 13.0"), qPrintable(notice));
    }
};

QTEST_MAIN(TestSassNotice)
#include "tst_sassnotice.moc"
