// nvpg_bench_sass: what the live registers and the SASS control-flow graph add to the SASS stage
// (goal: at most 10%). For each input, in one process, interleaved repetitions of
//   plain     Pipeline::run with PTX, figures and SASS (nvdisasm -c alone);
//   analysed  the same with kLiveRegisters and kSassGraph (nvdisasm -c -lrm count and -bbcfg of
//             the same cubin, on a thread beside the listing's run);
//   plain'    the plain job again: plain' / plain is the run's noise floor (a/a);
// in rotating order. Each is timed three ways: the listing (from the start of run to onSass, when
// the SASS pane gets its text: the goal's figure), the Disassemble stage (the pipeline's own
// stopwatch around the listing's nvdisasm run), and the whole run (with the live registers and
// the graph, which come after the listing). It prints the medians, the ratio analysed / plain of
// the listing and of the whole run, beside the a/a ratio of the listing.
//
// With --app, each job also asks for the line map, as the app does.
//
//   nvpg_bench_sass [--repetitions N] [--arch compute_90] [--kernels N] [--app] [WORKSPACE.nvpg | MODULE.ll ...]
// Without inputs: the bundled libdevice-math, the numba-cuda fixture math_kernel, and a generated
// module of --kernels kernels (300) calling libdevice (a SASS listing of tens of thousands of lines).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "Inputs.h"
#include "IrGenerator.h"
#include "Stats.h"
#include "core/pipeline/Pipeline.h"
#include "core/toolkit/Toolkit.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace nvpg;

int main(int argc, char** argv) {
    int repetitions = 9, kernels = 300;
    std::string arch = "compute_90";
    std::vector<fs::path> paths;
    bool app = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--app")
            app = true;
        else if (a == "--repetitions" && i + 1 < argc)
            repetitions = std::max(1, std::atoi(argv[++i]));
        else if (a == "--arch" && i + 1 < argc)
            arch = argv[++i];
        else if (a == "--kernels" && i + 1 < argc)
            kernels = std::max(1, std::atoi(argv[++i]));
        else
            paths.emplace_back(a);
    }
    auto tk = toolkit::Toolkit::load();
    if (!tk) {
        std::fprintf(stderr, "%s\n", tk.error().message.c_str());
        return 2;
    }
    if (!(*tk)->nvdisasm()) {
        std::fprintf(stderr, "no nvdisasm: %s\n", (*tk)->nvdisasmReport().problem.c_str());
        return 2;
    }
    std::vector<bench::Input> inputs;
    const bool defaults = paths.empty();
    if (defaults)
        paths = {bench::sourceDir() / "resources/examples/libdevice-math.nvpg",
                 bench::sourceDir() / "tests/data/numba/math_kernel.ll"};
    for (const auto& p : paths)
        if (auto in = bench::loadInput(p, arch)) inputs.push_back(std::move(*in));
    if (defaults) {
        bench::Input generated;
        generated.name = fmt::format("generated ({} kernels, libdevice)", kernels);
        generated.job.modules = {{"big.ll", bench::generateModule(kernels, true), false}};
        generated.job.libdevice = true;
        generated.job.options.arch = arch;
        generated.job.archFromGpu = false;
        inputs.push_back(std::move(generated));
    }
    constexpr unsigned kPlain = pipeline::kPtx | pipeline::kFigures | pipeline::kSass;
    constexpr unsigned kAnalysed = kPlain | pipeline::kLiveRegisters | pipeline::kSassGraph;
    std::printf("%-36s %11s %11s %11s %11s %11s %7s %7s %7s\n", "input", "plain list", "analysed", "plain stage",
                "plain all", "analysed all", "listing", "all", "a/a");
    for (auto& in : inputs) {
        std::vector<double> listed[3], stage[3], whole[3];  // plain, analysed, plain again
        size_t lines = 0;
        for (int r = 0; r < repetitions; ++r)
            for (int k = 0; k < 3; ++k) {
                const int side = (r + k) % 3;  // rotate which goes first
                auto job = in.job;
                job.outputs = side == 1 ? kAnalysed : kPlain;
                job.lineMap = app;
                pipeline::Pipeline p(*tk);
                double listing = -1;
                const auto t0 = Clock::now();
                auto result = p.run(job, {}, {}, {}, [&](const pipeline::CompileResult&) {
                    listing = std::chrono::duration<double>(Clock::now() - t0).count();
                });
                const double all = std::chrono::duration<double>(Clock::now() - t0).count();
                if (!result || result->sass.empty() || listing < 0) {
                    std::fprintf(stderr, "%s: no SASS: %s\n", in.name.c_str(),
                                 result ? result->sassUnavailable.c_str() : result.error().message.c_str());
                    return 1;
                }
                if (side == 1 && (result->sassLive.empty() || result->sassGraph.empty())) {
                    std::fprintf(stderr, "%s: no live figures or graph: %s %s\n", in.name.c_str(),
                                 result->sassLiveUnavailable.c_str(), result->sassGraphUnavailable.c_str());
                    return 1;
                }
                lines = size_t(std::count(result->sass.begin(), result->sass.end(), '\n'));
                listed[side].push_back(listing);
                stage[side].push_back(result->stageSeconds(pipeline::StageId::Disassemble));
                whole[side].push_back(all);
            }
        const auto ms = [](const std::vector<double>& v) { return 1e3 * bench::median(v); };
        const double ratio = bench::median(listed[1]) / bench::median(listed[0]);
        const double allRatio = bench::median(whole[1]) / bench::median(whole[0]);
        const double aa = bench::median(listed[2]) / bench::median(listed[0]);
        std::printf("%-36s %8.1f ms %8.1f ms %8.1f ms %8.1f ms %8.1f ms %7.3f %7.3f %7.3f   (%zu SASS lines)\n",
                    in.name.c_str(), ms(listed[0]), ms(listed[1]), ms(stage[0]), ms(whole[0]), ms(whole[1]), ratio,
                    allRatio, aa, lines);
    }
    return 0;
}
