#include "core/pipeline/OccupancyReport.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace nvpg::pipeline {

using support::ErrorKind;
using support::makeError;

support::Result<OccupancyTable> kernelOccupancy(const CompileResult& r,
                                                const std::function<std::vector<OccupancyAt>(const std::string&)>& at) {
    OccupancyTable table;
    auto limits = gpu::ArchLimits::forArch(r.arch);
    if (!limits) return limits.error();
    table.limits = std::move(*limits);
    const auto& figures = r.ltoFigures.source.empty() ? r.ptxFigures : r.ltoFigures;
    table.figuresSource = figures.source;
    for (const auto& k : r.kernels) {
        if (!k.usage)
            return makeError(ErrorKind::Environment, fmt::format("no ptxas figures for kernel {}: {}", k.name,
                                                                 figures.unavailable.empty() ? "ptxas did not report it"
                                                                                             : figures.unavailable));
        for (const auto& launch : at(k.name)) {
            if (auto problem = gpu::blockShapeProblem(launch.block, &table.limits))
                return makeError(ErrorKind::Usage, *problem);
            gpu::OccupancyInput in;
            in.registers = k.usage->registers;
            in.staticShared = std::size_t(k.usage->sharedBytes);
            in.barriers = k.usage->barriers;
            in.dynamicShared = launch.dynamicShared;
            in.blockSize = launch.threads();
            auto o = gpu::computeOccupancy(table.limits, in);
            if (!o) return o.error();
            table.rows.push_back({k.name, in.registers, in.staticShared, in.dynamicShared, *o});
        }
    }
    return table;
}

std::vector<OccupancyAt> reportLaunches(const std::string& kernel, const std::vector<gpu::RunConfig>& runs) {
    std::vector<OccupancyAt> launches;
    for (const auto& run : runs) {
        if (run.kernel != kernel) continue;
        const OccupancyAt launch{run.block, run.sharedBytes};
        bool seen = false;
        for (const auto& l : launches)
            seen = seen || (l.block == launch.block && l.dynamicShared == launch.dynamicShared);
        if (!seen) launches.push_back(launch);
    }
    if (launches.empty()) launches = {{{128, 1, 1}, 0}, {{256, 1, 1}, 0}};
    return launches;
}

nlohmann::ordered_json occupancyJson(const support::Result<OccupancyTable>& table) {
    nlohmann::ordered_json j;
    if (!table) {
        j["unavailable"] = table.error().message;
        return j;
    }
    const auto& limits = table->limits;
    j["arch"] = limits.arch;
    j["limits_source"] = limits.source;
    j["figures_source"] = table->figuresSource;
    j["max_warps_per_sm"] = limits.maxWarpsPerSM;
    auto kernels = nlohmann::ordered_json::array();
    for (const auto& row : table->rows) {
        const auto& o = row.occupancy;
        nlohmann::ordered_json k;
        k["name"] = row.kernel;
        k["registers"] = row.registers;
        k["static_shared"] = row.staticShared;
        k["dynamic_shared"] = row.dynamicShared;
        k["block"] = o.blockSize;
        k["blocks_per_sm"] = o.activeBlocks;
        k["warps_per_sm"] = o.activeWarps;
        k["occupancy"] = o.occupancy;
        auto limiters = nlohmann::ordered_json::array();
        for (unsigned bit = 1; bit <= gpu::kLimitBarriers; bit <<= 1)
            if (o.limiters & bit) limiters.push_back(gpu::limiterNames(bit));
        k["limited_by"] = std::move(limiters);
        // What each resource alone would allow (null: the kernel does not use it).
        nlohmann::ordered_json by;
        const auto put = [&](const char* key, int blocks) {
            by[key] = blocks == gpu::Occupancy::kNoLimit ? nlohmann::ordered_json() : nlohmann::ordered_json(blocks);
        };
        put("warps", o.byWarps);
        put("registers", o.byRegisters);
        put("shared_memory", o.bySharedMemory);
        put("blocks", o.byBlocks);
        put("barriers", o.byBarriers);
        k["blocks_allowed_by"] = std::move(by);
        k["allocated_registers_per_block"] = o.registersPerBlock;
        k["allocated_shared_per_block"] = o.sharedPerBlock;
        k["shared_carveout"] = o.sharedCarveout;
        kernels.push_back(std::move(k));
    }
    j["kernels"] = std::move(kernels);
    return j;
}

}  // namespace nvpg::pipeline
