#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/gpu/Devices.h"
#include "core/gpu/RunConfig.h"
#include "core/gpu/RunOutcome.h"
#include "core/ptx/Ptx.h"
#include "core/support/Result.h"
#include "core/toolkit/Toolkit.h"

namespace nvpg::gpu {

// One GPU with its primary context, used from one thread at a time. Launch failures come back
// as ErrorKind::Run errors naming the CUDA error (CUDA_ERROR_ILLEGAL_ADDRESS), the kernel and
// the configuration; one that runs past its timeout as ErrorKind::Timeout. An error that poisons the context (an
// illegal address, a trap) or a kernel still running after the configuration's timeout leaves the session unusable():
// the driver (580, checked on an H200) neither recovers such a context in the same process nor stops a running kernel
// when the context is reset, so the engine process that owns the session ends and the next run gets a fresh one.
class Session {
public:
    // An Environment error when there is no driver or no such GPU.
    static support::Result<std::unique_ptr<Session>> open(std::shared_ptr<const toolkit::Driver> driver,
                                                          int ordinal = 0);
    ~Session();

    const DeviceInfo& device() const { return device_; }
    // After a sticky error or a timeout: nothing more can run in this process.
    bool unusable() const { return unusable_; }

    // `image`: PTX text, or a cubin when `cubin`. `initial`: per argument, the starting bytes of
    // each buffer (empty for other arguments). The configuration must have passed
    // checkRunConfig for `kernel`.
    support::Result<RunOutcome> run(const std::string& image, bool cubin, const ptx::Function& kernel,
                                    const RunConfig& config, const std::vector<std::string>& initial);

private:
    Session() = default;
    support::Status retain();

    std::shared_ptr<const toolkit::Driver> driver_;
    bool unusable_ = false;
    DeviceInfo device_;
    CUdevice dev_ = 0;
    CUcontext ctx_ = nullptr;
};

}  // namespace nvpg::gpu
