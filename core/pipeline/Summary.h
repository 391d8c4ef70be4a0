#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/pipeline/CompileResult.h"

namespace nvpg::pipeline {

// What the output panes say about a result, as plain text: each pane's header line and its
// tooltip, and why a pane has no text. The GUI only displays these; they are kept here so that
// what a result means is worked out once, without Qt, and tested as text.
// One output's per-kernel figures as the pane's table shows them.
struct FiguresTable {
    // "Figures: <where they come from>", or "No figures: <why>"; empty when none were asked for.
    std::string caption;
    std::vector<std::string> columns;            // "kernel", "regs", "spill st", ...
    std::vector<std::vector<std::string>> rows;  // a kernel each: its name, then its figures
};

struct PaneSummary {
    std::string header;   // "PTX · 12.5 KiB · 2 kernels · libNVVM 3.1 ms · compute_90 (options)"
    std::string toolTip;  // lines joined with '\n'; the details the header leaves out
    std::string notice;   // why the pane has no text; empty when it has
    FiguresTable figures;
};

struct ResultSummary {
    PaneSummary ptx;
    PaneSummary lto;
    // Kernels of the PTX that the LTO link left out, from the pipeline's dropped-kernel warnings.
    std::vector<std::string> droppedKernels;
};

// `ltoUnavailable` is what the front end knows and the result does not: why nvJitLink is
// missing here. It is the LTO notice of a PTX-only result when given. Kernel names in the
// headers are support::readableName's, cut by support::elideName; `rawNames`: the symbols, cut.
// The tooltips have each name whole and its symbol; the tables keep the symbols (views label them).
ResultSummary summarizeResult(const CompileResult& result, std::string_view ltoUnavailable = {}, bool rawNames = false);

// The stage whose failure ended a result (the pipeline stops at the first that fails), and the
// pane its output belongs in: the LTO pane for LTO-IR and the links, the PTX pane for the PTX
// compile and for assembling the PTX (its figures). Nothing for a result that did not fail.
struct Failure {
    StageId stage = StageId::CompilePtx;
    bool ltoPane = false;
    std::string mark;  // the pane header's words: "link LTO-IR to cubin failed"
};
std::optional<Failure> failureOf(const CompileResult& result);

// The one-line banner for a failed compile, naming the stage and the first error: "Compile
// failed with 2 errors (see Problems): a.ll:3:1: error: ...", "Link LTO-IR to cubin failed with
// 1 error (see Problems): ...". Empty when the result has no error.
// `pointAtProblems` adds "(see Problems)", the app's dock that lists them all; nvpg has none (it
// prints every diagnostic itself).
std::string failureSummary(const CompileResult& result, bool pointAtProblems = true);

// "0.42 ms", "12.3 ms", "1.25 s": stage times as the headers write them.
std::string formatSeconds(double seconds);

}  // namespace nvpg::pipeline
