#pragma once

#include <memory>

#include <QObject>
#include <QString>

#include "core/export/Export.h"
#include "core/interop/NumbaImport.h"

class QWidget;

namespace nvpg::toolkit {
class Toolkit;
}

namespace nvpg::gui {

class CompileController;
class EditorArea;
class RunPanel;
class ToolkitStatus;
class WorkspaceDocument;
class WorkspaceFiles;
struct EngineReply;

// Programs in and out of the window: File > Import from numba (numba-cuda run on a worker, its
// workspace opened) and File > Export as a cuda.core script or a C program (core/export).
class ProgramTransfer : public QObject {
    Q_OBJECT

public:
    ProgramTransfer(QWidget* window, WorkspaceFiles* files, WorkspaceDocument* document, EditorArea* editors,
                    CompileController* controller, RunPanel* runs, ToolkitStatus* toolkit);

    // The dialog, then importNumba.
    void importFromNumba();
    // Runs numba-cuda for `request` off the UI thread, the window usable and a progress dialog
    // whose Cancel kills the Python process; then opens the workspace it wrote. An empty arch is
    // the local GPU's as the GPU cache file knows it, else compute_90. False (after saying why)
    // when nothing was imported.
    bool importNumba(interop::NumbaImportRequest request);
    // The compile `shown` as standalone code in the folder `dir`, with the Runs dock's
    // configuration when it names a kernel. Needs a successful compile of the workspace as it is;
    // false (after saying why) when nothing was written. Files already in the folder are replaced
    // only after asking.
    bool exportCode(exporting::Target target, const QString& dir, const EngineReply& shown);
    // File > Export > As ...: asks for the folder, then exportCode.
    void exportDialog(exporting::Target target, const EngineReply& shown);
    // What the last exportCode said it wrote, how to run it and what it did not carry.
    QString lastExportReport() const { return lastExportReport_; }

signals:
    void failed(const QString& title, const QString& message);
    void message(const QString& text, int timeoutMs);
    // An export's report, for a message box.
    void exported(const QString& title, const QString& report);

private:
    QWidget* window_;
    WorkspaceFiles* files_;
    WorkspaceDocument* document_;
    EditorArea* editors_;
    CompileController* controller_;
    RunPanel* runs_;
    ToolkitStatus* toolkit_;
    QString lastExportReport_;
};

}  // namespace nvpg::gui
