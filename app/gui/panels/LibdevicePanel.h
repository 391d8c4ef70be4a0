#pragma once

#include <memory>
#include <vector>

#include <QWidget>

#include "core/pipeline/CompileResult.h"
#include "core/pipeline/Job.h"
#include "core/pipeline/LibdeviceUse.h"

class QLabel;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace nvpg::gui {

class WorkspaceDocument;

class CompileController;

// The libdevice dock: each libdevice function the shown compile linked, with the IR lines that
// call it (a row each: activating one jumps there), how many PTX lines and SASS instructions it
// became and the functions it pulls in; beside them the selected one's signature, its doc
// (inspect::Docs, as `nvpg explain` prints it) and how its figures were found. Selecting a
// function asks for its PTX lines to be marked. The figures are core's (pipeline::libdeviceUses);
// the panel only shows them.
class LibdevicePanel : public QWidget {
    Q_OBJECT

public:
    enum Column { NameColumn, CallsColumn, PtxColumn, SassColumn, PullsColumn };
    // Reads each compile's job as it went (the modules' text then) with its result, the late
    // result and the line map.
    void attach(CompileController* controller, WorkspaceDocument* document);

    explicit LibdevicePanel(QWidget* parent = nullptr);
    // The shown reply's job and result: the plain one first, then the complete one with its map.
    void setResult(pipeline::Job job, std::shared_ptr<const pipeline::CompileResult> result);
    // The complete result of the one shown (with its SASS and map), for the same job.
    void setLateResult(std::shared_ptr<const pipeline::CompileResult> result);
    // The map of the result shown, when it comes apart from it.
    void setLineMap(std::shared_ptr<const inspect::LineMap> map);
    void clear();

    const std::vector<pipeline::LibdeviceUse>& uses() const { return uses_; }
    QTreeWidget* view() const { return tree_; }
    QTextBrowser* details() const { return details_; }
    // The top-level row of function `name`; null when it is not listed.
    QTreeWidgetItem* functionItem(const QString& name) const;

signals:
    void activated(const QString& module, int line, int column);
    // A function was selected: its PTX lines (empty when not known; the details say why).
    void ptxLinesSelected(const std::vector<nvpg::inspect::LineRange>& lines);

private:
    void rebuild();
    void showDetails(int use);

    pipeline::Job job_;
    std::shared_ptr<const pipeline::CompileResult> result_;
    std::vector<pipeline::LibdeviceUse> uses_;
    QLabel* header_ = nullptr;
    QTreeWidget* tree_ = nullptr;
    QTextBrowser* details_ = nullptr;
};

}  // namespace nvpg::gui
