#pragma once

#include <memory>

#include <QAbstractTableModel>
#include <QList>
#include <QPointF>
#include <QWidget>

#include "core/gpu/Session.h"

class QChartView;
class QLabel;
class QLineSeries;
class QPushButton;
class QTableView;

namespace nvpg::gui {

// One page of a copied-back buffer: index and value, values as formatElement writes them (the
// shortest text that reads back the same). Buffers can be millions of elements; a page keeps
// the view's row count small.
class BufferPageModel : public QAbstractTableModel {
    Q_OBJECT

public:
    static constexpr int kPageRows = 1000;

    BufferPageModel(std::shared_ptr<const gpu::RunOutcome> outcome, size_t buffer, QObject* parent = nullptr);

    int pageCount() const;
    int page() const { return page_; }
    void setPage(int page);
    const gpu::BufferOut& buffer() const { return outcome_->buffers.at(buffer_); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const gpu::RunOutcome> outcome_;  // keeps the bytes alive
    size_t buffer_;
    int page_ = 0;
};

// A buffer after a run: the paged table on the left, a plot of value against index on the right.
class BufferView : public QWidget {
    Q_OBJECT

public:
    static constexpr int kMaxPlotPoints = 4000;

    BufferView(std::shared_ptr<const gpu::RunOutcome> outcome, size_t buffer, QWidget* parent = nullptr);

    BufferPageModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QChartView* chartView() const { return chart_; }
    QLineSeries* series() const { return series_; }
    QLabel* pageLabel() const { return pageLabel_; }
    QPushButton* previousButton() const { return prev_; }
    QPushButton* nextButton() const { return next_; }
    void setPage(int page);

    // Value against index; at most `maxPoints`: past that, the smallest and the largest value
    // of each bucket of indices, so that spikes survive. Non-finite values are left out.
    static QList<QPointF> plotPoints(const gpu::BufferOut& buffer, int maxPoints = kMaxPlotPoints);

private:
    void updatePager();

    BufferPageModel* model_;
    QTableView* table_;
    QChartView* chart_;
    QLineSeries* series_;
    QLabel* pageLabel_;
    QPushButton* prev_;
    QPushButton* next_;
};

}  // namespace nvpg::gui
