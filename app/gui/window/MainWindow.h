#pragma once

#include <functional>
#include <memory>

#include <QMainWindow>
#include <QMessageBox>

#include "core/export/Export.h"
#include "core/inspect/LineMap.h"
#include "core/interop/NumbaImport.h"
#include "gui/compile/Engine.h"
#include "gui/window/CompileStatus.h"
#include "gui/window/DockLayout.h"
#include "gui/window/Presentation.h"
#include "gui/window/ProgramTransfer.h"
#include "gui/window/Recovery.h"
#include "gui/window/WindowActions.h"
#include "gui/window/WorkspaceFiles.h"

class QDockWidget;
class QToolButton;

namespace nvpg::gui {

class AnalysisPanel;
class CfgPanel;
class ComparePanel;
class CompileController;
class EditorArea;
class FindBar;
class FixController;
class HistoryDialog;
class LessonPanel;
class LibdevicePanel;
class LineMapLinks;
class OptionsPanel;
class OutputView;
class Pressure;
class ProblemsPanel;
class RunPanel;
class StartPage;
class ToolkitStatus;
class WorkspaceDocument;

// NVVM Playground's window: module editors on the left, the PTX and LTO panes on the right,
// docks around them. It composes the parts and connects them; each part owns its concern: the
// docks' layout (DockLayout), menus (WindowActions), files (WorkspaceFiles), the journal
// (Recovery), the toolkit and GPU (ToolkitStatus), zoom and presenter mode (Presentation),
// numba import and export (ProgramTransfer), what a compile says (CompileStatus). Every compile
// goes through the engine, off the UI thread.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `engine`: null for the default (a SupervisedEngine over the toolkit found as nvpg finds it,
    // or the one the settings name).
    explicit MainWindow(std::unique_ptr<Engine> engine = nullptr, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Files (WorkspaceFiles): what the command line gives, a workspace, an example, a lesson.
    bool openPaths(const QStringList& paths) { return files_->openPaths(paths); }
    bool openWorkspace(const QString& path) { return files_->openWorkspace(path); }
    bool openExample(const QString& name) { return files_->openExample(name); }
    bool openLesson(const QString& path) { return files_->openLesson(path); }
    static QStringList exampleNames();
    void newWorkspace() { files_->newWorkspace(); }
    void addModuleFiles(const QStringList& paths) { files_->addModuleFiles(paths); }
    bool save() { return files_->save(); }
    bool saveAs(const QString& path) { return files_->saveAs(path); }
    QString proposedPath(const QString& suffix) const { return files_->proposedPath(suffix); }
    // Tests answer "save changes?" and "changed on disk" without a dialog.
    void setSaveQuestion(std::function<QMessageBox::StandardButton()> ask) { files_->setSaveQuestion(std::move(ask)); }
    using DiskConflict = WorkspaceFiles::DiskConflict;
    void setDiskConflictQuestion(std::function<DiskConflict(const QString& text)> ask) {
        files_->setDiskConflictQuestion(std::move(ask));
    }

    // Programs in and out (ProgramTransfer).
    void importFromNumba() { transfer_->importFromNumba(); }
    bool importNumba(interop::NumbaImportRequest request) { return transfer_->importNumba(std::move(request)); }
    bool exportCode(exporting::Target target, const QString& dir) {
        return transfer_->exportCode(target, dir, status_->lastReply());
    }
    QString lastExportReport() const { return transfer_->lastExportReport(); }

    // The journal (Recovery): after a crash, the unsaved work of the window that died.
    bool offerRestore() { return recovery_->offerRestore(); }
    using RestoreChoice = Recovery::Choice;
    void setRestoreQuestion(std::function<RestoreChoice(const QString& text)> ask) {
        recovery_->setQuestion(std::move(ask));
    }
    void writeJournal() { recovery_->write(); }
    QString journalFile() const { return recovery_->journalFile(); }

    WorkspaceDocument* document() const { return document_; }
    CompileController* controller() const { return controller_; }
    EditorArea* editors() const { return editors_; }
    OutputView* output() const { return output_; }
    ComparePanel* compare() const { return compare_; }
    QDockWidget* compareDock() const { return compareDock_; }
    // The status bar's "History (N)" button, and the timeline it opens (null until opened).
    QToolButton* historyButton() const { return status_->historyButton(); }
    HistoryDialog* historyDialog() const { return status_->historyDialog(); }
    void showHistory() { status_->showHistory(); }
    AnalysisPanel* analysisPanel() const { return analysis_; }
    QDockWidget* analysisDock() const { return analysisDock_; }
    QDockWidget* lessonDock() const { return lessonDock_; }
    LessonPanel* lessonPanel() const { return lesson_; }
    // Build > Pin Result: keeps the shown result in the workspace under `name` (empty: a
    // default name) and opens the Compare dock on it; an error is shown, and returned for tests.
    bool pinResult(const QString& name);
    LineMapLinks* lineMapLinks() const { return links_; }
    Pressure* pressure() const { return pressure_; }
    CfgPanel* cfgPanel() const { return cfg_; }
    QDockWidget* cfgDock() const { return cfgDock_; }
    QAction* lineMapAction() const { return actions_->lineMapAction(); }
    ProblemsPanel* problems() const { return problems_; }
    LibdevicePanel* libdevicePanel() const { return libdevice_; }
    OptionsPanel* optionsPanel() const { return options_; }
    RunPanel* runPanel() const { return runs_; }
    FixController* fixes() const { return fixes_; }
    const EngineReply& lastReply() const { return status_->lastReply(); }

    // Where errors go: a message box by default; tests collect them instead.
    void setErrorSink(std::function<void(const QString& title, const QString& message)> sink) {
        errorSink_ = std::move(sink);
    }
    // Zoom and presenter mode (Presentation).
    void setPresenterMode(bool on) { presentation_->setPresenterMode(on); }
    bool presenterMode() const { return presentation_->presenterMode(); }
    QAction* presenterAction() const { return presentation_->presenterAction(); }
    void setPresenterOutput(inspect::MappedOutput output) { presentation_->setPresenterOutput(output); }
    inspect::MappedOutput presenterOutput() const { return presentation_->presenterOutput(); }
    int zoom() const { return presentation_->zoom(); }
    static QString geometryKey(const QScreen* screen) { return DockLayout::geometryKey(screen); }

    // File > Settings accepted (also called after changing the stored settings): the toolkit and
    // engine they name, the zoom.
    void applySettings();

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildDocks(QWidget* central);
    void connectParts();
    // The toolkit as ToolkitStatus has it now, on every part that compiles or says what it can.
    void applyToolkit();
    // The document was replaced: the views show nothing of the workspace before.
    void workspaceReplaced(bool opened);
    // The Analysis dock's kernel when the user has not picked one: the kernel whose define holds
    // the editor's caret.
    void preferCaretKernel();
    void updateTitle();
    void updateStartPage();  // shown while the workspace has no modules
    void showError(const QString& title, const QString& message);
    void showMessage(const QString& text, int timeoutMs);

    WorkspaceDocument* document_;
    std::unique_ptr<Engine> engine_;
    ToolkitStatus* toolkit_;
    CompileController* controller_ = nullptr;
    EditorArea* editors_ = nullptr;
    FindBar* findBar_ = nullptr;
    QWidget* findSides_[2] = {};  // under the editors, under the output panes
    StartPage* startPage_ = nullptr;
    OutputView* output_ = nullptr;
    ProblemsPanel* problems_ = nullptr;
    OptionsPanel* options_ = nullptr;
    RunPanel* runs_ = nullptr;
    LibdevicePanel* libdevice_ = nullptr;
    ComparePanel* compare_ = nullptr;
    AnalysisPanel* analysis_ = nullptr;
    LessonPanel* lesson_ = nullptr;
    CfgPanel* cfg_ = nullptr;
    LineMapLinks* links_ = nullptr;
    Pressure* pressure_ = nullptr;
    FixController* fixes_ = nullptr;
    QDockWidget* optionsDock_ = nullptr;
    QDockWidget* problemsDock_ = nullptr;
    QDockWidget* runsDock_ = nullptr;
    QDockWidget* compareDock_ = nullptr;
    QDockWidget* analysisDock_ = nullptr;
    QDockWidget* lessonDock_ = nullptr;
    QDockWidget* cfgDock_ = nullptr;
    DockLayout* docks_ = nullptr;
    WorkspaceFiles* files_ = nullptr;
    Recovery* recovery_ = nullptr;
    Presentation* presentation_ = nullptr;
    ProgramTransfer* transfer_ = nullptr;
    CompileStatus* status_ = nullptr;
    WindowActions* actions_ = nullptr;
    std::function<void(const QString&, const QString&)> errorSink_;
};

}  // namespace nvpg::gui
