#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cache/ResultCache.h"
#include "core/engine/EngineProcess.h"
#include "core/engine/Remote.h"
#include "core/pipeline/Pipeline.h"

namespace nvpg::engine {

// The longest compile timeout a front end accepts: a day. Longer is a typo, not a plan.
inline constexpr double kMaxTimeoutSeconds = 86400;

// How both front ends compile: in an engine process by default, so that libNVVM dying on its
// input (malformed bitcode can make it segfault or abort) takes only that process. The engine
// is started on first use and again after it died; the job that killed it comes back as a
// failed Result whose diagnostic says what crashed, how, and on which input. An empty
// `engineCommand` compiles in this process (for debugging).
class Compiler {
public:
    Compiler(std::shared_ptr<const toolkit::Toolkit> toolkit, std::optional<std::filesystem::path> cudaPath,
             std::vector<std::string> engineCommand, double timeoutSeconds = 300);
    // The engine as a fork of this process (no exec), serving with `toolkit` as this process
    // loaded it: libNVVM is loaded once and libdevice read once in all. For a front end with no
    // other thread when it compiles (see EngineProcess's ForkServe): nvpg.
    struct Fork {
        // The front end sends one job (nvpg compile, nvpg run): the engine ends once it answered.
        bool oneJob = false;
    };
    Compiler(std::shared_ptr<const toolkit::Toolkit> toolkit, std::optional<std::filesystem::path> cudaPath, Fork,
             double timeoutSeconds = 300);

    // Errors as Pipeline::run gives them (a bad option, a missing library), plus an engine that
    // could not be started, one that broke the protocol, a job the protocol cannot carry (too
    // many modules, names too long: Usage) and memory that ran out (Environment). `onStage` hears the stages as the
    // engine starts them. Cancelling `cancel` stops the engine mid-compile (the next job starts a
    // new one) and gives an Internal error saying so; in this process a compile cannot be
    // stopped (libNVVM has no way to interrupt one), so there it runs to its end.
    // `onPlain` hears the plain result as soon as the engine sent it, and with late outputs
    // (pipeline::hasLateOutputs: the SASS, the map) run returns once they came too (an engine
    // that crashed or was stopped making them leaves the plain result, with a map whose outputs
    // and a SASS notice that say why they are missing).
    // `onPtx` hears the PTX part (CompileResult::partial) as soon as the engine sent it, before
    // the LTO outputs (Pipeline::run's onPtx); a job whose PTX failed has none.
    // `onSass` hears the plain result with its SASS listing as soon as the engine sent it, before
    // the live registers, the graph and the map (Pipeline::run's onSass).
    support::Result<pipeline::CompileResult> run(const pipeline::Job& job,
                                                 const pipeline::Pipeline::StageListener& onStage = {},
                                                 const CallCancel* cancel = nullptr,
                                                 const pipeline::Pipeline::ResultListener& onPlain = {},
                                                 const pipeline::Pipeline::ResultListener& onPtx = {},
                                                 const pipeline::Pipeline::ResultListener& onSass = {});

    // With a cache, a job whose every input (cache::keyOf) was compiled before is answered from
    // it (CompileResult::fromCache, onPlain hears it too) without compiling; a whole, deterministic
    // result (a compile that ended, whatever libNVVM said; not an engine that crashed, timed out
    // or was stopped) is stored. A damaged cache file costs a warning diagnostic, never the compile.
    void setCache(std::shared_ptr<cache::ResultCache> cache) { cache_ = std::move(cache); }
    const std::shared_ptr<cache::ResultCache>& resultCache() const { return cache_; }

    // An engine on another machine (the command is engineLauncher's ssh): the result cache keys
    // on the far toolkit as the far engine describes it (no toolkit is needed here: construct
    // with none), and ssh's own failures (host unreachable, login refused, host key unknown, the
    // far nvpg missing, the connection cut) are Environment errors that say what to do.
    void setFarEnd(FarEnd far) { far_ = std::move(far); }
    const std::optional<FarEnd>& farEnd() const { return far_; }
    // The far engine's description of itself and its toolkit, asked once over the engine's
    // connection (again when `withGpus` is asked for the first time).
    // A cancelled `cancel` ends the far engine's connection at once (a dialog closing).
    support::Result<FarToolkit> describeFar(bool withGpus = false, const CallCancel* cancel = nullptr);

    bool inProcess() const { return !engine_; }
    // The last run's engine was ended by its CallCancel (a cancel that came once the engine had
    // answered stopped nothing).
    bool stoppedLastRun() const { return stopped_; }
    // The last run, or the late outputs it waited for (the SASS, the map), ran past the timeout:
    // nvpg's exit status for a compile that did not finish in time.
    bool timedOutLastRun() const { return timedOut_; }
    void setTimeout(double seconds) { timeoutSeconds_ = seconds; }
    // The engine process compiles go to (null in-process): a far engine's connection is also
    // where that command's kernels run (Runner's far constructor), so one command makes one.
    EngineProcess* engineProcess() { return engine_.get(); }
    // For tests: the engine's process id (0 when in-process or not started).
    int enginePid() const { return engine_ && engine_->running() ? int(engine_->pid()) : 0; }
    // For tests: when the last job's request was sent to the engine.
    std::chrono::steady_clock::time_point lastSent() const { return engine_ ? engine_->lastSent() : sentInProcess_; }

private:
    support::Result<pipeline::CompileResult> runOrThrow(const pipeline::Job& job,
                                                        const pipeline::Pipeline::StageListener& onStage,
                                                        const CallCancel* cancel,
                                                        const pipeline::Pipeline::ResultListener& onPlain,
                                                        const pipeline::Pipeline::ResultListener& onPtx,
                                                        const pipeline::Pipeline::ResultListener& onSass);
    // After a compile reply to a request with late outputs: the late reply's SASS and map into
    // `into`, or, when it did not come (the engine died, was stopped or timed out making them),
    // a map and a SASS notice saying why.
    // A SASS reply before it goes to `onSass`.
    void receiveLate(const pipeline::Job& job, std::chrono::steady_clock::time_point deadline,
                     const pipeline::Pipeline::StageListener& onStage, const CallCancel* cancel,
                     const pipeline::Pipeline::ResultListener& onSass, pipeline::CompileResult& into);

    // Why the far engine's call failed, as an error that names the host, when ssh says so (or
    // the far side speaks another protocol).
    std::optional<support::Error> farFailure();

    std::shared_ptr<const toolkit::Toolkit> toolkit_;
    std::optional<std::filesystem::path> cudaPath_;
    std::optional<FarEnd> far_;
    std::optional<FarToolkit> farToolkit_;
    bool farGpus_ = false;
    std::unique_ptr<EngineProcess> engine_;
    std::unique_ptr<pipeline::Pipeline> inProcess_;
    double timeoutSeconds_;
    std::chrono::steady_clock::time_point sentInProcess_{};
    bool stopped_ = false;
    bool timedOut_ = false;
    std::shared_ptr<cache::ResultCache> cache_;
    // The last runOrThrow's result is what the inputs give (not an engine that died, hung or was
    // stopped, before or after the plain result): only such a result is cached.
    bool whole_ = true;
};

// Whether libNVVM reads the user's modules in this stage (adding, verifying, compiling them, the
// twin); the links, ptxas, nvdisasm and reading the PTX work on what the toolkit made of them.
bool readsTheInput(pipeline::StageId id);

// What an engine's end is put down to. Input: it crashed in a stage that reads the input
// (malformed bitcode can kill libNVVM), which a front end reports on the input (nvpg exits 1).
// Memory: its last words say memory ran out, and no bitcode was being read (damaged bitcode
// makes libNVVM ask for absurd sizes); Toolkit: it crashed before the first stage (loading the
// libraries) or in one that works on what the toolkit made (a link, ptxas, nvdisasm). Both are
// the environment's (nvpg exits 2), and the words say what to do instead of blaming the input.
enum class CrashCause { Input, Memory, Toolkit };
CrashCause crashCause(const pipeline::Job& job, const std::optional<pipeline::StageEvent>& stage,
                      const std::string& how);

// The words for a crash: "libNVVM crashed (SIGSEGV) while adding module b.bc for the modules
// a.ll, b.bc; the bitcode of b.bc is the likely cause", or, for the other causes, what ran out
// or crashed and what to do. `stage` is the last stage the engine announced, if any.
std::string describeCrash(const pipeline::Job& job, const std::optional<pipeline::StageEvent>& stage,
                          const std::string& how);
// The words for a compile stopped at its timeout: which stage, and what to do (a slow input: a
// higher limit; a tool or toolkit that hangs: check it).
std::string describeTimeout(const pipeline::Job& job, const std::optional<pipeline::StageEvent>& stage, double seconds);

}  // namespace nvpg::engine
