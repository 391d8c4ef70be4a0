#include "core/nvvm/Diagnostic.h"

#include <climits>
#include <unordered_set>

#include <fmt/format.h>

#include "core/support/Text.h"

namespace nvpg::nvvm {

using support::startsWith;
using support::trim;

std::string_view severityName(Severity s) {
    switch (s) {
        case Severity::Error:
            return "error";
        case Severity::Warning:
            return "warning";
        case Severity::Note:
            return "note";
    }
    return "error";
}

std::string formatDiagnostic(const Diagnostic& d) {
    // This text goes to terminals: a name or a quoted line must not be able to drive one.
    std::string where;
    if (!d.module.empty()) {
        where = support::printable(d.module);
        if (d.line > 0) where += fmt::format(":{}", d.line);
        if (d.line > 0 && d.column > 0) where += fmt::format(":{}", d.column);
        where += ": ";
    }
    return fmt::format("{}{}: {}", where, severityName(d.severity), support::printable(d.message, true));
}

namespace {

using Names = std::unordered_set<std::string_view>;

constexpr std::string_view kLayoutError = "DataLayoutError: ";
constexpr std::string_view kContext = "context:";

// "NAME (LINE, COL): MESSAGE" with NAME one of the module names (which may hold spaces).
bool parsePlaced(std::string_view line, const Names& names, Diagnostic& d) {
    const auto open = line.rfind(" (", line.find("): "));
    const auto close = line.find("): ");
    if (open == std::string_view::npos || close == std::string_view::npos || open > close) return false;
    const auto name = line.substr(0, open);
    const auto coords = line.substr(open + 2, close - open - 2);
    const auto comma = coords.find(", ");
    if (comma == std::string_view::npos) return false;
    long long ln = 0, col = 0;
    if (!support::parseInt(coords.substr(0, comma), ln) || !support::parseInt(coords.substr(comma + 2), col))
        return false;
    // Not a place libNVVM would print, and the column must not overflow on the way to 1-based.
    if (ln < 0 || ln > INT_MAX || col < 0 || col >= INT_MAX) return false;
    if (!names.empty() && !names.count(name)) return false;
    d.module = std::string(name);
    d.line = static_cast<int>(ln);
    d.column = static_cast<int>(col) + 1;  // libNVVM counts columns from 0
    d.message = std::string(line.substr(close + 3));
    return true;
}

// "NAME: error: MESSAGE", "NAME: warning: MESSAGE", "libnvvm : error: MESSAGE", and
// "NAME: link error: error: MESSAGE" (a symbol NAME defines again).
bool parseTagged(std::string_view line, const Names& names, Diagnostic& d) {
    for (auto [tag, sev] : {std::pair{": link error: error: ", Severity::Error},
                            std::pair{": error: ", Severity::Error}, std::pair{": warning: ", Severity::Warning},
                            std::pair{" : error: ", Severity::Error}, std::pair{" : warning: ", Severity::Warning}}) {
        const auto pos = line.find(tag);
        if (pos == std::string_view::npos) continue;
        const auto who = line.substr(0, pos);
        if (names.count(who)) d.module = std::string(who);
        d.severity = sev;
        d.message = std::string(line.substr(pos + std::string_view(tag).size()));
        return true;
    }
    for (auto [tag, sev] : {std::pair{"error: ", Severity::Error}, std::pair{"warning: ", Severity::Warning}}) {
        if (startsWith(line, tag)) {
            d.severity = sev;
            d.message = std::string(line.substr(std::string_view(tag).size()));
            return true;
        }
    }
    return false;
}

// libNVVM's own verifier says where, then quotes the IR, then says what:
//   Error: : Global Variable `tile':
//     context: @tile = internal addrspace(3) global [256 x float] zeroinitializer, align 4
//     Shared variables can't be initialized
// The Problems row, the output's banner and the editor's note show a message's first line, so
// what is wrong goes up there, after the place: "Global Variable `tile': Shared variables can't
// be initialized". The quoted IR (and any further line) stays below it as libNVVM wrote it;
// the raw log keeps every line as it came.
void liftVerifierExplanation(Diagnostic& d) {
    constexpr std::string_view kError = "Error: ";
    if (!startsWith(d.message, kError)) return;
    std::vector<std::string_view> lines = support::splitLines(d.message);
    if (lines.size() < 3) return;
    size_t context = 0, said = 0;
    for (size_t i = 1; i < lines.size(); ++i) {
        const auto l = trim(lines[i]);
        if (startsWith(l, kContext)) {
            if (context == 0) context = i;
        } else if (!l.empty() && said == 0) {
            said = i;
        }
    }
    if (context == 0 || said == 0) return;
    // "Error: <module id>: <where>: " with libNVVM's module id empty ("Error: : Global Variable ...").
    std::string_view head = lines[0].substr(kError.size());
    if (startsWith(head, ":")) head = trim(head.substr(1));
    head = trim(head);
    if (head.empty() || head.back() != ':') return;
    std::string message = fmt::format("{} {}", head, trim(lines[said]));
    for (size_t i = 1; i < lines.size(); ++i)
        if (i != said) message += "\n" + std::string(lines[i]);
    d.message = std::move(message);
}

// The IR a verifier message quotes after "context: " on a line after its first, or empty.
std::string_view quotedContext(std::string_view message) {
    const auto lines = support::splitLines(message);
    for (size_t i = 1; i < lines.size(); ++i)
        if (const auto l = trim(lines[i]); startsWith(l, kContext)) return trim(l.substr(kContext.size()));
    return {};
}

// Text with every run of blanks made one space, for comparing IR libNVVM printed with IR a
// person wrote.
std::string squeezed(std::string_view s) {
    std::string out;
    for (char c : trim(s)) {
        const bool blank = c == ' ' || c == '\t';
        if (blank && !out.empty() && out.back() == ' ') continue;
        out += blank ? ' ' : c;
    }
    return out;
}

// Whether a module's line is the IR `wanted` (squeezed) says, blanks aside. Most lines have no
// run of blanks inside: those are compared as they are, without a copy.
bool sameIr(std::string_view line, std::string_view wanted) {
    const auto code = trim(line);
    if (code == wanted) return true;
    if (code.find("  ") == std::string_view::npos && code.find('\t') == std::string_view::npos) return false;
    return squeezed(code) == wanted;
}

}  // namespace

std::vector<Diagnostic> parseNvvmLog(std::string_view log, bool failed, const std::vector<std::string>& moduleNames) {
    std::vector<Diagnostic> out;
    const Severity unmarked = failed ? Severity::Error : Severity::Warning;
    // A set, as a program may hold thousands of modules and its log a line for each.
    const Names names(moduleNames.begin(), moduleNames.end());
    for (auto raw : support::splitLines(log)) {
        // libNVVM ends its log with a NUL; the verifier quotes the offending IR on indented lines.
        while (!raw.empty() && raw.back() == '\0') raw.remove_suffix(1);
        if (trim(raw).empty()) continue;
        if (!out.empty() && (startsWith(raw, "  ") || startsWith(raw, "\t"))) {
            out.back().message += "\n" + std::string(raw);
            continue;
        }
        // The verifier's DataLayoutError goes on for lines ("Example valid data layout:",
        // "Error: 64-bit: e-p:64:64:64-..."), each with "Error: " in front: one problem, one row.
        if (!out.empty() && startsWith(out.back().message, kLayoutError)) {
            auto more = trim(raw);
            if (startsWith(more, "Error: ")) more.remove_prefix(7);
            out.back().message += "\n" + std::string(more);
            continue;
        }
        Diagnostic d;
        d.severity = unmarked;
        if (!parsePlaced(raw, names, d) && !parseTagged(raw, names, d)) d.message = std::string(trim(raw));
        if (startsWith(d.message, "Error: DataLayoutError: ")) {
            d.message.erase(0, 7);
            constexpr std::string_view tail = ".Error: ";
            if (std::string_view(d.message).ends_with(tail)) d.message.resize(d.message.size() - tail.size() + 1);
        }
        out.push_back(std::move(d));
    }
    for (auto& d : out) liftVerifierExplanation(d);
    return out;
}

void placeQuotedIr(std::vector<Diagnostic>& diagnostics, const std::vector<Module>& modules) {
    for (auto& d : diagnostics) {
        if (!d.module.empty()) continue;
        const auto nl = d.message.find('\n');
        if (nl == std::string::npos) continue;
        // libNVVM's own verifier says "context: <IR>"; LLVM's quotes the IR alone.
        std::string_view quoted = quotedContext(d.message);
        if (quoted.empty())
            quoted = trim(std::string_view(d.message).substr(nl + 1, d.message.find('\n', nl + 1) - nl - 1));
        if (quoted.empty()) continue;
        const std::string wanted = squeezed(quoted);
        int matches = 0;
        Diagnostic placed = d;
        for (const auto& m : modules) {
            if (m.isBitcode()) continue;
            int lineNo = 0;
            for (auto line : support::splitLines(m.bytes)) {
                ++lineNo;
                if (!sameIr(line, wanted)) continue;
                if (++matches > 1) break;
                placed.module = m.name;
                placed.line = lineNo;
                placed.column = static_cast<int>(line.find_first_not_of(" \t")) + 1;
            }
        }
        if (matches == 1) d = placed;
    }
}

void placeNamedGlobals(std::vector<Diagnostic>& diagnostics, const std::vector<Module>& modules) {
    constexpr std::string_view kGlobal = "Global Variable `";
    for (auto& d : diagnostics) {
        if (d.line > 0) continue;
        const auto head = d.message.find(kGlobal);
        if (head == std::string::npos) continue;
        const auto from = head + kGlobal.size();
        const auto end = d.message.find('\'', from);
        if (end == std::string::npos || end == from) continue;
        const std::string name = d.message.substr(from, end - from);
        // The definition is `@name = ...` (or `@"name" = ...` for a name LLVM quotes).
        const std::string plain = "@" + name, quotedName = "@\"" + name + "\"";
        const std::string context = squeezed(quotedContext(d.message));
        struct Place {
            const Module* module;
            int line;
            int column;
            bool quotedLine;  // the line is the IR the message quotes
        };
        std::vector<Place> found;
        for (const auto& m : modules) {
            if (m.isBitcode() || (!d.module.empty() && m.name != d.module)) continue;
            int lineNo = 0;
            for (auto line : support::splitLines(m.bytes)) {
                ++lineNo;
                const auto code = trim(line);
                for (const auto& ref : {plain, quotedName}) {
                    if (!startsWith(code, ref)) continue;
                    const auto rest = trim(code.substr(ref.size()));
                    if (!startsWith(rest, "=")) continue;
                    found.push_back(
                        {&m, lineNo, static_cast<int>(line.find('@')) + 1, !context.empty() && sameIr(line, context)});
                }
            }
        }
        // One definition, or the one line of several that is the IR libNVVM quotes (an internal
        // global may have its name in more than one module); otherwise it stays where it was.
        const Place* pick = found.size() == 1 ? &found.front() : nullptr;
        if (!pick) {
            int quotedLines = 0;
            for (const auto& p : found)
                if (p.quotedLine && ++quotedLines == 1) pick = &p;
            if (quotedLines != 1) pick = nullptr;
        }
        if (!pick) continue;
        d.module = pick->module->name;
        d.line = pick->line;
        d.column = pick->column;
    }
}

void placeLayoutErrors(std::vector<Diagnostic>& diagnostics, const std::vector<Module>& modules) {
    for (auto& d : diagnostics) {
        if (d.module.empty() || d.line > 0 || !startsWith(d.message, kLayoutError)) continue;
        for (const auto& m : modules) {
            if (m.name != d.module || m.isBitcode()) continue;
            int lineNo = 0;
            for (auto line : support::splitLines(m.bytes)) {
                ++lineNo;
                const auto code = trim(line);
                if (!startsWith(code, "target ") || !startsWith(trim(code.substr(7)), "datalayout")) continue;
                d.line = lineNo;
                d.column = static_cast<int>(line.find_first_not_of(" \t")) + 1;
                break;
            }
            break;
        }
    }
}

}  // namespace nvpg::nvvm
