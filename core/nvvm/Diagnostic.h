#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/nvvm/Fix.h"
#include "core/nvvm/Module.h"

namespace nvpg::nvvm {

enum class Severity { Error, Warning, Note };

// One problem, placed where the user can fix it. Lines and columns are 1-based; 0 means the
// message names no place (libNVVM's own columns are 0-based and are converted on parsing).
struct Diagnostic {
    std::string module;  // module name as added to the program; empty when none applies
    int line = 0;
    int column = 0;
    Severity severity = Severity::Error;
    std::string message;
    std::string source = "libNVVM";  // who said it: libNVVM, nvJitLink, nvpg
    // What would mend it, best first (a known pitfall's one-click fix); empty for most.
    std::vector<Fix> fixes{};
};

// A reply's diagnostics as the views hold them: shared with the reply, not copied (a hint per
// kernel carries a fix that quotes a whole @llvm.used line: 423 of them were 25 MB to copy).
using SharedDiagnostics = std::shared_ptr<const std::vector<Diagnostic>>;

std::string_view severityName(Severity s);
// "a.ll:8:8: error: parse expected instruction opcode", the form compilers and editors read.
std::string formatDiagnostic(const Diagnostic& d);

// Turns a libNVVM program log into diagnostics. `failed` says whether the call that produced
// the log failed: unmarked lines are then errors, otherwise warnings. `moduleNames` lets names
// with spaces or parentheses be matched exactly. Indented lines belong to the message above;
// where libNVVM's own verifier says what is wrong below the IR it quotes, that line is put after
// the place on the first line ("Global Variable `tile': Shared variables can't be initialized").
std::vector<Diagnostic> parseNvvmLog(std::string_view log, bool failed, const std::vector<std::string>& moduleNames);

// libNVVM's verifier names no place but quotes the offending IR on a line below (LLVM's alone,
// libNVVM's own after "context: "). Where that IR is exactly one line of one text module (blanks
// aside), the diagnostic is placed there.
void placeQuotedIr(std::vector<Diagnostic>& diagnostics, const std::vector<Module>& modules);

// A message that names a global variable (libNVVM's verifier: "Global Variable `tile':
// Shared variables can't be initialized") is placed on that global's definition, `@tile = ...`:
// in the module it names, else the one text module defining it (of several, the one whose line
// is the IR the message quotes).
void placeNamedGlobals(std::vector<Diagnostic>& diagnostics, const std::vector<Module>& modules);

// The verifier's "DataLayoutError" names no place: once its module is known, it is placed on
// that module's `target datalayout` line.
void placeLayoutErrors(std::vector<Diagnostic>& diagnostics, const std::vector<Module>& modules);

}  // namespace nvpg::nvvm
