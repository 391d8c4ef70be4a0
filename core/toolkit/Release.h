#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace nvpg::toolkit {

// The CUDA release a toolkit's files come from, as its installer recorded it beside them: a
// standard toolkit's version.json, the .dist-info folder pip made for a wheel, a conda package's
// conda-meta record. Nothing is opened: libNVVM says 2.0 in 12.9 and 13.0 alike, and opening
// nvJitLink for its version costs milliseconds and loads a library.
struct Release {
    std::string version;  // "13.0.88", "12.9.86"
    std::string source;   // what said so: ".../version.json", "nvidia_cuda_nvcc_cu12-12.9.86.dist-info"
    int major() const;    // 13; 0 when the version does not start with a number
};

// The release of the toolkit whose libNVVM is `libnvvm`, looked for in its folder and the four
// above it; nothing when none of them says.
std::optional<Release> releaseOf(const std::filesystem::path& libnvvm);

}  // namespace nvpg::toolkit
