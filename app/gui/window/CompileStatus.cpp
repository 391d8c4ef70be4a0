#include "gui/window/CompileStatus.h"

#include <algorithm>

#include <QDockWidget>
#include <QLabel>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>

#include "core/lesson/Lesson.h"
#include "gui/compile/CompileController.h"
#include "gui/dialogs/HistoryDialog.h"
#include "gui/editor/EditorArea.h"
#include "gui/output/LineMapLinks.h"
#include "gui/output/OutputView.h"
#include "gui/output/Turns.h"
#include "gui/panels/ComparePanel.h"
#include "gui/panels/ProblemsPanel.h"
#include "gui/panels/RunPanel.h"
#include "gui/window/DockLayout.h"

namespace nvpg::gui {

CompileStatus::CompileStatus(QStatusBar* bar, CompileController* controller, const Views& views)
    : QObject(bar), controller_(controller), views_(views) {
    busyLabel_ = new QLabel(bar);
    busyLabel_->setObjectName("compileStatus");
    cancelButton_ = new QToolButton(bar);
    cancelButton_->setText(tr("Cancel"));
    cancelButton_->hide();
    connect(cancelButton_, &QToolButton::clicked, controller_, &CompileController::cancel);
    bar->addWidget(busyLabel_);
    bar->addWidget(cancelButton_);
    // The session's compiles: the timeline, and any of them against the current one.
    historyButton_ = new QToolButton(bar);
    historyButton_->setObjectName("historyButton");
    historyButton_->setAutoRaise(true);
    historyButton_->setText(tr("History"));
    historyButton_->setToolTip(
        tr("This session's compiles: when, why (the edit or option that caused each), "
           "and their figures; compare any of them with the current compile."));
    connect(historyButton_, &QToolButton::clicked, this, &CompileStatus::showHistory);
    connect(controller_, &CompileController::historyChanged, historyButton_, [this] {
        const auto& entries = controller_->history().entries();
        historyButton_->setText(entries.empty() ? tr("History") : tr("History (%1)").arg(entries.front().id));
        if (historyDialog_ && historyDialog_->isVisible()) historyDialog_->refresh();
        views_.output->setPreviousCompile(controller_->history().previous() != nullptr);
    });
    // The PTX header's Since Last Compile: the history's previous compile beside the current one.
    connect(views_.output, &OutputView::sinceLastCompileRequested, this, [this] {
        views_.compare->showSinceLastCompile();
        DockLayout::bringForward(views_.compareDock);
    });
    bar->addPermanentWidget(historyButton_);
    busyTicker_ = new QTimer(this);
    busyTicker_->setInterval(100);
    // The engine's current stage as it says it, and the time so far.
    connect(busyTicker_, &QTimer::timeout, this, &CompileStatus::showProgress);
    connect(controller_, &CompileController::stageChanged, this, &CompileStatus::showProgress);
    connect(controller_, &CompileController::busyChanged, this, [this](bool busy) {
        cancelButton_->setVisible(busy);
        if (busy) {
            busyLabel_->setText(tr("Compiling…"));
            busyTicker_->start();
        } else {
            busyTicker_->stop();
        }
    });
    connect(controller_, &CompileController::cancelled, this, [this] {
        busyLabel_->setText(tr("Cancelled"));
        views_.output->markStale(tr("stale: from before the cancelled compile"));
    });
    connect(controller_, &CompileController::replyShown, this, &CompileStatus::showReply);
    connect(controller_, &CompileController::ptxShown, this, &CompileStatus::showPtx);
    connect(controller_, &CompileController::verified, this, &CompileStatus::showVerified);
}

void CompileStatus::showProgress() {
    const auto seconds = controller_->elapsedSeconds();
    const auto stage = controller_->stage();
    busyLabel_->setText(stage.isEmpty() ? tr("Compiling… %1 s").arg(seconds, 0, 'f', 1)
                                        : tr("Compiling… %1 (%2 s)").arg(stage).arg(seconds, 0, 'f', 1));
}

void CompileStatus::showHistory() {
    if (!historyDialog_) {
        historyDialog_ = new HistoryDialog(&controller_->history(), static_cast<QWidget*>(parent())->window());
        historyDialog_->setOnCompare([this](uint64_t id) {
            views_.compare->setSides(ComparePanel::historySide(id), QString::fromLatin1(ComparePanel::kCurrent));
            DockLayout::bringForward(views_.compareDock);
        });
    }
    historyDialog_->refresh();
    historyDialog_->show();
    historyDialog_->raise();
}

void CompileStatus::clear(bool statusToo) {
    ++diagnosticsTurn_;                  // marks still to come were of the workspace before
    if (statusToo) busyLabel_->clear();  // the last "Compiled in" was another workspace's
}

void CompileStatus::setHiddenFixes(const QStringList& kinds) {
    std::vector<std::string> hidden;
    for (const auto& k : kinds) hidden.push_back(k.toStdString());
    if (hidden == hiddenFixes_) return;
    hiddenFixes_ = std::move(hidden);
    // The problems on screen get (or lose) their fixes now, not at the next compile.
    if (lastReply_.result) {
        int errors = 0, warnings = 0;
        showDiagnostics(lastReply_, tr("Not compiled: %1"), errors, warnings);
    }
}

bool CompileStatus::showDiagnostics(const EngineReply& reply, const QString& notDone, int& errors, int& warnings) {
    const quint64 turn = ++diagnosticsTurn_;
    if (!reply.result) {
        views_.problems->setError(reply.error);
        views_.editors->setDiagnostics(nvvm::SharedDiagnostics{});
        busyLabel_->setText(notDone.arg(reply.error.section('\n', 0, 0)));
        return false;
    }
    // Shared with the reply: the views keep pointers into it, nothing is copied; unless a lesson
    // hides some of its fixes, which a copy without them leaves out.
    nvvm::SharedDiagnostics diagnostics(reply.result, &reply.result->diagnostics);
    if (!hiddenFixes_.empty() && lesson::offersFix(*diagnostics, hiddenFixes_))
        diagnostics =
            std::make_shared<const std::vector<nvvm::Diagnostic>>(lesson::withoutFixes(*diagnostics, hiddenFixes_));
    views_.problems->setDiagnostics(diagnostics);
    // Many problems (a hint per kernel of a large module) mark the editors in the next turn of the
    // event loop: the rows and the marks together held the window too long.
    if (diagnostics->size() <= kRowsPerTurn) {
        views_.editors->setDiagnostics(diagnostics);
    } else {
        runInLaterTurn(this, [this, turn, diagnostics] {
            if (turn == diagnosticsTurn_) views_.editors->setDiagnostics(diagnostics);  // else newer ones came
        });
    }
    for (const auto& d : *diagnostics) (d.severity == nvvm::Severity::Error ? errors : warnings)++;
    return true;
}

void CompileStatus::showReply(const EngineReply& reply) {
    lastReply_ = reply;
    views_.output->showReply(reply);
    views_.links->resultShown(controller_->mapping());
    views_.runs->setCompiled(reply);
    int errors = 0, warnings = 0;
    if (!showDiagnostics(reply, tr("Not compiled: %1"), errors, warnings)) return;
    const auto& r = *reply.result;
    // A failed compile brings Problems forward (from behind Runs, or closed); warnings alone do
    // not. A dock behind another's tab still counts as visible: what shows is its region.
    auto* problems = views_.problemsDock;
    if (errors > 0 && (!problems->isVisible() || problems->visibleRegion().isEmpty()))
        DockLayout::bringForward(problems);
    busyLabel_->setText(r.ok ? tr("Compiled in %1 s%2")
                                   .arg(r.seconds, 0, 'f', 2)
                                   .arg(warnings ? tr(", %n warning(s)", "", warnings) : QString())
                             : tr("%n error(s)", "", errors));
}

// The PTX part: its pane and libNVVM's problems now; the LTO panes say theirs is coming.
void CompileStatus::showPtx(const EngineReply& reply) {
    views_.output->showPtx(reply);
    views_.links->resultShown(controller_->lineMap());  // the old map is of the old PTX
    int errors = 0, warnings = 0;
    showDiagnostics(reply, tr("Not compiled: %1"), errors, warnings);
}

// A verify leaves the outputs and the Runs dock alone: it made nothing to show there.
void CompileStatus::showVerified(const EngineReply& reply) {
    int errors = 0, warnings = 0;
    if (!showDiagnostics(reply, tr("Not verified: %1"), errors, warnings)) return;
    const auto& r = *reply.result;
    if (!r.ok || errors)
        busyLabel_->setText(tr("Verify: %n error(s)", "", std::max(errors, 1)));
    else
        busyLabel_->setText(warnings ? tr("Verified: %n warning(s)", "", warnings) : tr("Verified: no problems"));
}

}  // namespace nvpg::gui
