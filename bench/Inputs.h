#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/pipeline/Job.h"

#include "BuildPaths.h"

namespace nvpg::bench {

// One input of a benchmark: a workspace or a module, as the job the front ends would send.
struct Input {
    std::string name;
    pipeline::Job job;
};

// A workspace (.nvpg) as it is, or a module (.ll/.bc) with the options of the numba-cuda
// fixture beside it (NAME.options, one -name=value a line, as numba passed them) and libdevice
// when it calls it, as numba links it. The arch is `arch` when nothing sets one, never the
// local GPU's, so that every side of a benchmark compiles for the same target. Says why on
// stderr when it cannot.
std::optional<Input> loadInput(const std::filesystem::path& path, const std::string& arch);

// The numba-cuda fixtures with the kernels numba compiles to PTX (tests/data/numba): the
// issue's "numba-cuda's IR", one module each (call_device: the first of its two modules alone
// would not link, so its workspace of both is made here).
std::vector<std::filesystem::path> numbaFixtures();

}  // namespace nvpg::bench
