// The Control Flow dock with the real engine: the graph of the kernel under the caret has the
// blocks core reads from the same output, loops show as back edges, a click on a block marks its
// lines in the panes and the IR editor through the line map, the layout runs off the UI thread,
// and a layout overtaken by a newer compile is dropped.
#include <QtTest>

#include <QThread>
#include <QTimer>

#include <QComboBox>
#include <QDockWidget>
#include <QGraphicsPathItem>
#include <QGraphicsView>
#include <QLabel>
#include <QStandardItemModel>
#include <QToolButton>
#include <QWheelEvent>

#include <set>
#include <thread>

#include <Qsci/qsciscintilla.h>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "core/inspect/ControlFlow.h"
#include "core/support/Files.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/LineMapLinks.h"
#include "gui/output/OutputView.h"
#include "gui/panels/CfgPanel.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {

struct Compiled {
    std::shared_ptr<const pipeline::CompileResult> complete;
    std::shared_ptr<const inspect::LineMap> map;
};

// Waits for the result with its SASS and its line map, after `start` (an open, a compile).
template <class Start>
Compiled awaitCompile(MainWindow& w, Start start) {
    QSignalSpy lates(w.controller(), &CompileController::lateShown);
    QSignalSpy maps(w.controller(), &CompileController::lineMapShown);
    start();
    if (lates.isEmpty() && !lates.wait(120000)) qFatal("no complete result");
    if (maps.isEmpty() && !maps.wait(120000)) qFatal("no line map");
    Compiled c;
    c.complete = lates.last().at(1).value<std::shared_ptr<const pipeline::CompileResult>>();
    c.map = maps.last().at(1).value<std::shared_ptr<const inspect::LineMap>>();
    return c;
}

const inspect::ControlFlowGraph* graphOf(const std::vector<inspect::ControlFlowGraph>& graphs, const std::string& f) {
    for (const auto& g : graphs)
        if (g.function == f) return &g;
    return nullptr;
}

// The caret in the module editor at the first line containing `text`, as a person puts it there.
void caretAt(MainWindow& w, const QString& text) {
    auto* editor = w.editors()->currentEditor();
    const int line = test::lineContaining(editor, text);
    QVERIFY2(line >= 0, qPrintable(text));
    w.activateWindow();
    editor->setFocus();
    QTRY_VERIFY(editor->hasFocus());
    editor->setCursorPosition(line, 2);
}

// Waits until the panel shows `function`'s graph of `result`.
bool showsGraphOf(CfgPanel* panel, const std::string& function,
                  const std::shared_ptr<const pipeline::CompileResult>& result, int ms = 30000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        const auto* g = panel->shownGraph();
        if (g && g->function == function && panel->shown()->prepared->result == result) return true;
        QTest::qWait(20);
    }
    return false;
}

void clickItem(QGraphicsView* view, QGraphicsItem* item) {
    view->centerOn(item);
    QCoreApplication::processEvents();
    const QPoint at = view->mapFromScene(item->sceneBoundingRect().center());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
}

}  // namespace

class TestCfg : public QObject {
    Q_OBJECT

    Qt::HANDLE uiThread_ = nullptr;

private slots:
    void initTestCase() {
        uiThread_ = QThread::currentThreadId();
        test::useNvpgAsEngine();
        // Registered twice (with and without nvdisasm, NVPG_TEST_PYTHON says which): each its own settings.
        test::isolateAppData(qEnvironmentVariableIsSet("NVPG_TEST_PYTHON") ? "tst_gui_cfg"
                                                                           : "tst_gui_cfg_without_nvdisasm");
    }

    void theDockIsClosedAtFirstAndInTheViewMenu() {
        auto w = test::makeWindow();
        QVERIFY(w->cfgDock());
        QVERIFY(!w->cfgDock()->isVisible());
        QCOMPARE(w->cfgDock()->windowTitle(), QStringLiteral("Control Flow"));
        bool inMenu = false;
        for (auto* a : w->findChildren<QAction*>()) inMenu = inMenu || a == w->cfgDock()->toggleViewAction();
        QVERIFY(inMenu);
        // The info button opens the docs' entry: the graph, its sources and its colours.
        w->cfgDock()->show();
        w->cfgDock()->raise();
        QTRY_VERIFY(w->cfgPanel()->infoButton()->isVisible());
        QTest::mouseClick(w->cfgPanel()->infoButton(), Qt::LeftButton);
        QLabel* popover = nullptr;
        QTRY_VERIFY((popover = w->cfgPanel()->findChild<QLabel*>("docPopover")) && popover->isVisible());
        const QString info = popover->text();
        QVERIFY2(info.contains(QStringLiteral("control-flow graph")), qPrintable(info));
        QVERIFY(info.contains(QStringLiteral("nvdisasm -bbcfg")));
        QVERIFY(info.contains(QStringLiteral("loop")));
        QVERIFY(info.contains(QStringLiteral("live")));
        popover->close();
    }

    void theKernelUnderTheCaretHasCoresBlocks() {
        auto w = test::makeWindow();
        const auto c = awaitCompile(*w, [&] { QVERIFY(w->openExample(QStringLiteral("libdevice-math"))); });
        QVERIFY(c.complete);
        w->cfgDock()->show();
        w->cfgDock()->raise();
        caretAt(*w, QStringLiteral("call float @__nv_sinf"));
        auto* panel = w->cfgPanel();
        QTRY_COMPARE(panel->function(), QStringLiteral("wave"));
        const auto& r = *c.complete;
        const bool sass = !r.sass.empty() && !r.sassGraph.empty();
        const auto graphs = sass ? inspect::cfgFromSass(r.sassGraph, r.sass) : inspect::cfgFromPtx(r.ptx);
        const auto* expected = graphOf(graphs, "wave");
        QVERIFY(expected);
        QVERIFY(showsGraphOf(panel, "wave", c.complete));
        QCOMPARE(panel->source(), sass ? CfgSource::Sass : CfgSource::Ptx);
        if (!sass) {
            // Without nvdisasm the SASS choice says why, in the note and on the disabled choice.
            QVERIFY2(panel->note().contains(QStringLiteral("nvdisasm")), qPrintable(panel->note()));
            auto* combo = panel->findChild<QComboBox*>(QStringLiteral("cfgSource"));
            QVERIFY(combo);
            const auto* model = qobject_cast<const QStandardItemModel*>(combo->model());
            QVERIFY(model);
            QVERIFY(!model->item(combo->findData(int(CfgSource::Sass)))->isEnabled());
            QVERIFY(!panel->sourceUnavailable(CfgSource::Sass).isEmpty());
            QCOMPARE(model->item(combo->findData(int(CfgSource::Sass)))->toolTip(),
                     panel->sourceUnavailable(CfgSource::Sass));
        }
        QCOMPARE(panel->blockItems().size(), qsizetype(expected->blocks.size()));
        QCOMPARE(panel->edgeItems().size(), qsizetype(expected->edges.size()));
        QVERIFY(expected->blocks.size() >= 2);
        // Laid out off the UI thread.
        QVERIFY(panel->shown()->thread != uiThread_);
        // Coloured by pressure where there are figures: none above the kernel's register count.
        const auto live = panel->shown()->prepared->live;
        if (live.available()) {
            int coloured = 0;
            for (int b = 0; b < panel->blockItems().size(); ++b)
                if (panel->blockPressure(b) >= 0) {
                    ++coloured;
                    QVERIFY(panel->blockPressure(b) <= panel->shown()->scale);
                }
            QVERIFY(coloured > 0);
        }

        // A click on a block whose lines came from IR lines marks them in its pane and the editor.
        const auto& map = *c.map;
        const auto pane = sass ? inspect::MappedOutput::Sass : inspect::MappedOutput::Ptx;
        QVERIFY2(map.output(pane).available(), map.output(pane).unavailable.c_str());
        int block = -1;
        for (int b = 0; b < int(expected->blocks.size()) && block < 0; ++b)
            for (int l : expected->blocks[size_t(b)].lines)
                if (map.output(pane).originOf(l).module >= 0) block = b;
        QVERIFY(block >= 0);
        clickItem(panel->view(), panel->blockItems().at(block));
        std::vector<int> paneLines;
        std::set<int> irLines;
        const auto view = w->output()->sassView();
        for (int l : expected->blocks[size_t(block)].lines) {
            paneLines.push_back(sass && view ? view->shownLine(l) : l);
            if (const auto o = map.output(pane).originOf(l); o.module >= 0) irLines.insert(o.line);
        }
        std::sort(paneLines.begin(), paneLines.end());
        QCOMPARE(LineMapLinks::focusedLines(w->output()->outputEditor(pane)), paneLines);
        const auto irMarked = LineMapLinks::focusedLines(w->editors()->currentEditor());
        QCOMPARE(std::set<int>(irMarked.begin(), irMarked.end()), irLines);
        // The other panes get those IR lines' lines too.
        if (sass && map.ptx.available()) QVERIFY(!LineMapLinks::focusedLines(w->output()->ptxEditor()).empty());
        // Ctrl+wheel zooms the graph, and so does the window's zoom (View ▸ Zoom In).
        auto* canvas = panel->view();
        const double before = canvas->transform().m11();
        const QPoint centre = canvas->viewport()->rect().center();
        QWheelEvent wheel(centre, canvas->viewport()->mapToGlobal(centre), {}, {0, 120}, Qt::NoButton,
                          Qt::ControlModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(canvas->viewport(), &wheel);
        QVERIFY(canvas->transform().m11() > before * 1.1);
        const double wheeled = canvas->transform().m11();
        QAction* zoomIn = nullptr;
        for (auto* a : w->findChildren<QAction*>())
            if (a->text() == QStringLiteral("Zoom &In")) zoomIn = a;
        QVERIFY(zoomIn);
        zoomIn->trigger();
        QVERIFY(canvas->transform().m11() > wheeled);
        // The clicked block is framed as the one the marks are on.
        QTRY_VERIFY(std::find(panel->highlightedBlocks().begin(), panel->highlightedBlocks().end(), block) !=
                    panel->highlightedBlocks().end());
    }

    void theCaretInAnOutputPaneChoosesItsFunction() {
        auto w = test::makeWindow();
        const auto c = awaitCompile(*w, [&] { QVERIFY(w->openExample(QStringLiteral("two-modules"))); });
        w->cfgDock()->show();
        w->cfgDock()->raise();
        auto* panel = w->cfgPanel();
        panel->setSource(CfgSource::Ptx);
        // Every function of the PTX, by a caret inside its body.
        const auto graphs = inspect::cfgFromPtx(c.complete->ptx);
        QVERIFY(!graphs.empty());
        auto* ptx = w->output()->ptxEditor();
        w->activateWindow();
        ptx->setFocus();
        QTRY_VERIFY(ptx->hasFocus());
        for (const auto& g : graphs) {
            ptx->setCursorPosition(g.blocks.back().lines.back() - 1, 0);
            QVERIFY2(showsGraphOf(panel, g.function, c.complete), g.function.c_str());
            QCOMPARE(panel->blockItems().size(), qsizetype(g.blocks.size()));
        }
    }

    void aLoopHasABackEdgeInEveryOutput() {
        auto w = test::makeWindow();
        const auto c = awaitCompile(
            *w, [&] { QVERIFY(w->openPaths({QString::fromStdString((test::dataDir() / "cfg/loop.ll").string())})); });
        w->cfgDock()->show();
        w->cfgDock()->raise();
        auto* panel = w->cfgPanel();
        caretAt(*w, QStringLiteral("%acc = fadd"));
        std::vector<CfgSource> sources{CfgSource::Ptx, CfgSource::Ir};
        // The app's SASS is of the LTO link's cubin, which keeps only the kernels @llvm.used lists
        // (loop.ll lists none): where nvdisasm's graph has the kernel, its loop shows too.
        if (!c.complete->sassGraph.empty() &&
            graphOf(inspect::cfgFromSass(c.complete->sassGraph, c.complete->sass), "prefix_sum"))
            sources.push_back(CfgSource::Sass);
        for (auto s : sources) {
            panel->setSource(s);
            QTRY_VERIFY2_WITH_TIMEOUT(panel->shownGraph() && panel->shown()->source == s,
                                      qPrintable(QStringLiteral("source %1, shown %2, note: %3, function %4")
                                                     .arg(int(panel->source()))
                                                     .arg(panel->shown() ? int(panel->shown()->source) : -1)
                                                     .arg(panel->note(), panel->function())),
                                      30000);
            QCOMPARE(panel->shownGraph()->function, std::string("prefix_sum"));
            QVERIFY2(!panel->backEdgeItems().isEmpty(), std::to_string(int(s)).c_str());
            // Drawn so that they stand out: red and thicker than the other edges.
            auto* back = static_cast<QGraphicsPathItem*>(panel->backEdgeItems().front());
            for (auto* item : panel->edgeItems()) {
                if (panel->backEdgeItems().contains(item)) continue;
                QVERIFY(static_cast<QGraphicsPathItem*>(item)->pen().widthF() < back->pen().widthF());
            }
            QCOMPARE(back->pen().color(), QColor(0xd3, 0x2f, 0x2f));
            int back2 = 0;
            for (const auto& e : panel->shownGraph()->edges) back2 += e.back ? 1 : 0;
            QCOMPARE(panel->backEdgeItems().size(), back2);
            // Fallthroughs dashed, branches solid.
            for (int i = 0; i < panel->edgeItems().size(); ++i) {
                const bool fall = panel->shownGraph()->edges[size_t(i)].kind == inspect::CfgEdgeKind::Fallthrough;
                QCOMPARE(static_cast<QGraphicsPathItem*>(panel->edgeItems()[i])->pen().style(),
                         fall ? Qt::DashLine : Qt::SolidLine);
            }
        }
        // An IR block clicked marks its own lines in the editor.
        panel->setSource(CfgSource::Ir);
        QTRY_VERIFY(panel->shownGraph() && panel->shown()->source == CfgSource::Ir);
        const auto& g = *panel->shownGraph();
        QVERIFY(g.blocks.size() >= 3);
        clickItem(panel->view(), panel->blockItems().at(1));
        const auto marked = LineMapLinks::focusedLines(w->editors()->currentEditor());
        QCOMPARE(marked, g.blocks[1].lines);
    }

    // A graph of 2,000 blocks is drawn in slices with the event loop running between them (made at
    // once it held the UI thread ~190 ms): its answer arrives, other events are handled, and only
    // then is it shown, whole; until then no half-made graph is reported as shown.
    void aLargeGraphIsDrawnWhileTheEventLoopRuns() {
        // 500 if/else diamonds one after another: 2,002 blocks in the IR.
        QString ir = QStringLiteral(
            "target datalayout = \"e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-"
            "f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64\"\n"
            "target triple = \"nvptx64-nvidia-cuda\"\n"
            "define void @big(float* %out, float %x) {\nentry:\n  br label %h0\n");
        constexpr int kDiamonds = 500;
        for (int i = 0; i < kDiamonds; ++i)
            ir += QStringLiteral(
                      "h%1:\n  %c%1 = fcmp olt float %x, %1.0\n  br i1 %c%1, label %t%1, label %e%1\n"
                      "t%1:\n  br label %j%1\ne%1:\n  br label %j%1\nj%1:\n  br label %%2\n")
                      .arg(i)
                      .arg(i + 1 < kDiamonds ? QStringLiteral("h%1").arg(i + 1) : QStringLiteral("done"));
        ir += QStringLiteral(
            "done:\n  store float %x, float* %out\n  ret void\n}\n"
            "!nvvm.annotations = !{!0}\n!nvvmir.version = !{!1}\n"
            "!0 = !{void (float*, float)* @big, !\"kernel\", i32 1}\n!1 = !{i32 2, i32 0}\n");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.ll"));
        QVERIFY(support::writeFileAtomic(path.toStdString(), ir.toStdString()));
        auto w = test::makeWindow();
        const auto c = awaitCompile(*w, [&] { QVERIFY(w->openPaths({path})); });
        QVERIFY(c.complete);
        auto* panel = w->cfgPanel();
        // Counted from the moment the answer has been taken (queued after the panel's own slot).
        bool answered = false, shownBeforeAnswer = false, halfShown = false;
        int turns = 0;
        QTimer loop;
        loop.setInterval(0);
        connect(&loop, &QTimer::timeout, this, [&] {
            if (!answered) return;
            ++turns;
            if (panel->shownGraph() && panel->shownGraph()->blocks.size() != size_t(panel->blockItems().size()))
                halfShown = true;
        });
        loop.start();
        connect(
            panel, &CfgPanel::laidOutSignal, this, [&] { answered = true; }, Qt::QueuedConnection);
        QSignalSpy shown(panel, &CfgPanel::graphShown);
        connect(panel, &CfgPanel::graphShown, this, [&] { shownBeforeAnswer = shownBeforeAnswer || !answered; });
        panel->setSource(CfgSource::Ir);
        w->cfgDock()->show();
        w->cfgDock()->raise();
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);
        const int turnsUntilShown = turns;
        loop.stop();
        disconnect(panel, nullptr, this, nullptr);
        QVERIFY(!shownBeforeAnswer);
        QVERIFY(!halfShown);
        QVERIFY2(turnsUntilShown >= 1, qPrintable(QString::number(turnsUntilShown)));
        const auto* g = panel->shownGraph();
        QVERIFY(g);
        QCOMPARE(g->function, std::string("big"));
        QCOMPARE(g->blocks.size(), size_t(4 * kDiamonds + 2));
        QCOMPARE(panel->blockItems().size(), qsizetype(g->blocks.size()));
        QCOMPARE(panel->edgeItems().size(), qsizetype(g->edges.size()));
    }

    void aLayoutOvertakenByANewCompileIsDropped() {
        auto w = test::makeWindow();
        const auto first = awaitCompile(*w, [&] { QVERIFY(w->openExample(QStringLiteral("libdevice-math"))); });
        w->cfgDock()->show();
        w->cfgDock()->raise();
        auto* panel = w->cfgPanel();
        QVERIFY(showsGraphOf(panel, "wave", first.complete));
        QCOMPARE(panel->droppedLayouts(), 0);
        // A slow layout, then a new compile while it runs.
        panel->setLayoutDelayForTests(3000);
        // What each answer drawn from now on is of: the first compile's is stale once the second
        // compile's reply is here, within the 3 s its layout sleeps (libNVVM takes ~0.1 s here).
        std::vector<std::shared_ptr<const pipeline::CompileResult>> drawn;
        connect(panel, &CfgPanel::graphShown, this, [&] {
            if (panel->shown()) drawn.push_back(panel->shown()->prepared->result);
        });
        panel->setSource(panel->source() == CfgSource::Ptx ? CfgSource::Ir : CfgSource::Ptx);
        const auto asked = panel->source();
        QTest::qWait(100);  // the thread took it and sleeps
        const auto second = awaitCompile(*w, [&] {
            w->editors()->currentEditor()->insertAt(QStringLiteral("; a comment\n"), 0, 0);
            w->controller()->compileNow();
        });
        panel->setLayoutDelayForTests(0);
        QVERIFY(second.complete != first.complete);
        QVERIFY(showsGraphOf(panel, "wave", second.complete, 60000));
        QCOMPARE(panel->source(), asked);
        QVERIFY(panel->droppedLayouts() >= 1);
        // Nothing of the first compile is drawn after the second's.
        QTest::qWait(200);
        QCOMPARE(panel->shown()->prepared->result, second.complete);
        QVERIFY(!drawn.empty());
        QVERIFY(std::find(drawn.begin(), drawn.end(), first.complete) == drawn.end());
        disconnect(panel, &CfgPanel::graphShown, this, nullptr);
    }
};

QTEST_MAIN(TestCfg)
#include "tst_cfg.moc"
