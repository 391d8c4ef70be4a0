// Real IR on real screens (ctest runs this suite on offscreen screens of 1280x720 and 1600x1000):
// numba's 300-character kernel symbols never widen the window past the screen through a
// compile, a pin, a variant and a run; names are shown demangled, cut to fit, with the symbol in
// the tooltip and View > Raw Symbol Names for the symbols themselves.
#include <QtTest>

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
#include "compile/CompileController.h"
#include "document/WorkspaceDocument.h"
#include "editor/EditorArea.h"
#include "output/LineMapLinks.h"
#include "output/OutputView.h"
#include "output/SymbolNames.h"
#include "panels/ComparePanel.h"
#include "run/RunPanel.h"
#include "support/Symbols.h"
#include "support/Text.h"
#include "window/MainWindow.h"
#include "workspace/Workspace.h"

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
    if (!std::regex_search(symbol, tag, std::regex(R"(B92([A-Za-z0-9_]{92}))"))) qFatal("no ABI tag hash in %s", symbol.c_str());
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

QRect available() {
    return QGuiApplication::primaryScreen()->availableGeometry();
}

bool compileAndWait(MainWindow& w) {
    QSignalSpy shown(w.controller(), &CompileController::replyShown);
    w.controller()->compileNow();
    return shown.wait(120000);
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
                                                          .arg(after).arg(width).arg(screenWidth)));
            QVERIFY2(width <= widest, qPrintable(QString("after %1 the window grew from %2 to %3 px")
                                                     .arg(after).arg(widest).arg(width)));
            widest = width;
            // Usable: the editor and the output panes a good part of the window each.
            const int editor = w->editors()->width(), outputs = w->output()->width();
            QVERIFY2(editor >= width / 5 && outputs >= width / 3,
                     qPrintable(QString("after %1: editor %2 px, outputs %3 px of %4").arg(after).arg(editor).arg(outputs).arg(width)));
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
        QVERIFY(w->openWorkspace(path_));
        QVERIFY(compileAndWait(*w));
        QVERIFY(!w->output()->ptxText().isEmpty());
        check("compile");

        QVERIFY(w->pinResult("long"));
        QTRY_VERIFY_WITH_TIMEOUT(w->compare()->comparison(), 60000);
        check("pin");

        workspace::Variant v;
        v.name = "ftz";
        v.options = w->document()->workspace().options;
        v.options.ftz = true;
        w->document()->putVariant(v, {});
        w->compare()->setSides(ComparePanel::pinSide("long"), ComparePanel::variantSide("ftz"));
        QTRY_VERIFY_WITH_TIMEOUT(w->compare()->comparison() && !w->compare()->compiling(), 120000);
        check("variant");

        // A run: this machine has no GPU, so the engine's run fails saying so; the Runs dock
        // shows the failure, with the kernel's name, without widening anything.
        auto* runs = w->runPanel();
        w->findChild<QDockWidget*>("runsDock")->raise();
        runs->setGpuStatus(true, {});  // as if a GPU were there: the engine itself answers
        QTRY_VERIFY_WITH_TIMEOUT(runs->kernelCombo()->count() > 0, 10000);
        QVERIFY2(runs->runBlockers().isEmpty(), qPrintable(runs->runBlockers().join('\n')));
        runs->runNow();
        QTRY_VERIFY_WITH_TIMEOUT(runs->history()->count() == 1, 60000);
        if (runs->history()->record(0).outcome) QSKIP("this machine has a GPU: the run succeeded");
        QVERIFY2(runs->summaryLabel()->text().contains("__main__::math_kernel"), qPrintable(runs->summaryLabel()->text()));
        check("run");
    }

    // Names are demangled where they are mangled, with the symbol in the tooltip; the View
    // menu's toggle shows the symbols, everywhere at once.
    void namesAreReadableAndTheToggleShowsSymbols() {
        auto w = openCompiled();
        const QString symbol = QString::fromStdString(module_.symbol);
        const QString readable = QString::fromStdString(support::readableName(module_.symbol));
        QVERIFY2(readable.startsWith("__main__::math_kernel(Array<float, 1, C, mutable, aligned>"), qPrintable(readable));
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

        auto* raw = viewAction(*w, "rawSymbolNames");
        QVERIFY(raw && raw->isCheckable() && !raw->isChecked());
        raw->trigger();
        QCOMPARE(table->item(0, 0)->text(), symbol);
        QVERIFY2(w->output()->ptxHeader().contains(symbol.left(15)), qPrintable(w->output()->ptxHeader()));
        QCOMPARE(w->runPanel()->kernelCombo()->currentText(), symbol);
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

};

QTEST_MAIN(TestScreens)
#include "tst_screens.moc"
