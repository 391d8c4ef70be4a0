// nvpg_bench_cfg: how long a 10,000-instruction kernel's control-flow graph takes to read and to
// lay out with Graphviz (goal: at most 300 ms, off the UI thread). The kernel is generated
// NVVM IR: a chain of small loops, each an if/else diamond whose join branches back to the loop's
// head, so the graph has back edges, branches and fallthroughs as compiled code does. The
// argument is the instructions per block (filler arithmetic pads the blocks): 5 gives ~2,000
// blocks, 20 gives ~500 (a SASS block of a real kernel holds 10 to 20).
//
//   nvpg_bench_cfg [--nvpg_instructions=10000] [Google Benchmark flags]
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "IrGenerator.h"
#include "core/inspect/CfgLayout.h"
#include "core/inspect/ControlFlow.h"

using namespace nvpg;

namespace {

int gInstructions = 10000;

inspect::ControlFlowGraph generatedGraph(int perBlock) {
    auto graphs = inspect::cfgFromIr(bench::generateBranchyKernel(gInstructions, perBlock));
    if (graphs.size() != 1) std::abort();
    return std::move(graphs[0]);
}

void setCounters(benchmark::State& state, const inspect::ControlFlowGraph& g) {
    size_t instructions = 0;
    for (const auto& b : g.blocks) instructions += b.instructions.size();
    state.counters["instructions"] = double(instructions);
    state.counters["blocks"] = double(g.blocks.size());
    state.counters["edges"] = double(g.edges.size());
}

void BM_ReadIrGraph(benchmark::State& state) {
    const auto ir = bench::generateBranchyKernel(gInstructions, int(state.range(0)));
    for (auto _ : state) benchmark::DoNotOptimize(inspect::cfgFromIr(ir));
    setCounters(state, generatedGraph(int(state.range(0))));
}

void BM_Layout(benchmark::State& state) {
    const auto g = generatedGraph(int(state.range(0)));
    for (auto _ : state) {
        const auto l = inspect::layoutCfg(g);
        if (!l.ok) {
            state.SkipWithError(l.error.c_str());
            break;
        }
        benchmark::DoNotOptimize(l.nodes.data());
    }
    setCounters(state, g);
}

}  // namespace

BENCHMARK(BM_ReadIrGraph)->Arg(5)->Arg(10)->Arg(20)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Layout)->Arg(5)->Arg(10)->Arg(20)->Unit(benchmark::kMillisecond)->MinTime(2.0);

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--nvpg_instructions=", 20) == 0) gInstructions = std::atoi(argv[i] + 20);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
