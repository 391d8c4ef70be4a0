#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pipeline/CompileResult.h"
#include "pipeline/Job.h"

namespace nvpg::pipeline {

// The machine-readable account of one job, as `nvpg compile --report` writes it: kernels with
// their parameters and ptxas figures, the libdevice functions linked, diagnostics and stage
// timings. `inputs` names what was compiled.
nlohmann::ordered_json reportJson(const Job& job, const CompileResult& result, const std::vector<std::string>& inputs);

}  // namespace nvpg::pipeline
