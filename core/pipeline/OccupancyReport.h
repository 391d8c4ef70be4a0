// Each compiled kernel's theoretical occupancy (gpu::computeOccupancy) from its ptxas figures and
// the limits of the arch it was compiled for: what `nvpg occupancy` prints and `--report` holds.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/gpu/Occupancy.h"
#include "core/gpu/RunConfig.h"
#include "core/pipeline/CompileResult.h"
#include "core/support/Result.h"

namespace nvpg::pipeline {

// One launch shape to evaluate a kernel at.
struct OccupancyAt {
    gpu::Dim3 block;
    std::size_t dynamicShared = 0;
    int threads() const { return int(std::min<unsigned long long>(1ULL * block.x * block.y * block.z, 1U << 30)); }
};

struct KernelOccupancy {
    std::string kernel;
    int registers = 0;             // per thread, ptxas'
    std::size_t staticShared = 0;  // ptxas' smem
    std::size_t dynamicShared = 0;
    gpu::Occupancy occupancy;
};

struct OccupancyTable {
    gpu::ArchLimits limits;
    std::string figuresSource;  // what the registers and shared memory figures come from
    std::vector<KernelOccupancy> rows;
};

// Every kernel at each launch `at` names for it, in the result's kernel order. Errors: the
// result has no ptxas figures (why), the arch is not in the table, a block shape the arch cannot
// launch (gpu::blockShapeProblem).
support::Result<OccupancyTable> kernelOccupancy(const CompileResult& result,
                                                const std::function<std::vector<OccupancyAt>(const std::string&)>& at);

// The launches the report evaluates a kernel at: those of the workspace's run configurations
// that launch it (their block's threads, their dynamic shared memory), else 128 and 256 threads
// without dynamic shared memory.
std::vector<OccupancyAt> reportLaunches(const std::string& kernel, const std::vector<gpu::RunConfig>& runs);

// The table as JSON, or {"unavailable": why}.
nlohmann::ordered_json occupancyJson(const support::Result<OccupancyTable>& table);

}  // namespace nvpg::pipeline
