#pragma once

#include <cstdint>
#include <vector>

#include "core/lto/Mode.h"
#include "core/nvvm/Module.h"
#include "core/nvvm/Options.h"

namespace nvpg::pipeline {

// What a job should produce. PTX is always compiled when anything but LTO-IR alone is wanted,
// since the link arch and the dropped-kernel check come from it.
enum Output : unsigned {
    kPtx = 1u << 0,      // libNVVM's PTX of the whole program
    kLtoIr = 1u << 1,    // -gen-lto output
    kLtoPtx = 1u << 2,   // nvJitLink's LTO link to PTX
    kCubin = 1u << 3,    // nvJitLink's LTO link to cubin
    kFigures = 1u << 4,  // ptxas registers/spills per kernel (an extra cubin link when needed)
    kSass = 1u << 5,     // nvdisasm of the cubin the job ends with (LTO's, else ptxas' of the PTX)
    // With kSass: the registers live at each of its instructions (nvdisasm -lrm count of the same
    // cubin, run beside the listing).
    kLiveRegisters = 1u << 6,
    // With kSass: its basic-block control-flow graph (nvdisasm -bbcfg, beside the listing).
    kSassGraph = 1u << 7,
};

// A snapshot of everything a compile depends on. Front ends fill it and hand it over; the
// pipeline never reads front-end state.
struct Job {
    std::vector<nvvm::Module> modules;
    nvvm::Options options;  // options.genLto is ignored: `outputs` decide what is compiled
    bool libdevice = false;
    // libNVVM's verifier runs before the compile, and what it refuses is not compiled. Off, IR
    // that only the verifier refuses is compiled anyway, to see what libNVVM makes of it.
    bool verify = true;
    lto::Mode ltoMode = lto::Mode::Program;
    unsigned outputs = kPtx;
    bool verifyOnly = false;  // the verifier alone, whatever `verify` says
    // The IR ↔ output line map of every wanted output (PTX, LTO PTX, SASS), from a
    // line-annotated twin compiled after the plain job (Pipeline::run). The outputs stay the
    // plain ones, byte for byte.
    bool lineMap = false;
    // With no arch in options: use the local GPU's when there is one, else libNVVM's default.
    bool archFromGpu = true;
    uint64_t generation = 0;  // copied into the result, for front ends that drop stale ones
};

// Whether some of the job's outputs come after its plain result (Pipeline::run's onPlain): the
// SASS and the line map. Front ends hear such a job twice: the plain result, then the rest.
inline bool hasLateOutputs(const Job& job) {
    return job.lineMap || (job.outputs & kSass);
}

}  // namespace nvpg::pipeline
