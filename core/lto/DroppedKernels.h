#pragma once

#include <string>
#include <vector>

#include "nvvm/Diagnostic.h"
#include "nvvm/Module.h"

namespace nvpg::lto {

// nvJitLink's LTO keeps only the kernels that @llvm.used lists, and libNVVM and nvJitLink both
// report success while dropping the rest. One warning per kernel that is in `ptxEntries` but
// not in `linkedEntries`, placed on the kernel's `define` when a text module has it, with the
// @llvm.used line to add.
std::vector<nvvm::Diagnostic> droppedKernelWarnings(const std::vector<std::string>& ptxEntries,
                                                    const std::vector<std::string>& linkedEntries,
                                                    const std::vector<nvvm::Module>& modules);

// The kernels that those warnings name, in their order: what a front end lists as "dropped by
// LTO" without comparing the PTXs again.
std::vector<std::string> droppedKernels(const std::vector<nvvm::Diagnostic>& diagnostics);

// The IR that keeps `kernel` through LTO: the @llvm.used global (typed pointers, or `ptr` for
// the modern dialect). `paramTypes` come from the kernel's definition.
std::string llvmUsedLine(const std::string& kernel, const std::vector<std::string>& paramTypes,
                         bool opaquePointers);
// One element of that array, for a module that already has @llvm.used.
std::string llvmUsedEntry(const std::string& kernel, const std::vector<std::string>& paramTypes,
                          bool opaquePointers);

}  // namespace nvpg::lto
