#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/inspect/LineMap.h"
#include "core/inspect/LiveRegisters.h"
#include "core/inspect/Sass.h"
#include "core/nvvm/Diagnostic.h"
#include "core/pipeline/Stage.h"
#include "core/ptx/Ptx.h"

namespace nvpg::pipeline {

// How long a stage of the job took.
struct Stage {
    StageId id = StageId::CompilePtx;
    double seconds = 0;
};

struct Kernel {
    std::string name;
    std::vector<ptx::Param> params;
    // With kFigures: its figures in the code the job ends with, the LTO cubin's when the job
    // links LTO, else the PTX's (ptxFigures / ltoFigures have each output's).
    std::optional<ptx::ResourceUsage> usage;
};

// ptxas' figures for the code of one output, and where they come from.
struct Figures {
    // How they were made, as a person would redo it: "ptxas -arch=sm_90 -v of the PTX (whole
    // program, as the driver loads PTX)". Empty when none were made.
    std::string source;
    std::vector<ptx::ResourceUsage> functions;  // in ptxas' order; kernels have isEntry
    std::string unavailable;                    // why there are none, when they were wanted
    const ptx::ResourceUsage* find(std::string_view function) const;
};

struct LtoIr {
    std::string name;  // the program, or the module it came from in separate mode
    std::string bytes;
};

// What one Job gave: every output it asked for, what libNVVM and nvJitLink said, and how long
// each stage took. Plain data: it crosses the engine protocol and front ends only read it.
struct CompileResult {
    uint64_t generation = 0;
    bool ok = false;                 // every wanted output was produced, no error diagnostics
    std::string arch;                // the compute_NN the program was compiled for
    std::vector<std::string> flags;  // the libNVVM flags of the PTX compile, arch included
    std::string archSource;          // "options", "local GPU <name>", "libNVVM default"
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
    // nvJitLink's options of the LTO links, -arch first, without -ptx and -verbose.
    std::vector<std::string> linkFlags;
    Figures ptxFigures;  // with kFigures: the PTX assembled as a whole program, as the driver loads it
    Figures ltoFigures;  // with kFigures or kCubin: the LTO-linked cubin's
    // With kSass: `nvdisasm -c` of the cubin the job ends with (the LTO link's when it links,
    // else ptxas' whole-program cubin of the PTX), its functions' instruction counts, what made
    // it ("nvdisasm -c of the LTO-linked cubin (nvJitLink -arch=sm_90 -lto)"), or why there is
    // none ("nvdisasm was not found: …how to get it").
    std::string sass;
    std::vector<inspect::SassFunction> sassFunctions;
    std::string sassSource;
    std::string sassUnavailable;
    // With kLiveRegisters: the live registers at each instruction of readSass(sass), in order, or
    // why there are none.
    std::vector<inspect::LiveCount> sassLive;
    std::string sassLiveUnavailable;
    // With kSassGraph: nvdisasm -bbcfg's DOT of the same cubin, or why there is none.
    std::string sassGraph;
    std::string sassGraphUnavailable;
    // In the result Pipeline::run's onPlain hears: the SASS is being made, and comes with the
    // complete result.
    bool sassPending = false;
    // With Job::lineMap: the line map, once the twin's compile is done (null in the result
    // Pipeline::run's onPlain hears, and when it was not asked for).
    std::shared_ptr<const inspect::LineMap> lineMap;
    // The PTX part alone (Pipeline::run's onPtx): the PTX, its kernels, libNVVM's diagnostics;
    // the LTO outputs, the figures and what follows them come with the whole result.
    bool partial = false;
    bool reusedProgram = false;  // the Program of the previous job was compiled again
    // Answered by the result cache (cache::ResultCache) for a job whose every input was seen
    // before: nothing was compiled, and the stages and seconds are those of the compile that made it.
    bool fromCache = false;
    double seconds = 0;

    bool hasErrors() const;
    double stageSeconds(StageId id) const;     // 0 for a stage that did not run
    const Stage* findStage(StageId id) const;  // null for a stage that did not run
};

}  // namespace nvpg::pipeline
