#pragma once

#include <deque>
#include <memory>

#include <QDateTime>
#include <QWidget>

#include "core/gpu/RunConfig.h"
#include "core/gpu/Session.h"
#include "core/support/Result.h"

class QListWidget;

namespace nvpg::gui {

// One finished run, as the history keeps it.
struct RunRecord {
    QDateTime when;
    gpu::RunConfig config;
    std::shared_ptr<const gpu::RunOutcome> outcome;  // null after an error
    QString error;
    support::ErrorKind kind = support::ErrorKind::Internal;
    QString summary;              // made while the buffers were there (the bandwidth needs them)
    bool buffersDropped = false;  // the copied-back buffers were let go to bound memory
};

// The runs of this session, newest first: time, kernel, grid×block, the time or the error.
// Choosing one shows its results again. Only the last kMaxRuns are kept, and only up to
// kMaxBytes of copied-back buffers among them: big outputs would otherwise pile up.
class RunHistory : public QWidget {
    Q_OBJECT

public:
    static constexpr int kMaxRuns = 20;
    static constexpr size_t kMaxBytes = size_t(1) << 30;

    explicit RunHistory(QWidget* parent = nullptr);

    void add(RunRecord record);  // becomes the current entry
    int count() const { return int(records_.size()); }
    const RunRecord& record(int row) const { return records_.at(size_t(row)); }
    QListWidget* list() const { return list_; }

    // "12:03:04  saxpy  16×256  0.0123 ms"
    static QString describe(const RunRecord& record);
    static QString shape(const gpu::Dim3& grid, const gpu::Dim3& block);
    // A kernel's name as the run texts show it (SymbolNames), cut in the middle to kLabelColumns.
    static constexpr size_t kLabelColumns = 60;
    static QString kernelLabel(const std::string& symbol);

signals:
    void chosen(const nvpg::gui::RunRecord& record);

private:
    void refill(int row);  // the list again from records_, `row` current

    std::deque<RunRecord> records_;  // row order: newest first
    QListWidget* list_;
};

}  // namespace nvpg::gui
