// nvpg_bench_progressive: the app's compile, PTX first and the LTO chain beside it.
// For each input, N repetitions of the job the app sends on an edit (PTX, LTO-IR, LTO PTX,
// cubin, figures; each repetition edits a comment into the first module, so that a new Program
// is made as after a keystroke), on two paths:
//   engine      engine::Compiler with an engine process, as the app compiles;
//   in-process  pipeline::Pipeline::run in this process.
// Timed: the request to the PTX part (onPtx), the request to the last part (run returns), and
// each stage's own time from the result. The longest single chain is what comes before both
// chains (adding the modules, verifying) plus the longer of the PTX chain (compile PTX, read
// it, ptxas for its figures) and the LTO chain (LTO-IR, then the longer of its two links); the
// sum of the stages is what one stage after the other would take. It prints min and median of
// each and the goal's ratio: last part / longest chain (goal <= 1.1).
//
//   nvpg_bench_progressive [--repetitions N] [--arch compute_90] [--nvpg PATH] [INPUT.nvpg|INPUT.ll ...]
// Without inputs: the libdevice-math example and numba-cuda's math_kernel fixture
// (NVPG_SOURCE_DIR or the source tree this was built from). --nvpg: the nvpg whose `engine`
// the engine path starts (default: the one built with this bench; "none" skips that path).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "Goals.h"
#include "Inputs.h"
#include "Stats.h"

#include "core/engine/Compiler.h"
#include "core/pipeline/Pipeline.h"
#include "core/support/Files.h"
#include "core/support/Text.h"
#include "core/toolkit/Toolkit.h"
#include "core/workspace/Workspace.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace nvpg;
using pipeline::StageId;

using bench::median;
using bench::minimum;

namespace {

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Sample {
    double ptxFirst = 0, last = 0, chain = 0, sum = 0;
    double stage[5] = {};  // libNVVM PTX, LTO-IR, link PTX, link cubin, ptxas
};

Sample measure(const pipeline::CompileResult& r, double ptxFirst, double last) {
    Sample s;
    s.ptxFirst = ptxFirst;
    s.last = last;
    const double before = r.stageSeconds(StageId::AddModules) + r.stageSeconds(StageId::Verify);
    const double ptxChain =
        r.stageSeconds(StageId::CompilePtx) + r.stageSeconds(StageId::ReadPtx) + r.stageSeconds(StageId::AssembleCubin);
    const double ltoIr = r.stageSeconds(StageId::CompileLtoIr) + r.stageSeconds(StageId::CompileLtoIrSeparate);
    const double ltoChain =
        ltoIr + std::max(r.stageSeconds(StageId::LinkLtoPtx), r.stageSeconds(StageId::LinkLtoCubin));
    s.chain = before + std::max(ptxChain, ltoChain);
    for (const auto& st : r.stages) s.sum += st.seconds;
    s.stage[0] = r.stageSeconds(StageId::CompilePtx);
    s.stage[1] = ltoIr;
    s.stage[2] = r.stageSeconds(StageId::LinkLtoPtx);
    s.stage[3] = r.stageSeconds(StageId::LinkLtoCubin);
    s.stage[4] = r.stageSeconds(StageId::AssembleCubin);
    return s;
}

std::string ms(double s) {
    return fmt::format("{:7.1f}", s * 1000);
}

void print(const std::string& title, const std::vector<Sample>& samples, const std::string& input) {
    auto column = [&](auto get) {
        std::vector<double> v;
        for (const auto& s : samples) v.push_back(get(s));
        return v;
    };
    const auto ptxFirst = column([](const Sample& s) { return s.ptxFirst; });
    const auto last = column([](const Sample& s) { return s.last; });
    const auto chain = column([](const Sample& s) { return s.chain; });
    const auto sum = column([](const Sample& s) { return s.sum; });
    const auto ratio = column([](const Sample& s) { return s.chain > 0 ? s.last / s.chain : 0; });
    std::printf("  %s (%zu repetitions), ms as min / median:\n", title.c_str(), samples.size());
    const char* names[5] = {"libNVVM PTX", "LTO-IR", "link->PTX", "link->cubin", "ptxas figures"};
    for (int i = 0; i < 5; ++i) {
        const auto st = column([i](const Sample& s) { return s.stage[i]; });
        std::printf("    stage %-16s %s / %s\n", names[i], ms(minimum(st)).c_str(), ms(median(st)).c_str());
    }
    std::printf("    request -> PTX part    %s / %s\n", ms(minimum(ptxFirst)).c_str(), ms(median(ptxFirst)).c_str());
    std::printf("    request -> last part   %s / %s\n", ms(minimum(last)).c_str(), ms(median(last)).c_str());
    std::printf("    longest single chain   %s / %s\n", ms(minimum(chain)).c_str(), ms(median(chain)).c_str());
    std::printf("    sum of the stages      %s / %s\n", ms(minimum(sum)).c_str(), ms(median(sum)).c_str());
    const double goal = median(ratio);
    std::printf("    last / longest chain   %.3f (median; min %.3f)   goal <= 1.10: %s\n", goal, minimum(ratio),
                goal <= 1.10 ? "met" : "NOT met");
    bench::printGoal(fmt::format("app: request to last pane / longest chain of stages, {}, {} (median)", input, title),
                     goal, "x", true, 1.10);
}

}  // namespace

int main(int argc, char** argv) {
    int repetitions = 9;
    std::string arch = "compute_90";
    std::string nvpg = nvpg::bench::built::nvpg;
    std::vector<fs::path> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repetitions" && i + 1 < argc)
            repetitions = std::max(1, std::atoi(argv[++i]));
        else if (a == "--arch" && i + 1 < argc)
            arch = argv[++i];
        else if (a == "--nvpg" && i + 1 < argc)
            nvpg = argv[++i];
        else if (a == "-h" || a == "--help") {
            std::printf(
                "usage: %s [--repetitions N] [--arch compute_NN] [--nvpg PATH|none] [INPUT.nvpg|INPUT.ll ...]\n",
                argv[0]);
            return 0;
        } else
            paths.emplace_back(a);
    }
    if (paths.empty()) {
        const fs::path src = bench::sourceDir();
        paths.push_back(src / "resources/examples/libdevice-math.nvpg");
        paths.push_back(src / "tests/data/numba/math_kernel.ll");
    }
    auto tk = toolkit::Toolkit::load();
    if (!tk) {
        std::fprintf(stderr, "%s\n", tk.error().message.c_str());
        return 2;
    }
    std::shared_ptr<const toolkit::Toolkit> toolkit = *tk;
    if (!toolkit->nvJitLink()) {
        std::fprintf(stderr, "nvJitLink was not found: the LTO chain cannot run\n");
        return 2;
    }
    std::printf("toolkit: libNVVM %s\n", toolkit->nvvmReport().path.c_str());
    int failures = 0;
    for (const auto& path : paths) {
        auto in = bench::loadInput(path, arch);
        if (!in) return 2;
        // What CompileController asks for, without the late outputs (the SASS and the map).
        in->job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin | pipeline::kFigures;
        std::printf("%s (%s)\n", in->name.c_str(), in->job.options.arch->c_str());
        struct Path {
            const char* name;
            std::unique_ptr<engine::Compiler> compiler;
        };
        std::vector<Path> ways;
        if (nvpg != "none")
            ways.push_back({"engine", std::make_unique<engine::Compiler>(toolkit, std::nullopt,
                                                                         std::vector<std::string>{nvpg, "engine"})});
        ways.push_back(
            {"in-process", std::make_unique<engine::Compiler>(toolkit, std::nullopt, std::vector<std::string>{})});
        for (auto& way : ways) {
            std::vector<Sample> samples;
            // One warm-up (the engine starts, libdevice is read), then the repetitions.
            for (int rep = -1; rep < repetitions; ++rep) {
                auto job = in->job;
                job.generation = uint64_t(rep + 2);
                job.modules.front().bytes += fmt::format("\n; edit {}\n", rep + 2);
                if (job.modules.front().isBitcode()) job.modules.front().bytes = in->job.modules.front().bytes;
                std::optional<double> ptxFirst;
                const auto t0 = Clock::now();
                auto r = way.compiler->run(job, {}, nullptr, {}, [&](const pipeline::CompileResult& part) {
                    if (part.generation == job.generation) ptxFirst = since(t0);
                });
                const double last = since(t0);
                if (!r || !r->ok) {
                    std::fprintf(stderr, "  %s: the compile failed: %s\n", way.name,
                                 r ? (r->diagnostics.empty() ? "" : r->diagnostics.front().message.c_str())
                                   : r.error().message.c_str());
                    ++failures;
                    break;
                }
                if (!ptxFirst) {
                    std::fprintf(stderr, "  %s: no PTX part came\n", way.name);
                    ++failures;
                    break;
                }
                if (rep >= 0) samples.push_back(measure(*r, *ptxFirst, last));
            }
            if (!samples.empty()) print(way.name, samples, in->name);
        }
    }
    return failures ? 1 : 0;
}
