#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <QThread>

#include "core/engine/EngineProcess.h"
#include "core/engine/Remote.h"
#include "gui/compile/Engine.h"

namespace nvpg::gui {

class CompileWorker;
class RunWorker;

// How long a compile runs before a newer request stops it (EngineSettings::stopAfterSeconds).
inline constexpr double kStopAfterSeconds = 0.1;

// Where the engine works: the command that starts the engine process (empty: in this process,
// for debugging) and the CUDA toolkit it uses (none: searched as nvpg does).
struct EngineSettings {
    std::vector<std::string> command;
    std::optional<std::filesystem::path> cudaPath;
    double compileTimeoutSeconds = 300;  // a compile still running then is stopped, its engine too
    // A newer request stops a compile that has run this long (a younger one is stopped when it
    // gets there). 0.1 s is about what a fresh engine needs before it compiles (starting the
    // process and loading libNVVM: a small compile takes 0.10-0.17 s in-process and 0.17 s with a
    // new engine here), so a younger compile is as likely to end first; and a wait that short is
    // not felt. Negative: never stop or skip a compile for a newer request or a cancel, only drop
    // its result.
    double stopAfterSeconds = kStopAfterSeconds;
    // An engine on another machine (Settings ▸ Engine): `command` is the ssh that reaches it
    // (engine::engineLauncher), or empty with `farProblem` saying why there is none. Compiles and
    // runs go there, each worker keeping one connection for the session; no toolkit is needed here.
    std::optional<engine::FarEnd> far{};
    std::string farProblem{};
    static EngineSettings defaults();  // this executable with --engine, or NVPG_ENGINE's
};

// What the compile thread is working on, shared with the UI thread so that it can stop it.
struct InFlight {
    std::mutex mutex;
    quint64 generation = 0;  // 0: nothing is being compiled
    std::chrono::steady_clock::time_point since;
    std::shared_ptr<engine::CallCancel> cancel;
    quint64 cancelledUpTo = 0;
    // Its plain reply is out and only its map is being made: a newer request waits for it
    // rather than ending the engine, whose Program the newer one may compile again.
    bool plainSent = false;
    double stopAfterSeconds = kStopAfterSeconds;  // the compile thread's EngineSettings', copied for the UI thread
    int stopped = 0;                              // compiles stopped mid-way
    quint64 sentGeneration = 0;
    std::chrono::steady_clock::time_point sentAt;
};

// The engine on two background QThreads, each talking to an engine process of its own (libNVVM
// and the GPU work there, so that what kills them leaves the window up). The compile side's
// engine keeps the NVVM Program of the current modules: an edit makes a new Program, an
// options change compiles the same one again. When requests pile up during a long compile,
// only the newest is run; and a compile that is not wanted any more (cancelled, or a newer
// request waits once it has run for stopAfterSeconds) is stopped by ending its engine process,
// the only way to stop libNVVM mid-compile: the next request starts a fresh engine. In-process
// work cannot be stopped: it runs to its end and its reply is dropped. Runs have their own
// thread and engine: a kernel that hangs blocks them until the run's timeout, and compiles must
// go on meanwhile.
class SupervisedEngine : public Engine {
    Q_OBJECT

public:
    // A null toolkit: every request replies with `whyNone` until setToolkit gives one.
    SupervisedEngine(std::shared_ptr<const toolkit::Toolkit> toolkit, const QString& whyNone,
                     EngineSettings settings = EngineSettings::defaults(), QObject* parent = nullptr);
    ~SupervisedEngine() override;  // stops a compile in flight; waits for a run in flight to end

    void submit(const pipeline::Job& job) override;
    void cancel(quint64 upTo) override;
    void setToolkit(std::shared_ptr<const toolkit::Toolkit> toolkit, const QString& whyNone = {}) override;
    void run(const RunRequest& request) override;
    void probeGpu() override;

    // Takes effect with the next setToolkit.
    void setEngineSettings(const EngineSettings& settings);

    // For tests: how many requests were skipped because a newer one came.
    int skipped() const { return skipped_.load(); }
    // For tests: the compile engine process's id after the last compile (0: none running).
    int enginePid() const { return enginePid_.load(); }
    // For tests: how many compiles were stopped mid-way (their engine ended), and when the
    // request of the last compile that ended went to the engine.
    int stoppedCompiles() const;
    std::chrono::steady_clock::time_point lastRequestSent(quint64* generation) const;

private:
    // Stops the compile in flight when it is `generation`'s and has run long enough.
    void stopIfOld(quint64 generation);

    QThread thread_;
    QThread runThread_;
    CompileWorker* worker_ = nullptr;
    RunWorker* runWorker_ = nullptr;
    std::shared_ptr<std::atomic<quint64>> newest_ = std::make_shared<std::atomic<quint64>>(0);
    std::shared_ptr<InFlight> inFlight_ = std::make_shared<InFlight>();
    std::atomic<int> skipped_{0};
    std::atomic<int> enginePid_{0};
};

}  // namespace nvpg::gui
