#pragma once

#include <functional>
#include <string>
#include <vector>

#include <QByteArray>
#include <QHash>
#include <QMessageBox>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include "core/workspace/Workspace.h"

class QMainWindow;
class QMenu;
class QMimeData;

namespace nvpg::gui {

class EditorArea;
class LessonPanel;
class WorkspaceDocument;

// The window's files: a new workspace; opening a workspace, an example, a lesson or IR files
// (File > Open, the command line, drops, recent files); adding module files; saving, with the
// check for a file changed on disk. Files are read and written off the UI thread. Errors and
// notes are reported by signal.
class WorkspaceFiles : public QObject {
    Q_OBJECT

public:
    WorkspaceFiles(QMainWindow* window, WorkspaceDocument* document, EditorArea* editors, LessonPanel* lesson);

    // True while the document is being replaced (the open is not finished): its change signals
    // then are no edits.
    bool opening() const { return opening_; }

    void newWorkspace();
    bool openWorkspace(const QString& path);
    // A copy of a bundled example (the original stays as it is): saving asks for a place.
    bool openExample(const QString& name);
    // A bundled lesson opens without a path and goes on from the learner's saved progress; another
    // opens as a workspace.
    bool openLesson(const QString& path);
    // What File > Open, the start page and the command line open: one .nvpg opens it; module
    // files (.ll, .bc: nvvm::moduleFileKinds()) become the modules of a new workspace, unmodified,
    // as a workspace read from a file is. False (after saying why) when nothing could be opened;
    // the workspace open before is then still there.
    bool openPaths(const QStringList& paths);
    // Adds module files (.ll, .bc) as modules of the open workspace.
    void addModuleFiles(const QStringList& paths);
    // Module > Add Module Files' dialog, then the files.
    void addModulesDialog();
    // Work a journal kept, put back as unsaved work of the window.
    void openRestored(workspace::Workspace ws, const QString& path, const QByteArray& diskHash);
    bool save();
    bool saveAs(const QString& path);
    bool saveAsDialog();
    // File > Open's dialog (a workspace, or one or more module files), after the "save changes?"
    // question; then openPaths().
    void openDialog();
    // The module files' patterns for a file dialog, "*.ll *.bc", and whether `path` is one by its
    // name: both from nvvm::moduleFileKinds().
    static QString moduleFilePatterns();
    static bool isModuleFile(const QString& path);
    // Where Save As and Export propose to write: `suffix` after the workspace's file name, beside
    // it; for a workspace without a file, its name in the user's documents.
    QString proposedPath(const QString& suffix) const;
    // Asks to save unsaved changes: false when the user cancelled (or the save failed).
    bool maybeSave();

    // True (after saying so) while a file is being read or written: a second one waits.
    bool busyWithFile();
    // What the window is busy with meanwhile (the status bar's "Wait: ..."); empty: nothing.
    void setTask(const QString& what) { task_ = what; }

    // File > Open Recent and File > Lessons, filled here and kept up to date.
    void setRecentMenu(QMenu* menu);
    void setLessonsMenu(QMenu* menu);
    void rebuildLessonsMenu();
    QStringList recentFiles() const;

    // Drops: a workspace file opens; module files join the open workspace (true: taken).
    static bool canOpen(const QMimeData* data);
    bool dropped(const QMimeData* data);

    // Tests answer "save changes?" and "changed on disk" without a dialog.
    void setSaveQuestion(std::function<QMessageBox::StandardButton()> ask) { askSave_ = std::move(ask); }
    enum class DiskConflict { Overwrite, SaveElsewhere, Cancel };
    void setDiskConflictQuestion(std::function<DiskConflict(const QString& text)> ask) {
        askConflict_ = std::move(ask);
    }

signals:
    void failed(const QString& title, const QString& message);
    void message(const QString& text, int timeoutMs);
    // The document was replaced: `opened` for a workspace read from somewhere (to be compiled),
    // else a new empty one.
    void replaced(bool opened);
    void recentChanged(const QStringList& recent);
    void saved();

private:
    // Module files read off the UI thread: each one that could be read, with its bytes; why
    // each other could not be goes into `problems`.
    struct ModuleFile {
        QString path;
        std::string bytes;
    };
    std::vector<ModuleFile> readModuleFiles(const QStringList& paths, QStringList& problems);
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void afterOpen();
    // Runs `work` (reading or writing a file) off the UI thread. The UI thread keeps serving
    // events meanwhile (the window repaints; the status bar shows `what` and the time so far),
    // with the window's controls disabled, so that nothing edits the document under the worker.
    template <class T>
    T awaitWorker(const QString& what, std::function<T()> work);

    QMainWindow* window_;
    WorkspaceDocument* document_;
    EditorArea* editors_;
    LessonPanel* lesson_;
    QMenu* recentMenu_ = nullptr;
    QMenu* lessonsMenu_ = nullptr;
    bool opening_ = false;
    QString task_;  // what awaitWorker is doing; empty when idle
    // The files modules were read from (Add modules, .ll files opened on their own), by module
    // name: Save As never replaces one that the workspace still has.
    QHash<QString, QString> moduleFiles_;
    std::function<QMessageBox::StandardButton()> askSave_;
    std::function<DiskConflict(const QString&)> askConflict_;
    QThreadPool threads_;  // the file's reader or writer; waited for when this object goes
};

}  // namespace nvpg::gui
