// The Problems panel: rows in the given order, counts, tooltips, activation and setError.
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QtTest>

#include <QClipboard>
#include <QDockWidget>
#include <QLabel>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeWidget>

#include "TestSupport.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/OutputView.h"
#include "gui/panels/OptionsPanel.h"
#include "gui/panels/ProblemsPanel.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using nvpg::gui::ProblemsPanel;

namespace {

std::vector<nvvm::Diagnostic> sample() {
    return {
        {"a.ll", 8, 8, nvvm::Severity::Error, "parse expected instruction opcode", "libNVVM"},
        {"b.ll", 3, 0, nvvm::Severity::Warning, "kernel 'dropped' was dropped by LTO\nadd it to @llvm.used", "nvpg"},
        {"a.ll", 12, 1, nvvm::Severity::Error, "undefined value", "libNVVM"},
        {"", 0, 0, nvvm::Severity::Note, "linked with nvJitLink 13.0", "nvJitLink"},
    };
}

QString fixture(const char* name) {
    return QString::fromStdString((nvpg::test::dataDir() / "ir" / name).string());
}

// A dock behind another's tab is "visible" to Qt; what a person sees is its region.
bool shows(QWidget* dock) {
    return dock->isVisible() && !dock->visibleRegion().isEmpty();
}

// A window on the fixture, once its first compile is shown.
std::unique_ptr<gui::MainWindow> windowOn(const char* name) {
    auto w = std::make_unique<gui::MainWindow>();
    w->setSaveQuestion([] { return QMessageBox::Discard; });
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get())) return nullptr;
    QSignalSpy shown(w->controller(), &gui::CompileController::replyShown);
    if (!w->openPaths({fixture(name)}) || !shown.wait(60000)) return nullptr;
    return w;
}

}  // namespace

class TestProblems : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_problems");
    }

    // A kernel (kept by LTO) calling __nv_sinf without libdevice compiles to PTX, and then the cubin link
    // fails in ptxas. That failure looks like one: the banner names it with the hint to link
    // libdevice, the LTO pane's header says the link failed, the Problems row (with the same
    // hint) is placed on the call, whose module's tab is marked, and Problems comes forward.
    void linkErrorLooksLikeAFailure() {
        auto w = windowOn("sinf-kept.ll");
        QVERIFY(w);
        // Opened as it is, its call links libdevice; the user turns it off.
        QVERIFY(w->document()->workspace().libdevice);
        QSignalSpy again(w->controller(), &gui::CompileController::replyShown);
        w->optionsPanel()->libdeviceCheck()->setChecked(false);
        QVERIFY(again.wait(60000));
        QVERIFY(!w->document()->workspace().libdevice);
        const auto& reply = w->lastReply();
        QVERIFY(reply.result && !reply.result->ok);
        QVERIFY(!reply.result->ptx.empty());

        auto* rows = w->problems()->view();
        QVERIFY(rows->topLevelItemCount() >= 1);
        // The link's error: the PTX's figures add a warning of the same cause.
        QTreeWidgetItem* row = nullptr;
        for (int i = 0; i < rows->topLevelItemCount() && !row; ++i)
            if (rows->topLevelItem(i)->text(ProblemsPanel::SeverityColumn) == "error") row = rows->topLevelItem(i);
        QVERIFY(row);
        const QString message = row->text(ProblemsPanel::MessageColumn);
        QVERIFY2(message.contains("'__nv_sinf'") && message.contains("link libdevice"), qPrintable(message));
        QCOMPARE(row->text(ProblemsPanel::ModuleColumn), QString("sinf-kept.ll"));
        QCOMPARE(row->text(ProblemsPanel::LineColumn), QString("12"));  // the call

        const QString banner = w->output()->errorText();
        QVERIFY2(banner.contains("'__nv_sinf'") && banner.contains("link libdevice"), qPrintable(banner));
        QVERIFY2(!banner.contains("last successful compile"), qPrintable(banner));  // this compile's PTX is shown
        QVERIFY2(w->output()->ltoHeader().contains("✗") && w->output()->ltoHeader().contains("failed"),
                 qPrintable(w->output()->ltoHeader()));
        QVERIFY2(!w->output()->ptxHeader().contains("failed"), qPrintable(w->output()->ptxHeader()));
        QVERIFY(w->output()->ptxText().contains(".entry sin_kernel"));

        auto* editor = w->editors()->editor(0);
        QVERIFY(editor);
        QCOMPARE(editor->markedLines(), std::vector<int>{12});
        QTabWidget* tabs = nullptr;
        for (auto* t : w->editors()->findChildren<QTabWidget*>())
            if (!tabs && t->count() >= 1) tabs = t;
        QVERIFY(tabs);
        QVERIFY2(!tabs->tabIcon(0).isNull(), "the module's tab has no mark");
        QVERIFY(shows(w->findChild<QDockWidget*>("problemsDock")));

        // Linking libdevice fixes it, and every mark goes.
        QSignalSpy shown(w->controller(), &gui::CompileController::replyShown);
        w->document()->setLibdevice(true);
        QVERIFY(shown.wait(60000));
        QVERIFY(w->lastReply().result && w->lastReply().result->ok);
        QVERIFY(w->output()->errorText().isEmpty());
        QVERIFY(!w->output()->ltoHeader().contains("failed"));
        QVERIFY(tabs->tabIcon(0).isNull());
    }

    // Lesson 2's step 3 with @tile's zeroinitializer kept: the Problems row, the banner and the
    // editor's note on @tile's line say why ("Shared variables can't be initialized", which
    // libNVVM writes two lines below its first).
    void sharedInitializerIsShownOnTheGlobal() {
        auto w = windowOn("shared-init.ll");
        QVERIFY(w);
        QVERIFY(w->lastReply().result && !w->lastReply().result->ok);
        auto* rows = w->problems()->view();
        QCOMPARE(rows->topLevelItemCount(), 1);
        auto* row = rows->topLevelItem(0);
        QCOMPARE(row->text(ProblemsPanel::ModuleColumn), QString("shared-init.ll"));
        QCOMPARE(row->text(ProblemsPanel::LineColumn), QString("19"));
        QCOMPARE(row->text(ProblemsPanel::ColumnColumn), QString("1"));
        QVERIFY2(row->text(ProblemsPanel::MessageColumn)
                     .startsWith("Global Variable `tile': Shared variables can't be initialized"),
                 qPrintable(row->text(ProblemsPanel::MessageColumn)));
        QVERIFY(row->toolTip(ProblemsPanel::MessageColumn).contains("context: @tile = internal addrspace(3)"));
        const QString banner = w->output()->errorText();
        QVERIFY2(banner.contains("shared-init.ll:19:1: error: Global Variable `tile': Shared variables can't be "
                                 "initialized"),
                 qPrintable(banner));
        auto* editor = w->editors()->editor(0);
        QVERIFY(editor);
        QCOMPARE(editor->markedLines(), std::vector<int>{19});
        QTRY_VERIFY2(editor->annotationText(18).contains("Shared variables can't be initialized"),
                     qPrintable(editor->annotationText(18)));
    }

    // Problems comes to the front for errors, not for warnings alone.
    void problemsComeForwardWhenACompileFails() {
        auto w = windowOn("lto-kept-dropped.ll");
        QVERIFY(w);
        auto* problems = w->findChild<QDockWidget*>("problemsDock");
        auto* runs = w->findChild<QDockWidget*>("runsDock");
        runs->raise();
        QTRY_VERIFY(shows(runs) && !shows(problems));
        QSignalSpy shown(w->controller(), &gui::CompileController::replyShown);
        w->controller()->compileNow();
        QVERIFY(shown.wait(60000));
        QVERIFY(w->problems()->warningCount() > 0 && w->problems()->errorCount() == 0);
        QVERIFY2(shows(runs) && !shows(problems), "warnings alone raised Problems");

        auto* editor = w->editors()->editor(0);
        const auto text = QString::fromStdString(editor->moduleText());
        editor->setText(QString(text).replace("fadd float", "fad float"));
        w->controller()->compileNow();
        QVERIFY(shown.wait(60000));
        QVERIFY(w->problems()->errorCount() > 0);
        QTRY_VERIFY2(shows(problems) && !shows(runs), "a failed compile left Problems behind the Runs dock");
    }

    void emptyStateSaysNoProblems() {
        ProblemsPanel p;
        QAbstractItemModelTester tester(p.view()->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QCOMPARE(p.count(), 0);
        QCOMPARE(p.summary(), QString("No problems"));
        QCOMPARE(p.view()->topLevelItemCount(), 0);
    }

    void rowsFollowTheDiagnosticsInOrder() {
        ProblemsPanel p;
        QAbstractItemModelTester tester(p.view()->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        p.setDiagnostics(sample());
        QCOMPARE(p.count(), 4);
        auto* t = p.view();
        QCOMPARE(t->topLevelItemCount(), 4);
        auto* first = t->topLevelItem(0);
        QCOMPARE(first->text(ProblemsPanel::SeverityColumn), QString("error"));
        QVERIFY(!first->icon(ProblemsPanel::SeverityColumn).isNull());
        QCOMPARE(first->text(ProblemsPanel::ModuleColumn), QString("a.ll"));
        QCOMPARE(first->text(ProblemsPanel::LineColumn), QString("8"));
        QCOMPARE(first->text(ProblemsPanel::ColumnColumn), QString("8"));
        QCOMPARE(first->text(ProblemsPanel::MessageColumn), QString("parse expected instruction opcode"));
        QCOMPARE(first->text(ProblemsPanel::SourceColumn), QString("libNVVM"));
        // Given order, not sorted by severity or line.
        QCOMPARE(t->topLevelItem(1)->text(ProblemsPanel::ModuleColumn), QString("b.ll"));
        QCOMPARE(t->topLevelItem(2)->text(ProblemsPanel::LineColumn), QString("12"));

        auto* multi = t->topLevelItem(1);
        QCOMPARE(multi->text(ProblemsPanel::SeverityColumn), QString("warning"));
        QVERIFY(multi->text(ProblemsPanel::MessageColumn).startsWith("kernel 'dropped' was dropped by LTO"));
        QVERIFY(!multi->text(ProblemsPanel::MessageColumn).contains('\n'));
        QCOMPARE(multi->toolTip(ProblemsPanel::MessageColumn),
                 QString("kernel 'dropped' was dropped by LTO\nadd it to @llvm.used"));
        QCOMPARE(multi->text(ProblemsPanel::ColumnColumn), QString());  // 0: no place

        auto* note = t->topLevelItem(3);
        QCOMPARE(note->text(ProblemsPanel::SeverityColumn), QString("note"));
        QCOMPARE(note->text(ProblemsPanel::ModuleColumn), QString());
        QCOMPARE(note->text(ProblemsPanel::LineColumn), QString());
        QCOMPARE(note->text(ProblemsPanel::SourceColumn), QString("nvJitLink"));

        QCOMPARE(p.summary(), QString("2 errors, 1 warning, 1 note"));
        QCOMPARE(p.errorCount(), 2);
        QCOMPARE(p.warningCount(), 1);
    }

    // A reply with many fixes (numba's modules: a dropped-kernel hint per kernel)
    // gets its rows at once and their fix buttons over the next turns of the event loop; every row
    // with a fix ends with its button, and a newer reply's rows never get an older reply's buttons.
    void everyFixRowGetsItsButtonAfterItsRows() {
        auto many = [](const std::string& prefix, int n) {
            std::vector<nvvm::Diagnostic> out;
            for (int k = 0; k < n; ++k) {
                nvvm::Diagnostic d;
                d.module = "m.ll";
                d.line = k + 1;
                d.severity = nvvm::Severity::Warning;
                d.message = prefix + std::to_string(k);
                d.source = "nvpg";
                if (k % 5 != 4) {
                    nvvm::Fix fix;
                    fix.title = prefix + " fix " + std::to_string(k);
                    d.fixes.push_back(fix);
                }
                out.push_back(std::move(d));
            }
            return out;
        };
        ProblemsPanel p;
        p.resize(900, 300);
        p.show();
        auto buttonText = [&](int row) {
            auto* b =
                qobject_cast<QToolButton*>(p.view()->itemWidget(p.view()->topLevelItem(row), ProblemsPanel::FixColumn));
            return b ? b->defaultAction()->text() : QString();
        };
        p.setDiagnostics(many("old", 100));
        // At once: the first rows' buttons (those on screen); the last rows' come later.
        QCOMPARE(buttonText(0), QString("Fix: old fix 0"));
        QVERIFY2(buttonText(98).isEmpty(), "all 80 buttons were made in the reply's one turn");
        QTRY_COMPARE(p.view()->topLevelItemCount(), 100);
        p.setDiagnostics(many("new", 90));
        QTRY_COMPARE(buttonText(88), QString("Fix: new fix 88"));
        QTest::qWait(50);  // the old reply's later turns, had they been kept
        for (int row = 0; row < 90; ++row)
            QCOMPARE(buttonText(row), row % 5 == 4 ? QString() : QStringLiteral("Fix: new fix %1").arg(row));
    }

    void doubleClickAndEnterActivateTheRow() {
        ProblemsPanel p;
        QAbstractItemModelTester tester(p.view()->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        p.resize(800, 300);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        p.setDiagnostics(sample());
        QSignalSpy spy(&p, &ProblemsPanel::activated);
        auto* t = p.view();

        const QRect rect = t->visualItemRect(t->topLevelItem(2));
        QVERIFY(rect.isValid());
        // A real double-click is press, release, double-click, release; QTest::mouseDClick
        // sends only the latter two, and item views act on a double-click only on the item the
        // press was on.
        QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, rect.center());
        QTest::mouseDClick(t->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), QString("a.ll"));
        QCOMPARE(spy.at(0).at(1).toInt(), 12);
        QCOMPARE(spy.at(0).at(2).toInt(), 1);

        t->setFocus();
        t->setCurrentItem(t->topLevelItem(1));
        QTest::keyClick(t, Qt::Key_Return);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(0).toString(), QString("b.ll"));
        QCOMPARE(spy.at(1).at(1).toInt(), 3);
        QCOMPARE(spy.at(1).at(2).toInt(), 0);

        // A problem with no module has nowhere to go.
        t->setCurrentItem(t->topLevelItem(3));
        QTest::keyClick(t, Qt::Key_Return);
        QCOMPARE(spy.count(), 2);
    }

    void setErrorShowsOneRowWithoutModule() {
        ProblemsPanel p;
        QAbstractItemModelTester tester(p.view()->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        p.setDiagnostics(sample());
        p.setError("nvJitLink was not found.\nPlaces tried:\n/usr/local/cuda/lib64");
        QCOMPARE(p.count(), 1);
        auto* row = p.view()->topLevelItem(0);
        QCOMPARE(row->text(ProblemsPanel::SeverityColumn), QString("error"));
        QCOMPARE(row->text(ProblemsPanel::ModuleColumn), QString());
        QCOMPARE(row->text(ProblemsPanel::LineColumn), QString());
        QVERIFY(row->text(ProblemsPanel::MessageColumn).startsWith("nvJitLink was not found."));
        QVERIFY(row->toolTip(ProblemsPanel::MessageColumn).contains("/usr/local/cuda/lib64"));
        QCOMPARE(p.summary(), QString("1 error, 0 warnings"));

        p.setDiagnostics(std::vector<nvvm::Diagnostic>{});
        QCOMPARE(p.count(), 0);
        QCOMPARE(p.summary(), QString("No problems"));
    }

    // A reply of hundreds of problems (a hint per kernel of a large module) gets
    // its first rows at once and the others in later turns of the event loop, so that showing it
    // does not hold the window. The summary and counts are whole at once; Copy with nothing
    // selected copies every problem, rows still to come included; a newer reply's rows replace
    // an older one's that were still coming.
    void manyRowsComeInTurns() {
        auto many = [](const std::string& prefix, int n) {
            std::vector<nvvm::Diagnostic> out;
            for (int k = 0; k < n; ++k)
                out.push_back({"m.ll", k + 1, 0, nvvm::Severity::Warning, prefix + std::to_string(k), "nvpg"});
            return out;
        };
        ProblemsPanel p;
        QSignalSpy done(&p, &ProblemsPanel::rowsShown);
        p.setDiagnostics(many("old ", 300));
        QCOMPARE(p.count(), 300);
        QCOMPARE(p.summary(), QString("0 errors, 300 warnings"));
        QCOMPARE(p.view()->topLevelItemCount(), int(ProblemsPanel::kRowsPerTurn));
        QVERIFY(!p.allRowsShown());
        p.copy();
        QCOMPARE(QGuiApplication::clipboard()->text().count(QLatin1Char('\n')), 299);
        QVERIFY(QGuiApplication::clipboard()->text().endsWith("old 299"));
        QCoreApplication::processEvents();  // one more turn: some more rows, not all
        p.setDiagnostics(many("new ", 200));
        QCOMPARE(p.view()->topLevelItemCount(), int(ProblemsPanel::kRowsPerTurn));
        QTRY_VERIFY(p.allRowsShown());
        QVERIFY(!done.isEmpty());
        QTest::qWait(50);  // the old reply's later turns, had they been kept
        QCOMPARE(p.view()->topLevelItemCount(), 200);
        for (int row = 0; row < 200; ++row)
            QCOMPARE(p.view()->topLevelItem(row)->text(ProblemsPanel::MessageColumn),
                     QStringLiteral("new %1").arg(row));
        QCOMPARE(p.view()->topLevelItem(199)->text(ProblemsPanel::LineColumn), QString("200"));
    }

    // A dropped-kernel hint quotes a whole @llvm.used line (5.7 KB for 85
    // kernels). Its row shows the start of it, cut with an ellipsis, so that painting the rows
    // does not lay out thousands of characters each; the tooltip and Copy keep every character.
    void aVeryLongLineIsCutInItsRowOnly() {
        std::string longLine = "kernel 'k' is dropped: add it to @llvm.used = appending global [";
        while (longLine.size() < 6000) longLine += "ptr @kernel_with_a_long_name, ";
        longLine += "ptr @last]";
        ProblemsPanel p;
        p.setDiagnostics({{"m.ll", 3, 0, nvvm::Severity::Warning, longLine, "nvpg"}});
        auto* row = p.view()->topLevelItem(0);
        const QString shown = row->text(ProblemsPanel::MessageColumn);
        QVERIFY2(shown.size() < 600, qPrintable(QString::number(shown.size())));
        QVERIFY(shown.endsWith(QStringLiteral(" …")));
        QVERIFY(QString::fromStdString(longLine).startsWith(shown.chopped(2)));
        QCOMPARE(row->toolTip(ProblemsPanel::MessageColumn), QString::fromStdString(longLine));
        row->setSelected(true);
        p.copy();
        QVERIFY(QGuiApplication::clipboard()->text().contains(QString::fromStdString(longLine)));
    }

    void copyGivesCompilerStyleLines() {
        ProblemsPanel p;
        QAbstractItemModelTester tester(p.view()->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        p.setDiagnostics(sample());
        p.view()->clearSelection();
        p.view()->topLevelItem(0)->setSelected(true);
        p.copy();
        QCOMPARE(QGuiApplication::clipboard()->text(), QString::fromStdString(nvvm::formatDiagnostic(sample()[0])));
    }
};

QTEST_MAIN(TestProblems)
#include "tst_problems.moc"
