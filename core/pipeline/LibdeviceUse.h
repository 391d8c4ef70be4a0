#pragma once

#include <string>
#include <vector>

#include "core/inspect/LineMap.h"
#include "core/pipeline/CompileResult.h"
#include "core/pipeline/Job.h"

namespace nvpg::pipeline {

// An IR line that calls a libdevice function.
struct LibdeviceCall {
    std::string module;
    int line = 0;  // 1-based, in the module's text (a bitcode module: its llvm-dis-14 text)
    bool operator==(const LibdeviceCall&) const = default;
};

// How much of one output a libdevice function became, and how that was found out.
struct LibdeviceSize {
    // How the figure was found, as a person would check it: "PTX lines the line map gives its
    // call lines" or "the body of `.func __nv_sinf` in the PTX". Empty when there is no figure.
    std::string how;
    // Why there is no figure ("no line map: …", "inlined into __nv_powf, which pulls it in: its
    // code is counted there"). Empty when there is one.
    std::string unavailable;
    std::vector<inspect::LineRange> lines;  // the output's lines (1-based, sorted, merged)
    int count = 0;                          // lines of PTX; SASS: instructions
    bool known() const { return unavailable.empty(); }
};

// What the program made of one linked libdevice function.
struct LibdeviceUse {
    std::string name;                     // "__nv_sinf"
    std::string signature;                // "float __nv_sinf(float %a)", from libdevice's table
    std::vector<LibdeviceCall> calls;     // the program's IR lines that call it, by module then line
    std::vector<std::string> pulls;       // the linked libdevice functions it calls
    std::vector<std::string> pulledInBy;  // the linked libdevice functions that call it
    LibdeviceSize ptx;                    // in CompileResult::ptx
    LibdeviceSize sass;                   // in CompileResult::sass
};

// Each function of result.libdeviceFunctions, in that order. Call lines come from the text
// modules (and, for bitcode, from the line map's call lines that became code). The sizes: a
// function that stayed a `.func` (or a SASS function) is its body; one inlined at its call lines
// is what the line map gives those lines; a function inlined into another libdevice function
// has no figure of its own (its code is in the caller's).
std::vector<LibdeviceUse> libdeviceUses(const Job& job, const CompileResult& result);

// The lines of the `.func`/`.entry` named `name` in `ptx`, from its declaration to the brace that
// closes its body; empty when the PTX only declares it (.extern) or has no such function.
inspect::LineRange ptxFunctionLines(const ptx::PtxModule& module, std::string_view ptx, std::string_view name);

}  // namespace nvpg::pipeline
