#include "gui/output/FiguresTable.h"

#include <algorithm>

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QResizeEvent>
#include <QScrollBar>

#include "gui/common/Text.h"
#include "gui/output/SymbolNames.h"

namespace nvpg::gui {

namespace {

// Caps a table's name column again whenever its viewport's width changes.
class NameColumnCap : public QObject {
public:
    explicit NameColumnCap(FiguresTable* table) : QObject(table), table_(table) {
        table->viewport()->installEventFilter(this);
    }
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Resize && watched == table_->viewport()) {
            const auto* resize = static_cast<QResizeEvent*>(event);
            if (resize->size().width() != resize->oldSize().width()) table_->capNameColumn();
        }
        return false;
    }

private:
    FiguresTable* table_;
};

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

FiguresTable::FiguresTable(QWidget* parent, const QString& objectName, QLabel* caption)
    : QTableWidget(parent), caption_(caption) {
    setObjectName(objectName);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setFocusPolicy(Qt::ClickFocus);
    verticalHeader()->hide();
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    followFont();
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Columns are sized from the rows on screen and kSizingRows more, not from every row: a large
    // module's table has hundreds (a figure is as wide in row 500 as in row 5; a name is capped).
    constexpr int kSizingRows = 100;
    horizontalHeader()->setResizeContentsPrecision(kSizingRows);
    verticalHeader()->setResizeContentsPrecision(kSizingRows);
    horizontalHeader()->setStretchLastSection(false);
    setTextElideMode(Qt::ElideMiddle);
    SymbolNames::elideColumn(this, 0);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    new NameColumnCap(this);
    hide();
}

void FiguresTable::followFont() {
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 2);
}

// Short of the visible width by the first figure, so that a figure always shows beside the name
// however narrow the pane (on the H200 the PTX pane's table of a 1280x720 window was 148 px wide;
// with wide glyphs, 68 px).
void FiguresTable::capNameColumn() {
    if (columnCount() < 2) return;
    const int chars = fontMetrics().averageCharWidth();
    const int width = viewport()->width();
    auto* header = horizontalHeader();
    int cap = std::max(8 * chars, std::min(kNameColumnChars * chars, width - 6 * chars));
    // A table narrower than the floor of eight characters still shows its first figure: the name
    // gives way, down to two characters.
    cap = std::min(cap, std::max(2 * chars, width - header->sectionSize(1) - chars));
    resizeColumnToContents(0);
    header->resizeSection(0, std::min(header->sectionSize(0), cap));
}

void FiguresTable::fillIfChanged(const pipeline::FiguresTable& figures) {
    auto flat = flatten(figures);
    if (flat == shown_) return;
    fill(figures);
    shown_ = std::move(flat);
}

void FiguresTable::fill(const pipeline::FiguresTable& figures, const QStringList& suffixes) {
    shown_.clear();
    caption_->setText(qstr(figures.caption));
    caption_->setVisible(!figures.caption.empty());
    // Sized once when filled: a header that sizes its columns to their contents does so after every
    // cell set, which took 40-90 ms of the UI thread for the 85 kernels of a 3,000-line module.
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    clear();
    setColumnCount(int(figures.columns.size()));
    setRowCount(int(figures.rows.size()));
    QStringList headers;
    for (const auto& c : figures.columns) headers << qstr(c);
    setHorizontalHeaderLabels(headers);
    for (int row = 0; row < rowCount(); ++row) {
        const auto& cells = figures.rows[size_t(row)];
        for (int col = 0; col < columnCount() && col < int(cells.size()); ++col) {
            auto* item = new QTableWidgetItem;
            if (col == 0)
                SymbolNames::setCell(item, cells[0], suffixes.value(row));
            else
                item->setText(qstr(cells[size_t(col)]));
            item->setTextAlignment(col == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
            setItem(row, col, item);
        }
    }
    setVisible(!figures.rows.empty());
    if (columnCount() > 0) {
        auto* header = horizontalHeader();
        header->setSectionResizeMode(QHeaderView::ResizeToContents);
        header->setSectionResizeMode(0, QHeaderView::Interactive);
        capNameColumn();
    }
    if (!figures.rows.empty()) {
        constexpr int kVisibleRows = 4;
        const int rows = std::min(rowCount(), kVisibleRows);
        // Room for the scroll bar only where the columns are wider than the pane.
        const int scrollBar =
            horizontalHeader()->length() > viewport()->width() ? horizontalScrollBar()->sizeHint().height() : 0;
        setFixedHeight(horizontalHeader()->sizeHint().height() + rows * verticalHeader()->defaultSectionSize() +
                       2 * frameWidth() + scrollBar);
    }
    // The pane below gets its new height now, before its text is replaced: the scroll position
    // it keeps is clamped to the height it will have (headers are set before, for the same reason).
    if (auto* layout = parentWidget()->layout()) layout->activate();
}

}  // namespace nvpg::gui
