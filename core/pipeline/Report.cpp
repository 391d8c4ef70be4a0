#include "core/pipeline/Report.h"

#include <nlohmann/json.hpp>

#include "core/inspect/InstructionMix.h"
#include "core/pipeline/LibdeviceUse.h"
#include "core/pipeline/LiveFigures.h"

namespace nvpg::pipeline {

namespace {

void putFigures(nlohmann::ordered_json& to, const ptx::ResourceUsage& u) {
    to["registers"] = u.registers;
    to["spill_stores"] = u.spillStores;
    to["spill_loads"] = u.spillLoads;
    to["stack_frame"] = u.stackFrame;
    to["shared_bytes"] = u.sharedBytes;
    to["local_bytes"] = u.localBytes;
    to["const_bytes"] = u.constBytes;
    to["barriers"] = u.barriers;
    to["figures_for"] = u.arch;
}

// What one output a libdevice function became: its size and how it was found, or why unknown.
nlohmann::ordered_json sizeJson(const LibdeviceSize& size, const char* countKey) {
    nlohmann::ordered_json j;
    if (!size.known()) {
        j["unavailable"] = size.unavailable;
        return j;
    }
    j[countKey] = size.count;
    nlohmann::ordered_json ranges = nlohmann::ordered_json::array();
    for (const auto& r : size.lines) ranges.push_back({r.first, r.last});
    j["ranges"] = std::move(ranges);
    j["how"] = size.how;
    return j;
}

// One output's figures: where they come from, or why there are none, and each kernel's.
nlohmann::ordered_json figuresJson(const Figures& f) {
    nlohmann::ordered_json j;
    j["source"] = f.source;
    if (!f.unavailable.empty()) j["unavailable"] = f.unavailable;
    nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
    for (const auto& u : f.functions) {
        if (!u.isEntry) continue;
        nlohmann::ordered_json k;
        k["name"] = u.function;
        putFigures(k, u);
        kernels.push_back(std::move(k));
    }
    j["kernels"] = std::move(kernels);
    return j;
}

// One kernel's "mix": {"source": ..., "classes": {"global": n, ...}} with every class named; null
// when the kernel is not in that output.
nlohmann::ordered_json mixJson(const Mixes& mixes, const std::string& kernel) {
    const auto* m = mixes.find(kernel);
    if (!m) return nullptr;
    nlohmann::ordered_json classes;
    for (size_t c = 0; c < inspect::kMixClasses; ++c)
        classes[std::string(inspect::mixClassName(inspect::MixClass(c)))] = m->counts[c];
    return {{"source", mixes.source}, {"instructions", m->total()}, {"classes", std::move(classes)}};
}

}  // namespace

const inspect::InstructionMix* Mixes::find(std::string_view function) const {
    for (const auto& m : functions)
        if (m.function == function) return &m;
    return nullptr;
}

Mixes mixesOf(const CompileResult& r) {
    if (!r.sass.empty()) return {"sass", inspect::sassMix(inspect::readSass(r.sass))};
    return {"ptx", inspect::ptxMix(r.linkedPtx.empty() ? r.ptx : r.linkedPtx)};
}

nlohmann::ordered_json reportJson(const Job& job, const CompileResult& r, const std::vector<std::string>& inputs) {
    using nlohmann::ordered_json;
    ordered_json j;
    j["format"] = "nvpg-report";
    j["version"] = 1;
    j["ok"] = r.ok;
    j["inputs"] = inputs;
    j["arch"] = r.arch;
    j["arch_source"] = r.archSource;
    j["flags"] = r.flags;
    j["link_flags"] = r.linkFlags;  // what nvJitLink was given for the LTO links, when there were any
    j["libdevice"] = job.libdevice;
    j["verify"] = job.verify || job.verifyOnly;  // its time is the "verify" stage
    j["lto_mode"] = std::string(lto::modeName(job.ltoMode));
    j["ptx_version"] = r.ptxModule.version;
    j["target"] = r.ptxModule.target;

    const auto live = liveFigures(r);
    const auto mixes = mixesOf(r);
    ordered_json kernels = ordered_json::array();
    for (const auto& k : r.kernels) {
        ordered_json kj;
        kj["name"] = k.name;
        ordered_json params = ordered_json::array();
        for (const auto& p : k.params) {
            ordered_json pj;
            pj["name"] = p.name;
            pj["type"] = p.type;
            pj["size"] = p.size;
            pj["align"] = p.align;
            if (p.arrayCount) pj["array"] = p.arrayCount;
            if (p.isPointer) pj["pointer"] = p.pointerSpace.empty() ? "generic" : p.pointerSpace.substr(1);
            params.push_back(std::move(pj));
        }
        kj["params"] = std::move(params);
        if (k.usage) {
            putFigures(kj, *k.usage);
            kj["figures_of"] = r.ltoFigures.source.empty() ? "ptx" : "lto";
        }
        for (const auto& f : r.sassFunctions)
            if (f.isEntry && f.name == k.name) kj["sass_instructions"] = f.instructions;
        for (const auto& peak : live.kernels)
            if (peak.kernel == k.name) kj["live"] = kernelLiveJson(peak);
        kj["mix"] = mixJson(mixes, k.name);
        kernels.push_back(std::move(kj));
    }
    j["kernels"] = std::move(kernels);
    // Why the kernels have no live figures, where they were asked for.
    if ((job.outputs & kLiveRegisters) && !live.available()) j["live_unavailable"] = live.unavailable;
    // Per output, since each runs as other code: the PTX as the driver loads it, the LTO cubin.
    ordered_json figures = ordered_json::object();
    if (!r.ptxFigures.source.empty() || !r.ptxFigures.unavailable.empty()) figures["ptx"] = figuresJson(r.ptxFigures);
    if (!r.ltoFigures.source.empty() || !r.ltoFigures.unavailable.empty()) figures["lto"] = figuresJson(r.ltoFigures);
    j["figures"] = std::move(figures);
    // The SASS the kernels' instruction counts are of, or why there is none (no nvdisasm).
    if (!r.sassSource.empty() || !r.sassUnavailable.empty()) {
        ordered_json sass;
        if (!r.sassSource.empty()) {
            sass["source"] = r.sassSource;
            ordered_json functions = ordered_json::array();
            for (const auto& f : r.sassFunctions)
                functions.push_back({{"name", f.name}, {"instructions", f.instructions}, {"entry", f.isEntry}});
            sass["functions"] = std::move(functions);
        } else {
            sass["unavailable"] = r.sassUnavailable;
        }
        j["sass"] = std::move(sass);
    }
    j["libdevice_functions"] = r.libdeviceFunctions;
    // Per linked function: who calls it and what it became; the names stay in the list above.
    ordered_json uses = ordered_json::array();
    for (const auto& u : libdeviceUses(job, r)) {
        ordered_json uj;
        uj["name"] = u.name;
        uj["signature"] = u.signature;
        ordered_json calls = ordered_json::array();
        for (const auto& c : u.calls) calls.push_back({{"module", c.module}, {"line", c.line}});
        uj["calls"] = std::move(calls);
        uj["pulls"] = u.pulls;
        uj["pulled_in_by"] = u.pulledInBy;
        uj["ptx"] = sizeJson(u.ptx, "lines");
        uj["sass"] = sizeJson(u.sass, "instructions");
        uses.push_back(std::move(uj));
    }
    j["libdevice_use"] = std::move(uses);

    ordered_json diags = ordered_json::array();
    for (const auto& d : r.diagnostics) {
        ordered_json dj;
        dj["module"] = d.module;
        dj["line"] = d.line;
        dj["column"] = d.column;
        dj["severity"] = std::string(nvvm::severityName(d.severity));
        dj["message"] = d.message;
        dj["source"] = d.source;
        diags.push_back(std::move(dj));
    }
    j["diagnostics"] = std::move(diags);

    ordered_json stages = ordered_json::array();
    for (const auto& s : r.stages) stages.push_back({{"name", std::string(stageName(s.id))}, {"seconds", s.seconds}});
    j["stages"] = std::move(stages);
    j["seconds"] = r.seconds;
    // A result from the cache: its stages and seconds are those of the compile that made it.
    j["cache"] = r.fromCache ? "hit" : "compiled";
    j["sizes"] = {
        {"ptx", r.ptx.size()}, {"linked_ptx", r.linkedPtx.size()}, {"cubin", r.cubin.size()}, {"sass", r.sass.size()}};
    return j;
}

}  // namespace nvpg::pipeline
