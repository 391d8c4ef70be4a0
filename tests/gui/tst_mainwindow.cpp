// The app as a user drives it: every example opens and compiles with both panes filled, a
// broken line is marked on that line of that module, edits win over older compiles, options
// reuse the Program, workspaces round-trip, and the window stays responsive during a compile.
#include <QtTest>

#include <functional>

#include <QCheckBox>
#include <QDockWidget>
#include <QFontDatabase>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTreeWidget>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "gui/compile/CompileController.h"
#include "gui/dialogs/SettingsDialog.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/FindBar.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/OutputView.h"
#include "gui/panels/OptionsPanel.h"
#include "gui/panels/ProblemsPanel.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {

// The kernels an IR text marks in !nvvm.annotations.
QStringList kernelsIn(const std::string& ir) {
    QStringList out;
    static const QRegularExpression re(R"(@(\w+), !"kernel", i32 1)");
    for (auto it = re.globalMatch(QString::fromStdString(ir)); it.hasNext();) out << it.next().captured(1);
    return out;
}

EngineReply waitForReply(MainWindow& w, int timeoutMs = 120000) {
    QSignalSpy spy(w.controller(), &CompileController::replyShown);
    if (!spy.wait(timeoutMs)) qFatal("no compile result within %d ms", timeoutMs);
    return spy.last().at(0).value<EngineReply>();
}

// A menu's action by its text without the '&' (e.g. "Edit", "Go to Line…").
QAction* menuAction(QMainWindow& w, const QString& menu, const QString& text) {
    for (auto* top : w.menuBar()->actions()) {
        if (top->text().remove('&') != menu || !top->menu()) continue;
        for (auto* a : top->menu()->actions())
            if (a->text().remove('&') == text) return a;
    }
    return nullptr;
}

long zoomOf(QsciScintilla* e) {
    return e->SendScintilla(QsciScintillaBase::SCI_GETZOOM);
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

    QStringList errors_;
    std::unique_ptr<MainWindow> makeWindow() { return test::makeWindow(&errors_); }

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_mainwindow");
    }
    void init() { errors_.clear(); }

    void everyExampleOpensWithBothPanesFilled_data() {
        QTest::addColumn<QString>("example");
        for (const auto& name : MainWindow::exampleNames()) QTest::newRow(qPrintable(name)) << name;
        // File > Examples offers every .nvpg of the examples folder (this build's: the source tree's).
        QStringList bundled;
        for (const auto& name : test::exampleNames()) bundled << QString::fromStdString(name);
        QCOMPARE(MainWindow::exampleNames(), bundled);
        QVERIFY(bundled.size() >= 6);
    }
    void everyExampleOpensWithBothPanesFilled() {
        QFETCH(QString, example);
        auto w = makeWindow();
        QSignalSpy spy(w->controller(), &CompileController::replyShown);
        QVERIFY(w->openExample(example));
        QVERIFY(spy.wait(120000));
        const auto reply = spy.last().at(0).value<EngineReply>();
        QVERIFY2(reply.result, qPrintable(reply.error));
        // The workspace's name, then the application's, once.
        QCOMPARE(w->windowTitle(), w->document()->displayName() + "[*] — " + QGuiApplication::applicationDisplayName());
        QVERIFY(w->document()->path().isEmpty());  // a copy: saving asks where
        QStringList kernels;
        for (int i = 0; i < w->document()->moduleCount(); ++i) kernels << kernelsIn(w->document()->module(i).bytes);
        // The bitcode example's kernel is in its text module; every example has at least one.
        QVERIFY(!kernels.isEmpty());
        for (const auto& k : kernels) {
            QVERIFY2(w->output()->ptxText().contains(".entry " + k), qPrintable(k));
            if (example == "lto-dropped")
                QVERIFY(!w->output()->ltoText().contains(".entry " + k));  // the point of that example
            else
                QVERIFY2(w->output()->ltoText().contains(".entry " + k), qPrintable(example + ": " + k));
        }
        if (example == "lto-dropped")
            QCOMPARE(w->problems()->count(), kernels.size());
        else
            QCOMPARE(w->problems()->count(), 0);
        QVERIFY(errors_.isEmpty());
    }

    void brokenLineIsMarkedOnThatLineOfThatModule() {
        auto w = makeWindow();
        QVERIFY(w->openExample("two-modules"));
        waitForReply(*w);
        const int helper = w->document()->indexOf("helper.ll");
        QVERIFY(helper >= 0);
        auto* editor = w->editors()->editor(helper);
        // Break the first instruction line of the helper: "fmul" -> "fmull".
        const auto text = QString::fromStdString(editor->moduleText());
        const int at = text.indexOf(" fmul ");
        QVERIFY(at > 0);
        const int line = text.left(at).count('\n') + 1;
        editor->setText(QString(text).replace(at, 6, " fmull "));
        w->controller()->compileNow();
        const auto reply = waitForReply(*w);
        QVERIFY(reply.result && !reply.result->ok);
        QCOMPARE(w->problems()->count(), 1);
        const auto& d = reply.result->diagnostics.at(0);
        QCOMPARE(d.module, std::string("helper.ll"));
        QCOMPARE(d.line, line);
        QCOMPARE(editor->markedLines(), std::vector<int>{line});
        QVERIFY(w->editors()->editor(w->document()->indexOf("main.ll"))->markedLines().empty());
        // The last good output stays visible while the IR is broken.
        QVERIFY(w->output()->ptxText().contains(".entry fade"));

        // Fixing it clears the marks.
        editor->setText(text);
        w->controller()->compileNow();
        const auto fixed = waitForReply(*w);
        QVERIFY(fixed.result && fixed.result->ok);
        QVERIFY(editor->markedLines().empty());
        QCOMPARE(w->problems()->count(), 0);
    }

    void laterEditDropsTheStaleResult() {
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        waitForReply(*w);
        QSignalSpy spy(w->controller(), &CompileController::replyShown);
        auto* editor = w->editors()->editor(0);
        const auto original = QString::fromStdString(editor->moduleText());
        // Edit 1 makes a long compile; edit 2 (a rename of the kernel) follows at once.
        editor->setText(QString::fromStdString(test::manyKernelsModule(150, /*libdevice=*/true).bytes));
        w->controller()->compileNow();
        editor->setText(QString(original).replace("@saxpy", "@saxpy_renamed"));
        w->controller()->compileNow();
        QTRY_VERIFY_WITH_TIMEOUT(!spy.isEmpty(), 180000);
        QTest::qWait(500);
        QCOMPARE(spy.size(), 1);  // the stale big-module result never shows
        QVERIFY(w->output()->ptxText().contains(".entry saxpy_renamed"));
        QVERIFY(!w->output()->ptxText().contains(".entry k0"));
    }

    // The PTX pane fills first, from the PTX part, while the LTO chain still works; the panes
    // never show the PTX of one request beside the LTO of another unless the LTO pane says it
    // is the older one; once the last of several quick edits is compiled, every pane is its.
    void progressivePanesNeverMixRequests() {
        auto w = makeWindow();
        QVERIFY(w->openExample("libdevice-math"));
        waitForReply(*w);
        auto* out = w->output();
        int checks = 0, partsShown = 0;
        const auto check = [&] {
            ++checks;
            QVERIFY2(
                out->ptxGeneration() == out->ltoGeneration() || out->ltoPending(),
                qPrintable(
                    QStringLiteral("PTX of %1 beside LTO of %2").arg(out->ptxGeneration()).arg(out->ltoGeneration())));
            if (out->ltoPending()) {
                QVERIFY2(out->ltoHeader().contains(QStringLiteral("compiling…")) ||
                             out->ltoHeader().contains(QStringLiteral("not updated")),
                         qPrintable(out->ltoHeader()));
                QVERIFY(out->ltoGeneration() < out->ptxGeneration());
            }
        };
        // Connected after the window's own slots: each runs once the panes show what it brought.
        connect(w->controller(), &CompileController::ptxShown, this, [&](const EngineReply& reply) {
            ++partsShown;
            QCOMPARE(out->ptxGeneration(), reply.generation);
            check();
        });
        connect(w->controller(), &CompileController::replyShown, this, [&] { check(); });
        connect(w->controller(), &CompileController::lateShown, this, [&] { check(); });

        auto* editor = w->editors()->editor(0);
        const auto original = QString::fromStdString(editor->moduleText());
        QSignalSpy shown(w->controller(), &CompileController::replyShown);
        for (int i = 1; i <= 5; ++i) {
            // Each edit a new Program: some answered in part, some replaced before their PTX.
            editor->setText(original + QStringLiteral("\n; edit %1\n").arg(i));
            w->controller()->compileNow();
            QTest::qWait(i * 15);
        }
        const auto newest = w->controller()->newestGeneration();
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && shown.last().at(0).value<EngineReply>().generation == newest,
                                 120000);
        QTRY_VERIFY_WITH_TIMEOUT(!w->controller()->mapping(), 60000);
        const auto last = shown.last().at(0).value<EngineReply>();
        QVERIFY(last.result && last.result->ok);
        QVERIFY(checks > 0);
        QVERIFY(partsShown > 0);  // the PTX part came before the whole result
        QVERIFY(!out->ltoPending());
        QCOMPARE(out->ptxGeneration(), newest);
        QCOMPARE(out->ltoGeneration(), newest);
        QCOMPARE(out->ptxText(), QString::fromStdString(last.result->ptx));
        QCOMPARE(out->ltoText(), QString::fromStdString(last.result->linkedPtx));
    }

    void optionsChangeReusesTheProgram() {
        auto w = makeWindow();
        QVERIFY(w->openExample("libdevice-math"));
        const auto first = waitForReply(*w);
        QVERIFY(first.result && !first.result->reusedProgram);
        auto options = w->document()->workspace().options;
        options.opt = 0;
        QSignalSpy spy(w->controller(), &CompileController::replyShown);
        w->document()->setOptions(options);  // as the Options dock does
        QVERIFY(spy.wait(120000));
        const auto second = spy.last().at(0).value<EngineReply>();
        QVERIFY(second.result && second.result->ok);
        QVERIFY(second.result->reusedProgram);
        QVERIFY(second.result->ptx != first.result->ptx);
    }

    void anOptionSetBackIsAnsweredFromTheCache() {
        // This window alone has the result cache (the suites run with NVPG_NO_CACHE=1), in a
        // folder of its own.
        QTemporaryDir dir;
        qunsetenv("NVPG_NO_CACHE");
        qputenv("NVPG_CACHE_DIR", dir.path().toUtf8());
        auto w = makeWindow();
        qputenv("NVPG_NO_CACHE", "1");
        qunsetenv("NVPG_CACHE_DIR");
        QVERIFY(w->openExample("libdevice-math"));
        const auto first = waitForReply(*w);
        QVERIFY(first.result && first.result->ok && !first.result->fromCache);
        const auto original = w->document()->workspace().options;
        auto options = original;
        options.opt = 0;
        QSignalSpy spy(w->controller(), &CompileController::replyShown);
        w->document()->setOptions(options);
        QVERIFY(spy.wait(120000));
        const auto changed = spy.last().at(0).value<EngineReply>();
        QVERIFY(changed.result && !changed.result->fromCache);
        w->document()->setOptions(original);  // set back, as a second click or an undo does
        QVERIFY(spy.wait(120000));
        const auto back = spy.last().at(0).value<EngineReply>();
        QVERIFY(back.result && back.result->fromCache);
        QCOMPARE(back.result->ptx, first.result->ptx);
        QCOMPARE(w->output()->ptxText(), QString::fromStdString(first.result->ptx));
    }

    void everyExampleRoundTripsThroughSave_data() { everyExampleOpensWithBothPanesFilled_data(); }
    void everyExampleRoundTripsThroughSave() {
        QFETCH(QString, example);
        auto w = makeWindow();
        QVERIFY(w->openExample(example));
        waitForReply(*w);
        QTemporaryDir dir;
        const auto path = dir.filePath(example + ".nvpg");
        QVERIFY(w->saveAs(path));
        QVERIFY(!w->document()->isModified());
        QVERIFY(!w->isWindowModified());
        auto loaded = workspace::loadWorkspace(path.toStdString());
        QVERIFY(loaded);
        auto bundled = workspace::loadWorkspace(test::examplePath(example.toStdString()));
        QVERIFY(bundled);
        QCOMPARE(loaded->modules.size(), bundled->modules.size());
        for (size_t i = 0; i < loaded->modules.size(); ++i) {
            QCOMPARE(loaded->modules[i].name, bundled->modules[i].name);
            QCOMPARE(loaded->modules[i].bytes, bundled->modules[i].bytes);
            QCOMPARE(loaded->modules[i].lazy, bundled->modules[i].lazy);
        }
        QVERIFY(loaded->options == bundled->options);
        QCOMPARE(loaded->libdevice, bundled->libdevice);
        QCOMPARE(loaded->ltoMode, bundled->ltoMode);

        // And it opens again from the file.
        QVERIFY(w->openWorkspace(path));
        QCOMPARE(w->document()->path(), QFileInfo(path).absoluteFilePath());
        waitForReply(*w);
    }

    void editsMarkTheTitleModified() {
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        waitForReply(*w);
        QVERIFY(!w->isWindowModified());
        w->editors()->editor(0)->append("\n; a note\n");
        QVERIFY(w->isWindowModified());  // shown as "*" after the name by Qt's [*] placeholder
    }

    void titleNamesTheAppOnce() {
        QGuiApplication::setApplicationDisplayName("NVVM Playground");
        auto w = makeWindow();
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QVERIFY(w->openExample("saxpy"));
        waitForReply(*w);
        // As the window system gets it: it ends with the display name, so the platform adds none.
        QCOMPARE(w->windowHandle()->title(), QString("saxpy — NVVM Playground"));
        auto* editor = w->editors()->editor(0);
        editor->setFocus();
        QTest::keyClicks(editor, "x");
        QCOMPARE(w->windowHandle()->title(), QString("saxpy* — NVVM Playground"));
    }

    void undoBackToSavedClearsTheMark() {
        auto w = makeWindow();
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QVERIFY(w->openExample("saxpy"));
        waitForReply(*w);
        auto* editor = w->editors()->editor(0);
        editor->setFocus();
        editor->setCursorPosition(0, 0);
        QTest::keyClicks(editor, "x");
        QVERIFY(w->isWindowModified());
        w->writeJournal();
        QVERIFY(QFile::exists(w->journalFile()));
        QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(!w->isWindowModified());
        QVERIFY(!w->document()->isModified());
        QVERIFY(!QFile::exists(w->journalFile()));                // nothing unsaved to keep
        QTest::keyClick(editor, Qt::Key_Y, Qt::ControlModifier);  // redo
        QVERIFY(w->isWindowModified());

        // After a save, the save is the point to come back to.
        QTemporaryDir dir;
        QVERIFY(w->saveAs(dir.filePath("s.nvpg")));
        QVERIFY(!w->isWindowModified());
        QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);  // before the save: modified
        QVERIFY(w->isWindowModified());
        QTest::keyClick(editor, Qt::Key_Y, Qt::ControlModifier);
        QVERIFY(!w->isWindowModified());
        // An option changed and a text undone: still modified, by the option.
        auto options = w->document()->workspace().options;
        options.opt = 1;
        w->document()->setOptions(options);
        QTest::keyClicks(editor, "q");
        QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(w->isWindowModified());
    }

    void newWorkspaceClearsTheCompileStatus() {
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        waitForReply(*w);
        auto* status = w->findChild<QLabel*>("compileStatus");
        QVERIFY(status);
        QVERIFY2(status->text().startsWith("Compiled in"), qPrintable(status->text()));
        auto* action = menuAction(*w, "File", "New Workspace");
        QVERIFY(action);
        action->trigger();
        QCOMPARE(w->document()->moduleCount(), 0);
        QCOMPARE(status->text(), QString());
    }

    void zoomKeysZoomEveryPaneTogether() {
        auto w = makeWindow();
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QVERIFY(w->openExample("two-modules"));
        waitForReply(*w);
        auto* editor = w->editors()->editor(0);
        const QList<QsciScintilla*> panes{editor, w->editors()->editor(1), w->output()->ptxEditor(),
                                          w->output()->ltoEditor(), w->output()->diffEditor()};
        const auto text = editor->text();
        const long start = zoomOf(editor);
        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_Plus, Qt::ControlModifier);  // Ctrl++
        for (auto* p : panes) QCOMPARE(zoomOf(p), start + 1);
        QTest::keyClick(editor, Qt::Key_Equal, Qt::ControlModifier);  // the same key without Shift
        for (auto* p : panes) QCOMPARE(zoomOf(p), start + 2);
        // What a US keyboard sends for Ctrl++ (the platform maps it to Ctrl++ where it can): never typed.
        QTest::keyClick(editor, Qt::Key_Plus, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(editor->text(), text);
        const long zoomed = zoomOf(editor);
        for (auto* p : panes) QCOMPARE(zoomOf(p), zoomed);
        w->output()->ptxEditor()->setFocus();
        QTest::keyClick(w->output()->ptxEditor(), Qt::Key_Minus, Qt::ControlModifier);
        for (auto* p : panes) QCOMPARE(zoomOf(p), zoomed - 1);
        QTest::keyClick(editor, Qt::Key_0, Qt::ControlModifier);
        for (auto* p : panes) QCOMPARE(zoomOf(p), start);
        QCOMPARE(editor->text(), text);
    }

    void fontSizeSettingIsRememberedAndApplied() {
        {
            SettingsDialog dialog;
            auto* size = dialog.findChild<QSpinBox*>("editorFontSize");
            QVERIFY(size);
            size->setValue(24);
            dialog.accept();
        }
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        waitForReply(*w);
        const QList<QsciScintilla*> panes{w->editors()->editor(0), w->output()->ptxEditor(), w->output()->ltoEditor()};
        const int base = QFontDatabase::systemFont(QFontDatabase::FixedFont).pointSize();
        for (auto* p : panes) QCOMPARE(zoomOf(p), long(24 - base));
        QSettings().remove("view/editorFontSize");
    }

    void findWorksInThePaneThatHasFocus() {
        auto w = makeWindow();
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QVERIFY(w->openExample("saxpy"));
        waitForReply(*w);
        auto* ptx = w->output()->ptxEditor();
        ptx->setFocus();
        QTest::keyClick(ptx, Qt::Key_F, Qt::ControlModifier);
        auto* bar = w->findChild<FindBar*>();
        QVERIFY(bar && bar->isVisible());
        QCOMPARE(bar->editor(), ptx);
        auto* field = bar->findChild<QLineEdit*>();
        QVERIFY(field->hasFocus());
        // Wide enough to read what is typed.
        QVERIFY2(field->width() >= field->fontMetrics().averageCharWidth() * 24,
                 qPrintable(QString::number(field->width())));
        QTest::keyClicks(field, ".visible .entry");
        QCOMPARE(ptx->selectedText(), QString(".visible .entry"));
        QVERIFY(!w->editors()->editor(0)->hasSelectedText());
        QTest::keyClick(field, Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
        QVERIFY(ptx->hasFocus());

        // Back in the IR editor, Ctrl+F searches the IR.
        auto* editor = w->editors()->editor(0);
        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(bar->editor(), editor);
        QTest::keyClicks(field, "fmul");
        QCOMPARE(editor->selectedText(), QString("fmul"));
        QTest::keyClick(field, Qt::Key_Escape);
    }

    void editMenuGoToLineAndToggleComment() {
        auto w = makeWindow();
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QVERIFY(w->openExample("saxpy"));
        waitForReply(*w);
        for (const auto* name : {"Undo", "Redo", "Cut", "Copy", "Paste", "Go to Line…", "Toggle Comment"})
            QVERIFY2(menuAction(*w, "Edit", name), name);
        QCOMPARE(menuAction(*w, "Edit", "Go to Line…")->shortcut(), QKeySequence("Ctrl+L"));
        QCOMPARE(menuAction(*w, "Edit", "Toggle Comment")->shortcut(), QKeySequence("Ctrl+/"));
        auto* editor = w->editors()->editor(0);
        editor->setFocus();
        const auto text = editor->text();

        // Ctrl+L asks for a line and goes there.
        QTimer::singleShot(0, [] {
            auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
            if (!dialog) return;
            dialog->setIntValue(6);
            dialog->accept();
        });
        QTest::keyClick(editor, Qt::Key_L, Qt::ControlModifier);
        int line = -1, index = -1;
        editor->getCursorPosition(&line, &index);
        QCOMPARE(line, 5);
        QCOMPARE(editor->text(), text);  // not Scintilla's "cut line"

        // Ctrl+/ comments the line with "; ", and uncomments it again.
        // The offscreen platform leaves no window active after a dialog; a window manager would.
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QVERIFY(editor->hasFocus());
        const auto before = editor->text(5);
        QVERIFY2(before.startsWith("target datalayout"), qPrintable(before));
        QTest::keyClick(editor, Qt::Key_Slash, Qt::ControlModifier);
        QCOMPARE(editor->text(5), "; " + before);
        QTest::keyClick(editor, Qt::Key_Slash, Qt::ControlModifier);
        QCOMPARE(editor->text(5), before);
        // Several lines: all of them, at their common indentation.
        editor->setModule("  a\n    b\n  c\n", false);
        editor->setSelection(0, 1, 1, 2);
        QTest::keyClick(editor, Qt::Key_Slash, Qt::ControlModifier);
        QCOMPARE(editor->text(), QString("  ; a\n  ;   b\n  c\n"));
        QTest::keyClick(editor, Qt::Key_Slash, Qt::ControlModifier);
        QCOMPARE(editor->text(), QString("  a\n    b\n  c\n"));
        // Edit > Undo undoes in the editor that has focus.
        QTest::keyClick(editor, Qt::Key_Slash, Qt::ControlModifier);
        menuAction(*w, "Edit", "Undo")->trigger();
        QCOMPARE(editor->text(), QString("  a\n    b\n  c\n"));
    }

    void theWindowHasTheAppsIcon() {
        // From a build, the icon theme has no entry for the app: the built-in copy of the
        // packaged icon is used, in every size the package installs as PNG.
        auto w = makeWindow();
        const auto icon = w->windowIcon();
        QVERIFY(!icon.isNull());
        for (const int size : {16, 32, 48, 64, 128, 256})
            QVERIFY2(icon.availableSizes().contains(QSize(size, size)), qPrintable(QString::number(size)));
    }

    void everyMenuHasDistinctMnemonics() {
        // Alt+F, then E must choose one thing: within a menu, no two entries share their & letter.
        auto w = makeWindow();
        std::function<void(QMenu*, const QString&)> check = [&](QMenu* menu, const QString& where) {
            QMap<QChar, QString> taken;
            for (auto* a : menu->actions()) {
                if (a->isSeparator() || !a->isVisible()) continue;
                const auto text = a->text();
                const auto at = text.indexOf(QRegularExpression("&[^&]"));
                if (at >= 0) {
                    const QChar key = text.at(at + 1).toLower();
                    QVERIFY2(
                        !taken.contains(key),
                        qPrintable(QString("%1: '%2' and '%3' both use &%4").arg(where, taken.value(key), text, key)));
                    taken.insert(key, text);
                }
                if (a->menu()) check(a->menu(), where + " > " + QString(text).remove('&'));
            }
        };
        for (auto* top : w->menuBar()->actions())
            if (top->menu()) check(top->menu(), top->text().remove('&'));
    }

    void helpLinksToTheGuideAndNvidiasDocuments() {
        auto w = makeWindow();
        const auto url = [&](const QString& text) {
            auto* a = menuAction(*w, "Help", text);
            return a ? a->data().toUrl() : QUrl();
        };
        QCOMPARE(url("PTX ISA"), QUrl("https://docs.nvidia.com/cuda/parallel-thread-execution/"));
        QCOMPARE(url("NVVM IR Specification"), QUrl("https://docs.nvidia.com/cuda/nvvm-ir-spec/"));
        QCOMPARE(url("libdevice User's Guide"), QUrl("https://docs.nvidia.com/cuda/libdevice-users-guide/"));
        // The documentation's pages, from the docs next to the app (here: the source tree's).
        const auto tour = url("Guide: A Short Tour");
        QVERIFY2(tour.isLocalFile() && QFileInfo(tour.toLocalFile()).fileName() == "tour.md",
                 qPrintable(tour.toString()));
        QVERIFY(QFile::exists(tour.toLocalFile()));
        QCOMPARE(tour.fragment(), QString("a-short-tour-of-the-app"));
        QCOMPARE(url("Guide: nvpg").fragment(), QString("nvpg"));
        QCOMPARE(url("Guide: Workspaces").fragment(), QString("workspaces-nvpg"));
    }

    void splitViewShowsTwoModulesSideBySide() {
        auto w = makeWindow();
        QVERIFY(w->openExample("two-modules"));
        waitForReply(*w);
        QVERIFY(!w->editors()->isSplit());
        w->editors()->editor(0)->setFocus();
        QTest::keyClick(w->editors()->editor(0), Qt::Key_Backslash, Qt::ControlModifier);
        QVERIFY(w->editors()->isSplit());
        QVERIFY(w->editors()->editor(0)->isVisible());
        QVERIFY(w->editors()->editor(1)->isVisible());  // both at once
        QTest::keyClick(w->editors()->editor(0), Qt::Key_Backslash, Qt::ControlModifier);
        QVERIFY(!w->editors()->isSplit());
    }

    void bitcodeThatKillsLibnvvmLeavesTheAppUp() {
        QString why;
        const auto killer = test::bitcodeThatKillsLibnvvm(&why);
        if (!killer) QSKIP(qPrintable(why));
        auto w = makeWindow();
        const auto sinf = QString::fromStdString((test::dataDir() / "ir/sinf.ll").string());
        QVERIFY(w->openPaths({sinf, QString::fromStdString(killer->string())}));
        QCOMPARE(w->document()->moduleCount(), 2);
        auto* editor = w->editors()->editor(0);
        editor->setText(editor->text() + "; typed before the crash\n");
        w->controller()->compileNow();
        auto reply = waitForReply(*w);
        // The engine died; the window did not, and says what happened in the Problems list.
        QVERIFY(reply.result && !reply.result->ok);
        QCOMPARE(w->problems()->count(), 1);
        const auto message = QString::fromStdString(w->problems()->diagnostic(0).message);
        QVERIFY2(message.startsWith("libNVVM crashed (SIG"), qPrintable(message));
        QVERIFY2(message.contains("the bitcode of killer.bc is the likely cause"), qPrintable(message));
        QCOMPARE(w->problems()->diagnostic(0).module, std::string("killer.bc"));  // the row leads there
        QVERIFY(w->isVisible());
        QVERIFY(editor->text().endsWith("; typed before the crash\n"));
        QVERIFY(errors_.isEmpty());

        // Without the bad module, the next compile (in a new engine) succeeds.
        w->editors()->removeModule(1);
        w->controller()->compileNow();
        reply = waitForReply(*w);
        QVERIFY(reply.result && reply.result->ok);
        QVERIFY(w->output()->ptxText().contains(".entry sin_kernel"));
        QCOMPARE(w->problems()->errorCount(), 0);  // sinf.ll has no @llvm.used: only the LTO warning
    }

    // libNVVM's verifier runs in the app's compiles: its error is a Problems row and a mark on
    // its line with the default options; unchecking "verify" in the Options dock compiles the
    // same IR; Build ▸ Verify runs the verifier alone and leaves the outputs as they are.
    void verifierErrorIsMarkedAndVerifyCanBeTurnedOff() {
        auto w = makeWindow();
        const auto dir = QString::fromStdString((test::dataDir() / "ir").string());
        QVERIFY(w->openPaths({dir + "/verify-alloca.ll"}));
        const auto refused = waitForReply(*w);
        QVERIFY(refused.result && !refused.result->ok);
        auto* editor = w->editors()->editor(0);
        QCOMPARE(w->problems()->count(), 1);
        auto* row = w->problems()->view()->topLevelItem(0);
        QCOMPARE(row->text(ProblemsPanel::ModuleColumn), QString("verify-alloca.ll"));
        QCOMPARE(row->text(ProblemsPanel::LineColumn), QString("8"));
        QVERIFY2(row->text(ProblemsPanel::MessageColumn)
                     .startsWith("Allocation instruction pointer not in the stack address space"),
                 qPrintable(row->text(ProblemsPanel::MessageColumn)));
        QCOMPARE(editor->markedLines(), std::vector<int>{8});
        QVERIFY(!w->output()->ptxText().contains("bad_alloca"));

        auto* verify = w->optionsPanel()->verifyCheck();
        QVERIFY(verify->isChecked());
        for (QWidget* up = verify; up; up = up->parentWidget())
            if (auto* dock = qobject_cast<QDockWidget*>(up)) {
                dock->show();
                dock->raise();
            }
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QTRY_VERIFY(verify->isVisible());
        QSignalSpy shown(w->controller(), &CompileController::replyShown);
        QTest::mouseClick(verify, Qt::LeftButton, {}, QPoint(8, verify->height() / 2));
        QVERIFY(!verify->isChecked());
        QVERIFY(!w->document()->workspace().verify);
        QVERIFY(shown.wait(120000));
        const auto anyway = shown.last().at(0).value<EngineReply>();
        QVERIFY2(anyway.result && anyway.result->ok, qPrintable(anyway.error));
        QCOMPARE(w->problems()->count(), 0);
        QVERIFY(editor->markedLines().empty());
        QVERIFY(w->output()->ptxText().contains("bad_alloca"));

        // Build ▸ Verify, through the menu: the verifier alone, whatever the option says.
        QMenu* buildMenu = nullptr;
        for (auto* a : w->menuBar()->actions())
            if (a->text() == "&Build") buildMenu = a->menu();
        QVERIFY(buildMenu);
        auto* verifyAction = buildMenu->findChild<QAction*>("verifyAction");
        QVERIFY(verifyAction && buildMenu->actions().contains(verifyAction));
        const auto ptx = w->output()->ptxText();
        QSignalSpy verified(w->controller(), &CompileController::verified);
        auto chooseVerify = [&] {
            buildMenu->popup(w->mapToGlobal(QPoint(0, 0)));
            QTRY_VERIFY(buildMenu->isVisible());
            QTest::keyClick(buildMenu, Qt::Key_V);
            QVERIFY(verified.wait(120000));
        };
        chooseVerify();
        auto* status = w->findChild<QLabel*>("compileStatus");
        QVERIFY(status);
        QCOMPARE(w->problems()->count(), 1);
        QCOMPARE(editor->markedLines(), std::vector<int>{8});
        QVERIFY2(status->text().startsWith("Verify: 1 error"), qPrintable(status->text()));
        QCOMPARE(w->output()->ptxText(), ptx);  // not replaced

        editor->setText(
            QString::fromStdString(editor->moduleText()).replace("alloca float, addrspace(3)", "alloca float"));
        chooseVerify();
        QCOMPARE(w->problems()->count(), 0);
        QVERIFY(editor->markedLines().empty());
        QCOMPARE(status->text(), QString("Verified: no problems"));
        QCOMPARE(w->output()->ptxText(), ptx);
        QVERIFY(errors_.isEmpty());
    }

    void commandLineFilesBecomeModules() {
        auto w = makeWindow();
        const auto dir = QString::fromStdString((test::dataDir() / "ir").string());
        QVERIFY(w->openPaths({dir + "/caller.ll", dir + "/callee.ll"}));
        QCOMPARE(w->document()->moduleCount(), 2);
        QCOMPARE(w->document()->module(0).name, std::string("caller.ll"));
        const auto reply = waitForReply(*w);
        QVERIFY(reply.result && reply.result->ok);
        QVERIFY(w->output()->ptxText().contains(".entry caller"));
        QVERIFY(!w->openPaths({dir + "/nothing.txt"}));
        QVERIFY(!errors_.isEmpty());
    }

    void uiStaysResponsiveDuringALongCompile() {
        auto w = makeWindow();
        w->controller()->setAutoCompile(false);
        w->openPaths({});
        w->editors()->addModule("big.ll", test::manyKernelsModule(300, /*libdevice=*/true).bytes, false);
        auto options = w->document()->workspace().options;
        options.arch = "compute_90";
        w->document()->setOptions(options);
        w->document()->setLibdevice(true);

        QSignalSpy spy(w->controller(), &CompileController::replyShown);
        QElapsedTimer clock;
        clock.start();
        w->controller()->compileNow();
        // From here on: submitting the job is not what the probe measures.
        test::EventLoopProbe probe([&] { return w->controller()->busy(); });
        QVERIFY(spy.wait(300000));
        probe.stop();
        const auto compileMs = clock.elapsed();
        const auto reply = spy.last().at(0).value<EngineReply>();
        QVERIFY2(reply.result, qPrintable(reply.error));
        QVERIFY2(reply.result->ok,
                 reply.result->diagnostics.empty() ? "" : reply.result->diagnostics[0].message.c_str());
        const auto worst = probe.worstGapMs();
        qInfo(
            "compile of 300 kernels with libdevice: %lld ms; %d probe ticks; longest event-loop gap %lld ms "
            "(%lld ms on the wall, waits for a CPU included)",
            compileMs, probe.ticks(), worst, probe.worstWallGapMs());
        QVERIFY2(compileMs > 500, "the compile was too short to probe anything");
        QVERIFY2(worst <= 50, qPrintable(QString("the UI thread stalled for %1 ms").arg(worst)));
        QVERIFY(w->output()->ptxText().contains(".entry k299"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
