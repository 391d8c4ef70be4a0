#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nvvm.h>

namespace nvpg::bench {

// libNVVM's entry points, resolved with dlsym: what a program embedding libNVVM calls.
struct RawNvvm {
    decltype(&nvvmCreateProgram) create = nullptr;
    decltype(&nvvmAddModuleToProgram) add = nullptr;
    decltype(&nvvmLazyAddModuleToProgram) lazyAdd = nullptr;
    decltype(&nvvmVerifyProgram) verify = nullptr;
    decltype(&nvvmCompileProgram) compile = nullptr;
    decltype(&nvvmGetCompiledResultSize) resultSize = nullptr;
    decltype(&nvvmGetCompiledResult) result = nullptr;
    decltype(&nvvmGetProgramLogSize) logSize = nullptr;
    decltype(&nvvmGetProgramLog) log = nullptr;
    decltype(&nvvmDestroyProgram) destroy = nullptr;
    decltype(&nvvmGetErrorString) errorString = nullptr;
};

// dlopens libNVVM (never closed) and resolves the table; says why on stderr when it cannot.
std::optional<RawNvvm> loadRawNvvm(const std::filesystem::path& path);

// The plain call sequence: create, add the module, lazily add libdevice when given, compile with
// -arch=`arch`, get the result, destroy. Returns the PTX, or nothing with `error` set (the failing
// call, its error string and the program log).
std::optional<std::string> rawCompile(const RawNvvm& api, const std::string& module, const std::string* libdevice,
                                      std::string& error, const char* arch = "compute_90");

// The calls numba-cuda makes (and nvpg): create, add each module in order, [verify with
// `options`], lazily add libdevice when given, compile with `options`, get the result, destroy.
std::optional<std::string> rawCompileAsNumba(const RawNvvm& api, const std::vector<std::string>& modules,
                                             const std::string* libdevice, const std::vector<std::string>& options,
                                             bool verify, std::string& error);

}  // namespace nvpg::bench
