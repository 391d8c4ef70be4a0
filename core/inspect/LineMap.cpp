#include "core/inspect/LineMap.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/inspect/Locations.h"
#include "core/support/Text.h"

namespace nvpg::inspect {

namespace {

std::vector<LineRange> rangesOfLines(std::vector<int> lines) {
    std::sort(lines.begin(), lines.end());
    std::vector<LineRange> ranges;
    for (int l : lines) {
        if (!ranges.empty() && l <= ranges.back().last + 1)
            ranges.back().last = std::max(ranges.back().last, l);
        else
            ranges.push_back({l, l});
    }
    return ranges;
}

int countLines(const std::vector<LineRange>& ranges) {
    int n = 0;
    for (const auto& r : ranges) n += r.last - r.first + 1;
    return n;
}

// The module that a .file name is: its name exactly, else the name at the end of a path
// ("dir/helper.ll" when a toolkit prefixes a folder).
int moduleOfFile(const std::vector<MappedModule>& modules, std::string_view file) {
    for (size_t i = 0; i < modules.size(); ++i)
        if (modules[i].name == file) return int(i);
    for (size_t i = 0; i < modules.size(); ++i) {
        const auto& name = modules[i].name;
        if (!name.empty() && file.size() > name.size() && file.substr(file.size() - name.size()) == name &&
            file[file.size() - name.size() - 1] == '/')
            return int(i);
    }
    return -1;
}

// A line as a message quotes it: trimmed, at most 80 characters.
std::string quoted(std::string_view line) {
    // PTX indents and separates with tabs, which a message would show as "\t": a space each, as
    // the line reads.
    std::string text;
    for (const char c : support::trim(line))
        if (c != '\t')
            text += c;
        else if (!text.empty() && text.back() != ' ')
            text += ' ';
    std::string_view shown = text;
    if (shown.size() > 80) return fmt::format("`{}…`", support::printable(shown.substr(0, 77)));
    return fmt::format("`{}`", support::printable(shown));
}

std::string_view outputLabel(MappedOutput output) {
    switch (output) {
        case MappedOutput::Ptx:
            return "PTX";
        case MappedOutput::LtoPtx:
            return "LTO";
        case MappedOutput::Sass:
            return "SASS";
    }
    return "";
}

}  // namespace

std::string_view mappedOutputName(MappedOutput output) {
    switch (output) {
        case MappedOutput::Ptx:
            return "ptx";
        case MappedOutput::LtoPtx:
            return "lto-ptx";
        case MappedOutput::Sass:
            return "sass";
    }
    return "";
}

IrLine OutputMap::originOf(int line) const {
    if (line < 1 || size_t(line) > origin.size()) return {};
    return origin[size_t(line) - 1];
}

std::vector<LineRange> OutputMap::rangesOf(std::string_view module, int line) const {
    for (const auto& l : lines)
        if (l.line == line && l.module == module) return l.ranges;
    return {};
}

const OutputMap& LineMap::output(MappedOutput which) const {
    switch (which) {
        case MappedOutput::Ptx:
            return ptx;
        case MappedOutput::LtoPtx:
            return ltoPtx;
        case MappedOutput::Sass:
            return sass;
    }
    return ptx;
}

OutputMap& LineMap::output(MappedOutput which) {
    return const_cast<OutputMap&>(static_cast<const LineMap*>(this)->output(which));
}

int LineMap::moduleIndex(std::string_view name) const {
    for (size_t i = 0; i < modules.size(); ++i)
        if (modules[i].name == name) return int(i);
    return -1;
}

std::string LineMap::describe(std::string_view module, int line) const {
    std::vector<std::string> parts;
    for (const auto which : kMappedOutputs) {
        const auto& map = output(which);
        if (!map.available()) continue;
        const auto ranges = map.rangesOf(module, line);
        if (ranges.empty()) continue;
        if (which == MappedOutput::Sass) {
            parts.push_back(fmt::format("{} {} instr", outputLabel(which), countLines(ranges)));
            continue;
        }
        std::vector<std::string> shown;
        for (const auto& r : ranges)
            shown.push_back(r.first == r.last ? fmt::format("{}", r.first) : fmt::format("{}–{}", r.first, r.last));
        parts.push_back(fmt::format("{} {}", outputLabel(which), support::join(shown, ", ")));
    }
    if (parts.empty()) return {};
    return fmt::format("IR {}:{} → {}", module, line, support::join(parts, " · "));
}

void fillRanges(OutputMap& map, const std::vector<MappedModule>& modules) {
    map.lines.clear();
    map.optimisedAway.clear();
    std::vector<std::map<int, std::vector<int>>> byModule(modules.size());
    for (size_t i = 0; i < map.origin.size(); ++i) {
        const auto& o = map.origin[i];
        if (o.module < 0 || size_t(o.module) >= modules.size() || o.line <= 0) continue;
        byModule[size_t(o.module)][o.line].push_back(int(i) + 1);
    }
    for (size_t m = 0; m < modules.size(); ++m) {
        for (auto& [line, outputLines] : byModule[m])
            map.lines.push_back({modules[m].name, line, rangesOfLines(std::move(outputLines))});
        if (!modules[m].unmapped.empty()) continue;
        for (int line : std::set<int>(modules[m].instructionLines.begin(), modules[m].instructionLines.end()))
            if (!byModule[m].count(line)) map.optimisedAway.push_back({modules[m].name, line, {}});
    }
}

OutputMap mapPtx(std::string_view plainPtx, std::string_view twinPtx, const std::vector<MappedModule>& modules,
                 std::string_view what, std::string_view optionHint) {
    OutputMap map;
    const auto plain = stripLocations(plainPtx);
    const auto twin = readLocations(twinPtx);
    if (plain.text != twin.text) {
        const auto a = support::splitLines(plain.text), b = support::splitLines(twin.text);
        size_t i = 0;
        while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
        const int plainLine =
            i < plain.plainLine.size() ? plain.plainLine[i] : int(support::splitLines(plainPtx).size()) + 1;
        map.unavailable = fmt::format(
            "the line-annotated compile gave other {} than the plain one{} (first difference at line {}: {} vs {}), "
            "so its lines are not mapped",
            what, optionHint, plainLine, i < a.size() ? quoted(a[i]) : std::string("the end"),
            i < b.size() ? quoted(b[i]) : std::string("the end"));
        return map;
    }
    map.origin.assign(support::splitLines(plainPtx).size(), IrLine{});
    const auto kept = support::splitLines(plain.text);
    std::map<std::string, int> moduleOf;
    for (size_t i = 0; i < kept.size() && i < twin.lines.size(); ++i) {
        const auto& at = twin.lines[i];
        if (at.file.empty() || !isMappablePtxLine(kept[i])) continue;
        auto known = moduleOf.find(at.file);
        if (known == moduleOf.end()) known = moduleOf.emplace(at.file, moduleOfFile(modules, at.file)).first;
        if (known->second < 0 || !modules[size_t(known->second)].unmapped.empty()) continue;
        map.origin[size_t(plain.plainLine[i]) - 1] = {known->second, at.line};
    }
    fillRanges(map, modules);
    return map;
}

void addLibdeviceExpansions(LineMap& map, const std::vector<CallLine>& calls) {
    for (const auto& call : calls) {
        if (!support::startsWith(call.function, "__nv_")) continue;
        for (const auto which : kMappedOutputs) {
            const auto& out = map.output(which);
            if (!out.available()) continue;
            const int n = countLines(out.rangesOf(call.module, call.line));
            if (n == 0) continue;
            const bool known =
                std::any_of(map.libdevice.begin(), map.libdevice.end(), [&](const LibdeviceExpansion& e) {
                    return e.module == call.module && e.line == call.line && e.output == which;
                });
            if (!known) map.libdevice.push_back({call.module, call.line, call.function, which, n});
        }
    }
}

}  // namespace nvpg::inspect
