// Real IR on real screens (ctest runs this suite on offscreen screens of 1280x720 and 1600x1000):
// numba's 300-character kernel symbols never widen the window past the screen through a
// compile, a pin, a variant and a run; names are shown demangled, cut to fit, with the symbol in
// the tooltip and View > Raw Symbol Names for the symbols themselves; the SASS pane shows
// opcodes, not nvdisasm's offsets and indentation, with the listing one toggle away.
#include <QFontInfo>
#include <QSplitter>
#include <QtTest>

#include <filesystem>
#include <regex>

#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QTableWidget>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "core/inspect/Sass.h"
#include "core/inspect/SassView.h"
#include "core/support/Symbols.h"
#include "core/support/Text.h"
#include "core/workspace/Workspace.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/output/LineMapLinks.h"
#include "gui/output/OutputView.h"
#include "gui/output/SymbolNames.h"
#include "gui/panels/CfgPanel.h"
#include "gui/panels/ComparePanel.h"
#include "gui/panels/RunPanel.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {

// numba's math_kernel (tests/data/numba) with its kernel's symbol made `length` characters
// long the way numba makes long ones: a longer ABI-tag hash, so that it still demangles.
struct LongNamed {
    std::string text, symbol;
};
LongNamed longNamedModule(size_t length) {
    std::string text = test::readText(test::dataDir() / "numba/math_kernel.ll");
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(R"(define void @"(_ZN[^"]+)\")"))) qFatal("no kernel in math_kernel.ll");
    const std::string symbol = m[1];
    std::smatch tag;
    if (!std::regex_search(symbol, tag, std::regex(R"(B92([A-Za-z0-9_]{92}))")))
        qFatal("no ABI tag hash in %s", symbol.c_str());
    const std::string hash = tag[1];
    const size_t rest = symbol.size() - tag.length(0);
    size_t n = length - rest - 4;  // "B" and three digits
    std::string longer;
    while (longer.size() < n) longer += hash;
    longer.resize(n);
    const std::string from = tag[0], to = "B" + std::to_string(n) + longer;
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    std::string renamed = symbol;
    renamed.replace(renamed.find(from), from.size(), to);
    if (renamed.size() != length) qFatal("made a %zu-character symbol, not %zu", renamed.size(), length);
    return {text, renamed};
}

// The symbol of the kernel `modules` define (numba's: one kernel per program); empty when none.
std::string kernelSymbol(const std::vector<nvvm::Module>& modules) {
    for (const auto& m : modules) {
        std::smatch k;
        if (std::regex_search(m.bytes, k, std::regex(R"(define void @"(_ZN[^"]+)\")"))) return k[1];
    }
    return {};
}

QRect available() {
    return QGuiApplication::primaryScreen()->availableGeometry();
}

bool compileAndWait(MainWindow& w) {
    QSignalSpy shown(w.controller(), &CompileController::replyShown);
    w.controller()->compileNow();
    return shown.wait(120000);
}

// Scintilla's text of margin line `line` (the SASS pane's offsets).
QString marginText(QsciScintilla* e, int line) {
    const long n = e->SendScintilla(QsciScintillaBase::SCI_MARGINGETTEXT, (unsigned long)line, long(0));
    QByteArray text(int(n) + 1, '\0');
    e->SendScintilla(QsciScintillaBase::SCI_MARGINGETTEXT, (unsigned long)line, static_cast<void*>(text.data()));
    return QString::fromUtf8(text.constData());
}

QAction* viewAction(MainWindow& w, const QString& objectName) {
    for (auto* top : w.menuBar()->actions())
        if (top->menu() && top->text().remove('&') == "View")
            for (auto* a : top->menu()->actions())
                if (a->objectName() == objectName) return a;
    return nullptr;
}

}  // namespace

class TestScreens : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    LongNamed module_;
    QString path_;

    // The long-named workspace, open in a window at the screen's available size, compiled.
    std::unique_ptr<MainWindow> openCompiled() {
        auto w = test::makeWindow(nullptr, available().size());
        if (!QTest::qWaitForWindowExposed(w.get())) qFatal("the window was not shown");
        if (!w->openWorkspace(path_)) qFatal("cannot open %s", qPrintable(path_));
        if (!compileAndWait(*w)) qFatal("no compile result");
        return w;
    }

private slots:
    void initTestCase() {
        // Without a font Qt draws every glyph as a box of its fallback's size (the H200 test
        // machine has none: 12 px boxes, against 7 px characters with Debian's fonts): what these
        // tests measure is then nothing a person sees. Carry a font there (see docs/dev/testing.md).
        if (QFontInfo(QGuiApplication::font()).family().isEmpty())
            QSKIP(
                "this machine has no fonts (fontconfig finds none), so the screens show boxes: install one, "
                "e.g. fonts-dejavu-core");
        test::useNvpgAsEngine();
        // Both screens' runs may go at once: each has its own settings.
        static const std::string suite = QStringLiteral("tst_gui_screens_%1x%2")
                                             .arg(QGuiApplication::primaryScreen()->size().width())
                                             .arg(QGuiApplication::primaryScreen()->size().height())
                                             .toStdString();
        test::isolateAppData(suite.c_str());
        qInfo("screen %dx%d, available %dx%d", QGuiApplication::primaryScreen()->size().width(),
              QGuiApplication::primaryScreen()->size().height(), available().width(), available().height());
        module_ = longNamedModule(300);
        workspace::Workspace ws;
        ws.name = "numba-long-name";
        ws.modules = {{"math_kernel.ll", module_.text, false}};
        ws.options.arch = "compute_90";
        ws.libdevice = true;
        path_ = dir_.path() + "/long.nvpg";
        QVERIFY(workspace::saveWorkspace(ws, path_.toStdString()));
    }
    void init() { SymbolNames::instance()->setRaw(false); }

    // A 300-character kernel symbol: the window keeps the screen's width through a compile, a
    // pin, a variant and a run, and the editor, the outputs and the kernel tables stay usable.
    void aLongKernelNameNeverWidensTheWindow() {
        auto w = test::makeWindow(nullptr, available().size());
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        const int screenWidth = available().width();
        int widest = w->frameGeometry().width();
        auto check = [&](const char* after) {
            QTest::qWait(100);  // layouts settle (posted LayoutRequest events)
            const int width = w->frameGeometry().width();
            QVERIFY2(width <= screenWidth, qPrintable(QString("after %1 the window is %2 px wide on a %3 px screen")
                                                          .arg(after)
                                                          .arg(width)
                                                          .arg(screenWidth)));
            QVERIFY2(
                width <= widest,
                qPrintable(QString("after %1 the window grew from %2 to %3 px").arg(after).arg(widest).arg(width)));
            widest = width;
            // Usable: the editor and the output panes a good part of the window each.
            const int editor = w->editors()->width(), outputs = w->output()->width();
            QVERIFY2(editor >= width / 5 && outputs >= width / 3,
                     qPrintable(QString("after %1: editor %2 px, outputs %3 px of %4")
                                    .arg(after)
                                    .arg(editor)
                                    .arg(outputs)
                                    .arg(width)));
            // Every kernel table shows a figure beside the name, not the name alone.
            for (auto* table : {w->output()->ptxFiguresTable(), w->output()->ltoFiguresTable()}) {
                if (table->isHidden() || table->columnCount() < 2) continue;
                QVERIFY2(table->columnViewportPosition(1) + 10 < table->viewport()->width(),
                         qPrintable(QString("after %1: %2's name column is %3 px of %4")
                                        .arg(after, table->objectName())
                                        .arg(table->columnWidth(0))
                                        .arg(table->viewport()->width())));
            }
        };
        check("opening");
        if (QTest::currentTestFailed()) return;
        QVERIFY(w->openWorkspace(path_));
        QVERIFY(compileAndWait(*w));
        QVERIFY(!w->output()->ptxText().isEmpty());
        check("compile");
        if (QTest::currentTestFailed()) return;
        // The output side narrowed to a quarter of the window (the H200's layout left the PTX
        // pane's table 148 px wide, and the name column, capped once at 36 characters, hid every
        // figure): the name column follows the table's width.
        if (auto* central = w->findChild<QSplitter*>("centralSplitter")) {
            const auto sizes = central->sizes();
            const int total = sizes.value(0) + sizes.value(1);
            central->setSizes({total * 3 / 4, total / 4});
            QTest::qWait(100);
            for (auto* table : {w->output()->ptxFiguresTable(), w->output()->ltoFiguresTable()}) {
                if (table->isHidden() || table->columnCount() < 2) continue;
                QVERIFY2(table->columnViewportPosition(1) + 10 < table->viewport()->width(),
                         qPrintable(QString("narrowed: %1's name column is %2 px of %3")
                                        .arg(table->objectName())
                                        .arg(table->columnWidth(0))
                                        .arg(table->viewport()->width())));
            }
            central->setSizes(sizes);
            QTest::qWait(100);
        }

        QVERIFY(w->pinResult("long"));
        QTRY_VERIFY_WITH_TIMEOUT(w->compare()->comparison(), 60000);
        check("pin");
        if (QTest::currentTestFailed()) return;

        workspace::Variant v;
        v.name = "ftz";
        v.options = w->document()->workspace().options;
        v.options.ftz = true;
        w->document()->putVariant(v, {});
        w->compare()->setSides(ComparePanel::pinSide("long"), ComparePanel::variantSide("ftz"));
        QTRY_VERIFY_WITH_TIMEOUT(w->compare()->comparison() && !w->compare()->compiling(), 120000);
        check("variant");
        if (QTest::currentTestFailed()) return;

        // A run: the Runs dock shows its outcome without widening anything.
        auto* runs = w->runPanel();
        w->findChild<QDockWidget*>("runsDock")->raise();
        runs->setGpuStatus(true, {});  // as if a GPU were there: the engine itself answers
        QTRY_VERIFY_WITH_TIMEOUT(runs->kernelCombo()->count() > 0, 10000);
        QVERIFY2(runs->runBlockers().isEmpty(), qPrintable(runs->runBlockers().join('\n')));
        runs->runNow();
        QTRY_VERIFY_WITH_TIMEOUT(runs->history()->count() == 1, 60000);
        // Without a GPU the run fails saying so, naming the kernel; with one (the H200) it succeeds.
        // Either way the window keeps its width.
        if (!runs->history()->record(0).outcome)
            QVERIFY2(runs->summaryLabel()->text().contains("__main__::math_kernel"),
                     qPrintable(runs->summaryLabel()->text()));
        check("run");
    }

    // Every dock with each of numba-cuda's kernels (tests/data/numba, stencil_2d's symbol among
    // them): opening one never makes the window wider than it opened or than the screen, nor asks
    // for more width than the screen has, and closing it leaves the window so. The Control Flow
    // dock's header names the kernel readably, cut to the room it has, and no block of its
    // graphs shows the symbol.
    void noDockWidensTheWindowWithNumbaKernels_data() {
        QTest::addColumn<QString>("fixture");
        QStringList names;
        for (const auto& e : std::filesystem::directory_iterator(test::dataDir() / "numba"))
            if (e.path().extension() == ".options") names << QString::fromStdString(e.path().stem().string());
        names.sort();
        QVERIFY(names.contains("stencil_2d") && names.size() >= 7);
        for (const auto& n : names) QTest::newRow(qPrintable(n)) << n;
    }
    void noDockWidensTheWindowWithNumbaKernels() {
        QFETCH(QString, fixture);
        const auto job = test::numbaJob(fixture.toStdString());
        workspace::Workspace ws;
        ws.name = fixture.toStdString();
        ws.modules = job.modules;
        ws.options = job.options;
        ws.libdevice = job.libdevice;
        const QString path = dir_.path() + "/" + fixture + ".nvpg";
        QVERIFY(workspace::saveWorkspace(ws, path.toStdString()));
        const std::string symbol = kernelSymbol(job.modules);
        QVERIFY(!symbol.empty());
        const QString readable = QString::fromStdString(support::readableName(symbol));
        const QString kernel = readable.left(readable.indexOf('(') + 1);  // "__main__::stencil_2d("

        auto w = test::makeWindow();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QTest::qWait(100);  // the queued fit to the screen
        const int screen = available().width();
        const int opened = w->frameGeometry().width();
        QVERIFY2(opened <= screen, qPrintable(QString("opened %1 px wide on a %2 px screen").arg(opened).arg(screen)));
        auto check = [&](const QString& after) {
            QTest::qWait(100);  // layouts settle (posted LayoutRequest events)
            const int width = w->frameGeometry().width(), least = w->minimumSizeHint().width();
            QVERIFY2(width <= opened && least <= screen,
                     qPrintable(QString("%1, %2: the window is %3 px wide (opened at %4 on a %5 px screen) and asks "
                                        "for at least %6")
                                    .arg(fixture, after)
                                    .arg(width)
                                    .arg(opened)
                                    .arg(screen)
                                    .arg(least)));
        };
        QSignalSpy late(w->controller(), &CompileController::lateShown);
        QVERIFY(w->openWorkspace(path));
        QVERIFY(compileAndWait(*w));
        QVERIFY(late.count() > 0 || late.wait(120000));  // the SASS, and the graph of it
        check("the compile");
        if (QTest::currentTestFailed()) return;

        const auto docks = w->findChildren<QDockWidget*>();
        QVERIFY(docks.size() >= 8);
        for (auto* dock : docks) {
            dock->show();
            dock->raise();
            QTRY_VERIFY(dock->isVisible() && !dock->visibleRegion().isEmpty());
            if (dock == w->cfgDock()) {
                auto* cfg = w->cfgPanel();
                const auto complete = late.last().at(1).value<std::shared_ptr<const pipeline::CompileResult>>();
                QTRY_VERIFY_WITH_TIMEOUT(cfg->shownGraph() && cfg->shown()->prepared->result == complete, 60000);
                QTest::qWait(100);
                auto* title = cfg->findChild<QLabel*>("cfgTitle");
                QVERIFY(title);
                const QString shown = cfg->titleText();
                QVERIFY2(shown.startsWith(kernel) && !shown.contains("_Z"), qPrintable(shown));
                // Cut to the label, and cut because the whole would not fit.
                QVERIFY2(title->fontMetrics().horizontalAdvance(shown) <= title->contentsRect().width(),
                         qPrintable(QString("%1 in %2 px").arg(shown).arg(title->contentsRect().width())));
                if (title->fontMetrics().horizontalAdvance(readable) > title->contentsRect().width())
                    QVERIFY2(shown.contains(QChar(0x2026)), qPrintable(shown));
                QVERIFY2(title->toolTip().contains(QString::fromStdString(symbol)), qPrintable(title->toolTip()));
                // No block of any of the compile's graphs shows the symbol; the entry is named readably.
                const auto& prepared = *cfg->shown()->prepared;
                bool entryNamed = false;
                for (const auto& graphs : prepared.graphs)
                    for (const auto& g : graphs)
                        for (const auto& b : g.blocks) {
                            QVERIFY2(b.label.find(symbol) == std::string::npos, b.label.c_str());
                            for (const auto& i : b.instructions)
                                QVERIFY2(i.find(symbol) == std::string::npos, i.c_str());
                            entryNamed = entryNamed || b.label.starts_with(kernel.toStdString());
                        }
                QVERIFY(entryNamed);
                // View > Raw Symbol Names: the header and the entry block show the symbol, cut too.
                SymbolNames::instance()->setRaw(true);
                QTRY_VERIFY_WITH_TIMEOUT(cfg->shown() && cfg->shown()->prepared->rawNames, 60000);
                QTRY_VERIFY(cfg->titleText().startsWith(QString::fromStdString(symbol.substr(0, 20))));
                check("showing the raw symbols in the " + dock->windowTitle() + " dock");
                if (QTest::currentTestFailed()) return;
                QVERIFY2(cfg->titleText().contains(QChar(0x2026)), qPrintable(cfg->titleText()));
                SymbolNames::instance()->setRaw(false);
                QTRY_VERIFY(cfg->titleText().startsWith(kernel));
                if (QTest::currentTestFailed()) return;
            }
            check("opening the " + dock->windowTitle() + " dock");
            if (QTest::currentTestFailed()) return;
            dock->close();
            check("closing the " + dock->windowTitle() + " dock");
            if (QTest::currentTestFailed()) return;
        }
    }

    // Names are demangled where they are mangled, with the symbol in the tooltip; the View
    // menu's toggle shows the symbols, everywhere at once.
    void namesAreReadableAndTheToggleShowsSymbols() {
        auto w = openCompiled();
        const QString symbol = QString::fromStdString(module_.symbol);
        const QString readable = QString::fromStdString(support::readableName(module_.symbol));
        QVERIFY2(readable.startsWith("__main__::math_kernel(Array<float, 1, C, mutable, aligned>"),
                 qPrintable(readable));
        auto* table = w->output()->ptxFiguresTable();
        QVERIFY(!table->isHidden() && table->rowCount() == 1);
        QCOMPARE(table->item(0, 0)->text(), readable);
        QVERIFY(table->item(0, 0)->toolTip().contains(readable));
        QVERIFY(table->item(0, 0)->toolTip().contains(symbol));
        // The header names the kernel readably, cut; the tooltip has it whole, and the symbol.
        QVERIFY2(w->output()->ptxHeader().contains("__main__::math_kernel("), qPrintable(w->output()->ptxHeader()));
        QVERIFY(!w->output()->ptxHeader().contains(symbol.left(40)));
        QVERIFY(w->output()->ptxHeaderToolTip().contains(symbol));
        auto* kernel = w->runPanel()->kernelCombo();
        QCOMPARE(kernel->currentText(), readable);
        QCOMPARE(kernel->currentData().toString(), symbol);  // runs still launch the symbol
        // PTX names the parameters after the kernel: the argument table shows what tells them apart.
        const auto param = [&] {
            return w->runPanel()->argModel()->index(0, ArgTableModel::ParamColumn).data().toString();
        };
        QCOMPARE(param(), QString("…_param_0"));

        auto* raw = viewAction(*w, "rawSymbolNames");
        QVERIFY(raw && raw->isCheckable() && !raw->isChecked());
        raw->trigger();
        QCOMPARE(table->item(0, 0)->text(), symbol);
        QVERIFY2(w->output()->ptxHeader().contains(symbol.left(15)), qPrintable(w->output()->ptxHeader()));
        QCOMPARE(w->runPanel()->kernelCombo()->currentText(), symbol);
        QCOMPARE(param(), symbol + "_param_0");
        QVERIFY(QSettings().value("view/rawSymbolNames").toBool());  // kept for the next start
        raw->trigger();
        QCOMPARE(table->item(0, 0)->text(), readable);
        QVERIFY(!QSettings().value("view/rawSymbolNames").toBool());
        // The table cuts the name in the middle to its column, rather than widening.
        QCOMPARE(table->textElideMode(), Qt::ElideMiddle);
        QVERIFY(table->columnWidth(0) < table->fontMetrics().horizontalAdvance(readable));
        // Cut where it costs least: the kernel's name stays whole, its parameters are cut.
        const int room = table->columnWidth(0) - 8;
        const QString cell = SymbolNames::elided(readable, table->fontMetrics(), room);
        QVERIFY2(cell.startsWith("__main__::math_kernel(") && cell.endsWith(">)") && cell.contains(QChar(0x2026)),
                 qPrintable(cell));
        QVERIFY(table->fontMetrics().horizontalAdvance(cell) <= room);
    }

    // The SASS pane at this screen's size: each instruction row starts with its opcode (or its
    // predicate) at the pane's left edge, the offset beside it in the margin; the toggle shows
    // nvdisasm's listing as it is; a line map selection marks the same instructions as in the
    // listing. nvdisasm comes from the pip wheel that ctest's nvdisasm_wheel fetches.
    void sassPaneShowsOpcodesFromItsFirstColumn() {
        auto w = openCompiled();
        auto* out = w->output();
        // The SASS comes after the PTX: "Disassembling the cubin (nvdisasm)…" meanwhile.
        QTRY_VERIFY_WITH_TIMEOUT(!out->sassText().isEmpty() ||
                                     (!out->sassNotice().isEmpty() && !out->sassNotice().startsWith("Disassembling")),
                                 120000);
        if (out->sassText().isEmpty()) {
            if (qEnvironmentVariableIsEmpty("NVPG_TEST_PYTHON")) QSKIP(qPrintable(out->sassNotice()));
            QFAIL(qPrintable(out->sassNotice()));
        }
        QTRY_VERIFY_WITH_TIMEOUT(w->lineMapLinks()->map(), 120000);
        out->showSassTab(true);
        QTest::qWait(50);
        auto* e = out->sassEditor();
        QCOMPARE(out->sassText().toStdString(), out->result()->sass);  // the listing, byte for byte
        // The function ptxas kept local to the kernel ("$<kernel>$__internal_accurate_pow") by name.
        auto* functions = out->sassFiguresTable();
        QStringList names;
        for (int row = 0; row < functions->rowCount(); ++row) names << functions->item(row, 0)->text();
        QVERIFY2(names.contains("__internal_accurate_pow (in " +
                                QString::fromStdString(support::readableName(module_.symbol)) + ") (device)"),
                 qPrintable(names.join('\n')));
        const auto view = out->sassView();
        QVERIFY(view);
        const auto listing = support::splitLines(out->result()->sass);
        // Scroll to the kernel's first instructions, as a person reading it would.
        int firstRow = 0;
        while (firstRow < e->lines() && marginText(e, firstRow).trimmed().isEmpty()) ++firstRow;
        QVERIFY(firstRow < e->lines());
        e->setFirstVisibleLine(std::max(0, firstRow - 2));
        const int width = e->viewport()->width();
        const long onScreen = e->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN);
        int rows = 0;
        for (int line = e->firstVisibleLine(); line < e->firstVisibleLine() + onScreen && line < e->lines(); ++line) {
            const QString offset = marginText(e, line).trimmed();
            if (offset.isEmpty()) continue;
            ++rows;
            const QString text = e->text(line);
            QVERIFY2(!text.front().isSpace() && !text.startsWith("/*"), qPrintable(text));
            // The opcode (after a predicate) ends inside the pane.
            const int words = text.startsWith('@') ? 2 : 1;
            int end = 0;
            for (int i = 0; i < words; ++i) end = int(text.indexOf(' ', end + (i ? 1 : 0)));
            const long pos = e->positionFromLineIndex(line, end < 0 ? int(text.size()) : end);
            const long x = e->SendScintilla(QsciScintillaBase::SCI_POINTXFROMPOSITION, 0ul, pos);
            QVERIFY2(x > 0 && x < width,
                     qPrintable(QString("%1 ends at x %2 of %3").arg(text.trimmed()).arg(x).arg(width)));
            // The margin has the listing's offset of that instruction.
            const int listed = view->listingLines[size_t(line)];
            QVERIFY(support::trim(listing[size_t(listed - 1)]).rfind("/*" + offset.toStdString() + "*/", 0) == 0);
        }
        QVERIFY2(rows >= 5, qPrintable(QString("%1 instruction rows on screen").arg(rows)));

        // A line map selection marks the same instructions as the listing's lines of that IR line.
        const auto map = w->lineMapLinks()->map();
        QVERIFY2(map->sass.available(), map->sass.unavailable.c_str());
        QVERIFY(!map->sass.lines.empty());
        int compared = 0;
        for (const auto& l : map->sass.lines) {
            w->lineMapLinks()->focusIrLine(QString::fromStdString(l.module), l.line);
            QStringList marked, expected;
            for (int shown : LineMapLinks::focusedLines(e)) marked << e->text(shown - 1).trimmed();
            for (const auto& r : l.ranges)
                for (int at = r.first; at <= r.last; ++at)
                    expected << QString::fromStdString(inspect::splitSassRow(listing[size_t(at - 1)]).instruction);
            QCOMPARE(marked, expected);
            compared += int(marked.size());
        }
        QVERIFY(compared > 5);

        // The toggle: nvdisasm's listing as it is, offsets and indentation in the text.
        QVERIFY(out->sassRawAction()->isCheckable());
        out->sassRawAction()->trigger();
        QCOMPARE(out->sassShownText(), out->sassText());
        QVERIFY(marginText(e, firstRow).trimmed().isEmpty());
        QVERIFY(!LineMapLinks::bandedLines(e).empty());  // the map's colours follow the text shown
        out->sassRawAction()->trigger();
        QCOMPARE(out->sassShownText().toStdString(), view->text);
    }

    // PTX is tab-indented: the panes show a tab narrower than 8 columns, and the text as it is.
    void ptxPanesShowNarrowTabsOfThePlainText() {
        auto w = openCompiled();
        auto* e = w->output()->ptxEditor();
        QCOMPARE(w->output()->ptxText().toStdString(), w->output()->result()->ptx);
        const int line = test::lineContaining(e, "\tret;");
        QVERIFY(line >= 0);
        QVERIFY(e->text(line).startsWith('\t'));
        const long start = e->positionFromLineIndex(line, 0), afterTab = e->positionFromLineIndex(line, 1);
        const long indent = e->SendScintilla(QsciScintillaBase::SCI_POINTXFROMPOSITION, 0ul, afterTab) -
                            e->SendScintilla(QsciScintillaBase::SCI_POINTXFROMPOSITION, 0ul, start);
        const int space =
            int(e->SendScintilla(QsciScintillaBase::SCI_TEXTWIDTH, QsciScintillaBase::STYLE_DEFAULT, " "));
        QVERIFY2(indent > 0 && indent <= 4 * space,
                 qPrintable(QString("a tab is %1 px, a space %2").arg(indent).arg(space)));
    }
};

QTEST_MAIN(TestScreens)
#include "tst_screens.moc"
