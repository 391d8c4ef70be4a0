// The Problems panel: rows in the given order, counts, tooltips, activation and setError.
#include <QtTest>
#include <QAbstractItemModelTester>

#include <QClipboard>
#include <QLabel>
#include <QTreeWidget>

#include "panels/ProblemsPanel.h"

using namespace nvpg;
using nvpg::gui::ProblemsPanel;

namespace {

std::vector<nvvm::Diagnostic> sample() {
    return {
        {"a.ll", 8, 8, nvvm::Severity::Error, "parse expected instruction opcode", "libNVVM"},
        {"b.ll", 3, 0, nvvm::Severity::Warning,
         "kernel 'dropped' was dropped by LTO\nadd it to @llvm.used", "nvpg"},
        {"a.ll", 12, 1, nvvm::Severity::Error, "undefined value", "libNVVM"},
        {"", 0, 0, nvvm::Severity::Note, "linked with nvJitLink 13.0", "nvJitLink"},
    };
}

}  // namespace

class TestProblems : public QObject {
    Q_OBJECT

private slots:
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
        QCOMPARE(first->text(ProblemsPanel::MessageColumn),
                 QString("parse expected instruction opcode"));
        QCOMPARE(first->text(ProblemsPanel::SourceColumn), QString("libNVVM"));
        // Given order, not sorted by severity or line.
        QCOMPARE(t->topLevelItem(1)->text(ProblemsPanel::ModuleColumn), QString("b.ll"));
        QCOMPARE(t->topLevelItem(2)->text(ProblemsPanel::LineColumn), QString("12"));

        auto* multi = t->topLevelItem(1);
        QCOMPARE(multi->text(ProblemsPanel::SeverityColumn), QString("warning"));
        QVERIFY(multi->text(ProblemsPanel::MessageColumn)
                    .startsWith("kernel 'dropped' was dropped by LTO"));
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

        p.setDiagnostics({});
        QCOMPARE(p.count(), 0);
        QCOMPARE(p.summary(), QString("No problems"));
    }

    void copyGivesCompilerStyleLines() {
        ProblemsPanel p;
        QAbstractItemModelTester tester(p.view()->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        p.setDiagnostics(sample());
        p.view()->clearSelection();
        p.view()->topLevelItem(0)->setSelected(true);
        p.copy();
        QCOMPARE(QGuiApplication::clipboard()->text(),
                 QString::fromStdString(nvvm::formatDiagnostic(sample()[0])));
    }
};

QTEST_MAIN(TestProblems)
#include "tst_problems.moc"
