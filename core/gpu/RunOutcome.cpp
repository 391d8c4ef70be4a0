#include "core/gpu/RunOutcome.h"

namespace nvpg::gpu {

double RunOutcome::gigabytesPerSecond() const {
    if (kernelMs <= 0) return 0;
    size_t bytes = 0;
    for (const auto& b : buffers) bytes += b.bytes.size();
    return bytes / (kernelMs * 1e-3) / 1e9;
}

}  // namespace nvpg::gpu
