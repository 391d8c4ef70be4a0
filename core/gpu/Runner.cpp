#include "gpu/Runner.h"

#include <algorithm>

#include <fmt/format.h>

#include "support/Text.h"

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::gpu {

Runner::Runner(std::shared_ptr<const toolkit::Toolkit> toolkit, int device)
    : toolkit_(std::move(toolkit)), device_(device) {}

Runner::~Runner() = default;

support::Result<const ptx::Function*> Runner::kernelFor(const pipeline::Result& compiled,
                                                        const RunConfig& config) const {
    const auto* k = compiled.ptxModule.find(config.kernel);
    if (!k || !k->isEntry) {
        std::vector<std::string> names;
        for (const auto* e : compiled.ptxModule.entries()) names.push_back(e->name);
        return makeError(ErrorKind::Usage,
                         names.empty() ? fmt::format("there is no kernel {}: the program has no kernels (mark one "
                                                     "with !nvvm.annotations ... !\"kernel\", i32 1)",
                                                     config.kernel)
                                       : fmt::format("there is no kernel {}; the kernels are {}", config.kernel,
                                                     support::join(names, ", ")));
    }
    if (config.fromLto) {
        if (compiled.cubin.empty())
            return makeError(ErrorKind::Usage, "running from LTO needs the LTO cubin, and this compile made none");
        if (!compiled.linkedPtx.empty() && !compiled.linkedPtxModule.find(config.kernel))
            return makeError(ErrorKind::Usage,
                             fmt::format("kernel {} is not in the LTO cubin: nvJitLink's LTO dropped it because "
                                         "@llvm.used does not list it (see the warning), or run from PTX",
                                         config.kernel));
    }
    if (auto st = checkRunConfig(config, *k); !st) return st.error();
    return k;
}

bool Runner::gpuAvailable(std::string* why) const {
    auto devices = listDevices(*toolkit_);
    if (devices && int(devices->size()) > device_) return true;
    if (why) *why = devices ? fmt::format("there is no GPU {}", device_) : devices.error().message;
    return false;
}

support::Result<RunOutcome> Runner::run(const pipeline::Result& compiled, RunConfig config,
                                        const std::filesystem::path& baseDir) {
    auto kernel = kernelFor(compiled, config);
    if (!kernel) return kernel.error();
    std::vector<std::string> initial(config.args.size());
    for (size_t i = 0; i < config.args.size(); ++i) {
        if (config.args[i].kind != ArgSpec::Buffer) continue;
        auto bytes = loadBuffer(config.args[i], baseDir);
        if (!bytes) return makeError(ErrorKind::Usage, fmt::format("argument {}: {}", i, bytes.error().message));
        initial[i] = std::move(*bytes);
    }
    if (!session_) {
        auto s = Session::open(toolkit_, device_);
        if (!s) return s.error();
        session_ = std::move(*s);
    }
    const bool cubin = config.fromLto;
    return session_->run(cubin ? compiled.cubin : compiled.ptx, cubin, **kernel, config, initial);
}

}  // namespace nvpg::gpu
