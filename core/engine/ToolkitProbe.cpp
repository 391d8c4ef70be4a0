#include "core/engine/ToolkitProbe.h"

#include <unistd.h>

#include <chrono>

#include <fmt/format.h>

#include "core/cache/Key.h"
#include "core/engine/EngineProcess.h"
#include "core/engine/Messages.h"
#include "core/engine/Server.h"
#include "core/gpu/DeviceCache.h"
#include "core/gpu/Devices.h"
#include "core/support/Json.h"
#include "core/support/Text.h"

using nlohmann::json;
using nvpg::support::ErrorKind;
using nvpg::support::field;
using nvpg::support::makeError;

namespace nvpg::engine {

json libraryReportJson(const toolkit::LibraryReport& r) {
    return {{"name", r.name}, {"found", r.found},     {"path", r.path.string()},
            {"via", r.via},   {"version", r.version}, {"problem", r.problem}};
}

toolkit::LibraryReport libraryReportFrom(const json& j, std::string_view name) {
    toolkit::LibraryReport r;
    r.name = name.empty() && j.is_object() ? field(j, "name", std::string()) : std::string(name);
    if (!j.is_object()) return r;
    r.found = field(j, "found", false);
    r.path = field(j, "path", std::string());
    r.via = field(j, "via", std::string());
    r.version = field(j, "version", std::string());
    r.problem = field(j, "problem", std::string());
    return r;
}

namespace {

// What to do about a toolkit whose libNVVM cannot be loaded, as Toolkit::open says it.
std::string& servedVersion() {
    static std::string version;
    return version;
}

// What a front end on another machine needs to know of this one (see makeToolkitReply).
json describe(const toolkit::Toolkit& tk, bool withGpus) {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) host[0] = 0;
    json d = {{"host", host}, {"nvpg_version", servedVersion()}, {"protocol", kProtocolVersion}};
    const auto& r = tk.release();
    d["release"] = r ? fmt::format("CUDA {} ({})", r->version, r->source) : "CUDA release not recorded beside it";
    d["nvdisasm"] = tk.nvdisasm() != nullptr;
    if (!tk.nvdisasm()) d["nvdisasm_problem"] = tk.nvdisasmReport().problem;
    json libraries = json::array();
    for (const auto& l : tk.reports()) {
        libraries.push_back(libraryReportJson(l));
    }
    d["libraries"] = std::move(libraries);
    // Every file any compile's key may stamp (nvdisasm included) and the GPU identity.
    pipeline::Job every;
    every.outputs = pipeline::kSass;
    every.archFromGpu = true;
    const auto env = cache::environmentOf(every, tk);
    json files = json::array();
    for (const auto& f : env.files)
        files.push_back({{"role", f.role}, {"path", f.path.string()}, {"size", f.size}, {"mtime_ns", f.mtimeNs}});
    d["identity"] = {{"files", std::move(files)}, {"gpu", env.gpu}};
    if (withGpus) {
        auto gpus = gpu::localGpus(tk);
        auto devices = gpus ? support::Result<std::vector<gpu::DeviceInfo>>(gpus->devices) : gpu::listDevices(tk);
        json list = json::array();
        if (devices) {
            for (const auto& g : *devices)
                list.push_back({{"ordinal", g.ordinal},
                                {"name", g.name},
                                {"cc_major", g.ccMajor},
                                {"cc_minor", g.ccMinor},
                                {"memory_bytes", g.totalMemory}});
            if (devices->empty()) d["no_gpu_reason"] = "the driver sees no GPU";
        } else {
            d["no_gpu_reason"] = devices.error().message;
        }
        d["gpus"] = std::move(list);
    }
    return d;
}

constexpr const char* kAdvice = "Reinstall that toolkit, or point at a working one with --cuda-path DIR or CUDA_PATH.";

}  // namespace

Frame makeToolkitRequest(const std::optional<std::filesystem::path>& cudaPath) {
    Frame f;
    f.type = kToolkitRequest;
    f.header = json::object();
    if (cudaPath) f.header["cuda_path"] = cudaPath->string();
    return f;
}

std::optional<std::filesystem::path> toolkitRequestPath(const Frame& request) {
    if (!request.header.is_object()) return std::nullopt;
    const auto it = request.header.find("cuda_path");
    if (it == request.header.end() || !it->is_string()) return std::nullopt;
    return std::filesystem::path(it->get<std::string>());
}

void setServedVersion(std::string version) {
    servedVersion() = std::move(version);
}

Frame makeToolkitReply(const support::Result<std::shared_ptr<const toolkit::Toolkit>>& opened, const Frame* request) {
    if (!opened) return makeErrorReply(kToolkitReply, opened.error());
    const auto& tk = **opened;
    Frame f;
    f.type = kToolkitReply;
    f.header = {{"libnvvm", libraryReportJson(tk.nvvmReport())},
                {"nvjitlink", libraryReportJson(tk.nvJitLinkReport())},
                {"cuda_major", tk.cudaMajor()}};
    if (request && field(request->header, "describe", false))
        f.header["describe"] = describe(tk, field(request->header, "gpus", false));
    return f;
}

support::Status probeToolkit(toolkit::Toolkit& located, const std::optional<std::filesystem::path>& cudaPath,
                             const std::optional<std::vector<std::string>>& engineCommand, double timeoutSeconds,
                             const CallCancel* cancel) {
    const auto& nvvm = located.nvvmReport();
    const std::string file = fmt::format("{} ({})", support::printable(nvvm.path.string()), nvvm.via);
    std::unique_ptr<EngineProcess> engine;
    if (engineCommand)
        engine = std::make_unique<EngineProcess>(*engineCommand);
    else
        engine = std::make_unique<EngineProcess>(
            [](int in, int out) { return serveEngine(in, out, nullptr, std::nullopt, /*oneRequest=*/true); });
    const auto deadline =
        std::chrono::steady_clock::now() +
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(timeoutSeconds));
    auto reply = engine->call(makeToolkitRequest(cudaPath), deadline, {}, cancel);
    if (!reply) {
        switch (engine->lastFailure()) {
            case EngineProcess::Failure::Timeout:
                return makeError(ErrorKind::Environment,
                                 fmt::format("libNVVM {} did not finish loading within {} s and was stopped. {}", file,
                                             timeoutSeconds, kAdvice));
            case EngineProcess::Failure::Died:
                // A library's constructor runs as it is loaded: whatever ended the engine then was it.
                if (engine->lastSignal())
                    return makeError(ErrorKind::Environment, fmt::format("libNVVM crashed ({}) while loading {}. {}",
                                                                         engine->howItEnded(), file, kAdvice));
                return makeError(ErrorKind::Environment,
                                 fmt::format("libNVVM ended its process while loading {} ({}). {}", file,
                                             engine->howItEnded(), kAdvice));
            default:
                return makeError(ErrorKind::Environment, reply.error().message);
        }
    }
    if (reply->type != kToolkitReply)
        return makeError(ErrorKind::Environment,
                         "the engine process answered the toolkit request with another message");
    const auto& h = reply->header;
    if (h.is_object() && h.contains("error")) {
        const auto& e = h["error"];
        return makeError(ErrorKind::Environment,
                         field(e, "message", std::string("the engine could not open the toolkit")));
    }
    located.adoptProbe(libraryReportFrom(field(h, "libnvvm", json()), "libNVVM"),
                       libraryReportFrom(field(h, "nvjitlink", json()), "nvJitLink"), field(h, "cuda_major", 0));
    return {};
}

}  // namespace nvpg::engine
