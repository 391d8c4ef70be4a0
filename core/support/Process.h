#pragma once

#include <atomic>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nvpg::support {

// How long a probe (runProbe) may take: `nvdisasm --version` answers in ~10 ms, python3's
// site-packages query in tens of milliseconds.
inline constexpr double kProbeSeconds = 2.0;

// What one run of a tool (ptxas, nvdisasm, llvm-dis-14) gave.
struct ProcessRun {
    // The exit status; -1 when it could not be started (`output` says why); -2 when a signal
    // ended it.
    int status = -1;
    std::string output;  // stdout and stderr together, cut at `outputLimit`
    // runProbe only: it did not end within its time, or wrote more than its limit, and was
    // killed with everything it started (`status` is then -2).
    bool timedOut = false;
    bool tooLong = false;
    bool cancelled = false;  // runProbe: `cancel` was set, and it was killed (`status` is then -2)
    int signal = 0;          // the signal that ended it, when one did (SIGKILL for a timeout too)
    // runProbe with `findLeftRunning`: what it started that still runs after it ended, outside
    // its process group (a daemon, a process in a session of its own), as "pid 123: sleep 60".
    std::vector<std::string> leftRunning;
};

// Runs `args` (args[0] a path, not searched in PATH) in the caller's process group, stdin from
// /dev/null, and waits for it. Stopping the engine's process group stops the tool with it.
ProcessRun runProcess(const std::vector<std::string>& args, size_t outputLimit = size_t(64) << 20);

// A tool asked about itself (`nvdisasm --version`, python3 for its site-packages), from a front
// end's search as well as an engine's: it runs in a process group of its own and ends with the
// thread that started it (PR_SET_PDEATHSIG), and it is killed, with whatever it started, once it
// has run `seconds` or written more than `outputLimit` bytes. A tool that sleeps or prints
// forever (a broken wrapper, a hostile PATH) then costs a search that long at most. args[0]
// without a '/' is looked up in PATH.
// With stderrToo false, its stderr goes to /dev/null and `output` is its stdout alone.
// `cancel`, when given, is looked at every 50 ms: once it is true, the tool and what it started
// are killed and reaped as for a timeout (a front end's Cancel button on a long run).
// Once the tool itself has ended and its output is read, runProbe returns, though what it started
// may hold its output open. With `findLeftRunning`, the tool runs with an environment variable
// of its own (NVPG_PROBE_TOKEN), which what it starts inherits: the processes that still have it
// once the tool has ended are listed in `leftRunning` (they are not stopped).
ProcessRun runProbe(const std::vector<std::string>& args, double seconds = kProbeSeconds,
                    size_t outputLimit = size_t(1) << 20, bool stderrToo = true,
                    const std::atomic<bool>* cancel = nullptr, bool findLeftRunning = false);

// The first executable file `name` in PATH's folders, or empty.
std::string findInPath(const std::string& name);

// The limit this process (and every process it starts) has on its memory, in words: "the
// address space is limited to 97.7 MiB (ulimit -v)"; empty when there is none. For messages about
// memory that ran out, so that they name the limit to raise.
std::string memoryLimitWords();

// Whether a library's or loader's last words say it ran out of memory: LLVM's "LLVM ERROR: out
// of memory", C++'s std::bad_alloc, strerror(ENOMEM), or dlopen's "failed to map segment" (a
// library that does not fit in the address space left).
bool saysOutOfMemory(std::string_view words);

}  // namespace nvpg::support
