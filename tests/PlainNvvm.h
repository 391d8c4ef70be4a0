// The plain libNVVM call sequence, written out call by call with no nvpg code in between: what
// tests compare nvpg's output against.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/toolkit/NvvmApi.h"

namespace nvpg::test {

struct PlainModule {
    std::string name;
    std::string bytes;
    bool lazy = false;
};

// create, add each module (lazily where asked), compile with `flags`, read the result.
// Returns the result without the trailing NUL, or "ERROR: <log>" when anything fails.
inline std::string plainCompile(const toolkit::NvvmApi& api, const std::vector<PlainModule>& modules,
                                const std::vector<std::string>& flags, bool keepNul = false) {
    nvvmProgram prog = nullptr;
    if (api.createProgram(&prog) != NVVM_SUCCESS) return "ERROR: create";
    for (const auto& m : modules) {
        const auto add = m.lazy ? api.lazyAddModuleToProgram : api.addModuleToProgram;
        if (add(prog, m.bytes.data(), m.bytes.size(), m.name.c_str()) != NVVM_SUCCESS) {
            api.destroyProgram(&prog);
            return "ERROR: add " + m.name;
        }
    }
    std::vector<const char*> argv;
    for (const auto& f : flags) argv.push_back(f.c_str());
    const nvvmResult r = api.compileProgram(prog, static_cast<int>(argv.size()), argv.data());
    std::string out;
    if (r != NVVM_SUCCESS) {
        size_t n = 0;
        api.getProgramLogSize(prog, &n);
        std::string log(n, '\0');
        api.getProgramLog(prog, log.data());
        out = "ERROR: " + log;
    } else {
        size_t n = 0;
        api.getCompiledResultSize(prog, &n);
        out.resize(n);
        api.getCompiledResult(prog, out.data());
        if (!keepNul)
            while (!out.empty() && out.back() == '\0') out.pop_back();
    }
    api.destroyProgram(&prog);
    return out;
}

}  // namespace nvpg::test
