#include "gui/panels/RunHistory.h"

#include <algorithm>

#include <QLabel>
#include <QListWidget>
#include <QRegularExpression>
#include <QVBoxLayout>

#include "core/support/Symbols.h"
#include "gui/output/SymbolNames.h"

namespace nvpg::gui {

namespace {

QString dim(const gpu::Dim3& d) {
    if (d.y == 1 && d.z == 1) return QString::number(d.x);
    if (d.z == 1) return QStringLiteral("(%1,%2)").arg(d.x).arg(d.y);
    return QStringLiteral("(%1,%2,%3)").arg(d.x).arg(d.y).arg(d.z);
}

}  // namespace

RunHistory::RunHistory(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* title = new QLabel(tr("History"), this);
    title->setContentsMargins(4, 0, 0, 0);
    layout->addWidget(title);
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("runHistory"));
    list_->setUniformItemSizes(true);
    list_->setTextElideMode(Qt::ElideRight);
    layout->addWidget(list_, 1);
    connect(SymbolNames::instance(), &SymbolNames::rawChanged, this, [this] { refill(list_->currentRow()); });
    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row < count()) emit chosen(records_[size_t(row)]);
    });
}

QString RunHistory::shape(const gpu::Dim3& grid, const gpu::Dim3& block) {
    return dim(grid) + QStringLiteral("×") + dim(block);
}

QString RunHistory::kernelLabel(const std::string& symbol) {
    return QString::fromStdString(support::elideMiddle(SymbolNames::shown(symbol).toStdString(), kLabelColumns));
}

QString RunHistory::describe(const RunRecord& r) {
    QString what;
    if (r.outcome) {
        what = QStringLiteral("%1 ms").arg(r.outcome->kernelMs, 0, 'g', 3);
    } else {
        static const QRegularExpression cudaError(QStringLiteral("CUDA_ERROR_\\w+"));
        const auto m = cudaError.match(r.error);
        what = m.hasMatch() ? m.captured() : tr("failed");
    }
    return QStringLiteral("%1  %2  %3  %4")
        .arg(r.when.toString(QStringLiteral("HH:mm:ss")), kernelLabel(r.config.kernel),
             shape(r.config.grid, r.config.block), what);
}

void RunHistory::add(RunRecord record) {
    records_.push_front(std::move(record));
    while (records_.size() > size_t(kMaxRuns)) records_.pop_back();
    // Newer runs keep their buffers; older ones keep their summary only.
    size_t bytes = 0;
    for (auto& r : records_) {
        if (!r.outcome) continue;
        size_t mine = 0;
        for (const auto& b : r.outcome->buffers) mine += b.bytes.size();
        if (bytes + mine > kMaxBytes && mine > 0) {
            auto slim = std::make_shared<gpu::RunOutcome>();
            slim->kernel = r.outcome->kernel;
            slim->device = r.outcome->device;
            slim->kernelMs = r.outcome->kernelMs;
            slim->launchMs = r.outcome->launchMs;
            slim->bytesIn = r.outcome->bytesIn;
            slim->bytesOut = r.outcome->bytesOut;
            r.outcome = std::move(slim);
            r.buffersDropped = true;
            continue;
        }
        bytes += mine;
    }
    refill(0);
}

void RunHistory::refill(int row) {
    const QSignalBlocker block(list_);
    list_->clear();
    for (const auto& r : records_) {
        auto* item = new QListWidgetItem(describe(r), list_);
        item->setToolTip(
            r.outcome
                ? tr("%1 on %2").arg(SymbolNames::toolTip(r.config.kernel), QString::fromStdString(r.outcome->device))
                : r.error);
        if (!r.outcome) item->setForeground(QColor(0xb0, 0x00, 0x20));
    }
    list_->setCurrentRow(std::max(0, row));
}

}  // namespace nvpg::gui
