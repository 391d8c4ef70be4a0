#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/pipeline/CompileResult.h"
#include "core/support/Diff.h"
#include "core/support/Symbols.h"

namespace nvpg::pipeline {

// Two results of the same modules side by side: two option sets, arches or CUDA toolkits, or a
// pinned result and the current one. What both front ends show of the pair is worked out here.
enum class CompareOutput { Ptx, LtoPtx, Sass };
std::string_view compareOutputName(CompareOutput what);  // "PTX", "LTO PTX", "SASS"

// One kernel's figures in one result's output; nothing where the result has none of that kind.
struct KernelFigures {
    std::optional<int> registers, spillStores, spillLoads;  // ptxas'
    std::optional<int> stackFrame;                          // ptxas' "bytes stack frame"
    std::optional<int> sassInstructions;                    // nvdisasm's count
    std::optional<int> ptxLines;                            // from its .entry line to the next function's, or the end
};
struct KernelRow {
    std::string kernel;
    std::optional<KernelFigures> a, b;  // nothing: the kernel is not in that side's output
};

// How the outputs are diffed. Normalized: equal lines are those equal once each function's
// registers and labels (and in SASS offsets and branch addresses) are renamed by order of first
// use (inspect/Renaming.h), and an edited line is one changed row; the text shown is as written.
// Raw: byte for byte, removed and added lines.
enum class DiffStyle { Normalized, Raw };

struct Comparison {
    CompareOutput output = CompareOutput::Ptx;
    std::string labelA, labelB;
    // The output's text on each side, or why a side has none ("the compile failed", "nvdisasm
    // was not found: ...").
    std::string textA, textB, missingA, missingB;
    DiffStyle style = DiffStyle::Normalized;
    support::UnifiedDiff diff;          // byte for byte; empty text when identical
    support::PairedDiff normalized;     // with style Normalized; empty text when the same up to renaming
    bool identical = false;             // both have the output and it is the same, byte for byte
    std::vector<KernelRow> kernels;     // A's kernels in order, then those only B has
    double secondsA = 0, secondsB = 0;  // the stages that made each side's output
};

// `what` of `a` against `b`; the diff's headers are the labels ("--- A: ftz=0 · CUDA 13.0.88").
Comparison compareResults(const CompileResult& a, const CompileResult& b, CompareOutput what, std::string_view labelA,
                          std::string_view labelB, DiffStyle style = DiffStyle::Normalized);
// The diff of the comparison's style as text: `normalized.text` or `diff.text`.
const std::string& diffText(const Comparison& c);

// The per-kernel table: its column names, then a row a kernel, its name ("k (A only)") and each
// figure as "A → B (+change)" ("18" when the same, "-" when neither side has it).
std::vector<std::string> comparisonColumns();
std::vector<std::vector<std::string>> comparisonRows(const Comparison& c);
// The table as nvpg prints it (aligned columns, kernels named by support::tableName), then the
// seconds each side's output took.
std::string formatComparisonTable(const Comparison& c, support::NameStyle names = {});
// "PTX identical (330 lines)", "PTX: 12 lines differ (6 removed, 6 added) in 2 hunks" (raw),
// "PTX: 2 lines differ (1 changed, 0 removed, 1 added) in 1 hunk, renumbering aside; 37 lines
// differ as written" (normalized: the parts add up to the total), "no PTX on side B: ...".
std::string comparisonVerdict(const Comparison& c);
// The figures that differ, in one line: "wave: registers 21 → 18 (-3), SASS instructions 236 →
// 240 (+4)"; kernels on one side only are named so. "figures unchanged" when none differ.
std::string figureChanges(const Comparison& c);
// The table and the verdict as JSON (the diff's counts, not its text).
nlohmann::ordered_json comparisonJson(const Comparison& c);

}  // namespace nvpg::pipeline
