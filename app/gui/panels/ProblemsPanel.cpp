#include "gui/panels/ProblemsPanel.h"

#include <algorithm>
#include <map>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QScrollBar>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "gui/common/Text.h"
#include "gui/editor/Lightbulb.h"

namespace nvpg::gui {

namespace {

constexpr int kIndexRole = Qt::UserRole;
constexpr int kMessageRole = Qt::UserRole + 1;
// The most of a message a row shows; more than a screen is wide, far less than a hint can be.
constexpr qsizetype kRowChars = 400;

QStyle::StandardPixmap severityIcon(nvvm::Severity s) {
    switch (s) {
        case nvvm::Severity::Error:
            return QStyle::SP_MessageBoxCritical;
        case nvvm::Severity::Warning:
            return QStyle::SP_MessageBoxWarning;
        case nvvm::Severity::Note:
            return QStyle::SP_MessageBoxInformation;
    }
    return QStyle::SP_MessageBoxInformation;
}

}  // namespace

ProblemsPanel::ProblemsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    // The rows' table may be squeezed to nothing (minimumSizeHint: one line); the layout must
    // not make its own minimum the panel's.
    layout->setSizeConstraint(QLayout::SetNoConstraint);

    header_ = new QLabel(this);
    header_->setObjectName(QStringLiteral("problemsSummary"));
    header_->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(header_);

    tree_ = new QTreeWidget(this);
    tree_->setObjectName(QStringLiteral("problemsView"));
    tree_->setColumnCount(7);
    tree_->setHeaderLabels(
        {tr("Severity"), tr("Module"), tr("Line"), tr("Column"), tr("Message"), tr("Source"), tr("Fix")});
    tree_->setRootIsDecorated(false);
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    tree_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    tree_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // The order is the compiler's: libNVVM's errors come in the order they cascade.
    tree_->setSortingEnabled(false);
    tree_->setWordWrap(false);
    tree_->setTextElideMode(Qt::ElideRight);
    auto* h = tree_->header();
    h->setStretchLastSection(false);
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setSectionResizeMode(MessageColumn, QHeaderView::Stretch);
    // Columns fit the rows on screen and this many more, not all of hundreds of rows.
    h->setResizeContentsPrecision(int(kRowsPerTurn));
    // activated covers double-click, Enter/Return, and single-click where the platform's style
    // activates on one click.
    connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item, int) { activateItem(item); });
    layout->addWidget(tree_, 1);

    empty_ = new QLabel(tr("No problems"), tree_->viewport());
    empty_->setObjectName(QStringLiteral("problemsEmpty"));
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setForegroundRole(QPalette::PlaceholderText);
    empty_->setAttribute(Qt::WA_TransparentForMouseEvents);
    tree_->viewport()->installEventFilter(this);

    copyAction_ = new QAction(tr("Copy"), tree_);
    copyAction_->setShortcut(QKeySequence::Copy);
    copyAction_->setShortcutContext(Qt::WidgetShortcut);
    connect(copyAction_, &QAction::triggered, this, &ProblemsPanel::copy);
    tree_->addAction(copyAction_);
    // Ctrl+. applies the current row's first fix, as the quick-fix key of other editors does.
    auto* quickFix = new QAction(tr("Apply Fix"), tree_);
    quickFix->setShortcut(QKeySequence(tr("Ctrl+.")));
    quickFix->setShortcutContext(Qt::WidgetShortcut);
    connect(quickFix, &QAction::triggered, this, [this] {
        auto* item = tree_->currentItem();
        if (!item) return;
        const auto fixes = fixActions(item->data(SeverityColumn, kIndexRole).toInt());
        if (!fixes.isEmpty()) fixes.front()->trigger();
    });
    tree_->addAction(quickFix);
    tree_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(tree_, &QWidget::customContextMenuRequested, this, &ProblemsPanel::showContextMenu);

    rebuild();
}

void ProblemsPanel::setDiagnostics(nvvm::SharedDiagnostics diagnostics) {
    diagnostics_ = diagnostics ? std::move(diagnostics) : std::make_shared<const std::vector<nvvm::Diagnostic>>();
    rebuild();
}

void ProblemsPanel::setDiagnostics(const std::vector<nvvm::Diagnostic>& diagnostics) {
    setDiagnostics(std::make_shared<const std::vector<nvvm::Diagnostic>>(diagnostics));
}

void ProblemsPanel::setError(const QString& message) {
    setDiagnostics(std::vector<nvvm::Diagnostic>{{"", 0, 0, nvvm::Severity::Error, message.toStdString(), "nvpg"}});
}

void ProblemsPanel::clear() {
    setDiagnostics(nvvm::SharedDiagnostics{});
}

int ProblemsPanel::count() const {
    return int(diagnostics_->size());
}

QString ProblemsPanel::summary() const {
    return header_->text();
}

QList<QAction*> ProblemsPanel::fixActions(int row) const {
    return row >= 0 && size_t(row) < fixActions_.size() ? fixActions_[size_t(row)] : QList<QAction*>();
}

void ProblemsPanel::showContextMenu(const QPoint& at) {
    QMenu menu(this);
    if (auto* item = tree_->itemAt(at)) {
        const auto fixes = fixActions(item->data(SeverityColumn, kIndexRole).toInt());
        menu.addActions(fixes);
        if (!fixes.isEmpty()) menu.addSeparator();
    }
    menu.addAction(copyAction_);
    menu.exec(tree_->viewport()->mapToGlobal(at));
}

void ProblemsPanel::rebuild() {
    tree_->clear();
    // Later: a fix's action may be what is running now (its compile's reply rebuilds the rows).
    for (const auto& actions : fixActions_)
        for (QAction* a : actions) a->deleteLater();
    fixActions_.assign(diagnostics_->size(), {});
    errors_ = warnings_ = notes_ = 0;
    for (const auto& d : *diagnostics_) {
        switch (d.severity) {
            case nvvm::Severity::Error:
                ++errors_;
                break;
            case nvvm::Severity::Warning:
                ++warnings_;
                break;
            case nvvm::Severity::Note:
                ++notes_;
                break;
        }
    }
    // The rows: the first kRowsPerTurn now, the others kRowsPerTurn per later turn of the event
    // loop (a row costs ~0.1 ms with its fix actions: 423 rows held the UI thread 24 ms in one go),
    // then a button per row that has a fix, in turns of their own.
    ++rebuilds_;
    addRows(0);
    for (int c : {SeverityColumn, ModuleColumn, LineColumn, ColumnColumn, SourceColumn, FixColumn})
        tree_->resizeColumnToContents(c);

    if (diagnostics_->empty()) {
        header_->setText(tr("No problems"));
    } else {
        QStringList parts{plural(errors_, tr("error"), tr("errors")), plural(warnings_, tr("warning"), tr("warnings"))};
        if (notes_ > 0) parts << plural(notes_, tr("note"), tr("notes"));
        header_->setText(parts.join(QStringLiteral(", ")));
    }
    empty_->setVisible(diagnostics_->empty());
    empty_->resize(tree_->viewport()->size());
    // "No problems" is the summary line's alone: an empty table would only take height.
    tree_->setVisible(!diagnostics_->empty());
    updateGeometry();
    emit contentChanged();
    if (tree_->topLevelItemCount() > 0) tree_->setCurrentItem(tree_->topLevelItem(0), 0, QItemSelectionModel::NoUpdate);
}

bool ProblemsPanel::allRowsShown() const {
    return size_t(tree_->topLevelItemCount()) == diagnostics_->size();
}

void ProblemsPanel::addRows(size_t from) {
    // One icon per severity, not one per row (the style draws each anew).
    std::map<int, QIcon> icons;
    for (auto severity : {nvvm::Severity::Error, nvvm::Severity::Warning, nvvm::Severity::Note})
        icons[int(severity)] = style()->standardIcon(severityIcon(severity));
    // The first rows all at once; those of a later turn for as long as kTurnBudget allows.
    const size_t most = std::min(diagnostics_->size(), from + kRowsPerTurn);
    const auto until = std::chrono::steady_clock::now() + kTurnBudget;
    QList<QTreeWidgetItem*> items;
    items.reserve(qsizetype(most - from));
    size_t to = from;
    for (size_t i = from; i < most && (from == 0 || i == from || std::chrono::steady_clock::now() < until); ++i, ++to) {
        const auto& d = (*diagnostics_)[i];
        const QString message = QString::fromStdString(d.message).trimmed();
        const QString firstLine = message.section(QLatin1Char('\n'), 0, 0);
        auto* item = new QTreeWidgetItem;
        item->setIcon(SeverityColumn, icons[int(d.severity)]);
        item->setText(SeverityColumn, QString::fromUtf8(nvvm::severityName(d.severity).data(),
                                                        qsizetype(nvvm::severityName(d.severity).size())));
        item->setText(ModuleColumn, QString::fromStdString(d.module));
        // 0 means the message names no place; an empty cell says so better than "0".
        if (d.line > 0) item->setText(LineColumn, QString::number(d.line));
        if (d.column > 0) item->setText(ColumnColumn, QString::number(d.column));
        // Multi-line messages (the verifier quotes the IR on the next lines) show their first
        // line in the row; the whole text is in the tooltip and what Copy copies.
        // A row shows at most kRowChars of it: eliding a line of thousands of characters (a hint
        // that quotes a whole @llvm.used) lays all of it out on every paint, 85 such rows took
        // 15 ms a frame while typing.
        const bool cut = firstLine.size() > kRowChars;
        item->setText(MessageColumn, cut || message.contains(QLatin1Char('\n'))
                                         ? firstLine.left(kRowChars) + QStringLiteral(" …")
                                         : firstLine);
        item->setToolTip(MessageColumn, message);
        item->setData(MessageColumn, kMessageRole, message);
        item->setText(SourceColumn, QString::fromStdString(d.source));
        item->setTextAlignment(LineColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(ColumnColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setData(SeverityColumn, kIndexRole, int(i));
        // Core's fixes, as they are: the panel offers them and the window applies them.
        QStringList fixTitles;
        for (size_t k = 0; k < d.fixes.size(); ++k) {
            const QString title = QString::fromStdString(d.fixes[k].title);
            auto* action = new QAction(lightbulbIcon(), tr("Fix: %1").arg(title), this);
            connect(action, &QAction::triggered, this, [this, i, k] { emit fixRequested(int(i), int(k)); });
            fixActions_[i] << action;
            fixTitles << title;
        }
        if (!fixTitles.isEmpty()) {
            // The cell's button (below) says it; the data is for whoever reads the model.
            item->setData(FixColumn, Qt::AccessibleTextRole, tr("Fix: %1").arg(fixTitles.join(QStringLiteral("; "))));
            const QString offered = tr("A fix is offered: %1").arg(fixTitles.join(QStringLiteral("; ")));
            item->setToolTip(FixColumn, offered);
            item->setToolTip(MessageColumn, message + QStringLiteral("\n\n") + offered);
        }
        items << item;
    }
    tree_->addTopLevelItems(items);
    if (from == 0) addFixButtons(0);
    if (to == diagnostics_->size()) {
        if (from > 0)  // the later rows may hold wider numbers or names
            for (int c : {ModuleColumn, LineColumn, ColumnColumn, SourceColumn}) tree_->resizeColumnToContents(c);
        emit rowsShown();
        return;
    }
    runInLaterTurn(this, [this, to, rebuild = rebuilds_] {
        if (rebuild == rebuilds_) addRows(to);  // else a newer reply's rows replaced these
    });
}

void ProblemsPanel::addFixButtons(size_t from) {
    constexpr size_t kButtonsPerTurn = 12;
    const auto until = std::chrono::steady_clock::now() + kTurnBudget;
    size_t made = 0;
    size_t i = from;
    for (; i < fixActions_.size() && made < kButtonsPerTurn && (made == 0 || std::chrono::steady_clock::now() < until);
         ++i) {
        if (fixActions_[i].isEmpty()) continue;
        auto* row = tree_->topLevelItem(int(i));
        if (!row) break;
        ++made;
        auto* button = new QToolButton(tree_);
        button->setObjectName(QStringLiteral("fixButton"));
        button->setAutoRaise(true);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setDefaultAction(fixActions_[i].front());
        button->setToolTip(row->toolTip(FixColumn));
        if (fixActions_[i].size() > 1) {
            auto* more = new QMenu(button);
            more->addActions(fixActions_[i]);
            button->setMenu(more);
            button->setPopupMode(QToolButton::MenuButtonPopup);
        }
        tree_->setItemWidget(row, FixColumn, button);
    }
    if (i >= fixActions_.size()) {
        tree_->resizeColumnToContents(FixColumn);
        return;
    }
    runInLaterTurn(this, [this, i, rebuild = rebuilds_] {
        if (rebuild == rebuilds_) addFixButtons(i);  // else a newer reply's rows replaced these
    });
}

QSize ProblemsPanel::sizeHint() const {
    int height = header_->sizeHint().height();
    if (!diagnostics_->empty()) {
        const int rows = std::min(int(diagnostics_->size()), kMaxShownRows);
        const int rowHeight = std::max(tree_->sizeHintForRow(0), tree_->fontMetrics().height());
        height += tree_->header()->sizeHint().height() + rows * rowHeight + 2 * tree_->frameWidth() +
                  tree_->horizontalScrollBar()->sizeHint().height();
    }
    return {QWidget::sizeHint().width(), height};
}

QSize ProblemsPanel::minimumSizeHint() const {
    // One line: the dock can be as small as that whatever it holds (the rows scroll).
    return {QWidget::minimumSizeHint().width(), header_->sizeHint().height()};
}

bool ProblemsPanel::eventFilter(QObject* watched, QEvent* event) {
    // The empty-state label covers the viewport, whatever its size.
    if (watched == tree_->viewport() && event->type() == QEvent::Resize) empty_->resize(tree_->viewport()->size());
    return QWidget::eventFilter(watched, event);
}

void ProblemsPanel::activateItem(QTreeWidgetItem* item) {
    if (!item) return;
    const int index = item->data(SeverityColumn, kIndexRole).toInt();
    if (index < 0 || size_t(index) >= diagnostics_->size()) return;
    const auto& d = (*diagnostics_)[size_t(index)];
    // An error with no module (a missing library) has nowhere to jump to.
    if (d.module.empty()) return;
    emit activated(QString::fromStdString(d.module), d.line, d.column);
}

void ProblemsPanel::copy() {
    QList<QTreeWidgetItem*> items = tree_->selectedItems();
    std::sort(items.begin(), items.end(),
              [this](auto* a, auto* b) { return tree_->indexOfTopLevelItem(a) < tree_->indexOfTopLevelItem(b); });
    QStringList lines;
    for (auto* item : items) {
        const int index = item->data(SeverityColumn, kIndexRole).toInt();
        lines << QString::fromStdString(nvvm::formatDiagnostic((*diagnostics_)[size_t(index)]));
    }
    // None selected: every diagnostic, rows still to come included.
    if (items.isEmpty())
        for (const auto& d : *diagnostics_) lines << QString::fromStdString(nvvm::formatDiagnostic(d));
    if (!lines.isEmpty()) QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
}

}  // namespace nvpg::gui
