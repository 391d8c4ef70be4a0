#pragma once

#include <string>

#include "core/gpu/RunConfig.h"
#include "core/pipeline/CompileResult.h"
#include "core/ptx/Ptx.h"
#include "core/support/Result.h"

namespace nvpg::pipeline {

// What can be said about a run before any GPU work, with the same words in nvpg, the Run panel
// and the engine: each a Usage error a person can act on.

// The kernel `kernel` of a compiled program: an error when the program has no kernels (with
// the annotation that makes one), when there is no such kernel (listing the kernels), and,
// for a run from LTO, when the compile made no cubin or LTO dropped the kernel.
support::Result<const ptx::Function*> findKernel(const CompileResult& compiled, const std::string& kernel,
                                                 bool fromLto);

// findKernel, then gpu::checkRunConfig: whether `config` can be launched on `compiled`.
support::Result<const ptx::Function*> checkRun(const CompileResult& compiled, const gpu::RunConfig& config);

}  // namespace nvpg::pipeline
