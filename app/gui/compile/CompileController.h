#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include "core/pipeline/History.h"
#include "gui/compile/Engine.h"

namespace nvpg::gui {

class WorkspaceDocument;

// Decides when to compile and which replies to show. Every request gets the next generation
// number; a reply older than the newest request, or one the user cancelled, is dropped (the
// latest edit wins). Compiles run on Ctrl+B, once a workspace opens, and ~400 ms after the last
// edit while auto-compile is on. Cancel asks the engine to stop the compile in flight.
class CompileController : public QObject {
    Q_OBJECT

public:
    CompileController(Engine* engine, WorkspaceDocument* document, QObject* parent = nullptr);

    // Called before each request to copy editor text into the document.
    void setFlush(std::function<void()> flush) { flush_ = std::move(flush); }
    // Outputs the engine can make here (no nvJitLink: PTX only).
    void setOutputs(unsigned outputs) { outputs_ = outputs; }
    unsigned outputs() const { return outputs_; }
    // Whether requests ask for the line map (View > Line map).
    void setLineMap(bool on) { lineMap_ = on; }
    bool lineMap() const { return lineMap_; }
    // The newest shown reply's map is still being made.
    bool mapping() const { return lineMap_ && lateGeneration_ != 0; }

    bool autoCompile() const { return auto_; }
    void setAutoCompile(bool on);
    void setDelayMs(int ms) { debounce_.setInterval(ms); }

    bool busy() const { return busy_; }
    double elapsedSeconds() const { return busy_ ? clock_.elapsed() / 1000.0 : 0; }
    quint64 newestGeneration() const { return generation_; }
    // What the engine is doing for the newest request ("compiling PTX"), empty before it says.
    QString stage() const { return stage_; }
    int droppedReplies() const { return dropped_; }

    // Every shown compile of the session with its cause, newest first (pipeline::CompileHistory:
    // at most 50, within 256 MiB); the Compare dock's "previous compile" and the timeline.
    const pipeline::CompileHistory& history() const { return history_; }
    // The cause the next compile is recorded with ("fix: …"); otherwise it is worked out from
    // what changed since the compile before it.
    void setNextCause(const QString& cause) { nextCause_ = cause.toStdString(); }

public slots:
    void compileNow();
    // libNVVM's verifier alone; its reply comes as `verified`, and the outputs stay as they are.
    void verifyNow();
    void cancel();          // the compile in flight is stopped, and its reply not shown
    void edited();          // a module's text changed: compile after the delay when auto-compile is on
    void settingsEdited();  // options, libdevice or LTO mode changed: compile now when auto is on

signals:
    void busyChanged(bool busy);
    // A request went to the engine with the document as it is now (editors flushed into it).
    void submitted(quint64 generation, bool verifyOnly);
    // The PTX part of the newest request (not cancelled, not a verify), before its replyShown:
    // the PTX pane and Problems show it while the LTO outputs are being made.
    void ptxShown(const nvpg::gui::EngineReply& reply);
    void replyShown(const nvpg::gui::EngineReply& reply);  // the newest, not cancelled
    void verified(const nvpg::gui::EngineReply& reply);    // the same, for verifyNow's request
    void cancelled();
    // The complete result of the reply last shown by replyShown, with its SASS and map (null:
    // none came), then, when maps are asked for, its map alone.
    void lateShown(quint64 generation, std::shared_ptr<const nvpg::pipeline::CompileResult> result);
    // The SASS listing of the result on screen, before lateShown brings the rest.
    void sassShown(quint64 generation, std::shared_ptr<const nvpg::pipeline::CompileResult> result);
    void lineMapShown(quint64 generation, std::shared_ptr<const nvpg::inspect::LineMap> map);
    void stageChanged(const QString& stage);
    // An entry was added to the history, or its complete result came.
    void historyChanged();

private:
    void onReply(const EngineReply& reply);
    void onPtx(const EngineReply& reply);
    void onStage(quint64 generation, const pipeline::StageEvent& stage);
    void onLate(quint64 generation, const std::shared_ptr<const pipeline::CompileResult>& result);
    void onSass(quint64 generation, const std::shared_ptr<const pipeline::CompileResult>& result);
    void setBusy(bool b);
    void submit(bool verifyOnly);

    Engine* engine_;
    WorkspaceDocument* document_;
    std::function<void()> flush_;
    unsigned outputs_;
    QTimer debounce_;
    QElapsedTimer clock_;
    QString stage_;
    pipeline::StageId shownStage_ = pipeline::StageId::CompilePtx;  // of stage_
    quint64 generation_ = 0;
    quint64 cancelledUpTo_ = 0;
    quint64 verifyGeneration_ = 0;  // the newest verify-only request
    quint64 lateGeneration_ = 0;    // a shown reply whose SASS or map is still to come
    bool lineMap_ = true;
    bool auto_ = true;
    bool busy_ = false;
    int dropped_ = 0;
    pipeline::CompileHistory history_;
    pipeline::Job submittedJob_;  // the newest compile request's (not verify-only)
    std::string submittedCause_, nextCause_;
    pipeline::HistoryWorkspace submittedWorkspace_;  // the document's when the compile was asked
    quint64 historyGeneration_ = 0;                  // the reply the newest entry holds
    uint64_t historyId_ = 0;
};

}  // namespace nvpg::gui
