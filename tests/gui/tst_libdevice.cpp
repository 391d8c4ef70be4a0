// The libdevice dock with the real engine and the real map: the libdevice-math example's
// functions are listed with their call lines and PTX sizes (the map's), a click on a call goes
// to it in the editor, and selecting a function marks its PTX lines in the PTX pane.
#include <QtTest>

#include <QCheckBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QMenu>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>

#include <Qsci/qsciscintilla.h>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "core/inspect/Docs.h"
#include "core/workspace/Workspace.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/LineMapLinks.h"
#include "gui/output/OutputView.h"
#include "gui/panels/LibdevicePanel.h"
#include "gui/panels/OptionsPanel.h"
#include "gui/panels/ProblemsPanel.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {}  // namespace

class TestLibdevice : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_libdevice");
    }

    // A numba .ll calls __nv_sinf and friends; opened as it is, libdevice is
    // linked (the status bar says why) and it compiles. A workspace that saved "libdevice":
    // false keeps it off, and so does the user's own choice when a module is added later.
    void aModuleThatCallsLibdeviceOpensWithItLinked() {
        const QString numba = QString::fromStdString((test::dataDir() / "numba" / "math_kernel.ll").string());
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QSignalSpy replies(w->controller(), &CompileController::replyShown);
        QVERIFY(w->openPaths({numba}));
        QCOMPARE(w->statusBar()->currentMessage(),
                 QStringLiteral("libdevice linked: the modules call __nv_sinf, __nv_expf, __nv_pow"));
        QVERIFY(w->document()->workspace().libdevice);
        QVERIFY(w->optionsPanel()->libdeviceCheck()->isChecked());
        QVERIFY(!replies.isEmpty() || replies.wait(120000));
        QVERIFY2(w->lastReply().result && w->lastReply().result->ok, qPrintable(w->lastReply().error));

        // The user turns it off: a module that calls libdevice, added now, leaves it off.
        replies.clear();
        w->optionsPanel()->libdeviceCheck()->setChecked(false);
        QVERIFY(!w->document()->workspace().libdevice);
        QVERIFY(replies.wait(120000));
        QVERIFY(w->lastReply().result && !w->lastReply().result->ok);
        w->statusBar()->clearMessage();
        w->addModuleFiles({QString::fromStdString((test::dataDir() / "ir" / "sinf.ll").string())});
        QCOMPARE(w->document()->moduleCount(), 2);
        QVERIFY(!w->document()->workspace().libdevice);
        QVERIFY(!w->statusBar()->currentMessage().contains("libdevice linked"));

        // A workspace's saved choice wins: off, no message, and the calls are the errors.
        QTemporaryDir dir;
        workspace::Workspace ws;
        ws.name = "numba";
        ws.modules = {{"math_kernel.ll", test::readText(numba.toStdString()), false}};
        ws.libdevice = false;
        ws.options.arch = "compute_90";
        const QString saved = dir.filePath("off.nvpg");
        QVERIFY(workspace::saveWorkspace(ws, saved.toStdString()).ok());
        w->statusBar()->clearMessage();
        replies.clear();
        QVERIFY(w->openPaths({saved}));
        QVERIFY(!w->document()->workspace().libdevice);
        QVERIFY(!w->optionsPanel()->libdeviceCheck()->isChecked());
        QVERIFY(!w->statusBar()->currentMessage().contains("libdevice linked"));
        QVERIFY(!replies.isEmpty() || replies.wait(120000));
        QVERIFY(w->lastReply().result && !w->lastReply().result->ok);
        QCOMPARE(w->problems()->count(), 3);
        for (int row = 0; row < 3; ++row) {
            QCOMPARE(QString::fromStdString(w->problems()->diagnostic(row).module), QString("math_kernel.ll"));
            QVERIFY(w->problems()->diagnostic(row).line > 0);
        }
    }

    void theDockListsTheCallsJumpsAndMarksThePtx() {
        auto w = test::makeWindow(nullptr, QSize(1400, 900));
        QSignalSpy replies(w->controller(), &CompileController::replyShown);
        QSignalSpy maps(w->controller(), &CompileController::lineMapShown);
        QSignalSpy lates(w->controller(), &CompileController::lateShown);
        QVERIFY(w->openExample("libdevice-math"));
        QVERIFY(!replies.isEmpty() || replies.wait(120000));
        // The complete result rebuilds the panel: wait for it, so the rows read below stay.
        QVERIFY(!lates.isEmpty() || lates.wait(120000));
        QVERIFY(!maps.isEmpty() || maps.wait(120000));
        const auto map = maps.last().at(1).value<std::shared_ptr<const inspect::LineMap>>();
        QVERIFY(map);
        QVERIFY2(map->ptx.available(), map->ptx.unavailable.c_str());

        auto* dock = w->findChild<QDockWidget*>(QStringLiteral("libdeviceDock"));
        QVERIFY(dock);
        bool inMenu = false;
        for (auto* menu : w->findChildren<QMenu*>())
            inMenu = inMenu || menu->actions().contains(dock->toggleViewAction());
        QVERIFY(inMenu);
        dock->show();
        dock->raise();
        QTRY_VERIFY(w->libdevicePanel()->view()->viewport()->height() > 0);

        auto* editor = w->editors()->currentEditor();
        const QString module = QString::fromStdString(w->document()->module(w->editors()->currentModule()).name);
        const int call = test::lineContaining(editor, QStringLiteral("call float @__nv_sinf")) + 1;
        QVERIFY(call > 0);
        auto* panel = w->libdevicePanel();
        auto* item = panel->functionItem(QStringLiteral("__nv_sinf"));
        QVERIFY(item);
        QCOMPARE(item->text(LibdevicePanel::CallsColumn), QStringLiteral("%1:%2").arg(module).arg(call));
        // The map came after the plain reply: the figure is the map's lines of that call.
        const auto expected = test::expand(map->ptx.rangesOf(module.toStdString(), call));
        QVERIFY(expected.size() >= 30);
        QCOMPARE(item->text(LibdevicePanel::PtxColumn), QStringLiteral("%1 lines").arg(expected.size()));
        for (const char* name : {"__nv_expf", "__nv_powf"}) QVERIFY2(panel->functionItem(name), name);

        // Selecting it marks those PTX lines, and the details give its signature.
        panel->view()->setCurrentItem(item);
        QCOMPARE(LineMapLinks::focusedLines(w->output()->ptxEditor()), expected);
        QVERIFY(panel->details()->toPlainText().contains(QStringLiteral("float __nv_sinf(float %a)")));
        QVERIFY(panel->details()->toPlainText().contains(QStringLiteral("%1 lines").arg(expected.size())));
        // Its doc entry, once the docs have one, in the one text form.
        const auto doc = inspect::Docs::builtIn().explain("__nv_sinf", inspect::DocContext::Ir);
        if (!doc.empty() && doc.front().entry)
            QVERIFY(panel->details()->toPlainText().contains(QString::fromStdString(doc.front().entry->title)));

        // A click on its call row goes to that line of the module.
        editor->setCursorPosition(0, 0);
        QCOMPARE(item->childCount(), 1);
        auto* callRow = item->child(0);
        panel->view()->scrollToItem(callRow);
        const QRect cell = panel->view()->visualItemRect(callRow);
        const int x = panel->view()->header()->sectionViewportPosition(LibdevicePanel::CallsColumn) + 5;
        QVERIFY(cell.isValid());
        QTest::mouseClick(panel->view()->viewport(), Qt::LeftButton, {}, QPoint(x, cell.center().y()));
        const auto caretLine = [&] {
            int line = -1, index = -1;
            w->editors()->currentEditor()->getCursorPosition(&line, &index);
            return line + 1;
        };
        QTRY_COMPARE(caretLine(), call);
    }
};

QTEST_MAIN(TestLibdevice)
#include "tst_libdevice.moc"
