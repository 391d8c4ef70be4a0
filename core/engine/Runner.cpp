#include "core/engine/Runner.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "core/engine/Messages.h"
#include "core/engine/Protocol.h"
#include "core/pipeline/RunCheck.h"
#include "core/support/Text.h"

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::engine {

Runner::Runner(std::shared_ptr<const toolkit::Toolkit> toolkit, int device, std::vector<std::string> engineCommand)
    : toolkit_(std::move(toolkit)), device_(device) {
    if (!engineCommand.empty()) engine_ = std::make_unique<EngineProcess>(std::move(engineCommand));
}

Runner::Runner(EngineProcess& engine, FarEnd end, FarToolkit far, int device)
    : device_(device), farEngine_(&engine), farEnd_(std::move(end)), far_(std::move(far)) {}

Runner::~Runner() = default;

support::Result<gpu::DeviceInfo> Runner::findDevice() const {
    if (far_) {
        const auto dest = support::printable(farEnd_->destination);
        if (far_->gpus.empty()) return makeError(ErrorKind::Environment, describeNoFarGpu(*farEnd_, *far_));
        for (const auto& g : far_->gpus)
            if (g.ordinal == device_) return g;
        return makeError(ErrorKind::Environment,
                         fmt::format("{} ({}) has no GPU {}; it has {}", dest, far_->host, device_, far_->gpus.size()));
    }
    auto devices = gpu::listDevices(*toolkit_);
    if (!devices) return devices.error();
    if (int(devices->size()) <= device_)
        return makeError(ErrorKind::Environment, fmt::format("there is no GPU {}", device_));
    return (*devices)[size_t(device_)];
}

bool Runner::gpuAvailable(std::string* why) const {
    auto device = findDevice();
    if (device) return true;
    if (why) *why = device.error().message;
    return false;
}

support::Result<gpu::RunOutcome> Runner::run(const pipeline::CompileResult& compiled, gpu::RunConfig config,
                                             const std::filesystem::path& baseDir) {
    auto kernel = pipeline::checkRun(compiled, config);
    if (!kernel) return kernel.error();
    // In this order, so that a run that cannot happen costs neither time nor memory: files are
    // read (their errors are the input's, the same on every machine), every buffer's size is
    // checked by arithmetic, the GPU is found, and only then are the other buffers built.
    const auto fromFile = [](const gpu::ArgSpec& arg) {
        return arg.init.kind == gpu::BufferInit::NpyFile || arg.init.kind == gpu::BufferInit::RawFile;
    };
    std::vector<std::string> initial(config.args.size());
    for (size_t i = 0; i < config.args.size(); ++i) {
        auto& arg = config.args[i];
        if (arg.kind != gpu::ArgSpec::Buffer || !fromFile(arg)) continue;
        auto bytes = gpu::loadBuffer(arg, baseDir);
        if (!bytes) return makeError(ErrorKind::Usage, fmt::format("argument {}: {}", i, bytes.error().message));
        initial[i] = std::move(*bytes);
    }
    uint64_t total = 0;
    for (size_t i = 0; i < config.args.size(); ++i) {
        const auto& arg = config.args[i];
        if (arg.kind != gpu::ArgSpec::Buffer) continue;
        const size_t elem = gpu::elemInfo(arg.type).size;
        // One buffer is one blob of the message to the engine (in-process runs keep the same limit).
        if (arg.count > kMaxBlobBytes / elem)
            return makeError(ErrorKind::Usage,
                             fmt::format("argument {} ({}): its {} are more than the {} one buffer can have; give "
                                         "a smaller COUNT",
                                         i, arg.text, support::formatBytes(uint64_t(arg.count) * elem),
                                         support::formatBytes(kMaxBlobBytes)));
        total += uint64_t(arg.count) * elem;  // each under 2^35 bytes: fewer than 2^29 buffers cannot overflow
    }
    const bool cubin = config.fromLto;
    const auto& image = cubin ? compiled.cubin : compiled.ptx;
    gpu::DeviceInfo device;
    EngineProcess* engine = engine_ ? engine_.get() : farEngine_;
    if (engine) {
        // Here, not only in the engine: no buffer is built for a run that has no GPU.
        auto found = findDevice();
        if (!found) return makeError(ErrorKind::Environment, found.error().message);
        device = std::move(*found);
    } else {
        if (!session_ || session_->unusable()) {
            auto driver = toolkit_->driver();
            if (!driver) return driver.error();
            if (session_ && session_->unusable())
                return makeError(ErrorKind::Run,
                                 "an earlier kernel left the GPU context of this process unusable "
                                 "(in-process runs cannot recover it); restart, or run in an engine "
                                 "process");
            auto s = gpu::Session::open(*driver, device_);
            if (!s) return s.error();
            session_ = std::move(*s);
        }
        device = session_->device();
    }
    if (device.totalMemory && total > device.totalMemory)
        return makeError(ErrorKind::Usage,
                         fmt::format("the buffers need {}, more than the {} of GPU {} ({}); give smaller COUNTs",
                                     support::formatBytes(total), support::formatBytes(device.totalMemory),
                                     device.ordinal, device.name));
    for (size_t i = 0; i < config.args.size(); ++i) {
        auto& arg = config.args[i];
        if (arg.kind != gpu::ArgSpec::Buffer || fromFile(arg)) continue;
        auto bytes = gpu::loadBuffer(arg, baseDir);
        if (!bytes) return makeError(ErrorKind::Usage, fmt::format("argument {}: {}", i, bytes.error().message));
        initial[i] = std::move(*bytes);
    }
    if (!engine) return session_->run(image, cubin, **kernel, config, initial);

    // The engine stops a launch at its timeout; this deadline is for an engine that hangs
    // anyway (in the driver), and leaves room for copies.
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(config.timeoutSeconds * config.repeat + 60));
    auto reply = engine->call(makeRunRequest(device_, image, cubin, **kernel, config, initial), deadline);
    if (!reply) {
        // ssh's own failure (the connection cut mid-run) in the words that say what to do.
        if (farEnd_ && engine->lastFailure() == EngineProcess::Failure::Died)
            if (auto words = describeSshFailure(*farEnd_, engine->lastExitStatus(), engine->stderrTail()))
                return makeError(ErrorKind::Environment, fmt::format("kernel {}: {}", config.kernel, *words));
        return makeError(engine->lastFailure() == EngineProcess::Failure::Timeout ? ErrorKind::Timeout : ErrorKind::Run,
                         fmt::format("kernel {}: {}{}", config.kernel, reply.error().message,
                                     engine->lastFailure() == EngineProcess::Failure::Start
                                         ? ""
                                         : "; the next run starts a new engine process"));
    }
    bool fatal = false;
    auto out = readRunReply(*reply, fatal);
    if (out && far_) out->device += fmt::format(" ({})", far_->host);
    if (fatal) {
        engine->reap();
        if (!out)
            return makeError(out.error().kind,
                             out.error().message +
                                 "; the engine process that ran it has ended, so the next run starts with a "
                                 "fresh GPU context");
    }
    return out;
}

}  // namespace nvpg::engine
