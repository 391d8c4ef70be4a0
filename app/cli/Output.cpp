#include "cli/Output.h"

#include <fcntl.h>
#include <stdio_ext.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "cli/Commands.h"

namespace nvpg::cli {

namespace {

bool reported = false;  // the failure was said once; the check at exit stays quiet

std::string failure(int err) {
    // EIO when the error was seen by an earlier write whose errno is gone.
    return fmt::format("cannot write to standard output: {}", std::strerror(err != 0 ? err : EIO));
}

void closeStdout() {
    const bool earlier = std::ferror(stdout) != 0;
    const bool pending = ::__fpending(stdout) > 0;
    errno = 0;
    const int closed = std::fclose(stdout);
    const int err = closed != 0 ? errno : 0;
    if (!earlier && closed == 0) return;
    // Nothing was written to a closed stdout: nothing was lost.
    if (!earlier && !pending && err == EBADF) return;
    if (!reported) std::fprintf(stderr, "nvpg: %s\n", failure(err).c_str());
    ::_exit(kUsageError);
}

}  // namespace

std::optional<std::string> writeStdout(std::string_view bytes) {
    errno = 0;
    const size_t n = std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    if (n == bytes.size() && std::fflush(stdout) == 0 && !std::ferror(stdout)) return std::nullopt;
    reported = true;
    return failure(errno);
}

int flushStdout(int status) {
    errno = 0;
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return status;
    if (!reported) std::fprintf(stderr, "nvpg: %s\n", failure(errno).c_str());
    reported = true;
    return kUsageError;
}

void checkStdoutAtExit() {
    for (const int fd : {0, 1, 2})
        if (::fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            // open returns the lowest free descriptor: this one.
            const int got = ::open("/dev/null", O_RDONLY);
            if (got >= 0 && got != fd) ::close(got);
        }
    std::atexit(closeStdout);
}

}  // namespace nvpg::cli
