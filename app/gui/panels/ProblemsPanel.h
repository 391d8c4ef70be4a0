#pragma once

#include <vector>

#include <QWidget>

#include "nvvm/Diagnostic.h"

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace nvpg::gui {

// The Problems dock: every diagnostic of the last shown compile (module, line, column,
// severity, message, source). Activating a row asks to jump there.
class ProblemsPanel : public QWidget {
    Q_OBJECT

public:
    enum Column {
        SeverityColumn,
        ModuleColumn,
        LineColumn,
        ColumnColumn,
        MessageColumn,
        SourceColumn
    };

    explicit ProblemsPanel(QWidget* parent = nullptr);
    void setDiagnostics(const std::vector<nvvm::Diagnostic>& diagnostics);
    // An error that stopped the compile before libNVVM (invalid option, missing library).
    void setError(const QString& message);
    void clear();
    int count() const;
    int errorCount() const { return errors_; }
    int warningCount() const { return warnings_; }

    // "2 errors, 1 warning", or "No problems".
    QString summary() const;
    // The diagnostic a row shows (row in the given order).
    const nvvm::Diagnostic& diagnostic(int row) const { return diagnostics_.at(size_t(row)); }
    QTreeWidget* view() const { return tree_; }

public slots:
    // Copies the selected rows (all rows when none is selected) as FILE:LINE:COL: lines.
    void copy();

signals:
    void activated(const QString& module, int line, int column);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void activateItem(QTreeWidgetItem* item);

    std::vector<nvvm::Diagnostic> diagnostics_;
    int errors_ = 0;
    int warnings_ = 0;
    int notes_ = 0;
    QLabel* header_ = nullptr;
    QLabel* empty_ = nullptr;
    QTreeWidget* tree_ = nullptr;
};

}  // namespace nvpg::gui
