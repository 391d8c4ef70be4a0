#pragma once

#include <string_view>

#include <QObject>
#include <QString>

#include "core/support/Result.h"
#include "core/workspace/Workspace.h"

namespace nvpg::gui {

// The open workspace: the modules, options and choices the user edits, where it is saved, and
// whether it changed since. Editors are views of its modules; the text they hold is copied in
// (setModuleText) only when a compile or a save needs it.
class WorkspaceDocument : public QObject {
    Q_OBJECT

public:
    explicit WorkspaceDocument(QObject* parent = nullptr);

    const workspace::Workspace& workspace() const { return ws_; }
    QString path() const { return path_; }  // empty for a new or example workspace
    QString displayName() const;            // the file's name, else the workspace's, else "untitled"
    // Tells the session's workspaces apart (the compile history compares a compile only with
    // its own workspace's): the file's path when one was read, else one of its own per reset();
    // a save keeps it.
    QString key() const { return key_; }
    bool isModified() const { return modified_; }

    // Replaces everything; the document is then unmodified. `diskHash`: fileHash() of the bytes
    // `path` held when they were read, so that a save can tell whether someone changed the file.
    void reset(workspace::Workspace ws, const QString& path, const QByteArray& diskHash = {});
    // A workspace file read and parsed, with the hash of its bytes: what load() reads. It touches
    // no document, so it runs on a worker thread while the window stays responsive.
    struct Read {
        workspace::Workspace workspace;
        QByteArray diskHash;
    };
    static support::Result<Read> read(const QString& path);
    support::Status load(const QString& path);
    // Atomic (QSaveFile: a temporary file renamed over the old one); the document becomes that
    // file. It does not look at what is there: ask changedOnDisk() first.
    support::Status saveAs(const QString& path);
    // saveAs() in three steps, so that the writing can run on a worker thread: the bytes for
    // `path` (UI thread), write() them (any thread: it touches no document; it refuses a target
    // that is not a regular file, such as a FIFO or a link to /dev/zero), then savedAs() (UI
    // thread) once they are there.
    support::Result<QByteArray> bytesFor(const QString& path) const;
    static support::Status write(const QString& path, const QByteArray& data);
    void savedAs(const QString& path, const QByteArray& data);

    // True when the file at path() is no longer what this document read or last wrote there
    // (another program or another window saved it). A deleted file has not "changed".
    bool changedOnDisk() const { return changedOnDisk(path_, diskHash_); }
    // The same for any path and hash; it touches no document (a worker thread runs it).
    static bool changedOnDisk(const QString& path, const QByteArray& diskHash);
    QByteArray diskHash() const { return diskHash_; }
    static QByteArray fileHash(const QByteArray& bytes);

    int moduleCount() const { return int(ws_.modules.size()); }
    const nvvm::Module& module(int i) const { return ws_.modules.at(size_t(i)); }
    int indexOf(const QString& name) const;
    // A name not used by any module yet, from `wanted` ("kernel.ll" -> "kernel-2.ll").
    QString uniqueName(const QString& wanted) const { return uniqueName(ws_, wanted); }
    // The same among the modules of `ws`, before it is a document's.
    static QString uniqueName(const workspace::Workspace& ws, const QString& wanted);

    // Structure edits; each marks the document modified and emits modulesChanged.
    int addModule(nvvm::Module m);  // the name is made unique; returns the index
    void removeModule(int i);
    support::Status renameModule(int i, const QString& name);
    void moveModule(int from, int to);
    void setLazy(int i, bool lazy);

    // Content edits.
    void setModuleText(int i, std::string_view text);  // no signal: editors are the source
    void setOptions(const nvvm::Options& options);
    void setLibdevice(bool on);  // the user's choice: saved, and the libdevice rule leaves it alone
    // workspace::applyLibdeviceRule on the modules there are: the functions that turned
    // libdevice on (empty when nothing changed). Not an edit of the user's: not marked modified.
    std::vector<std::string> applyLibdeviceRule();
    void setVerify(bool on);
    void setLtoMode(lto::Mode mode);
    void setName(const QString& name);
    void setRuns(std::vector<gpu::RunConfig> runs);
    // Pins and variants (the Compare dock's); each marks the document modified and emits
    // comparisonsChanged. A pin or variant of a name already used replaces that one.
    void putPin(workspace::Pin pin);
    void removePin(const QString& name);
    void putVariant(workspace::Variant variant, const QString& replacing = {});
    void removeVariant(const QString& name);
    const workspace::Pin* pin(const QString& name) const;
    const workspace::Variant* variant(const QString& name) const;
    // A lesson's step changes the whole state (modules, options, libdevice, LTO mode, runs) to
    // `state`'s: a reload of the modules and settings that keeps the path and the lesson, marked
    // modified (the learner's work before it is kept by the Lesson dock).
    void replaceState(const workspace::Workspace& state);
    // The step a lesson is on, written into its "lesson" object so that a save records it; not an
    // edit of the learner's (nothing is marked modified).
    void setLessonStep(int step);
    // The lesson object with what it carries added (the files its checks compare with): the
    // same lesson, so, as for the step, nothing is marked modified.
    void setLessonData(nlohmann::ordered_json lesson);
    // An editor changed a module's text that is not copied in yet.
    void markModified();
    // Unmodified again when everything is as it was when last read or saved (an edit undone).
    void markUnmodifiedIfAsSaved();

signals:
    // Every change that marks the document modified (each one, also when it was modified
    // already). The journal follows this one signal, so whatever sets the title's * is journaled.
    void changed();
    void reloaded();            // reset() replaced everything; modulesChanged follows
    void modulesChanged();      // added, removed, renamed, moved, lazy flag, or reset
    void settingsChanged();     // options, libdevice, verify, LTO mode
    void comparisonsChanged();  // pins or variants added, replaced or removed, or reset
    void modifiedChanged(bool modified);
    void pathChanged(const QString& path);

private:
    void setModified(bool m);

    workspace::Workspace ws_;
    workspace::Workspace saved_;  // as last read or saved: what "unmodified" means
    QString path_;
    QString key_;
    QByteArray diskHash_;
    bool modified_ = false;
};

}  // namespace nvpg::gui
