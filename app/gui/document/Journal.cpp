#include "gui/document/Journal.h"

#include <sys/stat.h>

#include <map>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QLockFile>
#include <QSaveFile>
#include <QStandardPaths>

#include <nlohmann/json.hpp>

#include "core/support/Json.h"

namespace nvpg::gui {

namespace {

constexpr const char* kFormat = "nvvm-playground-journal";
constexpr int kVersion = 1;

// Orphans this process has claimed (locked), until it discards them or ends.
std::map<QString, std::unique_ptr<QLockFile>>& claimed() {
    static std::map<QString, std::unique_ptr<QLockFile>> locks;
    return locks;
}

std::unique_ptr<QLockFile> lockFor(const QString& journalFile) {
    auto lock = std::make_unique<QLockFile>(journalFile + ".lock");
    lock->setStaleLockTime(0);  // a live window may keep its journal for days: stale only when its process is gone
    return lock;
}

support::Result<Journal::Entry> readEntry(const QString& file) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return support::makeError(support::ErrorKind::Input, "cannot read " + file.toStdString());
    const auto parsed = support::parseJson(f.readAll().toStdString());
    const auto& j = parsed.doc;
    if (parsed.problem || !j.is_object() || j.value("format", "") != kFormat || !j.contains("workspace") ||
        !j["workspace"].is_string())
        return support::makeError(support::ErrorKind::Input, file.toStdString() + " is not a journal");
    auto ws = workspace::parseWorkspace(j["workspace"].get<std::string>(), file.toStdString());
    if (!ws) return ws.error();
    Journal::Entry e;
    e.file = file;
    e.workspace = std::move(*ws);
    const auto text = [&](const char* key) {
        return j.contains(key) && j[key].is_string() ? QString::fromStdString(j[key].get<std::string>()) : QString();
    };
    e.workspacePath = text("workspace_path");
    e.diskHash = QByteArray::fromHex(text("disk_hash").toLatin1());
    e.written = QDateTime::fromString(text("written"), Qt::ISODateWithMs);
    e.name = QString::fromStdString(e.workspace.name);
    return e;
}

// The journal holds what the workspace holds, so it is as private as the workspace file; a
// workspace that has no file yet gets a private one (0600). Its owner may always rewrite it.
QFileDevice::Permissions permissionsFor(const QString& workspacePath) {
    constexpr QFileDevice::Permissions kPrivate = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    struct stat st {};
    if (workspacePath.isEmpty() || ::stat(QFile::encodeName(workspacePath).constData(), &st) != 0) return kPrivate;
    QFileDevice::Permissions p = kPrivate;
    if (st.st_mode & S_IRGRP) p |= QFileDevice::ReadGroup;
    if (st.st_mode & S_IWGRP) p |= QFileDevice::WriteGroup;
    if (st.st_mode & S_IROTH) p |= QFileDevice::ReadOther;
    if (st.st_mode & S_IWOTH) p |= QFileDevice::WriteOther;
    return p;
}

// A window killed with nothing unsaved leaves its lock and no journal. A lock whose process is
// gone (QLockFile checks the pid and the program it names) is taken and let go, which removes it;
// the locks of live windows stay.
void removeStaleLocks(const QDir& dir) {
    for (const auto& name : dir.entryList({"journal-*.json.lock"}, QDir::Files | QDir::Hidden)) {
        const auto journalFile = dir.filePath(name.chopped(int(sizeof(".lock") - 1)));
        if (QFile::exists(journalFile) || claimed().count(journalFile)) continue;  // orphans() looks at those
        auto lock = lockFor(journalFile);
        if (lock->tryLock(0)) lock->unlock();
    }
}

}  // namespace

QString Journal::folder() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/journal");
}

Journal::Journal() {
    QDir().mkpath(folder());
    file_ = QStringLiteral("%1/journal-%2-%3.json")
                .arg(folder())
                .arg(QCoreApplication::applicationPid())
                .arg(QDateTime::currentMSecsSinceEpoch());
    lock_ = lockFor(file_);
    (void)lock_->tryLock(0);
}

Journal::~Journal() {
    waitForWriter();
    if (writer_.joinable()) writer_.join();
    QFile::remove(file_);
    if (lock_) lock_->unlock();
}

support::Status Journal::write(const workspace::Workspace& ws, const QString& workspacePath,
                               const QByteArray& diskHash) {
    waitForWriter();
    return writeNow(ws, workspacePath, diskHash);
}

void Journal::writeInBackground(workspace::Workspace ws, const QString& workspacePath, const QByteArray& diskHash,
                                std::function<void(const support::Status&)> done) {
    std::unique_lock lock(mutex_);
    pending_ = Pending{std::move(ws), workspacePath, diskHash, std::move(done)};
    if (writing_) return;  // the writer takes it when it is done with the one in hand
    writing_ = true;
    lock.unlock();
    if (writer_.joinable()) writer_.join();  // it has finished: writing_ was false
    writer_ = std::thread([this] {
        std::unique_lock lock(mutex_);
        while (pending_) {
            Pending job = std::move(*pending_);
            pending_.reset();
            lock.unlock();
            const auto status = writeNow(job.ws, job.workspacePath, job.diskHash);
            if (job.done) job.done(status);
            lock.lock();
        }
        writing_ = false;
        idle_.notify_all();
    });
}

void Journal::waitForWriter() {
    std::unique_lock lock(mutex_);
    pending_.reset();
    idle_.wait(lock, [this] { return !writing_; });
}

support::Status Journal::writeNow(const workspace::Workspace& ws, const QString& workspacePath,
                                  const QByteArray& diskHash) {
    const nlohmann::json j = {{"format", kFormat},
                              {"version", kVersion},
                              {"workspace_path", workspacePath.toStdString()},
                              {"disk_hash", diskHash.toHex().toStdString()},
                              {"written", QDateTime::currentDateTime().toString(Qt::ISODateWithMs).toStdString()},
                              {"workspace", workspace::serializeWorkspace(ws)}};
    QSaveFile f(file_);
    const auto bytes = QByteArray::fromStdString(j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace));
    // The permissions go on the temporary file before any byte is written, so the journal is
    // never readable by more people than the workspace, not even for a moment.
    if (!f.open(QIODevice::WriteOnly) || !f.setPermissions(permissionsFor(workspacePath)) ||
        f.write(bytes) != bytes.size() || !f.commit())
        return support::makeError(support::ErrorKind::Environment, "cannot write the journal " + file_.toStdString() +
                                                                       ": " + f.errorString().toStdString());
    return {};
}

void Journal::clear() {
    waitForWriter();
    QFile::remove(file_);
}

QList<Journal::Entry> Journal::orphans() {
    QList<Entry> found;
    const QDir dir(folder());
    removeStaleLocks(dir);
    for (const auto& name : dir.entryList({"journal-*.json"}, QDir::Files)) {
        const auto file = dir.filePath(name);
        if (claimed().count(file)) {
            if (auto e = readEntry(file)) found << *e;
            continue;
        }
        auto lock = lockFor(file);
        if (!lock->tryLock(0)) continue;  // its window is still open
        auto entry = readEntry(file);
        if (!entry) {
            // Unreadable (cut short by a full disk, say): nothing to offer, nothing to keep.
            QFile::remove(file);
            continue;
        }
        claimed()[file] = std::move(lock);
        found << *entry;
    }
    std::sort(found.begin(), found.end(), [](const Entry& a, const Entry& b) { return a.written > b.written; });
    return found;
}

void Journal::release(const QString& file) {
    claimed().erase(file);
}

void Journal::discard(const QString& file) {
    QFile::remove(file);
    claimed().erase(file);  // unlocks, removing the lock file
}

}  // namespace nvpg::gui
