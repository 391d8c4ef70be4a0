#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <QWidget>

#include "core/inspect/LineMap.h"
#include "core/pipeline/CompileResult.h"
#include "gui/common/BackgroundWork.h"
#include "gui/panels/CfgLayoutJob.h"
#include "gui/panels/CfgView.h"

class QComboBox;
class QGraphicsItem;
class QLabel;
class QToolButton;
class QsciScintilla;

namespace nvpg::gui {

class CompileController;
class EditorArea;
class LineMapLinks;
class OutputView;
class WorkspaceDocument;

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
    // The header's text as shown: the function's name cut to the room it has, then the figures.
    QString titleText() const;
    QString infoText() const;
    QToolButton* infoButton() const { return info_; }
    // Answers dropped because a newer request came; laid out graphs shown.
    int droppedLayouts() const { return dropped_; }
    // Tests: each layout sleeps this long first, so that a newer request can overtake it.
    void setLayoutDelayForTests(int ms) { *delayMs_ = ms; }
    // Marks block `block`'s lines in every pane (what a click does).
    void activateBlock(int block);

signals:
    // A layout was drawn (or the note says why none could be).
    void graphShown();
    // An answer of the layout thread arrived (on the UI thread), before it is looked at.
    void laidOutSignal(std::shared_ptr<const nvpg::gui::CfgLaidOut> answer);

protected:
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void request();
    void answered(std::shared_ptr<const CfgLaidOut> answer);
    void laidOut(std::shared_ptr<const CfgLaidOut> answer);
    // Drawing is in slices with the event loop running between them (CfgScene): draw starts
    // drawing_, finishDraw makes it shown_.
    void draw();
    void finishDraw();
    void dropDrawing();
    void updateHighlight();
    void updateSources();
    void setNote(const QString& text);
    // The header: `function`'s name as the app shows names, cut to the label's width, then `rest`
    // (the graph's figures) after a " · ".
    void setTitle(const std::string& function, const QString& rest);
    void updateTitle();
    // A function's name in a note.
    static QString noteName(const std::string& function);
    void watchPane(QsciScintilla* pane);
    // The SASS pane's numbering to the listing's and back (its compact view).
    int sassShownLine(int listingLine) const;
    int sassListingLine(int shownLine) const;

    OutputView* output_;
    EditorArea* editors_;
    WorkspaceDocument* document_;
    LineMapLinks* links_;
    QComboBox* sources_ = nullptr;
    QLabel* title_ = nullptr;
    std::string titleFunction_;  // the header's function (its symbol) and what follows its name
    QString titleRest_;
    QLabel* legend_ = nullptr;
    QLabel* legendText_ = nullptr;
    QLabel* note_ = nullptr;
    QToolButton* info_ = nullptr;
    QToolButton* fit_ = nullptr;
    CfgGraphView* view_ = nullptr;
    CfgScene* scene_ = nullptr;

    std::shared_ptr<const pipeline::CompileResult> result_;
    std::shared_ptr<const inspect::LineMap> map_;
    std::shared_ptr<const CfgPrepared> prepared_;  // of result_ and map_, once the thread made it
    std::shared_ptr<const CfgLaidOut> shown_;      // null while drawing_ is drawn
    std::shared_ptr<const CfgLaidOut> drawing_;    // the answer whose items are being made
    bool fitWhenDrawn_ = false;                    // a new view: fit it once drawn
    CfgSource source_ = CfgSource::Sass;
    bool sourceChosen_ = false;  // by the person: kept across compiles
    std::string wanted_;
    bool dirty_ = false;  // a request waits for the panel to be shown
    quint64 generation_ = 0;
    int dropped_ = 0;
    QString sassSaid_;  // the "no SASS" reason already said, once

    // Tests: how long each layout sleeps first (read by the layout thread).
    std::shared_ptr<std::atomic<int>> delayMs_ = std::make_shared<std::atomic<int>>(0);
    // The layout thread: the newest request only. Last: joined before the members above go.
    LatestJob<std::shared_ptr<const CfgLaidOut>> layouts_{this};
};

}  // namespace nvpg::gui
