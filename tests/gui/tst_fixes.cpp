// One-click fixes: a diagnostic for which core has a fix offers it in the Problems panel and as
// a lightbulb in the editor's margin; applying it edits the module as one undo action and sets
// options through the document, the compile that follows proves it, and Ctrl+Z takes it back.
#include <QtTest>

#include <QCheckBox>
#include <QMenu>
#include <QMenuBar>
#include <QToolButton>
#include <QTreeWidget>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/panels/OptionsPanel.h"
#include "gui/panels/ProblemsPanel.h"
#include "gui/window/FixController.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using gui::ProblemsPanel;

namespace {

QString irFixture(const char* name) {
    return QString::fromStdString((test::dataDir() / "ir" / name).string());
}

std::unique_ptr<gui::MainWindow> windowOn(const QString& path, QStringList* errors) {
    auto w = test::makeWindow(errors);
    if (!QTest::qWaitForWindowExposed(w.get())) return nullptr;
    QSignalSpy shown(w->controller(), &gui::CompileController::replyShown);
    if (!w->openPaths({path}) || (shown.isEmpty() && !shown.wait(120000))) return nullptr;
    return w;
}

// The Problems row whose fix's title contains `what`, and that fix's action; -1 and null when
// none offers it.
std::pair<int, QAction*> offered(ProblemsPanel* problems, const QString& what) {
    for (int row = 0; row < problems->count(); ++row)
        for (QAction* a : problems->fixActions(row))
            if (a->text().contains(what, Qt::CaseInsensitive)) return {row, a};
    return {-1, nullptr};
}

QString rows(ProblemsPanel* problems) {
    QStringList out;
    for (int row = 0; row < problems->count(); ++row) {
        const auto& d = problems->diagnostic(row);
        QStringList fixes;
        for (const auto& f : d.fixes) fixes << QString::fromStdString(f.title);
        out << QStringLiteral("%1:%2 %3 [%4]")
                   .arg(QString::fromStdString(d.module))
                   .arg(d.line)
                   .arg(QString::fromStdString(d.message), fixes.join("; "));
    }
    return out.join('\n');
}

bool compiledOk(const gui::MainWindow& w) {
    return w.lastReply().result && w.lastReply().result->ok;
}

QAction* editUndo(gui::MainWindow& w) {
    for (QAction* top : w.menuBar()->actions())
        if (top->menu() && top->text() == "&Edit")
            for (QAction* a : top->menu()->actions())
                if (a->text() == "&Undo") return a;
    return nullptr;
}

}  // namespace

class TestFixes : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_fixes");
    }

    // A module without !nvvmir.version fails; Problems offers core's fix (a button "Fix: …" in
    // the row, and the same in its context menu), the editor marks the line with a lightbulb
    // that offers it too; applying it puts the version into the editor, the compile that
    // follows succeeds, and one Ctrl+Z in the editor takes the whole fix back (and compiles).
    void versionFixIsOneUndoableEdit() {
        QStringList errors;
        auto w = windowOn(irFixture("pitfalls/no-version.ll"), &errors);
        QVERIFY(w);
        QVERIFY2(!compiledOk(*w), "libNVVM took a module without !nvvmir.version");
        auto [row, fix] = offered(w->problems(), "nvvmir.version");
        QVERIFY2(fix, qPrintable(rows(w->problems())));
        QVERIFY(fix->text().startsWith("Fix: "));
        const nvvm::Diagnostic d = w->problems()->diagnostic(row);
        QCOMPARE(QString::fromStdString(d.module), QString("no-version.ll"));
        // The row says so: its button, and its message's tooltip.
        auto* item = w->problems()->view()->topLevelItem(row);
        auto* button = qobject_cast<QToolButton*>(w->problems()->view()->itemWidget(item, ProblemsPanel::FixColumn));
        QVERIFY(button);
        QCOMPARE(button->defaultAction(), fix);
        QVERIFY(item->toolTip(ProblemsPanel::MessageColumn).contains("A fix is offered"));

        auto* editor = w->editors()->editor(0);
        QVERIFY(editor);
        if (d.line > 0) {
            const std::vector<int> bulbs = editor->fixLines();
            QVERIFY(std::count(bulbs.begin(), bulbs.end(), d.line));
            QCOMPARE(editor->fixesAt(d.line).size(), d.fixes.size());
            QMenu* menu = editor->offerFixes(d.line);
            QVERIFY(menu);
            QCOMPARE(menu->actions().size(), qsizetype(d.fixes.size()));
            QVERIFY(menu->actions().front()->text().startsWith("Fix: "));
            menu->close();
        }

        const std::string original = editor->moduleText();
        QVERIFY(original.find("!nvvmir.version =") == std::string::npos);
        QSignalSpy shown(w->controller(), &gui::CompileController::replyShown);
        const QString title = fix->text().mid(QString("Fix: ").size());  // the action goes with the next compile
        fix->trigger();
        QVERIFY(editor->moduleText().find("!nvvmir.version =") != std::string::npos);
        QVERIFY(shown.wait(60000));
        QVERIFY2(compiledOk(*w), qPrintable(rows(w->problems())));
        QVERIFY(!offered(w->problems(), "nvvmir.version").second);
        // The compile history says what caused it.
        const auto cause = [&] { return QString::fromStdString(w->controller()->history().entries().front().cause); };
        QVERIFY2(cause() == "fix: " + title, qPrintable(cause()));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));

        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor->moduleText(), original);
        QVERIFY(shown.wait(60000));
        QVERIFY(!compiledOk(*w));
        QVERIFY(offered(w->problems(), "nvvmir.version").second);
        QCOMPARE(w->fixes()->historySize(), 0);
        QVERIFY2(cause().startsWith("fix undone: "), qPrintable(cause()));
    }

    // A kernel calling __nv_sinf with libdevice off fails to link; the fix turns libdevice on
    // (the Options dock shows it), the compile succeeds, and Edit ▸ Undo turns it off again.
    void libdeviceFixIsUndoable() {
        QStringList errors;
        auto w = windowOn(irFixture("sinf-kept.ll"), &errors);
        QVERIFY(w);
        // Opened as it is, its call links libdevice; the user turns it off.
        QVERIFY(w->document()->workspace().libdevice);
        {
            QSignalSpy off(w->controller(), &gui::CompileController::replyShown);
            w->optionsPanel()->libdeviceCheck()->setChecked(false);
            QVERIFY(off.wait(120000));
        }
        QVERIFY(!w->document()->workspace().libdevice);
        QVERIFY(!compiledOk(*w));
        auto [row, fix] = offered(w->problems(), "libdevice");
        QVERIFY2(fix, qPrintable(rows(w->problems())));
        const std::string text = w->editors()->editor(0)->moduleText();

        QSignalSpy shown(w->controller(), &gui::CompileController::replyShown);
        fix->trigger();
        QVERIFY(w->document()->workspace().libdevice);
        QVERIFY(w->optionsPanel()->libdeviceCheck()->isChecked());
        QVERIFY(shown.wait(60000));
        QVERIFY2(compiledOk(*w), qPrintable(rows(w->problems())));
        QVERIFY(w->fixes()->canUndo());
        // A fix that sets an option compiles at once: the history names the fix, not the option.
        const auto cause = QString::fromStdString(w->controller()->history().entries().front().cause);
        QVERIFY2(cause.startsWith("fix: "), qPrintable(cause));

        QAction* undo = editUndo(*w);
        QVERIFY(undo);
        w->problems()->view()->setFocus();
        undo->trigger();
        QVERIFY(!w->document()->workspace().libdevice);
        QVERIFY(!w->optionsPanel()->libdeviceCheck()->isChecked());
        QCOMPARE(w->editors()->editor(0)->moduleText(), text);
        QVERIFY(shown.wait(60000));
        QVERIFY(!compiledOk(*w));
        QVERIFY(!w->fixes()->canUndo());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // A fix that edits the text and sets an option at once (as core may make one) is applied
    // from the lightbulb's menu, and one Ctrl+Z in the editor undoes both; after an edit of the
    // user's, Ctrl+Z is that edit's undo, and the next one the fix's.
    void textAndOptionFixUndoneTogether() {
        QStringList errors;
        auto w = windowOn(irFixture("sinf.ll"), &errors);
        QVERIFY(w);
        auto* editor = w->editors()->editor(0);
        const std::string original = editor->moduleText();
        QVERIFY(!w->document()->workspace().options.ftz);

        nvvm::Fix fix;
        fix.title = "Flush denormals, and say so";
        fix.edits = {{"sinf.ll", 1, 1, "; denormals are flushed to zero\n"}};
        fix.options = {{"ftz", "1"}};
        const nvvm::Diagnostic d{"sinf.ll", 7, 1, nvvm::Severity::Warning, "a warning with a fix", "test", {fix}};
        w->problems()->setDiagnostics({d});
        w->editors()->setDiagnostics({d});
        QCOMPARE(editor->fixLines(), std::vector<int>{7});
        QVERIFY2(editor->markedLines() == std::vector<int>{7}, "the lightbulb line is not a marked line");

        QSignalSpy shown(w->controller(), &gui::CompileController::replyShown);
        QMenu* menu = editor->offerFixes(7);
        QVERIFY(menu);
        QCOMPARE(menu->actions().front()->text(), QString("Fix: Flush denormals, and say so"));
        menu->actions().front()->trigger();
        menu->close();
        QCOMPARE(editor->moduleText(), "; denormals are flushed to zero\n" + original);
        QCOMPARE(w->document()->workspace().options.ftz, std::optional<bool>(true));
        QVERIFY(shown.wait(60000));
        // The compile that follows has both.
        QVERIFY(w->lastReply().result);
        const auto& flags = w->lastReply().result->flags;
        QVERIFY2(std::count(flags.begin(), flags.end(), "-ftz=1"), qPrintable(rows(w->problems())));

        // The user's own edit after the fix is undone first.
        editor->setFocus();
        editor->setCursorPosition(3, 0);
        QTest::keyClicks(editor, "; mine");
        QVERIFY(!w->fixes()->canUndo());
        for (int i = 0; i < 8 && !w->fixes()->canUndo(); ++i) QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor->moduleText(), "; denormals are flushed to zero\n" + original);
        QCOMPARE(w->document()->workspace().options.ftz, std::optional<bool>(true));
        QVERIFY(w->fixes()->canUndo());
        QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor->moduleText(), original);
        QVERIFY(!w->document()->workspace().options.ftz);
        QVERIFY(shown.wait(60000));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // clang-14's IR below compute_100: the row at `noundef` says it is newer than LLVM 7.0.1 and
    // offers the rewrite and the arch that reads it; the rewrite leaves the missing
    // !nvvmir.version, whose fix makes the module compile.
    void newerLlvmIrIsRewrittenByItsFix() {
        QStringList errors;
        auto w = windowOn(irFixture("newer/kernels-clang14.ll"), &errors);
        QVERIFY(w);
        {
            QSignalSpy again(w->controller(), &gui::CompileController::replyShown);
            auto options = w->document()->workspace().options;
            options.arch = "compute_75";
            w->document()->setOptions(options);
            QVERIFY(again.wait(120000));
        }
        QVERIFY(!compiledOk(*w));
        auto [row, rewrite] = offered(w->problems(), "for LLVM 7.0.1");
        QVERIFY2(rewrite, qPrintable(rows(w->problems())));
        const nvvm::Diagnostic d = w->problems()->diagnostic(row);
        QCOMPARE(d.line, 9);
        QCOMPARE(d.column, 36);
        auto* item = w->problems()->view()->topLevelItem(row);
        QCOMPARE(item->text(ProblemsPanel::LineColumn), QString("9"));
        QVERIFY2(item->text(ProblemsPanel::MessageColumn)
                     .contains("`noundef` is an attribute newer than LLVM 7.0.1 (added in LLVM 11)"),
                 qPrintable(item->text(ProblemsPanel::MessageColumn)));
        QCOMPARE(w->problems()->fixActions(row).size(), qsizetype(2));
        QVERIFY(w->problems()->fixActions(row).back()->text().contains("compute_100"));
        auto* editor = w->editors()->editor(0);
        const std::vector<int> bulbs = editor->fixLines();
        QVERIFY(std::count(bulbs.begin(), bulbs.end(), 9));

        QSignalSpy shown(w->controller(), &gui::CompileController::replyShown);
        rewrite->trigger();
        QVERIFY(editor->moduleText().find("noundef") == std::string::npos);
        QVERIFY(shown.wait(60000));
        QVERIFY(!compiledOk(*w));
        QVERIFY(!offered(w->problems(), "for LLVM 7.0.1").second);
        auto version = offered(w->problems(), "nvvmir.version").second;
        QVERIFY2(version, qPrintable(rows(w->problems())));
        version->trigger();
        QVERIFY(shown.wait(60000));
        QVERIFY2(compiledOk(*w), qPrintable(rows(w->problems())));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // A text fix is of the text that was compiled: once the module is edited since, applying it
    // is refused (naming the module), and nothing changes.
    void staleTextFixIsRefused() {
        QStringList errors;
        auto w = windowOn(irFixture("sinf.ll"), &errors);
        QVERIFY(w);
        w->controller()->setAutoCompile(false);
        auto* editor = w->editors()->editor(0);
        nvvm::Fix fix;
        fix.title = "Add a comment";
        fix.edits = {{"sinf.ll", 1, 1, "; a comment\n"}};
        const nvvm::Diagnostic d{"sinf.ll", 7, 1, nvvm::Severity::Warning, "a warning with a fix", "test", {fix}};
        w->problems()->setDiagnostics({d});
        editor->insertAt("; typed since\n", 0, 0);
        const std::string typed = editor->moduleText();
        QString why;
        QVERIFY(!w->fixes()->apply(fix, &why));
        QVERIFY2(why.contains("sinf.ll") && why.contains("changed since"), qPrintable(why));
        QCOMPARE(editor->moduleText(), typed);
        QCOMPARE(errors.size(), 1);  // said to the user
        QCOMPARE(w->fixes()->historySize(), 0);
    }
};

QTEST_MAIN(TestFixes)
#include "tst_fixes.moc"
