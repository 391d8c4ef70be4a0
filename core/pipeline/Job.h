#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lto/Mode.h"
#include "nvvm/Diagnostic.h"
#include "nvvm/Module.h"
#include "nvvm/Options.h"
#include "pipeline/Stage.h"
#include "ptx/Ptx.h"

namespace nvpg::pipeline {

// What a job should produce. PTX is always compiled when anything but LTO-IR alone is wanted,
// since the link arch and the dropped-kernel check come from it.
enum Output : unsigned {
    kPtx = 1u << 0,      // libNVVM's PTX of the whole program
    kLtoIr = 1u << 1,    // -gen-lto output
    kLtoPtx = 1u << 2,   // nvJitLink's LTO link to PTX
    kCubin = 1u << 3,    // nvJitLink's LTO link to cubin
    kFigures = 1u << 4,  // ptxas registers/spills per kernel (an extra cubin link when needed)
};

// A snapshot of everything a compile depends on. Front ends fill it and hand it over; the
// pipeline never reads front-end state.
struct Job {
    std::vector<nvvm::Module> modules;
    nvvm::Options options;  // options.genLto is ignored: `outputs` decide what is compiled
    bool libdevice = false;
    lto::Mode ltoMode = lto::Mode::Program;
    unsigned outputs = kPtx;
    bool verifyOnly = false;
    // With no arch in options: use the local GPU's when there is one, else libNVVM's default.
    bool archFromGpu = true;
    uint64_t generation = 0;  // copied into the result, for front ends that drop stale ones
};

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

struct Result {
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
