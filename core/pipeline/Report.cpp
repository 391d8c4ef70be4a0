#include "pipeline/Report.h"

namespace nvpg::pipeline {

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
    j["libdevice"] = job.libdevice;
    j["lto_mode"] = std::string(lto::modeName(job.ltoMode));
    j["ptx_version"] = r.ptxModule.version;
    j["target"] = r.ptxModule.target;

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
            const auto& u = *k.usage;
            kj["registers"] = u.registers;
            kj["spill_stores"] = u.spillStores;
            kj["spill_loads"] = u.spillLoads;
            kj["stack_frame"] = u.stackFrame;
            kj["shared_bytes"] = u.sharedBytes;
            kj["local_bytes"] = u.localBytes;
            kj["const_bytes"] = u.constBytes;
            kj["barriers"] = u.barriers;
            kj["figures_for"] = u.arch;
        }
        kernels.push_back(std::move(kj));
    }
    j["kernels"] = std::move(kernels);
    j["libdevice_functions"] = r.libdeviceFunctions;

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
    j["sizes"] = {{"ptx", r.ptx.size()}, {"linked_ptx", r.linkedPtx.size()}, {"cubin", r.cubin.size()}};
    return j;
}

}  // namespace nvpg::pipeline
