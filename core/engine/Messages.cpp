#include "core/engine/Messages.h"

#include <cstdint>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "core/pipeline/ResultJson.h"
#include "core/support/Json.h"

using nlohmann::json;
using nvpg::support::ErrorKind;
using nvpg::support::field;
using nvpg::support::makeError;

namespace nvpg::engine {

namespace {

support::Error malformed(const std::string& what) {
    return makeError(ErrorKind::Internal, "engine message: malformed (" + what + ")");
}

json errorJson(const support::Error& e) {
    return {{"kind", int(e.kind)}, {"message", e.message}};
}

support::Error errorFromJson(const json& e) {
    const int kind = field(e, "kind", int(ErrorKind::Internal));
    return makeError(kind >= 0 && kind <= int(ErrorKind::Timeout) ? ErrorKind(kind) : ErrorKind::Internal,
                     field(e, "message", std::string("the engine failed without saying why")));
}

json kernelToJson(const ptx::Function& k) {
    json params = json::array();
    for (const auto& p : k.params)
        params.push_back({{"name", p.name},
                          {"type", p.type},
                          {"size", p.size},
                          {"align", p.align},
                          {"array", p.arrayCount},
                          {"pointer", p.isPointer},
                          {"space", p.pointerSpace},
                          {"pointer_align", p.pointerAlign}});
    return {{"name", k.name}, {"params", params}};
}

support::Result<ptx::Function> kernelFromJson(const json& j) {
    if (!j.is_object() || !field(j, "name", json()).is_string() || !field(j, "params", json()).is_array())
        return malformed("a run request without its kernel");
    ptx::Function k;
    k.name = j["name"].get<std::string>();
    k.isEntry = true;
    for (const auto& p : j["params"]) {
        if (!p.is_object() || !field(p, "size", json()).is_number_integer())
            return malformed("a kernel parameter without its size");
        ptx::Param param;
        param.name = field(p, "name", "");
        param.type = field(p, "type", "");
        param.size = field(p, "size", 0);
        param.align = field(p, "align", 0);
        param.arrayCount = field(p, "array", 0);
        param.isPointer = field(p, "pointer", false);
        param.pointerSpace = field(p, "space", "");
        param.pointerAlign = field(p, "pointer_align", 0);
        k.params.push_back(std::move(param));
    }
    return k;
}

}  // namespace

Frame makeProgress(const pipeline::StageEvent& stage) {
    Frame f;
    f.type = kProgress;
    f.header = {{"stage", std::string(pipeline::stageName(stage.id))}, {"module", stage.module}};
    if (!stage.alongside.empty()) {
        json alongside = json::array();
        for (const auto id : stage.alongside) alongside.push_back(std::string(pipeline::stageName(id)));
        f.header["alongside"] = alongside;
    }
    return f;
}

support::Result<pipeline::StageEvent> readProgress(const Frame& frame) {
    if (frame.type != kProgress || !frame.header.is_object()) return malformed("not a progress message");
    const auto name = field(frame.header, "stage", json());
    if (!name.is_string()) return malformed("a progress message without its stage");
    const auto id = pipeline::stageFromName(name.get<std::string>());
    if (!id) return malformed("unknown stage \"" + name.get<std::string>() + "\"");
    pipeline::StageEvent event{*id, field(frame.header, "module", ""), {}};
    for (const auto& other : field(frame.header, "alongside", json::array())) {
        const auto otherId = other.is_string() ? pipeline::stageFromName(other.get<std::string>()) : std::nullopt;
        if (!otherId) return malformed("a progress message with an unknown stage alongside");
        event.alongside.push_back(*otherId);
    }
    return event;
}

Frame makeErrorReply(uint16_t type, const support::Error& error, bool fatal) {
    Frame f;
    f.type = type;
    f.header = {{"ok", false}, {"error", errorJson(error)}, {"fatal", fatal}};
    return f;
}

// ---- compiles

Frame makeCompileRequest(const pipeline::Job& job, const std::optional<std::filesystem::path>& cudaPath, bool ptxFirst,
                         bool sassFirst) {
    Frame f;
    f.type = kCompileRequest;
    json modules = json::array();
    for (const auto& m : job.modules) {
        modules.push_back({{"name", m.name}, {"lazy", m.lazy}});
        f.blobs.push_back(m.bytes);
    }
    json options = json::object();
    for (const auto& o : nvvm::optionTable())
        if (auto v = job.options.get(o.name)) options[std::string(o.name)] = *v;
    f.header = {{"modules", modules},
                {"options", options},
                {"extra_flags", job.options.extraFlags},
                {"libdevice", job.libdevice},
                {"verify", job.verify},
                {"lto_mode", std::string(lto::modeName(job.ltoMode))},
                {"outputs", job.outputs},
                {"verify_only", job.verifyOnly},
                {"line_map", job.lineMap},
                {"ptx_first", ptxFirst},
                {"sass_first", sassFirst},
                {"arch_from_gpu", job.archFromGpu},
                {"generation", job.generation},
                {"cuda_path", cudaPath ? json(cudaPath->string()) : json()}};
    return f;
}

support::Result<CompileRequestData> parseCompileRequest(Frame f) {
    if (f.type != kCompileRequest) return malformed("not a compile request");
    const auto& h = f.header;
    const auto modules = field(h, "modules", json::array());
    if (!modules.is_array() || modules.size() != f.blobs.size()) return malformed("modules and their bytes differ");
    CompileRequestData d;
    auto& job = d.job;
    for (size_t i = 0; i < modules.size(); ++i)
        job.modules.push_back({field(modules[i], "name", ""), std::move(f.blobs[i]), field(modules[i], "lazy", false)});
    const auto options = field(h, "options", json::object());
    for (const auto& [name, value] : options.items()) {
        if (!value.is_string()) return malformed("option " + name);
        if (auto st = job.options.set(name, value.get<std::string>()); !st) return st.error();
    }
    job.options.extraFlags = field(h, "extra_flags", std::vector<std::string>{});
    job.libdevice = field(h, "libdevice", false);
    job.verify = field(h, "verify", true);
    job.ltoMode = lto::parseMode(field(h, "lto_mode", "program")).value_or(lto::Mode::Program);
    job.outputs = field(h, "outputs", unsigned(pipeline::kPtx));
    job.verifyOnly = field(h, "verify_only", false);
    job.lineMap = field(h, "line_map", false);
    job.archFromGpu = field(h, "arch_from_gpu", true);
    job.generation = field(h, "generation", uint64_t(0));
    if (h.contains("cuda_path") && h["cuda_path"].is_string()) d.cudaPath = h["cuda_path"].get<std::string>();
    d.ptxFirst = field(h, "ptx_first", false);
    d.sassFirst = field(h, "sass_first", false);
    return d;
}

Frame makeCompileReply(const support::Result<pipeline::CompileResult>& result) {
    if (!result) return makeErrorReply(kCompileReply, result.error());
    Frame f;
    f.type = kCompileReply;
    f.header = {{"ok", true}, {"result", pipeline::resultToJson(*result, f.blobs)}};
    return f;
}

Frame makePtxReply(const pipeline::CompileResult& partial) {
    auto f = makeCompileReply(partial);
    f.type = kPtxReply;
    return f;
}

support::Result<pipeline::CompileResult> readPtxReply(Frame f) {
    if (f.type != kPtxReply) return malformed("not a PTX reply");
    f.type = kCompileReply;
    auto r = readCompileReply(std::move(f));
    if (r && !r->partial) return malformed("a PTX reply with a whole result");
    return r;
}

support::Result<pipeline::CompileResult> readCompileReply(Frame f) {
    if (f.type != kCompileReply || !f.header.is_object()) return malformed("not a compile reply");
    if (!field(f.header, "ok", false)) return errorFromJson(field(f.header, "error", json::object()));
    auto r = pipeline::resultFromJson(field(f.header, "result", json::object()), std::move(f.blobs));
    if (!r) return malformed(r.error().message);
    return r;
}

Frame makeLateReply(const pipeline::CompileResult& complete, bool withMap) {
    Frame f;
    f.type = kLateReply;
    f.header = pipeline::sassToJson(complete);
    f.header["stages"] = pipeline::stagesToJson(complete.stages);
    if (withMap && complete.lineMap) f.header["line_map"] = inspect::toJson(*complete.lineMap);
    f.blobs = {complete.sass};
    return f;
}

support::Status readLateReply(Frame frame, bool withMap, pipeline::CompileResult& into) {
    if (frame.type != kLateReply || !frame.header.is_object() || frame.blobs.size() != 1)
        return malformed("not a late reply");
    auto stages = pipeline::stagesFromJson(frame.header);
    if (!stages) return malformed(stages.error().message);
    std::shared_ptr<const inspect::LineMap> map;
    if (withMap) {
        const auto it = frame.header.find("line_map");
        if (it == frame.header.end()) return malformed("a late reply without its line map");
        auto read = inspect::lineMapFromJson(*it);
        if (!read) return malformed(read.error().message);
        map = std::make_shared<const inspect::LineMap>(std::move(*read));
    }
    pipeline::sassFromJson(frame.header, std::move(frame.blobs[0]), into);
    into.stages = std::move(*stages);
    into.lineMap = std::move(map);
    return {};
}

Frame makeSassReply(const pipeline::CompileResult& result) {
    Frame f;
    f.type = kSassReply;
    f.header = pipeline::sassToJson(result);
    f.blobs = {result.sass};
    return f;
}

support::Status readSassReply(Frame frame, pipeline::CompileResult& into) {
    if (frame.type != kSassReply || !frame.header.is_object() || frame.blobs.size() != 1)
        return malformed("not a SASS reply");
    pipeline::sassFromJson(frame.header, std::move(frame.blobs[0]), into);
    return {};
}

bool wantsLateReply(const nlohmann::json& request) {
    if (!request.is_object()) return false;
    pipeline::Job job;
    job.lineMap = field(request, "line_map", false);
    job.outputs = field(request, "outputs", 0u);
    return pipeline::hasLateOutputs(job);
}

// ---- runs

Frame makeRunRequest(int device, const std::string& image, bool cubin, const ptx::Function& kernel,
                     const gpu::RunConfig& config, const std::vector<std::string>& initial) {
    Frame f;
    f.type = kRunRequest;
    // A SPEC like buf:@x.npy gets its type and count from the file, which only this side read.
    json args = json::array();
    for (const auto& a : config.args)
        args.push_back({{"type", std::string(gpu::elemInfo(a.type).name)}, {"count", a.count}});
    f.header = {{"device", device},
                {"cubin", cubin},
                {"kernel", kernelToJson(kernel)},
                {"config", gpu::runConfigToJson(config)},
                {"args", args}};
    f.blobs.push_back(image);
    for (const auto& b : initial) f.blobs.push_back(b);
    return f;
}

support::Result<RunRequestData> parseRunRequest(Frame frame) {
    if (frame.type != kRunRequest) return malformed("not a run request");
    const auto& h = frame.header;
    if (!h.is_object()) return malformed("no header object");
    auto kernel = kernelFromJson(field(h, "kernel", json()));
    if (!kernel) return kernel.error();
    auto config = gpu::runConfigFromJson(field(h, "config", json()), "/config");
    if (!config) return malformed(config.error().message);
    const auto args = field(h, "args", json::array());
    if (!args.is_array() || frame.blobs.size() != 1 + config->args.size() || args.size() != config->args.size())
        return malformed("its buffers do not match its arguments");
    for (size_t i = 0; i < args.size(); ++i) {
        auto type = gpu::parseElemType(field(args[i], "type", ""));
        if (!type || !field(args[i], "count", json()).is_number_unsigned())
            return malformed("argument " + std::to_string(i) + " has no type or count");
        config->args[i].type = *type;
        config->args[i].count = args[i]["count"].get<size_t>();
    }
    RunRequestData d;
    d.device = field(h, "device", 0);
    d.cubin = field(h, "cubin", false);
    d.kernel = std::move(*kernel);
    d.config = std::move(*config);
    d.image = std::move(frame.blobs[0]);
    d.initial.assign(std::make_move_iterator(frame.blobs.begin() + 1), std::make_move_iterator(frame.blobs.end()));
    return d;
}

Frame makeRunReply(support::Result<gpu::RunOutcome> outcome, bool fatal) {
    if (!outcome) return makeErrorReply(kRunReply, outcome.error(), fatal);
    Frame reply;
    reply.type = kRunReply;
    json buffers = json::array();
    for (auto& b : outcome->buffers) {
        buffers.push_back({{"arg", b.arg}, {"type", std::string(gpu::elemInfo(b.type).name)}, {"count", b.count}});
        reply.blobs.push_back(std::move(b.bytes));
    }
    reply.header = {{"ok", true},
                    {"fatal", fatal},
                    {"outcome",
                     {{"kernel", outcome->kernel},
                      {"device", outcome->device},
                      {"kernel_ms", outcome->kernelMs},
                      {"launch_ms", outcome->launchMs},
                      {"bytes_in", outcome->bytesIn},
                      {"bytes_out", outcome->bytesOut},
                      {"buffers", buffers}}}};
    return reply;
}

support::Result<gpu::RunOutcome> readRunReply(const Frame& f, bool& fatal) {
    const auto& h = f.header;
    fatal = h.is_object() && field(h, "fatal", false);
    if (f.type != kRunReply || !h.is_object()) return malformed("not a run reply");
    if (!field(h, "ok", false)) return errorFromJson(field(h, "error", json::object()));
    const auto o = field(h, "outcome", json::object());
    gpu::RunOutcome out;
    out.kernel = field(o, "kernel", "");
    out.device = field(o, "device", "");
    out.kernelMs = field(o, "kernel_ms", 0.0);
    out.launchMs = field(o, "launch_ms", std::vector<double>{});
    out.bytesIn = field(o, "bytes_in", size_t(0));
    out.bytesOut = field(o, "bytes_out", size_t(0));
    const auto buffers = field(o, "buffers", json::array());
    if (!buffers.is_array() || buffers.size() != f.blobs.size()) return malformed("a run reply without every buffer");
    for (size_t i = 0; i < buffers.size(); ++i) {
        gpu::BufferOut b;
        b.arg = field(buffers[i], "arg", size_t(0));
        b.type = gpu::parseElemType(field(buffers[i], "type", "u8")).value_or(gpu::ElemType::U8);
        b.count = field(buffers[i], "count", size_t(0));
        b.bytes = f.blobs[i];
        out.buffers.push_back(std::move(b));
    }
    return out;
}

}  // namespace nvpg::engine
