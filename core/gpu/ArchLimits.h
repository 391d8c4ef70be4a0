// One compute capability's limits on what can be resident on an SM, as the occupancy
// calculation needs them: a row of resources/occupancy/arch-limits.json, which cites its source.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/support/Result.h"

namespace nvpg::gpu {

struct ArchLimits {
    std::string arch;          // "compute_90"
    int major = 0, minor = 0;  // 9, 0
    std::string source;        // where the figures come from
    int maxThreadsPerBlock = 0;
    std::array<int, 3> maxBlockDims{};  // the most threads a block may have along x, y and z
    int warpSize = 0;
    int maxWarpsPerSM = 0;
    int maxBlocksPerSM = 0;
    int registersPerSM = 0;
    int registersPerBlock = 0;  // the most one block may use
    int maxRegistersPerThread = 0;
    int registerAllocationUnit = 0;            // registers are given to each warp in multiples of this
    int subPartitionsPerSM = 0;                // the register file is split evenly between them
    std::size_t sharedPerSM = 0;               // bytes, the largest carve-out
    std::vector<std::size_t> sharedCarveouts;  // bytes, ascending: the shared memory sizes an SM can be set to
    std::size_t sharedPerBlock = 0;            // bytes a block may use without opting in
    std::size_t sharedPerBlockOptIn = 0;       // bytes a block may use after opting in
    std::size_t reservedSharedPerBlock = 0;    // bytes the driver keeps in each block's shared memory
    int sharedAllocationUnit = 0;              // bytes: each block's shared memory is rounded up to it
    int blockBarriersPerSM = 0;                // the pool resident blocks take their barriers from; 0: not a limit

    int maxThreadsPerSM() const { return maxWarpsPerSM * warpSize; }

    // The rows of the built-in table (resources/occupancy/arch-limits.json), in its order.
    static const std::vector<ArchLimits>& builtIn();
    // The row for an arch as libNVVM, ptxas or a person names it: compute_90, compute_90a,
    // compute_100f, sm_90, 90 or 9.0. A Usage error names the arches the table has.
    static support::Result<ArchLimits> forArch(std::string_view arch);
    // The rows a table in the arch-limits format holds; an Input error says what is wrong where.
    static support::Result<std::vector<ArchLimits>> parse(std::string_view json);
};

}  // namespace nvpg::gpu
