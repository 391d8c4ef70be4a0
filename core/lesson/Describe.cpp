// What a learner reads of a step: each check in words (and the teacher's detail behind them),
// and the fixes the step leaves out.
#include "core/lesson/Lesson.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include <fmt/format.h>

#include "core/support/Text.h"

namespace nvpg::lesson {

namespace fs = std::filesystem;

namespace {

// The text a pattern matches when it is plain text (letters, digits, punctuation that is no
// operator or is escaped, `^`/`$` at its ends): "ld\\.global\\.f32" -> "ld.global.f32". Nothing
// when it has classes, repeats, groups or alternatives, which words cannot quote.
std::optional<std::string> literalOf(std::string_view pattern) {
    if (pattern.starts_with('^')) pattern.remove_prefix(1);
    if (pattern.ends_with('$') && !pattern.ends_with("\\$")) pattern.remove_suffix(1);
    std::string out;
    for (size_t i = 0; i < pattern.size(); ++i) {
        const char ch = pattern[i];
        if (ch == '\\') {
            if (++i == pattern.size()) return std::nullopt;
            const char next = pattern[i];
            if (std::isalnum(static_cast<unsigned char>(next))) return std::nullopt;  // \d, \b, \n, ...
            out += next;
            continue;
        }
        if (std::string_view(".[](){}*+?|^$").find(ch) != std::string_view::npos) return std::nullopt;
        out += ch;
    }
    if (support::trim(out).empty()) return std::nullopt;
    return out;
}

}  // namespace

std::string describeCheck(const Check& c) {
    if (!c.description.empty()) return c.description;
    using K = CheckKind;
    const std::string of = c.kernel.empty() ? "" : " of " + c.kernel;
    const std::string ptx = c.where == Where::LtoPtx ? "LTO-linked PTX" : "PTX";
    const auto literal = literalOf(c.pattern);
    const auto quoted = literal ? fmt::format("“{}”", *literal) : std::string();
    switch (c.kind) {
        case K::Compiles:
            return "It compiles";
        case K::NoDiagnostics:
            return "No warnings or errors";
        case K::PtxContains:
            return literal ? fmt::format("The {}{} has {}", ptx, of, quoted)
                           : fmt::format("The {}{} has the line this step asks for", ptx, of);
        case K::PtxLacks:
            return literal ? fmt::format("The {}{} has no {}", ptx, of, quoted)
                           : fmt::format("The {}{} has none of the lines this step rules out", ptx, of);
        case K::SassContains:
            return literal ? fmt::format("The SASS{} has {}", of, quoted)
                           : fmt::format("The SASS{} has the instruction this step asks for", of);
        case K::SassLacks:
            return literal ? fmt::format("The SASS{} has no {}", of, quoted)
                           : fmt::format("The SASS{} has none of the instructions this step rules out", of);
        case K::KernelExists:
            return c.where == Where::Ptx      ? fmt::format("Kernel {} is in the PTX", c.kernel)
                   : c.where == Where::LtoPtx ? fmt::format("Kernel {} is in the LTO-linked PTX", c.kernel)
                                              : fmt::format("Kernel {} is in the PTX and after LTO", c.kernel);
        case K::Registers:
            return fmt::format("{} uses at most {} registers per thread", c.kernel, c.max);
        case K::Spills:
            return fmt::format("{} spills nothing to local memory", c.kernel);
        case K::LibdeviceUses:
            return fmt::format("libdevice supplies {}", c.function);
        case K::LibdeviceUnused:
            return "No libdevice function is linked";
        case K::Option:
            return fmt::format("Option {} is {}", c.option, c.value);
        case K::Runs:
            return fmt::format("Run “{}” completes on the GPU", c.run);
        case K::Output:
            return fmt::format("After run “{}”, argument {} holds the expected values", c.run, c.arg);
    }
    return std::string(checkKindName(c.kind));
}

std::string checkDetail(const Check& c) {
    std::string s(checkKindName(c.kind));
    if (!c.kernel.empty()) s += " " + c.kernel;
    if (c.where == Where::LtoPtx && c.kind != CheckKind::KernelExists) s += " (lto-ptx)";
    if (!c.pattern.empty()) s += " /" + c.pattern + "/";
    if (!c.function.empty()) s += " " + c.function;
    if (c.kind == CheckKind::Registers) s += fmt::format(" <= {}", c.max);
    if (c.kind == CheckKind::Option) s += fmt::format(" {} == {}", c.option, c.value);
    if (!c.run.empty()) s += fmt::format(" \"{}\"", c.run);
    if (c.kind == CheckKind::Output) {
        s += fmt::format(" arg {} == {}", c.arg, fs::path(c.equalsName).filename().string());
        if (c.tolerance > 0) s += fmt::format(" (tolerance {})", c.tolerance);
    }
    return s;
}

std::vector<nvvm::Diagnostic> withoutFixes(const std::vector<nvvm::Diagnostic>& diagnostics,
                                           const std::vector<std::string>& hidden) {
    std::vector<nvvm::Diagnostic> out = diagnostics;
    for (auto& d : out)
        std::erase_if(d.fixes, [&](const nvvm::Fix& f) {
            return std::find(hidden.begin(), hidden.end(), f.kind) != hidden.end();
        });
    return out;
}

bool offersFix(const std::vector<nvvm::Diagnostic>& diagnostics, const std::vector<std::string>& hidden) {
    for (const auto& d : diagnostics)
        for (const auto& f : d.fixes)
            if (std::find(hidden.begin(), hidden.end(), f.kind) != hidden.end()) return true;
    return false;
}

}  // namespace nvpg::lesson
