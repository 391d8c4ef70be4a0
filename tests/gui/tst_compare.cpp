// The Compare dock with the real engine: a pinned result against the current compile (and the pin
// saved with the workspace and back on reopening), two variants side by side with their diff and
// figures, a variant on another CUDA toolkit (the CUDA 12.9 pip wheels), and a variant whose
// toolkit has gone, or whose arch its toolkit lacks, saying so instead of compiling something else.
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QToolButton>

#include <Qsci/qsciscintilla.h>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "core/support/Files.h"
#include "gui/compile/CompileController.h"
#include "gui/dialogs/HistoryDialog.h"
#include "gui/dialogs/SettingsDialog.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/OutputView.h"
#include "gui/panels/ComparePanel.h"
#include "gui/panels/OptionsPanel.h"
#include "gui/panels/VariantDialog.h"

#include <QTreeWidget>
#include "core/workspace/Workspace.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {

// Compiles what the window holds and waits until its reply is shown.
bool compileAndWait(MainWindow& w) {
    QSignalSpy shown(w.controller(), &CompileController::replyShown);
    w.controller()->compileNow();
    return shown.wait(120000);
}

// Waits until both sides have results and nothing is compiling.
bool bothSidesShown(ComparePanel& c, int ms = 120000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        if (c.comparison() && !c.compiling()) return true;
        QTest::qWait(20);
    }
    return false;
}

int linesWith(const QString& diff, QChar sign, const QString& text) {
    int n = 0;
    for (const auto& line : diff.split(QLatin1Char('\n')))
        if (line.startsWith(sign) && line.contains(text)) ++n;
    return n;
}

// The libdevice example with `variants`, saved to a file in `dir` and opened in a new window;
// the window once it shows the last variant on side B (a workspace with variants opens so).
std::unique_ptr<MainWindow> openWithVariants(workspace::Workspace ws, std::vector<workspace::Variant> variants,
                                             const QTemporaryDir& dir) {
    const auto last = QString::fromStdString(variants.back().name);
    ws.variants = std::move(variants);
    const QString path = dir.path() + "/variants.nvpg";
    if (!workspace::saveWorkspace(ws, path.toStdString())) qFatal("cannot save %s", qPrintable(path));
    auto w = test::makeWindow(nullptr, QSize(1600, 1000));
    if (!w->openWorkspace(path)) qFatal("cannot open %s", qPrintable(path));
    QElapsedTimer t;
    t.start();
    while (w->compare()->side(1) != ComparePanel::variantSide(last) && t.elapsed() < 10000) QTest::qWait(10);
    return w;
}

workspace::Workspace libdeviceMath() {
    auto ws = workspace::loadWorkspace(test::examplePath("libdevice-math"));
    if (!ws) qFatal("%s", ws.error().message.c_str());
    ws->options.arch = "compute_90";
    return std::move(*ws);
}

// The libdevice example saved in `dir`, opened in a new window and compiled once.
std::unique_ptr<MainWindow> openCompiled(const QTemporaryDir& dir) {
    const QString path = dir.path() + "/w.nvpg";
    if (!workspace::saveWorkspace(libdeviceMath(), path.toStdString())) qFatal("cannot save %s", qPrintable(path));
    auto w = test::makeWindow(nullptr, QSize(1600, 1000));
    if (!w->openWorkspace(path) || !compileAndWait(*w)) qFatal("cannot open and compile %s", qPrintable(path));
    return w;
}

// One word edited as a person would, in the kernel's editor: fadd made fsub.
void editFaddToFsub(MainWindow& w) {
    auto* editor = w.editors()->editor(0);
    QString text = editor->text();
    const QString before = "%r = fadd float %s, %ep";
    if (text.count(before) != 1) qFatal("the libdevice example has no single '%s'", qPrintable(before));
    editor->setText(text.replace(before, "%r = fsub float %s, %ep"));
}

}  // namespace

class TestCompare : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_compare");
    }

    // Pin, change a flag, compare; save, reopen: the pin is there, and shown again.
    void aPinComparesWithLaterCompilesAndSurvivesReopening() {
        QTemporaryDir dir;
        auto w = openCompiled(dir);
        const QString path = dir.path() + "/w.nvpg";  // where openCompiled saved it
        QVERIFY(w->pinResult("ftz off"));
        QVERIFY(w->compareDock()->isVisible());
        auto* c = w->compare();
        QCOMPARE(c->side(0), ComparePanel::pinSide("ftz off"));
        QCOMPARE(c->side(1), QString(ComparePanel::kCurrent));
        QVERIFY(bothSidesShown(*c));
        QVERIFY2(c->comparison()->identical, qPrintable(c->verdict()));
        QVERIFY2(c->verdict().startsWith("PTX identical"), qPrintable(c->verdict()));

        auto options = w->document()->workspace().options;
        options.ftz = true;
        w->document()->setOptions(options);
        QVERIFY(compileAndWait(*w));
        QTRY_VERIFY_WITH_TIMEOUT(c->comparison() && !c->comparison()->identical, 60000);
        const QString diff = c->diffPane()->text();
        QVERIFY2(linesWith(diff, '+', ".ftz.") > linesWith(diff, '-', ".ftz."), qPrintable(diff.left(2000)));
        QVERIFY2(c->verdict().contains("lines differ"), qPrintable(c->verdict()));
        // The figures of the kernel on both sides.
        auto* table = c->figuresTable();
        QVERIFY(table->rowCount() >= 2);
        QCOMPARE(table->item(0, 0)->text(), QString("wave"));
        QVERIFY(!table->item(0, 1)->text().isEmpty());

        QVERIFY(w->saveAs(path));
        auto reopened = test::makeWindow(nullptr, QSize(1600, 1000));
        QVERIFY(reopened->openWorkspace(path));
        QCOMPARE(reopened->document()->workspace().pins.size(), size_t(1));
        QTRY_VERIFY_WITH_TIMEOUT(reopened->compareDock()->isVisible(), 10000);
        QCOMPARE(reopened->compare()->side(0), ComparePanel::pinSide("ftz off"));
        QVERIFY(compileAndWait(*reopened));
        QVERIFY(bothSidesShown(*reopened->compare()));
        // The pin compiled ftz off, the workspace was saved with it on.
        QVERIFY(!reopened->compare()->comparison()->identical);
        QCOMPARE(reopened->compare()->sideText(0), c->sideText(0));
    }

    // One word edited (fadd -> fsub in the kernel) against a pin made before it. By
    // default the diff ignores register and label renumbering: a few changed lines, the real
    // change among them; one click on "Ignore renumbering" shows the byte-for-byte diff, and the
    // choice is remembered for the next window.
    void anEditShowsAsItsChangeWithoutRenumbering() {
        QSettings().remove(QStringLiteral("compare/normalized"));
        QTemporaryDir dir;
        auto w = openCompiled(dir);
        QVERIFY(w->pinResult("fadd"));
        auto* c = w->compare();
        QVERIFY(c->normalizedBox()->isChecked());
        editFaddToFsub(*w);
        QVERIFY(compileAndWait(*w));
        QTRY_VERIFY_WITH_TIMEOUT(c->comparison() && !c->comparison()->identical, 60000);
        const auto& n = *c->comparison();
        QCOMPARE(n.style, pipeline::DiffStyle::Normalized);
        QVERIFY2(n.normalized.lines() >= 1 && n.normalized.lines() <= 3, n.normalized.text.c_str());
        QVERIFY2(c->verdict().contains("renumbering aside"), qPrintable(c->verdict()));
        const QString shown = c->diffPane()->text();
        QCOMPARE(shown, QString::fromStdString(n.normalized.text));
        QVERIFY2(linesWith(shown, '+', "sub.f32") >= 1, qPrintable(shown));
        const int normalizedRows = linesWith(shown, '-', "") + linesWith(shown, '+', "");

        c->normalizedBox()->click();
        QCOMPARE(c->comparison()->style, pipeline::DiffStyle::Raw);
        const QString raw = c->diffPane()->text();
        QCOMPARE(raw, QString::fromStdString(c->comparison()->diff.text));
        QVERIFY2(linesWith(raw, '-', "") + linesWith(raw, '+', "") > normalizedRows + 10, qPrintable(raw.left(3000)));
        QVERIFY2(!c->verdict().contains("renumbering aside"), qPrintable(c->verdict()));
        QVERIFY(!QSettings().value(QStringLiteral("compare/normalized"), true).toBool());
        auto next = test::makeWindow(nullptr, QSize(1600, 1000));
        QVERIFY(!next->compare()->normalizedBox()->isChecked());
        QSettings().remove(QStringLiteral("compare/normalized"));
    }

    // "what did my last edit change?" with no pin made before: a new window's Compare
    // dock shows the previous compile beside the current one, the cause named, the diff the edit's.
    void thePreviousCompileNeedsNoPin() {
        QTemporaryDir dir;
        auto w = openCompiled(dir);
        auto* c = w->compare();
        QCOMPARE(c->side(0), QString(ComparePanel::kPrevious));
        QCOMPARE(c->side(1), QString(ComparePanel::kCurrent));
        QVERIFY2(c->sideNotice(0).contains("No previous compile yet"), qPrintable(c->sideNotice(0)));
        QCOMPARE(w->controller()->history().entries().size(), size_t(1));

        editFaddToFsub(*w);
        QVERIFY(compileAndWait(*w));
        const auto& history = w->controller()->history();
        QCOMPARE(history.entries().size(), size_t(2));
        QCOMPARE(history.entries().front().cause, std::string("math.ll: line 48 edited"));
        QVERIFY(bothSidesShown(*c));
        QCOMPARE(c->sideResult(0), history.entries()[1].result);
        QVERIFY2(c->sideLabel(0).startsWith("previous compile"), qPrintable(c->sideLabel(0)));
        QVERIFY2(c->sideLabel(1).contains("math.ll: line 48 edited"), qPrintable(c->sideLabel(1)));
        QVERIFY2(c->comparison()->normalized.lines() >= 1 && c->comparison()->normalized.lines() <= 3,
                 qPrintable(c->verdict()));
        // Every earlier compile is a side too; an option change is its own cause.
        QVERIFY(c->sideChoices().contains(ComparePanel::historySide(history.entries()[1].id)));
        auto options = w->document()->workspace().options;
        options.ftz = true;
        w->document()->setOptions(options);
        QVERIFY(compileAndWait(*w));
        QTRY_COMPARE_WITH_TIMEOUT(history.entries().size(), size_t(3), 60000);
        const auto cause = QString::fromStdString(history.entries().front().cause);
        QVERIFY2(cause.startsWith("ftz ") && cause.endsWith("→ 1"), qPrintable(cause));
        QVERIFY(bothSidesShown(*c));
        QCOMPARE(c->sideResult(0), history.entries()[1].result);

        // The timeline, from the status bar: one click opens it, one compares the first compile.
        QCOMPARE(w->historyButton()->text(), QString("History (3)"));
        w->historyButton()->click();
        auto* timeline = w->historyDialog();
        QVERIFY(timeline && timeline->isVisible());
        auto* table = timeline->table();
        QCOMPARE(table->rowCount(), 3);
        const auto column = [&](const char* name) {
            for (int k = 0; k < table->columnCount(); ++k)
                if (table->horizontalHeaderItem(k)->text() == name) return k;
            return -1;
        };
        QVERIFY(table->item(0, column("cause"))->text().endsWith("(current)"));
        QCOMPARE(table->item(1, column("cause"))->text(), QString("math.ll: line 48 edited"));
        QCOMPARE(table->item(2, column("cause"))->text(), QString("first compile of w"));
        QVERIFY(table->item(2, column("registers"))->text().toInt() > 0);
        QVERIFY(table->item(2, column("PTX"))->text().endsWith("KiB"));
        table->selectRow(2);
        timeline->findChild<QPushButton*>("historyCompare")->click();
        QCOMPARE(c->side(0), ComparePanel::historySide(history.entries()[2].id));
        QCOMPARE(c->side(1), QString(ComparePanel::kCurrent));
        QVERIFY(bothSidesShown(*c));
        QCOMPARE(c->sideResult(0), history.entries()[2].result);
        timeline->close();
    }

    // A session with two workspaces: a compile is compared with its own workspace's only, so
    // opening another is its first compile (not its modules added and the first's removed), and
    // back in the first, the previous compile is the first's again.
    void historyComparesWithinOneWorkspace() {
        QTemporaryDir dir;
        auto w = openCompiled(dir);  // w.nvpg: math.ll
        auto* c = w->compare();
        const auto& history = w->controller()->history();
        QCOMPARE(history.entries().front().cause, std::string("first compile of w"));
        const auto first = history.entries().front().result;

        auto two = workspace::loadWorkspace(test::examplePath("two-modules"));
        QVERIFY(two && two->modules.size() == 2);
        two->modules[0].name = "module0.ll";
        two->modules[1].name = "longname.ll";
        two->options.arch = "compute_90";
        const QString other = dir.path() + "/other.nvpg";
        QVERIFY(workspace::saveWorkspace(*two, other.toStdString()));
        QVERIFY(w->openWorkspace(other));
        QVERIFY(compileAndWait(*w));
        QCOMPARE(history.entries().front().cause, std::string("first compile of other"));
        QTRY_VERIFY(c->sideNotice(0).contains("No previous compile yet"));

        QVERIFY(w->openWorkspace(dir.path() + "/w.nvpg"));
        QVERIFY(compileAndWait(*w));
        QCOMPARE(history.entries().front().cause, std::string("compiled again"));
        QCOMPARE(history.previous()->result, first);
        QVERIFY(bothSidesShown(*c));
        QCOMPARE(c->sideResult(0), first);
        editFaddToFsub(*w);
        QVERIFY(compileAndWait(*w));
        QCOMPARE(history.entries().front().cause, std::string("math.ll: line 48 edited"));
        QCOMPARE(history.entries().size(), size_t(4));
        // No entry names a module of the other workspace as added or removed.
        w->historyButton()->click();
        auto* table = w->historyDialog()->table();
        QCOMPARE(table->rowCount(), 4);
        for (int row = 0; row < table->rowCount(); ++row) {
            const QString cause = table->item(row, 2)->text();
            QVERIFY2(!cause.contains("added") && !cause.contains("removed"), qPrintable(cause));
        }
        w->historyDialog()->close();
    }

    // "what does -ftz do?" in one click: the Options dock's Δ beside ftz shows the
    // current compile beside a transient compile with ftz flipped, the normalized diff, and the
    // docs' paragraph on ftz; for the arch the Δ is a menu of archs. Nothing is saved.
    void showEffectComparesTheOptionFlipped() {
        QTemporaryDir dir;
        auto w = openCompiled(dir);
        auto* c = w->compare();
        auto* ftz = w->optionsPanel()->effectButton("ftz");
        QVERIFY(ftz);
        ftz->click();
        QVERIFY(w->compareDock()->isVisible());
        QCOMPARE(c->side(0), QString(ComparePanel::kCurrent));
        QCOMPARE(c->side(1), QString(ComparePanel::kEffect));
        QVERIFY(bothSidesShown(*c));
        QVERIFY2(c->sideLabel(1).startsWith("effect: ftz 0 → 1"), qPrintable(c->sideLabel(1)));
        QVERIFY(c->sidePane(1)->text().count(".ftz.") > c->sidePane(0)->text().count(".ftz.") + 3);
        QCOMPARE(c->comparison()->style, pipeline::DiffStyle::Normalized);
        QVERIFY2(c->effectText().contains(".ftz"), qPrintable(c->effectText()));
        // The figure changes beside the verdict.
        QVERIFY2(c->verdict().endsWith("\n" + QString::fromStdString(pipeline::figureChanges(*c->comparison()))),
                 qPrintable(c->verdict()));
        // The docs' paragraph is folded under one line, one click away.
        auto* paragraph = c->findChild<QLabel*>("compareEffect");
        QVERIFY(c->effectToggle()->isVisible());
        QCOMPARE(c->effectToggle()->text(), QString("What ftz 0 → 1 does"));
        QVERIFY(!paragraph->isVisible());
        c->effectToggle()->click();
        QVERIFY(paragraph->isVisible());
        QVERIFY(paragraph->text().contains(".ftz"));
        // Transient: the workspace has no variant, and the document is unchanged.
        QVERIFY(w->document()->workspace().variants.empty());
        QVERIFY(!w->document()->workspace().options.ftz.value_or(false));

        auto* arch = w->optionsPanel()->effectButton("arch");
        QVERIFY(arch && arch->menu());
        QAction* to80 = nullptr;
        for (auto* a : arch->menu()->actions())
            if (a->text() == "compute_80") to80 = a;
        QVERIFY(to80);
        to80->trigger();
        QVERIFY(bothSidesShown(*c));
        QVERIFY2(c->sideLabel(1).startsWith("effect: arch compute_90 → compute_80"), qPrintable(c->sideLabel(1)));
        QVERIFY(c->sidePane(1)->text().contains(".target sm_80"));
        QVERIFY(c->sidePane(0)->text().contains(".target sm_90"));
        QVERIFY2(c->effectText().contains("compute_80: "), qPrintable(c->effectText()));
        // Back to a pin or the previous compile: the paragraph goes.
        c->setSides(ComparePanel::kPrevious, ComparePanel::kCurrent);
        QVERIFY(c->effectText().isEmpty());
        QVERIFY(!paragraph->isVisible());
        QVERIFY(!c->effectToggle()->isVisible());
        c->effectToggle()->click();  // folded again for the next window
        QVERIFY(!QSettings().value("compare/effectShown").toBool());
    }

    // The PTX header's two diffs, named for what they compare: PTX vs Linked shows the PTX beside
    // its LTO-linked PTX; Since Last Compile shows, after an edit and a compile, the PTX's change
    // since the compile before (the Compare dock's diff of the history's previous compile).
    void thePtxHeaderDiffsWithLinkedAndWithTheLastCompile() {
        QTemporaryDir dir;
        auto w = openCompiled(dir);
        auto* out = w->output();
        auto* linked = out->findChild<QToolButton*>("diffButton");
        auto* sinceLast = out->findChild<QToolButton*>("sinceLastButton");
        QVERIFY(linked && sinceLast);
        QCOMPARE(linked->text(), QString("PTX vs Linked"));
        QCOMPARE(sinceLast->text(), QString("Since Last Compile"));
        linked->click();
        QVERIFY(out->diffMode());
        QVERIFY2(out->diffHeader().startsWith("PTX → linked PTX"), qPrintable(out->diffHeader()));
        linked->click();
        QVERIFY(!out->diffMode());

        // Nothing to compare with before a second compile.
        QVERIFY(!sinceLast->isEnabled());
        w->compareDock()->close();
        editFaddToFsub(*w);
        QVERIFY(compileAndWait(*w));
        QTRY_VERIFY(sinceLast->isEnabled());
        auto* c = w->compare();
        c->setOutput(pipeline::CompareOutput::Sass);  // elsewhere before: the click shows the PTX's diff
        c->showView(ComparePanel::View::Figures);
        sinceLast->click();
        QVERIFY(w->compareDock()->isVisible());
        QCOMPARE(c->side(0), QString(ComparePanel::kPrevious));
        QCOMPARE(c->side(1), QString(ComparePanel::kCurrent));
        QCOMPARE(c->view(), ComparePanel::View::Diff);
        QVERIFY(bothSidesShown(*c));
        QCOMPARE(c->comparison()->output, pipeline::CompareOutput::Ptx);
        const QString diff = c->diffPane()->text();
        QVERIFY2(linesWith(diff, '+', "sub.f32") >= 1, qPrintable(diff));
        QCOMPARE(c->sideResult(0), w->controller()->history().entries()[1].result);
    }

    // "Other modules" as a variant: another version of the module, chosen as files in the variant
    // dialog (read as nvpg compare --against reads them), compiled with the same options beside
    // the current compile; its side shows that version's PTX and the diff its change. A file that
    // is no module is refused, naming it.
    void aVariantOfOtherModulesShowsTheirDifference() {
        QTemporaryDir dir;
        auto w = openCompiled(dir);
        auto* c = w->compare();
        // Version 2 of math.ll, as a generator would write it beside version 1.
        QVERIFY(QDir(dir.path()).mkdir("v2"));
        QString text = w->editors()->editor(0)->text();
        QVERIFY(text.count("%r = fadd float %s, %ep") == 1);
        text.replace("%r = fadd float %s, %ep", "%r = fsub float %s, %ep");
        const QString v2 = dir.path() + "/v2/math.ll";
        QVERIFY(support::writeFileAtomic(v2.toStdString(), text.toStdString()));
        const QString notes = dir.path() + "/notes.txt";
        QVERIFY(support::writeFileAtomic(notes.toStdString(), "x"));

        QString refused;
        bool seen = false;
        QTimer::singleShot(0, [&] {
            auto* dialog = qobject_cast<VariantDialog*>(QApplication::activeModalWidget());
            if (!dialog) return;
            seen = true;
            auto* modules = dialog->findChild<QComboBox*>(QStringLiteral("variantModules"));
            QVERIFY(modules);
            QCOMPARE(modules->currentIndex(), 0);  // the workspace's, by default
            QVERIFY(modules->itemText(modules->count() - 1).contains("choose files"));
            const auto bad = dialog->chooseModules({notes});
            refused = bad ? QString() : QString::fromStdString(bad.error().message);
            QVERIFY(dialog->modules().empty());
            const auto st = dialog->chooseModules({v2});
            QVERIFY2(st, st ? "" : st.error().message.c_str());
            QCOMPARE(modules->currentText(), QString("Other modules: math.ll"));
            dialog->findChild<QLineEdit*>(QStringLiteral("variantName"))->setText("v2");
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        });
        c->addVariant();
        QVERIFY(seen);
        QVERIFY2(refused.contains("notes.txt") && refused.contains("expected a .ll (text) or .bc (bitcode) module"),
                 qPrintable(refused));
        const auto* variant = w->document()->variant("v2");
        QVERIFY(variant);
        QCOMPARE(variant->modules.size(), size_t(1));
        QCOMPARE(variant->modules[0].name, std::string("math.ll"));
        QVERIFY(variant->options == w->document()->workspace().options);
        QCOMPARE(c->side(0), QString(ComparePanel::kCurrent));  // against the current compile
        QCOMPARE(c->side(1), ComparePanel::variantSide("v2"));
        QVERIFY(bothSidesShown(*c));
        QVERIFY2(c->sideLabel(1).contains("other modules: math.ll"), qPrintable(c->sideLabel(1)));
        QVERIFY(c->sidePane(1)->text().count("sub.f32") > c->sidePane(0)->text().count("sub.f32"));
        const QString diff = c->diffPane()->text();
        QVERIFY2(linesWith(diff, '+', "sub.f32") >= 1, qPrintable(diff));
        QVERIFY2(c->comparison()->normalized.lines() <= 3, qPrintable(diff));
        // An edit of the workspace's module does not reach the variant's own.
        w->document()->setModuleText(0, w->document()->module(0).bytes + "\n; an edit\n");
        c->edited();
        QVERIFY(compileAndWait(*w));
        QVERIFY(bothSidesShown(*c));
        QVERIFY(c->sidePane(1)->text().count("sub.f32") > c->sidePane(0)->text().count("sub.f32"));
    }

    // Two variants of the same modules, each compiled on every edit on its own engine.
    void twoVariantsSideBySide() {
        auto ws = libdeviceMath();
        workspace::Variant off, on;
        off.name = "ftz off";
        off.options = ws.options;
        off.options.ftz = false;
        on.name = "ftz on";
        on.options = ws.options;
        on.options.ftz = true;
        QTemporaryDir dir;
        auto w = openWithVariants(ws, {off, on}, dir);
        auto* c = w->compare();
        QCOMPARE(c->side(1), ComparePanel::variantSide("ftz on"));
        QCOMPARE(c->side(0), ComparePanel::variantSide("ftz off"));
        QVERIFY(bothSidesShown(*c));
        QVERIFY(!c->comparison()->identical);
        QVERIFY(c->sidePane(0)->text().contains(".entry wave"));
        // ftz on: the float instructions take their .ftz forms (expf's ex2.approx.ftz is in both).
        QVERIFY(c->sidePane(1)->text().count(".ftz.") > c->sidePane(0)->text().count(".ftz.") + 3);
        // An edit compiles both again: a comment added shows up on both sides' compiles, which
        // stay different from each other.
        const auto generationBefore = c->sideResult(1)->generation;
        w->document()->setModuleText(0, w->document()->module(0).bytes + "\n; an edit\n");
        c->edited();
        QTRY_VERIFY_WITH_TIMEOUT(c->sideResult(1) && c->sideResult(1)->generation > generationBefore, 60000);
        QVERIFY(bothSidesShown(*c));
        QVERIFY(!c->comparison()->identical);
    }

    // Add Variant and Edit Variant go through the variant dialog: a name (a taken one refused),
    // a toolkit and the option table; the variant is saved and shown on side B.
    void theVariantDialogAddsAndEditsAVariant() {
        auto ws = libdeviceMath();
        workspace::Variant first;
        first.name = "first";
        first.options = ws.options;
        QTemporaryDir dir;
        auto w = openWithVariants(ws, {first}, dir);
        auto* c = w->compare();
        // Fills the dialog once it is open: a name, then OK.
        const auto answer = [](const QString& name, bool* seen) {
            QTimer::singleShot(0, [name, seen] {
                auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
                if (!dialog || dialog->objectName() != QLatin1String("variantDialog")) return;
                *seen = true;
                auto* edit = dialog->findChild<QLineEdit*>(QStringLiteral("variantName"));
                auto* toolkit = dialog->findChild<QComboBox*>(QStringLiteral("variantToolkit"));
                QVERIFY(edit && toolkit);
                QCOMPARE(toolkit->currentIndex(), 0);  // the app's toolkit
                QVERIFY(toolkit->itemText(toolkit->count() - 1).contains(QStringLiteral("Other folder")));
                edit->setText(name);
                dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
            });
        };
        bool seen = false;
        answer(QStringLiteral("second"), &seen);
        c->addVariant();
        QVERIFY(seen);
        QVERIFY(w->document()->variant(QStringLiteral("second")));
        QCOMPARE(c->side(1), ComparePanel::variantSide("second"));
        // Edited: renamed in place.
        seen = false;
        answer(QStringLiteral("renamed"), &seen);
        c->editVariant();
        QVERIFY(seen);
        QVERIFY(!w->document()->variant(QStringLiteral("second")));
        QVERIFY(w->document()->variant(QStringLiteral("renamed")));
        QVERIFY(w->document()->variant(QStringLiteral("first")));
        QCOMPARE(c->side(1), ComparePanel::variantSide("renamed"));
    }

    // A variant names its toolkit by path and release: when that folder is gone, it says so and
    // compiles nothing in its place.
    void aVariantWhoseToolkitVanishedSaysSo() {
        auto ws = libdeviceMath();
        workspace::Variant gone;
        gone.name = "old toolkit";
        gone.options = ws.options;
        gone.toolkit = "/nonexistent/cuda-12.2";
        gone.toolkitRelease = "12.2.140";
        QTemporaryDir dir;
        auto w = openWithVariants(ws, {gone}, dir);
        auto* c = w->compare();
        QCOMPARE(c->side(1), ComparePanel::variantSide("old toolkit"));
        const QString notice = c->sideNotice(1);
        QVERIFY2(notice.contains("is missing") && notice.contains("/nonexistent/cuda-12.2") &&
                     notice.contains("CUDA 12.2.140"),
                 qPrintable(notice));
        QVERIFY(!c->sideResult(1));
        QVERIFY(!c->compiling());
        QVERIFY2(c->verdict().contains("is missing"), qPrintable(c->verdict()));
    }

    // An arch the variant's toolkit does not take is refused with the toolkit's arch list.
    void aVariantWithAnArchItsToolkitLacksSaysSo() {
        auto ws = libdeviceMath();
        workspace::Variant volta;
        volta.name = "volta";
        volta.options = ws.options;
        volta.options.arch = "compute_70";  // CUDA 13 dropped Volta
        QTemporaryDir dir;
        auto w = openWithVariants(ws, {volta}, dir);
        auto* c = w->compare();
        QCOMPARE(c->side(1), ComparePanel::variantSide("volta"));
        QTRY_VERIFY_WITH_TIMEOUT(!c->compiling() && !c->sideNotice(1).isEmpty() && c->sideNotice(1) != "compiling…",
                                 60000);
        QVERIFY2(c->sideNotice(1).contains("compute_70") && c->sideNotice(1).contains("13.x"),
                 qPrintable(c->sideNotice(1)));
    }

    // A variant on another CUDA release: the release lines differ, the kernel is the same.
    void aVariantOnAnotherToolkit() {
        const QString dir12 = qEnvironmentVariable("NVPG_TEST_CUDA12");
        const auto status = QString::fromStdString(test::readText((dir12 + "/status").toStdString())).trimmed();
        if (dir12.isEmpty() || !status.startsWith("ok"))
            QSKIP(qPrintable("the CUDA 12.9 pip wheels are unavailable: " +
                             (dir12.isEmpty() ? QString("NVPG_TEST_CUDA12 is not set (run through ctest)") : status)));
        auto ws = libdeviceMath();
        workspace::Variant old;
        old.name = "CUDA 12.9";
        old.options = ws.options;
        old.toolkit = (dir12 + "/site-packages/nvidia").toStdString();
        old.toolkitRelease = "12.9.86";
        QTemporaryDir dir;
        auto w = openWithVariants(ws, {old}, dir);
        auto* c = w->compare();
        QCOMPARE(c->side(1), ComparePanel::variantSide("CUDA 12.9"));
        QVERIFY(compileAndWait(*w));
        QVERIFY(bothSidesShown(*c));
        const QString diff = c->diffPane()->text();
        QVERIFY2(diff.contains("\n-// Cuda compilation tools, release 13.") &&
                     diff.contains("\n+// Cuda compilation tools, release 12.9"),
                 qPrintable(diff.left(1500)));
        QVERIFY(c->sideLabel(1).contains("CUDA 12.9.86"));
    }

    // Settings lists the toolkits found, with their releases, and the folders the user adds.
    void settingsListToolkitsAndKeepAddedFolders() {
        SettingsDialog dialog;
        QTRY_VERIFY_WITH_TIMEOUT(dialog.toolkitsListed(), 30000);
        const auto ours = QString::fromStdString(test::realToolkit()->nvvmReport().path.string());
        bool sawOurs = false;
        for (int i = 0; i < dialog.toolkitList()->topLevelItemCount(); ++i)
            sawOurs = sawOurs || dialog.toolkitList()->topLevelItem(i)->toolTip(1).contains(ours);
        QVERIFY(sawOurs);
        QTemporaryDir empty;
        dialog.addToolkitFolder(empty.path());
        QTRY_VERIFY_WITH_TIMEOUT(dialog.toolkitsListed(), 30000);
        const auto last = dialog.toolkitList()->topLevelItem(dialog.toolkitList()->topLevelItemCount() - 1);
        QCOMPARE(last->text(1), empty.path());
        QCOMPARE(last->text(0), QString("no toolkit"));
        const QString dir12 = qEnvironmentVariable("NVPG_TEST_CUDA12");
        const bool have12 = !dir12.isEmpty() && test::readText((dir12 + "/status").toStdString()).rfind("ok", 0) == 0;
        if (have12) {
            dialog.addToolkitFolder(dir12 + "/site-packages/nvidia");
            QTRY_VERIFY_WITH_TIMEOUT(dialog.toolkitsListed(), 30000);
            bool saw12 = false;
            for (int i = 0; i < dialog.toolkitList()->topLevelItemCount(); ++i) {
                const auto* item = dialog.toolkitList()->topLevelItem(i);
                saw12 = saw12 || (item->text(0) == "CUDA 12.9.86" && item->text(2) == "added in Settings");
            }
            QVERIFY(saw12);
        }
        dialog.accept();
        QVERIFY(SettingsDialog::extraToolkitPaths().contains(empty.path()));
        SettingsDialog::setExtraToolkitPaths({});
    }
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
