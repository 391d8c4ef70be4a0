#include "gui/panels/CfgLayoutJob.h"

#include <algorithm>
#include <functional>
#include <set>
#include <string_view>
#include <unordered_map>

#include <QThread>

#include "core/support/Symbols.h"

namespace nvpg::gui {

namespace {

// The figure of each block: the most registers live at any of its lines.
std::vector<int> blockPressures(const CfgPrepared& p, CfgSource source, int graph) {
    const auto& g = p.graphs[size_t(source)][size_t(graph)];
    std::vector<int> out(g.blocks.size(), -1);
    const auto& live = p.live;
    std::function<int(int)> figure;
    std::unordered_map<int, int> sassByLine;
    switch (source) {
        case CfgSource::Sass:
            if (!live.available()) return out;
            for (size_t i = 0; i < live.listing.instructions.size() && i < live.counts.size(); ++i)
                if (live.counts[i].known) sassByLine[live.listing.instructions[i].line] = live.counts[i].gpr;
            figure = [&](int line) {
                const auto it = sassByLine.find(line);
                return it == sassByLine.end() ? -1 : it->second;
            };
            break;
        case CfgSource::Ptx:
        case CfgSource::LtoPtx: {
            const auto& lines = source == CfgSource::Ptx ? live.ptxLines : live.ltoPtxLines;
            figure = [&lines](int line) {
                return line >= 1 && line <= int(lines.size()) ? lines[size_t(line - 1)] : -1;
            };
            break;
        }
        case CfgSource::Ir: {
            const int module = p.map ? p.map->moduleIndex(p.irModules[size_t(graph)]) : -1;
            if (module < 0) return out;
            figure = [&live, module](int line) { return live.irLine(module, line); };
            break;
        }
    }
    for (size_t b = 0; b < g.blocks.size(); ++b)
        for (int line : g.blocks[b].lines) out[b] = std::max(out[b], figure(line));
    return out;
}

// The mangled symbols of the graphs' functions, and of the kernels a function ptxas keeps local
// to one is named after ("$<kernel>$<function>"): what their instructions may name (a parameter,
// the kernel a local function returns to).
std::set<std::string> symbolsOf(const std::array<std::vector<inspect::ControlFlowGraph>, 4>& all) {
    std::set<std::string> symbols;
    for (const auto& graphs : all)
        for (const auto& g : graphs) {
            std::string_view f = g.function;
            if (f.size() > 2 && f[0] == '$')
                if (const auto split = f.find('$', 1); split != std::string_view::npos) f = f.substr(1, split - 1);
            if (support::demangle(f)) symbols.emplace(f);
        }
    return symbols;
}

// The names in `g` as the app shows them (CfgPrepared).
void nameBlocks(inspect::ControlFlowGraph& g, bool raw, const std::set<std::string>& symbols) {
    for (auto& b : g.blocks) {
        if (b.label == g.function)
            b.label = support::elideName(support::readableName(g.function, raw), kCfgNameColumns);
        if (!raw)
            for (auto& i : b.instructions)
                for (const auto& s : symbols)
                    if (i.find(s) != std::string::npos) i = support::elideSymbolIn(i, s);
    }
}

std::shared_ptr<const CfgPrepared> prepare(const CfgJob& job) {
    auto p = std::make_shared<CfgPrepared>();
    p->result = job.result;
    p->map = job.map;
    p->rawNames = job.rawNames;
    const auto& r = *job.result;
    if (!r.sass.empty() && !r.sassGraph.empty())
        p->graphs[size_t(CfgSource::Sass)] = inspect::cfgFromSass(r.sassGraph, r.sass);
    else
        p->unavailable[size_t(CfgSource::Sass)] =
            r.sassPending ? "the SASS is still being made" : (r.sass.empty() ? "no SASS" : "no SASS graph");
    p->graphs[size_t(CfgSource::Ptx)] = inspect::cfgFromPtx(r.ptx);
    p->graphs[size_t(CfgSource::LtoPtx)] = inspect::cfgFromPtx(r.linkedPtx);
    for (const auto& [name, text] : job.irTexts)
        for (auto& g : inspect::cfgFromIr(text)) {
            p->graphs[size_t(CfgSource::Ir)].push_back(std::move(g));
            p->irModules.push_back(name);
        }
    const auto symbols = symbolsOf(p->graphs);
    for (auto& graphs : p->graphs)
        for (auto& g : graphs) nameBlocks(g, job.rawNames, symbols);
    if (job.map && job.map != r.lineMap) {
        // The map came after the result: the figures of PTX and IR lines come through it.
        pipeline::CompileResult withMap = r;
        withMap.lineMap = job.map;
        p->live = pipeline::liveFigures(withMap);
    } else {
        p->live = pipeline::liveFigures(r);
    }
    return p;
}

}  // namespace

const char* cfgSourceWords(CfgSource s) {
    switch (s) {
        case CfgSource::Sass:
            return "SASS";
        case CfgSource::Ptx:
            return "PTX";
        case CfgSource::LtoPtx:
            return "LTO PTX";
        case CfgSource::Ir:
            return "IR";
    }
    return "";
}

std::shared_ptr<const CfgLaidOut> layOutCfg(const CfgJob& job) {
    auto out = std::make_shared<CfgLaidOut>();
    out->generation = job.generation;
    out->source = job.source;
    out->thread = QThread::currentThreadId();
    const std::shared_ptr<const CfgPrepared> prepared = job.prepared ? job.prepared : prepare(job);
    out->prepared = prepared;
    const auto& graphs = prepared->graphs[size_t(job.source)];
    int found = -1;
    for (int i = 0; i < int(graphs.size()) && found < 0; ++i)
        if (job.function.empty() ? graphs[size_t(i)].isEntry : graphs[size_t(i)].function == job.function) found = i;
    if (found < 0 && job.function.empty() && !graphs.empty()) found = 0;
    out->function = found >= 0 ? graphs[size_t(found)].function : job.function;
    out->graph = found;
    if (found >= 0) {
        out->layout = inspect::layoutCfg(graphs[size_t(found)], kCfgLabelLines);
        out->pressure = blockPressures(*prepared, job.source, found);
        // Scaled to what the kernel was given: ptxas' register count, else its busiest point.
        int scale = 0;
        for (const auto& k : prepared->live.kernels)
            if (k.kernel == out->function) scale = k.registers.value_or(k.gpr);
        if (!scale)
            if (const auto* f =
                    (prepared->result->linkedPtx.empty() ? prepared->result->ptxFigures : prepared->result->ltoFigures)
                        .find(out->function))
                scale = f->registers;
        for (int p : out->pressure) scale = std::max(scale, p);
        out->scale = scale;
    }
    return out;
}

}  // namespace nvpg::gui
