#include "core/nvvm/NewerIr.h"

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/support/Text.h"

namespace nvpg::nvvm {

namespace {

using support::startsWith;
using support::trim;

// Releases are those LLVM's release notes name: speculative_load_hardening (8.0.0), immarg
// (9.0.0), freeze (10.0.0), noundef (11.0.0), byref (12.0.0), memory(...) replacing readnone and
// its kin (16.0.0). The others are left at 0: their notes do not say.
constexpr std::array kWords{
    NewerIrWord{"byref", "attribute", 12, false},
    NewerIrWord{"dead_on_unwind", "attribute", 0, true},
    NewerIrWord{"disable_sanitizer_instrumentation", "attribute", 0, true},
    NewerIrWord{"elementtype", "attribute", 0, false},
    NewerIrWord{"fneg", "instruction", 0, false},
    NewerIrWord{"freeze", "instruction", 10, false},
    NewerIrWord{"hot", "attribute", 0, true},
    NewerIrWord{"immarg", "attribute", 9, true},
    NewerIrWord{"memory", "attribute", 16, true},
    NewerIrWord{"mustprogress", "attribute", 0, true},
    NewerIrWord{"nocallback", "attribute", 0, true},
    NewerIrWord{"nofree", "attribute", 0, true},
    NewerIrWord{"nomerge", "attribute", 0, true},
    NewerIrWord{"noprofile", "attribute", 0, true},
    NewerIrWord{"nosanitize_bounds", "attribute", 0, true},
    NewerIrWord{"nosanitize_coverage", "attribute", 0, true},
    NewerIrWord{"nosync", "attribute", 0, true},
    NewerIrWord{"noundef", "attribute", 11, true},
    NewerIrWord{"null_pointer_is_valid", "attribute", 0, false},
    NewerIrWord{"poison", "constant", 0, false},
    NewerIrWord{"preallocated", "attribute", 0, false},
    NewerIrWord{"speculative_load_hardening", "attribute", 8, false},
    NewerIrWord{"vscale_range", "attribute", 0, true},
    NewerIrWord{"willreturn", "attribute", 0, true},
    NewerIrWord{"writable", "attribute", 0, true},
};

bool wordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool blank(char c) {
    return c == ' ' || c == '\t';
}

// The end of the parenthesised argument that starts at `open` ('('), or npos.
size_t closingParen(std::string_view s, size_t open) {
    int depth = 0;
    for (size_t i = open; i < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')' && --depth == 0) return i + 1;
    }
    return std::string_view::npos;
}

// `line` without the removable words standing as attributes: a word of the table that starts
// after a blank, '(', ',' or '{' and ends before a blank, ',', ')', '}', '(' (its argument,
// removed with it) or the end. Names (%nofree, @nosync, label `nofree:`), strings and comments
// are left as they are.
std::string withoutRemovableWords(std::string_view line, std::vector<std::string>& words, int& count,
                                  std::vector<std::string_view>& dropped) {
    std::string out;
    size_t i = 0;
    bool inString = false;
    while (i < line.size()) {
        const char c = line[i];
        if (inString) {
            out += c;
            if (c == '"') inString = false;
            ++i;
            continue;
        }
        if (c == '"') {
            inString = true;
            out += c;
            ++i;
            continue;
        }
        if (c == ';') {  // a comment to the end of the line
            out += line.substr(i);
            break;
        }
        const bool starts =
            (std::isalpha(static_cast<unsigned char>(c)) || c == '_') &&
            (i == 0 || blank(line[i - 1]) || line[i - 1] == '(' || line[i - 1] == ',' || line[i - 1] == '{');
        if (!starts) {
            out += c;
            ++i;
            continue;
        }
        size_t end = i;
        while (end < line.size() && wordChar(line[end])) ++end;
        const auto word = line.substr(i, end - i);
        const auto* entry = findNewerIrWord(word);
        const char next = end < line.size() ? line[end] : '\0';
        size_t stop = end;
        if (next == '(') stop = closingParen(line, end);
        const bool ends = next == '\0' || blank(next) || next == ',' || next == ')' || next == '}' ||
                          (next == '(' && stop != std::string_view::npos);
        if (!entry || !entry->removable || entry->kind != "attribute" || !ends) {
            out += word;
            i = end;
            continue;
        }
        // The word goes with the blanks before it ("float noundef %0" -> "float %0"), or, first
        // after a bracket or the line's start, with those after it ("{ nofree nosync }" ->
        // "{ nosync }").
        const auto spelled = line.substr(i, stop - i);  // with its argument: memory(read)
        const bool blanksBefore = !out.empty() && blank(out.back());
        while (!out.empty() && blank(out.back())) out.pop_back();
        if (!blanksBefore || (!out.empty() && (out.back() == '(' || out.back() == '{'))) {
            while (stop < line.size() && blank(line[stop])) ++stop;
            if (blanksBefore && !out.empty() && out.back() == '{') out += ' ';
        }
        if (std::find(words.begin(), words.end(), word) == words.end()) words.emplace_back(word);
        dropped.push_back(spelled);
        ++count;
        i = stop;
    }
    return out;
}

// `line`, a `define` line, without the names of numbered arguments (`float %0` -> `float`).
std::string withoutNumberedArguments(std::string_view line, int& count) {
    const auto at = line.find('@');
    if (at == std::string_view::npos) return std::string(line);
    size_t open = at + 1;
    if (open < line.size() && line[open] == '"') {
        const auto close = line.find('"', open + 1);
        if (close == std::string_view::npos) return std::string(line);
        open = close + 1;
    }
    open = line.find('(', open);
    if (open == std::string_view::npos) return std::string(line);
    const auto close = closingParen(line, open);
    if (close == std::string_view::npos) return std::string(line);
    // The parameters, split at the commas outside brackets; each is "TYPE [ATTRS] [NAME]".
    std::string out(line.substr(0, open + 1));
    int depth = 0;
    size_t start = open + 1;
    for (size_t i = open + 1; i < close; ++i) {
        const char c = line[i];
        if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
        if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
        const bool last = i == close - 1;
        if (!((c == ',' && depth == 0) || last)) continue;
        const auto param = line.substr(start, i - start);
        // The last blank-separated token, if it is %<digits> and not the parameter's only one.
        const auto code = trim(param);
        const auto space = code.find_last_of(" \t");
        bool numbered = false;
        if (space != std::string_view::npos) {
            const auto name = code.substr(space + 1);
            numbered = name.size() > 1 && name[0] == '%' && std::all_of(name.begin() + 1, name.end(), [](char d) {
                           return std::isdigit(static_cast<unsigned char>(d));
                       });
        }
        if (numbered) {
            const auto cut = param.find_last_of(" \t", param.find_last_not_of(" \t"));
            auto kept = param.substr(0, cut);
            while (!kept.empty() && blank(kept.back())) kept.remove_suffix(1);
            out += kept;
            ++count;
        } else {
            out += param;
        }
        out += last ? ")" : ",";
        start = i + 1;
    }
    out += line.substr(close);
    return out;
}

// "11:" (and what follows) at the start of `line`: the number's length, else 0.
size_t numberedLabel(std::string_view line) {
    const auto code = trim(line);
    size_t n = 0;
    while (n < code.size() && std::isdigit(static_cast<unsigned char>(code[n]))) ++n;
    if (n == 0 || n >= code.size() || code[n] != ':') return 0;
    const char after = n + 1 < code.size() ? code[n + 1] : '\0';
    return after == '\0' || blank(after) || after == ';' ? n : 0;
}

}  // namespace

std::span<const NewerIrWord> newerIrWords() {
    return kWords;
}

const NewerIrWord* findNewerIrWord(std::string_view word) {
    const auto it = std::lower_bound(kWords.begin(), kWords.end(), word,
                                     [](const NewerIrWord& w, std::string_view key) { return w.word < key; });
    return it != kWords.end() && it->word == word ? &*it : nullptr;
}

std::string describeNewerIrWord(const NewerIrWord& w) {
    const std::string added = w.llvmRelease > 0 ? fmt::format(" (added in LLVM {})", w.llvmRelease) : "";
    const char* article = w.kind == "constant" ? "a" : "an";
    return fmt::format("{} {} newer than LLVM 7.0.1{}", article, w.kind, added);
}

std::vector<int> numberedLabelLines(std::string_view ir) {
    std::vector<int> out;
    int n = 0;
    for (auto line : support::splitLines(ir)) {
        ++n;
        if (numberedLabel(line) > 0) out.push_back(n);
    }
    return out;
}

Llvm7Rewrite rewriteForLlvm7(const Module& module) {
    Llvm7Rewrite r;
    if (module.isBitcode()) return r;
    int n = 0;
    for (auto withBreak : support::linesWithBreaks(module.bytes)) {
        ++n;
        std::string_view line = withBreak;
        std::string_view ending;
        if (line.ends_with("\r\n"))
            ending = line.substr(line.size() - 2);
        else if (line.ends_with('\n'))
            ending = line.substr(line.size() - 1);
        line.remove_suffix(ending.size());
        std::string text;
        if (const auto digits = numberedLabel(line); digits > 0) {
            const auto indent = line.find_first_not_of(" \t");
            text = fmt::format("{}; <label>:{}", line.substr(0, indent), line.substr(indent));
            ++r.labels;
        } else {
            std::vector<std::string_view> dropped;
            text = withoutRemovableWords(line, r.words, r.attributes, dropped);
            // LLVM 7 refuses an empty attribute group ("attribute group has no attributes"): one
            // left so holds a string attribute, which LLVM ignores, saying what was dropped.
            if (const auto code = trim(text); startsWith(code, "attributes #") && code.ends_with("{ }"))
                text = fmt::format("{}{{ \"dropped-for-llvm7\"=\"{}\" }}", text.substr(0, text.rfind("{ }")),
                                   fmt::join(dropped, " "));
            if (startsWith(trim(text), "define ")) text = withoutNumberedArguments(text, r.arguments);
        }
        if (text == line) continue;
        r.edits.push_back({module.name, n, n + 1, text + std::string(ending.empty() ? "\n" : ending)});
    }
    return r;
}

}  // namespace nvpg::nvvm
