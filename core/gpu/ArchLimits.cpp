#include "core/gpu/ArchLimits.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "core/gpu/ArchLimitsEmbedded.h"
#include "core/support/Json.h"

namespace nvpg::gpu {

namespace {

using support::ErrorKind;
using support::makeError;

// "compute_90a" -> 90, "sm_100f" -> 100, "9.0" -> 90; -1 when it names no compute capability.
int capabilityNumber(std::string_view arch) {
    for (std::string_view prefix : {"compute_", "sm_"})
        if (arch.substr(0, prefix.size()) == prefix) arch.remove_prefix(prefix.size());
    if (!arch.empty() && (arch.back() == 'a' || arch.back() == 'f')) arch.remove_suffix(1);
    int major = 0, minor = 0;
    const char* end = arch.data() + arch.size();
    if (const auto dot = arch.find('.'); dot != std::string_view::npos) {
        auto r = std::from_chars(arch.data(), arch.data() + dot, major);
        if (r.ec != std::errc() || r.ptr != arch.data() + dot || dot + 2 != arch.size()) return -1;
        r = std::from_chars(arch.data() + dot + 1, end, minor);
        return r.ec == std::errc() && r.ptr == end ? major * 10 + minor : -1;
    }
    int n = 0;
    const auto r = std::from_chars(arch.data(), end, n);
    return r.ec == std::errc() && r.ptr == end && !arch.empty() ? n : -1;
}

}  // namespace

support::Result<std::vector<ArchLimits>> ArchLimits::parse(std::string_view json) {
    auto parsed = support::parseJson(json);
    if (parsed.problem)
        return makeError(ErrorKind::Input, fmt::format("arch limits: line {}, column {}: {}", parsed.problem->line,
                                                       parsed.problem->column, parsed.problem->reason));
    const auto& doc = parsed.doc;
    if (support::field<std::string>(doc, "format", "") != "nvpg-arch-limits" || !doc.contains("arches") ||
        !doc["arches"].is_array())
        return makeError(ErrorKind::Input, "arch limits: not an nvpg-arch-limits table with an \"arches\" array");
    std::vector<ArchLimits> rows;
    for (const auto& j : doc["arches"]) {
        ArchLimits a;
        a.arch = support::field<std::string>(j, "arch", "");
        const int number = capabilityNumber(a.arch);
        const auto bad = [&](const char* key) {
            return makeError(ErrorKind::Input,
                             fmt::format("arch limits: row {}: {} is missing or not a positive "
                                         "number",
                                         a.arch.empty() ? std::to_string(rows.size() + 1) : a.arch, key));
        };
        if (number < 0 || a.arch.substr(0, 8) != "compute_") return bad("arch");
        a.major = number / 10;
        a.minor = number % 10;
        a.source = support::field<std::string>(j, "source", "");
        if (a.source.empty()) return bad("source");
        // Every limit must be there: a row that lacks one would compute an occupancy from a guess.
        struct IntField {
            const char* key;
            int* to;
        };
        const IntField ints[] = {{"max_threads_per_block", &a.maxThreadsPerBlock},
                                 {"warp_size", &a.warpSize},
                                 {"max_warps_per_sm", &a.maxWarpsPerSM},
                                 {"max_blocks_per_sm", &a.maxBlocksPerSM},
                                 {"registers_per_sm", &a.registersPerSM},
                                 {"registers_per_block", &a.registersPerBlock},
                                 {"max_registers_per_thread", &a.maxRegistersPerThread},
                                 {"register_allocation_unit", &a.registerAllocationUnit},
                                 {"sub_partitions_per_sm", &a.subPartitionsPerSM},
                                 {"shared_allocation_unit_bytes", &a.sharedAllocationUnit}};
        for (const auto& f : ints)
            if ((*f.to = support::field<int>(j, f.key, 0)) <= 0) return bad(f.key);
        struct SizeField {
            const char* key;
            std::size_t* to;
            bool zeroAllowed;
        };
        const SizeField sizes[] = {{"shared_per_sm_bytes", &a.sharedPerSM, false},
                                   {"shared_per_block_bytes", &a.sharedPerBlock, false},
                                   {"shared_per_block_optin_bytes", &a.sharedPerBlockOptIn, false},
                                   {"reserved_shared_per_block_bytes", &a.reservedSharedPerBlock, true}};
        for (const auto& f : sizes) {
            const auto v = support::field<int64_t>(j, f.key, -1);
            if (v < 0 || (v == 0 && !f.zeroAllowed)) return bad(f.key);
            *f.to = std::size_t(v);
        }
        // Before 9.0 barriers do not limit occupancy; the row then has no such field.
        if (j.contains("block_barriers_per_sm") &&
            (a.blockBarriersPerSM = support::field<int>(j, "block_barriers_per_sm", 0)) <= 0)
            return bad("block_barriers_per_sm");
        // Registers go to warps (the only granularity the arches listed have).
        if (support::field<std::string>(j, "register_allocation_granularity", "") != "warp")
            return bad("register_allocation_granularity");
        const auto dims = j.find("max_block_dims");
        if (dims == j.end() || !dims->is_array() || dims->size() != 3) return bad("max_block_dims");
        for (size_t d = 0; d < 3; ++d) {
            if (!(*dims)[d].is_number_unsigned() || (*dims)[d].get<int64_t>() < 1 ||
                (*dims)[d].get<int64_t>() > a.maxThreadsPerBlock)
                return bad("max_block_dims");
            a.maxBlockDims[d] = (*dims)[d].get<int>();
        }
        const auto carve = j.find("shared_carveouts_kib");
        if (carve == j.end() || !carve->is_array() || carve->empty()) return bad("shared_carveouts_kib");
        for (const auto& k : *carve) {
            if (!k.is_number_unsigned()) return bad("shared_carveouts_kib");
            a.sharedCarveouts.push_back(k.get<std::size_t>() * 1024);
        }
        if (!std::is_sorted(a.sharedCarveouts.begin(), a.sharedCarveouts.end()) ||
            a.sharedCarveouts.back() != a.sharedPerSM)
            return makeError(
                ErrorKind::Input,
                fmt::format("arch limits: row {}: the carve-outs must ascend to shared_per_sm_bytes", a.arch));
        if (a.maxThreadsPerBlock % a.warpSize != 0 || a.registersPerSM % a.subPartitionsPerSM != 0)
            return makeError(ErrorKind::Input, fmt::format("arch limits: row {}: inconsistent figures", a.arch));
        rows.push_back(std::move(a));
    }
    if (rows.empty()) return makeError(ErrorKind::Input, "arch limits: the table has no rows");
    return rows;
}

namespace {

// The built-in table, parsed once; a broken one (a build defect the tests catch) is an error value.
const support::Result<std::vector<ArchLimits>>& builtInTable() {
    static const support::Result<std::vector<ArchLimits>> table = []() -> support::Result<std::vector<ArchLimits>> {
        const auto* d = detail::embeddedDocs();
        if (!d->name) return makeError(ErrorKind::Internal, "no arch limits table was built in");
        auto parsed = ArchLimits::parse(std::string_view(d->data, d->size));
        if (!parsed)
            return makeError(ErrorKind::Internal,
                             std::string("the built-in ") + d->name + ": " + parsed.error().message);
        return parsed;
    }();
    return table;
}

}  // namespace

const std::vector<ArchLimits>& ArchLimits::builtIn() {
    static const std::vector<ArchLimits> none;
    const auto& table = builtInTable();
    return table ? table.value() : none;
}

support::Result<ArchLimits> ArchLimits::forArch(std::string_view arch) {
    if (const auto& table = builtInTable(); !table) return table.error();
    const int number = capabilityNumber(arch);
    std::string known;
    for (const auto& row : builtIn()) {
        if (number >= 0 && row.major * 10 + row.minor == number) return row;
        known += (known.empty() ? "" : ", ") + row.arch;
    }
    return makeError(ErrorKind::Usage, fmt::format("no occupancy limits for the arch '{}': the table "
                                                   "(resources/occupancy/arch-limits.json) has {}",
                                                   arch, known));
}

}  // namespace nvpg::gpu
