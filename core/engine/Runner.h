#pragma once

#include <filesystem>
#include <memory>

#include "core/engine/EngineProcess.h"
#include "core/engine/Remote.h"
#include "core/gpu/Session.h"
#include "core/pipeline/CompileResult.h"

namespace nvpg::engine {

// The one run path of both front ends: a compiled program and a configuration in, the outcome
// out. Everything that can be checked without a GPU is checked first, with the same messages
// on every machine: the kernel exists (in the LTO cubin too, when asked), the arguments fit its
// parameters, buffer files load, and every buffer's size is within the limit (by arithmetic).
// Then the GPU is found and the buffers are checked against its memory; only then are the other
// buffers built (so a huge COUNT costs nothing where there is no GPU) and the GPU used: by
// default in an engine process (`engineCommand`, e.g. {"/usr/bin/nvpg", "engine"}) that is
// started on the first run and started again after a kernel that faulted or hung, since the
// driver recovers neither in the process that ran it. An empty command runs in this process
// (for debugging), where such a kernel leaves the GPU unusable until the process ends.
class Runner {
public:
    Runner(std::shared_ptr<const toolkit::Toolkit> toolkit, int device = 0,
           std::vector<std::string> engineCommand = {});
    // Runs on a far engine (engine/Remote.h): on `engine`, the connection that compiled (one
    // per command; it must outlive this), on GPU `device` of `far.gpus`, the GPUs that engine
    // described. Buffer files are read here and sent; ssh's failures are named as a compile's are.
    Runner(EngineProcess& engine, FarEnd end, FarToolkit far, int device = 0);
    ~Runner();

    // Errors: Usage (pipeline::checkRun's, a buffer file, a buffer over the limit or the GPU's
    // memory), Environment (no driver or GPU), Run (the launch failed, or the engine died), Timeout
    // (the kernel ran past its timeout, or the engine did not answer). `baseDir` is where relative
    // buffer files are.
    support::Result<gpu::RunOutcome> run(const pipeline::CompileResult& compiled, gpu::RunConfig config,
                                         const std::filesystem::path& baseDir);

    // Whether a GPU can be used here, and why not (for disabling run buttons up front).
    bool gpuAvailable(std::string* why) const;

private:
    // The GPU `device_`, or an Environment error saying why there is none.
    support::Result<gpu::DeviceInfo> findDevice() const;

    std::shared_ptr<const toolkit::Toolkit> toolkit_;
    int device_;
    std::unique_ptr<EngineProcess> engine_;  // null: in-process, or a far engine's
    EngineProcess* farEngine_ = nullptr;     // the far engine, not owned
    std::optional<FarEnd> farEnd_;
    std::optional<FarToolkit> far_;
    std::unique_ptr<gpu::Session> session_;
};

}  // namespace nvpg::engine
