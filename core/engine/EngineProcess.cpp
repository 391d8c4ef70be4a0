#include "core/engine/EngineProcess.h"

#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "core/support/RemoveOnSignal.h"
#include "core/support/Text.h"

extern char** environ;

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::engine {

namespace {

// The engines this process has running, for killAllEngines() in a signal handler: a fixed table
// of atomics, since a handler may neither lock nor allocate. More engines than slots still end
// with this process (they ask for SIGKILL when it dies), only not before it.
std::atomic<pid_t> gEngines[16];

void remember(pid_t pid) {
    for (auto& slot : gEngines) {
        pid_t empty = 0;
        if (slot.compare_exchange_strong(empty, pid)) return;
    }
}

void forget(pid_t pid) {
    for (auto& slot : gEngines) {
        pid_t expected = pid;
        if (slot.compare_exchange_strong(expected, 0)) return;
    }
}

// Engines that were let go at their exit (one request's engine, whose end is not waited for):
// reapChildren() waits for exactly these to end, woken the moment each does.
std::atomic<pid_t> gEnding[16];

void letGo(pid_t pid) {
    for (auto& slot : gEnding) {
        pid_t empty = 0;
        if (slot.compare_exchange_strong(empty, pid)) return;
    }
}

}  // namespace

void killAllEngines() noexcept {
    for (auto& slot : gEngines)
        if (const pid_t pid = slot.load(); pid > 0) ::kill(-pid, SIGKILL);
}

namespace {

// Set once the front end is the subreaper of its engines' descendants.
std::atomic<bool> gReaping{false};

// Reaps every child of this process, waiting up to `seconds` for those still ending (engines
// that were sent SIGKILL, or ended by themselves after their one reply). Async-signal-safe.
void reapChildren(double seconds) noexcept {
    const long deadlineNs = long(seconds * 1e9);
    long waitedNs = 0;
    // An engine let go is at its exit (unmapping libNVVM and a compile's heap, about 0.5 ms):
    // woken by its pidfd the moment it ends, rather than up to a nap later. Where the kernel has
    // no pidfd_open (before Linux 5.3), the naps below do the same.
    for (auto& slot : gEnding) {
        const pid_t pid = slot.exchange(0);
        if (pid <= 0) continue;
        const int fd = int(::syscall(SYS_pidfd_open, pid, 0));
        if (fd < 0) continue;
        struct timespec t0 {
        }, t1{};
        ::clock_gettime(CLOCK_MONOTONIC, &t0);
        struct pollfd p {
            fd, POLLIN, 0
        };
        const long leftMs = (deadlineNs - waitedNs) / 1000000;
        while (::poll(&p, 1, int(leftMs > 0 ? leftMs : 0)) < 0 && errno == EINTR) {
        }
        ::close(fd);
        ::clock_gettime(CLOCK_MONOTONIC, &t1);
        waitedNs += (t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec);
    }
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(-1, &status, WNOHANG);
        if (r > 0) continue;
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 || waitedNs >= deadlineNs) return;  // ECHILD: none left
        struct timespec nap {
            0, 100000
        };  // 0.1 ms: an engine's exit takes about 1 ms
        ::nanosleep(&nap, nullptr);
        waitedNs += nap.tv_nsec;
    }
}

}  // namespace

void reapEnginesAtExit() {
    if (gReaping.exchange(true)) return;
    // Where PID 1 does not reap orphans (a container without an init), a child that outlives its
    // parent stays a zombie for good: nvpg reaps its own, and becomes the subreaper of theirs
    // (a tool an engine ran and did not wait for, an engine's child when the engine was killed).
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    std::atexit([] {
        killAllEngines();
        reapChildren(2.0);
    });
}

void endEnginesOnStopSignals() {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction old {
        }, sa{};
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        // SA_RESETHAND: the handler's raise() ends the process by the default action.
        sa.sa_handler = [](int s) {
            const int saved = errno;
            support::removeRegisteredNow();  // temporaries and staging folders of the work in progress
            killAllEngines();
            if (gReaping.load()) reapChildren(1.0);
            errno = saved;
            ::raise(s);
        };
        sa.sa_flags = SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        ::sigaction(sig, &sa, nullptr);
    }
}

std::string signalName(int sig) {
    switch (sig) {
        case SIGSEGV:
            return "SIGSEGV";
        case SIGABRT:
            return "SIGABRT";
        case SIGKILL:
            return "SIGKILL";
        case SIGBUS:
            return "SIGBUS";
        case SIGFPE:
            return "SIGFPE";
        case SIGILL:
            return "SIGILL";
        case SIGTERM:
            return "SIGTERM";
        case SIGPIPE:
            return "SIGPIPE";
        case SIGALRM:
            return "SIGALRM";
        default:
            return fmt::format("signal {}", sig);
    }
}

std::string EngineProcess::selfExecutable() {
    char buf[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return "/proc/self/exe";
    return std::string(buf, size_t(n));
}

std::vector<std::string> engineCommand(const std::string& engineArgument) {
    const char* env = std::getenv("NVPG_ENGINE");
    if (!env || !*env) return {EngineProcess::selfExecutable(), engineArgument};
    if (std::string_view(env) == "inprocess") return {};
    std::vector<std::string> argv;
    for (auto part : support::split(env, ' '))
        if (!part.empty()) argv.emplace_back(part);
    return argv;
}

CallCancel::CallCancel() : fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

CallCancel::~CallCancel() {
    if (fd_ >= 0) ::close(fd_);
}

void CallCancel::cancel() {
    cancelled_.store(true);
    const uint64_t one = 1;
    if (fd_ >= 0) (void)!::write(fd_, &one, sizeof one);
}

EngineProcess::EngineProcess(std::vector<std::string> argv) : argv_(std::move(argv)) {}

EngineProcess::EngineProcess(ForkServe serve) : argv_{"nvpg (fork)"}, serve_(std::move(serve)) {}

pid_t EngineProcess::spawnChild(int sock, int err, std::string& error) {
    // Appended in place: GCC 12 at -O2 warns falsely (-Warray-bounds) about `string(...) + "="`.
    std::string parentPrefix = kEngineParentVariable;
    parentPrefix += '=';
    if (serve_) {
        // Made before the fork: the child does as little as it can before serving.
        const std::string parent = std::to_string(::getpid());
        // Buffered output would otherwise be written twice, once by each process.
        std::fflush(nullptr);
        const pid_t pid = ::fork();
        if (pid < 0) {
            error = std::strerror(errno);
            return -1;
        }
        if (pid > 0) {
            ::setpgid(pid, pid);  // as the child does: whichever runs first, a kill of the group reaches it
            return pid;
        }
        // The child: what an exec of `nvpg engine` would have had. Its own process group, the
        // socket as stdin and stdout, the pipe as stderr, the default actions of the stop
        // signals (this process's handlers kill the front end's engines), and none of the
        // front end's close-on-exec descriptors (its end of this socket, above all: the engine
        // ends when the front end's end closes).
        ::setpgid(0, 0);
        ::dup2(sock, 0);
        ::dup2(sock, 1);
        ::dup2(err, 2);
        for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
            struct sigaction old {};
            if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_IGN) ::signal(sig, SIG_DFL);
        }
        for (auto& slot : gEngines) slot.store(0);
        for (auto& slot : gEnding) slot.store(0);
        // Every other descriptor, in one call where the kernel has close_range (Linux 5.9): an
        // exec would have kept those without close-on-exec, but an engine has no use for them.
        if (::syscall(SYS_close_range, 3U, ~0U, 0U) != 0) {
            std::vector<int> closing;
            if (DIR* dir = ::opendir("/proc/self/fd")) {
                while (const dirent* e = ::readdir(dir)) {
                    const int fd = std::atoi(e->d_name);
                    const int flags = fd > 2 && fd != ::dirfd(dir) ? ::fcntl(fd, F_GETFD) : -1;
                    if (flags >= 0 && (flags & FD_CLOEXEC)) closing.push_back(fd);
                }
                ::closedir(dir);
            }
            for (int fd : closing) ::close(fd);
        }
        ::setenv(kEngineParentVariable, parent.c_str(), 1);
        // Never exit(): the front end's atexit handlers and stdio buffers are not the child's.
        ::_exit(serve_(0, 1));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // The child's end of the socket becomes its stdin and stdout, the pipe its stderr (dup2
    // clears close-on-exec on the copies).
    posix_spawn_file_actions_adddup2(&actions, sock, 0);
    posix_spawn_file_actions_adddup2(&actions, sock, 1);
    posix_spawn_file_actions_adddup2(&actions, err, 2);
    // Its own process group, so that stopping it also stops anything it started.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    std::vector<char*> argv;
    for (auto& a : argv_) argv.push_back(a.data());
    argv.push_back(nullptr);
    // This environment, and who the engine's front end is: `nvpg engine` ends when it is gone.
    std::string parent = parentPrefix + std::to_string(::getpid());
    std::vector<char*> envp;
    for (char** e = environ; *e; ++e)
        if (!support::startsWith(*e, parentPrefix)) envp.push_back(*e);
    envp.push_back(parent.data());
    envp.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        error = std::strerror(rc);
        return -1;
    }
    return pid;
}

EngineProcess::~EngineProcess() {
    if (!detachWhenDone_ || pid_ <= 0) {
        kill();
        return;
    }
    ::close(fd_);
    fd_ = -1;
    ::kill(-pid_, SIGKILL);  // at its exit already, or stopped by this: no waiting either way
    forget(pid_);
    letGo(pid_);
    pid_ = -1;
    // The reader passes on what the engine still writes until this process ends.
    if (errStop_) errStop_->store(true);
    if (errReader_.joinable()) errReader_.detach();
}

support::Status EngineProcess::start() {
    int sv[2], err[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return makeError(ErrorKind::Internal,
                         fmt::format("cannot make a socket for the engine: {}", std::strerror(errno)));
    if (::pipe2(err, O_CLOEXEC) != 0) {
        ::close(sv[0]);
        ::close(sv[1]);
        return makeError(ErrorKind::Internal,
                         fmt::format("cannot make a pipe for the engine: {}", std::strerror(errno)));
    }
    std::string error;
    const pid_t pid = spawnChild(sv[1], err[1], error);
    ::close(sv[1]);
    ::close(err[1]);
    if (pid <= 0) {
        ::close(sv[0]);
        ::close(err[0]);
        return makeError(ErrorKind::Environment,
                         fmt::format("cannot start the engine process {}: {}", argv_[0], error));
    }
    pid_ = pid;
    fd_ = sv[0];
    errFd_ = err[0];
    remember(pid_);
    {
        std::lock_guard lock(*errMutex_);
        lastErrLine_->clear();
        errTail_->clear();
    }
    // Pass the child's stderr on, and keep its last line: it often names why a library died.
    errStop_ = std::make_shared<std::atomic<bool>>(false);
    auto reader = [fd = errFd_, mu = errMutex_, last = lastErrLine_, tail = errTail_, stop = errStop_] {
        std::string pending;
        char buf[4096];
        while (true) {
            // Once the engine is gone, only what is already in the pipe is read: a process it
            // left behind may hold the pipe open.
            struct pollfd p {
                fd, POLLIN, 0
            };
            const int ready = ::poll(&p, 1, stop->load() ? 0 : 100);
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0) {
                if (stop->load()) break;
                continue;
            }
            const ssize_t n = ::read(fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            ::fwrite(buf, 1, size_t(n), stderr);
            pending.append(buf, size_t(n));
            {
                constexpr size_t kTailBytes = 4096;
                std::lock_guard lock(*mu);
                tail->append(buf, size_t(n));
                if (tail->size() > kTailBytes) {
                    const auto nl = tail->find('\n', tail->size() - kTailBytes);
                    tail->erase(0, nl == std::string::npos ? tail->size() - kTailBytes : nl + 1);
                }
            }
            size_t nl;
            while ((nl = pending.find('\n')) != std::string::npos) {
                const auto line = std::string(support::trim(pending.substr(0, nl)));
                if (!line.empty()) {
                    std::lock_guard lock(*mu);
                    *last = line;
                }
                pending.erase(0, nl + 1);
            }
        }
        if (auto line = std::string(support::trim(pending)); !line.empty()) {
            std::lock_guard lock(*mu);
            *last = line;
        }
    };
    try {
        errReader_ = std::thread(std::move(reader));
    } catch (const std::system_error& e) {
        // Out of threads or of memory for a stack (ulimit -u, -v): no engine without its reader.
        kill();
        return makeError(ErrorKind::Environment,
                         fmt::format("cannot start a thread to read the engine's stderr: {} (a limit on threads, "
                                     "processes or memory, ulimit -u or -v, was reached)",
                                     std::strerror(e.code().value())));
    }
    return {};
}

void EngineProcess::stopStderrReader() {
    // Called once the child is reaped: the reader drains the pipe and ends.
    if (errStop_) errStop_->store(true);
    if (errReader_.joinable()) errReader_.join();
    if (errFd_ >= 0) ::close(errFd_);
    errFd_ = -1;
}

std::string EngineProcess::describeExit() {
    if (pid_ <= 0) return "it was not running";
    int status = 0;
    pid_t r = 0;
    // It closed its end, so it is ending: give it a moment to be reaped.
    for (int i = 0; i < 300 && (r = ::waitpid(pid_, &status, WNOHANG)) == 0; ++i) {
        struct timespec ts {
            0, 10 * 1000 * 1000
        };
        ::nanosleep(&ts, nullptr);
    }
    if (r == 0) {
        ::kill(-pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
    }
    ::close(fd_);
    fd_ = -1;
    forget(pid_);
    pid_ = -1;
    stopStderrReader();
    std::string how = "it ended";
    signal_ = 0;
    exitStatus_ = -1;
    if (WIFSIGNALED(status)) {
        signal_ = WTERMSIG(status);
        how = "it was killed by " + signalName(signal_);
    } else if (WIFEXITED(status)) {
        exitStatus_ = WEXITSTATUS(status);
        how = fmt::format("it exited with status {}", exitStatus_);
    }
    if (const auto words = lastWords(); !words.empty()) how += fmt::format(" (its last words: \"{}\")", words);
    return how;
}

support::Error EngineProcess::failed(const support::Error& e, const CallCancel* cancel) {
    if (cancel && cancel->cancelled()) {
        failure_ = Failure::Cancelled;
        stopped_ = running();
        kill();
        return makeError(ErrorKind::Internal, "cancelled: the engine process was stopped");
    }
    if (e.kind == ErrorKind::Timeout) {
        failure_ = Failure::Timeout;
        kill();
        return makeError(ErrorKind::Timeout, "the engine process did not answer in time and was stopped");
    }
    if (e.kind == ErrorKind::Input) {
        // It is alive and talking, but not the protocol: another program, another build.
        failure_ = Failure::Protocol;
        protocolProblem_ = e.message;
        kill();
        return makeError(
            ErrorKind::Environment,
            fmt::format("the engine process {} did not speak the engine protocol ({})", argv_[0], e.message));
    }
    failure_ = Failure::Died;
    const auto how = describeExit();
    if (signal_ == SIGALRM) {
        // The engine's own limit (a little past the deadline) ended it before this process
        // could: this process was stopped or busy, but the request timed out all the same.
        failure_ = Failure::Timeout;
        return makeError(ErrorKind::Timeout, "the engine process did not answer in time and stopped itself");
    }
    return makeError(ErrorKind::Run, "the engine process died: " + how);
}

support::Result<Frame> EngineProcess::call(Frame request, std::chrono::steady_clock::time_point deadline,
                                           const std::function<void(const Frame&)>& onProgress,
                                           const CallCancel* cancel) {
    failure_ = Failure::None;
    stopped_ = false;
    signal_ = 0;
    exitStatus_ = -1;
    if (cancel && cancel->cancelled()) {
        failure_ = Failure::Cancelled;  // before anything was sent: the engine is idle and stays
        return makeError(ErrorKind::Internal, "cancelled before it was sent to the engine");
    }
    if (pid_ <= 0) {
        if (auto st = start(); !st) {
            failure_ = Failure::Start;
            return st.error();
        }
    }
    request.header[kDeadlineField] =
        std::max(0.0, std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count());
    const int wake = cancel ? cancel->fd() : -1;
    if (auto st = writeFrame(fd_, request, deadline, wake); !st) return failed(st.error(), cancel);
    sent_ = std::chrono::steady_clock::now();
    return receive(deadline, onProgress, cancel);
}

support::Result<Frame> EngineProcess::receive(std::chrono::steady_clock::time_point deadline,
                                              const std::function<void(const Frame&)>& onProgress,
                                              const CallCancel* cancel) {
    failure_ = Failure::None;
    stopped_ = false;
    if (pid_ <= 0) {
        failure_ = Failure::Died;
        return makeError(ErrorKind::Internal, "the engine process is not running");
    }
    const int wake = cancel ? cancel->fd() : -1;
    auto reply = readFrame(fd_, deadline, wake);
    while (reply && reply->type == kProgressFrame) {
        if (onProgress) onProgress(*reply);
        reply = readFrame(fd_, deadline, wake);
    }
    if (reply) return reply;
    return failed(reply.error(), cancel);
}

std::string EngineProcess::howItEnded() const {
    std::string how = signal_            ? signalName(signal_)
                      : exitStatus_ >= 0 ? fmt::format("the engine process exited with status {}", exitStatus_)
                                         : std::string("the engine process ended");
    if (const auto words = lastWords(); !words.empty()) how += ": " + words;
    return how;
}

std::string EngineProcess::stderrTail() const {
    std::lock_guard lock(*errMutex_);
    return *errTail_;
}

std::string EngineProcess::lastWords() const {
    std::lock_guard lock(*errMutex_);
    return *lastErrLine_;
}

void EngineProcess::reap() {
    if (pid_ > 0) (void)describeExit();
}

void EngineProcess::kill() {
    if (pid_ <= 0) return;
    ::close(fd_);  // an idle engine ends by itself when its socket closes
    fd_ = -1;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == 0) {
        ::kill(-pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
    }
    forget(pid_);
    pid_ = -1;
    stopStderrReader();
}

}  // namespace nvpg::engine
