#include "gui/panels/BufferView.h"

#include <cmath>
#include <limits>

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

namespace nvpg::gui {

BufferPageModel::BufferPageModel(std::shared_ptr<const gpu::RunOutcome> outcome, size_t buffer, QObject* parent)
    : QAbstractTableModel(parent), outcome_(std::move(outcome)), buffer_(buffer) {}

int BufferPageModel::pageCount() const {
    const size_t n = buffer().count;
    return n == 0 ? 1 : int((n + kPageRows - 1) / kPageRows);
}

void BufferPageModel::setPage(int page) {
    page = std::clamp(page, 0, pageCount() - 1);
    if (page == page_) return;
    beginResetModel();
    page_ = page;
    endResetModel();
}

int BufferPageModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid()) return 0;
    const size_t first = size_t(page_) * kPageRows;
    const size_t n = buffer().count;
    return first >= n ? 0 : int(std::min<size_t>(kPageRows, n - first));
}

int BufferPageModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 2;
}

QVariant BufferPageModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const size_t i = size_t(page_) * kPageRows + size_t(index.row());
    const auto& b = buffer();
    if (i >= b.count) return {};
    if (role == Qt::DisplayRole) {
        if (index.column() == 0) return QString::number(qulonglong(i));
        const size_t size = gpu::elemInfo(b.type).size;
        if ((i + 1) * size > b.bytes.size()) return {};
        return QString::fromStdString(gpu::formatElement(b.type, b.bytes.data() + i * size));
    }
    if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant BufferPageModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    return section == 0 ? tr("index") : tr("value");
}

QList<QPointF> BufferView::plotPoints(const gpu::BufferOut& b, int maxPoints) {
    const size_t size = gpu::elemInfo(b.type).size;
    const size_t n = std::min(b.count, b.bytes.size() / size);
    auto at = [&](size_t i) { return gpu::elementAsDouble(b.type, b.bytes.data() + i * size); };
    QList<QPointF> points;
    if (n <= size_t(maxPoints)) {
        points.reserve(qsizetype(n));
        for (size_t i = 0; i < n; ++i)
            if (const double v = at(i); std::isfinite(v)) points.append({double(i), v});
        return points;
    }
    const size_t buckets = size_t(std::max(1, maxPoints / 2));
    const size_t per = (n + buckets - 1) / buckets;
    points.reserve(qsizetype(2 * buckets));
    for (size_t first = 0; first < n; first += per) {
        const size_t last = std::min(n, first + per);
        size_t lo = n, hi = n;
        double loV = 0, hiV = 0;
        for (size_t i = first; i < last; ++i) {
            const double v = at(i);
            if (!std::isfinite(v)) continue;
            if (lo == n || v < loV) lo = i, loV = v;
            if (hi == n || v > hiV) hi = i, hiV = v;
        }
        if (lo == n) continue;
        // In index order, so that the line does not run backwards.
        if (lo == hi) {
            points.append({double(lo), loV});
        } else if (lo < hi) {
            points.append({double(lo), loV});
            points.append({double(hi), hiV});
        } else {
            points.append({double(hi), hiV});
            points.append({double(lo), loV});
        }
    }
    return points;
}

BufferView::BufferView(std::shared_ptr<const gpu::RunOutcome> outcome, size_t buffer, QWidget* parent)
    : QWidget(parent), model_(new BufferPageModel(outcome, buffer, this)) {
    const auto& b = model_->buffer();
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* split = new QSplitter(Qt::Horizontal, this);
    layout->addWidget(split);

    auto* left = new QWidget(split);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(2);
    table_ = new QTableView(left);
    table_->setObjectName(QStringLiteral("bufferTable"));
    table_->setModel(model_);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 4);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setColumnWidth(0, 70);
    leftLayout->addWidget(table_, 1);
    auto* pager = new QHBoxLayout;
    prev_ = new QPushButton(tr("◀"), left);
    prev_->setToolTip(tr("Previous %1 values").arg(BufferPageModel::kPageRows));
    next_ = new QPushButton(tr("▶"), left);
    next_->setToolTip(tr("Next %1 values").arg(BufferPageModel::kPageRows));
    for (auto* button : {prev_, next_}) button->setMaximumWidth(32);
    pageLabel_ = new QLabel(left);
    pageLabel_->setAlignment(Qt::AlignCenter);
    pager->addWidget(prev_);
    pager->addWidget(pageLabel_, 1);
    pager->addWidget(next_);
    leftLayout->addLayout(pager);
    connect(prev_, &QPushButton::clicked, this, [this] { setPage(model_->page() - 1); });
    connect(next_, &QPushButton::clicked, this, [this] { setPage(model_->page() + 1); });

    series_ = new QLineSeries;
    const auto points = plotPoints(b);
    series_->replace(points);
    auto* chart = new QChart;
    chart->addSeries(series_);
    chart->legend()->hide();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->setBackgroundRoundness(0);
    auto* x = new QValueAxis;
    auto* y = new QValueAxis;
    x->setLabelFormat(QStringLiteral("%.0f"));
    x->setRange(0, std::max<double>(1, double(b.count) - 1));
    double lo = 0, hi = 0;
    for (qsizetype i = 0; i < points.size(); ++i) {
        const double v = points[i].y();
        if (i == 0 || v < lo) lo = v;
        if (i == 0 || v > hi) hi = v;
    }
    const double pad = hi > lo ? (hi - lo) * 0.05 : std::max(1.0, std::abs(hi) * 0.05);
    y->setRange(lo - pad, hi + pad);
    // Ticks at round numbers without stretching the axes past the data.
    for (auto* axis : {x, y}) {
        const double span = axis->max() - axis->min();
        if (!(span > 0)) continue;
        const double raw = span / 5, mag = std::pow(10.0, std::floor(std::log10(raw)));
        const double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(0);
        axis->setTickInterval(step);
    }
    y->setLabelFormat(QStringLiteral("%.4g"));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    x->setLabelsFont(small);
    y->setLabelsFont(small);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series_->attachAxis(x);
    series_->attachAxis(y);
    if (b.count > size_t(kMaxPlotPoints))
        chart->setToolTip(tr("%1 values drawn as the smallest and largest of each of %2 runs of indices")
                              .arg(b.count)
                              .arg(kMaxPlotPoints / 2));
    chart_ = new QChartView(chart, split);
    chart_->setObjectName(QStringLiteral("bufferChart"));
    chart_->setRenderHint(QPainter::Antialiasing);
    chart_->setMinimumWidth(160);

    split->addWidget(left);
    split->addWidget(chart_);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({240, 480});
    updatePager();
}

void BufferView::setPage(int page) {
    model_->setPage(page);
    updatePager();
}

void BufferView::updatePager() {
    const size_t n = model_->buffer().count;
    const int page = model_->page();
    const size_t first = size_t(page) * BufferPageModel::kPageRows;
    const size_t last = std::min(n, first + BufferPageModel::kPageRows);
    pageLabel_->setText(
        n == 0 ? tr("empty")
               : tr("%1–%2 of %3 · page %4/%5").arg(first).arg(last - 1).arg(n).arg(page + 1).arg(model_->pageCount()));
    prev_->setEnabled(page > 0);
    next_->setEnabled(page + 1 < model_->pageCount());
}

}  // namespace nvpg::gui
