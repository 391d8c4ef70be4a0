#include "gui/panels/CfgView.h"

#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QElapsedTimer>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QMouseEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QTimer>
#include <QWheelEvent>

#include "gui/common/Text.h"
#include "gui/output/Pane.h"

namespace nvpg::gui {

namespace {

constexpr int kKindKey = 1;  // QGraphicsItem::data keys
constexpr int kBlockKey = 0;
constexpr int kFramedKey = 2;

// The UI thread's share of drawing a graph: items are made in slices of this long, the event
// loop running between them (a 2,000-block graph takes ~40 ms in all on this 2-core machine).
constexpr int kDrawSliceMs = 6;

bool darkTheme() {
    return QApplication::palette().color(QPalette::Base).lightness() < 128;
}

QColor lineColour() {
    return darkTheme() ? QColor(0xb0, 0xb0, 0xb0) : QColor(0x55, 0x55, 0x55);
}

// A block: its box, and its label and first lines painted only when it is on screen and large
// enough to read (a 2,000-block graph made of text items took ~190 ms of the UI thread to build).
class BlockItem : public QGraphicsRectItem {
public:
    struct Text {
        QString text;
        bool title = false, muted = false;
    };
    BlockItem(const QRectF& r, std::vector<Text> lines, const QFont* mono, const QFont* bold, QColor text, QColor muted)
        : QGraphicsRectItem(r), lines_(std::move(lines)), mono_(mono), bold_(bold), text_(text), muted_(muted) {}

    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override {
        QGraphicsRectItem::paint(painter, option, widget);
        // Below a third of its size the text is a smudge: the box alone says where the block is.
        if (QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform()) < 0.33) return;
        painter->save();
        painter->setClipRect(rect());
        const QRectF r = rect();
        for (size_t k = 0; k < lines_.size(); ++k) {
            painter->setFont(lines_[k].title ? *bold_ : *mono_);
            painter->setPen(lines_[k].muted ? muted_ : text_);
            const QRectF row(r.left() + 8, r.top() + 3 + 12 * double(k), r.width() - 10, 12);
            painter->drawText(row, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, lines_[k].text);
        }
        painter->restore();
    }

private:
    std::vector<Text> lines_;
    const QFont* mono_;
    const QFont* bold_;
    QColor text_, muted_;
};

// An edge: its path and, painted with it, its arrowhead.
class EdgeItem : public QGraphicsPathItem {
public:
    EdgeItem(const QPainterPath& path, const QPen& pen, QPolygonF head)
        : QGraphicsPathItem(path), head_(std::move(head)) {
        setPen(pen);
        bounds_ = QGraphicsPathItem::boundingRect().united(head_.boundingRect().adjusted(-1, -1, 1, 1));
    }
    QRectF boundingRect() const override { return bounds_; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override {
        QGraphicsPathItem::paint(painter, option, widget);
        if (head_.isEmpty()) return;
        painter->setPen(QPen(pen().color(), 1));
        painter->setBrush(pen().color());
        painter->drawPolygon(head_);
    }

private:
    QPolygonF head_;
    QRectF bounds_;
};

}  // namespace

// --- the canvas ---

CfgGraphView::CfgGraphView(QWidget* parent) : QGraphicsView(parent) {
    setRenderHint(QPainter::Antialiasing);
    setRenderHint(QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setAlignment(Qt::AlignHCenter | Qt::AlignTop);
}

void CfgGraphView::setBaseScale(double scale) {
    base_ = scale;
    apply();
}

void CfgGraphView::setUserScale(double scale) {
    user_ = std::clamp(scale, 0.05, 8.0);
    apply();
}

double CfgGraphView::fitScale() const {
    if (!scene() || scene()->sceneRect().isEmpty()) return 1;
    const QSizeF room = viewport()->size();
    const QRectF r = scene()->sceneRect();
    return std::min({1.0, room.width() / (r.width() * base_), room.height() / (r.height() * base_)});
}

double CfgGraphView::fitWidthScale() const {
    if (!scene() || scene()->sceneRect().isEmpty()) return 1;
    return std::min(1.0, viewport()->width() / (scene()->sceneRect().width() * base_));
}

void CfgGraphView::apply() {
    setTransform(QTransform::fromScale(base_ * user_, base_ * user_));
}

void CfgGraphView::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = event->angleDelta().y() / 120.0;
        setUserScale(user_ * std::pow(1.15, steps));
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

void CfgGraphView::mouseReleaseEvent(QMouseEvent* event) {
    QGraphicsView::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton) return;
    for (auto* item = itemAt(event->position().toPoint()); item; item = item->parentItem())
        if (item->data(kKindKey).toString() == QLatin1String("block")) {
            emit blockClicked(item->data(kBlockKey).toInt());
            return;
        }
}

// --- the items ---

CfgScene::CfgScene(QObject* parent) : QGraphicsScene(parent) {}

void CfgScene::clearItems() {
    ++drawToken_;
    drawing_.reset();
    clear();
    blocks_.clear();
    edges_.clear();
    backEdges_.clear();
}

void CfgScene::forgetFigures() {
    pressure_.clear();
    scale_ = 0;
}

int CfgScene::blockPressure(int block) const {
    return block >= 0 && block < int(pressure_.size()) ? pressure_[size_t(block)] : -1;
}

QColor CfgScene::heat(int figure) const {
    if (figure < 0 || scale_ <= 0) return darkTheme() ? QColor(0x3a, 0x3a, 0x3a) : QColor(0xee, 0xee, 0xee);
    const double t = std::clamp(double(figure) / scale_, 0.0, 1.0);
    // Green (few live) through yellow to red (as many as the kernel has), pale enough under text.
    return darkTheme() ? QColor::fromHsvF(float(0.33 * (1 - t)), 0.75f, float(0.35 + 0.15 * t))
                       : QColor::fromHsvF(float(0.33 * (1 - t)), float(0.22 + 0.5 * t), 1.0f);
}

void CfgScene::draw(std::shared_ptr<const CfgLaidOut> answer, QColor text) {
    clearItems();
    drawnEdges_ = drawnBlocks_ = 0;
    drawing_ = std::move(answer);
    text_ = text;
    const auto& layout = drawing_->layout;
    pressure_ = drawing_->pressure;
    scale_ = drawing_->scale;
    blockFont_ = monoFont();
    blockFont_.setPixelSize(10);  // the layout's 6 pt a character, 12 pt a line
    blockTitleFont_ = blockFont_;
    blockTitleFont_.setBold(true);
    setSceneRect(QRectF(-10, -10, layout.width + 20, layout.height + 20));
    // The items from the next turn of the event loop on: clearing a large scene took its own ms.
    QTimer::singleShot(0, this, [this, token = drawToken_] { drawSlice(token); });
}

void CfgScene::drawSlice(quint64 token) {
    if (token != drawToken_ || !drawing_) return;  // a newer graph is being drawn, or none
    const auto& g = drawing_->prepared->graphs[size_t(drawing_->source)][size_t(drawing_->graph)];
    QElapsedTimer slice;
    slice.start();
    const auto& layout = drawing_->layout;
    const QColor line = lineColour();
    const QColor loop(0xd3, 0x2f, 0x2f);
    const size_t edges = std::min(g.edges.size(), layout.edges.size());
    const size_t blocks = std::min(g.blocks.size(), layout.nodes.size());
    auto sliceOver = [&](size_t done) { return done % 16 == 0 && slice.elapsed() >= kDrawSliceMs; };

    for (; drawnEdges_ < edges; ++drawnEdges_) {
        if (sliceOver(drawnEdges_)) break;
        const auto& e = g.edges[drawnEdges_];
        const auto& path = layout.edges[drawnEdges_];
        QPainterPath p;
        if (path.points.size() >= 4) {
            p.moveTo(path.points[0].x, path.points[0].y);
            for (size_t k = 1; k + 2 < path.points.size(); k += 3)
                p.cubicTo(path.points[k].x, path.points[k].y, path.points[k + 1].x, path.points[k + 1].y,
                          path.points[k + 2].x, path.points[k + 2].y);
        } else {
            const auto& a = layout.nodes[size_t(e.from)].centre;
            const auto& b = layout.nodes[size_t(e.to)].centre;
            p.moveTo(a.x, a.y);
            p.lineTo(b.x, b.y);
        }
        QPen pen(e.back ? loop : line, e.back ? 2.5 : 1.2);
        if (e.kind == inspect::CfgEdgeKind::Fallthrough) pen.setStyle(Qt::DashLine);
        QPolygonF head;
        if (path.hasArrow) {
            const QPointF tip(path.arrowTip.x, path.arrowTip.y);
            const QPointF end = p.currentPosition();
            QLineF axis(tip, end);
            if (axis.length() > 0.1) {
                QLineF side1 = axis, side2 = axis;
                side1.setAngle(axis.angle() + 25);
                side2.setAngle(axis.angle() - 25);
                side1.setLength(std::max(7.0, axis.length()));
                side2.setLength(std::max(7.0, axis.length()));
                head = QPolygonF({tip, side1.p2(), side2.p2()});
            }
        }
        auto* item = new EdgeItem(p, pen, head);
        addItem(item);
        item->setZValue(0);
        item->setData(kKindKey, e.back ? QStringLiteral("back") : QStringLiteral("edge"));
        item->setToolTip(e.back                                        ? tr("Back edge: a loop")
                         : e.kind == inspect::CfgEdgeKind::Fallthrough ? tr("Falls through")
                                                                       : tr("Branch"));
        edges_ << item;
        if (e.back) backEdges_ << item;
    }
    for (; drawnEdges_ >= edges && drawnBlocks_ < blocks; ++drawnBlocks_) {
        if (sliceOver(drawnBlocks_)) break;
        const size_t b = drawnBlocks_;
        const auto& block = g.blocks[b];
        const auto& node = layout.nodes[b];
        const QRectF r(node.centre.x - node.width / 2, node.centre.y - node.height / 2, node.width, node.height);
        const QString label = block.label.empty() ? tr("(block %1)").arg(b) : qstr(block.label);
        std::vector<BlockItem::Text> lines{{label + QLatin1Char(':'), true, false}};
        const int shown = std::min<int>(kCfgLabelLines, int(block.instructions.size()));
        for (int k = 0; k < shown; ++k) lines.push_back({qstr(block.instructions[size_t(k)]), false, false});
        if (int(block.instructions.size()) > shown)
            lines.push_back({tr("… %1 more").arg(int(block.instructions.size()) - shown), false, true});
        auto* box = new BlockItem(r, std::move(lines), &blockFont_, &blockTitleFont_, text_, line);
        box->setPen(QPen(line, 1));
        box->setBrush(heat(pressure_[b]));
        addItem(box);
        box->setZValue(1);
        box->setData(kKindKey, QStringLiteral("block"));
        box->setData(kBlockKey, int(b));
        box->setCursor(Qt::PointingHandCursor);
        QString tip = QStringLiteral("<b>%1</b>").arg(label.toHtmlEscaped());
        if (block.firstLine > 0)
            tip += tr("<br>%1 lines %2–%3, %4 instructions")
                       .arg(tr(cfgSourceWords(drawing_->source)))
                       .arg(block.firstLine)
                       .arg(block.lastLine)
                       .arg(block.instructions.size());
        if (pressure_[b] >= 0) tip += tr("<br>at most %1 registers live (of %2)").arg(pressure_[b]).arg(scale_);
        tip += tr("<br>Click: mark its lines in every pane");
        box->setToolTip(tip);
        blocks_ << box;
    }
    if (drawnEdges_ < edges || drawnBlocks_ < blocks) {
        QTimer::singleShot(0, this, [this, token] { drawSlice(token); });
        return;
    }
    drawing_.reset();
    emit drawn();
}

void CfgScene::frameBlocks(const inspect::ControlFlowGraph& graph, const std::set<int>& lines) {
    // Blue: no fill of the heat scale is, so a framed block stands out on any of them.
    const QColor accent = darkTheme() ? QColor(0x64, 0xb5, 0xf6) : QColor(0x15, 0x65, 0xc0);
    const QColor line = lineColour();
    for (int b = 0; b < blocks_.size() && b < int(graph.blocks.size()); ++b) {
        bool on = false;
        for (int l : graph.blocks[size_t(b)].lines) on = on || lines.count(l);
        auto* box = static_cast<QGraphicsRectItem*>(blocks_[b]);
        if (box->data(kFramedKey).toBool() == on) continue;  // a pen set on every block of a large graph costs ms
        box->setPen(on ? QPen(accent, 4) : QPen(line, 1));
        box->setData(kFramedKey, on);
    }
}

std::vector<int> CfgScene::framedBlocks() const {
    std::vector<int> out;
    for (int b = 0; b < blocks_.size(); ++b)
        if (blocks_[b]->data(kFramedKey).toBool()) out.push_back(b);
    return out;
}

}  // namespace nvpg::gui
