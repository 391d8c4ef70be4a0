#include "core/pipeline/LiveFigures.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/support/Text.h"

namespace nvpg::pipeline {

int LiveFigures::irLine(int module, int line) const {
    const auto it = std::lower_bound(irLines.begin(), irLines.end(), std::pair{module, line},
                                     [](const inspect::IrLineLive& l, const std::pair<int, int>& at) {
                                         return std::pair{l.module, l.line} < at;
                                     });
    return it != irLines.end() && it->module == module && it->line == line ? it->gpr : -1;
}

LiveFigures liveFigures(const CompileResult& r) {
    LiveFigures out;
    if (r.sass.empty()) {
        out.unavailable =
            r.sassUnavailable.empty() ? std::string("no SASS in this compile") : "no SASS: " + r.sassUnavailable;
        return out;
    }
    if (r.sassLive.empty()) {
        out.unavailable = r.sassLiveUnavailable.empty() ? std::string("no live-register figures in this compile")
                                                        : r.sassLiveUnavailable;
        return out;
    }
    const auto of = r.sassSource.find(" of ");
    out.source = "nvdisasm -c -lrm count" + (of == std::string::npos ? std::string() : r.sassSource.substr(of));
    out.listing = inspect::readSass(r.sass);
    out.counts = r.sassLive;
    if (out.counts.size() != out.listing.instructions.size()) {
        out.unavailable = fmt::format("the live figures ({}) do not match the listing's instructions ({})",
                                      out.counts.size(), out.listing.instructions.size());
        return out;
    }
    const inspect::OutputMap* sassMap = nullptr;
    if (!r.lineMap)
        out.mapUnavailable = "no line map in this compile";
    else if (!r.lineMap->sass.available())
        out.mapUnavailable = r.lineMap->sass.unavailable;
    else
        sassMap = &r.lineMap->sass;
    for (const auto& p : inspect::livePeaks(out.listing, out.counts)) {
        if (!p.isEntry) continue;
        KernelLivePeak k{p.function, p.gpr, p.line, {}, 0, std::nullopt};
        for (const auto& kernel : r.kernels)
            if (kernel.name == p.function && kernel.usage) k.registers = kernel.usage->registers;
        // The first instruction at the peak that came from an IR line names the place.
        if (sassMap)
            for (size_t i = p.instruction; i < out.counts.size(); ++i) {
                const auto& in = out.listing.instructions[i];
                if (in.function != p.function || !out.counts[i].known || out.counts[i].gpr != p.gpr) continue;
                const auto origin = sassMap->originOf(in.line);
                if (origin.module < 0) continue;
                k.module = r.lineMap->modules[size_t(origin.module)].name;
                k.line = origin.line;
                break;
            }
        out.kernels.push_back(std::move(k));
    }
    if (sassMap) {
        out.irLines = inspect::liveByIrLine(*sassMap, out.listing, out.counts);
        out.ptxLines = inspect::liveByOutputLine(r.lineMap->ptx, out.irLines);
        out.ltoPtxLines = inspect::liveByOutputLine(r.lineMap->ltoPtx, out.irLines);
    }
    return out;
}

std::string peakWords(const KernelLivePeak& peak) {
    if (peak.line > 0) return fmt::format("peak {} live at {}:{}", peak.gpr, peak.module, peak.line);
    return fmt::format("peak {} live, SASS line {}", peak.gpr, peak.sassLine);
}

nlohmann::ordered_json kernelLiveJson(const KernelLivePeak& peak) {
    nlohmann::ordered_json j;
    j["peak"] = peak.gpr;
    j["sass_line"] = peak.sassLine;
    if (peak.line > 0)
        j["ir"] = {{"module", peak.module}, {"line", peak.line}};
    else
        j["ir"] = nullptr;
    if (peak.registers) j["registers"] = *peak.registers;
    return j;
}

nlohmann::ordered_json liveJson(const LiveFigures& live, const inspect::LineMap* map) {
    using nlohmann::ordered_json;
    ordered_json j;
    if (!live.available()) {
        j["unavailable"] = live.unavailable;
        return j;
    }
    j["source"] = live.source;
    ordered_json kernels = ordered_json::array();
    for (const auto& k : live.kernels) {
        ordered_json kj{{"name", k.kernel}};
        kj.update(kernelLiveJson(k));
        kernels.push_back(std::move(kj));
    }
    j["kernels"] = std::move(kernels);
    // [line, general, predicate, uniform, uniform predicate] per instruction of the listing.
    ordered_json sass = ordered_json::array();
    for (size_t i = 0; i < live.counts.size(); ++i) {
        const auto& c = live.counts[i];
        if (c.known) sass.push_back({live.listing.instructions[i].line, c.gpr, c.pred, c.ugpr, c.upred});
    }
    j["sass"] = std::move(sass);
    if (!live.mapUnavailable.empty() || !map) {
        j["map_unavailable"] = live.mapUnavailable.empty() ? std::string("no line map") : live.mapUnavailable;
        return j;
    }
    ordered_json ir = ordered_json::array();
    for (const auto& l : live.irLines)
        ir.push_back({{"module", map->modules[size_t(l.module)].name}, {"line", l.line}, {"live", l.gpr}});
    j["ir"] = std::move(ir);
    auto lines = [](const std::vector<int>& figures) {
        ordered_json out = ordered_json::array();
        for (size_t i = 0; i < figures.size(); ++i)
            if (figures[i] >= 0) out.push_back({int(i + 1), figures[i]});
        return out;
    };
    j["ptx"] = lines(live.ptxLines);
    j["lto-ptx"] = lines(live.ltoPtxLines);
    return j;
}

LocalMemoryPlaces localMemoryPlaces(const CompileResult& r) {
    LocalMemoryPlaces out;
    if (!r.sass.empty()) out.sass = inspect::localMemorySassLines(inspect::readSass(r.sass));
    out.ptx = inspect::localMemoryPtxLines(r.ptx);
    out.ltoPtx = inspect::localMemoryPtxLines(r.linkedPtx);
    if (!r.lineMap) return out;
    std::vector<inspect::IrLine> ir;
    auto carry = [&](const inspect::OutputMap& map, const std::vector<int>& lines) {
        if (!map.available()) return;
        for (const int l : lines)
            if (const auto o = map.originOf(l); o.module >= 0) ir.push_back(o);
    };
    carry(r.lineMap->sass, out.sass);
    carry(r.lineMap->ptx, out.ptx);
    carry(r.lineMap->ltoPtx, out.ltoPtx);
    std::sort(ir.begin(), ir.end(), [](const auto& a, const auto& b) {
        return std::pair{a.module, a.line} < std::pair{b.module, b.line};
    });
    ir.erase(std::unique(ir.begin(), ir.end()), ir.end());
    out.ir = std::move(ir);
    return out;
}

nlohmann::ordered_json localMemoryJson(const LocalMemoryPlaces& places, const inspect::LineMap* map) {
    nlohmann::ordered_json j;
    j["sass"] = places.sass;
    j["ptx"] = places.ptx;
    j["lto-ptx"] = places.ltoPtx;
    auto ir = nlohmann::ordered_json::array();
    if (map)
        for (const auto& l : places.ir)
            ir.push_back({{"module", map->modules[size_t(l.module)].name}, {"line", l.line}});
    j["ir"] = std::move(ir);
    return j;
}

std::string sassWithLiveColumn(std::string_view listing, const LiveFigures& live) {
    std::vector<const inspect::LiveCount*> byLine;
    for (size_t i = 0; i < live.counts.size() && i < live.listing.instructions.size(); ++i) {
        const size_t line = size_t(live.listing.instructions[i].line);
        if (byLine.size() < line) byLine.resize(line, nullptr);
        if (live.counts[i].known) byLine[line - 1] = &live.counts[i];
    }
    std::string out;
    out.reserve(listing.size() + live.counts.size() * 32);
    size_t n = 0;
    for (auto line : support::linesWithBreaks(listing)) {
        ++n;
        const auto* c = n <= byLine.size() ? byLine[n - 1] : nullptr;
        if (!c) {
            out += line;
            continue;
        }
        const bool newline = !line.empty() && line.back() == '\n';
        if (newline) line.remove_suffix(1);
        out += line;
        out += fmt::format("  // live {} R, {} P, {} UR, {} UP", c->gpr, c->pred, c->ugpr, c->upred);
        if (newline) out += '\n';
    }
    return out;
}

}  // namespace nvpg::pipeline
