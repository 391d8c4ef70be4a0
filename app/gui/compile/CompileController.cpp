#include "gui/compile/CompileController.h"

#include <algorithm>

#include "gui/document/WorkspaceDocument.h"

namespace nvpg::gui {

CompileController::CompileController(Engine* engine, WorkspaceDocument* document, QObject* parent)
    : QObject(parent),
      engine_(engine),
      document_(document),
      outputs_(pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin | pipeline::kFigures) {
    debounce_.setObjectName(QStringLiteral("compileDebounce"));  // named where timings list it
    debounce_.setSingleShot(true);
    debounce_.setInterval(400);
    connect(&debounce_, &QTimer::timeout, this, &CompileController::compileNow);
    connect(engine_, &Engine::replied, this, &CompileController::onReply);
    connect(engine_, &Engine::ptxReplied, this, &CompileController::onPtx);
    connect(engine_, &Engine::stageStarted, this, &CompileController::onStage);
    connect(engine_, &Engine::lateReplied, this, &CompileController::onLate);
    connect(engine_, &Engine::sassReplied, this, &CompileController::onSass);
}

void CompileController::settingsEdited() {
    // Options, libdevice, verify and LTO mode recompile at once: there is no typing to wait for.
    if (auto_) compileNow();
}

void CompileController::setAutoCompile(bool on) {
    auto_ = on;
    if (!on) debounce_.stop();
}

void CompileController::edited() {
    if (auto_) debounce_.start();
}

void CompileController::compileNow() {
    submit(false);
}

void CompileController::verifyNow() {
    submit(true);
}

void CompileController::submit(bool verifyOnly) {
    debounce_.stop();
    if (flush_) flush_();
    const auto& ws = document_->workspace();
    pipeline::Job job;
    job.modules = ws.modules;
    job.options = ws.options;
    job.libdevice = ws.libdevice;
    job.verify = ws.verify;
    job.verifyOnly = verifyOnly;
    job.ltoMode = ws.ltoMode;
    job.outputs = outputs_;
    job.lineMap = lineMap_ && !verifyOnly;
    job.generation = ++generation_;
    if (verifyOnly) {
        verifyGeneration_ = job.generation;
    } else {
        submittedJob_ = job;
        submittedWorkspace_ = {document_->key().toStdString(), document_->displayName().toStdString()};
        submittedCause_ = std::move(nextCause_);
        nextCause_.clear();
    }
    emit submitted(job.generation, verifyOnly);  // first: an engine may answer within submit()
    engine_->submit(job);
    clock_.start();
    stage_.clear();
    setBusy(true);
}

void CompileController::cancel() {
    if (!busy_) return;
    cancelledUpTo_ = generation_;
    engine_->cancel(generation_);
    debounce_.stop();
    stage_.clear();
    setBusy(false);
    emit cancelled();
}

void CompileController::onStage(quint64 generation, const pipeline::StageEvent& stage) {
    if (!busy_ || generation != generation_) return;
    // Stages run side by side: the one shown stays while it runs (a later one names it alongside).
    if (!stage_.isEmpty() &&
        std::find(stage.alongside.begin(), stage.alongside.end(), shownStage_) != stage.alongside.end())
        return;
    shownStage_ = stage.id;
    stage_ = QString::fromStdString(pipeline::stageWords(stage));
    emit stageChanged(stage_);
}

void CompileController::onReply(const EngineReply& reply) {
    if (reply.cancelled || reply.generation != generation_ || reply.generation <= cancelledUpTo_) {
        ++dropped_;
        return;
    }
    stage_.clear();
    setBusy(false);
    if (reply.generation == verifyGeneration_) {
        emit verified(reply);
        return;
    }
    // The SASS and the map come after a plain reply that has PTX; one of no PTX has neither.
    lateGeneration_ = reply.result && !reply.result->ptx.empty() ? reply.generation : 0;
    if (reply.result) {
        historyId_ = history_.add(submittedJob_, reply.result, std::move(submittedCause_), submittedWorkspace_);
        submittedCause_.clear();
        historyGeneration_ = reply.generation;
        emit historyChanged();  // before the reply: the Compare dock's previous side is then the one before it
    }
    emit replyShown(reply);
}

void CompileController::onPtx(const EngineReply& reply) {
    // Only the newest request's: a part of an older one would sit beside the newer's panes.
    if (!busy_ || reply.cancelled || !reply.result || reply.generation != generation_ ||
        reply.generation <= cancelledUpTo_ || reply.generation == verifyGeneration_)
        return;
    emit ptxShown(reply);
}

void CompileController::onLate(quint64 generation, const std::shared_ptr<const pipeline::CompileResult>& result) {
    // Only the rest of the reply on screen: an older one is of other text.
    if (generation != generation_ || generation <= cancelledUpTo_ || generation != lateGeneration_) return;
    lateGeneration_ = 0;
    if (result && generation == historyGeneration_ && history_.complete(historyId_, result)) emit historyChanged();
    emit lateShown(generation, result);
    if (lineMap_) emit lineMapShown(generation, result ? result->lineMap : nullptr);
}

void CompileController::onSass(quint64 generation, const std::shared_ptr<const pipeline::CompileResult>& result) {
    // As the late reply: only for the result on screen, and only until the rest came.
    if (!result || generation != generation_ || generation <= cancelledUpTo_ || generation != lateGeneration_) return;
    emit sassShown(generation, result);
}

void CompileController::setBusy(bool b) {
    if (busy_ == b) return;
    busy_ = b;
    emit busyChanged(b);
}

}  // namespace nvpg::gui
