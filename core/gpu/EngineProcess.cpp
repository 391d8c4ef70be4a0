#include "gpu/EngineProcess.h"

#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "support/Text.h"

extern char** environ;

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::gpu {

std::string signalName(int sig) {
    switch (sig) {
        case SIGSEGV: return "SIGSEGV";
        case SIGABRT: return "SIGABRT";
        case SIGKILL: return "SIGKILL";
        case SIGBUS: return "SIGBUS";
        case SIGFPE: return "SIGFPE";
        case SIGILL: return "SIGILL";
        case SIGTERM: return "SIGTERM";
        case SIGPIPE: return "SIGPIPE";
        default: return fmt::format("signal {}", sig);
    }
}

std::string EngineProcess::selfExecutable() {
    char buf[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return "/proc/self/exe";
    return std::string(buf, size_t(n));
}

std::vector<std::string> gpuEngineCommand(const std::string& workerArgument) {
    const char* env = std::getenv("NVPG_GPU_ENGINE");
    if (!env || !*env) return {EngineProcess::selfExecutable(), workerArgument};
    if (std::string_view(env) == "inprocess") return {};
    std::vector<std::string> argv;
    for (auto part : support::split(env, ' '))
        if (!part.empty()) argv.emplace_back(part);
    return argv;
}

EngineProcess::~EngineProcess() { kill(); }

support::Status EngineProcess::start() {
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return makeError(ErrorKind::Internal, fmt::format("cannot make a socket for the engine: {}", std::strerror(errno)));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // The child's end becomes its stdin and stdout (dup2 clears close-on-exec); stderr is shared,
    // so whatever the engine or the driver prints reaches the user.
    posix_spawn_file_actions_adddup2(&actions, sv[1], 0);
    posix_spawn_file_actions_adddup2(&actions, sv[1], 1);
    std::vector<char*> argv;
    for (auto& a : argv_) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(sv[1]);
    if (rc != 0) {
        ::close(sv[0]);
        return makeError(ErrorKind::Environment,
                         fmt::format("cannot start the engine process {}: {}", argv_[0], std::strerror(rc)));
    }
    pid_ = pid;
    fd_ = sv[0];
    return {};
}

std::string EngineProcess::describeExit() {
    if (pid_ <= 0) return "it was not running";
    int status = 0;
    pid_t r = 0;
    // It closed its end, so it is ending: give it a moment to be reaped.
    for (int i = 0; i < 200 && (r = ::waitpid(pid_, &status, WNOHANG)) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (r == 0) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
    }
    ::close(fd_);
    fd_ = -1;
    pid_ = -1;
    if (WIFSIGNALED(status)) return "it was killed by " + signalName(WTERMSIG(status));
    if (WIFEXITED(status)) return fmt::format("it exited with status {}", WEXITSTATUS(status));
    return "it ended";
}

support::Result<Frame> EngineProcess::call(const Frame& request, std::chrono::steady_clock::time_point deadline) {
    if (pid_ <= 0)
        if (auto st = start(); !st) return st.error();
    if (auto st = writeFrame(fd_, request, deadline); !st) {
        if (st.error().kind == ErrorKind::Run) {  // the deadline passed while it would not read
            kill();
            return makeError(ErrorKind::Run, "the engine process did not answer in time and was stopped");
        }
        return makeError(ErrorKind::Run, "the engine process stopped taking requests: " + describeExit());
    }
    auto reply = readFrame(fd_, deadline);
    if (reply) return reply;
    if (reply.error().kind == ErrorKind::Run) {  // the deadline passed
        kill();
        return makeError(ErrorKind::Run, "the engine process did not answer in time and was stopped");
    }
    return makeError(ErrorKind::Run, "the engine process died: " + describeExit());
}

void EngineProcess::reap() {
    if (pid_ > 0) (void)describeExit();
}

void EngineProcess::kill() {
    if (pid_ <= 0) return;
    ::close(fd_);  // an idle engine ends by itself when its pipe closes
    fd_ = -1;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == 0) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
    }
    pid_ = -1;
}

}  // namespace nvpg::gpu
