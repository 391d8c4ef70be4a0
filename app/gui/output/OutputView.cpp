#include "gui/output/OutputView.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include <QAction>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFontInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QResizeEvent>
#include <QSaveFile>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <Qsci/qscilexerdiff.h>
#include <Qsci/qsciscintilla.h>

#include "core/inspect/SassView.h"
#include "core/pipeline/Summary.h"
#include "core/support/Diff.h"
#include "core/support/Text.h"
#include "gui/compile/CompileController.h"
#include "gui/document/FileChecks.h"
#include "gui/editor/HoverDocs.h"
#include "gui/editor/PtxLexer.h"
#include "gui/output/Pane.h"
#include "gui/output/SymbolNames.h"
#include "gui/output/Turns.h"

namespace nvpg::gui {

namespace {

const QString kSep = QStringLiteral(" · ");

QString fromStd(const std::string& s) {
    return QString::fromStdString(s);
}

QString plural(qsizetype n, const QString& one, const QString& many) {
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

// Labels whose text can hold kernel names or a libNVVM message: they wrap to the width they get
// and never ask for more (a word-wrapping label asks for its longest word: a mangled symbol).
void neverWiden(QLabel* l) {
    l->setWordWrap(true);
    l->setSizePolicy(QSizePolicy::Ignored, l->sizePolicy().verticalPolicy());
}

QLabel* makeHeader(QWidget* parent, const QString& objectName) {
    auto* l = new QLabel(parent);
    l->setObjectName(objectName);
    neverWiden(l);
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setContentsMargins(4, 2, 4, 2);
    QFont f = l->font();
    f.setBold(true);
    l->setFont(f);
    return l;
}

QLabel* makeNotice(QWidget* parent, const QString& objectName) {
    auto* l = new QLabel(parent);
    l->setObjectName(objectName);
    neverWiden(l);
    l->setTextFormat(Qt::PlainText);
    l->setAlignment(Qt::AlignCenter);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setMargin(16);
    l->setForegroundRole(QPalette::PlaceholderText);
    return l;
}

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

// A compact read-only table, as tall as its rows up to a few (then it scrolls). Its first column
// holds kernel names: at most kNameColumnChars wide, cut in the middle (the tooltip has it whole),
// and a person can drag it wider; the figures take their contents' width, and a table wider than
// its pane scrolls rather than widening the window.
constexpr int kNameColumnChars = 36;

// The name column's width: its contents', at most kNameColumnChars, and short of the table's
// visible width by its first figure, so that a figure always shows beside the name however narrow
// the pane (on the H200 the PTX pane's table of a 1280x720 window was 148 px wide; with wide
// glyphs, 68 px).
void capNameColumn(QTableWidget* table) {
    if (table->columnCount() < 2) return;
    const int chars = table->fontMetrics().averageCharWidth();
    const int width = table->viewport()->width();
    auto* header = table->horizontalHeader();
    int cap = std::max(8 * chars, std::min(kNameColumnChars * chars, width - 6 * chars));
    // A table narrower than the floor of eight characters still shows its first figure: the name
    // gives way, down to two characters.
    cap = std::min(cap, std::max(2 * chars, width - header->sectionSize(1) - chars));
    table->resizeColumnToContents(0);
    header->resizeSection(0, std::min(header->sectionSize(0), cap));
}

// Caps the name column again whenever the table's visible width changes (the splitter, the
// window, a dock): the cap set when the rows came in was for the width the table had then.
class NameColumnCap : public QObject {
public:
    explicit NameColumnCap(QTableWidget* table) : QObject(table), table_(table) {
        table->viewport()->installEventFilter(this);
    }
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Resize && watched == table_->viewport()) {
            const auto* resize = static_cast<QResizeEvent*>(event);
            if (resize->size().width() != resize->oldSize().width()) capNameColumn(table_);
        }
        return false;
    }

private:
    QTableWidget* table_;
};

QTableWidget* makeFiguresTable(QWidget* parent, const QString& objectName) {
    auto* t = new QTableWidget(parent);
    t->setObjectName(objectName);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setFocusPolicy(Qt::ClickFocus);
    t->verticalHeader()->hide();
    t->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 2);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Columns are sized from the rows on screen and kSizingRows more, not from every row: a large
    // module's table has hundreds (a figure is as wide in row 500 as in row 5; a name is capped).
    constexpr int kSizingRows = 100;
    t->horizontalHeader()->setResizeContentsPrecision(kSizingRows);
    t->verticalHeader()->setResizeContentsPrecision(kSizingRows);
    t->horizontalHeader()->setStretchLastSection(false);
    t->setTextElideMode(Qt::ElideMiddle);
    SymbolNames::elideColumn(t, 0);
    t->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    t->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    new NameColumnCap(t);
    t->hide();
    return t;
}

// The rows' first cells are symbols, shown as SymbolNames says with `suffixes` (by row) after them.
void fillFiguresTable(QTableWidget* table, QLabel* caption, const pipeline::FiguresTable& figures,
                      const QStringList& suffixes = {}) {
    caption->setText(fromStd(figures.caption));
    caption->setVisible(!figures.caption.empty());
    // Sized once when filled: a header that sizes its columns to their contents does so after every
    // cell set, which took 40-90 ms of the UI thread for the 85 kernels of a 3,000-line module.
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->clear();
    table->setColumnCount(int(figures.columns.size()));
    table->setRowCount(int(figures.rows.size()));
    QStringList headers;
    for (const auto& c : figures.columns) headers << fromStd(c);
    table->setHorizontalHeaderLabels(headers);
    for (int row = 0; row < table->rowCount(); ++row) {
        const auto& cells = figures.rows[size_t(row)];
        for (int col = 0; col < table->columnCount() && col < int(cells.size()); ++col) {
            auto* item = new QTableWidgetItem;
            if (col == 0)
                SymbolNames::setCell(item, cells[0], suffixes.value(row));
            else
                item->setText(fromStd(cells[size_t(col)]));
            item->setTextAlignment(col == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
            table->setItem(row, col, item);
        }
    }
    table->setVisible(!figures.rows.empty());
    if (table->columnCount() > 0) {
        auto* header = table->horizontalHeader();
        header->setSectionResizeMode(QHeaderView::ResizeToContents);
        header->setSectionResizeMode(0, QHeaderView::Interactive);
        capNameColumn(table);
    }
    if (!figures.rows.empty()) {
        constexpr int kVisibleRows = 4;
        const int rows = std::min(table->rowCount(), kVisibleRows);
        // Room for the scroll bar only where the columns are wider than the pane.
        const int scrollBar = table->horizontalHeader()->length() > table->viewport()->width()
                                  ? table->horizontalScrollBar()->sizeHint().height()
                                  : 0;
        table->setFixedHeight(table->horizontalHeader()->sizeHint().height() +
                              rows * table->verticalHeader()->defaultSectionSize() + 2 * table->frameWidth() +
                              scrollBar);
    }
    // The pane below gets its new height now, before its text is replaced: the scroll position
    // it keeps is clamped to the height it will have (headers are set before, for the same reason).
    if (auto* layout = table->parentWidget()->layout()) layout->activate();
}

pipeline::ResultSummary summarize(const pipeline::CompileResult& r, const QString& ltoUnavailable) {
    return pipeline::summarizeResult(r, ltoUnavailable.toStdString(), SymbolNames::instance()->raw());
}

struct ExportSpec {
    const char* title;
    const char* filter;
};

ExportSpec exportSpec(OutputView::Kind kind) {
    switch (kind) {
        case OutputView::Kind::Ptx:
            return {QT_TRANSLATE_NOOP("nvpg::gui::OutputView", "Export PTX"),
                    QT_TRANSLATE_NOOP("nvpg::gui::OutputView", "PTX (*.ptx);;All files (*)")};
        case OutputView::Kind::LtoIr:
            return {QT_TRANSLATE_NOOP("nvpg::gui::OutputView", "Export LTO-IR"),
                    QT_TRANSLATE_NOOP("nvpg::gui::OutputView", "LTO-IR (*.ltoir);;All files (*)")};
        case OutputView::Kind::LinkedPtx:
            return {QT_TRANSLATE_NOOP("nvpg::gui::OutputView", "Export linked PTX"),
                    QT_TRANSLATE_NOOP("nvpg::gui::OutputView", "PTX (*.ptx);;All files (*)")};
        case OutputView::Kind::Cubin:
            return {QT_TRANSLATE_NOOP("nvpg::gui::OutputView", "Export cubin"),
                    QT_TRANSLATE_NOOP("nvpg::gui::OutputView", "cubin (*.cubin);;All files (*)")};
        case OutputView::Kind::Sass:
            return {QT_TRANSLATE_NOOP("nvpg::gui::OutputView", "Export SASS"),
                    QT_TRANSLATE_NOOP("nvpg::gui::OutputView", "SASS (*.sass);;All files (*)")};
    }
    return {"", ""};
}

}  // namespace

OutputView::OutputView(QWidget* parent) : QWidget(parent) {
    exportDir_ = QDir::homePath();

    auto* top = new QVBoxLayout(this);
    top->setContentsMargins(0, 0, 0, 0);
    top->setSpacing(0);

    // Toolbar: the diff toggle and the export menu.
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(2, 2, 2, 2);
    diffAction_ = new QAction(tr("Diff"), this);
    diffAction_->setCheckable(true);
    diffAction_->setToolTip(tr("Show the unified diff of the PTX and the LTO-linked PTX"));
    connect(diffAction_, &QAction::toggled, this, &OutputView::setDiffMode);
    diffButton_ = new QToolButton(this);
    diffButton_->setObjectName(QStringLiteral("diffButton"));
    diffButton_->setDefaultAction(diffAction_);
    diffButton_->setAutoRaise(true);
    bar->addWidget(diffButton_);

    auto* exportMenu = new QMenu(this);
    const std::pair<Kind, QString> exportTexts[] = {
        {Kind::Ptx, tr("Export PTX…")},
        {Kind::LtoIr, tr("Export LTO-IR…")},
        {Kind::LinkedPtx, tr("Export linked PTX…")},
        {Kind::Cubin, tr("Export cubin…")},
        {Kind::Sass, tr("Export SASS…")},
    };
    for (const auto& [kind, text] : exportTexts) {
        auto* a = exportMenu->addAction(text);
        a->setEnabled(false);
        connect(a, &QAction::triggered, this, [this, kind = kind] { exportWithDialog(kind); });
        exportActions_[int(kind)] = a;
    }
    exportButton_ = new QToolButton(this);
    exportButton_->setObjectName(QStringLiteral("exportButton"));
    exportButton_->setText(tr("Export"));
    exportButton_->setMenu(exportMenu);
    exportButton_->setPopupMode(QToolButton::InstantPopup);
    exportButton_->setAutoRaise(true);
    exportButton_->setEnabled(false);
    bar->addWidget(exportButton_);
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
                          QsciScintilla*& edit, QLabel*& figuresCaption, QTableWidget*& figures, QLabel*& mapNote,
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
        figures = makeFiguresTable(pane, name + QStringLiteral("Figures"));
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
        for (auto& filled : filledFigures_) filled.clear();  // the same figures, other names
        updateFigures();
    });

    // Page 1: the diff.
    auto* diffPage = new QWidget(pages_);
    auto* dv = new QVBoxLayout(diffPage);
    dv->setContentsMargins(0, 0, 0, 0);
    dv->setSpacing(0);
    diffHeader_ = makeHeader(diffPage, QStringLiteral("diffHeader"));
    dv->addWidget(diffHeader_);
    diffStack_ = new QStackedWidget(diffPage);
    auto* diffLexer = new QsciLexerDiff();
    // Whole-line backgrounds, as code review tools show diffs: removed and added lines stand out
    // at a glance in a long PTX.
    const struct {
        int style;
        QColor fore, paper;
    } diffColours[] = {
        {QsciLexerDiff::LineRemoved, QColor(0x82, 0x07, 0x1e), QColor(0xff, 0xeb, 0xe9)},
        {QsciLexerDiff::LineAdded, QColor(0x11, 0x63, 0x29), QColor(0xe6, 0xff, 0xec)},
        {QsciLexerDiff::Position, QColor(0x57, 0x60, 0x6a), QColor(0xdd, 0xf4, 0xff)},
    };
    for (const auto& c : diffColours) {
        diffLexer->setColor(c.fore, c.style);
        diffLexer->setPaper(c.paper, c.style);
        diffLexer->setEolFill(true, c.style);
    }
    diffEdit_ = makePane(diffStack_, diffLexer, /*folding=*/true);
    diffEdit_->setObjectName(QStringLiteral("diffEditor"));
    diffNotice_ = makeNotice(diffStack_, QStringLiteral("diffNotice"));
    diffStack_->addWidget(diffEdit_);
    diffStack_->addWidget(diffNotice_);
    dv->addWidget(diffStack_, 1);
    pages_->addWidget(diffPage);

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
    updateActions();
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
        (failure->ltoPane ? ltoFailure_ : ptxFailure_) = fromStd(failure->mark);
    if (r.ptx.empty() && r.hasErrors()) {
        // A typo should not blank the panes someone is comparing: the Problems panel has the
        // details, the last good output stays.
        updateHeaders();
        showBanner(fromStd(pipeline::failureSummary(r)));
        return;
    }
    showResult(reply.result);
    ptxGeneration_ = ltoGeneration_ = reply.generation;
    // A later stage that failed (a link, the cubin) leaves this compile's PTX to look at.
    showBanner(fromStd(pipeline::failureSummary(r)), /*olderOutput=*/false);
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
        ptxNotice_->setText(fromStd(summary_.ptx.notice));
        ptxStack_->setCurrentWidget(ptxNotice_);
    } else {
        ptxStack_->setCurrentWidget(ptxEdit_);
    }
    setPaneText(ltoEdit_, std::string_view(r.linkedPtx));
    updateLtoPane();
    showSassText(r.sass);
    updateActions();
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
    updateActions();
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
    setPaneText(diffEdit_, std::string_view{});
    for (auto o : inspect::kMappedOutputs) setMapNote(o, {});
    ptxStack_->setCurrentWidget(ptxEdit_);
    ltoStack_->setCurrentWidget(ltoEdit_);
    ltoNotice_->clear();
    updateHeaders();
    updateFigures();
    updateActions();
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
    return fromStd(sassListing_);
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
            e->setMarginText(int(line), fromStd(offset) + QLatin1Char(' '), QsciScintillaBase::STYLE_LINENUMBER);
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
                if (table) table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 2);
            for (auto& filled : filledFigures_) filled.clear();  // the heights follow the font
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
        fillFiguresTable(sassFigures_, sassFiguresCaption_, table);
        return;
    }
    const auto& r = *result_;
    if (r.sass.empty()) {
        sassHeader_->setText(tr("SASS"));
        sassHeader_->setToolTip({});
        const QString why = r.sassPending                 ? tr("Disassembling the cubin (nvdisasm)…")
                            : !r.sassUnavailable.empty()  ? fromStd(r.sassUnavailable)
                            : r.ptx.empty()               ? tr("No SASS: there is no PTX.")
                            : !sassUnavailable_.isEmpty() ? sassUnavailable_
                                                          : tr("No SASS was made for this compile.");
        sassNotice_->setText(why);
        sassStack_->setCurrentWidget(sassNotice_);
        fillFiguresTable(sassFigures_, sassFiguresCaption_, table);
        return;
    }
    int instructions = 0, kernels = 0;
    for (const auto& f : r.sassFunctions) {
        instructions += f.instructions;
        if (f.isEntry) ++kernels;
    }
    QString header = tr("SASS") + kSep + fromStd(support::formatBytes(r.sass.size())) + kSep +
                     plural(kernels, tr("kernel"), tr("kernels")) + kSep +
                     plural(instructions, tr("instruction"), tr("instructions"));
    sassHeader_->setText(header);
    sassHeader_->setToolTip(fromStd(r.sassSource));
    // Registers are ptxas' figures of the same cubin: the LTO link's when there is one.
    const pipeline::Figures& figures = r.cubin.empty() ? r.ptxFigures : r.ltoFigures;
    table.caption = r.sassSource.empty() ? std::string() : tr("Made by %1").arg(fromStd(r.sassSource)).toStdString();
    table.columns = {tr("Function").toStdString(), tr("Registers").toStdString(), tr("Instructions").toStdString()};
    QStringList suffixes;
    for (const auto& f : r.sassFunctions) {
        const auto* usage = figures.find(f.name);
        table.rows.push_back({f.name, usage ? std::to_string(usage->registers) : "–", std::to_string(f.instructions)});
        suffixes << (f.isEntry ? QString() : tr(" (device)"));
    }
    fillFiguresTable(sassFigures_, sassFiguresCaption_, table, suffixes);
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

QString OutputView::diffText() const {
    refreshDiff();
    return diffEdit_->text();
}

QString OutputView::diffHeader() const {
    refreshDiff();
    return diffHeader_->text();
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
        ptxHeader_->setText(fromStd(summary_.ptx.header));
        ptxHeader_->setToolTip(fromStd(summary_.ptx.toolTip));
        ltoHeader_->setText(fromStd(summary_.lto.header));
        ltoHeader_->setToolTip(fromStd(summary_.lto.toolTip));
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

namespace {
std::vector<std::string> flatten(const pipeline::FiguresTable& figures) {
    std::vector<std::string> out{figures.caption};
    out.insert(out.end(), figures.columns.begin(), figures.columns.end());
    for (const auto& row : figures.rows) {
        out.push_back({});  // a row's start: cells cannot run into the next row
        out.insert(out.end(), row.begin(), row.end());
    }
    return out;
}
}  // namespace

void OutputView::fillFigures(int table) {
    const auto& figures = table == 0 ? summary_.ptx.figures : summary_.lto.figures;
    auto flat = flatten(figures);
    if (flat == filledFigures_[table]) return;
    if (table == 0)
        fillFiguresTable(ptxFigures_, ptxFiguresCaption_, figures);
    else
        fillFiguresTable(ltoFigures_, ltoFiguresCaption_, figures);
    filledFigures_[table] = std::move(flat);
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
    ltoNotice_->setText(fromStd(summary_.lto.notice));
    ltoStack_->setCurrentWidget(ltoNotice_);
}

void OutputView::updateActions() {
    bool any = false;
    for (int k = 0; k < int(std::size(exportActions_)); ++k) {
        const bool can = canExport(Kind(k));
        exportActions_[k]->setEnabled(can);
        any = any || can;
    }
    exportButton_->setEnabled(any);
}

void OutputView::refreshDiff() const {
    if (!diffStale_) return;
    diffStale_ = false;
    auto showNotice = [&](const QString& header, const QString& text) {
        setPaneText(diffEdit_, std::string_view{});
        diffHeader_->setText(header);
        diffNotice_->setText(text);
        diffStack_->setCurrentWidget(diffNotice_);
    };
    const QString title = tr("PTX → linked PTX");
    if (!result_) return showNotice(title, tr("Nothing compiled yet."));
    if (result_->ptx.empty()) return showNotice(title, tr("No PTX to compare."));
    if (result_->linkedPtx.empty()) {
        const QString why = ltoNotice();
        return showNotice(title, tr("No linked PTX to compare the PTX with.") +
                                     (why.isEmpty() ? QString() : QStringLiteral("\n\n") + why));
    }
    const auto diff = support::unifiedDiff(result_->ptx, result_->linkedPtx, tr("PTX (libNVVM)").toStdString(),
                                           tr("linked PTX (nvJitLink LTO)").toStdString());
    if (diff.text.empty()) return showNotice(title, tr("The linked PTX is the same as the PTX."));
    diffHeader_->setText(QStringLiteral("%1%2−%3 +%4 lines in %5")
                             .arg(title, kSep)
                             .arg(diff.removed)
                             .arg(diff.added)
                             .arg(plural(diff.hunks, tr("hunk"), tr("hunks"))));
    setPaneText(diffEdit_, std::string_view(diff.text));
    diffStack_->setCurrentWidget(diffEdit_);
}

bool OutputView::canExport(Kind kind) const {
    if (!result_) return false;
    switch (kind) {
        case Kind::Ptx:
            return !result_->ptx.empty();
        case Kind::LtoIr:
            return std::any_of(result_->ltoIr.begin(), result_->ltoIr.end(),
                               [](const auto& b) { return !b.bytes.empty(); });
        case Kind::LinkedPtx:
            return !result_->linkedPtx.empty();
        case Kind::Cubin:
            return !result_->cubin.empty();
        case Kind::Sass:
            return !result_->sass.empty();
    }
    return false;
}

QAction* OutputView::exportAction(Kind kind) const {
    return exportActions_[int(kind)];
}

QStringList OutputView::exportPaths(Kind kind, const QString& path) const {
    if (kind != Kind::LtoIr || !result_ || result_->ltoIr.size() <= 1) return {path};
    std::vector<std::string> modules;
    for (const auto& blob : result_->ltoIr) modules.push_back(blob.name);
    QStringList paths;
    for (const auto& p : pipeline::perModulePaths(path.toStdString(), modules)) paths << fromStd(p);
    return paths;
}

bool OutputView::exportTo(Kind kind, const QString& path, QString* error) {
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        return false;
    };
    if (!canExport(kind)) return fail(tr("There is nothing to export: compile first."));
    std::vector<const std::string*> contents;
    switch (kind) {
        case Kind::Ptx:
            contents = {&result_->ptx};
            break;
        case Kind::LinkedPtx:
            contents = {&result_->linkedPtx};
            break;
        case Kind::Cubin:
            contents = {&result_->cubin};
            break;
        case Kind::Sass:
            contents = {&result_->sass};
            break;
        case Kind::LtoIr:
            for (const auto& blob : result_->ltoIr) contents.push_back(&blob.bytes);
            break;
    }
    const QStringList paths = exportPaths(kind, path);
    for (qsizetype i = 0; i < paths.size(); ++i) {
        const std::string& bytes = *contents[size_t(i)];
        // Never onto a FIFO (it would wait for a reader) or a device.
        if (const auto why = notRegularFile(paths[i]); !why.isEmpty()) return fail(why);
        // QSaveFile: a failed or interrupted export leaves any earlier file of that name whole.
        QSaveFile file(paths[i]);
        if (!file.open(QIODevice::WriteOnly))
            return fail(tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(paths[i]), file.errorString()));
        if (file.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()) || !file.commit())
            return fail(tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(paths[i]), file.errorString()));
    }
    emit exported(paths);
    return true;
}

void OutputView::setExportBaseName(const QString& base) {
    const QFileInfo fi(base);
    if (fi.isAbsolute()) exportDir_ = fi.absolutePath();
    const QString stem = fi.completeBaseName();
    exportBase_ = stem.isEmpty() ? QStringLiteral("program") : stem;
}

void OutputView::exportPtx() {
    exportWithDialog(Kind::Ptx);
}
void OutputView::exportLtoIr() {
    exportWithDialog(Kind::LtoIr);
}
void OutputView::exportLinkedPtx() {
    exportWithDialog(Kind::LinkedPtx);
}
void OutputView::exportCubin() {
    exportWithDialog(Kind::Cubin);
}
void OutputView::exportSass() {
    exportWithDialog(Kind::Sass);
}

void OutputView::exportWithDialog(Kind kind) {
    if (!canExport(kind)) return;
    const ExportSpec spec = exportSpec(kind);
    QString caption = tr(spec.title);
    if (kind == Kind::LtoIr && result_->ltoIr.size() > 1) caption += tr(" (one file per module: NAME.MODULE.ltoir)");
    const QString suggested =
        QDir(exportDir_).filePath(fromStd(pipeline::defaultOutputName(exportBase_.toStdString(), kind)));
    const QString path = QFileDialog::getSaveFileName(this, caption, suggested, tr(spec.filter));
    if (path.isEmpty()) return;
    exportDir_ = QFileInfo(path).absolutePath();
    QString error;
    if (!exportTo(kind, path, &error)) QMessageBox::warning(this, caption, error);
}

void OutputView::attach(CompileController* controller) {
    const auto show = [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) { showLate(result); };
    connect(controller, &CompileController::lateShown, this, show);
    connect(controller, &CompileController::sassShown, this, show);
}

}  // namespace nvpg::gui
