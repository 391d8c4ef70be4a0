#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/pipeline/Job.h"
#include "core/toolkit/Toolkit.h"

namespace nvpg::cache {

// Bumped whenever what a key covers or how a cached result is stored changes, so that files of
// another layout are never read as this one's.
inline constexpr uint32_t kCacheFormatVersion = 1;

// A file a result depends on, as stat() sees it: a toolkit upgrade (or a rebuilt nvpg) changes
// its size or modification time, and the cache misses. No file is opened or loaded.
struct FileStamp {
    std::string role;            // "libNVVM", "libdevice", ..., "nvpg"
    std::filesystem::path path;  // empty when the toolkit has none
    uint64_t size = 0;
    int64_t mtimeNs = 0;
};
FileStamp stampOf(std::string role, const std::filesystem::path& path);

// Everything besides the job that its result depends on: the library and tool files the
// toolkit found (and this program's own executable), and, when the arch comes from the local GPU,
// gpu::gpuIdentity().
struct Environment {
    std::vector<FileStamp> files;
    std::string gpu;
};
// The toolkit's files for `job` (nvdisasm only when the job wants SASS, since finding it may ask
// python3), this executable, and the GPU identity when the job takes its arch from the GPU.
Environment environmentOf(const pipeline::Job& job, const toolkit::Toolkit& toolkit);

// The hash (XXH3-128, 32 hex digits) of a canonical serialization of the job (every module's
// name, bytes, format and lazy flag in order; every option; libdevice, verify, verifyOnly, LTO
// mode, outputs, line map, archFromGpu; not the generation) and of `env`. The one key function:
// every caller of the cache goes through it.
std::string keyOf(const pipeline::Job& job, const Environment& env);
inline std::string keyOf(const pipeline::Job& job, const toolkit::Toolkit& toolkit) {
    return keyOf(job, environmentOf(job, toolkit));
}

}  // namespace nvpg::cache
