#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nvvm/Diagnostic.h"
#include "pipeline/Stage.h"
#include "ptx/Ptx.h"

namespace nvpg::pipeline {

// How long a stage of the job took.
struct Stage {
    StageId id = StageId::CompilePtx;
    double seconds = 0;
};

struct Kernel {
    std::string name;
    std::vector<ptx::Param> params;
    std::optional<ptx::ResourceUsage> usage;  // with kFigures
};

struct LtoIr {
    std::string name;  // the program, or the module it came from in separate mode
    std::string bytes;
};

// What one Job gave: every output it asked for, what libNVVM and nvJitLink said, and how long
// each stage took. Plain data: it crosses the engine protocol and front ends only read it.
struct CompileResult {
    uint64_t generation = 0;
    bool ok = false;         // every wanted output was produced, no error diagnostics
    std::string arch;        // the compute_NN the program was compiled for
    std::vector<std::string> flags;  // the libNVVM flags of the PTX compile, arch included
    std::string archSource;  // "options", "local GPU <name>", "libNVVM default"
    std::string ptx;
    std::vector<LtoIr> ltoIr;  // one in program mode, one per module in separate mode
    std::string linkedPtx;
    std::string cubin;
    ptx::PtxModule ptxModule;
    ptx::PtxModule linkedPtxModule;
    std::vector<Kernel> kernels;                  // the PTX's entries
    std::vector<std::string> libdeviceFunctions;  // what libdevice supplied, with libdevice on
    std::vector<nvvm::Diagnostic> diagnostics;
    std::vector<Stage> stages;
    std::string nvvmLog;      // libNVVM's log of the PTX compile (or verify)
    std::string linkInfoLog;  // nvJitLink -verbose (ptxas) of the cubin link
    bool reusedProgram = false;  // the Program of the previous job was compiled again
    double seconds = 0;

    bool hasErrors() const;
    double stageSeconds(StageId id) const;  // 0 for a stage that did not run
    const Stage* findStage(StageId id) const;  // null for a stage that did not run
};

}  // namespace nvpg::pipeline
