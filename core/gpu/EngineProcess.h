#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "gpu/Protocol.h"

namespace nvpg::gpu {

// A child process speaking the engine protocol on a socket that is its stdin and stdout. The
// front end owns it: starts it on first use, kills it when it stops answering in time, and
// notices (by name) when it died.
class EngineProcess {
public:
    explicit EngineProcess(std::vector<std::string> argv) : argv_(std::move(argv)) {}
    ~EngineProcess();
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    // Sends a request and waits for the answer until `deadline`. When the process is not
    // running it is started first. On a timeout the process is killed; when it dies, the error
    // says how (its exit status or the signal, by name).
    support::Result<Frame> call(const Frame& request, std::chrono::steady_clock::time_point deadline);
    // Waits for the process to end by itself (after a reply that said it would), briefly.
    void reap();
    void kill();
    bool running() const { return pid_ > 0; }
    pid_t pid() const { return pid_; }

    // The path of the running executable, for starting a copy of it as the engine.
    static std::string selfExecutable();

private:
    support::Status start();
    std::string describeExit();

    std::vector<std::string> argv_;
    pid_t pid_ = -1;
    int fd_ = -1;
};

// The command that starts the GPU engine process: this executable with `workerArgument`, unless
// the environment variable NVPG_GPU_ENGINE says otherwise: "inprocess" (empty: run in this
// process, for debugging) or a command line (split at spaces).
std::vector<std::string> gpuEngineCommand(const std::string& workerArgument);

// "SIGSEGV", "SIGKILL"...
std::string signalName(int sig);

}  // namespace nvpg::gpu
