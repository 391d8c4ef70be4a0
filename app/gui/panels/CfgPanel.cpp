#include "gui/panels/CfgPanel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <set>
#include <thread>

#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QStandardItemModel>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <Qsci/qsciscintilla.h>

#include "core/support/Symbols.h"
#include "gui/common/Text.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/CaretFunction.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/HoverDocs.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/LineMapLinks.h"
#include "gui/output/OutputView.h"
#include "gui/output/Pane.h"
#include "gui/output/SymbolNames.h"

namespace nvpg::gui {

namespace {

using inspect::MappedOutput;

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

}  // namespace

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
        sources_->addItem(tr(cfgSourceWords(s)), int(s));
    of->setBuddy(sources_);
    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("cfgTitle"));
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Its text is cut to the width it gets (updateTitle), never the other way round: a numba
    // kernel's name would make the dock, and so the window, as wide as the name.
    title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    title_->installEventFilter(this);
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
    scene_ = new CfgScene(this);
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
    connect(scene_, &CfgScene::drawn, this, &CfgPanel::finishDraw);
    // An answer overtaken by a newer request is looked at too: its reading of the compile may
    // serve the newer one, and laidOut counts it dropped.
    layouts_.setStaleHandler([this](std::shared_ptr<const CfgLaidOut> answer) { answered(std::move(answer)); });
    // The names in the graph and its title follow View > Raw Symbol Names.
    connect(SymbolNames::instance(), &SymbolNames::rawChanged, this, [this] {
        updateTitle();
        request();
    });
    updateSources();
    setZoom(0);
}

CfgPanel::~CfgPanel() = default;

bool CfgPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == title_ && (event->type() == QEvent::Resize || event->type() == QEvent::FontChange)) updateTitle();
    return QWidget::eventFilter(watched, event);
}

void CfgPanel::setTitle(const std::string& function, const QString& rest) {
    titleFunction_ = function;
    titleRest_ = rest;
    updateTitle();
}

void CfgPanel::updateTitle() {
    if (titleFunction_.empty() && titleRest_.isEmpty()) {
        title_->clear();
        title_->setToolTip({});
        return;
    }
    // The name is what gives way: the figures after it stay whole while there is room for them.
    const QString name = SymbolNames::shown(titleFunction_);
    const QFontMetrics metrics = title_->fontMetrics();
    const QString rest = titleRest_.isEmpty() ? QString() : QStringLiteral(" · ") + titleRest_;
    const int width = title_->contentsRect().width();
    const int room =
        std::max(width - metrics.horizontalAdvance(rest), metrics.horizontalAdvance(QStringLiteral("x…x")));
    title_->setText(metrics.elidedText(SymbolNames::elided(name, metrics, room) + rest, Qt::ElideRight, width));
    title_->setToolTip(SymbolNames::toolTip(titleFunction_) + QLatin1Char('\n') + titleRest_);
}

QString CfgPanel::titleText() const {
    return title_->text();
}

QString CfgPanel::noteName(const std::string& function) {
    // A note wraps at spaces: a symbol has none, and readable names are cut as the title's are.
    return qstr(support::elideName(SymbolNames::shown(function).toStdString(), kCfgNameColumns));
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
    scene_->clearItems();
    scene_->forgetFigures();
    setTitle({}, {});
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
                if (!r.sassUnavailable.empty()) return tr("no SASS: %1").arg(qstr(r.sassUnavailable));
                const QString notice = output_->sassNotice();
                return notice.isEmpty() ? tr("no SASS in this compile") : notice;
            }
            if (r.sassGraph.empty())
                return r.sassGraphUnavailable.empty() ? tr("nvdisasm -bbcfg gave no graph")
                                                      : tr("no SASS graph: %1").arg(qstr(r.sassGraphUnavailable));
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
    using inspect::FunctionText;
    const auto kind =
        pane == output_->outputEditor(MappedOutput::Sass) ? FunctionText::Sass
        : pane == output_->outputEditor(MappedOutput::Ptx) || pane == output_->outputEditor(MappedOutput::LtoPtx)
            ? FunctionText::Ptx
            : FunctionText::Ir;
    // The function whose declaration holds the line; none between two functions.
    const auto at = functionAtLine(pane, line, kind);
    if (!at.inside || at.name.empty() || at.name == wanted_) return;
    wanted_ = at.name;
    request();
}

void CfgPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (dirty_) request();
}

void CfgPanel::request() {
    ++generation_;
    if (!result_) return;
    if (!isVisible()) {
        dirty_ = true;  // laid out when the dock shows
        return;
    }
    dirty_ = false;
    CfgJob job;
    job.generation = generation_;
    job.result = result_;
    job.map = map_;
    for (const auto& m : document_->workspace().modules)
        if (!m.isBitcode()) job.irTexts.emplace_back(m.name, m.bytes);
    job.rawNames = SymbolNames::instance()->raw();
    if (prepared_ && prepared_->result == result_ && prepared_->map == map_ && prepared_->rawNames == job.rawNames)
        job.prepared = prepared_;
    job.source = source_;
    job.function = wanted_;
    // An older one still waiting is not laid out at all.
    layouts_.submit(
        [job = std::move(job), delay = delayMs_](const JobToken& token) -> std::shared_ptr<const CfgLaidOut> {
            if (const int ms = *delay) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
            if (token.cancelled()) return nullptr;  // the panel is going
            return layOutCfg(job);
        },
        [this](std::shared_ptr<const CfgLaidOut> answer) { answered(std::move(answer)); });
}

void CfgPanel::answered(std::shared_ptr<const CfgLaidOut> answer) {
    if (!answer) return;
    emit laidOutSignal(answer);
    laidOut(std::move(answer));
}

void CfgPanel::laidOut(std::shared_ptr<const CfgLaidOut> answer) {
    // Its reading of the compile is good for later requests of the same one.
    if (answer->prepared->result == result_ && answer->prepared->map == map_ &&
        answer->prepared->rawNames == SymbolNames::instance()->raw())
        prepared_ = answer->prepared;
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
                          .arg(tr(cfgSourceWords(answer->source)),
                               why.empty() ? QString() : QStringLiteral(": ") + qstr(why))
                    : tr("%1 has no graph in the %2 (%3); the graph shown is the last one.")
                          .arg(noteName(answer->function), tr(cfgSourceWords(answer->source)),
                               why.empty() ? tr("inlined into its callers, or not there") : qstr(why)));
        if (!shown_ || shown_->prepared->result != answer->prepared->result) {
            shown_.reset();
            scene_->clearItems();
            setTitle({}, {});
        }
        emit graphShown();
        return;
    }
    if (!answer->layout.ok) {
        setNote(tr("Graphviz could not lay out %1: %2").arg(noteName(answer->function), qstr(answer->layout.error)));
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

void CfgPanel::dropDrawing() {
    if (!drawing_) return;
    drawing_.reset();
    scene_->clearItems();
}

void CfgPanel::draw() {
    // Starts drawing drawing_: the title and legend now, the items in slices (CfgScene), then
    // finishDraw makes it the graph shown.
    const auto& g = drawing_->prepared->graphs[size_t(drawing_->source)][size_t(drawing_->graph)];
    scene_->draw(drawing_, palette().color(QPalette::Text));
    const int scale = scene_->scale();
    int loops = 0;
    for (const auto& e : g.edges) loops += e.back ? 1 : 0;
    const int blocks = int(g.blocks.size());
    setTitle(g.function,
             tr("%1 · %2").arg(tr(cfgSourceWords(drawing_->source)), plural(blocks, tr("block"), tr("blocks"))) +
                 (loops ? tr(" · %1").arg(plural(loops, tr("loop edge"), tr("loop edges"))) : QString()) +
                 tr(" · laid out in %1 ms").arg(int(std::lround(drawing_->layout.seconds * 1000))));
    // The legend: the scale the colours are on.
    QPixmap bar(60, 10);
    QPainter painter(&bar);
    for (int x = 0; x < 60; ++x) {
        painter.setPen(scene_->heat(scale > 0 ? int(std::lround(double(x) / 59 * scale)) : -1));
        painter.drawLine(x, 0, x, 9);
    }
    painter.end();
    legend_->setPixmap(bar);
    legendText_->setText(scale > 0 ? tr("live registers 0–%1").arg(scale) : tr("no live figures"));
    legend_->setToolTip(scale > 0 ? tr("Block colour: the most registers live at once in the block, from 0 (green) "
                                       "to %1, the kernel's register count (red). Grey: no figure.")
                                        .arg(scale)
                                  : tr("No live-register figures for these lines: the blocks are grey."));
    legendText_->setToolTip(legend_->toolTip());
}

void CfgPanel::finishDraw() {
    shown_ = std::move(drawing_);
    updateHighlight();
    if (fitWhenDrawn_) {
        // Readable first: the whole width where that still leaves the text legible, else 3/4 size
        // with the entry in view (Fit shows all, Ctrl+wheel zooms).
        view_->setUserScale(std::clamp(view_->fitWidthScale(), 0.75, 1.0));
        if (const auto items = scene_->blocks(); !items.isEmpty()) view_->ensureVisible(items.front(), 20, 20);
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
        const int doc = document_->indexOf(qstr(shown_->prepared->irModules[size_t(shown_->graph)]));
        if (auto* e = editors_->madeEditor(doc))
            for (int l : LineMapLinks::focusedLines(e)) marked.insert(l);
    }
    scene_->frameBlocks(*g, marked);
}

std::vector<int> CfgPanel::highlightedBlocks() const {
    return scene_->framedBlocks();
}

int CfgPanel::blockPressure(int block) const {
    return scene_->blockPressure(block);
}

QList<QGraphicsItem*> CfgPanel::blockItems() const {
    return scene_->blocks();
}

QList<QGraphicsItem*> CfgPanel::edgeItems() const {
    return scene_->edges();
}

QList<QGraphicsItem*> CfgPanel::backEdgeItems() const {
    return scene_->backEdges();
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
        links_->focusIrLines(qstr(shown_->prepared->irModules[size_t(shown_->graph)]), lines);
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
