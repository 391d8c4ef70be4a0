#include "gpu/Worker.h"

#include <fmt/format.h>

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::gpu {

namespace {

nlohmann::json kernelToJson(const ptx::Function& k) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& p : k.params)
        params.push_back({{"name", p.name}, {"type", p.type}, {"size", p.size}, {"align", p.align},
                          {"array", p.arrayCount}, {"pointer", p.isPointer}});
    return {{"name", k.name}, {"params", params}};
}

support::Result<ptx::Function> kernelFromJson(const nlohmann::json& j) {
    if (!j.is_object() || !j.contains("name") || !j["name"].is_string() || !j.contains("params") ||
        !j["params"].is_array())
        return makeError(ErrorKind::Input, "engine message: a run request without its kernel");
    ptx::Function k;
    k.name = j["name"].get<std::string>();
    k.isEntry = true;
    for (const auto& p : j["params"]) {
        if (!p.is_object() || !p.value("size", nlohmann::json()).is_number_integer())
            return makeError(ErrorKind::Input, "engine message: a kernel parameter without its size");
        ptx::Param param;
        param.name = p.value("name", "");
        param.type = p.value("type", "");
        param.size = p.value("size", 0);
        param.align = p.value("align", 0);
        param.arrayCount = p.value("array", 0);
        param.isPointer = p.value("pointer", false);
        k.params.push_back(std::move(param));
    }
    return k;
}

Frame errorReply(const support::Error& e, bool fatal) {
    Frame f;
    f.type = kRunReply;
    f.header = {{"ok", false}, {"kind", int(e.kind)}, {"message", e.message}, {"fatal", fatal}};
    return f;
}

}  // namespace

Frame makeRunRequest(int device, const std::string& image, bool cubin, const ptx::Function& kernel,
                     const RunConfig& config, const std::vector<std::string>& initial) {
    Frame f;
    f.type = kRunRequest;
    // A SPEC like buf:@x.npy gets its type and count from the file, which only this side read.
    nlohmann::json args = nlohmann::json::array();
    for (const auto& a : config.args)
        args.push_back({{"type", std::string(elemInfo(a.type).name)}, {"count", a.count}});
    f.header = {{"device", device}, {"cubin", cubin}, {"kernel", kernelToJson(kernel)},
                {"config", runConfigToJson(config)}, {"args", args}};
    f.blobs.push_back(image);
    for (const auto& b : initial) f.blobs.push_back(b);
    return f;
}

support::Result<RunOutcome> readRunReply(const Frame& f, bool& fatal) {
    const auto& h = f.header;
    fatal = h.value("fatal", false);
    if (f.type != kRunReply || !h.is_object())
        return makeError(ErrorKind::Internal, "the engine answered something other than a run reply");
    if (!h.value("ok", false)) {
        const int kind = h.value("kind", int(ErrorKind::Internal));
        return makeError(kind >= 0 && kind <= int(ErrorKind::Internal) ? ErrorKind(kind) : ErrorKind::Internal,
                         h.value("message", std::string("the engine failed without saying why")));
    }
    const auto& o = h.value("outcome", nlohmann::json::object());
    RunOutcome out;
    out.kernel = o.value("kernel", "");
    out.device = o.value("device", "");
    out.kernelMs = o.value("kernel_ms", 0.0);
    out.launchMs = o.value("launch_ms", std::vector<double>{});
    out.bytesIn = o.value("bytes_in", size_t(0));
    out.bytesOut = o.value("bytes_out", size_t(0));
    const auto buffers = o.value("buffers", nlohmann::json::array());
    if (buffers.size() != f.blobs.size())
        return makeError(ErrorKind::Internal, "the engine's reply does not carry every buffer");
    for (size_t i = 0; i < buffers.size(); ++i) {
        BufferOut b;
        b.arg = buffers[i].value("arg", size_t(0));
        b.type = parseElemType(buffers[i].value("type", "u8")).value_or(ElemType::U8);
        b.count = buffers[i].value("count", size_t(0));
        b.bytes = f.blobs[i];
        out.buffers.push_back(std::move(b));
    }
    return out;
}

support::Result<RunRequestData> parseRunRequest(Frame frame) {
    auto malformed = [](std::string what) {
        return makeError(ErrorKind::Internal, "engine message: a malformed run request (" + what + ")");
    };
    if (frame.type != kRunRequest) return malformed("not a run request");
    const auto& h = frame.header;
    if (!h.is_object()) return malformed("no header object");
    auto kernel = kernelFromJson(h.value("kernel", nlohmann::json()));
    if (!kernel) return kernel.error();
    auto config = runConfigFromJson(h.value("config", nlohmann::json()), "/config");
    if (!config) return malformed(config.error().message);
    const auto args = h.value("args", nlohmann::json::array());
    if (frame.blobs.size() != 1 + config->args.size() || args.size() != config->args.size())
        return malformed("its buffers do not match its arguments");
    for (size_t i = 0; i < args.size(); ++i) {
        auto type = parseElemType(args[i].value("type", ""));
        if (!type || !args[i].value("count", nlohmann::json()).is_number_unsigned())
            return malformed("argument " + std::to_string(i) + " has no type or count");
        config->args[i].type = *type;
        config->args[i].count = args[i]["count"].get<size_t>();
    }
    RunRequestData d;
    d.device = h.value("device", 0);
    d.cubin = h.value("cubin", false);
    d.kernel = std::move(*kernel);
    d.config = std::move(*config);
    d.image = std::move(frame.blobs[0]);
    d.initial.assign(std::make_move_iterator(frame.blobs.begin() + 1), std::make_move_iterator(frame.blobs.end()));
    return d;
}

int serveRuns(int in, int out) {
    std::shared_ptr<const toolkit::Driver> driver;
    std::unique_ptr<Session> session;
    int sessionDevice = -1;
    while (true) {
        auto request = readFrame(in, std::nullopt);
        if (!request) return 0;  // the front end closed the pipe: nothing more to do
        auto req = parseRunRequest(std::move(*request));
        if (!req) {
            (void)writeFrame(out, errorReply(req.error(), false));
            continue;
        }
        const int device = req->device;
        if (!session || sessionDevice != device) {
            if (!driver) {
                toolkit::LibraryReport report;
                auto d = toolkit::openDriver(report);
                if (!d) {
                    (void)writeFrame(out, errorReply(d.error(), false));
                    continue;
                }
                driver = *d;
            }
            session.reset();
            auto s = Session::open(driver, device);
            if (!s) {
                (void)writeFrame(out, errorReply(s.error(), false));
                continue;
            }
            session = std::move(*s);
            sessionDevice = device;
        }
        auto ran = session->run(req->image, req->cubin, req->kernel, req->config, req->initial);
        if (!ran) {
            const bool fatal = session->unusable();
            (void)writeFrame(out, errorReply(ran.error(), fatal));
            if (fatal) return 3;  // the driver frees the context when this process is gone
            continue;
        }
        Frame reply;
        reply.type = kRunReply;
        nlohmann::json buffers = nlohmann::json::array();
        for (auto& b : ran->buffers) {
            buffers.push_back({{"arg", b.arg}, {"type", std::string(elemInfo(b.type).name)}, {"count", b.count}});
            reply.blobs.push_back(std::move(b.bytes));
        }
        reply.header = {{"ok", true},
                        {"fatal", false},
                        {"outcome",
                         {{"kernel", ran->kernel},
                          {"device", ran->device},
                          {"kernel_ms", ran->kernelMs},
                          {"launch_ms", ran->launchMs},
                          {"bytes_in", ran->bytesIn},
                          {"bytes_out", ran->bytesOut},
                          {"buffers", buffers}}}};
        if (!writeFrame(out, reply)) return 0;
    }
}

}  // namespace nvpg::gpu
