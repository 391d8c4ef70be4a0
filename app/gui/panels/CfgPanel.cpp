#include "gui/panels/CfgPanel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <set>
#include <unordered_map>

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QLabel>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QStandardItemModel>
#include <QStyle>
#include <QStyleOptionGraphicsItem>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <Qsci/qsciscintilla.h>

#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/HoverDocs.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/LineMapLinks.h"
#include "gui/output/OutputView.h"
#include "gui/output/Pane.h"

namespace nvpg::gui {

namespace {

using inspect::MappedOutput;

constexpr int kLabelLines = 3;  // a block shows its label and this many first lines
constexpr int kKindKey = 1;     // QGraphicsItem::data keys
constexpr int kBlockKey = 0;

QString fromStd(const std::string& s) {
    return QString::fromStdString(s);
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

// The UI thread's share of drawing a graph: items are made in slices of this long, the event
// loop running between them (a 2,000-block graph takes ~40 ms in all on this 2-core machine).
constexpr int kDrawSliceMs = 6;

const char* sourceWords(CfgSource s) {
    switch (s) {
        case CfgSource::Sass:
            return "SASS";
        case CfgSource::Ptx:
            return "PTX";
        case CfgSource::LtoPtx:
            return "LTO PTX";
        case CfgSource::Ir:
            return "IR";
    }
    return "";
}

std::optional<MappedOutput> paneOf(CfgSource s) {
    switch (s) {
        case CfgSource::Sass:
            return MappedOutput::Sass;
        case CfgSource::Ptx:
            return MappedOutput::Ptx;
        case CfgSource::LtoPtx:
            return MappedOutput::LtoPtx;
        case CfgSource::Ir:
            break;
    }
    return std::nullopt;
}

// The function a line of each kind of text is in, found by the declaration above it: a caret move
// costs a look at the lines between the caret and that declaration, never a parse.
QString functionInIr(QsciScintilla* e, int line) {
    static const QRegularExpression define(QStringLiteral(R"re(^define\b[^@]*@(?:"([^"]+)"|([-\w$.]+)))re"));
    for (int l = line; l >= 0; --l) {
        const QString text = e->text(l);
        if (l < line && text.startsWith(QLatin1Char('}'))) return {};
        const auto m = define.match(text);
        if (m.hasMatch()) return m.captured(1).isEmpty() ? m.captured(2) : m.captured(1);
    }
    return {};
}

QString functionInPtx(QsciScintilla* e, int line) {
    static const QRegularExpression decl(QStringLiteral(
        R"(^\s*(?:\.(?:visible|weak|extern)\s+)*\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$]*))"));
    for (int l = line; l >= 0; --l) {
        const QString text = e->text(l);
        if (l < line && text.startsWith(QLatin1Char('}'))) return {};
        const auto m = decl.match(text);
        if (m.hasMatch()) return m.captured(1);
    }
    return {};
}

QString functionInSass(QsciScintilla* e, int line) {
    static const QRegularExpression header(QStringLiteral(R"re(^\s*(?:\.section\s+)?\.text\.([^\s,:"]+))re"));
    for (int l = line; l >= 0; --l) {
        const auto m = header.match(e->text(l));
        if (m.hasMatch()) return m.captured(1);
    }
    return {};
}

bool darkTheme() {
    return QApplication::palette().color(QPalette::Base).lightness() < 128;
}

// The figure of each block: the most registers live at any of its lines.
std::vector<int> blockPressures(const CfgPrepared& p, CfgSource source, int graph) {
    const auto& g = p.graphs[size_t(source)][size_t(graph)];
    std::vector<int> out(g.blocks.size(), -1);
    const auto& live = p.live;
    std::function<int(int)> figure;
    std::unordered_map<int, int> sassByLine;
    switch (source) {
        case CfgSource::Sass:
            if (!live.available()) return out;
            for (size_t i = 0; i < live.listing.instructions.size() && i < live.counts.size(); ++i)
                if (live.counts[i].known) sassByLine[live.listing.instructions[i].line] = live.counts[i].gpr;
            figure = [&](int line) {
                const auto it = sassByLine.find(line);
                return it == sassByLine.end() ? -1 : it->second;
            };
            break;
        case CfgSource::Ptx:
        case CfgSource::LtoPtx: {
            const auto& lines = source == CfgSource::Ptx ? live.ptxLines : live.ltoPtxLines;
            figure = [&lines](int line) {
                return line >= 1 && line <= int(lines.size()) ? lines[size_t(line - 1)] : -1;
            };
            break;
        }
        case CfgSource::Ir: {
            const int module = p.map ? p.map->moduleIndex(p.irModules[size_t(graph)]) : -1;
            if (module < 0) return out;
            figure = [&live, module](int line) { return live.irLine(module, line); };
            break;
        }
    }
    for (size_t b = 0; b < g.blocks.size(); ++b)
        for (int line : g.blocks[b].lines) out[b] = std::max(out[b], figure(line));
    return out;
}

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

// --- the panel ---

CfgPanel::CfgPanel(OutputView* output, EditorArea* editors, WorkspaceDocument* document, LineMapLinks* links,
                   QWidget* parent)
    : QWidget(parent), output_(output), editors_(editors), document_(document), links_(links) {
    qRegisterMetaType<std::shared_ptr<const CfgLaidOut>>("std::shared_ptr<const nvpg::gui::CfgLaidOut>");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    auto* bar = new QHBoxLayout;
    bar->setSpacing(6);
    auto* of = new QLabel(tr("Graph of"), this);
    sources_ = new QComboBox(this);
    sources_->setObjectName(QStringLiteral("cfgSource"));
    for (auto s : {CfgSource::Sass, CfgSource::Ptx, CfgSource::LtoPtx, CfgSource::Ir})
        sources_->addItem(tr(sourceWords(s)), int(s));
    of->setBuddy(sources_);
    title_ = new QLabel(this);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    legend_ = new QLabel(this);
    legendText_ = new QLabel(this);
    fit_ = new QToolButton(this);
    fit_->setText(tr("Fit"));
    fit_->setToolTip(tr("Zoom the graph to fit the dock (Ctrl+wheel zooms)"));
    info_ = new QToolButton(this);
    info_->setObjectName(QStringLiteral("cfgInfo"));
    info_->setText(tr("About"));
    info_->setIcon(style()->standardIcon(QStyle::SP_MessageBoxInformation));
    info_->setToolButtonStyle(Qt::ToolButtonIconOnly);
    info_->setAutoRaise(true);
    info_->setToolTip(infoText());
    // The docs' entry (resources/docs/view.json), as the Analysis dock's buttons show theirs.
    connect(info_, &QToolButton::clicked, this,
            [this] { HoverDocs::popover(info_, "control-flow-graph", inspect::DocContext::View); });
    bar->addWidget(of);
    bar->addWidget(sources_);
    bar->addWidget(title_, 1);
    bar->addWidget(legend_);
    bar->addWidget(legendText_);
    bar->addWidget(fit_);
    bar->addWidget(info_);
    layout->addLayout(bar);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->hide();
    layout->addWidget(note_);
    scene_ = new QGraphicsScene(this);
    view_ = new CfgGraphView(this);
    view_->setScene(scene_);
    layout->addWidget(view_, 1);

    connect(sources_, &QComboBox::activated, this, [this](int index) {
        sourceChosen_ = true;
        setSource(CfgSource(sources_->itemData(index).toInt()));
    });
    connect(fit_, &QToolButton::clicked, this, [this] { view_->setUserScale(view_->fitScale()); });
    connect(view_, &CfgGraphView::blockClicked, this, &CfgPanel::activateBlock);
    // The marks change in bursts (clear, then mark): one look after them.
    connect(links_, &LineMapLinks::focusChanged, this,
            [this] { QMetaObject::invokeMethod(this, &CfgPanel::updateHighlight, Qt::QueuedConnection); });
    connect(output_, &OutputView::sassDisplayChanged, this, &CfgPanel::updateHighlight);
    for (auto o : inspect::kMappedOutputs) watchPane(output_->outputEditor(o));
    connect(editors_, &EditorArea::editorMade, this, [this](int module) { watchPane(editors_->madeEditor(module)); });
    for (int i = 0; i < document_->moduleCount(); ++i)
        if (auto* e = editors_->madeEditor(i)) watchPane(e);
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        auto* pane = qobject_cast<QsciScintilla*>(now);
        if (!pane || !pane->property("nvpgCfgWatched").toBool()) return;
        int line = 0, index = 0;
        pane->getCursorPosition(&line, &index);
        followCaret(pane, line);
    });
    connect(this, &CfgPanel::laidOutSignal, this, &CfgPanel::laidOut, Qt::QueuedConnection);
    updateSources();
    setZoom(0);
    thread_ = std::thread([this] { workerLoop(); });
}

CfgPanel::~CfgPanel() {
    {
        std::lock_guard lock(lock_);
        stopping_ = true;
        pending_.reset();
    }
    wake_.notify_all();
    thread_.join();
}

void CfgPanel::watchPane(QsciScintilla* pane) {
    if (!pane || pane->property("nvpgCfgWatched").toBool()) return;
    pane->setProperty("nvpgCfgWatched", true);
    connect(pane, &QsciScintilla::cursorPositionChanged, this, [this, pane](int line, int) {
        // Only the caret a person moves in the pane they work in: the line map moves others' too.
        if (pane->hasFocus()) followCaret(pane, line);
    });
}

QString CfgPanel::infoText() const {
    return tr("What this graph shows, how it is made and where it comes from (click)");
}

void CfgPanel::setZoom(int points) {
    view_->setBaseScale(std::max(0.4, (10.0 + points) / 10.0));
}

void CfgPanel::setResult(std::shared_ptr<const pipeline::CompileResult> result) {
    if (!result || result == result_) return;
    result_ = std::move(result);
    if (result_->lineMap) map_ = result_->lineMap;
    // SASS first; updateSources falls back to PTX where there is none, saying why.
    if (!sourceChosen_) source_ = CfgSource::Sass;
    updateSources();
    request();
}

void CfgPanel::setLineMap(std::shared_ptr<const inspect::LineMap> map) {
    if (map == map_) return;
    map_ = std::move(map);
    request();  // the colours of PTX and IR lines come through it
}

void CfgPanel::clear() {
    result_.reset();
    map_.reset();
    prepared_.reset();
    dropDrawing();
    shown_.reset();
    wanted_.clear();
    ++generation_;
    newest_ = generation_;
    scene_->clear();
    blocks_.clear();
    edges_.clear();
    backEdges_.clear();
    pressure_.clear();
    title_->clear();
    setNote({});
    updateSources();
}

void CfgPanel::setSource(CfgSource source) {
    sourceChosen_ = true;
    sources_->setCurrentIndex(sources_->findData(int(source)));
    if (source == source_) return;
    source_ = source;
    request();
}

QString CfgPanel::sourceUnavailable(CfgSource source) const {
    if (!result_) return tr("no compile yet");
    const auto& r = *result_;
    switch (source) {
        case CfgSource::Sass:
            if (r.sassPending) return {};  // coming
            if (r.sass.empty()) {
                // The result's reason, else the window's (no SASS is asked for without nvdisasm).
                if (!r.sassUnavailable.empty()) return tr("no SASS: %1").arg(fromStd(r.sassUnavailable));
                const QString notice = output_->sassNotice();
                return notice.isEmpty() ? tr("no SASS in this compile") : notice;
            }
            if (r.sassGraph.empty())
                return r.sassGraphUnavailable.empty() ? tr("nvdisasm -bbcfg gave no graph")
                                                      : tr("no SASS graph: %1").arg(fromStd(r.sassGraphUnavailable));
            return {};
        case CfgSource::Ptx:
            return r.ptx.empty() ? tr("no PTX in this compile") : QString();
        case CfgSource::LtoPtx:
            return r.linkedPtx.empty() ? tr("no LTO-linked PTX in this compile") : QString();
        case CfgSource::Ir:
            for (const auto& m : document_->workspace().modules)
                if (!m.isBitcode()) return {};
            return tr("no text IR module (bitcode has no text to read blocks from)");
    }
    return {};
}

void CfgPanel::updateSources() {
    auto* model = qobject_cast<QStandardItemModel*>(sources_->model());
    for (int i = 0; i < sources_->count(); ++i) {
        const auto s = CfgSource(sources_->itemData(i).toInt());
        const QString why = result_ ? sourceUnavailable(s) : QString();
        if (auto* item = model ? model->item(i) : nullptr) {
            item->setEnabled(why.isEmpty());
            item->setToolTip(why);
        }
    }
    // The SASS falls back to PTX where it cannot be had, saying why once per reason.
    if (result_ && source_ == CfgSource::Sass) {
        const QString why = sourceUnavailable(CfgSource::Sass);
        if (!why.isEmpty()) {
            source_ = CfgSource::Ptx;
            if (why != sassSaid_) {
                sassSaid_ = why;
                setNote(tr("No SASS graph here (%1); the PTX's is shown.").arg(why));
            }
        }
    }
    sources_->setCurrentIndex(sources_->findData(int(source_)));
}

void CfgPanel::setNote(const QString& text) {
    note_->setText(text);
    note_->setVisible(!text.isEmpty());
}

QString CfgPanel::note() const {
    return note_->text();
}

void CfgPanel::followCaret(QsciScintilla* pane, int line) {
    QString name;
    if (pane == output_->outputEditor(MappedOutput::Sass))
        name = functionInSass(pane, line);
    else if (pane == output_->outputEditor(MappedOutput::Ptx) || pane == output_->outputEditor(MappedOutput::LtoPtx))
        name = functionInPtx(pane, line);
    else
        name = functionInIr(pane, line);
    if (name.isEmpty() || name.toStdString() == wanted_) return;
    wanted_ = name.toStdString();
    request();
}

void CfgPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (dirty_) request();
}

void CfgPanel::request() {
    ++generation_;
    newest_ = generation_;
    if (!result_) return;
    if (!isVisible()) {
        dirty_ = true;  // laid out when the dock shows
        return;
    }
    dirty_ = false;
    Job job;
    job.generation = generation_;
    job.result = result_;
    job.map = map_;
    for (const auto& m : document_->workspace().modules)
        if (!m.isBitcode()) job.irTexts.emplace_back(m.name, m.bytes);
    if (prepared_ && prepared_->result == result_ && prepared_->map == map_) job.prepared = prepared_;
    job.source = source_;
    job.function = wanted_;
    {
        std::lock_guard lock(lock_);
        pending_ = std::move(job);  // an older one still waiting is not laid out at all
    }
    wake_.notify_one();
}

void CfgPanel::workerLoop() {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(lock_);
            wake_.wait(lock, [this] { return stopping_ || pending_; });
            if (stopping_) return;
            job = std::move(*pending_);
            pending_.reset();
        }
        if (const int ms = delayMs_) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        {
            std::lock_guard lock(lock_);
            if (stopping_) return;
        }
        emit laidOutSignal(run(job));
    }
}

std::shared_ptr<const CfgLaidOut> CfgPanel::run(const Job& job) {
    auto out = std::make_shared<CfgLaidOut>();
    out->generation = job.generation;
    out->source = job.source;
    out->thread = std::this_thread::get_id();
    std::shared_ptr<const CfgPrepared> prepared = job.prepared;
    if (!prepared) {
        auto p = std::make_shared<CfgPrepared>();
        p->result = job.result;
        p->map = job.map;
        const auto& r = *job.result;
        if (!r.sass.empty() && !r.sassGraph.empty())
            p->graphs[size_t(CfgSource::Sass)] = inspect::cfgFromSass(r.sassGraph, r.sass);
        else
            p->unavailable[size_t(CfgSource::Sass)] =
                r.sassPending ? "the SASS is still being made" : (r.sass.empty() ? "no SASS" : "no SASS graph");
        p->graphs[size_t(CfgSource::Ptx)] = inspect::cfgFromPtx(r.ptx);
        p->graphs[size_t(CfgSource::LtoPtx)] = inspect::cfgFromPtx(r.linkedPtx);
        for (const auto& [name, text] : job.irTexts)
            for (auto& g : inspect::cfgFromIr(text)) {
                p->graphs[size_t(CfgSource::Ir)].push_back(std::move(g));
                p->irModules.push_back(name);
            }
        if (job.map && job.map != r.lineMap) {
            // The map came after the result: the figures of PTX and IR lines come through it.
            pipeline::CompileResult withMap = r;
            withMap.lineMap = job.map;
            p->live = pipeline::liveFigures(withMap);
        } else {
            p->live = pipeline::liveFigures(r);
        }
        prepared = std::move(p);
    }
    out->prepared = prepared;
    const auto& graphs = prepared->graphs[size_t(job.source)];
    int found = -1;
    for (int i = 0; i < int(graphs.size()) && found < 0; ++i)
        if (job.function.empty() ? graphs[size_t(i)].isEntry : graphs[size_t(i)].function == job.function) found = i;
    if (found < 0 && job.function.empty() && !graphs.empty()) found = 0;
    out->function = found >= 0 ? graphs[size_t(found)].function : job.function;
    out->graph = found;
    if (found >= 0) {
        out->layout = inspect::layoutCfg(graphs[size_t(found)], kLabelLines);
        out->pressure = blockPressures(*prepared, job.source, found);
        // Scaled to what the kernel was given: ptxas' register count, else its busiest point.
        int scale = 0;
        for (const auto& k : prepared->live.kernels)
            if (k.kernel == out->function) scale = k.registers.value_or(k.gpr);
        if (!scale)
            if (const auto* f =
                    (prepared->result->linkedPtx.empty() ? prepared->result->ptxFigures : prepared->result->ltoFigures)
                        .find(out->function))
                scale = f->registers;
        for (int p : out->pressure) scale = std::max(scale, p);
        out->scale = scale;
    }
    return out;
}

void CfgPanel::laidOut(std::shared_ptr<const CfgLaidOut> answer) {
    // Its reading of the compile is good for later requests of the same one.
    if (answer->prepared->result == result_ && answer->prepared->map == map_) prepared_ = answer->prepared;
    if (answer->generation != generation_) {
        ++dropped_;
        return;
    }
    // Whatever it is, a graph still being drawn is of an older request.
    const bool wasDrawing = drawing_ != nullptr;
    const bool sameView = [&] {
        const auto& last = wasDrawing ? drawing_ : shown_;
        return last && last->source == answer->source && last->function == answer->function;
    }();
    dropDrawing();
    if (answer->graph < 0) {
        const auto& why = answer->prepared->unavailable[size_t(answer->source)];
        setNote(answer->function.empty()
                    ? tr("No function in the %1%2.")
                          .arg(tr(sourceWords(answer->source)),
                               why.empty() ? QString() : QStringLiteral(": ") + fromStd(why))
                    : tr("%1 has no graph in the %2 (%3); the graph shown is the last one.")
                          .arg(fromStd(answer->function), tr(sourceWords(answer->source)),
                               why.empty() ? tr("inlined into its callers, or not there") : fromStd(why)));
        if (!shown_ || shown_->prepared->result != answer->prepared->result) {
            shown_.reset();
            scene_->clear();
            blocks_.clear();
            edges_.clear();
            backEdges_.clear();
            title_->clear();
        }
        emit graphShown();
        return;
    }
    if (!answer->layout.ok) {
        setNote(tr("Graphviz could not lay out %1: %2").arg(fromStd(answer->function), fromStd(answer->layout.error)));
        if (wasDrawing) shown_.reset();  // the scene was that unfinished graph's
        emit graphShown();
        return;
    }
    shown_.reset();  // until the new one is drawn (its items are the scene's from now on)
    drawing_ = std::move(answer);
    fitWhenDrawn_ = !sameView;
    if (note_->text() != tr("No SASS graph here (%1); the PTX's is shown.").arg(sassSaid_)) setNote({});
    draw();
}

const inspect::ControlFlowGraph* CfgPanel::shownGraph() const {
    if (!shown_ || shown_->graph < 0) return nullptr;
    return &shown_->prepared->graphs[size_t(shown_->source)][size_t(shown_->graph)];
}

QColor CfgPanel::heat(int figure) const {
    if (figure < 0 || scale_ <= 0) return darkTheme() ? QColor(0x3a, 0x3a, 0x3a) : QColor(0xee, 0xee, 0xee);
    const double t = std::clamp(double(figure) / scale_, 0.0, 1.0);
    // Green (few live) through yellow to red (as many as the kernel has), pale enough under text.
    return darkTheme() ? QColor::fromHsvF(float(0.33 * (1 - t)), 0.75f, float(0.35 + 0.15 * t))
                       : QColor::fromHsvF(float(0.33 * (1 - t)), float(0.22 + 0.5 * t), 1.0f);
}

const inspect::ControlFlowGraph* CfgPanel::drawingGraph() const {
    if (!drawing_ || drawing_->graph < 0) return nullptr;
    return &drawing_->prepared->graphs[size_t(drawing_->source)][size_t(drawing_->graph)];
}

void CfgPanel::dropDrawing() {
    ++drawToken_;
    if (!drawing_) return;
    drawing_.reset();
    scene_->clear();
    blocks_.clear();
    edges_.clear();
    backEdges_.clear();
}

void CfgPanel::draw() {
    // Starts drawing drawing_: the scene's frame, title and legend now, the items in slices
    // (drawSlice), then finishDraw makes it the graph shown.
    ++drawToken_;
    scene_->clear();
    blocks_.clear();
    edges_.clear();
    backEdges_.clear();
    drawnEdges_ = drawnBlocks_ = 0;
    const auto* g = drawingGraph();
    if (!g) return;
    const auto& layout = drawing_->layout;
    pressure_ = drawing_->pressure;
    scale_ = drawing_->scale;
    blockFont_ = monoFont();
    blockFont_.setPixelSize(10);  // the layout's 6 pt a character, 12 pt a line
    blockTitleFont_ = blockFont_;
    blockTitleFont_.setBold(true);
    scene_->setSceneRect(QRectF(-10, -10, layout.width + 20, layout.height + 20));

    int loops = 0;
    for (const auto& e : g->edges) loops += e.back ? 1 : 0;
    const int blocks = int(g->blocks.size());
    title_->setText(
        tr("%1 · %2 · %3 %4")
            .arg(fromStd(g->function), tr(sourceWords(drawing_->source)))
            .arg(blocks)
            .arg(blocks == 1 ? tr("block") : tr("blocks")) +
        (loops ? tr(" · %1 %2").arg(loops).arg(loops == 1 ? tr("loop edge") : tr("loop edges")) : QString()) +
        tr(" · laid out in %1 ms").arg(int(std::lround(layout.seconds * 1000))));
    // The legend: the scale the colours are on.
    QPixmap bar(60, 10);
    QPainter painter(&bar);
    for (int x = 0; x < 60; ++x) {
        painter.setPen(heat(scale_ > 0 ? int(std::lround(double(x) / 59 * scale_)) : -1));
        painter.drawLine(x, 0, x, 9);
    }
    painter.end();
    legend_->setPixmap(bar);
    legendText_->setText(scale_ > 0 ? tr("live registers 0–%1").arg(scale_) : tr("no live figures"));
    legend_->setToolTip(scale_ > 0 ? tr("Block colour: the most registers live at once in the block, from 0 (green) "
                                        "to %1, the kernel's register count (red). Grey: no figure.")
                                         .arg(scale_)
                                   : tr("No live-register figures for these lines: the blocks are grey."));
    legendText_->setToolTip(legend_->toolTip());
    // The items from the next turn of the event loop on: clearing a large scene took its own ms.
    QTimer::singleShot(0, this, [this, token = drawToken_] { drawSlice(token); });
}

void CfgPanel::drawSlice(quint64 token) {
    if (token != drawToken_) return;  // a newer graph is being drawn, or none
    const auto* g = drawingGraph();
    if (!g) return;
    QElapsedTimer slice;
    slice.start();
    const auto& layout = drawing_->layout;
    const QColor text = palette().color(QPalette::Text);
    const QColor line = darkTheme() ? QColor(0xb0, 0xb0, 0xb0) : QColor(0x55, 0x55, 0x55);
    const QColor loop(0xd3, 0x2f, 0x2f);
    const size_t edges = std::min(g->edges.size(), layout.edges.size());
    const size_t blocks = std::min(g->blocks.size(), layout.nodes.size());
    auto sliceOver = [&](size_t done) { return done % 16 == 0 && slice.elapsed() >= kDrawSliceMs; };

    for (; drawnEdges_ < edges; ++drawnEdges_) {
        if (sliceOver(drawnEdges_)) break;
        const auto& e = g->edges[drawnEdges_];
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
        scene_->addItem(item);
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
        const auto& block = g->blocks[b];
        const auto& node = layout.nodes[b];
        const QRectF r(node.centre.x - node.width / 2, node.centre.y - node.height / 2, node.width, node.height);
        const QString label = block.label.empty() ? tr("(block %1)").arg(b) : fromStd(block.label);
        std::vector<BlockItem::Text> lines{{label + QLatin1Char(':'), true, false}};
        const int shown = std::min<int>(kLabelLines, int(block.instructions.size()));
        for (int k = 0; k < shown; ++k) lines.push_back({fromStd(block.instructions[size_t(k)]), false, false});
        if (int(block.instructions.size()) > shown)
            lines.push_back({tr("… %1 more").arg(int(block.instructions.size()) - shown), false, true});
        auto* box = new BlockItem(r, std::move(lines), &blockFont_, &blockTitleFont_, text, line);
        box->setPen(QPen(line, 1));
        box->setBrush(heat(pressure_[b]));
        scene_->addItem(box);
        box->setZValue(1);
        box->setData(kKindKey, QStringLiteral("block"));
        box->setData(kBlockKey, int(b));
        box->setCursor(Qt::PointingHandCursor);
        QString tip = QStringLiteral("<b>%1</b>").arg(label.toHtmlEscaped());
        if (block.firstLine > 0)
            tip += tr("<br>%1 lines %2–%3, %4 instructions")
                       .arg(tr(sourceWords(drawing_->source)))
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
    finishDraw();
}

void CfgPanel::finishDraw() {
    shown_ = std::move(drawing_);
    updateHighlight();
    if (fitWhenDrawn_) {
        // Readable first: the whole width where that still leaves the text legible, else 3/4 size
        // with the entry in view (Fit shows all, Ctrl+wheel zooms).
        view_->setUserScale(std::clamp(view_->fitWidthScale(), 0.75, 1.0));
        if (!blocks_.isEmpty()) view_->ensureVisible(blocks_.front(), 20, 20);
    }
    emit graphShown();
}

void CfgPanel::updateHighlight() {
    const auto* g = shownGraph();
    if (!g) return;
    std::set<int> marked;
    if (const auto pane = paneOf(shown_->source)) {
        for (int l : LineMapLinks::focusedLines(output_->outputEditor(*pane)))
            marked.insert(*pane == MappedOutput::Sass ? sassListingLine(l) : l);
    } else {
        const int doc = document_->indexOf(fromStd(shown_->prepared->irModules[size_t(shown_->graph)]));
        if (auto* e = editors_->madeEditor(doc))
            for (int l : LineMapLinks::focusedLines(e)) marked.insert(l);
    }
    // Blue: no fill of the heat scale is, so a framed block stands out on any of them.
    const QColor accent = darkTheme() ? QColor(0x64, 0xb5, 0xf6) : QColor(0x15, 0x65, 0xc0);
    const QColor line = darkTheme() ? QColor(0xb0, 0xb0, 0xb0) : QColor(0x55, 0x55, 0x55);
    for (int b = 0; b < blocks_.size() && b < int(g->blocks.size()); ++b) {
        bool on = false;
        for (int l : g->blocks[size_t(b)].lines) on = on || marked.count(l);
        auto* box = static_cast<QGraphicsRectItem*>(blocks_[b]);
        if (box->data(2).toBool() == on) continue;  // a pen set on every block of a large graph costs ms
        box->setPen(on ? QPen(accent, 4) : QPen(line, 1));
        box->setData(2, on);
    }
}

std::vector<int> CfgPanel::highlightedBlocks() const {
    std::vector<int> out;
    for (int b = 0; b < blocks_.size(); ++b)
        if (blocks_[b]->data(2).toBool()) out.push_back(b);
    return out;
}

int CfgPanel::blockPressure(int block) const {
    return block >= 0 && block < int(pressure_.size()) ? pressure_[size_t(block)] : -1;
}

QList<QGraphicsItem*> CfgPanel::blockItems() const {
    return blocks_;
}

QList<QGraphicsItem*> CfgPanel::edgeItems() const {
    return edges_;
}

QList<QGraphicsItem*> CfgPanel::backEdgeItems() const {
    return backEdges_;
}

int CfgPanel::sassShownLine(int listingLine) const {
    const auto view = output_->sassView();
    return view ? view->shownLine(listingLine) : listingLine;
}

int CfgPanel::sassListingLine(int shownLine) const {
    const auto view = output_->sassView();
    if (!view) return shownLine;
    return shownLine >= 1 && shownLine <= int(view->listingLines.size()) ? view->listingLines[size_t(shownLine - 1)]
                                                                         : 0;
}

void CfgPanel::activateBlock(int block) {
    const auto* g = shownGraph();
    if (!g || block < 0 || block >= int(g->blocks.size())) return;
    const auto& b = g->blocks[size_t(block)];
    std::vector<int> lines = b.lines;
    if (lines.empty() && b.firstLine > 0)
        for (int l = b.firstLine; l <= b.lastLine; ++l) lines.push_back(l);
    if (const auto pane = paneOf(shown_->source)) {
        if (*pane == MappedOutput::Sass) {
            std::vector<int> shown;
            for (int l : lines)
                if (const int s = sassShownLine(l)) shown.push_back(s);
            lines = std::move(shown);
        }
        links_->focusOutputLines(*pane, lines);
    } else {
        links_->focusIrLines(fromStd(shown_->prepared->irModules[size_t(shown_->graph)]), lines);
    }
}

void CfgPanel::attach(CompileController* controller) {
    connect(controller, &CompileController::replyShown, this, [this](const EngineReply& reply) {
        if (reply.result) setResult(reply.result);
    });
    connect(controller, &CompileController::lateShown, this,
            [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) {
                if (result) setResult(std::move(result));
            });
    connect(controller, &CompileController::lineMapShown, this,
            [this](quint64, std::shared_ptr<const inspect::LineMap> map) { setLineMap(std::move(map)); });
}

}  // namespace nvpg::gui
