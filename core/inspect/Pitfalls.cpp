#include "core/inspect/Pitfalls.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <optional>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "core/nvvm/IrScan.h"
#include "core/nvvm/Libdevice.h"
#include "core/nvvm/NewerIr.h"
#include "core/support/Text.h"

namespace nvpg::inspect {

namespace {

using support::splitLines;
using support::startsWith;
using support::trim;

bool contains(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}

int lineCount(std::string_view text) {
    return int(splitLines(text).size());
}

const nvvm::Module* findModule(const std::vector<nvvm::Module>& modules, std::string_view name) {
    for (const auto& m : modules)
        if (m.name == name) return &m;
    return nullptr;
}

// 1-based line of the first line whose code starts with `prefix`, or 0.
int lineStarting(std::string_view text, std::string_view prefix) {
    int n = 0;
    for (auto line : splitLines(text)) {
        ++n;
        if (startsWith(trim(line), prefix)) return n;
    }
    return 0;
}

bool hasIrVersion(std::string_view text) {
    return lineStarting(text, "!nvvmir.version") > 0;
}

bool hasDebugInfo(std::string_view text) {
    return contains(text, "!llvm.dbg.cu") || contains(text, "DICompileUnit");
}

// The first metadata number `text` does not use: one past the largest `!N`.
int freeMetadataNumber(std::string_view text) {
    int next = 0;
    for (size_t at = text.find('!'); at != std::string_view::npos; at = text.find('!', at + 1)) {
        size_t end = at + 1;
        int n = 0;
        while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])) && n < 100000000)
            n = n * 10 + (text[end++] - '0');
        if (end > at + 1) next = std::max(next, n + 1);
    }
    return next;
}

int pointerBits(std::string_view text) {
    for (auto line : splitLines(text)) {
        const auto code = trim(line);
        if (startsWith(code, "target triple"))
            return contains(code, "nvptx64") ? 64 : contains(code, "\"nvptx-") ? 32 : 64;
        if (startsWith(code, "target datalayout") && contains(code, "p:32")) return 32;
    }
    return 64;
}

std::string_view validLayout(int bits) {
    return bits == 32 ? kValidLayout32 : kValidLayout64;
}

// The number in "compute_90a"; libNVVM 13.0's default (no -arch) is compute_75.
int archNumber(const nvvm::Options& options) {
    if (!options.arch) return 75;
    std::string_view a = *options.arch;
    if (startsWith(a, "compute_")) a.remove_prefix(8);
    int n = 0;
    for (char c : a) {
        if (!std::isdigit(static_cast<unsigned char>(c))) break;
        n = n * 10 + (c - '0');
    }
    return n;
}

std::string archName(const nvvm::Options& options) {
    return options.arch ? *options.arch : std::string("libNVVM's default arch (compute_75)");
}

constexpr std::string_view kDialects = nvvm::kDialectsByArch;

std::string symbolRef(const std::string& name) {
    const bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                       std::all_of(name.begin(), name.end(), [](char c) {
                           return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
                       });
    return plain ? "@" + name : "@\"" + name + "\"";
}

// The fix for IR in the modern dialect (or of a newer LLVM) below compute_100: the arch that reads it.
nvvm::Fix modernDialectFix() {
    return {"Compile for compute_100, which reads the modern dialect", {}, {{"arch", "compute_100"}}};
}

void addFix(nvvm::Diagnostic& d, std::string_view kind, nvvm::Fix fix) {
    fix.kind = std::string(kind);
    if (std::find(d.fixes.begin(), d.fixes.end(), fix) == d.fixes.end()) d.fixes.push_back(std::move(fix));
}

// --- no !nvvmir.version ------------------------------------------------------------------------

void explainIrVersion(std::vector<nvvm::Diagnostic>& diags, const PitfallContext& c) {
    std::vector<const nvvm::Module*> lacking;
    for (const auto& m : c.modules)
        if (!m.isBitcode() && !hasIrVersion(m.bytes)) lacking.push_back(&m);
    if (lacking.empty()) return;
    nvvm::Fix fix;
    std::vector<std::string> names;
    for (const auto* m : lacking) {
        fix.edits.push_back(
            {m->name, lineCount(m->bytes) + 1, lineCount(m->bytes) + 1, irVersionLines(m->bytes, c.irVersion)});
        names.push_back(m->name);
    }
    fix.title = fmt::format("Add !nvvmir.version {}.{} to {}", c.irVersion.major, c.irVersion.minor,
                            support::join(names, ", "));
    bool placed = false;
    for (auto& d : diags) {
        const bool said =
            contains(d.message, "incompatible with current version") || contains(d.message, "incompatible IR detected");
        if (!said || d.severity != nvvm::Severity::Error) continue;
        // libNVVM names the first module it stops at; the fix mends every module lacking it.
        const nvvm::Module* m = d.module.empty() ? lacking.front() : findModule(c.modules, d.module);
        if (!m || m->isBitcode() || hasIrVersion(m->bytes)) m = lacking.front();
        d.module = m->name;
        d.line = lineCount(m->bytes);
        d.column = 0;
        if (!placed) {
            d.message += fmt::format(
                "; {} has no !nvvmir.version, so libNVVM takes it for NVVM IR 1.0, while it reads {}.{}: add "
                "`!nvvmir.version = !{{!N}}` and `!N = !{{i32 {}, i32 {}}}`{}",
                support::join(names, ", "), c.irVersion.major, c.irVersion.minor, c.irVersion.major, c.irVersion.minor,
                hasDebugInfo(m->bytes) ? " with the debug pair (the module has debug info)" : "");
            addFix(d, nvvm::fixkind::kAddIrVersion, fix);
            placed = true;
        }
    }
}

// --- datalayout ---------------------------------------------------------------------------------

std::string layoutLine(int bits) {
    return fmt::format("target datalayout = \"{}\"\n", validLayout(bits));
}

void explainLayout(std::vector<nvvm::Diagnostic>& diags, const PitfallContext& c) {
    for (auto& d : diags) {
        if (d.severity != nvvm::Severity::Error) continue;
        const bool empty =
            contains(d.message, "Empty target data layout") || contains(d.message, "Data Layout string is empty");
        const bool refused = !empty && startsWith(d.message, "DataLayoutError");
        if (empty) {
            std::vector<const nvvm::Module*> lacking;
            for (const auto& m : c.modules)
                if (!m.isBitcode() && lineStarting(m.bytes, "target datalayout") == 0) lacking.push_back(&m);
            if (lacking.empty()) continue;
            nvvm::Fix fix;
            std::vector<std::string> names;
            for (const auto* m : lacking) {
                // Before the triple, where modules usually have it.
                const int triple = lineStarting(m->bytes, "target triple");
                const int at = triple > 0 ? triple : 1;
                fix.edits.push_back({m->name, at, at, layoutLine(pointerBits(m->bytes))});
                names.push_back(m->name);
            }
            const auto* first = lacking.front();
            fix.title = fmt::format("Insert the {}-bit target datalayout libNVVM expects in {}",
                                    pointerBits(first->bytes), support::join(names, ", "));
            d.module = first->name;
            d.line = std::max(1, lineStarting(first->bytes, "target triple"));
            d.column = 0;
            d.message += fmt::format(
                "; {} has no `target datalayout`, and libNVVM needs one: insert `target datalayout = "
                "\"{}\"`",
                support::join(names, ", "), validLayout(pointerBits(first->bytes)));
            addFix(d, nvvm::fixkind::kInsertDatalayout, std::move(fix));
        } else if (refused && !d.module.empty() && d.line > 0) {
            const auto* m = findModule(c.modules, d.module);
            if (!m || m->isBitcode()) continue;
            const int bits = pointerBits(m->bytes);
            // libNVVM's message lists the valid layouts it takes; that is the one to use.
            std::string layout(validLayout(bits));
            const std::string said = fmt::format("{}-bit: ", bits);
            if (const auto at = d.message.find(said); at != std::string::npos) {
                const auto from = at + said.size();
                layout = std::string(trim(std::string_view(d.message).substr(from, d.message.find('\n', from) - from)));
            }
            d.message +=
                fmt::format("\nReplace the datalayout on line {} with libNVVM's valid {}-bit one.", d.line, bits);
            addFix(d, nvvm::fixkind::kReplaceDatalayout,
                   {fmt::format("Replace the datalayout with the valid {}-bit one", bits),
                    {{m->name, d.line, d.line + 1, fmt::format("target datalayout = \"{}\"\n", layout)}}});
        }
    }
}

// --- `ptr` below compute_100 ---------------------------------------------------------------------

void explainOpaquePointers(std::vector<nvvm::Diagnostic>& diags, const PitfallContext& c) {
    if (archNumber(c.options) >= 100) return;
    for (auto& d : diags) {
        if (d.severity != nvvm::Severity::Error || !contains(d.message, "parse expected type") || d.line <= 0) continue;
        const auto* m = findModule(c.modules, d.module);
        if (!m || m->isBitcode()) continue;
        const auto lines = splitLines(m->bytes);
        if (size_t(d.line) > lines.size()) continue;
        const auto line = lines[d.line - 1];
        const size_t col = d.column > 0 ? size_t(d.column - 1) : 0;
        const bool atPtr = col < line.size() && startsWith(line.substr(col), "ptr");
        if (!atPtr && !nvvm::usesOpaquePointers(m->bytes)) continue;
        d.message += fmt::format(
            "; {} is written in the modern dialect (opaque pointers, `ptr`), and {} is "
            "below compute_100: {}. Compile for compute_100 or later, or write typed "
            "pointers (float*, i8 addrspace(1)*).",
            m->name, archName(c.options), kDialects);
        addFix(d, nvvm::fixkind::kCompute100, modernDialectFix());
    }
}

// --- IR from a newer LLVM below compute_100 ------------------------------------------------------

// The identifier (letters, digits, '_') at 0-based `col` of `line`, or empty.
std::string_view wordAt(std::string_view line, size_t col) {
    if (col >= line.size()) return {};
    size_t end = col;
    while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_')) ++end;
    return line.substr(col, end - col);
}

// The number N of "'%N'" in a message, or -1.
long long quotedValueNumber(std::string_view message) {
    const auto at = message.find("'%");
    if (at == std::string_view::npos) return -1;
    const auto end = message.find('\'', at + 2);
    long long n = -1;
    if (end == std::string_view::npos || !support::parseInt(message.substr(at + 2, end - at - 2), n)) return -1;
    return n;
}

// The fix that rewrites every typed-pointer text module of the program for LLVM 7.0.1 ("Rewrite
// saxpy.ll for LLVM 7.0.1"), and what it drops ("14 hint attributes (mustprogress, nofree,
// nosync), 4 argument numbers and 2 label numbers"); nullopt when no such module has anything to
// drop.
std::optional<std::pair<nvvm::Fix, std::string>> llvm7RewriteFix(const PitfallContext& c) {
    nvvm::Fix fix;
    std::vector<std::string> names, words;
    int attributes = 0, arguments = 0, labels = 0;
    for (const auto& m : c.modules) {
        if (m.isBitcode() || nvvm::usesOpaquePointers(m.bytes)) continue;
        auto r = nvvm::rewriteForLlvm7(m);
        if (r.edits.empty()) continue;
        names.push_back(m.name);
        for (auto& w : r.words)
            if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(std::move(w));
        attributes += r.attributes;
        arguments += r.arguments;
        labels += r.labels;
        std::move(r.edits.begin(), r.edits.end(), std::back_inserter(fix.edits));
    }
    if (fix.edits.empty()) return std::nullopt;
    std::vector<std::string> parts;
    if (attributes > 0)
        parts.push_back(fmt::format("{} hint {} ({})", attributes, attributes == 1 ? "attribute" : "attributes",
                                    support::joinShort(words)));
    if (arguments > 0) parts.push_back(fmt::format("{} argument {}", arguments, arguments == 1 ? "number" : "numbers"));
    if (labels > 0) parts.push_back(fmt::format("{} label {}", labels, labels == 1 ? "number" : "numbers"));
    std::string drops = parts.back();
    if (parts.size() > 1) {
        parts.pop_back();
        drops = fmt::format("{} and {}", support::join(parts, ", "), drops);
    }
    fix.title = fmt::format("Rewrite {} for LLVM 7.0.1", support::joinShort(names));
    return std::pair{std::move(fix), std::move(drops)};
}

void explainNewerIr(std::vector<nvvm::Diagnostic>& diags, const PitfallContext& c) {
    if (archNumber(c.options) >= 100) return;
    for (auto& d : diags) {
        // A message another hint explained already (`ptr` in the modern dialect) is left alone.
        if (d.severity != nvvm::Severity::Error || !startsWith(d.message, "parse ") || d.line <= 0 || !d.fixes.empty())
            continue;
        const auto* m = findModule(c.modules, d.module);
        if (!m || m->isBitcode()) continue;
        const auto lines = splitLines(m->bytes);
        if (size_t(d.line) > lines.size()) continue;
        const auto line = lines[size_t(d.line) - 1];
        const size_t col = d.column > 0 ? size_t(d.column - 1) : 0;
        std::string what;
        bool removable = true;  // the fix that rewrites the module mends what libNVVM stopped at
        if (const auto* w = nvvm::findNewerIrWord(wordAt(line, col))) {
            what = fmt::format("`{}` is {}", w->word, nvvm::describeNewerIrWord(*w));
            removable = w->removable;
        } else if (col < line.size() && line[col] == '%' && startsWith(trim(line), "define ") &&
                   contains(d.message, "argument list")) {
            what = fmt::format(
                "numbered argument names such as `{}` are syntax newer than LLVM 7.0.1 (LLVM writes them since "
                "LLVM {}), which takes the arguments unnamed (`float`) and numbers them itself",
                std::string("%") + std::string(wordAt(line, col + 1)), nvvm::kNumberedArgumentsRelease);
        } else if (contains(d.message, "use of undefined value '%") ||
                   contains(d.message, "expected to be numbered '%")) {
            const auto labelLines = nvvm::numberedLabelLines(m->bytes);
            if (labelLines.empty()) continue;
            const auto numberOf = [&](int l) {
                const auto code = trim(lines[size_t(l) - 1]);
                return code.substr(0, code.find(':'));
            };
            // The label of the number libNVVM names is where the cause is: LLVM 7 took it for a
            // name, so that number was never defined.
            const long long wanted = quotedValueNumber(d.message);
            int at = 0;
            for (int l : labelLines)
                if (wanted >= 0 && numberOf(l) == std::to_string(wanted)) at = l;
            if (at == 0) continue;
            d.line = at;
            d.column = int(lines[size_t(at) - 1].find_first_not_of(" \t")) + 1;
            const auto number = numberOf(at);
            what = fmt::format(
                "numbered block labels such as `{}:` are syntax newer than LLVM 7.0.1 (LLVM reads them since LLVM "
                "{}), which takes `{}:` for a block named \"{}\", not for the block numbered {}",
                number, nvvm::kNumberedLabelsRelease, number, number, number);
        }
        if (what.empty()) continue;
        if (nvvm::usesOpaquePointers(m->bytes)) {
            d.message += fmt::format(
                "; {}: {} was written by a newer LLVM, in the modern dialect (opaque pointers, `ptr`), and {} is "
                "below compute_100: {}. Compile for compute_100 or later.",
                what, m->name, archName(c.options), kDialects);
            addFix(d, nvvm::fixkind::kCompute100, modernDialectFix());
            continue;
        }
        const auto rewrite = removable ? llvm7RewriteFix(c) : std::nullopt;
        d.message += fmt::format("; {}: {} was written by a newer LLVM, and {} is below compute_100: {}. ", what,
                                 m->name, archName(c.options), kDialects);
        if (rewrite)
            d.message += fmt::format(
                "Drop what LLVM 7.0.1 does not know ({}; the attributes are optimisation hints: the program means "
                "the same without them), or compile for compute_100 or later.",
                rewrite->second);
        else
            d.message +=
                "LLVM 7.0.1 has nothing to write in its place: compile for compute_100 or later, or have the IR "
                "written without it.";
        if (rewrite) addFix(d, nvvm::fixkind::kRewriteForLlvm7, rewrite->first);
        addFix(d, nvvm::fixkind::kCompute100, modernDialectFix());
    }
}

// --- lazy text modules ---------------------------------------------------------------------------

void explainLazy(std::vector<nvvm::Diagnostic>& diags, const PitfallContext& c) {
    for (auto& d : diags) {
        if (contains(d.message, "is marked lazy but is text IR")) {
            if (const auto* m = findModule(c.modules, d.module); m && m->lazy)
                addFix(d, nvvm::fixkind::kUnmarkLazy,
                       {fmt::format("Unmark {} as lazy", m->name), {}, {}, {}, {{m->name, false}}});
        } else if (contains(d.message, "every module of this program is marked lazy")) {
            // The module with the kernels is the one to add normally; else the first.
            const nvvm::Module* pick = nullptr;
            for (const auto& m : c.modules)
                if (!pick && !m.isBitcode() && lineStarting(m.bytes, "!nvvm.annotations") > 0) pick = &m;
            if (!pick && !c.modules.empty()) pick = &c.modules.front();
            if (pick)
                addFix(d, nvvm::fixkind::kUnmarkLazy,
                       {fmt::format("Unmark {} as lazy", pick->name), {}, {}, {}, {{pick->name, false}}});
        }
    }
}

// --- one symbol defined in two modules -----------------------------------------------------------

struct Definition {
    const nvvm::Module* module;
    nvvm::IrFunction function;
};

// The line of the `}` that ends the function defined on `line`, or 0.
int functionEnd(std::string_view text, int line) {
    int n = 0;
    for (auto l : splitLines(text)) {
        ++n;
        if (n > line && trim(l) == "}") return n;
    }
    return 0;
}

void explainMultiplyDefined(std::vector<nvvm::Diagnostic>& diags, const PitfallContext& c) {
    std::vector<nvvm::Diagnostic> notes;
    for (auto& d : diags) {
        if (!contains(d.message, "symbol multiply defined!")) continue;
        const auto head = d.message.find("named '");
        if (head == std::string::npos) continue;
        const auto end = d.message.find('\'', head + 7);
        const std::string symbol = d.message.substr(head + 7, end - head - 7);
        std::vector<Definition> defs;
        for (const auto& m : c.modules) {
            if (m.isBitcode()) continue;
            for (const auto& f : nvvm::scanFunctions(m.bytes))
                if (f.isDefinition && f.name == symbol) defs.push_back({&m, f});
        }
        if (defs.size() < 2) continue;
        std::vector<std::string> places;
        for (const auto& def : defs) places.push_back(fmt::format("{}:{}", def.module->name, def.function.line));
        // The error goes on the definition libNVVM stopped at (the later module's), a note on the others.
        const auto& last = defs.back();
        d.module = last.module->name;
        d.line = last.function.line;
        d.column = 1;
        d.message += fmt::format(" (defined at {})", support::join(places, " and "));
        for (size_t i = 0; i + 1 < defs.size(); ++i)
            notes.push_back({defs[i].module->name, defs[i].function.line, 1, nvvm::Severity::Note,
                             fmt::format("{} is also defined here; it is defined at {}: keep one definition",
                                         symbolRef(symbol), support::join(places, " and ")),
                             "nvpg"});
        if (const int close = functionEnd(last.module->bytes, last.function.line); close > 0) {
            const auto declaration = fmt::format("declare {} {}({})\n", last.function.returnType, symbolRef(symbol),
                                                 support::join(last.function.paramTypes, ", "));
            addFix(d, nvvm::fixkind::kKeepOneDefinition,
                   {fmt::format("Keep the definition in {}: make {}'s a declaration", defs.front().module->name,
                                last.module->name),
                    {{last.module->name, last.function.line, close + 1, declaration}}});
        }
    }
    diags.insert(diags.end(), notes.begin(), notes.end());
}

// --- @llvm.used defined twice in one module -------------------------------------------------------

// The lines (1-based) that define @llvm.used (numba writes @"llvm.used").
std::vector<int> llvmUsedLines(std::string_view text) {
    std::vector<int> out;
    int n = 0;
    for (auto line : splitLines(text)) {
        ++n;
        const auto code = trim(line);
        for (std::string_view name : {"@llvm.used", "@\"llvm.used\""})
            if (startsWith(code, name) && startsWith(trim(code.substr(name.size())), "=")) out.push_back(n);
    }
    return out;
}

// The entries of an `@llvm.used = appending global [N x T] [a, b]` line: "a", "b".
std::vector<std::string> llvmUsedEntries(std::string_view line) {
    std::vector<std::string> out;
    const auto eq = line.find('=');
    const auto type = eq == std::string_view::npos ? eq : line.find('[', eq);
    const auto typeEnd = type == std::string_view::npos ? type : line.find(']', type);
    const auto init = typeEnd == std::string_view::npos ? typeEnd : line.find('[', typeEnd);
    if (init == std::string_view::npos) return out;
    int depth = 0;
    size_t start = init + 1;
    for (size_t i = init; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '(' || c == '[' || c == '{' || c == '<')
            ++depth;
        else if (c == ')' || c == ']' || c == '}' || c == '>')
            --depth;
        if ((c == ',' && depth == 1) || depth == 0) {
            if (auto e = trim(line.substr(start, i - start)); !e.empty()) out.emplace_back(e);
            start = i + 1;
        }
        if (depth == 0) break;
    }
    return out;
}

// `line` (an @llvm.used definition) with `entries` as its array, and its length said to match.
std::optional<std::string> withUsedEntries(std::string_view line, const std::vector<std::string>& entries) {
    const auto eq = line.find('=');
    const auto type = eq == std::string_view::npos ? eq : line.find('[', eq);
    if (type == std::string_view::npos) return std::nullopt;
    size_t digits = type + 1;
    while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
    if (digits == type + 1 || line.substr(digits, 3) != " x ") return std::nullopt;
    const auto typeEnd = line.find(']', digits);
    const auto init = typeEnd == std::string_view::npos ? typeEnd : line.find('[', typeEnd);
    if (init == std::string_view::npos) return std::nullopt;
    int depth = 0;
    size_t close = init;
    for (; close < line.size(); ++close) {
        if (line[close] == '[') ++depth;
        if (line[close] == ']' && --depth == 0) break;
    }
    if (close == line.size()) return std::nullopt;
    return std::string(line.substr(0, type + 1)) + std::to_string(entries.size()) +
           std::string(line.substr(digits, init + 1 - digits)) + support::join(entries, ", ") +
           std::string(line.substr(close));
}

// A module may define @llvm.used once (each module of a program may have its own: libNVVM
// merges them); following the LTO hint twice gives a second definition, and libNVVM's parser
// stops at it with "redefinition of global '@llvm.used'". The fix keeps one array with every
// entry of both.
void explainLlvmUsedTwice(std::vector<nvvm::Diagnostic>& diags, const PitfallContext& c) {
    for (auto& d : diags) {
        if (d.severity != nvvm::Severity::Error || !contains(d.message, "redefinition of global") ||
            !contains(d.message, "llvm.used"))
            continue;
        const auto* m = findModule(c.modules, d.module);
        if (!m || m->isBitcode()) continue;
        const auto at = llvmUsedLines(m->bytes);
        if (at.size() < 2) continue;
        const auto lines = splitLines(m->bytes);
        std::vector<std::string> places, entries;
        for (int n : at) {
            places.push_back(std::to_string(n));
            for (auto& e : llvmUsedEntries(lines[size_t(n) - 1]))
                if (std::find(entries.begin(), entries.end(), e) == entries.end()) entries.push_back(std::move(e));
        }
        const auto merged = withUsedEntries(lines[size_t(at.front()) - 1], entries);
        d.message += fmt::format(
            "; {} defines @llvm.used {} times (lines {}), and a module may define it once "
            "(each module of a program may have its own: libNVVM merges those). Keep one "
            "@llvm.used that lists every kernel LTO is to keep.",
            m->name, at.size(), support::join(places, ", "));
        if (!merged) continue;
        nvvm::Fix fix;
        fix.title = fmt::format("Merge the {} @llvm.used definitions of {} into one", at.size(), m->name);
        fix.edits.push_back({m->name, at.front(), at.front() + 1, *merged + "\n"});
        for (size_t i = 1; i < at.size(); ++i) fix.edits.push_back({m->name, at[i], at[i] + 1, ""});
        addFix(d, nvvm::fixkind::kMergeLlvmUsed, std::move(fix));
    }
}

// --- bitcode from a newer LLVM -------------------------------------------------------------------

std::string quotedAfter(std::string_view message, std::string_view key) {
    const auto at = message.find(key);
    if (at == std::string_view::npos) return {};
    const auto from = at + key.size();
    const auto to = message.find('\'', from);
    return to == std::string_view::npos ? std::string() : std::string(message.substr(from, to - from));
}

void explainNewerBitcode(std::vector<nvvm::Diagnostic>& diags, const PitfallContext& c) {
    for (auto& d : diags) {
        if (d.severity != nvvm::Severity::Error) continue;
        const auto producer = quotedAfter(d.message, "(Producer: '");
        const auto reader = quotedAfter(d.message, "Reader: '");
        if (producer.empty() || reader.empty() || producer == reader) continue;
        const auto* m = findModule(c.modules, d.module);
        const std::string name = m ? m->name : std::string("a bitcode module");
        d.message += fmt::format(
            "; {} is bitcode written by {}, and libNVVM's reader for {} is {}, which cannot read it: {}. Give the "
            "module as text IR (llvm-dis it), write the bitcode with LLVM 7, or compile for compute_100 or later, "
            "which reads newer bitcode.",
            name, producer, archName(c.options), reader, kDialects);
        if (archNumber(c.options) < 100)
            addFix(d, nvvm::fixkind::kCompute100,
                   {"Compile for compute_100, which reads newer LLVM bitcode", {}, {{"arch", "compute_100"}}});
    }
}

// --- option errors ------------------------------------------------------------------------------

void explainOptions(std::vector<nvvm::Diagnostic>& diags, const PitfallContext& c) {
    for (auto& d : diags) {
        if (d.severity != nvvm::Severity::Error || !d.module.empty()) continue;
        constexpr std::string_view unsupported = " is an unsupported option";
        const auto at = d.message.find(unsupported);
        if (at == std::string::npos) continue;
        const auto flag = trim(std::string_view(d.message).substr(0, at));
        const bool extra =
            std::find(c.options.extraFlags.begin(), c.options.extraFlags.end(), flag) != c.options.extraFlags.end();
        if (flag == "-lineinfo" || flag == "-gen-line-info" || flag == "-line-info")
            d.message += fmt::format(
                "; libNVVM spells line info -generate-line-info (nvJitLink's is -lineinfo): "
                "replace the extra flag {}",
                flag);
        else if (extra)
            d.message += fmt::format("; libNVVM does not know the extra flag {}: remove it from the extra flags", flag);
    }
}

}  // namespace

std::string irVersionLines(std::string_view text, const nvvm::IrVersion& v) {
    const int n = freeMetadataNumber(text);
    const std::string pair =
        hasDebugInfo(text) ? fmt::format("i32 {}, i32 {}, i32 {}, i32 {}", v.major, v.minor, v.debugMajor, v.debugMinor)
                           : fmt::format("i32 {}, i32 {}", v.major, v.minor);
    return fmt::format("!nvvmir.version = !{{!{}}}\n!{} = !{{{}}}\n", n, n, pair);
}

void explainPitfalls(std::vector<nvvm::Diagnostic>& diagnostics, const PitfallContext& context) {
    explainIrVersion(diagnostics, context);
    explainLayout(diagnostics, context);
    explainOpaquePointers(diagnostics, context);
    explainNewerIr(diagnostics, context);
    explainLazy(diagnostics, context);
    explainMultiplyDefined(diagnostics, context);
    explainLlvmUsedTwice(diagnostics, context);
    explainNewerBitcode(diagnostics, context);
    explainOptions(diagnostics, context);
}

std::vector<nvvm::Diagnostic> unresolvedLibdeviceCalls(const std::vector<nvvm::Module>& modules,
                                                       const ptx::PtxModule& ptx, bool libdevice) {
    std::vector<nvvm::Diagnostic> out;
    if (libdevice) return out;
    std::vector<std::string> defined, names;
    for (const auto& m : modules)
        if (!m.isBitcode())
            for (const auto& f : nvvm::scanFunctions(m.bytes))
                if (f.isDefinition) defined.push_back(f.name);
    const auto unresolved = [&](const std::string& name) {
        return nvvm::findLibdeviceFunction(name) && std::find(defined.begin(), defined.end(), name) == defined.end() &&
               std::find(names.begin(), names.end(), name) == names.end();
    };
    // In the order of the modules and their lines; then what only the PTX shows (bitcode's calls).
    for (const auto& m : modules) {
        if (m.isBitcode()) continue;
        for (const auto& f : nvvm::scanFunctions(m.bytes)) {
            if (f.isDefinition || !unresolved(f.name)) continue;
            const auto uses = nvvm::symbolUses(m.bytes, f.name);
            if (std::any_of(uses.begin(), uses.end(), [](const auto& u) { return u.call; })) names.push_back(f.name);
        }
    }
    for (const auto& f : ptx.functions)
        if (f.isExtern && unresolved(f.name)) names.push_back(f.name);
    for (const auto& name : names) {
        nvvm::Diagnostic d{
            "",
            0,
            0,
            nvvm::Severity::Error,
            fmt::format("{} is a libdevice function, and libdevice is not linked: nothing defines it, so "
                        "the program cannot be linked or loaded (ptxas, nvJitLink and the driver stop "
                        "at \"Unresolved extern function '{}'\"); link libdevice",
                        symbolRef(name), name),
            "nvpg",
            {{"Link libdevice", {}, {}, true, {}, std::string(nvvm::fixkind::kLinkLibdevice)}}};
        for (const auto& m : modules) {
            if (m.isBitcode()) continue;
            if (const auto use = nvvm::firstUse(m.bytes, name); use && use->call) {
                d.module = m.name;
                d.line = use->line;
                d.column = use->column;
                break;
            }
        }
        // No module calls it by name (bitcode does): where it is declared.
        for (const auto& m : modules) {
            if (m.isBitcode() || !d.module.empty()) continue;
            if (const auto use = nvvm::firstUse(m.bytes, name)) {
                d.module = m.name;
                d.line = use->line;
                d.column = use->column;
            }
        }
        out.push_back(std::move(d));
    }
    return out;
}

std::vector<nvvm::Diagnostic> unannotatedKernels(const std::vector<nvvm::Module>& modules, bool ptxHasEntry) {
    std::vector<nvvm::Diagnostic> out;
    if (ptxHasEntry) return out;
    // Every `@name(` written outside a define or declare line, in any text module: read once, so
    // that the check is linear in the modules (4,093 modules took 6.7 s when each function
    // searched every module for its calls).
    std::unordered_set<std::string> called;
    for (const auto& other : modules) {
        if (other.isBitcode()) continue;
        for (auto l : splitLines(other.bytes)) {
            const auto code = trim(l);
            if (startsWith(code, "define ") || startsWith(code, "declare ")) continue;
            for (size_t at = code.find('@'); at != std::string_view::npos; at = code.find('@', at + 1)) {
                size_t end = at + 1;
                if (end < code.size() && code[end] == '"') {
                    end = code.find('"', end + 1);
                    if (end == std::string_view::npos) break;
                    ++end;
                } else {
                    while (end < code.size() &&
                           (std::isalnum(static_cast<unsigned char>(code[end])) || code[end] == '_' ||
                            code[end] == '.' || code[end] == '$' || code[end] == '-'))
                        ++end;
                }
                if (end < code.size() && code[end] == '(') called.emplace(code.substr(at, end + 1 - at));
            }
        }
    }
    for (const auto& m : modules) {
        if (m.isBitcode()) continue;
        const auto lines = splitLines(m.bytes);
        for (const auto& f : nvvm::scanFunctions(m.bytes)) {
            if (!f.isDefinition || f.returnType != "void" || startsWith(f.name, "llvm.")) continue;
            if (f.line < 1 || size_t(f.line) > lines.size()) continue;
            const auto header = lines[f.line - 1];
            if (contains(header, " internal ") || contains(header, " private ")) continue;
            // A function some module calls is a device function, not a kernel.
            if (called.count(symbolRef(f.name) + "(")) continue;
            const bool opaque = nvvm::usesOpaquePointers(m.bytes);
            const std::string entry =
                opaque ? "ptr " + symbolRef(f.name)
                       : fmt::format("void ({})* {}", support::join(f.paramTypes, ", "), symbolRef(f.name));
            const int n = freeMetadataNumber(m.bytes);
            const int count = int(lines.size());
            nvvm::Fix fix;
            fix.title = fmt::format("Annotate {} as a kernel in !nvvm.annotations", symbolRef(f.name));
            fix.kind = std::string(nvvm::fixkind::kAnnotateKernel);
            const std::string node = fmt::format("!{} = !{{{}, !\"kernel\", i32 1}}\n", n, entry);
            if (const int at = lineStarting(m.bytes, "!nvvm.annotations"); at > 0) {
                std::string line(trim(lines[at - 1]));
                const auto close = line.rfind('}');
                if (close == std::string::npos) continue;
                const bool none =
                    trim(std::string_view(line).substr(line.find('{') + 1, close - line.find('{') - 1)).empty();
                line.insert(close, fmt::format("{}!{}", none ? "" : ", ", n));
                fix.edits.push_back({m.name, at, at + 1, line + "\n"});
            } else {
                fix.edits.push_back({m.name, count + 1, count + 1, fmt::format("!nvvm.annotations = !{{!{}}}\n", n)});
            }
            fix.edits.push_back({m.name, count + 1, count + 1, node});
            // Two edits appending at one place: one edit, in order.
            if (fix.edits.size() == 2 && fix.edits[0].line == fix.edits[1].line) {
                fix.edits[0].text += fix.edits[1].text;
                fix.edits.pop_back();
            }
            out.push_back({m.name,
                           f.line,
                           1,
                           nvvm::Severity::Warning,
                           fmt::format("{} returns void and nothing calls it, as a kernel, but !nvvm.annotations does "
                                       "not mark it one: the PTX has it as a .func, not a .entry, and the program "
                                       "has no kernel to run. Add `{}` to !nvvm.annotations.",
                                       symbolRef(f.name), fmt::format("!{{{}, !\"kernel\", i32 1}}", entry)),
                           "nvpg",
                           {std::move(fix)}});
        }
    }
    return out;
}

}  // namespace nvpg::inspect
