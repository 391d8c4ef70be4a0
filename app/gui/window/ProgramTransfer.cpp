#include "gui/window/ProgramTransfer.h"

#include <atomic>
#include <optional>

#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressDialog>
#include <QtConcurrent/QtConcurrentRun>

#include "gui/compile/CompileController.h"
#include "gui/compile/Engine.h"
#include "gui/dialogs/NumbaImportDialog.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/panels/RunPanel.h"
#include "gui/window/ToolkitStatus.h"
#include "gui/window/WorkspaceFiles.h"

namespace nvpg::gui {

ProgramTransfer::ProgramTransfer(QWidget* window, WorkspaceFiles* files, WorkspaceDocument* document,
                                 EditorArea* editors, CompileController* controller, RunPanel* runs,
                                 ToolkitStatus* toolkit)
    : QObject(window),
      window_(window),
      files_(files),
      document_(document),
      editors_(editors),
      controller_(controller),
      runs_(runs),
      toolkit_(toolkit) {}

void ProgramTransfer::importFromNumba() {
    if (files_->busyWithFile()) return;
    NumbaImportDialog dialog(window_);
    if (dialog.exec() != QDialog::Accepted) return;
    importNumba(dialog.request());
}

bool ProgramTransfer::importNumba(interop::NumbaImportRequest request) {
    if (files_->busyWithFile() || !files_->maybeSave()) return false;
    const auto output = QString::fromStdString(request.output.string());
    if (QFileInfo::exists(output) &&
        QMessageBox::question(window_, tr("Import from numba"), tr("%1 exists. Replace it?").arg(output)) !=
            QMessageBox::Yes)
        return false;
    std::atomic<bool> cancel{false};
    std::optional<support::Result<interop::NumbaImport>> result;
    QEventLoop loop;
    QProgressDialog progress(
        tr("Running numba-cuda: %1 for %2…")
            .arg(QString::fromStdString(request.function), QString::fromStdString(request.signature)),
        tr("Cancel"), 0, 0, window_);
    progress.setObjectName("numbaImportProgress");
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    progress.setAutoClose(false);
    progress.setAutoReset(false);
    const auto cancelled = connect(&progress, &QProgressDialog::canceled, &progress, [&] { cancel = true; });
    files_->setTask(tr("Importing from numba"));
    // The worker owns the Python process (support::runProbe: its own process group, killed on
    // cancel or timeout and reaped before the worker returns), so nothing outlives this call.
    QThreadPool worker;
    auto done = QtConcurrent::run(&worker, [&, tk = toolkit_->toolkit()] {
        if (request.arch.empty()) request.arch = interop::numbaDefaultArch(tk.get(), /*askDriver=*/false).arch;
        result = interop::importNumba(request, &cancel);
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
    });
    progress.show();
    loop.exec();
    done.waitForFinished();
    disconnect(cancelled);  // closing the dialog says canceled() too
    progress.close();
    files_->setTask({});
    if (!*result) {
        if (!cancel)
            emit failed(tr("Import from numba"), QString::fromStdString((*result).error().message));
        else
            emit message(tr("Import from numba cancelled"), 5000);
        return false;
    }
    for (const auto& w : (*result)->warnings) emit message(QString::fromStdString(w), 15000);
    return files_->openWorkspace(QString::fromStdString((*result)->written.string()));
}

void ProgramTransfer::exportDialog(exporting::Target target, const EngineReply& shown) {
    // The program itself, as code to take away: a folder of its own (the code, modules/, inputs/).
    const bool cudaCore = target == exporting::Target::CudaCore;
    const auto what = cudaCore ? tr("cuda.core script") : tr("C program");
    const auto dir = QFileDialog::getSaveFileName(window_, tr("Export as %1: the folder to write").arg(what),
                                                  files_->proposedPath(cudaCore ? "-cuda-core" : "-c"), {}, nullptr,
                                                  QFileDialog::ShowDirsOnly | QFileDialog::DontConfirmOverwrite);
    if (!dir.isEmpty()) exportCode(target, dir, shown);
}

bool ProgramTransfer::exportCode(exporting::Target target, const QString& dir, const EngineReply& shown) {
    const auto title =
        target == exporting::Target::CudaCore ? tr("Export as cuda.core script") : tr("Export as C program");
    editors_->flush();
    // The code gets the arch the compile used and is checked against its PTX: it must be the
    // compile of the workspace as it is now.
    const auto& r = shown.result;
    if (controller_->busy() || !r || !r->ok || shown.generation != controller_->newestGeneration() ||
        document_->workspace().modules.empty()) {
        emit failed(title, tr("Compile the workspace first (Build > Compile, Ctrl+B): the code is made from a "
                              "successful compile of the modules as they are, with the arch it used."));
        return false;
    }
    const auto& ws = document_->workspace();
    exporting::Input in;
    in.name = ws.name.empty() ? document_->displayName().toStdString() : ws.name;
    in.description = ws.description;
    in.modules = ws.modules;
    in.options = ws.options;
    in.options.arch = r->arch;
    in.libdevice = ws.libdevice;
    in.verify = ws.verify;
    in.ltoMode = ws.ltoMode;
    // What the app shows, the code makes: the LTO outputs too where nvJitLink made them.
    in.lto = !r->linkedPtx.empty();
    if (auto config = runs_->currentConfig(); !config.kernel.empty()) in.run = std::move(config);
    in.baseDir = runs_->baseDir();
    in.ptx = r->ptx;
    if (!document_->path().isEmpty()) in.sources.emplace_back(document_->path().toStdString());
    auto out = exporting::generate(target, in);
    if (!out) {
        emit failed(title, QString::fromStdString(out.error().message));
        return false;
    }
    const std::filesystem::path folder = dir.toStdString();
    if (auto st = exporting::checkInputsKept(*out, folder, "choose another folder"); !st) {
        emit failed(title, QString::fromStdString(st.error().message));
        return false;
    }
    if (const auto existing = exporting::existingFiles(*out, folder); !existing.empty()) {
        const auto answer = QMessageBox::question(
            window_, title,
            tr("%1 holds %n of the files to write (%2). Replace them?", nullptr, int(existing.size()))
                .arg(dir, QString::fromStdString(existing.front().filename().string())));
        if (answer != QMessageBox::Yes) return false;
    }
    if (auto st = exporting::writeOutput(*out, folder, {true, {}, /*durable=*/false}, "choose another folder"); !st) {
        emit failed(title, QString::fromStdString(st.error().message));
        return false;
    }
    QString text = tr("Wrote %1 to %2.").arg(QString::fromStdString(out->entry), dir);
    text += "\n\n" + QString::fromStdString(out->howToRun);
    if (!out->warnings.empty()) {
        text += "\n\n" + tr("Not carried (cuda.core cannot express them; the script says so too):");
        for (const auto& w : out->warnings) text += "\n- " + QString::fromStdString(w);
    }
    emit message(tr("Exported to %1").arg(dir), 10000);
    lastExportReport_ = text;
    emit exported(title, text);
    return true;
}

}  // namespace nvpg::gui
