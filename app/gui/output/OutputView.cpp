#include "gui/output/OutputView.h"

#include <algorithm>
#include <string_view>

#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <Qsci/qsciscintilla.h>

#include "core/inspect/SassView.h"
#include "core/pipeline/Summary.h"
#include "core/support/Text.h"
#include "gui/common/Text.h"
#include "gui/compile/CompileController.h"
#include "gui/editor/HoverDocs.h"
#include "gui/editor/PtxLexer.h"
#include "gui/output/DiffPage.h"
#include "gui/output/Pane.h"
#include "gui/output/SymbolNames.h"
#include "gui/output/Turns.h"

namespace nvpg::gui {

namespace {

const QString kSep = QStringLiteral(" · ");

QLabel* makeFiguresCaption(QWidget* parent, const QString& objectName) {
    auto* l = new QLabel(parent);
    l->setObjectName(objectName);
    neverWiden(l);
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setContentsMargins(4, 0, 4, 1);
    l->setForegroundRole(QPalette::PlaceholderText);
    QFont f = l->font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    l->setFont(f);
    l->hide();
    return l;
}

pipeline::ResultSummary summarize(const pipeline::CompileResult& r, const QString& ltoUnavailable) {
    return pipeline::summarizeResult(r, ltoUnavailable.toStdString(), SymbolNames::instance()->raw());
}

}  // namespace

OutputView::OutputView(QWidget* parent) : QWidget(parent) {
    auto* top = new QVBoxLayout(this);
    top->setContentsMargins(0, 0, 0, 0);
    top->setSpacing(0);

    // Toolbar: the two diffs a PTX invites, each named for what it compares, and the export menu.
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(2, 2, 2, 2);
    diffAction_ = new QAction(tr("PTX vs Linked"), this);
    diffAction_->setObjectName(QStringLiteral("ptxVsLinked"));
    diffAction_->setCheckable(true);
    diffAction_->setToolTip(
        tr("Show the unified diff of this compile's PTX (libNVVM) and its LTO-linked PTX (nvJitLink): what the "
           "link changed"));
    connect(diffAction_, &QAction::toggled, this, &OutputView::setDiffMode);
    diffButton_ = new QToolButton(this);
    diffButton_->setObjectName(QStringLiteral("diffButton"));
    diffButton_->setDefaultAction(diffAction_);
    diffButton_->setAutoRaise(true);
    bar->addWidget(diffButton_);
    sinceLastAction_ = new QAction(tr("Since Last Compile"), this);
    sinceLastAction_->setObjectName(QStringLiteral("sinceLastCompile"));
    sinceLastAction_->setToolTip(
        tr("Show what changed in the PTX since the previous compile: the Compare dock's diff of the previous "
           "compile and this one"));
    sinceLastAction_->setEnabled(false);  // until there is a previous compile (setPreviousCompile)
    connect(sinceLastAction_, &QAction::triggered, this, &OutputView::sinceLastCompileRequested);
    auto* sinceLastButton = new QToolButton(this);
    sinceLastButton->setObjectName(QStringLiteral("sinceLastButton"));
    sinceLastButton->setDefaultAction(sinceLastAction_);
    sinceLastButton->setAutoRaise(true);
    bar->addWidget(sinceLastButton);

    export_ = new OutputExport(this, [this] { return result_; });
    connect(export_, &OutputExport::exported, this, &OutputView::exported);
    bar->addWidget(export_->button());
    bar->addStretch();
    top->addLayout(bar);

    banner_ = new QLabel(this);
    banner_->setObjectName(QStringLiteral("errorBanner"));
    neverWiden(banner_);
    banner_->setTextFormat(Qt::PlainText);
    banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner_->setStyleSheet(
        QStringLiteral("QLabel#errorBanner { background: #fde7e9; color: #8a1116; border: 1px solid #e8a3a8;"
                       " border-left: 4px solid #c42b1c; padding: 6px; font-weight: bold; }"));
    banner_->hide();
    top->addWidget(banner_);

    pages_ = new QStackedWidget(this);
    top->addWidget(pages_, 1);

    // Page 0: PTX | LTO or SASS (tabs) side by side. Three panes side by side would leave each
    // ~280 px at 1500 px, too narrow for SASS operands or for a projector's zoom; the PTX stays
    // in view, since it is what both others are compared with.
    splitter_ = new QSplitter(Qt::Horizontal, pages_);
    splitter_->setChildrenCollapsible(false);
    rightTabs_ = new QTabWidget(splitter_);
    rightTabs_->setObjectName(QStringLiteral("outputTabs"));
    rightTabs_->setDocumentMode(true);
    auto addPane = [this](const QString& name, QLabel*& header, QStackedWidget*& stack, QLabel*& notice,
                          QsciScintilla*& edit, QLabel*& figuresCaption, FiguresTable*& figures, QLabel*& mapNote,
                          QsciLexer* lexer, QWidget* parent) {
        auto* pane = new QWidget(parent);
        auto* v = new QVBoxLayout(pane);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(0);
        header = makeHeader(pane, name + QStringLiteral("Header"));
        v->addWidget(header);
        mapNote = makeFiguresCaption(pane, name + QStringLiteral("MapNote"));
        mapNote->setMaximumHeight(0);  // until there is a note (setMapNote)
        v->addWidget(mapNote);
        const auto output = name == QStringLiteral("ptx")   ? inspect::MappedOutput::Ptx
                            : name == QStringLiteral("lto") ? inspect::MappedOutput::LtoPtx
                                                            : inspect::MappedOutput::Sass;
        auto* pressure = makeFiguresCaption(pane, name + QStringLiteral("PressureNote"));
        pressure->setTextFormat(Qt::RichText);
        pressure->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
        pressure->setForegroundRole(QPalette::WindowText);
        pressure->hide();  // until there is a note (setPressureNote)
        connect(pressure, &QLabel::linkActivated, this,
                [this, output](const QString& link) { emit pressureLinkActivated(output, link); });
        pressureNotes_[int(output)] = pressure;
        v->addWidget(pressure);
        figuresCaption = makeFiguresCaption(pane, name + QStringLiteral("FiguresCaption"));
        v->addWidget(figuresCaption);
        figures = new FiguresTable(pane, name + QStringLiteral("Figures"), figuresCaption);
        v->addWidget(figures);
        stack = new QStackedWidget(pane);
        edit = makePane(stack, lexer, /*folding=*/lexer != nullptr);
        edit->setObjectName(name + QStringLiteral("Editor"));
        notice = makeNotice(stack, name + QStringLiteral("Notice"));
        stack->addWidget(edit);
        stack->addWidget(notice);
        v->addWidget(stack, 1);
        return pane;
    };
    splitter_->insertWidget(0, addPane(QStringLiteral("ptx"), ptxHeader_, ptxStack_, ptxNotice_, ptxEdit_,
                                       ptxFiguresCaption_, ptxFigures_, mapNotes_[0], new PtxLexer(), splitter_));
    rightTabs_->addTab(addPane(QStringLiteral("lto"), ltoHeader_, ltoStack_, ltoNotice_, ltoEdit_, ltoFiguresCaption_,
                               ltoFigures_, mapNotes_[1], new PtxLexer(), rightTabs_),
                       tr("LTO PTX"));
    // SASS has no lexer: nvdisasm's text reads well plain, and its comments are few.
    rightTabs_->addTab(addPane(QStringLiteral("sass"), sassHeader_, sassStack_, sassNotice_, sassEdit_,
                               sassFiguresCaption_, sassFigures_, mapNotes_[2], nullptr, rightTabs_),
                       tr("SASS"));
    sassEdit_->setMarginType(1, QsciScintilla::TextMarginRightJustified);
    sassEdit_->setMarginMarkerMask(1, 0);
    sassRawAction_ = new QAction(tr("n&vdisasm Listing"), this);
    sassRawAction_->setObjectName(QStringLiteral("rawSass"));
    sassRawAction_->setCheckable(true);
    sassRawAction_->setToolTip(
        tr("Show the SASS as nvdisasm printed it: offsets, its indentation, encodings and comments in the text"));
    sassRaw_ = QSettings().value(QStringLiteral("view/rawSass"), false).toBool();
    sassRawAction_->setChecked(sassRaw_);
    connect(sassRawAction_, &QAction::toggled, this, &OutputView::setSassRaw);
    auto* rawButton = new QToolButton(rightTabs_);
    rawButton->setObjectName(QStringLiteral("rawSassButton"));
    rawButton->setDefaultAction(sassRawAction_);
    rawButton->setAutoRaise(true);
    rightTabs_->setCornerWidget(rawButton, Qt::TopRightCorner);
    connect(rightTabs_, &QTabWidget::currentChanged, rawButton, [this, rawButton](int index) {
        rawButton->setVisible(rightTabs_->widget(index) == sassStack_->parentWidget());
    });
    rawButton->setVisible(false);
    splitter_->addWidget(rightTabs_);
    pages_->addWidget(splitter_);
    HoverDocs::install(ptxEdit_, inspect::DocContext::Ptx);
    HoverDocs::install(ltoEdit_, inspect::DocContext::Ptx);
    HoverDocs::install(sassEdit_, inspect::DocContext::Sass);
    connect(SymbolNames::instance(), &SymbolNames::rawChanged, this, [this] {
        if (!result_) return;
        summary_ = summarize(*result_, ltoUnavailable_);
        updateHeaders();
        for (auto* table : {ptxFigures_, ltoFigures_}) table->forget();  // the same figures, other names
        updateFigures();
    });

    // Page 1: the diff.
    diff_ = new DiffPage(pages_);
    pages_->addWidget(diff_);

    clear();
}

OutputView::~OutputView() = default;

void OutputView::showPtx(const EngineReply& reply) {
    if (!reply.result || reply.result->ptx.empty()) return;
    stale_ = false;
    ptxFailure_.clear();
    ltoFailure_.clear();
    result_ = reply.result;
    diffStale_ = true;
    summary_ = summarize(*result_, ltoUnavailable_);
    ptxGeneration_ = reply.generation;
    if (ltoGeneration_ != ptxGeneration_)
        ltoMark_ = ltoGeneration_ ? tr("compiling… (showing the previous compile's)") : tr("compiling…");
    updateHeaders();
    updateFigures(/*lto=*/false);
    setPaneText(ptxEdit_, std::string_view(result_->ptx));
    ptxStack_->setCurrentWidget(ptxEdit_);
    export_->updateActions();
    if (diffMode()) refreshDiff();
    showBanner({});
}

void OutputView::showReply(const EngineReply& reply) {
    stale_ = false;
    // A reply that replaces no pane leaves a PTX part's older LTO panes marked.
    if (!ltoMark_.isEmpty()) ltoMark_ = tr("not updated: this compile made no LTO output (see Problems)");
    if (!reply.result) {
        ptxFailure_.clear();
        ltoFailure_.clear();
        updateHeaders();
        showBanner(reply.error.isEmpty() ? tr("The compile gave no result.") : reply.error);
        return;
    }
    const auto& r = *reply.result;
    // A failed stage is marked on the pane its output belongs in, whichever it is.
    ptxFailure_.clear();
    ltoFailure_.clear();
    if (const auto failure = pipeline::failureOf(r))
        (failure->ltoPane ? ltoFailure_ : ptxFailure_) = qstr(failure->mark);
    if (r.ptx.empty() && r.hasErrors()) {
        // A typo should not blank the panes someone is comparing: the Problems panel has the
        // details, the last good output stays.
        updateHeaders();
        showBanner(qstr(pipeline::failureSummary(r)));
        return;
    }
    showResult(reply.result);
    ptxGeneration_ = ltoGeneration_ = reply.generation;
    // A later stage that failed (a link, the cubin) leaves this compile's PTX to look at.
    showBanner(qstr(pipeline::failureSummary(r)), /*olderOutput=*/false);
}

void OutputView::markStale(const QString& why) {
    if (!result_) return;  // no output to be stale
    stale_ = true;
    staleWhy_ = why;
    updateHeaders();
}

bool OutputView::isStale() const {
    return stale_;
}

void OutputView::showBanner(const QString& text, bool olderOutput) {
    if (text.isEmpty()) {
        banner_->clear();
        banner_->hide();
        return;
    }
    QString shown = text;
    if (result_ && olderOutput) shown += QLatin1Char('\n') + tr("Showing the output of the last successful compile.");
    banner_->setText(shown);
    banner_->show();
}

void OutputView::showResult(const std::shared_ptr<const pipeline::CompileResult>& result) {
    result_ = result;
    ltoMark_.clear();
    diffStale_ = true;
    const auto& r = *result_;
    summary_ = summarize(r, ltoUnavailable_);
    updateHeaders();
    updateFigures();
    setPaneText(ptxEdit_, std::string_view(r.ptx));
    if (!summary_.ptx.notice.empty()) {
        ptxNotice_->setText(qstr(summary_.ptx.notice));
        ptxStack_->setCurrentWidget(ptxNotice_);
    } else {
        ptxStack_->setCurrentWidget(ptxEdit_);
    }
    setPaneText(ltoEdit_, std::string_view(r.linkedPtx));
    updateLtoPane();
    showSassText(r.sass);
    export_->updateActions();
    if (diffMode()) refreshDiff();
}

void OutputView::showLate(const std::shared_ptr<const pipeline::CompileResult>& result) {
    // The same compile as on screen, with its SASS: only the SASS pane and what exports change.
    if (!result || !result_) return;
    result_ = result;
    summary_ = summarize(*result_, ltoUnavailable_);
    // The listing came before the rest (CompileController::sassShown): the text stays as it is.
    if (result_->sass != sassListing_ || result_->sass.empty()) showSassText(result_->sass);
    updateHeaders();
    export_->updateActions();
}

void OutputView::clear() {
    result_.reset();
    summary_ = {};
    ptxFailure_.clear();
    ltoFailure_.clear();
    stale_ = false;
    ltoMark_.clear();
    ptxGeneration_ = ltoGeneration_ = 0;
    diffStale_ = true;
    showBanner({});
    setPaneText(ptxEdit_, std::string_view{});
    setPaneText(ltoEdit_, std::string_view{});
    showSassText({});
    diff_->clearText();
    for (auto o : inspect::kMappedOutputs) setMapNote(o, {});
    ptxStack_->setCurrentWidget(ptxEdit_);
    ltoStack_->setCurrentWidget(ltoEdit_);
    ltoNotice_->clear();
    updateHeaders();
    updateFigures();
    export_->updateActions();
    if (diffMode()) refreshDiff();
}

void OutputView::setDiffMode(bool on) {
    {
        const QSignalBlocker block(diffAction_);
        diffAction_->setChecked(on);
    }
    if (on == diffMode()) return;
    if (on) refreshDiff();
    pages_->setCurrentIndex(on ? 1 : 0);
    emit diffModeChanged(on);
}

void OutputView::setPreviousCompile(bool exists) {
    sinceLastAction_->setEnabled(exists);
}

bool OutputView::diffMode() const {
    return pages_->currentIndex() == 1;
}

QString OutputView::ptxText() const {
    return ptxEdit_->text();
}
QString OutputView::ltoText() const {
    return ltoEdit_->text();
}
QString OutputView::ptxHeader() const {
    return ptxHeader_->text();
}
QString OutputView::ltoHeader() const {
    return ltoHeader_->text();
}
QString OutputView::sassText() const {
    return qstr(sassListing_);
}
QString OutputView::sassShownText() const {
    return sassEdit_->text();
}

void OutputView::setSassRaw(bool raw) {
    {
        const QSignalBlocker block(sassRawAction_);
        sassRawAction_->setChecked(raw);
    }
    if (raw == sassRaw_) return;
    sassRaw_ = raw;
    QSettings().setValue(QStringLiteral("view/rawSass"), raw);
    showSassText(std::string(sassListing_));
}

// The SASS pane shows nvdisasm's listing compact (inspect::compactSass: offsets in the margin,
// no indentation or encodings) or, with sassRaw_, as nvdisasm printed it. Either way the
// listing is what Export writes and sassText() gives.
void OutputView::showSassText(const std::string& listing) {
    sassListing_ = listing;
    auto* e = sassEdit_;
    if (sassRaw_ || listing.empty()) {
        sassView_.reset();
        e->clearMarginText();
        e->setMarginWidth(1, 0);
        setPaneText(e, std::string_view(listing));
    } else {
        sassView_ = std::make_shared<const inspect::SassView>(inspect::compactSass(listing));
        setPaneText(e, std::string_view(sassView_->text));
        e->clearMarginText();
        size_t widest = 0;
        for (size_t line = 0; line < sassView_->offsets.size(); ++line) {
            const auto& offset = sassView_->offsets[line];
            if (offset.empty()) continue;
            widest = std::max(widest, offset.size());
            // Right-justified, with a space before the instruction.
            e->setMarginText(int(line), qstr(offset) + QLatin1Char(' '), QsciScintillaBase::STYLE_LINENUMBER);
        }
        // The offset is the address people quote for SASS; the view's line numbers are nobody's.
        e->setMarginWidth(0, 0);
        e->setMarginWidth(1, QString(int(std::max<size_t>(widest, 4)) + 2, QLatin1Char('0')));
    }
    emit sassDisplayChanged();
}
QString OutputView::sassHeader() const {
    return sassHeader_->text();
}
QString OutputView::sassNotice() const {
    return sassStack_->currentWidget() == sassNotice_ ? sassNotice_->text() : QString();
}

void OutputView::showSassTab(bool sass) {
    rightTabs_->setCurrentIndex(sass ? 1 : 0);
}

bool OutputView::sassTabShown() const {
    return rightTabs_->currentIndex() == 1;
}

void OutputView::showOnly(std::optional<inspect::MappedOutput> output) {
    splitter_->widget(0)->setVisible(!output || *output == inspect::MappedOutput::Ptx);
    rightTabs_->setVisible(!output || *output != inspect::MappedOutput::Ptx);
    if (output && *output != inspect::MappedOutput::Ptx) showSassTab(*output == inspect::MappedOutput::Sass);
}

void OutputView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::FontChange) return;
    // Once the tables and their headers have the new font too.
    QMetaObject::invokeMethod(
        this,
        [this] {
            for (auto* table : {ptxFigures_, ltoFigures_, sassFigures_})
                if (table) table->followFont();
            for (auto* table : {ptxFigures_, ltoFigures_}) table->forget();  // the heights follow the font
            if (result_) updateFigures();
        },
        Qt::QueuedConnection);
}

QsciScintilla* OutputView::outputEditor(inspect::MappedOutput output) const {
    switch (output) {
        case inspect::MappedOutput::Ptx:
            return ptxEdit_;
        case inspect::MappedOutput::LtoPtx:
            return ltoEdit_;
        case inspect::MappedOutput::Sass:
            return sassEdit_;
    }
    return nullptr;
}

void OutputView::setMapNote(inspect::MappedOutput output, const QString& note) {
    QLabel* label = mapNotes_[int(output)];
    label->setText(note);
    label->setToolTip(note);
    // Folded to no height when empty, never hidden: showing a widget lays out every layout up to
    // the window then and there (5 ms of a reply's turn with a 49,000-line PTX pane); a new
    // maximum height asks for a layout in a later turn.
    label->setMaximumHeight(note.isEmpty() ? 0 : QWIDGETSIZE_MAX);
}

void OutputView::setPressureNote(inspect::MappedOutput output, const QString& html, const QString& toolTip) {
    QLabel* label = pressureNotes_[int(output)];
    label->setText(html);
    label->setToolTip(toolTip);
    label->setVisible(!html.isEmpty());
}

QString OutputView::pressureNote(inspect::MappedOutput output) const {
    return pressureNotes_[int(output)]->text();
}

QString OutputView::mapNote(inspect::MappedOutput output) const {
    return mapNotes_[int(output)]->text();
}

// The SASS pane: its text, or why there is none; its header and per-kernel table come from
// nvdisasm's listing and the figures of the same cubin.
void OutputView::updateSassPane() {
    // A PTX part has no SASS yet: the older compile's stays, marked, until this one's comes.
    if (result_ && result_->partial) return;
    pipeline::FiguresTable table;
    if (!result_) {
        sassHeader_->setText(tr("SASS"));
        sassHeader_->setToolTip(tr("nvdisasm of the cubin the compile ends with (LTO's, else the PTX's)"));
        sassNotice_->clear();
        sassStack_->setCurrentWidget(sassEdit_);
        sassFigures_->fill(table);
        return;
    }
    const auto& r = *result_;
    if (r.sass.empty()) {
        sassHeader_->setText(tr("SASS"));
        sassHeader_->setToolTip({});
        const QString why = r.sassPending                 ? tr("Disassembling the cubin (nvdisasm)…")
                            : !r.sassUnavailable.empty()  ? qstr(r.sassUnavailable)
                            : r.ptx.empty()               ? tr("No SASS: there is no PTX.")
                            : !sassUnavailable_.isEmpty() ? sassUnavailable_
                                                          : tr("No SASS was made for this compile.");
        sassNotice_->setText(why);
        sassStack_->setCurrentWidget(sassNotice_);
        sassFigures_->fill(table);
        return;
    }
    int instructions = 0, kernels = 0;
    for (const auto& f : r.sassFunctions) {
        instructions += f.instructions;
        if (f.isEntry) ++kernels;
    }
    QString header = tr("SASS") + kSep + qstr(support::formatBytes(r.sass.size())) + kSep +
                     plural(kernels, tr("kernel"), tr("kernels")) + kSep +
                     plural(instructions, tr("instruction"), tr("instructions"));
    sassHeader_->setText(header);
    sassHeader_->setToolTip(qstr(r.sassSource));
    // Registers are ptxas' figures of the same cubin: the LTO link's when there is one.
    const pipeline::Figures& figures = r.cubin.empty() ? r.ptxFigures : r.ltoFigures;
    table.caption = r.sassSource.empty() ? std::string() : tr("Made by %1").arg(qstr(r.sassSource)).toStdString();
    table.columns = {tr("Function").toStdString(), tr("Registers").toStdString(), tr("Instructions").toStdString()};
    QStringList suffixes;
    for (const auto& f : r.sassFunctions) {
        const auto* usage = figures.find(f.name);
        table.rows.push_back({f.name, usage ? std::to_string(usage->registers) : "–", std::to_string(f.instructions)});
        suffixes << (f.isEntry ? QString() : tr(" (device)"));
    }
    sassFigures_->fill(table, suffixes);
    sassNotice_->clear();
    sassStack_->setCurrentWidget(sassEdit_);
}

QString OutputView::ptxHeaderToolTip() const {
    return ptxHeader_->toolTip();
}
QString OutputView::ltoHeaderToolTip() const {
    return ltoHeader_->toolTip();
}

QString OutputView::ptxFiguresCaption() const {
    return ptxFiguresCaption_->isHidden() ? QString() : ptxFiguresCaption_->text();
}
QString OutputView::ltoFiguresCaption() const {
    return ltoFiguresCaption_->isHidden() ? QString() : ltoFiguresCaption_->text();
}

QsciScintilla* OutputView::diffEditor() const {
    return diff_->editor();
}

QString OutputView::diffText() const {
    refreshDiff();
    return diff_->text();
}

QString OutputView::diffHeader() const {
    refreshDiff();
    return diff_->header();
}

QString OutputView::errorText() const {
    return banner_->isHidden() ? QString() : banner_->text();
}

QString OutputView::ltoNotice() const {
    return ltoStack_->currentWidget() == ltoNotice_ ? ltoNotice_->text() : QString();
}

void OutputView::setLtoUnavailableReason(const QString& why) {
    ltoUnavailable_ = why;
    if (!result_) return;
    summary_ = summarize(*result_, ltoUnavailable_);
    updateLtoPane();
}

void OutputView::setSassUnavailableReason(const QString& why) {
    sassUnavailable_ = why;
    updateSassPane();
}

void OutputView::updateHeaders() {
    updateSassPane();
    if (!result_) {
        ptxHeader_->setText(tr("PTX"));
        ptxHeader_->setToolTip(tr("libNVVM's PTX of the whole program"));
        ltoHeader_->setText(tr("LTO"));
        ltoHeader_->setToolTip(tr("nvJitLink's LTO link of the program's LTO-IR"));
    } else {
        ptxHeader_->setText(qstr(summary_.ptx.header));
        ptxHeader_->setToolTip(qstr(summary_.ptx.toolTip));
        ltoHeader_->setText(qstr(summary_.lto.header));
        ltoHeader_->setToolTip(qstr(summary_.lto.toolTip));
    }
    // What the pane's text is, right after its name: a failed stage, output from before a cancel.
    const QString sep = QStringLiteral(" · ");
    auto mark = [&](QLabel* header, const QString& failure) {
        QString text = header->text();
        int at = text.indexOf(sep);
        if (at < 0) at = int(text.size());
        QString words;
        if (!failure.isEmpty()) words += sep + QStringLiteral("✗ ") + failure;
        if (stale_) words += sep + staleWhy_;
        text.insert(at, words);
        header->setText(text);
        header->setProperty("failed", !failure.isEmpty());
        header->setProperty("stale", stale_);
        header->setStyleSheet(!failure.isEmpty() ? QStringLiteral("color: #b3261e;")
                              : stale_           ? QStringLiteral("color: palette(mid);")
                                                 : QString());
    };
    mark(ptxHeader_, ptxFailure_);
    mark(ltoHeader_, ltoFailure_);
    mark(sassHeader_, {});
    // The older compile's LTO and SASS beside a newer PTX: greyed, and saying it.
    if (!ltoMark_.isEmpty()) {
        for (auto* header : {ltoHeader_, sassHeader_}) {
            header->setText(header == ltoHeader_ ? tr("LTO · %1").arg(ltoMark_) : tr("SASS · %1").arg(ltoMark_));
            header->setProperty("stale", true);
            header->setStyleSheet(QStringLiteral("color: palette(mid);"));
        }
    }
}

void OutputView::fillFigures(int table) {
    if (table == 0)
        ptxFigures_->fillIfChanged(summary_.ptx.figures);
    else
        ltoFigures_->fillIfChanged(summary_.lto.figures);
}

void OutputView::updateFigures(bool lto) {
    const quint64 turn = ++figuresTurn_;
    const size_t rows = summary_.ptx.figures.rows.size() + (lto ? summary_.lto.figures.rows.size() : 0);
    if (rows <= kRowsPerTurn) {
        fillFigures(0);
        if (lto) fillFigures(1);
        return;
    }
    runInLaterTurn(this, [this, turn] {
        if (turn == figuresTurn_) fillFigures(0);  // else a newer reply's figures replaced these
    });
    if (lto)
        runInLaterTurn(this, [this, turn] {
            if (turn == figuresTurn_) fillFigures(1);
        });
}

void OutputView::updateLtoPane() {
    if (!result_ || summary_.lto.notice.empty()) {
        ltoNotice_->clear();
        ltoStack_->setCurrentWidget(ltoEdit_);
        return;
    }
    ltoNotice_->setText(qstr(summary_.lto.notice));
    ltoStack_->setCurrentWidget(ltoNotice_);
}

void OutputView::refreshDiff() const {
    if (!diffStale_) return;
    diffStale_ = false;
    diff_->compare(result_.get(), ltoNotice());
}

void OutputView::exportPtx() {
    export_->exportWithDialog(Kind::Ptx);
}
void OutputView::exportLtoIr() {
    export_->exportWithDialog(Kind::LtoIr);
}
void OutputView::exportLinkedPtx() {
    export_->exportWithDialog(Kind::LinkedPtx);
}
void OutputView::exportCubin() {
    export_->exportWithDialog(Kind::Cubin);
}
void OutputView::exportSass() {
    export_->exportWithDialog(Kind::Sass);
}

void OutputView::attach(CompileController* controller) {
    const auto show = [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) { showLate(result); };
    connect(controller, &CompileController::lateShown, this, show);
    connect(controller, &CompileController::sassShown, this, show);
}

}  // namespace nvpg::gui
