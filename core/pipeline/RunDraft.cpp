#include "core/pipeline/RunDraft.h"

#include <fmt/format.h>

#include "core/pipeline/RunCheck.h"
#include "core/support/Text.h"

namespace nvpg::pipeline {

gpu::RunConfig configOf(const RunDraft& draft) {
    gpu::RunConfig c = draft.config;
    c.grid = c.block = {};
    c.args.clear();
    if (auto d = gpu::parseDim3(draft.grid, "grid")) c.grid = *d;
    if (auto d = gpu::parseDim3(draft.block, "block")) c.block = *d;
    for (const auto& spec : draft.specs)
        if (auto a = gpu::parseArgSpec(spec)) c.args.push_back(std::move(*a));
    return c;
}

DraftCheck checkRunDraft(const RunDraft& draft, const CompileResult* compiled) {
    DraftCheck out;
    out.config = configOf(draft);
    out.parses = true;
    const ptx::Function* kernel = nullptr;
    // The rows are checked against the PTX's kernel even when LTO dropped it (said below).
    if (compiled)
        if (auto k = findKernel(*compiled, draft.config.kernel, /*fromLto=*/false)) kernel = *k;
    bool argsOk = true;
    for (size_t i = 0; i < draft.specs.size(); ++i) {
        std::string error;
        auto arg = gpu::parseArgSpec(draft.specs[i]);
        const auto& param = i < draft.params.size() ? draft.params[i] : std::nullopt;
        if (!arg) {
            error = fmt::format("argument {}: {}", i, arg.error().message);
            out.parses = false;
        } else if (param && kernel) {
            // The core check on this parameter alone, so that the message lands on its row.
            ptx::Function one;
            one.name = kernel->name;
            one.isEntry = true;
            one.params = {*param};
            gpu::RunConfig single;
            single.args = {*arg};
            if (auto st = gpu::checkRunConfig(single, one); !st) {
                error = st.error().message;
                if (support::startsWith(error, "argument 0 ")) error.replace(0, 10, fmt::format("argument {}", i));
            }
        }
        if (!error.empty()) {
            argsOk = false;
            out.problems.push_back(error);
        }
        out.argErrors.push_back(std::move(error));
    }

    if (auto d = gpu::parseDim3(draft.grid, "grid"); !d) out.gridError = d.error().message;
    if (auto d = gpu::parseDim3(draft.block, "block"); !d) out.blockError = d.error().message;
    if (!out.gridError.empty() || !out.blockError.empty()) out.parses = false;
    if (draft.config.kernel.empty()) out.parses = false;

    // Whether the kernel is there (in the LTO cubin too, when asked): core's words, as nvpg says
    // them.
    if (compiled)
        if (auto found = findKernel(*compiled, draft.config.kernel, draft.config.fromLto); !found)
            out.problems.push_back(found.error().message);
    if (!out.gridError.empty()) out.problems.push_back(out.gridError);
    if (!out.blockError.empty()) out.problems.push_back(out.blockError);
    if (kernel && argsOk && out.gridError.empty() && out.blockError.empty()) {
        // What only the whole configuration shows: the launch shape, repeats, timeout.
        if (auto st = gpu::checkRunConfig(out.config, *kernel); !st) {
            const auto& msg = st.error().message;
            out.problems.push_back(msg);
            if (support::startsWith(msg, "block")) out.blockError = msg;
            if (support::startsWith(msg, "grid")) out.gridError = msg;
        }
    }
    return out;
}

}  // namespace nvpg::pipeline
