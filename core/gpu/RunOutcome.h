#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/gpu/ElemType.h"

namespace nvpg::gpu {

// What one run gives back. Plain data: it crosses the engine protocol and is shown by both
// front ends, none of which needs the driver session that made it.
struct BufferOut {
    size_t arg = 0;  // 0-based position of the argument
    ElemType type = ElemType::F32;
    size_t count = 0;
    std::string bytes;  // the buffer after the run
};

struct RunOutcome {
    std::string kernel;
    std::string device;
    double kernelMs = 0;               // median over the repeats
    std::vector<double> launchMs;      // each launch, in order
    size_t bytesIn = 0, bytesOut = 0;  // copied to and from the GPU
    std::vector<BufferOut> buffers;
    // The buffers' bytes over the kernel time: what the kernel would move if it read every
    // input and wrote every output once.
    double gigabytesPerSecond() const;
};

}  // namespace nvpg::gpu
