#pragma once

#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include <QHash>
#include <QMainWindow>
#include <QMessageBox>

#include "core/export/Export.h"
#include "core/inspect/LineMap.h"
#include "core/interop/NumbaImport.h"
#include "gui/compile/Engine.h"

class QDockWidget;
class QLabel;
class QMenu;
class QScreen;
class QSplitter;
class QsciScintilla;
class QTimer;
class QToolButton;

namespace nvpg::engine {
class CallCancel;
}

namespace nvpg::gui {

class CfgPanel;
class CompileController;
class EditorArea;
class FindBar;
class FixController;
class Journal;
class LibdevicePanel;
class LessonPanel;
class AnalysisPanel;
class ComparePanel;
class HistoryDialog;
class LineMapLinks;
class Pressure;
class OptionsPanel;
class OutputView;
class ProblemsPanel;
class RunPanel;
class StartPage;
class WorkspaceDocument;

// NVVM Playground's window: module editors on the left, the PTX and LTO panes on the right,
// docks for options and problems. It owns the document and the engine; every compile goes
// through the engine, off the UI thread.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `engine`: null for the default (a SupervisedEngine over the toolkit found as nvpg finds it,
    // or the one the settings name).
    explicit MainWindow(std::unique_ptr<Engine> engine = nullptr, QWidget* parent = nullptr);
    ~MainWindow() override;

    // What the command line gives: one .nvpg opens it; .ll/.bc files become the modules of a
    // new workspace. Returns false (after saying why) when nothing could be opened.
    bool openPaths(const QStringList& paths);
    bool openWorkspace(const QString& path);
    // A copy of a bundled example (the original stays as it is): saving asks for a place.
    bool openExample(const QString& name);
    // A lesson file: a bundled one (File > Lessons) opens without a path, as an example does, and
    // goes on from the learner's saved progress; another opens as a workspace.
    bool openLesson(const QString& path);
    static QStringList exampleNames();
    // File > Import from numba…: the dialog, then importNumba.
    void importFromNumba();
    // Runs numba-cuda for `request` (core/interop) on a worker thread, the window usable and a
    // progress dialog whose Cancel kills the Python process; then opens the workspace it wrote.
    // An empty arch is the local GPU's as the GPU cache file knows it, else compute_90. False
    // (after saying why) when nothing was imported.
    bool importNumba(interop::NumbaImportRequest request);
    // File > Export > As cuda.core script… / As C program…: the compile on screen as standalone
    // code in the folder `dir` (core/export), with the Runs dock's configuration when it names a
    // kernel. Needs a successful compile of the workspace as it is; false (after saying why) when
    // nothing was written. Files already in the folder are replaced only after asking.
    bool exportCode(exporting::Target target, const QString& dir);
    // What the last exportCode said it wrote, how to run it and what it did not carry (shown in a
    // message box unless an error sink is set).
    QString lastExportReport() const { return lastExportReport_; }
    void newWorkspace();
    // Adds .ll/.bc files as modules of the open workspace.
    void addModuleFiles(const QStringList& paths);
    bool save();
    bool saveAs(const QString& path);
    // Where Save As and Export propose to write: `suffix` (".nvpg", ".ptx") after the workspace's
    // file name, beside it; for a workspace without a file, its name in the user's documents.
    QString proposedPath(const QString& suffix) const;

    // After a crash or kill -9, the unsaved work of the window that died is in its journal:
    // offers it back (the newest one, when several windows died). Returns true when restored.
    bool offerRestore();
    enum class RestoreChoice { Restore, Discard, Later };
    // Tests answer the restore offer without a dialog; `others`: journals left for later.
    void setRestoreQuestion(std::function<RestoreChoice(const QString& text)> ask) { askRestore_ = std::move(ask); }
    // Saving over a file that another program changed since it was opened asks first.
    enum class DiskConflict { Overwrite, SaveElsewhere, Cancel };
    void setDiskConflictQuestion(std::function<DiskConflict(const QString& text)> ask) {
        askConflict_ = std::move(ask);
    }
    // Writes the journal now (it is written a second after an edit, and at each compile).
    void writeJournal();
    QString journalFile() const;

    WorkspaceDocument* document() const { return document_; }
    CompileController* controller() const { return controller_; }
    EditorArea* editors() const { return editors_; }
    OutputView* output() const { return output_; }
    ComparePanel* compare() const { return compare_; }
    QDockWidget* compareDock() const { return compareDock_; }
    // The status bar's "History (N)" button, and the timeline it opens (null until opened).
    QToolButton* historyButton() const { return historyButton_; }
    HistoryDialog* historyDialog() const { return historyDialog_; }
    void showHistory();
    AnalysisPanel* analysisPanel() const { return analysis_; }
    QDockWidget* analysisDock() const { return analysisDock_; }
    QDockWidget* lessonDock() const { return lessonDock_; }
    LessonPanel* lessonPanel() const { return lesson_; }
    // Build > Pin Result: keeps the shown result in the workspace under `name` (empty: a
    // default name) and opens the Compare dock on it; an error is shown, and returned for tests.
    bool pinResult(const QString& name);
    LineMapLinks* lineMapLinks() const { return links_; }
    Pressure* pressure() const { return pressure_; }
    // View > Control Flow: the graph of the function under the caret (a bottom dock, closed at first).
    CfgPanel* cfgPanel() const { return cfg_; }
    QDockWidget* cfgDock() const { return cfgDock_; }
    // View > Line map.
    QAction* lineMapAction() const { return lineMapAction_; }
    ProblemsPanel* problems() const { return problems_; }
    LibdevicePanel* libdevicePanel() const { return libdevice_; }
    OptionsPanel* optionsPanel() const { return options_; }
    RunPanel* runPanel() const { return runs_; }
    // Applies the fixes Problems and the lightbulbs offer, and undoes them (Edit ▸ Undo).
    FixController* fixes() const { return fixes_; }
    // The last reply shown (for tests and export).
    const EngineReply& lastReply() const { return lastReply_; }

    // Where errors go: a message box by default; tests collect them instead.
    void setErrorSink(std::function<void(const QString& title, const QString& message)> sink) {
        errorSink_ = std::move(sink);
    }
    // View > Presenter (F11), for a projector: the IR and one output side by side, full screen,
    // the docks hidden, every text larger. Leaving it puts back the layout, the zoom and the
    // panes as they were.
    void setPresenterMode(bool on);
    bool presenterMode() const { return presenter_ != nullptr; }
    QAction* presenterAction() const { return presenterAction_; }
    // The output presenter mode shows beside the IR (View > Presenter Output), kept in the settings.
    void setPresenterOutput(inspect::MappedOutput output);
    inspect::MappedOutput presenterOutput() const { return presenterOutput_; }
    // The window's zoom (View > Zoom In/Out): points added to every text, the editors' and the
    // panes', headers, tables, docks and popups alike.
    int zoom() const { return zoom_; }
    // The settings key of the window's geometry on `screen`: each screen (by name and size) has
    // its own, so a laptop's size is not a projector's.
    static QString geometryKey(const QScreen* screen);

    // Tests answer "save changes?" without a dialog.
    void setSaveQuestion(std::function<QMessageBox::StandardButton()> ask) { ask_ = std::move(ask); }

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildActions();
    void buildStatusBar();
    // Locates the toolkit (no library mapped here) and starts probeToolkit.
    void loadToolkit();
    // libNVVM and nvJitLink are opened in an engine process and nvdisasm is asked for its
    // version on a thread of their own: a library that crashes or hangs as it loads, or an
    // nvdisasm that never answers, never reaches the UI thread. toolkitProbed gets the answer.
    void probeToolkit();
    void toolkitProbed(quint64 probe, std::shared_ptr<const toolkit::Toolkit> probed, const QString& problem);
    void queryGpu();
    bool maybeSave();
    void showReply(const EngineReply& reply);
    void showPtx(const EngineReply& reply);
    void showVerified(const EngineReply& reply);
    // Problems and the editors show the reply's diagnostics, counted into errors and warnings;
    // without a result its error is shown instead (the status bar: notDone with it) and false.
    bool showDiagnostics(const EngineReply& reply, const QString& notDone, int& errors, int& warnings);
    // The local GPU is known: on a first start, the Runs dock comes forward only where kernels
    // can run.
    void placeRunsDock(bool gpu);
    void updateTitle();
    void updateModuleActions();
    // The editor or output pane that has focus (or holds the focused find bar's search), else
    // the current module's editor: what Find, Go to Line and the Edit actions work on.
    QsciScintilla* focusedPane() const;
    // The find bar goes under the side (editors or output panes) whose pane it searches.
    void attachFindBar(QsciScintilla* pane);
    // The font-size setting plus the window's zoom, on every editor and output pane; the zoom on
    // every other text of the window.
    void applyZoom();
    // No larger than the available part of the screen the window is on, and on it.
    void fitToScreen();
    // The bottom dock in front takes its height: Problems its content's, the others the height
    // they last had (a default at first).
    void fitBottomDock(QDockWidget* dock);
    // The Analysis dock's kernel when the user has not picked one: the kernel whose define holds
    // the editor's caret.
    void preferCaretKernel();
    QList<QDockWidget*> bottomDocks() const;
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void afterOpen();
    void updateStartPage();          // shown while the workspace has no modules
    void addTemplateModule();        // Module ▸ New Module: a kernel that compiles and runs as it is
    void convertToText(int module);  // asks, then makes a bitcode module its llvm-dis-14 text
    void showError(const QString& title, const QString& message);
    bool saveAsDialog();
    // Runs `work` (reading or writing a file) on a worker thread. The UI thread keeps serving
    // events meanwhile (the window repaints; the status bar shows `what` and the time so far),
    // with the window's controls disabled, so that nothing edits the document under the worker.
    template <class T>
    T awaitWorker(const QString& what, std::function<T()> work);
    // True (after saying so) while a file is being read or written: a second one waits.
    bool busyWithFile();

    WorkspaceDocument* document_;
    std::unique_ptr<Engine> engine_;
    CompileController* controller_;
    EditorArea* editors_;
    OutputView* output_;
    ProblemsPanel* problems_;
    OptionsPanel* options_;
    RunPanel* runs_;
    LibdevicePanel* libdevice_ = nullptr;
    ComparePanel* compare_ = nullptr;
    QDockWidget* compareDock_ = nullptr;
    AnalysisPanel* analysis_ = nullptr;
    QDockWidget* analysisDock_ = nullptr;
    LessonPanel* lesson_ = nullptr;
    QDockWidget* lessonDock_ = nullptr;
    QMenu* lessonsMenu_ = nullptr;
    void rebuildLessonsMenu();
    CfgPanel* cfg_ = nullptr;
    QDockWidget* cfgDock_ = nullptr;
    FixController* fixes_ = nullptr;
    FindBar* findBar_;
    QWidget* findSides_[2] = {};  // under the editors, under the output panes
    int zoom_ = 0;
    double uiPointSize_ = 0;  // the size applyZoom last gave the window's texts
    QSplitter* central_ = nullptr;
    // What presenter mode changed, to put back; null outside it.
    struct PresenterSaved {
        QByteArray state;
        QRect geometry;
        Qt::WindowStates windowState;
        int zoom = 0;
        QList<int> central;
        bool sassTab = false;
    };
    std::unique_ptr<PresenterSaved> presenter_;
    inspect::MappedOutput presenterOutput_ = inspect::MappedOutput::Ptx;
    QAction* presenterAction_ = nullptr;
    QList<QAction*> presenterOutputActions_;
    QHash<QDockWidget*, int> bottomHeights_;  // each bottom dock's height when it was last in front
    bool shownOnce_ = false;
    StartPage* startPage_;
    EngineReply lastReply_;
    quint64 diagnosticsTurn_ = 0;  // the editors' marks of a large reply come a turn later: only the newest
    std::shared_ptr<const toolkit::Toolkit> toolkit_;
    QString libsErrorForStatus_;
    quint64 toolkitProbe_ = 0;                         // the probe whose answer is awaited
    bool toolkitProbed_ = false;                       // toolkit_ carries what the engine said of it
    std::shared_ptr<engine::CallCancel> probeCancel_;  // ends the probe's engine with the window
    // Joined when the window goes, so that a probe (nvdisasm --version, 2 s at most) ends its
    // processes, all of its group, before the app does: at the app's exit only its direct child
    // would be killed, and what that started (a script's sleep) would be left behind.
    std::vector<std::thread> probeThreads_;
    std::function<void(const QString&, const QString&)> errorSink_;
    QString lastExportReport_;

    QLabel* busyLabel_ = nullptr;
    QToolButton* cancelButton_ = nullptr;
    QLabel* libsLabel_ = nullptr;
    QToolButton* historyButton_ = nullptr;
    HistoryDialog* historyDialog_ = nullptr;
    QLabel* gpuLabel_ = nullptr;
    QDockWidget* problemsDock_ = nullptr;
    QDockWidget* runsDock_ = nullptr;
    bool firstLayout_ = false;  // no window layout saved: the docks are placed for this machine
    QTimer* busyTicker_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QAction* lazyAction_ = nullptr;
    QAction* convertAction_ = nullptr;
    QAction* splitAction_ = nullptr;
    QAction* autoAction_ = nullptr;
    QAction* lineMapAction_ = nullptr;
    LineMapLinks* links_ = nullptr;
    Pressure* pressure_ = nullptr;
    QList<QAction*> moduleActions_;
    std::function<QMessageBox::StandardButton()> ask_;
    std::function<RestoreChoice(const QString&)> askRestore_;
    std::function<DiskConflict(const QString&)> askConflict_;
    std::unique_ptr<Journal> journal_;
    QTimer* journalTimer_ = nullptr;
    bool opening_ = false;
    // The files modules were read from (Add modules, .ll files opened on their own), by module
    // name: Save As never replaces one that the workspace still has.
    QHash<QString, QString> moduleFiles_;
    QString fileTask_;  // what awaitWorker is doing; empty when idle
};

}  // namespace nvpg::gui
