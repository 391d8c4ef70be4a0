#include "core/gpu/Session.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "core/support/Text.h"

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::gpu {

support::Result<std::unique_ptr<Session>> Session::open(std::shared_ptr<const toolkit::Driver> driver, int ordinal) {
    auto devices = listDevices(*driver);
    if (!devices) return devices.error();
    if (ordinal < 0 || ordinal >= int(devices->size()))
        return makeError(ErrorKind::Environment, fmt::format("there is no GPU {}: the driver sees {} (0 to {})",
                                                             ordinal, devices->size(), devices->size() - 1));
    std::unique_ptr<Session> s(new Session());
    s->driver_ = std::move(driver);
    s->device_ = (*devices)[size_t(ordinal)];
    if (CUresult r = s->driver_->api.deviceGet(&s->dev_, ordinal); r != CUDA_SUCCESS)
        return makeError(ErrorKind::Environment, fmt::format("cuDeviceGet({}): {}", ordinal, s->driver_->errorName(r)));
    if (auto st = s->retain(); !st) return st.error();
    return s;
}

support::Status Session::retain() {
    if (CUresult r = driver_->api.primaryCtxRetain(&ctx_, dev_); r != CUDA_SUCCESS)
        return makeError(ErrorKind::Environment,
                         fmt::format("cannot open a context on {}: {}", device_.name, driver_->errorName(r)));
    return {};
}

Session::~Session() {
    if (ctx_) driver_->api.primaryCtxRelease(dev_);
}

namespace {

// Frees what a run allocated, whatever way it ends.
struct RunResources {
    const toolkit::DriverApi& api;
    CUmodule module = nullptr;
    CUstream stream = nullptr;
    CUevent start = nullptr, stop = nullptr;
    std::vector<CUdeviceptr> buffers{};
    bool poisoned = false;  // after a sticky error nothing can be freed; the reset frees it
    ~RunResources() {
        if (poisoned) return;
        for (auto p : buffers)
            if (p) api.memFree(p);
        if (start) api.eventDestroy(start);
        if (stop) api.eventDestroy(stop);
        if (stream) api.streamDestroy(stream);
        if (module) api.moduleUnload(module);
    }
};

std::string describeLaunch(const ptx::Function& k, const RunConfig& c) {
    std::vector<std::string> args;
    for (const auto& a : c.args) args.push_back(a.text.empty() ? formatArgSpec(a) : a.text);
    return fmt::format("kernel {} with grid ({},{},{}), block ({},{},{}), {} bytes of dynamic shared memory, args [{}]",
                       k.name, c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z, c.sharedBytes,
                       support::join(args, " "));
}

}  // namespace

support::Result<RunOutcome> Session::run(const std::string& image, bool cubin, const ptx::Function& kernel,
                                         const RunConfig& config, const std::vector<std::string>& initial) {
    const auto& api = driver_->api;
    if (unusable_)
        return makeError(ErrorKind::Run,
                         "an earlier kernel left this process's GPU context unusable; "
                         "the next engine process runs with a fresh one");
    auto fail = [&](CUresult r, std::string_view step) -> support::Error {
        const char* text = nullptr;
        api.getErrorString(r, &text);
        return makeError(ErrorKind::Run, fmt::format("{} failed: {} ({}) for {}", step, driver_->errorName(r),
                                                     text ? text : "no description", describeLaunch(kernel, config)));
    };
    if (CUresult r = api.ctxSetCurrent(ctx_); r != CUDA_SUCCESS) return fail(r, "cuCtxSetCurrent");

    RunResources res{api};
    // The JIT's own log says why PTX does not load (an arch the GPU does not have, say).
    char jitLog[8192] = {};
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* vals[] = {jitLog, reinterpret_cast<void*>(sizeof jitLog - 1)};
    if (CUresult r = api.moduleLoadDataEx(&res.module, image.c_str(), 2, opts, vals); r != CUDA_SUCCESS) {
        auto e = fail(r, cubin ? "loading the cubin" : "loading the PTX");
        if (*jitLog) e.message += fmt::format("\nthe driver's JIT said: {}", support::trim(jitLog));
        return e;
    }
    CUfunction fn = nullptr;
    if (CUresult r = api.moduleGetFunction(&fn, res.module, kernel.name.c_str()); r != CUDA_SUCCESS)
        return fail(r, "finding the kernel");

    RunOutcome out;
    out.kernel = kernel.name;
    out.device = device_.name;
    std::vector<uint64_t> pointers(config.args.size(), 0);
    res.buffers.assign(config.args.size(), 0);
    for (size_t i = 0; i < config.args.size(); ++i) {
        if (config.args[i].kind != ArgSpec::Buffer) continue;
        const size_t bytes = std::max<size_t>(initial.at(i).size(), 1);
        if (CUresult r = api.memAlloc(&res.buffers[i], bytes); r != CUDA_SUCCESS)
            return fail(r, fmt::format("allocating {} bytes for argument {}", bytes, i));
        pointers[i] = res.buffers[i];
    }
    const std::string params = packParams(kernel, config.args, pointers);
    size_t paramSize = params.size();
    void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, const_cast<char*>(params.data()), CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &paramSize, CU_LAUNCH_PARAM_END};
    if (CUresult r = api.streamCreate(&res.stream, CU_STREAM_NON_BLOCKING); r != CUDA_SUCCESS)
        return fail(r, "cuStreamCreate");
    if (api.eventCreate(&res.start, CU_EVENT_DEFAULT) != CUDA_SUCCESS ||
        api.eventCreate(&res.stop, CU_EVENT_DEFAULT) != CUDA_SUCCESS)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "cuEventCreate");

    auto stickyFailure = [&](CUresult r, std::string_view step) {
        res.poisoned = true;
        unusable_ = true;
        return fail(r, step);
    };
    for (int rep = 0; rep < config.repeat; ++rep) {
        // Every launch starts from the initial contents, so repeats time the same work and the
        // outputs are those of one run.
        for (size_t i = 0; i < config.args.size(); ++i) {
            if (!res.buffers[i] || initial[i].empty()) continue;
            if (CUresult r = api.memcpyHtoD(res.buffers[i], initial[i].data(), initial[i].size()); r != CUDA_SUCCESS)
                return stickyFailure(r, fmt::format("copying argument {} to the GPU", i));
            out.bytesIn += initial[i].size();
        }
        api.eventRecord(res.start, res.stream);
        if (CUresult r =
                api.launchKernel(fn, config.grid.x, config.grid.y, config.grid.z, config.block.x, config.block.y,
                                 config.block.z, config.sharedBytes, res.stream, nullptr, extra);
            r != CUDA_SUCCESS)
            return fail(r, "cuLaunchKernel");
        api.eventRecord(res.stop, res.stream);
        // Poll rather than block, so that a kernel that never ends is noticed.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(config.timeoutSeconds);
        CUresult q;
        while ((q = api.eventQuery(res.stop)) == CUDA_ERROR_NOT_READY) {
            if (std::chrono::steady_clock::now() > deadline) {
                res.poisoned = true;
                unusable_ = true;
                return makeError(ErrorKind::Timeout,
                                 fmt::format("{} did not finish within {} s (give a longer timeout if it is only "
                                             "slow)",
                                             describeLaunch(kernel, config), config.timeoutSeconds));
            }
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
        if (q != CUDA_SUCCESS) return stickyFailure(q, "the kernel");
        float ms = 0;
        api.eventElapsedTime(&ms, res.start, res.stop);
        out.launchMs.push_back(ms);
    }
    auto sorted = out.launchMs;
    std::sort(sorted.begin(), sorted.end());
    out.kernelMs = sorted[sorted.size() / 2];
    for (size_t i = 0; i < config.args.size(); ++i) {
        if (!res.buffers[i]) continue;
        BufferOut b;
        b.arg = i;
        b.type = config.args[i].type;
        b.count = config.args[i].count;
        b.bytes.resize(initial[i].size());
        if (!b.bytes.empty())
            if (CUresult r = api.memcpyDtoH(b.bytes.data(), res.buffers[i], b.bytes.size()); r != CUDA_SUCCESS)
                return stickyFailure(r, fmt::format("copying argument {} back", i));
        out.bytesOut += b.bytes.size();
        out.buffers.push_back(std::move(b));
    }
    return out;
}

}  // namespace nvpg::gpu
