#include "gui/dialogs/HistoryDialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/support/Text.h"
#include "gui/common/Text.h"

namespace nvpg::gui {

HistoryDialog::HistoryDialog(const pipeline::CompileHistory* history, QWidget* parent)
    : QDialog(parent), history_(history) {
    setWindowTitle(tr("Compile History"));
    setObjectName(QStringLiteral("historyDialog"));
    auto* layout = new QVBoxLayout(this);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    table_ = new QTableWidget(this);
    table_->setObjectName(QStringLiteral("historyTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->setTextElideMode(Qt::ElideRight);
    layout->addWidget(table_, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    compare_ = buttons->addButton(tr("Compare with Current"), QDialogButtonBox::ActionRole);
    compare_->setObjectName(QStringLiteral("historyCompare"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(compare_, &QPushButton::clicked, this, &HistoryDialog::compareSelected);
    connect(table_, &QTableWidget::cellDoubleClicked, this, &HistoryDialog::compareSelected);
    connect(table_, &QTableWidget::itemSelectionChanged, this,
            [this] { compare_->setEnabled(table_->currentRow() > 0); });
    // Fits a 1280x720 screen with the window beside it.
    resize(900, 360);
    refresh();
}

void HistoryDialog::refresh() {
    const auto columns = pipeline::historyColumns();
    table_->setColumnCount(int(columns.size()));
    QStringList headers;
    for (const auto& c : columns) headers << qstr(c);
    table_->setHorizontalHeaderLabels(headers);
    const auto& entries = history_->entries();
    table_->setRowCount(int(entries.size()));
    for (size_t r = 0; r < entries.size(); ++r) {
        const auto row = pipeline::historyRow(entries[r]);
        for (size_t k = 0; k < row.size(); ++k) {
            auto* item = new QTableWidgetItem(qstr(row[k]));
            item->setData(Qt::UserRole, QVariant::fromValue<qulonglong>(entries[r].id));
            if (k == 2) item->setToolTip(qstr(row[k]));
            if (r == 0 && k == 2) item->setText(tr("%1 (current)").arg(qstr(row[k])));
            table_->setItem(int(r), int(k), item);
        }
    }
    table_->resizeColumnsToContents();
    table_->setColumnWidth(2, std::min(table_->columnWidth(2), table_->fontMetrics().averageCharWidth() * 40));
    summary_->setText(tr("%1 compiles of this session, newest first (the last %2 are kept, within %3 of results; "
                         "%4 now). Pin a result to keep it beyond the session.")
                          .arg(entries.empty() ? 0 : entries.front().id)
                          .arg(history_->limits().entries)
                          .arg(qstr(support::formatBytes(history_->limits().bytes)))
                          .arg(qstr(support::formatBytes(history_->bytes()))));
    compare_->setEnabled(table_->currentRow() > 0);
}

void HistoryDialog::compareSelected() {
    const int row = table_->currentRow();
    if (row <= 0 || !onCompare_) return;  // the newest is the current compile
    onCompare_(table_->item(row, 0)->data(Qt::UserRole).toULongLong());
}

}  // namespace nvpg::gui
