#pragma once

#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "core/inspect/LineMap.h"
#include "core/pipeline/CompileResult.h"
#include "core/pipeline/LiveFigures.h"

namespace nvpg::gui {

class CompileController;
class EditorArea;
class LineMapLinks;
class OutputView;
class WorkspaceDocument;

// Register pressure and local memory shown where people read code: the
// pressure strips of the IR editors and the PTX, LTO PTX and SASS panes (PressureStrip), local
// memory marked on its lines, and under each output pane's header its kernels' peak ("peak 19
// live at math.ll:44", a link that goes there) and its local-memory lines (a link that steps
// through them). The figures are core's (pipeline::liveFigures, localMemoryPlaces); this only
// puts them on screen.
class Pressure : public QObject {
    Q_OBJECT

public:
    Pressure(EditorArea* editors, OutputView* output, LineMapLinks* links, WorkspaceDocument* document,
             QObject* parent = nullptr);
    // Each compile's live registers, with the SASS listing (never the figures of the compile
    // before on a new listing).
    void attach(CompileController* controller);

    // The complete result on screen (its SASS and line map); null clears.
    void setResult(std::shared_ptr<const pipeline::CompileResult> result);
    // A module's text changed: its strip is of other lines now, and goes until the next result.
    void textEdited();
    // The SASS pane's view changed (the nvdisasm listing toggle): its strip follows its lines.
    void sassDisplayChanged();

    const pipeline::LiveFigures& live() const { return live_; }
    const pipeline::LocalMemoryPlaces& localMemory() const { return places_; }
    // The 1-based line of `output`'s pane that the local-memory link showed last; 0 before any.
    int localMemoryShown(inspect::MappedOutput output) const { return localShown_[int(output)]; }

private:
    void paintOutputs();
    void paintEditor(int module);
    void linkActivated(inspect::MappedOutput output, const QString& link);
    std::vector<int> shownLocalLines(inspect::MappedOutput output) const;
    int sassShownLine(int listingLine) const;
    int scale() const;

    EditorArea* editors_;
    OutputView* output_;
    LineMapLinks* links_;
    WorkspaceDocument* document_;
    std::shared_ptr<const pipeline::CompileResult> result_;
    pipeline::LiveFigures live_;
    pipeline::LocalMemoryPlaces places_;
    int localShown_[3] = {0, 0, 0};
    size_t localNext_[3] = {0, 0, 0};
};

}  // namespace nvpg::gui
