#pragma once

#include <vector>

#include <QList>
#include <QWidget>

#include "core/nvvm/Diagnostic.h"
#include "gui/output/Turns.h"

class QAction;
class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace nvpg::gui {

// The Problems dock: every diagnostic of the last shown compile (module, line, column,
// severity, message, source). Activating a row asks to jump there. A diagnostic for which core
// has a fix shows it in the Fix column (a button "Fix: <title>"), in its context menu and on
// Ctrl+. ; choosing one asks the window to apply it.
class ProblemsPanel : public QWidget {
    Q_OBJECT

public:
    enum Column { SeverityColumn, ModuleColumn, LineColumn, ColumnColumn, MessageColumn, SourceColumn, FixColumn };

    explicit ProblemsPanel(QWidget* parent = nullptr);
    void setDiagnostics(nvvm::SharedDiagnostics diagnostics);
    void setDiagnostics(const std::vector<nvvm::Diagnostic>& diagnostics);  // a copy
    // An error that stopped the compile before libNVVM (invalid option, missing library).
    void setError(const QString& message);
    void clear();
    int count() const;
    int errorCount() const { return errors_; }
    int warningCount() const { return warnings_; }

    // "2 errors, 1 warning", or "No problems".
    QString summary() const;
    // The diagnostic a row shows (row in the given order).
    const nvvm::Diagnostic& diagnostic(int row) const { return diagnostics_->at(size_t(row)); }
    QTreeWidget* view() const { return tree_; }
    // The "Fix: <title>" actions of a row (one per fix core offers for it); empty when none.
    QList<QAction*> fixActions(int row) const;
    // As tall as its content: the summary line alone while there are no problems ("No
    // problems"), else the summary and the rows, up to kMaxShownRows of them (then it scrolls).
    static constexpr int kMaxShownRows = 8;
    // A reply's rows come kRowsPerTurn per turn of the event loop: the first at once, the others
    // after (rowsShown() says when the last are in). Counts and summary() are whole at once.
    static constexpr size_t kRowsPerTurn = gui::kRowsPerTurn;
    bool allRowsShown() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public slots:
    // Copies the selected rows (all rows when none is selected) as FILE:LINE:COL: lines.
    void copy();

signals:
    void activated(const QString& module, int line, int column);
    // Fix `index` of diagnostic(row) was chosen.
    void fixRequested(int row, int index);
    // The rows changed: sizeHint() may have too.
    void contentChanged();
    // The last of the current diagnostics' rows is in the view.
    void rowsShown();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void activateItem(QTreeWidgetItem* item);
    void showContextMenu(const QPoint& at);

    QAction* copyAction_ = nullptr;
    std::vector<QList<QAction*>> fixActions_;  // per row
    int rebuilds_ = 0;                         // a later turn's fix buttons belong to this rebuild's rows only
    void addRows(size_t from);
    void addFixButtons(size_t from);

    nvvm::SharedDiagnostics diagnostics_ = std::make_shared<const std::vector<nvvm::Diagnostic>>();  // never null
    int errors_ = 0;
    int warnings_ = 0;
    int notes_ = 0;
    QLabel* header_ = nullptr;
    QLabel* empty_ = nullptr;
    QTreeWidget* tree_ = nullptr;
};

}  // namespace nvpg::gui
