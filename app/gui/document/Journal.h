#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <QDateTime>
#include <QList>
#include <QString>

#include "core/support/Result.h"
#include "core/workspace/Workspace.h"

class QLockFile;

namespace nvpg::gui {

// Unsaved work, copied to the application data folder (QStandardPaths::AppDataLocation,
// journal/) so that a crash or a kill -9 loses at most the last moments of typing. Each running
// window keeps one journal file and holds a lock beside it while it lives; a journal whose lock
// is stale (its process is gone) is an orphan, offered back at the next start.
class Journal {
public:
    // What a journal holds: the workspace as it was in the editors, and where it came from.
    struct Entry {
        QString file;           // the journal file
        QString workspacePath;  // the .nvpg it was opened from; empty for a new or example workspace
        QByteArray diskHash;    // that file's hash when it was read (see WorkspaceDocument)
        QString name;
        QDateTime written;
        workspace::Workspace workspace;
    };

    Journal();
    ~Journal();  // a clean end: the file and its lock go

    static QString folder();
    // Journals left by processes that ended without cleaning up, newest first. Each one found is
    // locked by this process until discard() or release() (or until it ends), so two starting
    // windows never offer the same work twice. A restored journal is discarded once its
    // workspace is open: the window's own journal holds that work from then on. Locks left by
    // processes that are gone, with no journal beside them, are removed.
    static QList<Entry> orphans();
    static void discard(const QString& file);
    // Leaves it for a later start (unlocked, kept).
    static void release(const QString& file);

    // Writes atomically (a temporary file renamed over the last journal), with the permissions
    // of the workspace file at `workspacePath` (0600 when there is none).
    support::Status write(const workspace::Workspace& ws, const QString& workspacePath, const QByteArray& diskHash);
    // The same on a worker thread, for a workspace too large to serialize between two key
    // presses: `done` gets the outcome there. A write still waiting when the next one comes is
    // replaced by it; write() and clear() wait for the one in progress and drop the waiting one.
    void writeInBackground(workspace::Workspace ws, const QString& workspacePath, const QByteArray& diskHash,
                           std::function<void(const support::Status&)> done);
    // Module text above this many bytes in all is journaled by writeInBackground: a 200,000-line
    // module (8 MB) takes tens of ms to turn into JSON and write, a stall a typist feels, and a
    // 15,000-line one (0.5 MB) 6-12 ms, most of a frame.
    static constexpr size_t kBackgroundBytes = size_t(64) << 10;
    // Nothing unsaved any more: the journal file goes (the lock stays until the end).
    void clear();
    QString file() const { return file_; }

private:
    struct Pending {
        workspace::Workspace ws;
        QString workspacePath;
        QByteArray diskHash;
        std::function<void(const support::Status&)> done;
    };
    support::Status writeNow(const workspace::Workspace& ws, const QString& workspacePath, const QByteArray& diskHash);
    void waitForWriter();  // drops the waiting write; returns when none is in progress

    QString file_;
    std::unique_ptr<QLockFile> lock_;
    std::mutex mutex_;
    std::condition_variable idle_;
    std::optional<Pending> pending_;
    bool writing_ = false;
    // A writer of its own rather than the GUI's LatestJob: write(), clear() and the destructor
    // must wait for the write in hand (an older background write must never land after a newer
    // one or after the file went), and `done` runs on the writer. It lives only while there is
    // something to write and is always joined.
    std::thread writer_;
};

}  // namespace nvpg::gui
