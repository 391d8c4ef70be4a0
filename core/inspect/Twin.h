#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/nvvm/IrVersion.h"
#include "core/nvvm/Module.h"
#include "core/support/Result.h"

namespace nvpg::inspect {

// The LLVM 14 tools that let bitcode modules be mapped: llvm-dis-14 gives the text the editor
// shows (whose lines the map names); the annotated text is compiled as text, since libNVVM
// (CUDA 13.0) aborts on bitcode that llvm-as-14 writes with debug metadata. llvm-as-14 is found
// for the tests and tools that assemble text, not needed by the twin.
struct BitcodeTools {
    std::string llvmDis;  // empty: not installed
    std::string llvmAs;
};
// Where PATH has them (llvm-dis-14, llvm-as-14).
BitcodeTools findBitcodeTools();

// A line-annotated twin of one module (shared/DESIGN.md, "Line maps"): every instruction of
// every define has `!dbg` with its own line in `mappedText`, one DISubprogram per define, one
// DICompileUnit (emissionKind: DebugDirectivesOnly) whose DIFile is the module's name, the
// "Debug Info Version" module flag and !nvvmir.version with the debug pair. Debug metadata the
// module already had (numba's lineinfo, -g) is replaced. Compiled with -generate-line-info, its
// PTX carries .loc lines naming `mappedText`'s lines.
struct Twin {
    nvvm::Module module;                // same name and laziness; text (of a bitcode module: its annotated disassembly)
    std::string mappedText;             // the text the line numbers are of: the module's, or llvm-dis-14's
    std::vector<int> instructionLines;  // 1-based lines of mappedText holding an instruction
    // Lines that call a function, and its name ("__nv_sinf"): for labelling inlined bodies.
    std::vector<std::pair<int, std::string>> calls;
};

// The callee of a call instruction when it is named (`call float @__nv_sinf(...)`, numba's
// quoted `call float @"__nv_sinf"(...)`, also after a function type `call i32 (i8*, ...)
// @printf(...)`), without '@' and quotes; nothing for other instructions (a comment line too)
// and for calls through a pointer or a cast.
std::optional<std::string> calleeOf(std::string_view code);

// An Error (Unsupported-style message a pane shows) when the module cannot be annotated:
// bitcode without llvm-dis-14 ("bitcode modules are mapped through their llvm-dis-14
// disassembly: install llvm-14 (llvm-dis-14)"), lazy bitcode (libNVVM loads lazy modules only as
// bitcode, and aborts on llvm-as-14's bitcode with debug metadata), or text the annotator cannot
// read. The twin's program then takes the module itself, unmapped (MappedModule::unmapped = the
// message): libNVVM compiles it as in the plain program, and code inlined from it carries the
// line of the call, as libdevice's does.
support::Result<Twin> makeTwin(const nvvm::Module& module, const nvvm::IrVersion& version, const BitcodeTools& tools);

}  // namespace nvpg::inspect
