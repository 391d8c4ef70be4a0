#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine/EngineProcess.h"
#include "core/engine/Protocol.h"
#include "core/toolkit/Toolkit.h"

namespace nvpg::engine {

// A library's report as the toolkit messages carry it, and back; `name` empty: the one the
// message names.
nlohmann::json libraryReportJson(const toolkit::LibraryReport& r);
toolkit::LibraryReport libraryReportFrom(const nlohmann::json& j, std::string_view name = {});

// The toolkit request (kToolkitRequest): the engine opens the toolkit that `cudaPath` (else the
// usual search) gives and answers with its libraries' reports (kToolkitReply).
Frame makeToolkitRequest(const std::optional<std::filesystem::path>& cudaPath);
std::optional<std::filesystem::path> toolkitRequestPath(const Frame& request);
// Opens nvJitLink too, for its version and the CUDA release. A request that asks "describe"
// (a front end on another machine, engine/Remote.h's makeFarRequest) gets, under "describe",
// this machine's name, the nvpg version and protocol, the release, every library and tool found,
// the files and GPU identity the result cache keys on, and with "gpus" the GPUs.
Frame makeToolkitReply(const support::Result<std::shared_ptr<const toolkit::Toolkit>>& opened,
                       const Frame* request = nullptr);
// The version the engine names in its description: the program's (nvpg sets it before serving).
void setServedVersion(std::string version);

// Opens the libraries of `located` (Toolkit::locate, nothing mapped) in an engine process and
// adopts what it says (Toolkit::adoptProbe), so that the front end never maps libNVVM or
// nvJitLink itself: one that aborts, segfaults, exits or hangs as it is loaded ends only that
// process, within `timeoutSeconds` (the compile timeout), and the error says what happened to
// which file in the words a compile's crash uses ("libNVVM crashed (SIGABRT) while loading ...")
// and what to do (an Environment error). `engineCommand`: the command that starts the engine;
// none: a fork of this process, which must have no other thread (nvpg). The engine serves this
// one request and ends; nothing of it is left when this returns. A cancelled `cancel` (the
// front end closing) ends it at once.
support::Status probeToolkit(toolkit::Toolkit& located, const std::optional<std::filesystem::path>& cudaPath,
                             const std::optional<std::vector<std::string>>& engineCommand, double timeoutSeconds,
                             const CallCancel* cancel = nullptr);

}  // namespace nvpg::engine
