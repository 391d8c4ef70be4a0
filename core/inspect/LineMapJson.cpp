// The line map's JSON: nvpg's --line-map file, and the map in the engine's late reply. What it reads may
// come from another process or a person's file, so every field is checked before it is used.
#include <algorithm>
#include <cstdint>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/inspect/LineMap.h"

using nlohmann::json;
using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::inspect {

namespace {

constexpr int kFormatVersion = 1;
// The most lines an output or module of a map may have: far above any real PTX or SASS, and low
// enough that a hostile frame cannot make the reader allocate more than some tens of MB.
constexpr int64_t kMaxLines = int64_t(1) << 22;

json rangesJson(const std::vector<LineRange>& ranges) {
    json out = json::array();
    for (const auto& r : ranges) out.push_back({r.first, r.last});
    return out;
}

// The instruction lines of a module, as ranges: most of a module's lines hold one, so this is
// far smaller than the list.
json lineListAsRanges(const std::vector<int>& lines) {
    std::vector<LineRange> ranges;
    for (const int l : lines) {
        if (!ranges.empty() && ranges.back().last + 1 == l)
            ranges.back().last = l;
        else
            ranges.push_back({l, l});
    }
    return rangesJson(ranges);
}

struct Reader {
    std::string problem;

    bool fail(std::string what) {
        if (problem.empty()) problem = std::move(what);
        return false;
    }

    std::optional<int> line(const json& j, const std::string& where) {
        if (!j.is_number_integer()) return fail(where + ": a line number must be an integer"), std::nullopt;
        const auto v = j.get<int64_t>();
        if (v < 1 || v > kMaxLines)
            return fail(fmt::format("{}: line {} is outside 1..{}", where, v, kMaxLines)), std::nullopt;
        return int(v);
    }

    // Sorted, inclusive, not overlapping.
    bool ranges(const json& j, const std::string& where, std::vector<LineRange>& out) {
        if (!j.is_array()) return fail(where + ": \"ranges\" must be a list of [first, last]");
        int previous = 0;
        for (const auto& r : j) {
            if (!r.is_array() || r.size() != 2) return fail(where + ": a range must be [first, last]");
            const auto first = line(r[0], where), last = line(r[1], where);
            if (!first || !last) return false;
            if (*first > *last)
                return fail(fmt::format("{}: range [{}, {}] ends before it starts", where, *first, *last));
            if (*first <= previous)
                return fail(fmt::format("{}: range [{}, {}] is not after the one before it", where, *first, *last));
            out.push_back({*first, *last});
            previous = *last;
        }
        return true;
    }

    const json* member(const json& object, const char* key) {
        const auto it = object.find(key);
        return it == object.end() ? nullptr : &*it;
    }

    bool string(const json& object, const char* key, const std::string& where, std::string& out, bool required = true) {
        const auto* v = member(object, key);
        if (!v) return required ? fail(fmt::format("{}: \"{}\" is missing", where, key)) : true;
        if (!v->is_string()) return fail(fmt::format("{}: \"{}\" must be a string", where, key));
        out = v->get<std::string>();
        return true;
    }

    int moduleIndex(const LineMap& map, const json& object, const std::string& where) {
        std::string name;
        if (!string(object, "module", where, name)) return -1;
        const int index = map.moduleIndex(name);
        if (index < 0) fail(fmt::format("{}: module \"{}\" is not among the map's modules", where, name));
        return index;
    }

    bool output(const LineMap& map, const json& j, const std::string& name, OutputMap& out) {
        const std::string where = "output \"" + name + "\"";
        if (j.is_object()) {
            if (!string(j, "unavailable", where, out.unavailable)) return false;
            if (out.unavailable.empty()) return fail(where + ": \"unavailable\" must say why");
            return true;
        }
        if (!j.is_array()) return fail(where + ": must be a list of lines or {\"unavailable\": why}");
        std::pair<int, int> previous{-1, 0};
        for (const auto& e : j) {
            if (!e.is_object()) return fail(where + ": each entry must be an object");
            IrLineRanges lr;
            const int m = moduleIndex(map, e, where);
            if (m < 0) return false;
            lr.module = map.modules[size_t(m)].name;
            const auto* l = member(e, "line");
            const auto ln = l ? line(*l, where) : (fail(where + ": \"line\" is missing"), std::nullopt);
            if (!ln) return false;
            lr.line = *ln;
            if (std::pair{m, lr.line} <= previous)
                return fail(fmt::format("{}: {}:{} is not after the entry before it (by module, then line)", where,
                                        lr.module, lr.line));
            previous = {m, lr.line};
            const auto* r = member(e, "ranges");
            if (!r) return fail(where + ": \"ranges\" is missing");
            if (!ranges(*r, fmt::format("{} {}:{}", where, lr.module, lr.line), lr.ranges)) return false;
            // One output line comes from one IR line: two entries may not claim the same line.
            for (const auto& range : lr.ranges) {
                if (size_t(range.last) > out.origin.size()) out.origin.resize(size_t(range.last));
                for (int k = range.first; k <= range.last; ++k) {
                    auto& o = out.origin[size_t(k - 1)];
                    if (o.module >= 0)
                        return fail(fmt::format("{}: line {} is claimed by {}:{} and {}:{}", where, k,
                                                map.modules[size_t(o.module)].name, o.line, lr.module, lr.line));
                    o = {m, lr.line};
                }
            }
            out.lines.push_back(std::move(lr));
        }
        return true;
    }

    bool optimisedAway(const LineMap& map, const json& j, const std::string& name, OutputMap& out) {
        const std::string where = "optimised-away \"" + name + "\"";
        if (!j.is_array()) return fail(where + ": must be a list");
        for (const auto& e : j) {
            if (!e.is_object()) return fail(where + ": each entry must be an object");
            const int m = moduleIndex(map, e, where);
            if (m < 0) return false;
            const auto* lines = member(e, "lines");
            if (!lines || !lines->is_array()) return fail(where + ": \"lines\" must be a list");
            int previous = 0;
            for (const auto& l : *lines) {
                const auto ln = line(l, where);
                if (!ln) return false;
                if (*ln <= previous) return fail(where + ": lines must be in ascending order");
                previous = *ln;
                out.optimisedAway.push_back({map.modules[size_t(m)].name, *ln, {}});
            }
        }
        return true;
    }
};

}  // namespace

json toJson(const LineMap& map) {
    json modules = json::array();
    for (const auto& m : map.modules) {
        json entry = {{"name", m.name}};
        if (!m.unmapped.empty()) entry["unmapped"] = m.unmapped;
        entry["instruction-lines"] = lineListAsRanges(m.instructionLines);
        modules.push_back(std::move(entry));
    }
    json outputs = json::object();
    json away = json::object();
    for (const auto which : kMappedOutputs) {
        const auto& o = map.output(which);
        const std::string name(mappedOutputName(which));
        if (!o.available()) {
            outputs[name] = {{"unavailable", o.unavailable}};
            continue;
        }
        json lines = json::array();
        for (const auto& l : o.lines)
            lines.push_back({{"module", l.module}, {"line", l.line}, {"ranges", rangesJson(l.ranges)}});
        outputs[name] = std::move(lines);
        json gone = json::array();
        for (const auto& l : o.optimisedAway) {
            if (gone.empty() || gone.back()["module"] != l.module)
                gone.push_back({{"module", l.module}, {"lines", json::array()}});
            gone.back()["lines"].push_back(l.line);
        }
        away[name] = std::move(gone);
    }
    json libdevice = json::array();
    for (const auto& e : map.libdevice)
        libdevice.push_back({{"module", e.module},
                             {"line", e.line},
                             {"function", e.function},
                             {"output", std::string(mappedOutputName(e.output))},
                             {"lines", e.lines}});
    return {{"version", kFormatVersion}, {"modules", modules},     {"outputs", outputs},
            {"optimised-away", away},    {"libdevice", libdevice}, {"seconds", map.seconds}};
}

support::Result<LineMap> lineMapFromJson(const json& j) {
    auto bad = [](const std::string& what) {
        return makeError(ErrorKind::Input, "line map: " + what + " (not a line map this nvpg wrote)");
    };
    if (!j.is_object()) return bad("not a JSON object");
    const auto version = j.find("version");
    if (version == j.end() || !version->is_number_integer() || version->get<int64_t>() != kFormatVersion)
        return bad(fmt::format("version must be {}", kFormatVersion));
    Reader read;
    LineMap map;
    const auto modules = j.find("modules");
    if (modules == j.end() || !modules->is_array()) return bad("\"modules\" must be a list");
    for (const auto& m : *modules) {
        if (!m.is_object()) return bad("each module must be an object");
        MappedModule mm;
        if (!read.string(m, "name", "a module", mm.name) ||
            !read.string(m, "unmapped", "module " + mm.name, mm.unmapped, /*required=*/false))
            return bad(read.problem);
        if (map.moduleIndex(mm.name) >= 0) return bad(fmt::format("module \"{}\" is there twice", mm.name));
        if (const auto* lines = read.member(m, "instruction-lines")) {
            std::vector<LineRange> ranges;
            if (!read.ranges(*lines, "module " + mm.name + " instruction-lines", ranges)) return bad(read.problem);
            for (const auto& r : ranges) {
                if (int64_t(mm.instructionLines.size()) + r.last - r.first + 1 > kMaxLines)
                    return bad("module " + mm.name + ": too many instruction lines");
                for (int l = r.first; l <= r.last; ++l) mm.instructionLines.push_back(l);
            }
        }
        map.modules.push_back(std::move(mm));
    }
    const auto outputs = j.find("outputs");
    if (outputs == j.end() || !outputs->is_object()) return bad("\"outputs\" must be an object");
    const auto away = j.find("optimised-away");
    if (away != j.end() && !away->is_object()) return bad("\"optimised-away\" must be an object");
    for (const auto which : kMappedOutputs) {
        const std::string name(mappedOutputName(which));
        const auto o = outputs->find(name);
        if (o == outputs->end()) return bad(fmt::format("output \"{}\" is missing", name));
        auto& out = map.output(which);
        if (!read.output(map, *o, name, out)) return bad(read.problem);
        if (out.available() && away != j.end()) {
            if (const auto a = away->find(name); a != away->end() && !read.optimisedAway(map, *a, name, out))
                return bad(read.problem);
        }
    }
    const auto libdevice = j.find("libdevice");
    if (libdevice != j.end()) {
        if (!libdevice->is_array()) return bad("\"libdevice\" must be a list");
        for (const auto& e : *libdevice) {
            if (!e.is_object()) return bad("each libdevice entry must be an object");
            LibdeviceExpansion x;
            const int m = read.moduleIndex(map, e, "libdevice");
            std::string output;
            if (m < 0 || !read.string(e, "function", "libdevice", x.function) ||
                !read.string(e, "output", "libdevice", output))
                return bad(read.problem);
            x.module = map.modules[size_t(m)].name;
            const auto* line = read.member(e, "line");
            const auto ln = line ? read.line(*line, "libdevice") : std::nullopt;
            const auto* count = read.member(e, "lines");
            const auto n = count ? read.line(*count, "libdevice \"lines\"") : std::nullopt;
            if (!ln || !n)
                return bad(read.problem.empty() ? "libdevice: \"line\" and \"lines\" are needed" : read.problem);
            x.line = *ln;
            x.lines = *n;
            bool known = false;
            for (const auto which : kMappedOutputs)
                if (mappedOutputName(which) == output) x.output = which, known = true;
            if (!known) return bad(fmt::format("libdevice: no output is called \"{}\"", output));
            map.libdevice.push_back(std::move(x));
        }
    }
    if (const auto s = j.find("seconds"); s != j.end() && s->is_number()) {
        const double seconds = s->get<double>();
        map.seconds = seconds >= 0 && seconds < 1e9 ? seconds : 0;
    }
    return map;
}

}  // namespace nvpg::inspect
