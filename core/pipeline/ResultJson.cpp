#include "core/pipeline/ResultJson.h"

#include "core/support/Json.h"

using nlohmann::json;
using nvpg::support::field;

namespace nvpg::pipeline {

namespace {

support::Error malformed(const std::string& what) {
    return support::makeError(support::ErrorKind::Internal, what);
}

json fixToJson(const nvvm::Fix& f) {
    json edits = json::array(), options = json::array(), lazy = json::array();
    for (const auto& e : f.edits)
        edits.push_back({{"module", e.module}, {"line", e.line}, {"end_line", e.endLine}, {"text", e.text}});
    for (const auto& [name, value] : f.options) options.push_back({{"name", name}, {"value", value}});
    for (const auto& [name, value] : f.lazy) lazy.push_back({{"module", name}, {"lazy", value}});
    json j = {{"title", f.title}, {"edits", edits}, {"options", options}, {"lazy", lazy}};
    if (f.libdevice) j["libdevice"] = *f.libdevice;
    if (!f.kind.empty()) j["kind"] = f.kind;
    return j;
}

nvvm::Fix fixFromJson(const json& j) {
    nvvm::Fix f;
    f.title = field(j, "title", "");
    for (const auto& e : field(j, "edits", json::array()))
        f.edits.push_back({field(e, "module", ""), field(e, "line", 1), field(e, "end_line", 1), field(e, "text", "")});
    for (const auto& o : field(j, "options", json::array()))
        f.options.emplace_back(field(o, "name", ""), field(o, "value", ""));
    for (const auto& l : field(j, "lazy", json::array()))
        f.lazy.emplace_back(field(l, "module", ""), field(l, "lazy", false));
    if (j.is_object() && j.contains("libdevice") && j["libdevice"].is_boolean())
        f.libdevice = j["libdevice"].get<bool>();
    f.kind = field(j, "kind", "");
    return f;
}

json diagnosticToJson(const nvvm::Diagnostic& d) {
    json j = {{"module", d.module},          {"line", d.line},       {"column", d.column},
              {"severity", int(d.severity)}, {"message", d.message}, {"source", d.source}};
    if (!d.fixes.empty()) {
        json fixes = json::array();
        for (const auto& f : d.fixes) fixes.push_back(fixToJson(f));
        j["fixes"] = fixes;
    }
    return j;
}

nvvm::Diagnostic diagnosticFromJson(const json& j) {
    nvvm::Diagnostic d;
    d.module = field(j, "module", "");
    d.line = field(j, "line", 0);
    d.column = field(j, "column", 0);
    const int s = field(j, "severity", 0);
    d.severity = s == 1 ? nvvm::Severity::Warning : s == 2 ? nvvm::Severity::Note : nvvm::Severity::Error;
    d.message = field(j, "message", "");
    d.source = field(j, "source", "libNVVM");
    for (const auto& f : field(j, "fixes", json::array())) d.fixes.push_back(fixFromJson(f));
    return d;
}

json usageToJson(const ptx::ResourceUsage& u) {
    return {{"function", u.function},
            {"arch", u.arch},
            {"entry", u.isEntry},
            {"registers", u.registers},
            {"barriers", u.barriers},
            {"stack", u.stackFrame},
            {"spill_stores", u.spillStores},
            {"spill_loads", u.spillLoads},
            {"shared", u.sharedBytes},
            {"local", u.localBytes},
            {"const", u.constBytes}};
}

ptx::ResourceUsage usageFromJson(const json& j) {
    ptx::ResourceUsage u;
    u.function = field(j, "function", "");
    u.arch = field(j, "arch", "");
    u.isEntry = field(j, "entry", false);
    u.registers = field(j, "registers", 0);
    u.barriers = field(j, "barriers", 0);
    u.stackFrame = field(j, "stack", 0);
    u.spillStores = field(j, "spill_stores", 0);
    u.spillLoads = field(j, "spill_loads", 0);
    u.sharedBytes = field(j, "shared", 0);
    u.localBytes = field(j, "local", 0);
    u.constBytes = field(j, "const", 0);
    return u;
}

}  // namespace

json sassToJson(const CompileResult& r) {
    json functions = json::array();
    for (const auto& fn : r.sassFunctions)
        functions.push_back({{"name", fn.name}, {"instructions", fn.instructions}, {"entry", fn.isEntry}});
    // Four figures an instruction (general, predicate, uniform, uniform predicate); -1 first for
    // an instruction without one.
    json live = json::array();
    for (const auto& c : r.sassLive) {
        live.push_back(c.known ? c.gpr : -1);
        live.push_back(c.pred);
        live.push_back(c.ugpr);
        live.push_back(c.upred);
    }
    return {{"sass_functions", functions},
            {"sass_source", r.sassSource},
            {"sass_unavailable", r.sassUnavailable},
            {"sass_pending", r.sassPending},
            {"sass_live", live},
            {"sass_live_unavailable", r.sassLiveUnavailable},
            {"sass_graph", r.sassGraph},
            {"sass_graph_unavailable", r.sassGraphUnavailable}};
}

void sassFromJson(const json& j, std::string text, CompileResult& r) {
    r.sass = std::move(text);
    r.sassFunctions.clear();
    for (const auto& fn : field(j, "sass_functions", json::array()))
        if (fn.is_object())
            r.sassFunctions.push_back({field(fn, "name", ""), field(fn, "instructions", 0), field(fn, "entry", false)});
    r.sassSource = field(j, "sass_source", "");
    r.sassUnavailable = field(j, "sass_unavailable", "");
    r.sassPending = field(j, "sass_pending", false);
    r.sassLive.clear();
    const auto live = field(j, "sass_live", json::array());
    if (live.is_array() && live.size() % 4 == 0) {
        r.sassLive.reserve(live.size() / 4);
        for (size_t i = 0; i + 3 < live.size(); i += 4) {
            auto figure = [&](size_t k) {
                const auto& v = live[i + k];
                return v.is_number_integer() && std::in_range<int>(v.get<int64_t>()) ? int(v.get<int64_t>()) : -1;
            };
            const int gpr = figure(0);
            r.sassLive.push_back(
                {std::max(gpr, 0), std::max(figure(1), 0), std::max(figure(2), 0), std::max(figure(3), 0), gpr >= 0});
        }
    }
    r.sassLiveUnavailable = field(j, "sass_live_unavailable", "");
    r.sassGraph = field(j, "sass_graph", "");
    r.sassGraphUnavailable = field(j, "sass_graph_unavailable", "");
}

json stagesToJson(const std::vector<Stage>& stages) {
    json out = json::array();
    for (const auto& s : stages) out.push_back({{"name", std::string(stageName(s.id))}, {"seconds", s.seconds}});
    return out;
}

support::Result<std::vector<Stage>> stagesFromJson(const json& j) {
    std::vector<Stage> stages;
    for (const auto& s : field(j, "stages", json::array())) {
        const auto id = stageFromName(field(s, "name", ""));
        if (!id) return malformed("a result with an unknown stage");
        stages.push_back({*id, field(s, "seconds", 0.0)});
    }
    return stages;
}

json resultToJson(const CompileResult& r, std::vector<std::string>& blobs) {
    json kernels = json::array();
    for (const auto& k : r.kernels)
        kernels.push_back({{"name", k.name}, {"usage", k.usage ? usageToJson(*k.usage) : json()}});
    json diags = json::array();
    for (const auto& d : r.diagnostics) diags.push_back(diagnosticToJson(d));
    auto figuresJson = [](const Figures& fig) {
        json functions = json::array();
        for (const auto& u : fig.functions) functions.push_back(usageToJson(u));
        return json{{"source", fig.source}, {"functions", functions}, {"unavailable", fig.unavailable}};
    };
    json ltoNames = json::array();
    blobs = {r.ptx, r.linkedPtx, r.cubin, r.sass};
    for (const auto& blob : r.ltoIr) {
        ltoNames.push_back(blob.name);
        blobs.push_back(blob.bytes);
    }
    json j = {{"generation", r.generation},
              {"ok", r.ok},
              {"arch", r.arch},
              {"arch_source", r.archSource},
              {"flags", r.flags},
              {"lto_ir", ltoNames},
              {"kernels", kernels},
              {"libdevice_functions", r.libdeviceFunctions},
              {"diagnostics", diags},
              {"stages", stagesToJson(r.stages)},
              {"nvvm_log", r.nvvmLog},
              {"link_info_log", r.linkInfoLog},
              {"link_flags", r.linkFlags},
              {"ptx_figures", figuresJson(r.ptxFigures)},
              {"lto_figures", figuresJson(r.ltoFigures)},
              {"reused_program", r.reusedProgram},
              {"partial", r.partial},
              {"seconds", r.seconds}};
    j.update(sassToJson(r));
    return j;
}

support::Result<CompileResult> resultFromJson(const json& j, std::vector<std::string> blobs) {
    if (!j.is_object()) return malformed("a result that is not a JSON object");
    const auto ltoNames = field(j, "lto_ir", std::vector<std::string>{});
    if (blobs.size() != 4 + ltoNames.size()) return malformed("a result without all its outputs");
    CompileResult r;
    r.generation = field(j, "generation", uint64_t(0));
    r.ok = field(j, "ok", false);
    r.arch = field(j, "arch", "");
    r.archSource = field(j, "arch_source", "");
    r.flags = field(j, "flags", std::vector<std::string>{});
    r.ptx = std::move(blobs[0]);
    r.linkedPtx = std::move(blobs[1]);
    r.cubin = std::move(blobs[2]);
    sassFromJson(j, std::move(blobs[3]), r);
    for (size_t i = 0; i < ltoNames.size(); ++i) r.ltoIr.push_back({ltoNames[i], std::move(blobs[4 + i])});
    // The PTX travels as text; its declarations are read again here rather than sent twice.
    r.ptxModule = ptx::readPtx(r.ptx);
    r.linkedPtxModule = ptx::readPtx(r.linkedPtx);
    for (const auto& k : field(j, "kernels", json::array())) {
        Kernel kernel;
        kernel.name = field(k, "name", "");
        if (const auto* e = r.ptxModule.find(kernel.name)) kernel.params = e->params;
        if (k.is_object() && k.contains("usage") && k["usage"].is_object()) kernel.usage = usageFromJson(k["usage"]);
        r.kernels.push_back(std::move(kernel));
    }
    r.libdeviceFunctions = field(j, "libdevice_functions", std::vector<std::string>{});
    for (const auto& d : field(j, "diagnostics", json::array())) r.diagnostics.push_back(diagnosticFromJson(d));
    auto stages = stagesFromJson(j);
    if (!stages) return stages.error();
    r.stages = std::move(*stages);
    r.nvvmLog = field(j, "nvvm_log", "");
    r.linkInfoLog = field(j, "link_info_log", "");
    r.linkFlags = field(j, "link_flags", std::vector<std::string>{});
    auto readFigures = [&](const char* key, Figures& fig) {
        const auto fj = field(j, key, json::object());
        fig.source = field(fj, "source", "");
        fig.unavailable = field(fj, "unavailable", "");
        for (const auto& u : field(fj, "functions", json::array()))
            if (u.is_object()) fig.functions.push_back(usageFromJson(u));
    };
    readFigures("ptx_figures", r.ptxFigures);
    readFigures("lto_figures", r.ltoFigures);
    r.reusedProgram = field(j, "reused_program", false);
    r.partial = field(j, "partial", false);
    r.seconds = field(j, "seconds", 0.0);
    return r;
}

json pinnedResultToJson(const CompileResult& result, std::map<std::string, std::string>& outputs) {
    CompileResult kept = result;
    kept.cubin.clear();
    kept.ltoIr.clear();
    kept.lineMap.reset();
    std::vector<std::string> blobs;
    auto j = resultToJson(kept, blobs);
    outputs.clear();
    if (!kept.ptx.empty()) outputs["ptx"] = kept.ptx;
    if (!kept.linkedPtx.empty()) outputs["lto_ptx"] = kept.linkedPtx;
    if (!kept.sass.empty()) outputs["sass"] = kept.sass;
    return j;
}

support::Result<CompileResult> pinnedResultFromJson(const json& j, const std::map<std::string, std::string>& outputs) {
    const auto text = [&](const char* name) {
        const auto it = outputs.find(name);
        return it == outputs.end() ? std::string() : it->second;
    };
    // A pin keeps no LTO-IR: its JSON names none.
    json kept = j;
    if (kept.is_object() && kept.contains("lto_ir")) kept.erase("lto_ir");
    return resultFromJson(kept, {text("ptx"), text("lto_ptx"), std::string(), text("sass")});
}

}  // namespace nvpg::pipeline
