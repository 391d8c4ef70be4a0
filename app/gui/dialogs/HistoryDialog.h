#pragma once

#include <cstdint>
#include <functional>

#include <QDialog>

#include "core/pipeline/History.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace nvpg::gui {

// The session's compiles as a timeline (opened from the status bar's History button): each
// compile's time, cause and figures per output, newest first (pipeline::historyRow). Compare
// with Current (or a double-click) shows the chosen compile beside the current one in the
// Compare dock. Follows the history while open.
class HistoryDialog : public QDialog {
    Q_OBJECT

public:
    HistoryDialog(const pipeline::CompileHistory* history, QWidget* parent = nullptr);

    // Asked to compare the entry `id` with the current compile.
    void setOnCompare(std::function<void(uint64_t id)> onCompare) { onCompare_ = std::move(onCompare); }
    QTableWidget* table() const { return table_; }

public slots:
    void refresh();

private:
    void compareSelected();

    const pipeline::CompileHistory* history_;
    std::function<void(uint64_t)> onCompare_;
    QLabel* summary_ = nullptr;
    QTableWidget* table_ = nullptr;
    QPushButton* compare_ = nullptr;
};

}  // namespace nvpg::gui
