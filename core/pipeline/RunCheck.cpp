#include "core/pipeline/RunCheck.h"

#include <vector>

#include <fmt/format.h>

#include "core/support/Text.h"

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::pipeline {

support::Result<const ptx::Function*> findKernel(const CompileResult& compiled, const std::string& kernel,
                                                 bool fromLto) {
    const auto* k = kernel.empty() ? nullptr : compiled.ptxModule.find(kernel);
    if (!k || !k->isEntry) {
        std::vector<std::string> names;
        for (const auto* e : compiled.ptxModule.entries()) names.push_back(e->name);
        if (names.empty())
            return makeError(ErrorKind::Usage,
                             "the program has no kernels: mark one with !nvvm.annotations "
                             "... !\"kernel\", i32 1");
        if (kernel.empty())
            return makeError(ErrorKind::Usage,
                             fmt::format("no kernel is chosen; the kernels are {}", support::join(names, ", ")));
        return makeError(ErrorKind::Usage,
                         fmt::format("there is no kernel {}; the kernels are {}", kernel, support::join(names, ", ")));
    }
    if (fromLto) {
        if (compiled.cubin.empty())
            return makeError(ErrorKind::Usage, "running from LTO needs the LTO cubin, and this compile made none");
        if (!compiled.linkedPtx.empty() && !compiled.linkedPtxModule.find(kernel))
            return makeError(ErrorKind::Usage,
                             fmt::format("kernel {} is not in the LTO cubin: nvJitLink's LTO dropped it because "
                                         "@llvm.used does not list it (see the warning), or run from PTX",
                                         kernel));
    }
    return k;
}

support::Result<const ptx::Function*> checkRun(const CompileResult& compiled, const gpu::RunConfig& config) {
    auto k = findKernel(compiled, config.kernel, config.fromLto);
    if (!k) return k;
    if (auto st = gpu::checkRunConfig(config, **k); !st) return st.error();
    return k;
}

}  // namespace nvpg::pipeline
