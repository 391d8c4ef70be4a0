#include "support/Process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "support/Text.h"

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

}  // namespace nvpg::support
