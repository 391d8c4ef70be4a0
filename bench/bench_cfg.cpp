// nvpg_bench_cfg: how long a 10,000-instruction kernel's control-flow graph takes to read and to
// lay out with Graphviz (issue 28: at most 300 ms, off the UI thread). The kernel is generated
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

#include "inspect/CfgLayout.h"
#include "inspect/ControlFlow.h"

using namespace nvpg;

namespace {

int gInstructions = 10000;

// One define of about `instructions` instructions in blocks of about `perBlock`: per section a
// head (h), two arms (t, e) and a join (j) that loops back to the head or goes on to the next.
std::string generateKernel(int instructions, int perBlock) {
    const int fill = std::max(0, perBlock - 2);  // each block also has its own 1 to 3 instructions
    const int sections = std::max(1, instructions / (4 * (fill + 2)));
    std::string ir =
        "target datalayout = \"e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-"
        "f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64\"\n"
        "target triple = \"nvptx64-nvidia-cuda\"\n\n"
        "define void @large(float* %out, float %x) {\nentry:\n  %p0 = fadd float %x, 0.0\n  br label %h1\n";
    auto filler = [&](const std::string& block, const std::string& from) {
        std::string last = from;
        for (int k = 0; k < fill; ++k) {
            const auto name = fmt::format("%{}.f{}", block, k);
            ir += fmt::format("  {} = fmul float {}, 1.0001\n", name, last);
            last = name;
        }
        return last;
    };
    for (int s = 1; s <= sections; ++s) {
        const auto next = s == sections ? std::string("exit") : fmt::format("h{}", s + 1);
        ir += fmt::format("h{}:\n", s);
        const auto a = filler(fmt::format("h{}", s), fmt::format("%p{}", s - 1));
        ir += fmt::format("  %c{0} = fcmp olt float {1}, 100.0\n  br i1 %c{0}, label %t{0}, label %e{0}\n", s, a);
        ir += fmt::format("t{}:\n", s);
        const auto t = filler(fmt::format("t{}", s), a);
        ir += fmt::format("  %x{0} = fmul float {1}, 2.0\n  br label %j{0}\n", s, t);
        ir += fmt::format("e{}:\n", s);
        const auto e = filler(fmt::format("e{}", s), a);
        ir += fmt::format("  %y{0} = fsub float {1}, 3.0\n  br label %j{0}\n", s, e);
        ir += fmt::format("j{0}:\n  %p{0} = phi float [ %x{0}, %t{0} ], [ %y{0}, %e{0} ]\n", s);
        const auto j = filler(fmt::format("j{}", s), fmt::format("%p{}", s));
        ir += fmt::format("  %l{0} = fcmp ogt float {1}, 1000.0\n  br i1 %l{0}, label %h{0}, label %{2}\n", s, j, next);
    }
    ir += fmt::format("exit:\n  store float %p{}, float* %out\n  ret void\n}}\n", sections);
    return ir;
}

inspect::ControlFlowGraph generatedGraph(int perBlock) {
    auto graphs = inspect::cfgFromIr(generateKernel(gInstructions, perBlock));
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
    const auto ir = generateKernel(gInstructions, int(state.range(0)));
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
