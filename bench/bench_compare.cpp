// nvpg_bench_compare: "two engines compile in parallel": a comparison compiles each
// side on an engine process of its own (its own libNVVM: two releases share a soname), both at
// once, and the pair should take no longer than 1.2 x the slower side alone. For each input
// (numba-cuda's fixtures and the libdevice example by default), with both engines warm, rounds
// of: side A alone, side B alone, A and B together (two threads), in rotating order.
//
//   nvpg_bench_compare [--repetitions N] [--nvpg PATH] [--b-cuda-path DIR] [INPUT ...]
//
// Side A: the default toolkit, the input's options. Side B: --b-cuda-path's toolkit (a second
// CUDA release, e.g. the CUDA 12.9 pip wheels' nvidia folder) when given, else the same toolkit
// with -ftz=1 (what a teacher compares). The goal is the geometric mean of pair / slower side.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "Goals.h"
#include "Inputs.h"
#include "Stats.h"
#include "core/engine/Compiler.h"
#include "core/toolkit/Toolkit.h"

using namespace nvpg;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    int repetitions = 11;
    std::string nvpgPath = nvpg::bench::built::nvpg;
    std::optional<std::filesystem::path> bPath;
    std::vector<std::filesystem::path> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repetitions" && i + 1 < argc)
            repetitions = std::max(1, std::atoi(argv[++i]));
        else if (a == "--nvpg" && i + 1 < argc)
            nvpgPath = argv[++i];
        else if (a == "--b-cuda-path" && i + 1 < argc)
            bPath = argv[++i];
        else if (a == "-h" || a == "--help") {
            std::printf("usage: %s [--repetitions N] [--nvpg PATH] [--b-cuda-path DIR] [INPUT ...]\n", argv[0]);
            return 0;
        } else
            paths.emplace_back(a);
    }
    if (paths.empty()) {
        paths = bench::numbaFixtures();
        paths.push_back(bench::sourceDir() / "resources/examples/libdevice-math.nvpg");
    }
    toolkit::SearchConfig searchB;
    if (bPath) searchB.explicitRoot = *bPath;
    auto tkA = toolkit::Toolkit::locate(), tkB = toolkit::Toolkit::locate(searchB);
    if (!tkA || !tkB) {
        std::fprintf(stderr, "%s\n", (!tkA ? tkA : tkB).error().message.c_str());
        return 2;
    }
    std::printf("side A: %s (%s)\nside B: %s (%s)%s\n", (*tkA)->nvvmReport().path.c_str(),
                (*tkA)->releaseLabel().c_str(), (*tkB)->nvvmReport().path.c_str(), (*tkB)->releaseLabel().c_str(),
                bPath ? "" : ", with -ftz=1");
    const std::vector<std::string> command = {nvpgPath, "engine"};
    engine::Compiler a(*tkA, std::nullopt, command), b(*tkB, bPath, command);

    std::vector<double> ratios;
    std::printf("\n%-22s %12s %12s %12s %10s\n", "input", "A alone", "B alone", "A and B", "pair/slower");
    for (const auto& p : paths) {
        auto in = bench::loadInput(p, "compute_90");
        if (!in) return 2;
        in->job.outputs = pipeline::kPtx;
        in->job.options.genLto = false;
        auto jobB = in->job;
        if (!bPath) jobB.options.ftz = true;
        std::vector<double> alone[2], pair;
        uint64_t edit = 0;
        // Every compile edits the module (a comment at its end): nothing may reuse a Program.
        auto edited = [&](pipeline::Job job) {
            job.modules.front().bytes += "\n; edit " + std::to_string(++edit) + "\n";
            job.generation = edit;
            return job;
        };
        auto runOn = [&](engine::Compiler& c, const pipeline::Job& job) {
            auto r = c.run(edited(job));
            if (!r || !r->ok) {
                std::fprintf(stderr, "%s: the compile failed: %s\n", in->name.c_str(),
                             r ? "see its diagnostics" : r.error().message.c_str());
                std::exit(1);
            }
        };
        for (int rep = -1; rep < repetitions; ++rep) {
            for (int step = 0; step < 3; ++step) {
                const int which = (step + std::max(rep, 0)) % 3;
                const auto t0 = Clock::now();
                if (which == 0)
                    runOn(a, in->job);
                else if (which == 1)
                    runOn(b, jobB);
                else {
                    std::thread other([&] { runOn(a, in->job); });
                    runOn(b, jobB);
                    other.join();
                }
                const double ms = msSince(t0);
                if (rep < 0) continue;  // warm-up round
                (which == 2 ? pair : alone[which]).push_back(ms);
            }
        }
        const double ma = bench::median(alone[0]), mb = bench::median(alone[1]), mp = bench::median(pair);
        const double ratio = mp / std::max(ma, mb);
        ratios.push_back(ratio);
        std::printf("%-22s %9.1f ms %9.1f ms %9.1f ms %9.3fx\n", in->name.c_str(), ma, mb, mp, ratio);
    }
    double logSum = 0;
    for (double r : ratios) logSum += std::log(r);
    std::printf("(medians of %d; %u cores)\n", repetitions, std::thread::hardware_concurrency());
    bench::printGoal("compare: both sides at once / the slower side alone (geomean)",
                     std::exp(logSum / double(ratios.size())), "x", true, 1.2);
    return 0;
}
