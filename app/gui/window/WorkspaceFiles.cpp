#include "gui/window/WorkspaceFiles.h"

#include <chrono>
#include <future>

#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

#include <nlohmann/json.hpp>

#include "core/lesson/Course.h"
#include "core/nvvm/IrScan.h"
#include "core/nvvm/Module.h"
#include "core/support/Files.h"
#include "core/support/Text.h"
#include "core/workspace/Examples.h"
#include "gui/common/Dialogs.h"
#include "gui/document/FileChecks.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/panels/LessonPanel.h"

namespace nvpg::gui {

namespace {

constexpr int kMaxRecent = 10;

// A workspace file that saved no libdevice choice had it decided by its modules when read
// (workspace::parseWorkspace): say so, as adding modules does.
QString libdeviceRuleNote(const workspace::Workspace& ws) {
    if (ws.libdeviceSaved || !ws.libdevice) return {};
    const auto calls = workspace::libdeviceCallsOf(ws.modules);
    return calls.empty() ? QString() : QString::fromStdString(workspace::libdeviceRuleNote(calls));
}

bool isWorkspaceFile(const QString& path) {
    return QFileInfo(path).suffix() == QLatin1String("nvpg");
}

// ".ll (text) or .bc (bitcode)", for the messages that say what Open takes.
QString moduleKindsText() {
    return QString::fromStdString(nvvm::moduleFileKindsText());
}

}  // namespace

QString WorkspaceFiles::moduleFilePatterns() {
    QStringList patterns;
    for (const auto& kind : nvvm::moduleFileKinds()) patterns << "*." + QString::fromUtf8(kind.suffix);
    return patterns.join(' ');
}

bool WorkspaceFiles::isModuleFile(const QString& path) {
    return nvvm::isModuleFileName(QFileInfo(path).fileName().toStdString());
}

WorkspaceFiles::WorkspaceFiles(QMainWindow* window, WorkspaceDocument* document, EditorArea* editors,
                               LessonPanel* lesson)
    : QObject(window), window_(window), document_(document), editors_(editors), lesson_(lesson) {}

template <class T>
T WorkspaceFiles::awaitWorker(const QString& what, std::function<T()> work) {
    std::promise<T> promise;
    auto result = promise.get_future();
    QEventLoop loop;
    auto done = QtConcurrent::run(&threads_, [&] {
        promise.set_value(work());
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
    });
    // A small file is done before anyone could see a message flash by.
    if (result.wait_for(std::chrono::milliseconds(30)) != std::future_status::ready) {
        task_ = what;
        QList<QWidget*> parts{window_->menuBar(), window_->centralWidget()};
        for (auto* dock : window_->findChildren<QDockWidget*>()) parts << dock;
        for (auto* bar : window_->findChildren<QToolBar*>()) parts << bar;
        for (auto* part : parts) part->setEnabled(false);
        QElapsedTimer clock;
        clock.start();
        QTimer ticker;
        ticker.setInterval(100);
        const auto show = [&] {
            window_->statusBar()->showMessage(tr("%1… %2 s").arg(what).arg(clock.elapsed() / 1000.0, 0, 'f', 1));
        };
        connect(&ticker, &QTimer::timeout, this, show);
        show();
        ticker.start();
        loop.exec();
        ticker.stop();
        window_->statusBar()->clearMessage();
        for (auto* part : parts) part->setEnabled(true);
        task_.clear();
    }
    done.waitForFinished();
    return result.get();
}

bool WorkspaceFiles::busyWithFile() {
    if (task_.isEmpty()) return false;
    emit message(tr("Wait: %1…").arg(task_), 5000);
    return true;
}

bool WorkspaceFiles::maybeSave() {
    if (!document_->isModified()) return true;
    QMessageBox::StandardButton answer;
    if (askSave_) {
        answer = askSave_();
    } else {
        answer =
            QMessageBox::warning(window_, tr("Unsaved changes"),
                                 tr("%1 has changes that are not saved. Save them?").arg(document_->displayName()),
                                 QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    }
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

void WorkspaceFiles::newWorkspace() {
    opening_ = true;
    workspace::Workspace ws;
    ws.name = "untitled";
    document_->reset(std::move(ws), {});
    opening_ = false;
    emit replaced(false);
}

void WorkspaceFiles::afterOpen() {
    opening_ = false;
    emit replaced(true);
}

void WorkspaceFiles::openDialog() {
    if (busyWithFile() || !maybeSave()) return;
    const auto modules = moduleFilePatterns();
    const QStringList filters{tr("Workspaces and NVVM IR modules (*.nvpg %1)").arg(modules),
                              tr("NVVM Playground workspaces (*.nvpg)"), tr("NVVM IR modules (%1)").arg(modules),
                              tr("All files (*)")};
    const auto paths =
        QFileDialog::getOpenFileNames(window_, tr("Open a workspace or NVVM IR modules"), {}, filters.join(";;"));
    if (!paths.isEmpty()) openPaths(paths);
}

void WorkspaceFiles::addModulesDialog() {
    addModuleFiles(QFileDialog::getOpenFileNames(window_, tr("Add modules"), {},
                                                 tr("NVVM IR modules (%1);;All files (*)").arg(moduleFilePatterns())));
}

bool WorkspaceFiles::openWorkspace(const QString& path) {
    if (busyWithFile()) return false;
    const QFileInfo info(path);
    const auto absolute = info.absoluteFilePath();
    // Read and parsed off the UI thread: a large workspace (thousands of modules) or a slow disk
    // would otherwise freeze the window.
    auto read = awaitWorker<support::Result<WorkspaceDocument::Read>>(
        tr("Opening %1 (%2)").arg(info.fileName(), QLocale().formattedDataSize(info.size())),
        [absolute] { return WorkspaceDocument::read(absolute); });
    if (!read) {
        emit failed(tr("Open workspace"), QString::fromStdString(read.error().message));
        return false;
    }
    opening_ = true;
    document_->reset(std::move(read->workspace), absolute, read->diskHash);
    addRecent(absolute);
    if (const auto note = libdeviceRuleNote(document_->workspace()); !note.isEmpty()) emit message(note, 15000);
    afterOpen();
    return true;
}

bool WorkspaceFiles::openExample(const QString& name) {
    const auto example = workspace::findExample(name.toStdString());
    if (!example) {
        const auto dir = workspace::examplesDir();
        emit failed(tr("Open example"),
                    dir.empty()
                        ? tr("The examples are not installed: share/nvvm-playground/examples is missing beside "
                             "the app's folder. Reinstall the package.")
                        : tr("There is no example called %1 in %2.").arg(name, QString::fromStdString(dir.string())));
        return false;
    }
    auto ws = workspace::loadWorkspace(example->path);
    if (!ws) {
        emit failed(tr("Open example"), QString::fromStdString(ws.error().message));
        return false;
    }
    opening_ = true;
    document_->reset(std::move(*ws), {});  // no path: saving asks where, the example stays pristine
    afterOpen();
    return true;
}

bool WorkspaceFiles::openLesson(const QString& path) {
    const auto dir = lesson::lessonsDir();
    const QFileInfo info(path);
    const bool bundled =
        !dir.empty() && info.absolutePath() == QFileInfo(QString::fromStdString(dir.string())).absoluteFilePath();
    if (!bundled) {
        lesson_->setSourceFile({}, false);
        return openWorkspace(path);
    }
    auto ws = workspace::loadWorkspace(path.toStdString());
    if (!ws) {
        emit failed(tr("Open lesson"), QString::fromStdString(ws.error().message));
        return false;
    }
    opening_ = true;
    lesson_->setSourceFile(info.absoluteFilePath(), /*resume=*/true);
    document_->reset(std::move(*ws), {});  // no path: saving asks where, the course stays pristine
    afterOpen();
    return true;
}

void WorkspaceFiles::openRestored(workspace::Workspace ws, const QString& path, const QByteArray& diskHash) {
    opening_ = true;
    document_->reset(std::move(ws), path, diskHash);
    document_->markModified();
    afterOpen();
}

std::vector<WorkspaceFiles::ModuleFile> WorkspaceFiles::readModuleFiles(const QStringList& paths,
                                                                        QStringList& problems) {
    std::vector<ModuleFile> files;
    for (const auto& path : paths) {
        if (const auto why = notRegularFile(path); !why.isEmpty()) {
            problems << why;
            continue;
        }
        if (auto why = nvvm::moduleNameProblem(QFileInfo(path).fileName().toStdString())) {
            problems << tr("%1: %2; rename the file.")
                            .arg(QString::fromStdString(support::printable(path.toStdString())),
                                 QString::fromStdString(*why));
            continue;
        }
        auto bytes = awaitWorker<support::Result<std::string>>(
            tr("Reading %1 (%2)").arg(QFileInfo(path).fileName(), QLocale().formattedDataSize(QFileInfo(path).size())),
            [file = path.toStdString()] { return support::readFile(file); });
        if (!bytes) {
            problems << QString::fromStdString(bytes.error().message);
            continue;
        }
        if (QFileInfo(path).suffix() == "bc" && !nvvm::looksLikeBitcode(*bytes)) {
            problems << tr("%1 is named .bc but is not bitcode (no BC C0 DE magic); open it as .ll if it is text IR.")
                            .arg(path);
            continue;
        }
        files.push_back({path, std::move(*bytes)});
    }
    return files;
}

void WorkspaceFiles::addModuleFiles(const QStringList& paths) {
    if (paths.isEmpty() || busyWithFile()) return;
    QStringList problems;
    for (auto& file : readModuleFiles(paths, problems)) {
        const QFileInfo fi(file.path);
        editors_->addModule(fi.fileName().toStdString(), file.bytes, false);
        // A save must not replace it (by the name the module got: made unique if it had to be).
        moduleFiles_.insert(QString::fromStdString(document_->module(document_->moduleCount() - 1).name),
                            fi.absoluteFilePath());
    }
    // Modules that call libdevice get it, unless the workspace or the user chose (core's rule).
    if (const auto calls = document_->applyLibdeviceRule(); !calls.empty())
        emit message(QString::fromStdString(workspace::libdeviceRuleNote(calls)), 15000);
    if (!problems.isEmpty()) emit failed(tr("Add modules"), problems.join("\n"));
}

bool WorkspaceFiles::openPaths(const QStringList& paths) {
    QStringList workspaces, modules, others;
    for (const auto& p : paths) {
        if (isWorkspaceFile(p))
            workspaces << p;
        else if (isModuleFile(p))
            modules << p;
        else
            others << p;
    }
    if (!others.isEmpty()) {
        QStringList names;
        for (const auto& p : others) names << QString::fromStdString(support::printable(p.toStdString()));
        const auto takes = tr("Open takes a workspace (.nvpg) or NVVM IR modules, %1, which become the modules of a "
                              "new workspace. If the file is one of these, give it that suffix.")
                               .arg(moduleKindsText());
        emit failed(tr("Open"), (others.size() == 1 ? tr("%1 was not opened: %2") : tr("%1 were not opened: %2"))
                                    .arg(names.join(", "), takes));
    }
    if (!workspaces.isEmpty()) {
        if (workspaces.size() > 1 || !modules.isEmpty())
            emit failed(tr("Open"), tr("Give one workspace, or NVVM IR modules, %1; opening %2.")
                                        .arg(moduleKindsText(), workspaces.first()));
        return openWorkspace(workspaces.first());
    }
    if (modules.isEmpty() || busyWithFile()) return false;
    // Read first: what cannot be read replaces nothing.
    QStringList problems;
    auto files = readModuleFiles(modules, problems);
    if (!problems.isEmpty()) emit failed(tr("Open"), problems.join("\n"));
    if (files.empty()) return false;
    // The files are what this workspace is, as a workspace file's modules are: no edit of the
    // user's, so the document starts unmodified.
    workspace::Workspace ws;
    ws.name = QFileInfo(files.front().path).completeBaseName().toStdString();
    QHash<QString, QString> read;
    for (auto& file : files) {
        const QFileInfo fi(file.path);
        const auto name = WorkspaceDocument::uniqueName(ws, fi.fileName());
        ws.modules.push_back({name.toStdString(), std::move(file.bytes), false});
        read.insert(name, fi.absoluteFilePath());
    }
    // Modules that call libdevice get it (core's rule), as a workspace file without the choice.
    const auto calls = workspace::applyLibdeviceRule(ws);
    opening_ = true;
    document_->reset(std::move(ws), {});
    moduleFiles_.insert(read);  // a save must not replace them
    if (!calls.empty()) emit message(QString::fromStdString(workspace::libdeviceRuleNote(calls)), 15000);
    afterOpen();
    return true;
}

bool WorkspaceFiles::save() {
    if (document_->path().isEmpty()) return saveAsDialog();
    return saveAs(document_->path());
}

QString WorkspaceFiles::proposedPath(const QString& suffix) const {
    // Beside the workspace's file; a workspace without one (new, an example's copy, modules from
    // the command line) goes to the user's documents, never into the shipped examples.
    QString folder;
    if (!document_->path().isEmpty()) {
        folder = QFileInfo(document_->path()).absolutePath();
    } else {
        folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        if (folder.isEmpty() || !QFileInfo(folder).isDir()) folder = QDir::homePath();
    }
    const QString stem =
        document_->path().isEmpty() ? document_->displayName() : QFileInfo(document_->path()).completeBaseName();
    return QDir(folder).filePath(stem + suffix);
}

bool WorkspaceFiles::saveAsDialog() {
    const auto suggested = document_->path().isEmpty() ? proposedPath(".nvpg") : document_->path();
    const auto path = QFileDialog::getSaveFileName(window_, tr("Save workspace"), suggested,
                                                   tr("NVVM Playground workspaces (*.nvpg)"));
    return !path.isEmpty() && saveAs(path.endsWith(".nvpg") ? path : path + ".nvpg");
}

bool WorkspaceFiles::saveAs(const QString& path) {
    if (busyWithFile()) return false;
    editors_->flush();
    const auto absolute = QFileInfo(path).absoluteFilePath();
    // A FIFO would hold the save until a reader came, /dev/zero (through a link) would be read
    // back for the changed-on-disk check until memory ran out: neither is a workspace file.
    if (const auto why = notRegularFile(absolute); !why.isEmpty()) {
        emit failed(tr("Save workspace"),
                    tr("%1; the workspace is still open here, unsaved: save it elsewhere with Save As").arg(why));
        return false;
    }
    QStringList moduleFiles;
    for (auto i = moduleFiles_.cbegin(); i != moduleFiles_.cend(); ++i)
        if (document_->indexOf(i.key()) >= 0) moduleFiles << i.value();
    if (const auto why = inputReplacedBy(absolute, document_->workspace(), document_->path(), moduleFiles);
        !why.isEmpty()) {
        emit failed(tr("Save workspace"), why);
        return false;
    }
    const QString ownPath = document_->path();
    const QByteArray hash = document_->diskHash();
    if (absolute == ownPath &&
        awaitWorker<bool>(tr("Checking %1").arg(QFileInfo(absolute).fileName()),
                          [ownPath, hash] { return WorkspaceDocument::changedOnDisk(ownPath, hash); })) {
        const auto text = tr("%1 was changed on disk since you opened it (by another program or window). Overwrite "
                             "it with your version, or save yours elsewhere?")
                              .arg(document_->path());
        DiskConflict choice;
        if (askConflict_) {
            choice = askConflict_(text);
        } else {
            const int answer = askThreeWay(window_, QMessageBox::Warning, tr("File changed on disk"), text,
                                           {{tr("Overwrite"), QMessageBox::DestructiveRole},
                                            {tr("Save As…"), QMessageBox::AcceptRole},
                                            {tr("Cancel"), QMessageBox::RejectRole}},
                                           1);
            choice = answer == 0   ? DiskConflict::Overwrite
                     : answer == 1 ? DiskConflict::SaveElsewhere
                                   : DiskConflict::Cancel;
        }
        if (choice == DiskConflict::Cancel) return false;
        if (choice == DiskConflict::SaveElsewhere) return saveAsDialog();
    }
    if (document_->workspace().name == "untitled") document_->setName(QFileInfo(path).completeBaseName());
    auto data = document_->bytesFor(absolute);
    if (!data) {
        emit failed(tr("Save workspace"), QString::fromStdString(data.error().message));
        return false;
    }
    const auto bytes = *data;
    if (auto st = awaitWorker<support::Status>(
            tr("Saving %1 (%2)").arg(QFileInfo(absolute).fileName(), QLocale().formattedDataSize(bytes.size())),
            [absolute, bytes] { return WorkspaceDocument::write(absolute, bytes); });
        !st) {
        emit failed(tr("Save workspace"), QString::fromStdString(st.error().message));
        return false;
    }
    document_->savedAs(absolute, bytes);
    addRecent(document_->path());
    emit saved();
    return true;
}

QStringList WorkspaceFiles::recentFiles() const {
    return QSettings().value("recentFiles").toStringList();
}

void WorkspaceFiles::addRecent(const QString& path) {
    QSettings settings;
    auto recent = settings.value("recentFiles").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue("recentFiles", recent);
    rebuildRecentMenu();
}

void WorkspaceFiles::setRecentMenu(QMenu* menu) {
    recentMenu_ = menu;
    rebuildRecentMenu();
}

void WorkspaceFiles::rebuildRecentMenu() {
    const auto recent = recentFiles();
    emit recentChanged(recent);
    if (!recentMenu_) return;
    recentMenu_->clear();
    for (const auto& path : recent)
        recentMenu_->addAction(path, this, [this, path] {
            if (maybeSave()) openWorkspace(path);
        });
    recentMenu_->setEnabled(!recent.isEmpty());
}

void WorkspaceFiles::setLessonsMenu(QMenu* menu) {
    lessonsMenu_ = menu;
    rebuildLessonsMenu();
}

void WorkspaceFiles::rebuildLessonsMenu() {
    if (!lessonsMenu_) return;
    lessonsMenu_->clear();
    const auto bundled = lesson::listLessons();
    for (const auto& l : bundled) {
        const auto path = QString::fromStdString(l.path.string());
        auto* a = lessonsMenu_->addAction(QString::fromStdString(l.path.stem().string() + "  " + l.title), this,
                                          [this, path] {
                                              if (maybeSave()) openLesson(path);
                                          });
        a->setToolTip(QString::fromStdString(l.summary));
    }
    if (bundled.empty())
        lessonsMenu_->addAction(tr("No lessons installed (share/nvvm-playground/lessons)"))->setEnabled(false);
    // Lessons a learner saved elsewhere and worked on: their progress names the file.
    QStringList recent;
    const QDir progress(LessonPanel::progressDir());
    for (const auto& fi : progress.entryInfoList({"*.json"}, QDir::Files, QDir::Time)) {
        QFile f(fi.absoluteFilePath());
        if (!f.open(QIODevice::ReadOnly)) continue;
        const auto j = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
        if (!j.is_object() || !j.contains("file") || !j["file"].is_string()) continue;
        const auto file = QString::fromStdString(j["file"].get<std::string>());
        if (file.isEmpty() || !QFileInfo(file).isFile() || recent.contains(file)) continue;
        bool isBundled = false;
        for (const auto& l : bundled)
            isBundled |= QFileInfo(file) == QFileInfo(QString::fromStdString(l.path.string()));
        if (!isBundled) recent << file;
        if (recent.size() == 5) break;
    }
    if (!recent.isEmpty()) {
        lessonsMenu_->addSeparator();
        for (const auto& file : recent)
            lessonsMenu_
                ->addAction(tr("Continue %1").arg(QFileInfo(file).fileName()), this,
                            [this, file] {
                                if (maybeSave()) openLesson(file);
                            })
                ->setToolTip(file);
    }
}

bool WorkspaceFiles::canOpen(const QMimeData* data) {
    for (const auto& url : data->urls()) {
        const auto path = url.toLocalFile();
        if (isWorkspaceFile(path) || isModuleFile(path)) return true;
    }
    return false;
}

bool WorkspaceFiles::dropped(const QMimeData* data) {
    QStringList modules;
    for (const auto& url : data->urls()) {
        const auto path = url.toLocalFile();
        if (isWorkspaceFile(path)) {
            if (maybeSave()) openWorkspace(path);
            return false;
        }
        if (isModuleFile(path)) modules << path;
    }
    addModuleFiles(modules);  // dropped modules join the open workspace
    return true;
}

}  // namespace nvpg::gui
