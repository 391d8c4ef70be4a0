#include "RawNvvm.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>

namespace nvpg::bench {

namespace {

template <class F>
bool resolve(void* lib, F& f, const char* name) {
    f = reinterpret_cast<F>(::dlsym(lib, name));
    if (!f) std::fprintf(stderr, "nvpg_bench: libNVVM lacks %s\n", name);
    return f != nullptr;
}

}  // namespace

std::optional<RawNvvm> loadRawNvvm(const std::filesystem::path& path) {
    void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        std::fprintf(stderr, "nvpg_bench: cannot open %s: %s\n", path.c_str(), ::dlerror());
        return std::nullopt;
    }
    RawNvvm api;
    const bool ok = resolve(lib, api.create, "nvvmCreateProgram") &&
                    resolve(lib, api.add, "nvvmAddModuleToProgram") &&
                    resolve(lib, api.lazyAdd, "nvvmLazyAddModuleToProgram") &&
                    resolve(lib, api.compile, "nvvmCompileProgram") &&
                    resolve(lib, api.resultSize, "nvvmGetCompiledResultSize") &&
                    resolve(lib, api.result, "nvvmGetCompiledResult") &&
                    resolve(lib, api.logSize, "nvvmGetProgramLogSize") &&
                    resolve(lib, api.log, "nvvmGetProgramLog") &&
                    resolve(lib, api.destroy, "nvvmDestroyProgram") &&
                    resolve(lib, api.errorString, "nvvmGetErrorString");
    if (!ok) return std::nullopt;
    return api;
}

std::optional<std::string> rawCompile(const RawNvvm& api, const std::string& module,
                                      const std::string* libdevice, std::string& error, const char* arch) {
    nvvmProgram prog = nullptr;
    nvvmResult r = api.create(&prog);
    if (r != NVVM_SUCCESS) {
        error = std::string("nvvmCreateProgram: ") + api.errorString(r);
        return std::nullopt;
    }
    auto fail = [&](const char* call, nvvmResult code) {
        size_t n = 0;
        std::string log;
        if (api.logSize(prog, &n) == NVVM_SUCCESS && n > 1) {
            log.resize(n);
            api.log(prog, log.data());
            log.resize(std::strlen(log.c_str()));
        }
        error = std::string(call) + ": " + api.errorString(code) + (log.empty() ? "" : "\n" + log);
        api.destroy(&prog);
        return std::nullopt;
    };
    if ((r = api.add(prog, module.data(), module.size(), "big.ll")) != NVVM_SUCCESS)
        return fail("nvvmAddModuleToProgram", r);
    if (libdevice &&
        (r = api.lazyAdd(prog, libdevice->data(), libdevice->size(), "libdevice.10.bc")) != NVVM_SUCCESS)
        return fail("nvvmLazyAddModuleToProgram", r);
    const std::string archFlag = std::string("-arch=") + arch;
    const char* options[] = {archFlag.c_str()};
    if ((r = api.compile(prog, 1, options)) != NVVM_SUCCESS) return fail("nvvmCompileProgram", r);
    size_t size = 0;
    if ((r = api.resultSize(prog, &size)) != NVVM_SUCCESS) return fail("nvvmGetCompiledResultSize", r);
    std::string ptx(size, '\0');
    if ((r = api.result(prog, ptx.data())) != NVVM_SUCCESS) return fail("nvvmGetCompiledResult", r);
    api.destroy(&prog);
    while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
    return ptx;
}

}  // namespace nvpg::bench
