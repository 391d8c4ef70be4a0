#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ptx/Ptx.h"

namespace nvpg::ptx {

// One run of ptxas on a PTX module.
struct PtxasRun {
    bool ok = false;
    std::string command;               // "ptxas -arch=sm_90 -v", for saying where figures come from
    std::string log;                   // ptxas' output, stdout and stderr together
    std::vector<ResourceUsage> usage;  // from the log; constBytes from the cubin's sections
    std::string cubin;                 // what ptxas wrote, when ok
    std::string error;                 // when not ok: ptxas' own error lines, or why it did not run
    double seconds = 0;
};

// Assembles `ptx` with `ptxas -arch=<smArch> -v` as a whole program (not -c): what the driver does
// with PTX it loads, so the figures are those of the code that runs. nvJitLink compiles PTX input
// relocatably instead, which gives other registers and stack frames. The PTX and the cubin go
// through a temporary folder under TMPDIR, removed afterwards.
// `extraArgs` go after -v (-lineinfo for a line-mapped cubin).
PtxasRun assembleWholeProgram(const std::filesystem::path& ptxas, std::string_view ptx, std::string_view smArch,
                              const std::vector<std::string>& extraArgs = {});

// The sizes of a cubin's (ELF64) `.nv.constant<N>.<function>` sections, per function: its
// constant-bank bytes, which ptxas no longer prints (CUDA 13). Empty for what is not such an ELF.
std::vector<std::pair<std::string, uint64_t>> cubinConstantBytes(std::string_view cubin);
// Sets each function's constBytes from the cubin's sections, where the cubin has them.
void setConstantBytes(std::string_view cubin, std::vector<ResourceUsage>& usage);

}  // namespace nvpg::ptx
