#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/gpu/Devices.h"
#include "core/support/Result.h"
#include "core/toolkit/Toolkit.h"

namespace nvpg::gpu {

// The local GPUs and the CUDA driver's report as the driver gave them.
struct LocalGpus {
    std::vector<DeviceInfo> devices;  // never empty
    toolkit::LibraryReport driver;    // "CUDA driver": found, path, via, version
    bool fromCache = false;           // read from the cache file: the driver was not opened
};

// Where the local GPUs are learnt from; the defaults are the machine's, the rest is for tests.
struct LocalGpuSource {
    std::filesystem::path procRoot = "/proc/driver/nvidia";  // gpuIdentity's
    std::filesystem::path sysRoot = "/sys";                  // gpuIdentity's, without procRoot
    // The cache file; empty: the default, deviceCacheFile(). "-": no cache file at all.
    std::filesystem::path cacheFile;
    // Asks the CUDA driver (cuInit: about 220 ms on an H200 machine); default: `toolkit`'s driver.
    std::function<support::Result<LocalGpus>()> askDriver;
};

// userCacheDir()/gpus.json; empty when there is no cache directory.
std::filesystem::path deviceCacheFile();

// The local GPUs without creating a CUDA context where possible. No NVIDIA kernel driver (an
// empty gpuIdentity): an Environment error, and the CUDA driver is not opened at all. Otherwise
// the cache file answers when it holds what the driver said for this very identity (the same
// driver version and the same GPUs in the same slots); else the driver is asked once and its
// answer written to the file (atomically; two processes may race, each writes a whole file). A
// damaged or foreign file is ignored and replaced. Failures of the driver are not cached.
support::Result<LocalGpus> localGpus(const toolkit::Toolkit& toolkit, const LocalGpuSource& source = {});

}  // namespace nvpg::gpu
