#include "core/support/Process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <tuple>

#include <fmt/format.h>

#include "core/support/Text.h"

extern char** environ;

namespace nvpg::support {

ProcessRun runProcess(const std::vector<std::string>& args, size_t outputLimit) {
    ProcessRun out;
    if (args.empty()) {
        out.output = "no program to run";
        return out;
    }
    int pipe[2];
    if (::pipe2(pipe, O_CLOEXEC) != 0) {
        out.output = fmt::format("cannot make a pipe: {}", std::strerror(errno));
        return out;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    std::vector<std::string> copies = args;
    std::vector<char*> argv;
    for (auto& a : copies) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe[1]);
    if (rc != 0) {
        ::close(pipe[0]);
        out.output = fmt::format("cannot start {}: {}", args[0], std::strerror(rc));
        return out;
    }
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(pipe[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (out.output.size() < outputLimit) out.output.append(buf, size_t(n));
    }
    ::close(pipe[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -2;
    return out;
}

namespace {

// The processes whose environment holds `entry` ("NAME=VALUE") and that are not in process group
// `group` (killed by then) nor zombies: "pid 123: sleep 60", from /proc.
std::vector<std::string> processesWithEnvironment(const std::string& entry, pid_t group) {
    std::vector<std::string> found;
    std::error_code ec;
    for (const auto& dir : std::filesystem::directory_iterator("/proc", ec)) {
        const auto name = dir.path().filename().string();
        if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        const auto read = [&](const char* file) {
            std::string bytes;
            const int fd = ::open((dir.path() / file).c_str(), O_RDONLY | O_CLOEXEC);
            if (fd < 0) return bytes;
            char buf[4096];
            for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0 && bytes.size() < (size_t(1) << 20);)
                bytes.append(buf, size_t(n));
            ::close(fd);
            return bytes;
        };
        // stat: "pid (comm) state ppid pgrp ...", comm may hold spaces and parentheses.
        const auto stat = read("stat");
        const auto close = stat.rfind(')');
        if (close == std::string::npos) continue;
        const auto fields = split(std::string_view(stat).substr(close + 1), ' ');
        std::vector<std::string_view> f;
        for (auto x : fields)
            if (!x.empty()) f.push_back(x);
        if (f.size() < 3 || f[0] == "Z" || f[0] == "X" || f[2] == std::to_string(group)) continue;
        const auto environment = read("environ");
        bool has = false;
        for (auto e : split(environment, '\0'))
            if (e == entry) has = true;
        if (!has) continue;
        auto cmdline = read("cmdline");
        while (!cmdline.empty() && cmdline.back() == '\0') cmdline.pop_back();
        std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
        found.push_back(fmt::format("pid {}: {}", name, cmdline));
    }
    return found;
}

}  // namespace

ProcessRun runProbe(const std::vector<std::string>& args, double seconds, size_t outputLimit, bool stderrToo,
                    const std::atomic<bool>* cancel, bool findLeftRunning) {
    ProcessRun out;
    if (args.empty()) {
        out.output = "no program to run";
        return out;
    }
    const std::string program = args[0].find('/') == std::string::npos ? findInPath(args[0]) : args[0];
    if (program.empty()) {
        out.output = fmt::format("{} is not on PATH", args[0]);
        return out;
    }
    int pipe[2];
    if (::pipe2(pipe, O_CLOEXEC) != 0) {
        out.output = fmt::format("cannot make a pipe: {}", std::strerror(errno));
        return out;
    }
    // Everything the child needs, made before the fork: after it, in a threaded process, only
    // async-signal-safe calls.
    std::vector<std::string> copies = args;
    std::vector<char*> argv;
    for (auto& a : copies) argv.push_back(a.data());
    argv.push_back(nullptr);
    // The token that marks what the tool starts: unique to this run of this process.
    static std::atomic<unsigned> runs{0};
    const std::string token = findLeftRunning ? fmt::format("NVPG_PROBE_TOKEN={}-{}-{}", ::getpid(), runs.fetch_add(1),
                                                            std::chrono::steady_clock::now().time_since_epoch().count())
                                              : std::string();
    std::vector<std::string> environment;
    std::vector<char*> envp;
    if (findLeftRunning) {
        for (char** e = environ; *e; ++e)
            if (std::string_view(*e).rfind("NVPG_PROBE_TOKEN=", 0) != 0) environment.emplace_back(*e);
        environment.push_back(token);
        for (auto& e : environment) envp.push_back(e.data());
        envp.push_back(nullptr);
    }
    char** const childEnvironment = findLeftRunning ? envp.data() : environ;
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int err = errno;
        ::close(pipe[0]);
        ::close(pipe[1]);
        out.output = fmt::format("cannot start {}: {}", args[0], std::strerror(err));
        return out;
    }
    if (pid == 0) {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);  // the front end ended before the line above
        const int in = ::open("/dev/null", O_RDWR | O_CLOEXEC);
        if (in < 0 || ::dup2(in, 0) < 0 || ::dup2(pipe[1], 1) < 0 || ::dup2(stderrToo ? pipe[1] : in, 2) < 0)
            ::_exit(127);
        ::execve(program.c_str(), argv.data(), childEnvironment);
        ::_exit(127);
    }
    ::setpgid(pid, pid);  // also here, so that the kill below never misses the group
    ::close(pipe[1]);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    char buf[65536];
    bool ended = false;   // its output reached its end
    bool exited = false;  // it was reaped (in `status`)
    int status = 0;
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0) {
            out.timedOut = true;
            break;
        }
        if (cancel && cancel->load()) {
            out.cancelled = true;
            break;
        }
        pollfd p{pipe[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, int(std::min<long long>(left, 50)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) break;
        if (ready == 0) {
            // Nothing to read: a tool that has ended, and whose output is all read, is done,
            // though something it started (in a session of its own) may hold the pipe open.
            pid_t r;
            while ((r = ::waitpid(pid, &status, WNOHANG)) < 0 && errno == EINTR) {
            }
            if (r == pid) {
                exited = true;
                break;
            }
            continue;
        }
        const ssize_t n = ::read(pipe[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ended = true;
            break;
        }
        out.output.append(buf, size_t(n));
        if (out.output.size() > outputLimit) {
            out.output.resize(outputLimit);
            out.tooLong = true;
            break;
        }
    }
    // What is still running of it (the tool, or what it started and left holding the pipe) goes,
    // before the pipe is closed: a tool stopped for its output dies of the kill, not of EPIPE.
    if (!ended || out.timedOut || out.tooLong || out.cancelled) ::kill(-pid, SIGKILL);
    ::close(pipe[0]);
    // One that closed its output but runs on is held to the same deadline.
    while (!exited) {
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) break;
        const bool cancelled = cancel && cancel->load();
        if (r == 0 && (cancelled || std::chrono::steady_clock::now() >= deadline)) {
            (cancelled ? out.cancelled : out.timedOut) = true;
            ::kill(-pid, SIGKILL);
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            break;
        }
        struct timespec nap {
            0, 1000000
        };
        ::nanosleep(&nap, nullptr);
    }
    ::kill(-pid, SIGKILL);  // what it started and left behind in its group
    out.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    out.status = out.timedOut || out.tooLong || out.cancelled ? -2 : WIFEXITED(status) ? WEXITSTATUS(status) : -2;
    if (out.status == 127 && out.output.empty()) out.output = fmt::format("cannot run {}", program);
    if (findLeftRunning) out.leftRunning = processesWithEnvironment(token, pid);
    return out;
}

std::string findInPath(const std::string& name) {
    const char* path = std::getenv("PATH");
    if (!path || name.empty() || name.find('/') != std::string::npos) return {};
    for (auto dir : split(path, ':')) {
        if (dir.empty()) continue;
        const std::filesystem::path candidate = std::filesystem::path(std::string(dir)) / name;
        if (::access(candidate.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(candidate))
            return candidate.string();
    }
    return {};
}

std::string memoryLimitWords() {
    std::string out;
    // RLIMIT_AS (ulimit -v) counts every mapping, libNVVM's code too; RLIMIT_DATA (ulimit -d) the heap.
    for (const auto& [resource, what, shell] : {std::tuple{RLIMIT_AS, "the address space", "ulimit -v"},
                                                std::tuple{RLIMIT_DATA, "the data segment", "ulimit -d"}}) {
        rlimit limit{};
        if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) continue;
        out += fmt::format("{}{} is limited to {} ({})", out.empty() ? "" : " and ", what,
                           formatBytes(uint64_t(limit.rlim_cur)), shell);
    }
    return out;
}

bool saysOutOfMemory(std::string_view words) {
    std::string lower(words);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    // "cannot allocate memory in static TLS block" is a loader's fixed reserve, which no limit raises.
    if (lower.find("static tls") != std::string::npos) return false;
    for (const char* sign : {"out of memory", "bad_alloc", "cannot allocate memory", "failed to map segment",
                             "cannot map zero-fill pages"})
        if (lower.find(sign) != std::string::npos) return true;
    return false;
}

}  // namespace nvpg::support
