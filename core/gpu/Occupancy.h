// Theoretical occupancy: how many blocks of a kernel can be resident on one SM at once, and what
// stops there being more. The arithmetic is that of the CUDA toolkit's cuda_occupancy.h (which
// the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor answers alike), over an ArchLimits row.
#pragma once

#include <climits>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/gpu/ArchLimits.h"
#include "core/support/Result.h"

namespace nvpg::gpu {

// What limits the number of resident blocks; a result names every one that ties.
enum Limiter : unsigned {
    kLimitWarps = 1u << 0,
    kLimitRegisters = 1u << 1,
    kLimitSharedMemory = 1u << 2,
    kLimitBlocks = 1u << 3,
    kLimitBarriers = 1u << 4,
};

// A kernel and its launch: ptxas' figures and the block size and dynamic shared memory.
struct OccupancyInput {
    int registers = 0;             // per thread
    std::size_t staticShared = 0;  // bytes per block
    std::size_t dynamicShared = 0;
    int blockSize = 0;  // threads per block
    int barriers = 0;   // named barriers the kernel uses (ptxas' "Used N barriers")
    // The shared memory carve-out asked for, in percent of the largest (cuFuncSetAttribute's
    // PREFERRED_SHARED_MEMORY_CARVEOUT); none: the driver's default, the largest.
    std::optional<int> carveoutPercent;
    // The kernel may use more than the default per-block shared memory (it opted in with
    // cuFuncSetAttribute's MAX_DYNAMIC_SHARED_SIZE_BYTES); otherwise more is a launch that cannot run.
    bool optIn = false;
};

struct Occupancy {
    static constexpr int kNoLimit = INT_MAX;  // a resource the kernel does not use

    int blockSize = 0;
    int warpsPerBlock = 0;
    int activeBlocks = 0;   // per SM
    int activeWarps = 0;    // per SM
    int maxWarps = 0;       // per SM
    double occupancy = 0;   // activeWarps / maxWarps
    unsigned limiters = 0;  // Limiter bits: every limit equal to activeBlocks
    // Blocks per SM each resource alone would allow.
    int byWarps = 0, byRegisters = 0, bySharedMemory = 0, byBlocks = 0, byBarriers = kNoLimit;
    int registersPerBlock = 0;       // allocated: per warp rounded up to the allocation unit
    std::size_t sharedPerBlock = 0;  // allocated: static + dynamic + reserved, rounded up
    std::size_t sharedCarveout = 0;  // the SM's shared memory size this assumes
};

// A Usage error for a block size outside 1..maxThreadsPerBlock, negative figures or a
// carve-out outside 0..100 percent.
support::Result<Occupancy> computeOccupancy(const ArchLimits& limits, const OccupancyInput& input);

// The same at every block size from one warp to the largest block, a warp apart (32, 64 .. 1024):
// the occupancy chart's points.
support::Result<std::vector<Occupancy>> occupancySweep(const ArchLimits& limits, OccupancyInput input);

// "registers, shared memory": the limiters' names, in the order of the Limiter bits.
std::string limiterNames(unsigned limiters);

}  // namespace nvpg::gpu
