#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/Commands.h"
#include "cli/Output.h"
#include "core/gpu/RunConfig.h"
#include "core/pipeline/OccupancyReport.h"
#include "core/pipeline/Pipeline.h"
#include "core/support/Symbols.h"
#include "core/support/Text.h"

namespace nvpg::cli {

void addOccupancyOptions(CLI::App& cmd, CompileOptions& o, OccupancyOptions& occ) {
    addInputOptions(cmd, o);
    cmd.add_option("--block", occ.block,
                   "threads per block: X[,Y[,Z]]; default: a workspace's run configurations' blocks, else 128 and 256");
    cmd.add_option("--shared", occ.shared, "dynamic shared memory per block in bytes (default 0)");
    cmd.add_flag("--json", occ.json, "print the same as JSON");
    addNameOptions(cmd, occ.names);
}

namespace {

// Kernels named as the app names them (support::tableName): numba's symbols made a 200-column table.
std::string tableText(const pipeline::OccupancyTable& t, support::NameStyle names) {
    const auto& a = t.limits;
    std::string out = fmt::format("arch       {} (limits: {})\nfigures    {}\n\n", a.arch,
                                  "resources/occupancy/arch-limits.json", t.figuresSource);
    std::vector<std::string> kernels;
    size_t width = 6;
    for (const auto& row : t.rows) {
        kernels.push_back(support::printable(support::tableName(row.kernel, names)));
        width = std::max(width, support::displayWidth(kernels.back()));
    }
    out += fmt::format("{:<{}}  {:>4}  {:>7}  {:>7}  {:>5}  {:>9}  {:>8}  {:>9}  {}\n", "kernel", width, "regs",
                       "static", "dynamic", "block", "blocks/SM", "warps/SM", "occupancy", "limited by");
    for (size_t i = 0; i < t.rows.size(); ++i) {
        const auto& row = t.rows[i];
        const auto& o = row.occupancy;
        // Padded by displayWidth, as the width was measured (a cut name's "…" is one column, three bytes).
        out +=
            fmt::format("{}{}  {:>4}  {:>7}  {:>7}  {:>5}  {:>9}  {:>8}  {:>8.1f}%  {}\n", kernels[i],
                        std::string(width - support::displayWidth(kernels[i]), ' '), row.registers, row.staticShared,
                        row.dynamicShared, o.blockSize, o.activeBlocks, fmt::format("{}/{}", o.activeWarps, o.maxWarps),
                        o.occupancy * 100, gpu::limiterNames(o.limiters));
    }
    return out;
}

}  // namespace

int runOccupancy(const CommonOptions& common, const CompileOptions& o, const OccupancyOptions& occ) {
    auto inputs = jobFromArgs(o);
    if (!inputs) return usage(inputs.error().message);
    std::optional<pipeline::OccupancyAt> asked;
    if (occ.block) {
        auto block = gpu::parseDim3(*occ.block, "--block");
        if (!block) return usage(block.error().message);
        asked = pipeline::OccupancyAt{*block, occ.shared};
    }
    noteLibdeviceRule(*inputs);
    auto& job = inputs->job;
    // The registers and static shared memory are ptxas' figures for the PTX, as the driver loads it.
    job.outputs = pipeline::kPtx | pipeline::kFigures;
    auto tk = loadToolkit(common, /*open=*/!forkedEngine(common));
    if (!tk) return usage(tk.error().message);
    auto compiler = makeCompiler(common, *tk, !o.noCache);
    auto ran = compiler.run(job);
    if (!ran) return compileFailed(ran.error());
    const auto& r = *ran;
    printDiagnostics(r.diagnostics);
    if (!r.ok) return kCompileError;
    const std::vector<gpu::RunConfig> noRuns;
    const auto& runs = inputs->workspace ? inputs->workspace->runs : noRuns;
    auto table = pipeline::kernelOccupancy(r, [&](const std::string& kernel) {
        return asked ? std::vector<pipeline::OccupancyAt>{*asked} : pipeline::reportLaunches(kernel, runs);
    });
    if (!table) return usage(table.error().message);
    if (occ.json)
        fmt::print("{}\n",
                   pipeline::occupancyJson(table).dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    else
        fmt::print("{}", tableText(*table, occ.names));
    return flushStdout(kOk);
}

}  // namespace nvpg::cli
