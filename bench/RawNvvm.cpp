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
    const bool ok =
        resolve(lib, api.create, "nvvmCreateProgram") && resolve(lib, api.add, "nvvmAddModuleToProgram") &&
        resolve(lib, api.lazyAdd, "nvvmLazyAddModuleToProgram") && resolve(lib, api.verify, "nvvmVerifyProgram") &&
        resolve(lib, api.compile, "nvvmCompileProgram") && resolve(lib, api.resultSize, "nvvmGetCompiledResultSize") &&
        resolve(lib, api.result, "nvvmGetCompiledResult") && resolve(lib, api.logSize, "nvvmGetProgramLogSize") &&
        resolve(lib, api.log, "nvvmGetProgramLog") && resolve(lib, api.destroy, "nvvmDestroyProgram") &&
        resolve(lib, api.errorString, "nvvmGetErrorString");
    if (!ok) return std::nullopt;
    return api;
}

std::optional<std::string> rawCompile(const RawNvvm& api, const std::string& module, const std::string* libdevice,
                                      std::string& error, const char* arch) {
    return rawCompileAsNumba(api, {module}, libdevice, {std::string("-arch=") + arch}, false, error);
}

std::optional<std::string> rawCompileAsNumba(const RawNvvm& api, const std::vector<std::string>& modules,
                                             const std::string* libdevice, const std::vector<std::string>& options,
                                             bool verify, std::string& error) {
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
    for (size_t i = 0; i < modules.size(); ++i) {
        const std::string name = modules.size() == 1 ? "big.ll" : "m" + std::to_string(i) + ".ll";
        if ((r = api.add(prog, modules[i].data(), modules[i].size(), name.c_str())) != NVVM_SUCCESS)
            return fail("nvvmAddModuleToProgram", r);
    }
    std::vector<const char*> flags;
    for (const auto& o : options) flags.push_back(o.c_str());
    if (verify && (r = api.verify(prog, int(flags.size()), flags.data())) != NVVM_SUCCESS)
        return fail("nvvmVerifyProgram", r);
    if (libdevice && (r = api.lazyAdd(prog, libdevice->data(), libdevice->size(), "libdevice.10.bc")) != NVVM_SUCCESS)
        return fail("nvvmLazyAddModuleToProgram", r);
    if ((r = api.compile(prog, int(flags.size()), flags.data())) != NVVM_SUCCESS) return fail("nvvmCompileProgram", r);
    size_t size = 0;
    if ((r = api.resultSize(prog, &size)) != NVVM_SUCCESS) return fail("nvvmGetCompiledResultSize", r);
    std::string ptx(size, '\0');
    if ((r = api.result(prog, ptx.data())) != NVVM_SUCCESS) return fail("nvvmGetCompiledResult", r);
    api.destroy(&prog);
    while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
    return ptx;
}

}  // namespace nvpg::bench
