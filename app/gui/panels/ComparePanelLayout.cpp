// The Compare dock's widgets and how they are laid out: its column of sides and verdict beside
// the views while the dock is wide, over them while it is narrow, and the folding paragraph on
// an option's effect.
#include "gui/panels/ComparePanel.h"

#include <algorithm>
#include <filesystem>

#include <Qsci/qscilexerdiff.h>
#include <Qsci/qsciscintilla.h>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <fmt/format.h>

#include "core/nvvm/Options.h"
#include "core/pipeline/ResultJson.h"
#include "core/pipeline/Summary.h"
#include "core/support/Text.h"
#include "gui/common/Text.h"
#include "gui/compile/CompileController.h"
#include "gui/dialogs/SettingsDialog.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/PtxLexer.h"
#include "gui/output/Pane.h"
#include "gui/output/SymbolNames.h"
#include "gui/panels/OptionsPanel.h"
#include "gui/panels/VariantDialog.h"

namespace fs = std::filesystem;

namespace nvpg::gui {

ComparePanel::ComparePanel(WorkspaceDocument* document, std::shared_ptr<const toolkit::Toolkit> appToolkit,
                           EngineSettings settings, QWidget* parent)
    : QWidget(parent),
      document_(document),
      appToolkit_(std::move(appToolkit)),
      settings_(std::move(settings)),
      session_(std::make_unique<CompareSession>(appToolkit_, settings_)) {
    connect(session_.get(), &CompareSession::replied, this, &ComparePanel::onReply);
    connect(session_.get(), &CompareSession::lateReplied, this, &ComparePanel::onLate);
    // What is compared and what it comes to sit in a column of their own beside the views (the
    // diff, the sides, the figures) while the dock is wide, as at the bottom of the window: there
    // its height is short (about 210 px at 1280x720) and every line above the diff was one diff
    // line less. A narrow dock (floated, or at a side) puts the column over the views.
    main_ = new QBoxLayout(QBoxLayout::LeftToRight, this);
    main_->setContentsMargins(2, 2, 2, 2);
    main_->setSpacing(4);
    column_ = new QWidget;
    auto* column = new QVBoxLayout(column_);
    column->setContentsMargins(2, 0, 2, 0);
    column->setSpacing(3);
    columnScroll_ = new QScrollArea(this);
    columnScroll_->setObjectName(QStringLiteral("compareControls"));
    columnScroll_->setFrameShape(QFrame::NoFrame);
    columnScroll_->setWidgetResizable(true);
    columnScroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    columnScroll_->setWidget(column_);

    // The views' switch, as tabs: the sides, their diff (in front when the dock opens), the figures.
    viewBar_ = new QTabBar(this);
    viewBar_->setObjectName(QStringLiteral("compareViews"));
    viewBar_->setDocumentMode(true);
    viewBar_->setExpanding(false);
    views_ = new QStackedWidget(this);
    connect(viewBar_, &QTabBar::currentChanged, views_, &QStackedWidget::setCurrentIndex);

    for (size_t i = 0; i < 2; ++i) {
        auto* row = new QHBoxLayout;
        auto* letter = new QLabel(i == 0 ? tr("A:") : tr("B:"), column_);
        letter->setMinimumWidth(letter->fontMetrics().horizontalAdvance(QStringLiteral("B: ")));
        row->addWidget(letter);
        combos_[i] = new QComboBox(column_);
        combos_[i]->setObjectName(i == 0 ? QStringLiteral("compareA") : QStringLiteral("compareB"));
        // Pin and variant names are people's: a long one is cut, never the window widened.
        combos_[i]->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combos_[i]->setMinimumContentsLength(12);
        row->addWidget(combos_[i], 1);
        column->addLayout(row);
        connect(combos_[i], &QComboBox::activated, this, [this, i] {
            sides_[i].key = combos_[i]->currentData().toString();
            refreshSide(i, true);
            recompute();
        });
    }
    auto* choices = new QHBoxLayout;
    outputCombo_ = new QComboBox(column_);
    outputCombo_->setObjectName(QStringLiteral("compareOutput"));
    for (auto what : {pipeline::CompareOutput::Ptx, pipeline::CompareOutput::LtoPtx, pipeline::CompareOutput::Sass})
        outputCombo_->addItem(qstr(std::string(pipeline::compareOutputName(what))), int(what));
    connect(outputCombo_, &QComboBox::activated, this,
            [this] { setOutput(pipeline::CompareOutput(outputCombo_->currentData().toInt())); });
    choices->addWidget(outputCombo_);
    // The normalized diff by default; the byte-for-byte one a click away, remembered.
    normalized_ = new QCheckBox(tr("Ignore renumbering"), column_);
    normalized_->setObjectName(QStringLiteral("compareNormalized"));
    normalized_->setToolTip(
        tr("Diff with each function's registers, labels (and in SASS offsets and branch addresses) renamed "
           "by order of first use, so that renumbering is no change and an edited instruction is one "
           "changed line. Off: the outputs byte for byte."));
    normalized_->setChecked(QSettings().value(QStringLiteral("compare/normalized"), true).toBool());
    connect(normalized_, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("compare/normalized"), on);
        recompute();
    });
    choices->addWidget(normalized_);
    choices->addStretch(1);
    // Add Variant… in one click; editing, removing and deleting the pin shown behind its arrow.
    auto* variants = new QToolButton(column_);
    variants->setObjectName(QStringLiteral("addVariant"));
    variants->setPopupMode(QToolButton::MenuButtonPopup);
    auto* addVariant = new QAction(tr("Add Variant…"), this);
    addVariant->setToolTip(
        tr("Compile the modules with another option set or CUDA toolkit, or other modules (.ll/.bc files, a "
           "workspace) with the same options, beside this compile"));
    editVariant_ = new QAction(tr("Edit Variant…"), this);
    editVariant_->setObjectName(QStringLiteral("editVariant"));
    removeVariant_ = new QAction(tr("Remove Variant"), this);
    removePin_ = new QAction(tr("Delete Pin"), this);
    auto* menu = new QMenu(variants);
    menu->addActions({addVariant, editVariant_, removeVariant_});
    menu->addSeparator();
    menu->addAction(removePin_);
    variants->setMenu(menu);
    variants->setDefaultAction(addVariant);
    choices->addWidget(variants);
    column->addLayout(choices);
    connect(addVariant, &QAction::triggered, this, &ComparePanel::addVariant);
    connect(editVariant_, &QAction::triggered, this, &ComparePanel::editVariant);
    connect(removeVariant_, &QAction::triggered, this, &ComparePanel::removeVariant);
    connect(removePin_, &QAction::triggered, this, &ComparePanel::removePin);

    verdict_ = new QLabel(column_);
    verdict_->setObjectName(QStringLiteral("compareVerdict"));
    verdict_->setWordWrap(true);
    verdict_->setSizePolicy(QSizePolicy::Ignored, verdict_->sizePolicy().verticalPolicy());
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(verdict_);
    // The docs' paragraph on an option's effect: folded under one line until asked for (it is
    // several lines long, and the diff is what is looked at first); the choice is remembered.
    effectToggle_ = new QToolButton(column_);
    effectToggle_->setObjectName(QStringLiteral("compareEffectToggle"));
    effectToggle_->setCheckable(true);
    effectToggle_->setAutoRaise(true);
    effectToggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    effectToggle_->setSizePolicy(QSizePolicy::Ignored, effectToggle_->sizePolicy().verticalPolicy());
    effectToggle_->setChecked(QSettings().value(QStringLiteral("compare/effectShown"), false).toBool());
    effectToggle_->hide();
    column->addWidget(effectToggle_);
    effectNote_ = new QLabel;
    effectNote_->setObjectName(QStringLiteral("compareEffect"));
    effectNote_->setWordWrap(true);
    effectNote_->setSizePolicy(QSizePolicy::Ignored, effectNote_->sizePolicy().verticalPolicy());
    effectNote_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    effectNote_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    // Unfolded, the paragraph lies over the views, as wide as the diff (in the column it would be
    // a narrow strip), a few lines high at most (it scrolls).
    effectArea_ = new QScrollArea(this);
    effectArea_->setObjectName(QStringLiteral("compareEffectArea"));
    effectArea_->setFrameShape(QFrame::StyledPanel);
    effectArea_->setWidgetResizable(true);
    effectArea_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    effectArea_->setWidget(effectNote_);
    effectArea_->hide();
    column->addStretch(1);
    connect(effectToggle_, &QToolButton::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("compare/effectShown"), on);
        showEffectNote();
        arrange(wide_);
    });

    auto* sideBySide = new QSplitter(Qt::Horizontal, views_);
    for (size_t i = 0; i < 2; ++i) {
        auto* box = new QWidget(sideBySide);
        auto* v = new QVBoxLayout(box);
        v->setContentsMargins(0, 0, 0, 0);
        headers_[i] = new QLabel(box);
        headers_[i]->setWordWrap(true);
        headers_[i]->setSizePolicy(QSizePolicy::Ignored, headers_[i]->sizePolicy().verticalPolicy());
        QFont bold = headers_[i]->font();
        bold.setBold(true);
        headers_[i]->setFont(bold);
        panes_[i] = makePane(box, new PtxLexer(), false);
        v->addWidget(headers_[i]);
        v->addWidget(panes_[i], 1);
    }
    views_->addWidget(sideBySide);
    viewBar_->addTab(tr("Side by Side"));
    diff_ = makePane(views_, new QsciLexerDiff(), false);
    diff_->setObjectName(QStringLiteral("compareDiff"));
    // A horizontal scroll bar only while a line is wider than the pane: a line more of the diff.
    diff_->SendScintilla(QsciScintillaBase::SCI_SETSCROLLWIDTH, 1);
    diff_->SendScintilla(QsciScintillaBase::SCI_SETSCROLLWIDTHTRACKING, 1);
    views_->addWidget(diff_);
    viewBar_->addTab(tr("Diff"));
    figures_ = new QTableWidget(views_);
    figures_->setObjectName(QStringLiteral("compareFigures"));
    figures_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    figures_->verticalHeader()->hide();
    figures_->horizontalHeader()->setStretchLastSection(true);
    // Kernel names (numba's are 200-300 characters) are cut in the middle, whole in the tooltip.
    figures_->setTextElideMode(Qt::ElideMiddle);
    SymbolNames::elideColumn(figures_, 0);
    figures_->setSizePolicy(QSizePolicy::Ignored, figures_->sizePolicy().verticalPolicy());
    views_->addWidget(figures_);
    viewBar_->addTab(tr("Figures"));
    // What changed is the first question: the diff shows when the dock opens.
    showView(View::Diff);
    right_ = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right_);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(2);
    rightLayout->addWidget(effectArea_);
    rightLayout->addWidget(views_, 1);
    main_->addWidget(columnScroll_);
    main_->addWidget(right_, 1);
    arrange(true);

    debounce_.setObjectName(QStringLiteral("compareDebounce"));  // named where timings list it
    debounce_.setSingleShot(true);
    debounce_.setInterval(400);
    connect(&debounce_, &QTimer::timeout, this, &ComparePanel::compileVariants);
    connect(SymbolNames::instance(), &SymbolNames::rawChanged, this, &ComparePanel::recompute);
    connect(document_, &WorkspaceDocument::comparisonsChanged, this, [this] {
        rebuildChoices();
        for (size_t i = 0; i < 2; ++i) refreshSide(i, true);
        recompute();
    });

    // The toolkits on this machine, for the variant dialog: looking may ask python3 (seconds).
    const auto extra = SettingsDialog::extraToolkitPaths();
    std::vector<fs::path> extraPaths;
    for (const auto& p : extra) extraPaths.emplace_back(p.toStdString());
    runInBackground(
        this, [extraPaths] { return toolkit::findToolkits({}, extraPaths); },
        [this](std::vector<toolkit::FoundToolkit> found) {
            toolkits_ = std::move(found);
            emit toolkitsFound();
        });

    // What did my last edit change: the previous compile beside the current one, no pin needed.
    sides_[0].key = QString::fromLatin1(kPrevious);
    sides_[1].key = QString::fromLatin1(kCurrent);
    rebuildChoices();
    refreshSide(0, false);
    refreshSide(1, false);
    recompute();
}

void ComparePanel::showEffectNote() {
    const bool shown = effectShown();
    effectToggle_->setVisible(shown);
    effectToggle_->setArrowType(effectToggle_->isChecked() ? Qt::DownArrow : Qt::RightArrow);
    effectToggle_->setToolTip(effectToggle_->isChecked() ? tr("Fold the paragraph away")
                                                         : tr("Show the docs' paragraph on what this option changes"));
    effectArea_->setVisible(shown && effectToggle_->isChecked());
    fitEffectNote();
}

void ComparePanel::fitEffectNote() {
    if (effectArea_->isHidden()) return;
    const int frame = 2 * effectArea_->frameWidth();
    // The views' width: the paragraph's own may not be laid out yet when it is unfolded.
    const int wanted = effectNote_->heightForWidth(std::max(1, right_->width() - frame));
    effectArea_->setFixedHeight(std::min(wanted, kEffectLines * fontMetrics().lineSpacing()) + frame);
}

void ComparePanel::showView(View view) {
    viewBar_->setCurrentIndex(int(view));
    views_->setCurrentIndex(int(view));
}

ComparePanel::View ComparePanel::view() const {
    return View(views_->currentIndex());
}

void ComparePanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    const int cw = fontMetrics().averageCharWidth();
    // Beside the views while there is room for the column and ~70 columns of diff, and the dock
    // is wider than tall.
    arrange(width() >= (kColumnChars + 70) * cw && width() > height());
    fitEffectNote();
}

QSize ComparePanel::minimumSizeHint() const {
    const QSize least = QWidget::minimumSizeHint();
    if (!wide_) return least;
    const int margins = main_->contentsMargins().left() + main_->contentsMargins().right();
    return {std::min(least.width(), column_->minimumSizeHint().width() + margins), least.height()};
}

void ComparePanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) arrange(wide_);
}

void ComparePanel::arrange(bool wide) {
    auto* column = static_cast<QVBoxLayout*>(column_->layout());
    const bool changed = wide != wide_;
    wide_ = wide;
    if (changed) {
        // The views' switch heads the column beside them, and sits right over them below it.
        auto* right = static_cast<QVBoxLayout*>(right_->layout());
        column->removeWidget(viewBar_);
        right->removeWidget(viewBar_);
        if (wide)
            column->insertWidget(0, viewBar_);
        else
            right->insertWidget(right->indexOf(views_), viewBar_);
        main_->setDirection(wide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    }
    if (wide) {
        columnScroll_->setFixedWidth(kColumnChars * fontMetrics().averageCharWidth());
        columnScroll_->setMaximumHeight(QWIDGETSIZE_MAX);
        columnScroll_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
    } else {
        columnScroll_->setMinimumWidth(0);
        columnScroll_->setMaximumWidth(QWIDGETSIZE_MAX);
        // As tall as its rows, at most (a small dock scrolls them).
        columnScroll_->setMaximumHeight(column->totalHeightForWidth(width()) + 2);
        columnScroll_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    }
}

}  // namespace nvpg::gui
