#include "gui/document/WorkspaceDocument.h"

#include <algorithm>

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

#include "core/lesson/Lesson.h"
#include "core/support/Files.h"
#include "gui/document/FileChecks.h"

namespace nvpg::gui {

namespace {

// A key of its own for a workspace that no file was read for (new, an example, an import).
QString newKey() {
    static quint64 made = 0;  // UI thread only, as the documents are
    return QStringLiteral("new:%1").arg(++made);
}

}  // namespace

WorkspaceDocument::WorkspaceDocument(QObject* parent) : QObject(parent), key_(newKey()) {
    ws_.name = "untitled";
}

QString WorkspaceDocument::displayName() const {
    // A saved workspace is known by its file (Save As gives a copy a new name), as in any editor.
    if (!path_.isEmpty()) return QFileInfo(path_).completeBaseName();
    if (!ws_.name.empty()) return QString::fromStdString(ws_.name);
    return QStringLiteral("untitled");
}

void WorkspaceDocument::reset(workspace::Workspace ws, const QString& path, const QByteArray& diskHash) {
    ws_ = std::move(ws);
    saved_ = ws_;
    diskHash_ = diskHash;
    const bool pathChange = path != path_;
    path_ = path;
    key_ = path.isEmpty() ? newKey() : QStringLiteral("file:") + path;
    emit reloaded();
    emit modulesChanged();
    emit settingsChanged();
    emit comparisonsChanged();
    if (pathChange) emit pathChanged(path_);
    setModified(false);
}

void WorkspaceDocument::replaceState(const workspace::Workspace& state) {
    ws_ = lesson::withState(ws_, state);
    emit reloaded();
    emit modulesChanged();
    emit settingsChanged();
    setModified(true);
    emit changed();
}

void WorkspaceDocument::setLessonStep(int step) {
    if (ws_.lesson.is_object()) ws_.lesson = lesson::withCurrent(ws_.lesson, step);
    // The file as saved had another step: the same lesson, so "unmodified" keeps its meaning.
    if (saved_.lesson.is_object()) saved_.lesson = ws_.lesson;
}

void WorkspaceDocument::setLessonData(nlohmann::ordered_json lesson) {
    if (!ws_.lesson.is_object() || !lesson.is_object()) return;
    ws_.lesson = std::move(lesson);
    if (saved_.lesson.is_object()) saved_.lesson = ws_.lesson;
}

support::Result<WorkspaceDocument::Read> WorkspaceDocument::read(const QString& path) {
    if (const auto why = notRegularFile(path); !why.isEmpty())
        return support::makeError(support::ErrorKind::Input, why.toStdString());
    // One read for both the parse and the hash: nothing can change in between.
    auto bytes = support::readFile(path.toStdString(), support::kWorkspaceFileLimit);
    if (!bytes) return bytes.error();
    auto ws = workspace::parseWorkspace(*bytes, path.toStdString());
    if (!ws) return ws.error();
    return Read{std::move(*ws), fileHash(QByteArray::fromStdString(*bytes))};
}

support::Status WorkspaceDocument::load(const QString& path) {
    auto r = read(path);
    if (!r) return r.error();
    reset(std::move(r->workspace), path, r->diskHash);
    return {};
}

QByteArray WorkspaceDocument::fileHash(const QByteArray& bytes) {
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
}

bool WorkspaceDocument::changedOnDisk(const QString& path, const QByteArray& diskHash) {
    if (path.isEmpty()) return false;
    const QFileInfo info(path);
    if (!info.exists()) return false;
    // Reading a FIFO waits for a writer and /dev/zero never ends (Save onto one froze the app and
    // took 5.3 GB): what is not a regular file any more has changed, and is never read.
    if (!notRegularFile(path).isEmpty()) return true;
    auto bytes = support::readFile(path.toStdString(), support::kWorkspaceFileLimit);
    if (!bytes) return true;  // cannot tell: ask rather than overwrite
    return fileHash(QByteArray::fromStdString(*bytes)) != diskHash;
}

support::Result<QByteArray> WorkspaceDocument::bytesFor(const QString& path) const {
    auto bytes = workspace::workspaceFileBytes(ws_, path.toStdString());
    if (!bytes) return bytes.error();
    return QByteArray::fromStdString(*bytes);
}

support::Status WorkspaceDocument::write(const QString& path, const QByteArray& data) {
    if (const auto why = notRegularFile(path); !why.isEmpty())
        return support::makeError(support::ErrorKind::Input,
                                  why.toStdString() +
                                      "; the workspace is still open here, unsaved: save it elsewhere "
                                      "with Save As");
    if (auto st = support::writeFileAtomic(path.toStdString(), std::string_view(data.constData(), size_t(data.size())));
        !st)
        return support::makeError(st.error().kind, st.error().message +
                                                       "; the workspace is still open here, unsaved: "
                                                       "try another folder with Save As");
    return {};
}

void WorkspaceDocument::savedAs(const QString& path, const QByteArray& data) {
    saved_ = ws_;
    diskHash_ = fileHash(data);
    if (path != path_) {
        path_ = path;
        emit pathChanged(path_);
    }
    setModified(false);
}

support::Status WorkspaceDocument::saveAs(const QString& path) {
    auto data = bytesFor(path);
    if (!data) return data.error();
    if (auto st = write(path, *data); !st) return st;
    savedAs(path, *data);
    return {};
}

int WorkspaceDocument::indexOf(const QString& name) const {
    const auto n = name.toStdString();
    for (size_t i = 0; i < ws_.modules.size(); ++i)
        if (ws_.modules[i].name == n) return int(i);
    return -1;
}

QString WorkspaceDocument::uniqueName(const workspace::Workspace& ws, const QString& wanted) {
    const auto used = [&ws](const QString& name) {
        const auto n = name.toStdString();
        return std::any_of(ws.modules.begin(), ws.modules.end(), [&n](const nvvm::Module& m) { return m.name == n; });
    };
    if (!used(wanted)) return wanted;
    const QFileInfo fi(wanted);
    const QString base = fi.completeBaseName(), suffix = fi.suffix().isEmpty() ? QString() : "." + fi.suffix();
    for (int k = 2;; ++k) {
        const QString candidate = QStringLiteral("%1-%2%3").arg(base).arg(k).arg(suffix);
        if (!used(candidate)) return candidate;
    }
}

int WorkspaceDocument::addModule(nvvm::Module m) {
    m.name = uniqueName(QString::fromStdString(m.name.empty() ? "module.ll" : m.name)).toStdString();
    ws_.modules.push_back(std::move(m));
    emit modulesChanged();
    setModified(true);
    return moduleCount() - 1;
}

void WorkspaceDocument::removeModule(int i) {
    if (i < 0 || i >= moduleCount()) return;
    ws_.modules.erase(ws_.modules.begin() + i);
    emit modulesChanged();
    setModified(true);
}

support::Status WorkspaceDocument::renameModule(int i, const QString& name) {
    const auto trimmed = name.trimmed();
    if (trimmed.isEmpty())
        return support::makeError(support::ErrorKind::Usage, "a module needs a name: libNVVM reports errors by it");
    if (auto problem = nvvm::moduleNameProblem(trimmed.toStdString()))
        return support::makeError(support::ErrorKind::Usage, *problem + ": " + std::string(nvvm::kModuleNameAdvice));
    const int other = indexOf(trimmed);
    if (other >= 0 && other != i)
        return support::makeError(support::ErrorKind::Usage,
                                  "another module is already called " + trimmed.toStdString() +
                                      ": names must be unique, libNVVM reports errors by them");
    ws_.modules.at(size_t(i)).name = trimmed.toStdString();
    emit modulesChanged();
    setModified(true);
    return {};
}

void WorkspaceDocument::moveModule(int from, int to) {
    if (from == to || from < 0 || to < 0 || from >= moduleCount() || to >= moduleCount()) return;
    auto m = std::move(ws_.modules[size_t(from)]);
    ws_.modules.erase(ws_.modules.begin() + from);
    ws_.modules.insert(ws_.modules.begin() + to, std::move(m));
    emit modulesChanged();
    setModified(true);
}

void WorkspaceDocument::setLazy(int i, bool lazy) {
    auto& m = ws_.modules.at(size_t(i));
    if (m.lazy == lazy) return;
    m.lazy = lazy;
    emit modulesChanged();
    setModified(true);
}

void WorkspaceDocument::setModuleText(int i, std::string_view text) {
    auto& m = ws_.modules.at(size_t(i));
    if (m.bytes == text) return;
    m.bytes.assign(text);
    setModified(true);
}

void WorkspaceDocument::setOptions(const nvvm::Options& options) {
    if (ws_.options == options) return;
    ws_.options = options;
    emit settingsChanged();
    setModified(true);
}

void WorkspaceDocument::setLibdevice(bool on) {
    ws_.libdeviceSaved = true;
    if (ws_.libdevice == on) return;
    ws_.libdevice = on;
    emit settingsChanged();
    setModified(true);
}

std::vector<std::string> WorkspaceDocument::applyLibdeviceRule() {
    auto calls = workspace::applyLibdeviceRule(ws_);
    if (!calls.empty()) emit settingsChanged();
    return calls;
}

void WorkspaceDocument::setVerify(bool on) {
    if (ws_.verify == on) return;
    ws_.verify = on;
    emit settingsChanged();
    setModified(true);
}

void WorkspaceDocument::setLtoMode(lto::Mode mode) {
    if (ws_.ltoMode == mode) return;
    ws_.ltoMode = mode;
    emit settingsChanged();
    setModified(true);
}

void WorkspaceDocument::setName(const QString& name) {
    if (ws_.name == name.toStdString()) return;
    ws_.name = name.toStdString();
    setModified(true);
}

void WorkspaceDocument::setRuns(std::vector<gpu::RunConfig> runs) {
    ws_.runs = std::move(runs);
    setModified(true);
}

namespace {

template <class T>
void putNamed(std::vector<T>& list, T item, const std::string& replacing) {
    for (auto& existing : list)
        if (existing.name == replacing || existing.name == item.name) {
            existing = std::move(item);
            // A rename onto another entry's name leaves one of that name.
            list.erase(std::remove_if(list.begin(), list.end(),
                                      [&](const T& e) { return &e != &existing && e.name == existing.name; }),
                       list.end());
            return;
        }
    list.push_back(std::move(item));
}

template <class T>
const T* findNamed(const std::vector<T>& list, const QString& name) {
    for (const auto& e : list)
        if (QString::fromStdString(e.name) == name) return &e;
    return nullptr;
}

}  // namespace

void WorkspaceDocument::putPin(workspace::Pin pin) {
    const auto name = pin.name;
    putNamed(ws_.pins, std::move(pin), name);
    setModified(true);
    emit comparisonsChanged();
}

void WorkspaceDocument::removePin(const QString& name) {
    std::erase_if(ws_.pins, [&](const workspace::Pin& p) { return QString::fromStdString(p.name) == name; });
    setModified(true);
    emit comparisonsChanged();
}

void WorkspaceDocument::putVariant(workspace::Variant variant, const QString& replacing) {
    putNamed(ws_.variants, std::move(variant), replacing.toStdString());
    setModified(true);
    emit comparisonsChanged();
}

void WorkspaceDocument::removeVariant(const QString& name) {
    std::erase_if(ws_.variants, [&](const workspace::Variant& v) { return QString::fromStdString(v.name) == name; });
    setModified(true);
    emit comparisonsChanged();
}

const workspace::Pin* WorkspaceDocument::pin(const QString& name) const {
    return findNamed(ws_.pins, name);
}

const workspace::Variant* WorkspaceDocument::variant(const QString& name) const {
    return findNamed(ws_.variants, name);
}

void WorkspaceDocument::markModified() {
    setModified(true);
}

void WorkspaceDocument::markUnmodifiedIfAsSaved() {
    if (!modified_) return;
    const auto sameModules = [](const std::vector<nvvm::Module>& a, const std::vector<nvvm::Module>& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const nvvm::Module& x, const nvvm::Module& y) {
            return x.name == y.name && x.bytes == y.bytes && x.lazy == y.lazy;
        });
    };
    if (sameModules(ws_.modules, saved_.modules) && ws_.options == saved_.options &&
        ws_.libdevice == saved_.libdevice && ws_.ltoMode == saved_.ltoMode && ws_.name == saved_.name &&
        ws_.description == saved_.description && ws_.runs == saved_.runs && ws_.pins.size() == saved_.pins.size() &&
        ws_.variants.size() == saved_.variants.size())
        setModified(false);
}

void WorkspaceDocument::setModified(bool m) {
    const bool was = modified_;
    modified_ = m;
    if (was != m) emit modifiedChanged(m);
    if (m) emit changed();
}

}  // namespace nvpg::gui
