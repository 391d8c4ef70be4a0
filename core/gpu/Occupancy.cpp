#include "core/gpu/Occupancy.h"

#include <algorithm>

#include <fmt/format.h>

namespace nvpg::gpu {

namespace {

using support::ErrorKind;
using support::makeError;

long long roundUp(long long x, long long unit) {
    return (x + unit - 1) / unit * unit;
}

// The smallest carve-out that holds `bytes`, as the driver sets an SM's shared memory size;
// none when even the largest does not.
std::optional<std::size_t> carveoutFor(const ArchLimits& a, std::size_t bytes) {
    for (auto c : a.sharedCarveouts)
        if (c >= bytes) return c;
    return std::nullopt;
}

// Registers go to warps, each warp's rounded up to the allocation unit, and each of the SM's
// sub-partitions holds whole warps of its quarter of the register file. A block must also pass
// the per-block check, which counts its warps as if spread over every sub-partition.
int blocksByRegisters(const ArchLimits& a, const OccupancyInput& in, int warpsPerBlock, int& allocatedPerBlock) {
    const long long perWarp = roundUp((long long)in.registers * a.warpSize, a.registerAllocationUnit);
    allocatedPerBlock = int(perWarp * warpsPerBlock);
    const long long checked = perWarp * roundUp(warpsPerBlock, a.subPartitionsPerSM);
    if (checked > a.registersPerBlock || allocatedPerBlock > a.registersPerBlock ||
        in.registers > a.maxRegistersPerThread)
        return 0;
    if (perWarp == 0) return Occupancy::kNoLimit;
    const long long warpsPerSubPartition = (a.registersPerSM / a.subPartitionsPerSM) / perWarp;
    return int(warpsPerSubPartition * a.subPartitionsPerSM / warpsPerBlock);
}

// Each block's shared memory (with the driver's reserved part) is rounded up to the allocation
// unit; the SM's carve-out is the preferred one, or the smallest that holds one block when the
// preferred one does not.
support::Result<int> blocksBySharedMemory(const ArchLimits& a, const OccupancyInput& in, Occupancy& out) {
    const std::size_t staticPart = in.staticShared + a.reservedSharedPerBlock;
    const std::size_t allocated =
        std::size_t(roundUp((long long)(staticPart + in.dynamicShared), a.sharedAllocationUnit));
    out.sharedPerBlock = allocated;
    const bool optedIn = in.optIn && staticPart + in.dynamicShared > a.sharedPerBlock;
    const std::size_t perBlockLimit = (optedIn ? a.sharedPerBlockOptIn : a.sharedPerBlock) + a.reservedSharedPerBlock;
    if (allocated > perBlockLimit) {
        out.sharedCarveout = a.sharedPerSM;
        return 0;
    }
    const std::size_t wanted =
        in.carveoutPercent ? std::size_t(*in.carveoutPercent) * a.sharedPerSM / 100 : a.sharedPerSM;
    const auto preferred = carveoutFor(a, wanted);
    if (!preferred)
        return makeError(ErrorKind::Internal, fmt::format("{}: no carve-out holds {} bytes", a.arch, wanted));
    std::size_t carveout = *preferred;
    if (carveout < allocated) {
        const auto fits = carveoutFor(a, allocated);
        if (!fits)
            return makeError(ErrorKind::Internal, fmt::format("{}: no carve-out holds {} bytes", a.arch, allocated));
        carveout = *fits;
    }
    out.sharedCarveout = carveout;
    return allocated == 0 ? Occupancy::kNoLimit : int(carveout / allocated);
}

// Hopper on: each resident block holds its named barriers, from a pool per SM.
int blocksByBarriers(const ArchLimits& a, const OccupancyInput& in) {
    if (a.blockBarriersPerSM <= 0 || in.barriers <= 0) return Occupancy::kNoLimit;
    return a.blockBarriersPerSM / in.barriers;
}

}  // namespace

support::Result<Occupancy> computeOccupancy(const ArchLimits& a, const OccupancyInput& in) {
    if (in.blockSize < 1 || in.blockSize > a.maxThreadsPerBlock)
        return makeError(ErrorKind::Usage, fmt::format("block size {}: {} takes 1 to {} threads per block",
                                                       in.blockSize, a.arch, a.maxThreadsPerBlock));
    if (in.registers < 0 || in.barriers < 0)
        return makeError(ErrorKind::Usage, "registers and barriers per kernel cannot be negative");
    if (in.carveoutPercent && (*in.carveoutPercent < 0 || *in.carveoutPercent > 100))
        return makeError(ErrorKind::Usage,
                         fmt::format("carve-out {}%: give a percentage from 0 to 100", *in.carveoutPercent));
    Occupancy o;
    o.blockSize = in.blockSize;
    o.warpsPerBlock = (in.blockSize + a.warpSize - 1) / a.warpSize;
    o.maxWarps = a.maxWarpsPerSM;
    o.byWarps = a.maxWarpsPerSM / o.warpsPerBlock;
    o.byBlocks = a.maxBlocksPerSM;
    o.byRegisters = blocksByRegisters(a, in, o.warpsPerBlock, o.registersPerBlock);
    auto shared = blocksBySharedMemory(a, in, o);
    if (!shared) return shared.error();
    o.bySharedMemory = *shared;
    o.byBarriers = blocksByBarriers(a, in);
    o.activeBlocks = std::min({o.byWarps, o.byBlocks, o.byRegisters, o.bySharedMemory, o.byBarriers});
    if (o.activeBlocks == o.byWarps) o.limiters |= kLimitWarps;
    if (o.activeBlocks == o.byRegisters) o.limiters |= kLimitRegisters;
    if (o.activeBlocks == o.bySharedMemory) o.limiters |= kLimitSharedMemory;
    if (o.activeBlocks == o.byBlocks) o.limiters |= kLimitBlocks;
    if (o.activeBlocks == o.byBarriers) o.limiters |= kLimitBarriers;
    o.activeWarps = o.activeBlocks * o.warpsPerBlock;
    o.occupancy = double(o.activeWarps) / double(o.maxWarps);
    return o;
}

support::Result<std::vector<Occupancy>> occupancySweep(const ArchLimits& a, OccupancyInput input) {
    std::vector<Occupancy> points;
    for (int block = a.warpSize; block <= a.maxThreadsPerBlock; block += a.warpSize) {
        input.blockSize = block;
        auto o = computeOccupancy(a, input);
        if (!o) return o.error();
        points.push_back(*o);
    }
    return points;
}

std::string limiterNames(unsigned limiters) {
    static constexpr std::pair<unsigned, const char*> kNames[] = {{kLimitWarps, "warps"},
                                                                  {kLimitRegisters, "registers"},
                                                                  {kLimitSharedMemory, "shared memory"},
                                                                  {kLimitBlocks, "blocks"},
                                                                  {kLimitBarriers, "barriers"}};
    std::string names;
    for (const auto& [bit, name] : kNames)
        if (limiters & bit) names += (names.empty() ? "" : ", ") + std::string(name);
    return names;
}

}  // namespace nvpg::gpu
