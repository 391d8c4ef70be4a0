#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpu/Devices.h"
#include "gpu/RunConfig.h"
#include "ptx/Ptx.h"
#include "support/Result.h"
#include "toolkit/Toolkit.h"

namespace nvpg::gpu {

struct BufferOut {
    size_t arg = 0;  // 0-based position of the argument
    ElemType type = ElemType::F32;
    size_t count = 0;
    std::string bytes;  // the buffer after the run
};

struct RunOutcome {
    std::string kernel;
    std::string device;
    double kernelMs = 0;                // median over the repeats
    std::vector<double> launchMs;       // each launch, in order
    size_t bytesIn = 0, bytesOut = 0;   // copied to and from the GPU
    std::vector<BufferOut> buffers;
    // The buffers' bytes over the kernel time: what the kernel would move if it read every
    // input and wrote every output once.
    double gigabytesPerSecond() const;
};

// One GPU with its primary context, used from one thread at a time. Launch failures come back
// as ErrorKind::Run errors naming the CUDA error (CUDA_ERROR_ILLEGAL_ADDRESS), the kernel and
// the configuration; after an error that poisons the context, the context is reset so that the
// next run works. A kernel still running after the configuration's timeout is reported the
// same way and the context reset.
class Session {
public:
    // An Environment error when there is no driver or no such GPU.
    static support::Result<std::unique_ptr<Session>> open(std::shared_ptr<const toolkit::Toolkit> toolkit,
                                                          int ordinal = 0);
    ~Session();

    const DeviceInfo& device() const { return device_; }

    // `image`: PTX text, or a cubin when `cubin`. `initial`: per argument, the starting bytes of
    // each buffer (empty for other arguments). The configuration must have passed
    // checkRunConfig for `kernel`.
    support::Result<RunOutcome> run(const std::string& image, bool cubin, const ptx::Function& kernel,
                                    const RunConfig& config, const std::vector<std::string>& initial);

private:
    Session() = default;
    support::Status retain();
    void resetContext();

    std::shared_ptr<const toolkit::Toolkit> toolkit_;
    std::shared_ptr<const toolkit::Driver> driver_;
    DeviceInfo device_;
    CUdevice dev_ = 0;
    CUcontext ctx_ = nullptr;
};

}  // namespace nvpg::gpu
