#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "support/Result.h"
#include "toolkit/Toolkit.h"

namespace nvpg::gpu {

struct DeviceInfo {
    int ordinal = 0;
    std::string name;
    int ccMajor = 0, ccMinor = 0;  // compute capability
    size_t totalMemory = 0;        // bytes
};

// The GPUs the driver sees. An Environment error, saying why, when there is no driver or no GPU.
support::Result<std::vector<DeviceInfo>> listDevices(const toolkit::Toolkit& toolkit);
support::Result<std::vector<DeviceInfo>> listDevices(const toolkit::Driver& driver);

}  // namespace nvpg::gpu
