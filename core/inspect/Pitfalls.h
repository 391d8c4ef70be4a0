#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/nvvm/Diagnostic.h"
#include "core/nvvm/IrVersion.h"
#include "core/nvvm/Module.h"
#include "core/nvvm/Options.h"
#include "core/ptx/Ptx.h"

namespace nvpg::inspect {

// What the known pitfalls' hints need to know about the compile that gave the diagnostics.
struct PitfallContext {
    const std::vector<nvvm::Module>& modules;
    const nvvm::Options& options;  // as passed to libNVVM, the chosen arch included
    bool libdevice = false;
    nvvm::IrVersion irVersion;
};

// libNVVM 13.0's own "Example valid data layout" (its verifier's DataLayoutError), by pointer size.
inline constexpr std::string_view kValidLayout64 =
    "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-"
    "v64:64:64-v128:128:128-n16:32:64";
inline constexpr std::string_view kValidLayout32 =
    "e-p:32:32:32-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-"
    "v64:64:64-v128:128:128-n16:32:64";

// Recognises libNVVM's (and nvpg's) messages for the known pitfalls (docs/user/libnvvm.md, "Known pitfalls") in
// the diagnostics of a failed or finished compile: each such diagnostic is placed where the cause
// is, says in plain words what is wrong and carries a Fix that mends it. Others are left alone.
void explainPitfalls(std::vector<nvvm::Diagnostic>& diagnostics, const PitfallContext& context);

// A program whose PTX has no .entry has nothing to run: a warning, with the fix that annotates
// it, on every define that looks meant as a kernel (returns void, is not internal, no module
// calls it). Empty when `ptxHasEntry`.
std::vector<nvvm::Diagnostic> unannotatedKernels(const std::vector<nvvm::Module>& modules, bool ptxHasEntry);

// libdevice functions the program calls while libdevice is not linked and no module defines
// them. Nothing can resolve them (ptxas, nvJitLink and the driver each stop at "Unresolved extern
// function"), whatever output was asked for, so each is an error: one per function, on the first
// IR line that calls it (else its declaration), with the fix that links libdevice. Read from the
// text modules, and from the PTX's .extern declarations for what bitcode calls (`ptx` may be
// empty). Empty when `libdevice`.
std::vector<nvvm::Diagnostic> unresolvedLibdeviceCalls(const std::vector<nvvm::Module>& modules,
                                                       const ptx::PtxModule& ptx, bool libdevice);

// The text of `!nvvmir.version = !{!N}` / `!N = !{...}` for the module `text`: N a metadata number
// it does not use yet, with the debug pair when it has debug info.
std::string irVersionLines(std::string_view text, const nvvm::IrVersion& version);

}  // namespace nvpg::inspect
