#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace nvpg::support {

// What one run of a tool (ptxas, nvdisasm, llvm-dis-14) gave.
struct ProcessRun {
    // The exit status; -1 when it could not be started (`output` says why); -2 when a signal
    // ended it.
    int status = -1;
    std::string output;  // stdout and stderr together, cut at `outputLimit`
};

// Runs `args` (args[0] a path, not searched in PATH) in the caller's process group, stdin from
// /dev/null, and waits for it. Stopping the engine's process group stops the tool with it.
ProcessRun runProcess(const std::vector<std::string>& args, size_t outputLimit = size_t(64) << 20);

// The first executable file `name` in PATH's folders, or empty.
std::string findInPath(const std::string& name);

}  // namespace nvpg::support
