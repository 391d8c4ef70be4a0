#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/nvvm/Fix.h"
#include "core/nvvm/Module.h"

namespace nvpg::nvvm {

// Which IR each arch reads (libNVVM 13.0, checked): below compute_100 LLVM 7.0.1's dialect, with
// typed pointers (float*); from compute_100 on also the modern one (opaque `ptr`, newer bitcode).
inline constexpr std::string_view kDialectsByArch =
    "libNVVM reads LLVM 7.0.1's IR (typed pointers such as float*) for archs below compute_100, and also the "
    "modern LLVM dialect (opaque pointers, `ptr`) from compute_100 on";

// IR that LLVM 7.0.1's reader does not know, which libNVVM reads below compute_100. Each word
// here makes libNVVM 13.0 fail at it for compute_75 (tests/core/tst_newer_ir checks every one).
struct NewerIrWord {
    std::string_view word;  // as written in the IR: "noundef", "freeze", "memory" (memory(...))
    std::string_view kind;  // "attribute", "instruction", "constant"
    // The LLVM release that introduced it, as LLVM's release notes say; 0 where those notes do
    // not say (the word is then only said to be newer than LLVM 7.0.1).
    int llvmRelease = 0;
    // An optimisation hint or a promise a front end makes: removing it leaves the program's
    // meaning as it was, so a module written by a newer LLVM can be read by LLVM 7.0.1 without it.
    bool removable = false;
};

// The whole table, in alphabetical order of the words.
std::span<const NewerIrWord> newerIrWords();

// The table's entry for `word`, or null.
const NewerIrWord* findNewerIrWord(std::string_view word);

// "an attribute newer than LLVM 7.0.1 (added in LLVM 11)" for noundef.
std::string describeNewerIrWord(const NewerIrWord& w);

// Numbered argument names (`float %0`) and numbered block labels (`11:`) are syntax that LLVM
// 7.0.1 does not read: it takes an unnamed argument and numbers it itself, and it reads `11:`
// as a block *named* "11". LLVM parses numbered labels since LLVM 9 (r356789, March 2019) and
// writes numbered argument names since LLVM 10 (its release notes).
inline constexpr int kNumberedLabelsRelease = 9;
inline constexpr int kNumberedArgumentsRelease = 10;

// What rewriting a text module for LLVM 7.0.1 changes: the removable words of the table
// removed where they stand as attributes (not inside names, strings or comments), numbered
// argument names dropped from `define` lines, and numbered block labels turned into the
// comment LLVM 7 wrote for them (`; <label>:11:`), which leaves the block unnamed and so
// numbered as before. Edits replace whole lines of `module`; empty when nothing is to change.
struct Llvm7Rewrite {
    std::vector<TextEdit> edits;
    std::vector<std::string> words;  // the removed words, each once, in the order first met
    int attributes = 0;              // words removed
    int arguments = 0;               // numbered argument names dropped
    int labels = 0;                  // numbered labels made comments
};
Llvm7Rewrite rewriteForLlvm7(const Module& module);

// Numbered block labels (`11:` at the start of a line) in text IR: the 1-based lines.
std::vector<int> numberedLabelLines(std::string_view ir);

}  // namespace nvpg::nvvm
