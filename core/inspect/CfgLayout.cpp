#include "core/inspect/CfgLayout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <mutex>

#include <fmt/format.h>

#include "core/support/Stopwatch.h"

namespace nvpg::inspect {

namespace {

// Graphviz's cgraph and gvc are not thread-safe (global error state, string pools, the context):
// every use in this process goes through this one lock.
std::mutex& graphvizLock() {
    static std::mutex lock;
    return lock;
}

// Made once, under the lock, and kept for the process: gvContext reads the plugin configuration.
GVC_t* context() {
    static GVC_t* gvc = gvContext();
    return gvc;
}

constexpr double kPointsPerChar = 6;  // Courier at 10 pt
constexpr double kPointsPerLine = 12;
constexpr double kMargin = 8;

// A block's box in inches, as the view will draw its text.
std::pair<double, double> boxSize(const CfgBlock& b, int labelLines) {
    size_t chars = b.label.size() + 1;
    const int shown = std::min<int>(labelLines, int(b.instructions.size()));
    for (int k = 0; k < shown; ++k) chars = std::max(chars, b.instructions[k].size());
    const int lines = 1 + shown + (int(b.instructions.size()) > shown ? 1 : 0);
    return {(double(chars) * kPointsPerChar + 2 * kMargin) / 72.0, (double(lines) * kPointsPerLine + kMargin) / 72.0};
}

constexpr size_t kQuickPlacementAbove = 1000;

std::string attribute(double inches) {
    return fmt::format("{:.3f}", inches);
}

}  // namespace

CfgLayout layoutCfg(const ControlFlowGraph& graph, int labelLines) {
    support::Stopwatch watch;
    CfgLayout out;
    std::lock_guard lock(graphvizLock());
    GVC_t* gvc = context();
    if (!gvc) {
        out.error = "Graphviz could not make a context (gvContext failed)";
        return out;
    }
    agseterr(AGMAX);  // errors come back as the result, not on stderr
    char graphName[] = "cfg";
    Agraph_t* g = agopen(graphName, Agdirected, nullptr);
    if (!g) {
        out.error = "Graphviz could not make a graph (agopen failed)";
        return out;
    }
    char shape[] = "shape", box[] = "box", fixed[] = "fixedsize", yes[] = "true", label[] = "label", empty[] = "",
         widthName[] = "width", heightName[] = "height", nodesep[] = "nodesep", ranksep[] = "ranksep";
    char zero[] = "0.25", rank[] = "0.35", one[] = "0.75", half[] = "0.5";
    agattr(g, AGNODE, shape, box);
    agattr(g, AGNODE, fixed, yes);
    agattr(g, AGNODE, label, empty);
    Agsym_t* width = agattr(g, AGNODE, widthName, one);
    Agsym_t* height = agattr(g, AGNODE, heightName, half);
    agattr(g, AGRAPH, nodesep, zero);
    agattr(g, AGRAPH, ranksep, rank);
    // Ranking by the newer network-simplex formulation (newrank) is as good on these graphs and
    // several times quicker on large ones; above a thousand blocks the placement's own network
    // simplex is also cut short (nslimit, iterations per node), which takes a 2,000-block graph
    // from ~0.8 s to ~60 ms (bench/nvpg_bench_cfg) for edges that bend a little more.
    char newrankName[] = "newrank", nslimitName[] = "nslimit", briefly[] = "0.02";
    agattr(g, AGRAPH, newrankName, yes);
    if (graph.blocks.size() > kQuickPlacementAbove) agattr(g, AGRAPH, nslimitName, briefly);

    std::vector<Agnode_t*> nodes;
    nodes.reserve(graph.blocks.size());
    for (size_t i = 0; i < graph.blocks.size(); ++i) {
        auto name = fmt::format("b{}", i);
        Agnode_t* n = agnode(g, name.data(), 1);
        const auto [w, h] = boxSize(graph.blocks[i], labelLines);
        auto ws = attribute(w), hs = attribute(h);
        agxset(n, width, ws.data());
        agxset(n, height, hs.data());
        nodes.push_back(n);
    }
    std::vector<Agedge_t*> edges;
    edges.reserve(graph.edges.size());
    for (const auto& e : graph.edges) {
        const bool valid = e.from >= 0 && e.to >= 0 && size_t(e.from) < nodes.size() && size_t(e.to) < nodes.size();
        edges.push_back(valid ? agedge(g, nodes[e.from], nodes[e.to], nullptr, 1) : nullptr);
    }
    char engine[] = "dot";
    if (gvLayout(gvc, g, engine) != 0) {
        out.error = fmt::format("Graphviz's dot layout failed: {}", aglasterr() ? aglasterr() : "it said nothing");
        agclose(g);
        return out;
    }
    const boxf bb = GD_bb(g);
    out.width = bb.UR.x - bb.LL.x;
    out.height = bb.UR.y - bb.LL.y;
    auto place = [&](pointf p) { return CfgPoint{p.x - bb.LL.x, bb.UR.y - p.y}; };
    for (Agnode_t* n : nodes) out.nodes.push_back({place(ND_coord(n)), ND_width(n) * 72.0, ND_height(n) * 72.0});
    for (size_t i = 0; i < edges.size(); ++i) {
        CfgEdgePath path{graph.edges[i].from, graph.edges[i].to, {}, false, {}};
        if (edges[i] && ED_spl(edges[i]) && ED_spl(edges[i])->size > 0) {
            const bezier& bz = ED_spl(edges[i])->list[0];
            for (int k = 0; k < bz.size; ++k) path.points.push_back(place(bz.list[k]));
            if (bz.eflag) {
                path.hasArrow = true;
                path.arrowTip = place(bz.ep);
            }
        }
        out.edges.push_back(std::move(path));
    }
    gvFreeLayout(gvc, g);
    agclose(g);
    out.ok = true;
    out.seconds = watch.seconds();
    return out;
}

}  // namespace nvpg::inspect
