#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/nvvm/Module.h"
#include "core/nvvm/Options.h"
#include "core/support/Result.h"

namespace nvpg::nvvm {

// One edit of a text module's lines: lines [line, endLine) (1-based) are replaced by `text`
// (whole lines, each ending in '\n'). endLine == line inserts before `line`; line = the module's
// line count + 1 appends.
struct TextEdit {
    std::string module;
    int line = 1;
    int endLine = 1;
    std::string text;

    bool operator==(const TextEdit&) const = default;
};

// What a fix changes, as plain data: front ends apply it their own way (the app as one undoable
// editor action plus option changes, tests and nvpg through applyFix) and recompile.
struct Fix {
    std::string title;  // "Insert !nvvmir.version = !{i32 2, i32 0}", imperative, one line
    // Each member after the title says `{}`: a fix is written as {title, edits} or
    // {title, {}, options}, and the rest is empty (-Wmissing-field-initializers asks for that).
    std::vector<TextEdit> edits{};  // at most one module's edits do not overlap each other
    // Options to set, by option-table name ("arch" → "compute_100"); an empty value clears it.
    std::vector<std::pair<std::string, std::string>> options{};
    std::optional<bool> libdevice{};                   // turn libdevice on (or off)
    std::vector<std::pair<std::string, bool>> lazy{};  // module name → its new lazy flag
    // What kind of mend it is, one of fixKinds() ("annotate-kernel"): a lesson names the kinds it
    // does not offer while a step teaches that mend.
    std::string kind{};

    bool operator==(const Fix&) const = default;
};

// The kinds of fix, by the names lessons use (docs/user/lessons.md lists them).
namespace fixkind {
inline constexpr std::string_view kAddIrVersion = "add-ir-version";
inline constexpr std::string_view kInsertDatalayout = "insert-datalayout";
inline constexpr std::string_view kReplaceDatalayout = "replace-datalayout";
inline constexpr std::string_view kCompute100 = "compile-for-compute-100";
inline constexpr std::string_view kRewriteForLlvm7 = "rewrite-for-llvm-7";
inline constexpr std::string_view kUnmarkLazy = "unmark-lazy";
inline constexpr std::string_view kKeepOneDefinition = "keep-one-definition";
inline constexpr std::string_view kMergeLlvmUsed = "merge-llvm-used";
inline constexpr std::string_view kAddToLlvmUsed = "add-to-llvm-used";
inline constexpr std::string_view kAnnotateKernel = "annotate-kernel";
inline constexpr std::string_view kLinkLibdevice = "link-libdevice";
}  // namespace fixkind
// Every kind above, each once, in that order.
const std::vector<std::string_view>& fixKinds();

// Applies `fix` to the modules and options it names. An edit of a module that is not there, is
// bitcode, or whose lines are out of range, and an option value `Options::set` refuses, is an
// error naming it; nothing is changed then.
support::Status applyFix(const Fix& fix, std::vector<Module>& modules, Options& options, bool& libdevice);

}  // namespace nvpg::nvvm
