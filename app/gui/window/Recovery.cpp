#include "gui/window/Recovery.h"

#include <QApplication>
#include <QLocale>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include "gui/common/Dialogs.h"
#include "gui/compile/CompileController.h"
#include "gui/document/Journal.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/window/WorkspaceFiles.h"

namespace nvpg::gui {

Recovery::Recovery(QWidget* window, WorkspaceFiles* files, WorkspaceDocument* document, EditorArea* editors,
                   CompileController* controller)
    : QObject(window),
      window_(window),
      files_(files),
      document_(document),
      editors_(editors),
      journal_(std::make_unique<Journal>()),
      timer_(new QTimer(this)) {
    timer_->setSingleShot(true);
    timer_->setInterval(1000);
    connect(timer_, &QTimer::timeout, this, &Recovery::write);
    // One rule: every change that marks the document modified (the title's *) is journaled, be
    // it typing, an option, a module's flag or a saved run configuration.
    connect(document_, &WorkspaceDocument::changed, this, [this] {
        if (!files_->opening() && !timer_->isActive()) timer_->start();
    });
    connect(controller, &CompileController::busyChanged, this, [this](bool busy) {
        if (busy) write();
    });
    connect(document_, &WorkspaceDocument::modifiedChanged, this, [this](bool modified) {
        if (!modified && journal_) journal_->clear();
    });
}

Recovery::~Recovery() = default;

QString Recovery::journalFile() const {
    return journal_ ? journal_->file() : QString();
}

void Recovery::close() {
    journal_.reset();
}

void Recovery::write() {
    if (!journal_) return;
    // First: copying the editors' text in marks the document modified, which would schedule
    // this write again.
    editors_->flush();
    timer_->stop();
    if (!document_->isModified()) {
        journal_->clear();
        return;
    }
    const auto& ws = document_->workspace();
    size_t bytes = 0;
    for (const auto& m : ws.modules) bytes += m.bytes.size();
    if (bytes > Journal::kBackgroundBytes) {
        // A copy goes to the writer; the UI thread does not wait for the JSON or the disk.
        QPointer<Recovery> self(this);
        journal_->writeInBackground(ws, document_->path(), document_->diskHash(), [self](const support::Status& st) {
            if (st) return;
            const QString text = QString::fromStdString(st.error().message);
            QMetaObject::invokeMethod(qApp, [self, text] {
                if (self) emit self->message(text, 10000);
            });
        });
        return;
    }
    if (auto st = journal_->write(ws, document_->path(), document_->diskHash()); !st)
        emit message(QString::fromStdString(st.error().message), 10000);
}

bool Recovery::offerRestore() {
    const auto orphans = Journal::orphans();
    if (orphans.isEmpty()) return false;
    const auto& newest = orphans.first();
    QStringList modules;
    for (const auto& m : newest.workspace.modules) modules << QString::fromStdString(m.name);
    QString text = tr("NVVM Playground did not close normally. It kept the unsaved work of \"%1\" (%2), as it was "
                      "at %3.")
                       .arg(newest.name, modules.isEmpty() ? tr("no modules") : modules.join(", "),
                            QLocale().toString(newest.written, QLocale::ShortFormat));
    if (!newest.workspacePath.isEmpty()) text += " " + tr("It was opened from %1.").arg(newest.workspacePath);
    if (orphans.size() > 1) text += " " + tr("%n more will be offered at the next start.", "", int(orphans.size() - 1));
    Choice choice;
    if (ask_) {
        choice = ask_(text);
    } else {
        const int answer = askThreeWay(window_, QMessageBox::Question, tr("Restore unsaved work"), text,
                                       {{tr("Restore"), QMessageBox::AcceptRole},
                                        {tr("Discard"), QMessageBox::DestructiveRole},
                                        {tr("Not Now"), QMessageBox::RejectRole}},
                                       0);
        choice = answer == 0 ? Choice::Restore : answer == 1 ? Choice::Discard : Choice::Later;
    }
    for (int i = 1; i < orphans.size(); ++i) Journal::release(orphans[i].file);
    if (choice == Choice::Later) {
        Journal::release(newest.file);
        return false;
    }
    if (choice == Choice::Discard) {
        Journal::discard(newest.file);
        return false;
    }
    files_->openRestored(newest.workspace, newest.workspacePath, newest.diskHash);
    write();  // this window's journal holds it now; only then does the old one go
    Journal::discard(newest.file);
    emit message(tr("Restored the unsaved work of %1").arg(newest.name), 10000);
    return true;
}

}  // namespace nvpg::gui
