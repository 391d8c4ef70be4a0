#include "engine/Runner.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "engine/Messages.h"
#include "pipeline/RunCheck.h"
#include "support/Text.h"

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::engine {

Runner::Runner(std::shared_ptr<const toolkit::Toolkit> toolkit, int device, std::vector<std::string> engineCommand)
    : toolkit_(std::move(toolkit)), device_(device) {
    if (!engineCommand.empty()) engine_ = std::make_unique<EngineProcess>(std::move(engineCommand));
}

Runner::~Runner() = default;

bool Runner::gpuAvailable(std::string* why) const {
    auto devices = gpu::listDevices(*toolkit_);
    if (devices && int(devices->size()) > device_) return true;
    if (why) *why = devices ? fmt::format("there is no GPU {}", device_) : devices.error().message;
    return false;
}

support::Result<gpu::RunOutcome> Runner::run(const pipeline::CompileResult& compiled, gpu::RunConfig config,
                                        const std::filesystem::path& baseDir) {
    auto kernel = pipeline::checkRun(compiled, config);
    if (!kernel) return kernel.error();
    std::vector<std::string> initial(config.args.size());
    for (size_t i = 0; i < config.args.size(); ++i) {
        if (config.args[i].kind != gpu::ArgSpec::Buffer) continue;
        auto bytes = gpu::loadBuffer(config.args[i], baseDir);
        if (!bytes) return makeError(ErrorKind::Usage, fmt::format("argument {}: {}", i, bytes.error().message));
        initial[i] = std::move(*bytes);
    }
    const bool cubin = config.fromLto;
    const auto& image = cubin ? compiled.cubin : compiled.ptx;
    if (engine_) {
        // Check here what needs no GPU, so these errors read the same with and without one.
        std::string why;
        if (!gpuAvailable(&why)) return makeError(ErrorKind::Environment, why);
        // The engine stops a launch at its timeout; this deadline is for an engine that hangs
        // anyway (in the driver), and leaves room for copies.
        const auto deadline = std::chrono::steady_clock::now() +
                              std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                  std::chrono::duration<double>(config.timeoutSeconds * config.repeat + 60));
        auto reply = engine_->call(makeRunRequest(device_, image, cubin, **kernel, config, initial), deadline);
        if (!reply)
            return makeError(engine_->lastFailure() == EngineProcess::Failure::Timeout ? ErrorKind::Timeout
                                                                                       : ErrorKind::Run,
                             fmt::format("kernel {}: {}{}", config.kernel, reply.error().message,
                                         engine_->lastFailure() == EngineProcess::Failure::Start
                                             ? ""
                                             : "; the next run starts a new engine process"));
        bool fatal = false;
        auto out = readRunReply(*reply, fatal);
        if (fatal) {
            engine_->reap();
            if (!out)
                return makeError(out.error().kind,
                                 out.error().message +
                                     "; the engine process that ran it has ended, so the next run starts with a "
                                     "fresh GPU context");
        }
        return out;
    }
    if (!session_ || session_->unusable()) {
        auto driver = toolkit_->driver();
        if (!driver) return driver.error();
        if (session_ && session_->unusable())
            return makeError(ErrorKind::Run, "an earlier kernel left the GPU context of this process unusable "
                                             "(in-process runs cannot recover it); restart, or run in an engine "
                                             "process");
        auto s = gpu::Session::open(*driver, device_);
        if (!s) return s.error();
        session_ = std::move(*s);
    }
    return session_->run(image, cubin, **kernel, config, initial);
}

}  // namespace nvpg::engine
