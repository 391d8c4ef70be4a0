#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "core/support/Result.h"
#include "core/toolkit/Toolkit.h"

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

// What identifies this machine's NVIDIA GPUs and driver, read from the kernel driver's files
// (`/proc/driver/nvidia/version` and each `gpus/*/information`), without the CUDA driver: no
// cuInit, no context, a few file reads. Where /proc/driver/nvidia is not there (containers often
// hide it; the H200 machine's does), sysfs names them: the module's version
// (`/sys/module/nvidia/version`) and each PCI device of NVIDIA's vendor id with its device id.
// Equal strings mean the same driver and the same GPUs in the same slots, so what was learnt
// from the CUDA driver about them (the default arch) still holds. Empty when neither shows an
// NVIDIA GPU. The roots are for tests.
std::string gpuIdentity(const std::filesystem::path& root = "/proc/driver/nvidia",
                        const std::filesystem::path& sysRoot = "/sys");

}  // namespace nvpg::gpu
