#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/nvvm/Diagnostic.h"
#include "core/nvvm/Module.h"

namespace nvpg::lto {

// nvJitLink's LTO keeps only the kernels that @llvm.used lists, and libNVVM and nvJitLink both
// report success while dropping the rest. One warning per kernel that is in `ptxEntries` but
// not in `linkedEntries`, placed on the kernel's `define` when a text module has it, with the
// @llvm.used fix. Every warning about one module carries the same complete fix for all of that
// module's dropped kernels (one line to add, or the corrected existing line): the Problems list
// shows each warning alone and in any order, so whichever one a person applies must be whole,
// and applying a second one then changes nothing.
std::vector<nvvm::Diagnostic> droppedKernelWarnings(const std::vector<std::string>& ptxEntries,
                                                    const std::vector<std::string>& linkedEntries,
                                                    const std::vector<nvvm::Module>& modules);

// The kernels that those warnings name, in their order: what a front end lists as "dropped by
// LTO" without comparing the PTXs again.
std::vector<std::string> droppedKernels(const std::vector<nvvm::Diagnostic>& diagnostics);

// A kernel to list in @llvm.used; `paramTypes` come from its definition.
struct UsedKernel {
    std::string name;
    std::vector<std::string> paramTypes;
};

// The IR that keeps `kernels` through LTO: one @llvm.used global listing them all (typed
// pointers, or `ptr` for the modern dialect). A module may define @llvm.used once only, so the
// kernels LTO dropped from one module go into one line.
std::string llvmUsedLine(const std::vector<UsedKernel>& kernels, bool opaquePointers);
std::string llvmUsedLine(const std::string& kernel, const std::vector<std::string>& paramTypes, bool opaquePointers);
// An existing one-line @llvm.used definition with `entries` appended and its length raised to
// match; nullopt when `line` is not of the form `@llvm.used = ... [N x T] [...], ...`.
std::optional<std::string> withLlvmUsedEntries(std::string_view line, const std::vector<std::string>& entries);
// One element of that array, for a module that already has @llvm.used.
std::string llvmUsedEntry(const std::string& kernel, const std::vector<std::string>& paramTypes, bool opaquePointers);

}  // namespace nvpg::lto
