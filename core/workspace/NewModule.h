#pragma once

#include <string>
#include <vector>

#include "core/gpu/RunConfig.h"
#include "core/nvvm/IrVersion.h"
#include "core/nvvm/Module.h"

namespace nvpg::workspace {

// What Module ▸ New Module and the start page's "New module" add: a complete small kernel that
// compiles, survives LTO and runs as it is (datalayout, triple, the kernel annotation, @llvm.used,
// !nvvmir.version), and the run configuration that launches it. A teacher's first kernel starts
// from something that works instead of an empty module that compiles to nothing.
struct ModuleTemplate {
    nvvm::Module module;
    gpu::RunConfig run;
};

// `name` is the module's (already unique) name; the kernel is named `scale`, or `scale_2`, ...
// when a text module of `others` already has a function of that name (one program, one symbol).
// `version`: the loaded libNVVM's, for !nvvmir.version.
ModuleTemplate newModuleTemplate(const std::string& name, const std::vector<nvvm::Module>& others,
                                 nvvm::IrVersion version);

}  // namespace nvpg::workspace
