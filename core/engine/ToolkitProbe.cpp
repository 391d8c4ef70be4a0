#include "core/engine/ToolkitProbe.h"

#include <chrono>

#include <fmt/format.h>

#include "core/engine/EngineProcess.h"
#include "core/engine/Messages.h"
#include "core/engine/Server.h"
#include "core/support/Json.h"
#include "core/support/Text.h"

using nlohmann::json;
using nvpg::support::ErrorKind;
using nvpg::support::field;
using nvpg::support::makeError;

namespace nvpg::engine {

namespace {

json reportJson(const toolkit::LibraryReport& r) {
    return {
        {"found", r.found}, {"path", r.path.string()}, {"via", r.via}, {"version", r.version}, {"problem", r.problem}};
}

toolkit::LibraryReport reportFrom(const json& j, const char* name) {
    toolkit::LibraryReport r;
    r.name = name;
    if (!j.is_object()) return r;
    r.found = field(j, "found", false);
    r.path = field(j, "path", std::string());
    r.via = field(j, "via", std::string());
    r.version = field(j, "version", std::string());
    r.problem = field(j, "problem", std::string());
    return r;
}

// What to do about a toolkit whose libNVVM cannot be loaded, as Toolkit::open says it.
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

Frame makeToolkitReply(const support::Result<std::shared_ptr<const toolkit::Toolkit>>& opened) {
    if (!opened) return makeErrorReply(kToolkitReply, opened.error());
    const auto& tk = **opened;
    Frame f;
    f.type = kToolkitReply;
    f.header = {{"libnvvm", reportJson(tk.nvvmReport())},
                {"nvjitlink", reportJson(tk.nvJitLinkReport())},
                {"cuda_major", tk.cudaMajor()}};
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
    located.adoptProbe(reportFrom(field(h, "libnvvm", json()), "libNVVM"),
                       reportFrom(field(h, "nvjitlink", json()), "nvJitLink"), field(h, "cuda_major", 0));
    return {};
}

}  // namespace nvpg::engine
