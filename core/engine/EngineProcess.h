#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/engine/Protocol.h"

namespace nvpg::engine {

// Stops a call to an engine from another thread: cancel() wakes the call waiting on the
// engine, which then ends the engine process (the only way to stop libNVVM mid-compile). One
// per request, so that a cancel cannot reach the next one.
class CallCancel {
public:
    CallCancel();
    ~CallCancel();
    CallCancel(const CallCancel&) = delete;
    CallCancel& operator=(const CallCancel&) = delete;

    void cancel();  // from any thread, any number of times
    bool cancelled() const { return cancelled_.load(); }
    int fd() const { return fd_; }  // readable once cancelled

private:
    int fd_ = -1;
    std::atomic<bool> cancelled_{false};
};

// A child process speaking the engine protocol on a socket that is its stdin and stdout. The
// front end owns it: starts it on first use, kills it when it does not answer in time, and
// says how it died when it dies. The child learns this process's id (kEngineParentVariable)
// so that it can end with it: `nvpg engine` asks the kernel for SIGKILL when the thread that
// started it ends, so start and use an EngineProcess on a thread that lives as long as it. What the child writes to
// stderr (libNVVM's "LLVM ERROR: ..." before an abort, say) is passed on to this process's stderr and kept for the
// report.
class EngineProcess {
public:
    explicit EngineProcess(std::vector<std::string> argv);
    // An engine that is a fork of this process, with no exec: `serve` runs in the child on the
    // socket (its stdin and stdout) and its return is the child's exit status. What this process
    // has loaded (libNVVM, above all) the child has without loading it again. Only for a process
    // that has no other thread when the engine starts (nvpg): a fork copies the calling thread
    // alone, and a lock another thread held would stay locked in the child.
    using ForkServe = std::function<int(int in, int out)>;
    explicit EngineProcess(ForkServe serve);
    ~EngineProcess();
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    // How a call ended, when it did not end with an answer. Protocol: the process answered with
    // something that is not the engine protocol (a wrong NVPG_ENGINE command, say).
    enum class Failure { None, Start, Timeout, Died, Cancelled, Protocol };

    // Sends a request and waits for the answer until `deadline`. A process that is not running
    // is started first. On a timeout the process is killed; when it dies, `lastFailure()` and
    // the error say how (its exit status, or the signal by name, and its last stderr line).
    // Progress frames that come before the answer go to `onProgress`. When `cancel` is
    // cancelled the process is killed at once and the call fails with Failure::Cancelled.
    // The request's header also says how long the front end waits (kDeadlineField), so that
    // an engine whose front end stops watching still ends.
    support::Result<Frame> call(Frame request, std::chrono::steady_clock::time_point deadline,
                                const std::function<void(const Frame&)>& onProgress = {},
                                const CallCancel* cancel = nullptr);
    // The next answer to the last call's request, for a request answered by more than one frame
    // (a compile with a line map: the plain reply, then the map). Fails as call() does.
    support::Result<Frame> receive(std::chrono::steady_clock::time_point deadline,
                                   const std::function<void(const Frame&)>& onProgress = {},
                                   const CallCancel* cancel = nullptr);
    // When the last call's request was written to the engine.
    std::chrono::steady_clock::time_point lastSent() const { return sent_; }
    Failure lastFailure() const { return failure_; }
    // The last call (or receive) was cancelled with the engine at work, and that ended it; a
    // cancel before the request went leaves the idle engine as it is.
    bool stoppedLastCall() const { return stopped_; }
    // The signal that ended the process in the last failed call (0 when none).
    int lastSignal() const { return signal_; }
    // The last line the process wrote to stderr (empty when none): often why a library died.
    std::string lastWords() const;
    // Its last few kilobytes of stderr, whole lines: what a wrapper (ssh) said before it ended.
    std::string stderrTail() const;
    // The exit status of the last failed call's process, when it exited (-1 when a signal ended it).
    int lastExitStatus() const { return exitStatus_; }
    // What was wrong with the bytes of the last call that failed with Failure::Protocol ("protocol
    // version 2, but this side speaks 1 ...").
    const std::string& lastProtocolProblem() const { return protocolProblem_; }
    // How the last failed call's process ended, as the crash words say it: "SIGSEGV: <its last
    // stderr line>", or "the engine process exited with status N" when no signal ended it.
    std::string howItEnded() const;

    // Waits briefly for a process that said it would end, then reaps it.
    void reap();
    void kill();
    // For an engine that ends by itself once it answered (a fork serving one request): the
    // destructor ends it without waiting for its exit, in which the kernel unmaps libNVVM and
    // the compile's memory before it closes the engine's stderr, so that this process can end
    // first. Its exit status is read at this process's exit (reapEnginesAtExit).
    void setDetachWhenDone(bool detach) { detachWhenDone_ = detach; }
    bool running() const { return pid_ > 0; }
    pid_t pid() const { return pid_; }

    // The path of the running executable, for starting a copy of it as the engine.
    static std::string selfExecutable();

private:
    support::Status start();
    // The error for a failed write or read, having killed or reaped the process; sets failure_.
    support::Error failed(const support::Error& e, const CallCancel* cancel);
    std::string describeExit();
    void stopStderrReader();

    // What started the child (the exec, or the fork): the same for both from here on.
    pid_t spawnChild(int sock, int err, std::string& error);

    std::vector<std::string> argv_;
    ForkServe serve_;
    pid_t pid_ = -1;
    int fd_ = -1;
    int errFd_ = -1;
    std::thread errReader_;
    std::shared_ptr<std::atomic<bool>> errStop_;
    std::shared_ptr<std::mutex> errMutex_ = std::make_shared<std::mutex>();
    std::shared_ptr<std::string> lastErrLine_ = std::make_shared<std::string>();
    std::shared_ptr<std::string> errTail_ = std::make_shared<std::string>();
    Failure failure_ = Failure::None;
    bool stopped_ = false;
    bool detachWhenDone_ = false;
    std::chrono::steady_clock::time_point sent_{};
    int signal_ = 0;
    int exitStatus_ = -1;  // of the last failed call's process, when it exited
    std::string protocolProblem_;
};

// The environment variable that gives an engine process its front end's process id.
inline constexpr const char* kEngineParentVariable = "NVPG_ENGINE_PARENT";

// Kills every engine process (and its process group) that this process has running. For a
// signal handler (async-signal-safe): a front end that is interrupted takes its engines along.
void killAllEngines() noexcept;
// For a front end's main(): no process of this one outlives it unreaped. Engines that end by
// themselves (nvpg's one-job fork, not waited for when it answered) and whatever they started are
// reaped at exit (a subreaper), after the outputs are written; the engines' exit overlaps that.
void reapEnginesAtExit();
// For a front end's main(): SIGINT, SIGTERM and SIGHUP remove the temporaries and staging
// folders of writes under way (support::RemovedOnSignal) and kill its engines, then end the process by that signal
// as before (a shell sees 130, 143). Signals it was started ignoring stay ignored.
void endEnginesOnStopSignals();

// The command that starts the engine process: this executable with `engineArgument`, unless
// the environment variable NVPG_ENGINE says otherwise: "inprocess" (an empty command: work in
// this process, for debugging) or a command line (split at spaces).
std::vector<std::string> engineCommand(const std::string& engineArgument);

// "SIGSEGV", "SIGKILL"...
std::string signalName(int sig);

}  // namespace nvpg::engine
