#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/gpu/RunConfig.h"
#include "core/pipeline/CompileResult.h"
#include "core/ptx/Ptx.h"

namespace nvpg::pipeline {

// A run configuration as a person is typing it (the Runs panel's fields): grid, block and
// arguments as text, each argument beside the PTX parameter it is for.
struct RunDraft {
    // Name, kernel, shared bytes, repeat, timeout and fromLto; its grid, block and args are unused.
    gpu::RunConfig config;
    std::string grid, block;
    std::vector<std::string> specs;                 // one per argument row
    std::vector<std::optional<ptx::Param>> params;  // the row's parameter, when the kernel is compiled
};

// What the draft says: the configuration made of what parses, and each problem placed on the
// field it belongs to, in core's words (the ones nvpg run says).
struct DraftCheck {
    gpu::RunConfig config;               // arguments that do not parse are left out
    std::vector<std::string> argErrors;  // one per row; "" when the row is fine
    std::string gridError, blockError;
    std::vector<std::string> problems;  // all of them, in the order the panel lists them
    bool parses = false;                // every field parses and a kernel is named: it can be saved
};

// The configuration the draft's fields make (what does not parse keeps its default).
gpu::RunConfig configOf(const RunDraft& draft);

// `compiled`: the last successful compile, or null. Each argument is checked against its
// parameter alone so that its message lands on its row, then the whole configuration
// (kernel present, launch shape) when every part of it is sound.
DraftCheck checkRunDraft(const RunDraft& draft, const CompileResult* compiled);

}  // namespace nvpg::pipeline
