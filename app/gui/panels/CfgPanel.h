#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <QFont>
#include <QGraphicsView>
#include <QWidget>

#include "core/inspect/CfgLayout.h"
#include "core/inspect/ControlFlow.h"
#include "core/inspect/LineMap.h"
#include "core/pipeline/CompileResult.h"
#include "core/pipeline/LiveFigures.h"

class QComboBox;
class QGraphicsItem;
class QGraphicsScene;
class QLabel;
class QToolButton;
class QsciScintilla;

namespace nvpg::gui {

class CompileController;

class EditorArea;
class LineMapLinks;
class OutputView;
class WorkspaceDocument;

// The graph's canvas: Ctrl+wheel zooms (on top of the window's zoom), a click on a block says which.
class CfgGraphView : public QGraphicsView {
    Q_OBJECT

public:
    explicit CfgGraphView(QWidget* parent = nullptr);
    // The window's zoom as a factor, and the person's own (Ctrl+wheel, Fit).
    void setBaseScale(double scale);
    void setUserScale(double scale);
    double userScale() const { return user_; }
    // The user scale at which the whole scene fits (at most 1).
    double fitScale() const;
    double fitWidthScale() const;  // the same for its width alone

signals:
    void blockClicked(int block);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    void apply();
    double base_ = 1, user_ = 1;
};

// Which output a graph shown is of.
enum class CfgSource { Sass, Ptx, LtoPtx, Ir };

// What the layout thread reads from one compile, once: every output's graphs (core's readers)
// and the live figures (core's LiveFigures), kept while that compile is on screen.
struct CfgPrepared {
    std::shared_ptr<const pipeline::CompileResult> result;
    std::shared_ptr<const inspect::LineMap> map;
    std::array<std::vector<inspect::ControlFlowGraph>, 4> graphs;  // by CfgSource
    std::array<std::string, 4> unavailable;                        // why a source has no graphs
    std::vector<std::string> irModules;                            // by graphs[Ir]: the module it is in
    pipeline::LiveFigures live;
};

// One answer of the layout thread.
struct CfgLaidOut {
    quint64 generation = 0;
    std::shared_ptr<const CfgPrepared> prepared;
    CfgSource source = CfgSource::Sass;
    int graph = -1;        // into prepared->graphs[source]; -1: the function has none there
    std::string function;  // the one asked for (the first kernel when none was)
    inspect::CfgLayout layout;
    std::vector<int> pressure;  // by block: the most registers live at its lines; -1 for none
    int scale = 0;              // the kernel's register count (ptxas), the colours' top
    std::thread::id thread;     // where it was laid out (tests check it is not the UI thread)
};

// The Control Flow dock: the basic blocks and edges of the function under the caret of the
// focused pane (a define in the IR editor; a .entry/.func in the PTX or LTO PTX pane; a function
// in the SASS pane), from the output a selector picks (SASS when there is one, else PTX; LTO PTX
// and IR too). Core reads the graphs (inspect::cfgFrom*) and lays them out (inspect::layoutCfg,
// Graphviz's dot) on a thread of this panel's own; the UI thread only draws the answer. Each
// request carries a generation, and an answer older than the newest request is dropped (a new
// compile, another function, another output). Blocks are coloured by register pressure (the most
// registers live in the block, pipeline::liveFigures, scaled to the kernel's register count),
// framed when the line map's strong marks (LineMapLinks) are on their lines; back edges are red
// and thick, fallthroughs dashed. A click on a block marks its lines in every pane through
// LineMapLinks.
class CfgPanel : public QWidget {
    Q_OBJECT

public:
    CfgPanel(OutputView* output, EditorArea* editors, WorkspaceDocument* document, LineMapLinks* links,
             QWidget* parent = nullptr);
    ~CfgPanel() override;
    // Follows each compile's result, its late (SASS) result and its line map.
    void attach(CompileController* controller);

    // The result on screen (the plain reply, then the complete one with its SASS) and its map.
    void setResult(std::shared_ptr<const pipeline::CompileResult> result);
    void setLineMap(std::shared_ptr<const inspect::LineMap> map);
    void clear();
    // The window's zoom (points added to every text): the graph scales with it.
    void setZoom(int points);

    void setSource(CfgSource source);
    CfgSource source() const { return source_; }
    // Which sources can be chosen now, and why one cannot (empty when it can).
    QString sourceUnavailable(CfgSource source) const;
    // The function the graph follows (from the caret); empty: the first kernel.
    QString function() const { return QString::fromStdString(wanted_); }
    // Follows the caret of `pane` (an output pane or a module editor) at 0-based line `line`: what
    // a caret move in the focused pane does.
    void followCaret(QsciScintilla* pane, int line);

    // What is drawn (for tests): the graph and its layout, null before the first.
    const CfgLaidOut* shown() const { return shown_.get(); }
    const inspect::ControlFlowGraph* shownGraph() const;
    QList<QGraphicsItem*> blockItems() const;
    QList<QGraphicsItem*> edgeItems() const;
    QList<QGraphicsItem*> backEdgeItems() const;
    std::vector<int> highlightedBlocks() const;
    // The pressure figure of block `block` of the graph shown; -1 when it has none.
    int blockPressure(int block) const;
    CfgGraphView* view() const { return view_; }
    QString note() const;
    QString infoText() const;
    QToolButton* infoButton() const { return info_; }
    // Answers dropped because a newer request came; laid out graphs shown.
    int droppedLayouts() const { return dropped_; }
    // Tests: each layout sleeps this long first, so that a newer request can overtake it.
    void setLayoutDelayForTests(int ms) { delayMs_ = ms; }
    // Marks block `block`'s lines in every pane (what a click does).
    void activateBlock(int block);

signals:
    // A layout was drawn (or the note says why none could be).
    void graphShown();
    // From the layout thread to the UI thread (queued).
    void laidOutSignal(std::shared_ptr<const nvpg::gui::CfgLaidOut> answer);

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Job {
        quint64 generation = 0;
        std::shared_ptr<const pipeline::CompileResult> result;
        std::shared_ptr<const inspect::LineMap> map;
        std::vector<std::pair<std::string, std::string>> irTexts;  // text modules: name, text
        std::shared_ptr<const CfgPrepared> prepared;               // reused when of the same result
        CfgSource source = CfgSource::Sass;
        std::string function;
    };
    void request();
    void workerLoop();
    std::shared_ptr<const CfgLaidOut> run(const Job& job);
    void laidOut(std::shared_ptr<const CfgLaidOut> answer);
    // Drawing is in slices with the event loop running between them: draw starts drawing_,
    // drawSlice makes items until its time is up, finishDraw makes it shown_.
    void draw();
    void drawSlice(quint64 token);
    void finishDraw();
    void dropDrawing();
    const inspect::ControlFlowGraph* drawingGraph() const;
    void updateHighlight();
    void updateSources();
    void setNote(const QString& text);
    void watchPane(QsciScintilla* pane);
    // The SASS pane's numbering to the listing's and back (its compact view).
    int sassShownLine(int listingLine) const;
    int sassListingLine(int shownLine) const;
    QColor heat(int figure) const;
    int pressureScale() const;

    OutputView* output_;
    EditorArea* editors_;
    WorkspaceDocument* document_;
    LineMapLinks* links_;
    QComboBox* sources_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* legend_ = nullptr;
    QLabel* legendText_ = nullptr;
    QLabel* note_ = nullptr;
    QToolButton* info_ = nullptr;
    QToolButton* fit_ = nullptr;
    CfgGraphView* view_ = nullptr;
    QGraphicsScene* scene_ = nullptr;
    QList<QGraphicsItem*> blocks_, edges_, backEdges_;
    QFont blockFont_, blockTitleFont_;  // the blocks' text (the items paint with these)
    std::vector<int> pressure_;         // by block of the graph shown
    int scale_ = 0;                     // the register count colours are scaled to

    std::shared_ptr<const pipeline::CompileResult> result_;
    std::shared_ptr<const inspect::LineMap> map_;
    std::shared_ptr<const CfgPrepared> prepared_;  // of result_ and map_, once the thread made it
    std::shared_ptr<const CfgLaidOut> shown_;      // null while drawing_ is drawn
    std::shared_ptr<const CfgLaidOut> drawing_;    // the answer whose items are being made
    size_t drawnEdges_ = 0, drawnBlocks_ = 0;      // made so far
    quint64 drawToken_ = 0;                        // a slice of an older draw does nothing
    bool fitWhenDrawn_ = false;                    // a new view: fit it once drawn
    CfgSource source_ = CfgSource::Sass;
    bool sourceChosen_ = false;  // by the person: kept across compiles
    std::string wanted_;
    bool dirty_ = false;  // a request waits for the panel to be shown
    quint64 generation_ = 0;
    int dropped_ = 0;
    QString sassSaid_;  // the "no SASS" reason already said, once

    // The layout thread: newest job only (an older one waiting is replaced).
    std::thread thread_;
    std::mutex lock_;
    std::condition_variable wake_;
    std::optional<Job> pending_;
    bool stopping_ = false;
    std::atomic<quint64> newest_{0};
    std::atomic<int> delayMs_{0};
};

}  // namespace nvpg::gui
