#include "core/pipeline/LibdeviceUse.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/inspect/Sass.h"
#include "core/inspect/Twin.h"
#include "core/nvvm/Libdevice.h"
#include "core/support/Text.h"

namespace nvpg::pipeline {

namespace {

std::vector<inspect::LineRange> merged(std::vector<inspect::LineRange> ranges) {
    std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<inspect::LineRange> out;
    for (const auto& r : ranges) {
        if (!out.empty() && r.first <= out.back().last + 1)
            out.back().last = std::max(out.back().last, r.last);
        else
            out.push_back(r);
    }
    return out;
}

int countLines(const std::vector<inspect::LineRange>& ranges) {
    int n = 0;
    for (const auto& r : ranges) n += r.last - r.first + 1;
    return n;
}

std::vector<std::string> words(std::string_view s) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < s.size()) {
        const size_t end = std::min(s.find(' ', i), s.size());
        if (end > i) out.emplace_back(s.substr(i, end - i));
        i = end + 1;
    }
    return out;
}

// Why a job's result has no map of `which` to read figures from; empty when it has one.
std::string noMapReason(const Job& job, const CompileResult& r, inspect::MappedOutput which) {
    if (!r.lineMap)
        return job.lineMap ? "no line map yet: it comes after the plain result"
                           : "no line map: the line map is off (nvpg compile --line-map or --report, the app's "
                             "View > Line map)";
    const auto& out = r.lineMap->output(which);
    if (!out.available()) return "no line map: " + out.unavailable;
    return {};
}

// The size of `use` in one output when it was inlined at its call lines: the map's lines of them.
LibdeviceSize inlinedSize(const Job& job, const CompileResult& r, inspect::MappedOutput which, const LibdeviceUse& use,
                          std::string_view output) {
    LibdeviceSize size;
    if (use.calls.empty()) {
        if (!use.pulledInBy.empty())
            size.unavailable = fmt::format(
                "no IR line calls it: it is inlined into {}, which pulls it in, and its "
                "{} is counted there",
                fmt::join(use.pulledInBy, ", "), output);
        else
            size.unavailable = "no IR line calls it";
        return size;
    }
    if (auto why = noMapReason(job, r, which); !why.empty()) {
        size.unavailable = std::move(why);
        return size;
    }
    const auto& map = r.lineMap->output(which);
    std::vector<inspect::LineRange> all;
    for (const auto& call : use.calls) {
        const auto ranges = map.rangesOf(call.module, call.line);
        all.insert(all.end(), ranges.begin(), ranges.end());
    }
    size.lines = merged(std::move(all));
    size.count = countLines(size.lines);
    size.how = fmt::format("{} lines the line map gives its call lines (inlined there)", output);
    return size;
}

}  // namespace

inspect::LineRange ptxFunctionLines(const ptx::PtxModule& module, std::string_view ptx, std::string_view name) {
    // The front end calls this on the UI thread: the PTX is split only for a function it has.
    // readPtx keeps one Function per name, the definition's where there is one.
    const auto* f = module.find(name);
    if (!f || f->isExtern || f->line <= 0) return {};
    const auto lines = support::splitLines(ptx);
    // A prototype ends at ';' before any '{'; a definition's body closes at depth 0.
    int depth = 0;
    bool opened = false;
    for (size_t i = size_t(f->line) - 1; i < lines.size(); ++i) {
        auto text = lines[i];
        if (const auto comment = text.find("//"); comment != std::string_view::npos) text = text.substr(0, comment);
        for (char c : text) {
            if (c == '{') {
                ++depth;
                opened = true;
            } else if (c == '}') {
                --depth;
            } else if (c == ';' && !opened) {
                return {};
            }
        }
        if (opened && depth == 0) return {f->line, int(i) + 1};
    }
    return {};
}

std::vector<LibdeviceUse> libdeviceUses(const Job& job, const CompileResult& r) {
    std::vector<LibdeviceUse> uses;
    const std::set<std::string> linked(r.libdeviceFunctions.begin(), r.libdeviceFunctions.end());
    for (const auto& name : r.libdeviceFunctions) {
        LibdeviceUse use;
        use.name = name;
        if (const auto* f = nvvm::findLibdeviceFunction(name)) {
            use.signature = fmt::format("{} {}({})", f->returnType, f->name, f->params);
            for (auto& callee : words(f->callees))
                if (linked.count(callee)) use.pulls.push_back(std::move(callee));
        }
        for (const auto& other : r.libdeviceFunctions) {
            const auto* f = nvvm::findLibdeviceFunction(other);
            if (!f || other == name) continue;
            const auto callees = words(f->callees);
            if (std::find(callees.begin(), callees.end(), name) != callees.end()) use.pulledInBy.push_back(other);
        }
        uses.push_back(std::move(use));
    }
    auto find = [&](std::string_view name) -> LibdeviceUse* {
        for (auto& u : uses)
            if (u.name == name) return &u;
        return nullptr;
    };

    // No libdevice function linked: no call lines to find (a long module is not read through).
    if (uses.empty()) return uses;
    // Call lines: text modules read here; bitcode through the map's call lines that became code
    // (their line numbers are of the llvm-dis-14 text the editor shows).
    for (const auto& m : job.modules) {
        if (m.isBitcode()) {
            if (!r.lineMap) continue;
            for (const auto& e : r.lineMap->libdevice)
                if (e.module == m.name)
                    if (auto* u = find(e.function)) {
                        const LibdeviceCall call{m.name, e.line};
                        if (std::find(u->calls.begin(), u->calls.end(), call) == u->calls.end())
                            u->calls.push_back(call);
                    }
            continue;
        }
        const auto lines = support::splitLines(m.bytes);
        for (size_t i = 0; i < lines.size(); ++i)
            if (lines[i].find("__nv_") != std::string_view::npos)
                if (auto callee = inspect::calleeOf(lines[i]))
                    if (auto* u = find(*callee)) u->calls.push_back({m.name, int(i) + 1});
    }

    // The SASS is read only when a libdevice function is a function of its own there.
    const bool ownSass = std::any_of(r.sassFunctions.begin(), r.sassFunctions.end(),
                                     [&](const inspect::SassFunction& f) { return find(f.name) != nullptr; });
    const auto sass = ownSass ? inspect::readSass(r.sass) : inspect::SassListing{};
    for (auto& use : uses) {
        std::sort(use.calls.begin(), use.calls.end(), [](const auto& a, const auto& b) { return a.line < b.line; });
        // PTX: a body of its own, else what it became where it is called.
        if (const auto body = ptxFunctionLines(r.ptxModule, r.ptx, use.name); body.first > 0) {
            use.ptx.lines = {body};
            use.ptx.count = countLines(use.ptx.lines);
            use.ptx.how = fmt::format("the body of `.func {}` in the PTX", use.name);
        } else if (r.ptx.empty()) {
            use.ptx.unavailable = "no PTX";
        } else {
            use.ptx = inlinedSize(job, r, inspect::MappedOutput::Ptx, use, "PTX");
        }
        // SASS likewise: its function's instructions, else the map's instructions of its call lines.
        std::vector<int> own;
        for (const auto& ins : sass.instructions)
            if (ins.function == use.name) own.push_back(ins.line);
        if (!own.empty()) {
            for (int l : own) use.sass.lines.push_back({l, l});
            use.sass.lines = merged(std::move(use.sass.lines));
            use.sass.count = int(own.size());
            use.sass.how = fmt::format("the instructions of SASS function {}", use.name);
        } else if (r.sass.empty()) {
            use.sass.unavailable = r.sassUnavailable.empty() ? "no SASS" : "no SASS: " + r.sassUnavailable;
        } else {
            use.sass = inlinedSize(job, r, inspect::MappedOutput::Sass, use, "SASS");
            if (use.sass.known()) use.sass.how = "SASS instructions the line map gives its call lines (inlined there)";
        }
    }
    return uses;
}

}  // namespace nvpg::pipeline
