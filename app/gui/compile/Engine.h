#pragma once

#include <filesystem>
#include <memory>

#include <QObject>
#include <QString>

#include "core/gpu/RunConfig.h"
#include "core/gpu/Session.h"
#include "core/inspect/LineMap.h"
#include "core/pipeline/CompileResult.h"
#include "core/pipeline/Job.h"
#include "core/support/Result.h"
#include "core/toolkit/Toolkit.h"

namespace nvpg::gui {

// What comes back for one request: the pipeline's result, or why there is none (an invalid
// option, a missing library). Plain data: it is made from what the engine process sent back,
// and tests make their own without any process.
struct EngineReply {
    quint64 generation = 0;
    std::shared_ptr<const pipeline::CompileResult> result;  // null when `error` says why
    QString error;
    bool cancelled = false;  // stopped by Engine::cancel: nothing to show, the user chose it
};

// One kernel launch: a compiled program (the PTX, or the LTO cubin when the configuration
// says so) and how to launch it. Plain data for the same reason as EngineReply.
struct RunRequest {
    quint64 id = 0;
    std::shared_ptr<const pipeline::CompileResult> compiled;
    gpu::RunConfig config;
    std::filesystem::path baseDir;  // where relative buffer files (buf:@x.npy) are
};

struct RunReply {
    quint64 id = 0;
    std::shared_ptr<const gpu::RunOutcome> outcome;  // null when `error` says why
    QString error;
    support::ErrorKind kind = support::ErrorKind::Internal;  // of `error`
};

// The GUI's only way to compile and run: a request in, a reply out, asynchronously. Nothing
// behind it runs on the UI thread.
class Engine : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;
    // Returns at once. Requests older than the newest one may be skipped unanswered, and one
    // that has been compiling for a while is stopped (EngineSettings::stopAfterSeconds).
    virtual void submit(const pipeline::Job& job) = 0;
    // Returns at once: requests up to generation `upTo` are not wanted any more. One being
    // compiled is stopped when that can be done (its reply, if any, says `cancelled`); queued
    // ones are skipped.
    virtual void cancel(quint64 upTo) = 0;
    // Libraries found anew (a CUDA path setting): later requests use them. A null toolkit makes
    // every later request reply with `whyNone`.
    virtual void setToolkit(std::shared_ptr<const toolkit::Toolkit> toolkit, const QString& whyNone = {}) = 0;

    // Returns at once; runReplied answers. Runs do not wait for compiles, nor compiles for runs:
    // a kernel that hangs until its timeout holds up only later runs.
    virtual void run(const RunRequest& request) = 0;
    // Asks again, off the UI thread, whether kernels can run here (opening the driver can take
    // a second); gpuStatus answers. Engines ask once by themselves when they start.
    virtual void probeGpu() = 0;

    // The last answer (false, "looking for a GPU…" before the first), for views made later.
    bool gpuAvailable(QString* why = nullptr) const {
        if (why) *why = gpuWhy_;
        return gpuOk_;
    }

signals:
    // With late outputs (pipeline::hasLateOutputs: the SASS, the line map): the plain reply
    // first, as soon as it is there, then lateReplied with the complete result once they are
    // made (null after an error reply; a result whose SASS and map say why when the engine
    // ended or was stopped making them).
    void replied(const nvpg::gui::EngineReply& reply);
    // Before `replied`, as soon as the PTX exists: its PTX part (CompileResult::partial), while
    // the LTO outputs are still being made. A compile whose PTX failed has none.
    void ptxReplied(const nvpg::gui::EngineReply& reply);
    void lateReplied(quint64 generation, std::shared_ptr<const nvpg::pipeline::CompileResult> result);
    // Before lateReplied, when there is a SASS listing: the plain result with it, the live
    // registers, the graph and the map still to come.
    void sassReplied(quint64 generation, std::shared_ptr<const nvpg::pipeline::CompileResult> result);
    // The engine started a stage of that request's compile (delivered on the UI thread).
    void stageStarted(quint64 generation, const nvpg::pipeline::StageEvent& stage);
    void runReplied(const nvpg::gui::RunReply& reply);
    // `why` says why not when `available` is false.
    void gpuStatus(bool available, const QString& why);

protected:
    // Engines report a probe's answer through this, on the UI thread.
    void setGpuStatus(bool available, const QString& why) {
        gpuOk_ = available;
        gpuWhy_ = why;
        emit gpuStatus(available, why);
    }

private:
    bool gpuOk_ = false;
    QString gpuWhy_ = tr("looking for a GPU…");
};

}  // namespace nvpg::gui

Q_DECLARE_METATYPE(nvpg::gui::EngineReply)
Q_DECLARE_METATYPE(nvpg::gui::RunRequest)
Q_DECLARE_METATYPE(nvpg::gui::RunReply)
Q_DECLARE_METATYPE(nvpg::pipeline::Job)
Q_DECLARE_METATYPE(nvpg::pipeline::StageEvent)
Q_DECLARE_METATYPE(std::shared_ptr<const nvpg::toolkit::Toolkit>)
Q_DECLARE_METATYPE(std::shared_ptr<const nvpg::inspect::LineMap>)
Q_DECLARE_METATYPE(std::shared_ptr<const nvpg::pipeline::CompileResult>)
