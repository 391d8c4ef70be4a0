#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/inspect/InstructionMix.h"
#include "core/pipeline/CompileResult.h"
#include "core/pipeline/Job.h"

namespace nvpg::pipeline {

// The machine-readable account of one job, as `nvpg compile --report` writes it: kernels with
// their parameters and ptxas figures, the libdevice functions linked, diagnostics and stage
// timings. `inputs` names what was compiled.
// Each function's instruction mix, from the SASS the job ends with where there is one, else from
// the PTX that cubin would be made of (the LTO-linked PTX when the job links): what the report's
// "mix" and the app's Analysis dock show.
struct Mixes {
    std::string source;  // "sass" or "ptx"
    std::vector<inspect::InstructionMix> functions;
    const inspect::InstructionMix* find(std::string_view function) const;
};
Mixes mixesOf(const CompileResult& result);

nlohmann::ordered_json reportJson(const Job& job, const CompileResult& result, const std::vector<std::string>& inputs);

}  // namespace nvpg::pipeline
