#pragma once

#include <memory>
#include <set>
#include <vector>

#include <QFont>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QList>

#include "gui/panels/CfgLayoutJob.h"

namespace nvpg::gui {

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

// The graph's items: a box per block (coloured by register pressure, its label and first lines
// painted only when large enough to read) and a path per edge (back edges red and thick,
// fallthroughs dashed). A large graph is made in slices with the event loop running between
// them, so that the UI thread never stalls on it; drawn() says when all are there.
class CfgScene : public QGraphicsScene {
    Q_OBJECT

public:
    explicit CfgScene(QObject* parent = nullptr);

    // Starts drawing the graph of `answer` (which must have one) with text in `text`: the
    // frame and figures now, the items from the next turn of the event loop on.
    void draw(std::shared_ptr<const CfgLaidOut> answer, QColor text);
    // Drops the items, and a drawing in progress.
    void clearItems();
    // Forgets the pressure figures and their scale too.
    void forgetFigures();

    QList<QGraphicsItem*> blocks() const { return blocks_; }
    QList<QGraphicsItem*> edges() const { return edges_; }
    QList<QGraphicsItem*> backEdges() const { return backEdges_; }
    // The pressure figure of block `block`; -1 when it has none.
    int blockPressure(int block) const;
    // The register count the colours are scaled to (0: no figures).
    int scale() const { return scale_; }
    // The fill of a block whose figure is `figure`: green (few live) to red (the scale's top).
    QColor heat(int figure) const;
    // Frames the blocks of `graph` holding any of `lines`; the others lose their frame.
    void frameBlocks(const inspect::ControlFlowGraph& graph, const std::set<int>& lines);
    std::vector<int> framedBlocks() const;

signals:
    void drawn();

private:
    void drawSlice(quint64 token);

    std::shared_ptr<const CfgLaidOut> drawing_;
    QColor text_;
    QList<QGraphicsItem*> blocks_, edges_, backEdges_;
    QFont blockFont_, blockTitleFont_;         // the blocks' text (the items paint with these)
    std::vector<int> pressure_;                // by block of the graph drawn
    int scale_ = 0;                            // the register count colours are scaled to
    size_t drawnEdges_ = 0, drawnBlocks_ = 0;  // made so far
    quint64 drawToken_ = 0;                    // a slice of an older draw does nothing
};

}  // namespace nvpg::gui
