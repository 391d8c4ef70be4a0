// nvpg_bench_linemap: what the line map costs. For each input and each set of outputs, in one
// process, interleaved repetitions (in rotating order) of
//   plain    Pipeline::run of the job as the app sends it without the map (a new Pipeline, so no
//            Program or map is reused): the time to the plain result (onPlain), and to all of
//            it (run returns: the SASS comes after the plain result);
//   mapped   the same job with Job::lineMap: the time until onPlain hears the plain result, and
//            the time until run returns with the map;
//   again    the plain job once more: its ratio to the first is the run's noise floor.
// It prints the medians and two ratios against the line map's goals: time to the plain result with
// the map over without (≤ 1.02), and the map's own time (from the plain result to the map: the
// twin compiles once the plain result is out) over the plain compile (all its outputs; ≤ 1.3).
// The time from the request to the map, over the plain compile, is printed beside them.
//
//   nvpg_bench_linemap [--repetitions N] [--arch compute_90] [WORKSPACE.nvpg | MODULE.ll ...]
// Without inputs it takes the bundled examples saxpy, libdevice-math and two-modules and the
// numba-cuda fixture math_kernel (NVPG_SOURCE_DIR or the source tree this was built from). A
// module's options are read from the numba fixtures' NAME.options beside it (one -name=value
// a line), as numba passed them.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "Inputs.h"
#include "Stats.h"
#include "core/pipeline/Pipeline.h"
#include "core/support/Files.h"
#include "core/support/Text.h"
#include "core/toolkit/Toolkit.h"
#include "core/workspace/Workspace.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace nvpg;

using bench::median;
using bench::minimum;

namespace {

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    int repetitions = 9;
    std::string arch = "compute_90";
    std::vector<fs::path> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repetitions" && i + 1 < argc)
            repetitions = std::max(1, std::atoi(argv[++i]));
        else if (a == "--arch" && i + 1 < argc)
            arch = argv[++i];
        else if (a == "-h" || a == "--help") {
            std::printf("usage: %s [--repetitions N] [--arch compute_NN] [INPUT.nvpg|INPUT.ll ...]\n", argv[0]);
            return 0;
        } else
            paths.emplace_back(a);
    }
    if (paths.empty()) {
        const fs::path src = bench::sourceDir();
        for (const char* e : {"saxpy.nvpg", "libdevice-math.nvpg", "two-modules.nvpg"})
            paths.push_back(src / "resources/examples" / e);
        paths.push_back(src / "tests/data/numba/math_kernel.ll");
    }
    auto tk = toolkit::Toolkit::load();
    if (!tk) {
        std::fprintf(stderr, "%s\n", tk.error().message.c_str());
        return 2;
    }
    std::shared_ptr<const toolkit::Toolkit> toolkit = *tk;
    const bool lto = toolkit->nvJitLink() != nullptr;
    const bool sass = toolkit->nvdisasm() != nullptr;
    std::printf("toolkit: libNVVM %s; nvJitLink %s; nvdisasm %s\n", toolkit->nvvmReport().path.c_str(),
                lto ? "yes" : "no", sass ? toolkit->nvdisasmReport().path.c_str() : "not found (no SASS map)");
    // The two output sets people see: the PTX alone (nvpg compile), and the app's panes.
    struct OutputSet {
        const char* name;
        unsigned outputs;
    };
    std::vector<OutputSet> sets{{"ptx", pipeline::kPtx}};
    if (lto) {
        unsigned app = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin | pipeline::kFigures;
        if (sass) app |= pipeline::kSass;
        sets.push_back({"app", app});
    }

    std::printf("\n%-22s %-4s %9s %9s %11s %9s %9s %9s %8s %9s %7s\n", "input", "outs", "plain ms", "done ms",
                "w/map plain", "map ms", "own ms", "plain r.", "map r.", "to-map r.", "a/a r.");
    bool met = true;
    for (const auto& path : paths) {
        auto in = bench::loadInput(path, arch);
        if (!in) return 2;
        for (const auto& set : sets) {
            pipeline::Job job = in->job;
            job.outputs = set.outputs;
            std::vector<double> plain, done, plainWithMap, map, own, plainAgain;
            std::string mapState;
            for (int r = 0; r < repetitions + 1; ++r) {  // the first of each is a warm-up
                // Alternate which goes first, so that drift lands on both alike.
                // Three arms in rotating order: plain, mapped, and plain again (its ratio to the
                // first plain arm is the noise floor of this run: the same job, measured twice).
                for (int k = 0; k < 3; ++k) {
                    const int arm = (k + r) % 3;
                    const bool mapped = arm == 1;
                    pipeline::Pipeline pipe(toolkit);
                    pipeline::Job j = job;
                    j.lineMap = mapped;
                    double atPlain = 0;
                    const auto t0 = Clock::now();
                    auto result = pipe.run(j, {}, [&](const pipeline::CompileResult&) { atPlain = since(t0); });
                    const double total = since(t0);
                    if (!result) {
                        std::fprintf(stderr, "%s: %s\n", in->name.c_str(), result.error().message.c_str());
                        return 2;
                    }
                    if (r == 0) {
                        if (!result->ok) {
                            // A job that fails measures nothing: say why.
                            std::string why = "no diagnostic";
                            for (const auto& d : result->diagnostics)
                                if (d.severity == nvvm::Severity::Error) {
                                    why = d.message;
                                    break;
                                }
                            std::fprintf(stderr, "%s (%s): the compile failed: %s\n", in->name.c_str(), set.name,
                                         why.c_str());
                            return 2;
                        }
                        if (mapped && result->lineMap) {
                            const auto& m = *result->lineMap;
                            mapState = fmt::format("ptx {}{}{}", m.ptx.available() ? "mapped" : "unavailable",
                                                   set.outputs & pipeline::kLtoPtx
                                                       ? (m.ltoPtx.available() ? ", lto mapped" : ", lto unavailable")
                                                       : "",
                                                   set.outputs & pipeline::kSass
                                                       ? (m.sass.available() ? ", sass mapped" : ", sass unavailable")
                                                       : "");
                        }
                        continue;
                    }
                    const double shown = atPlain > 0 ? atPlain : total;
                    if (mapped) {
                        plainWithMap.push_back(shown);
                        map.push_back(total);
                        own.push_back(total - shown);
                    } else {
                        (arm == 0 ? plain : plainAgain).push_back(shown);
                        if (arm == 0) done.push_back(total);
                    }
                }
            }
            const double p = median(plain), d = median(done), pm = median(plainWithMap), m = median(map),
                         o = median(own);
            const double plainRatio = pm / p, mapRatio = o / d;
            met = met && plainRatio <= 1.02 && mapRatio <= 1.3;
            std::printf("%-22s %-4s %9.2f %9.2f %11.2f %9.2f %9.2f %9.3f %8.3f %9.3f %7.3f   %s\n", in->name.c_str(),
                        set.name, p * 1e3, d * 1e3, pm * 1e3, m * 1e3, o * 1e3, plainRatio, mapRatio, m / d,
                        median(plainAgain) / p, mapState.c_str());
        }
    }
    std::printf(
        "\nmedians of %d repetitions; goals: plain r. (time to the plain result with the map / without) "
        "<= 1.02, map r. (the map's own time, plain result to map / the plain compile, done ms) <= 1.3: %s\n"
        "(to-map r.: request to map / the plain compile; a/a r.: the plain job again / the plain job, "
        "the noise floor of the ratios)\n",
        repetitions, met ? "met" : "NOT met");
    return 0;
}
