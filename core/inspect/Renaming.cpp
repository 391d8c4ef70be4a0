#include "core/inspect/Renaming.h"

#include <map>
#include <set>
#include <string_view>

#include <dtl/dtl.hpp>

#include "core/support/Text.h"

namespace nvpg::inspect {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isWordChar(char c) {
    return isDigit(c) || isLetter(c) || c == '_';
}
bool isHex(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// New names of one function: each kind counted on its own, so that an extra %f register does
// not renumber the %r ones.
struct Names {
    std::map<std::string, std::map<std::string, int>, std::less<>> byKind;
    std::string name(const std::string& kind, std::string_view old) {
        auto& m = byKind[kind];
        auto [it, added] = m.try_emplace(std::string(old), int(m.size()));
        (void)added;
        return kind + "#" + std::to_string(it->second);
    }
};

// A line cut into the text that stays and the names that are renamed: pieces[0], tokens[0],
// pieces[1], ... pieces[tokens.size()].
struct Token {
    std::string kind;  // "%f", "$L__BB", "R", ".L_x_"
    std::string name;  // as written: "%f12"
};
struct Cut {
    std::vector<std::string> pieces{std::string()};
    std::vector<Token> tokens;
    bool functionStart = false;
    int written = -1;  // SASS: the token of the register the instruction writes
    void text(char c) { pieces.back() += c; }
    void text(std::string_view t) { pieces.back() += t; }
    void token(std::string kind, std::string_view name) {
        tokens.push_back({std::move(kind), std::string(name)});
        pieces.emplace_back();
    }
    // The line with each name replaced by `nameOf(token)`.
    template <typename F>
    std::string join(F&& nameOf) const {
        std::string out = pieces[0];
        for (size_t i = 0; i < tokens.size(); ++i) out += nameOf(tokens[i]) + pieces[i + 1];
        return out;
    }
};

// Labels: "$L__BB0_3" is of kind "$L__BB", "$L__tmp12" of "$L__tmp".
std::string labelKind(std::string_view label) {
    while (!label.empty() && (isDigit(label.back()) || label.back() == '_')) label.remove_suffix(1);
    return std::string(label);
}

bool isPtxFunctionStart(std::string_view line) {
    line = support::trim(line);
    if (line.empty() || line.front() != '.') return false;
    for (std::string_view word : {".entry", ".func"}) {
        const auto at = line.find(word);
        if (at != std::string_view::npos && (at + word.size() == line.size() || !isWordChar(line[at + word.size()])))
            return true;
    }
    return false;
}

// The prefixes of `.reg .TYPE %name<N>;` declarations.
void addDeclaredPrefixes(std::string_view line, std::set<std::string, std::less<>>& prefixes) {
    line = support::trim(line);
    if (!support::startsWith(line, ".reg")) return;
    const auto pct = line.find('%');
    if (pct == std::string_view::npos) return;
    size_t end = pct + 1;
    while (end < line.size() && isWordChar(line[end])) ++end;
    std::string_view name = line.substr(pct + 1, end - pct - 1);
    if (end < line.size() && line[end] == '<' && !name.empty()) prefixes.emplace(name);
}

}  // namespace

namespace {

std::vector<Cut> cutPtx(const std::vector<std::string>& lines) {
    std::set<std::string, std::less<>> prefixes = {"r", "rd", "f", "fd", "p", "rs", "rq", "h", "hh", "b"};
    for (const auto& l : lines) addDeclaredPrefixes(l, prefixes);
    std::vector<Cut> out;
    out.reserve(lines.size());
    for (const auto& line : lines) {
        Cut key;
        key.functionStart = isPtxFunctionStart(line);
        const bool declaration = support::startsWith(support::trim(line), ".reg");
        size_t i = 0;
        while (i < line.size()) {
            const char c = line[i];
            const bool wordStart = i == 0 || !isWordChar(line[i - 1]);
            if (c == '%' && i + 1 < line.size() && isLetter(line[i + 1])) {
                // %prefix then digits, and nothing of a name after them.
                size_t j = i + 1;
                while (j < line.size() && (isLetter(line[j]) || line[j] == '_')) ++j;
                size_t k = j;
                while (k < line.size() && isDigit(line[k])) ++k;
                const std::string_view prefix(line.data() + i + 1, j - i - 1);
                if (k > j && (k == line.size() || (!isWordChar(line[k]) && line[k] != '.')) && prefixes.count(prefix)) {
                    key.token("%" + std::string(prefix), std::string_view(line).substr(i, k - i));
                    i = k;
                    continue;
                }
                // How many registers a declaration makes follows their numbering: "%f<#>".
                if (declaration && k == j && k < line.size() && line[k] == '<') {
                    const auto close = line.find('>', k);
                    if (close != std::string::npos) {
                        key.text(std::string_view(line).substr(i, k - i));
                        key.text("<#>");
                        i = close + 1;
                        continue;
                    }
                }
                key.text(std::string_view(line).substr(i, k - i));
                i = k;
                continue;
            }
            if (c == '$' && wordStart && std::string_view(line).substr(i).starts_with("$L__")) {
                size_t j = i + 4;
                while (j < line.size() && isWordChar(line[j])) ++j;
                const auto label = std::string_view(line).substr(i, j - i);
                key.token(labelKind(label), label);
                i = j;
                continue;
            }
            key.text(c);
            ++i;
        }
        out.push_back(std::move(key));
    }
    return out;
}

}  // namespace

namespace {

bool isSassFunctionStart(std::string_view line) {
    line = support::trim(line);
    return support::startsWith(line, ".section") && line.find(".text.") != std::string_view::npos;
}

// Opcodes whose hex operands are code addresses.
bool isBranch(std::string_view opcode) {
    const auto base = opcode.substr(0, opcode.find('.'));
    for (std::string_view b :
         {"BRA", "BRX", "JMP", "JMX", "CALL", "JCAL", "CAL", "BSSY", "SSY", "PBK", "PCNT", "RET", "BREAK", "BPT"})
        if (base == b) return true;
    return false;
}

// Whether an opcode's first operand, when it is a register, is one it writes (not a store's,
// a branch's or a barrier's).
bool writesFirstOperand(std::string_view opcode) {
    const auto base = opcode.substr(0, opcode.find('.'));
    if (isBranch(opcode) && base != "BSSY") return false;
    for (std::string_view b : {"ST", "STG", "STS", "STL", "RED", "BSYNC", "BAR", "EXIT", "WARPSYNC", "YIELD", "NOP",
                               "MEMBAR", "DEPBAR", "ERRBAR", "CCTL", "KILL", "ARRIVES", "SYNCS"})
        if (base == b) return false;
    return true;
}

}  // namespace

namespace {

std::vector<Cut> cutSass(const std::vector<std::string>& lines) {
    std::vector<Cut> out;
    out.reserve(lines.size());
    for (const auto& line : lines) {
        Cut key;
        key.functionStart = isSassFunctionStart(line);
        bool branch = false, seenOpcode = false, firstOperand = false, writes = false;
        int brackets = 0;
        size_t i = 0;
        while (i < line.size()) {
            const char c = line[i];
            const std::string_view rest = std::string_view(line).substr(i);
            const bool wordStart = i == 0 || !isWordChar(line[i - 1]);
            if (rest.starts_with("/*")) {
                // "/*0a70*/" (offset) or "/* 0x000fe200078e00ff */" (encoding): numbers of where
                // and which registers, not of what.
                const auto close = rest.find("*/");
                if (close != std::string_view::npos) {
                    const auto inner = support::trim(rest.substr(2, close - 2));
                    bool hex = !inner.empty();
                    for (size_t k = inner.starts_with("0x") ? 2 : 0; k < inner.size(); ++k)
                        hex = hex && isHex(inner[k]);
                    key.text(hex ? "/*@*/" : rest.substr(0, close + 2));
                    i += close + 2;
                    continue;
                }
            }
            if (c == '[') ++brackets;
            if (c == ']') --brackets;
            if (c == ',' && brackets == 0) firstOperand = false;
            if (c == '.' && rest.starts_with(".L_x_")) {
                size_t j = 5;
                while (j < rest.size() && isDigit(rest[j])) ++j;
                key.token(".L_x_", rest.substr(0, j));
                i += j;
                continue;
            }
            if (wordStart && isLetter(c)) {
                size_t j = 0;
                while (j < rest.size() && (isWordChar(rest[j]) || rest[j] == '.')) ++j;
                const auto word = rest.substr(0, j);
                // A register: R12, P3, UR4, UP1, B0 (and .reuse and the like after it).
                size_t letters = 0;
                while (letters < word.size() && isLetter(word[letters])) ++letters;
                size_t digits = letters;
                while (digits < word.size() && isDigit(word[digits])) ++digits;
                const auto kind = word.substr(0, letters);
                if (digits > letters && (digits == word.size() || word[digits] == '.') &&
                    (kind == "R" || kind == "P" || kind == "UR" || kind == "UP" || kind == "B")) {
                    if (seenOpcode && firstOperand && writes && brackets == 0 && key.written < 0)
                        key.written = int(key.tokens.size());
                    if (seenOpcode) firstOperand = false;
                    key.token(std::string(kind), word.substr(0, digits));
                    i += digits;
                    continue;
                }
                const bool predicate = i > 0 && (line[i - 1] == '@' || line[i - 1] == '!');
                if (!seenOpcode && !predicate && j > 0 && word.front() >= 'A' && word.front() <= 'Z' &&
                    word.find('_') == std::string_view::npos && rest.find(';') != std::string_view::npos) {
                    seenOpcode = true;
                    branch = isBranch(word);
                    firstOperand = true;
                    writes = writesFirstOperand(word);
                }
                key.text(word);
                i += j;
                continue;
            }
            if (branch && brackets == 0 && wordStart && rest.starts_with("0x")) {
                size_t j = 2;
                while (j < rest.size() && isHex(rest[j])) ++j;
                key.text("0x@");
                i += j;
                continue;
            }
            key.text(c);
            ++i;
        }
        out.push_back(std::move(key));
    }
    // A machine register holds one value after another: each write starts a new one ("R3'2"),
    // which is what gets a name, so that the values of two listings are matched, not the
    // registers ptxas happened to reuse for them.
    std::map<std::string, int> version;
    for (auto& cut : out) {
        if (cut.functionStart) version.clear();
        for (size_t k = 0; k < cut.tokens.size(); ++k) {
            auto& t = cut.tokens[k];
            if (t.kind == ".L_x_") continue;
            const int v = int(k) == cut.written ? ++version[t.name] : version[t.name];
            t.name += "'" + std::to_string(v);
        }
    }
    return out;
}

// Each side's names by order of first use within each function.
std::vector<std::string> canonical(const std::vector<Cut>& cuts) {
    std::vector<std::string> out;
    out.reserve(cuts.size());
    Names names;
    for (const auto& cut : cuts) {
        if (cut.functionStart) names = {};
        out.push_back(cut.join([&](const Token& t) { return names.name(t.kind, t.name); }));
    }
    return out;
}

// A's lines by first use, and B's with each name that stands where one of A's stands (in the
// lines that are alike with all names left out) given that A name, the others new names.
std::pair<std::vector<std::string>, std::vector<std::string>> matched(const std::vector<Cut>& a,
                                                                      const std::vector<Cut>& b) {
    // Names are a function's own: a name is qualified by its side's function (the line number
    // of its start; a vote pairs a name of A's with one of B's, never two sides' scopes).
    const auto scoped = [](const std::vector<Cut>& cuts) {
        std::vector<std::string> scopes;
        std::string scope = "0";
        for (size_t i = 0; i < cuts.size(); ++i) {
            if (cuts[i].functionStart) scope = std::to_string(i + 1);
            scopes.push_back(scope);
        }
        return scopes;
    };
    const auto scopeA = scoped(a), scopeB = scoped(b);
    const auto shapes = [](const std::vector<Cut>& cuts) {
        std::vector<std::string> out;
        for (const auto& c : cuts) out.push_back(c.join([](const Token& t) { return t.kind + "#"; }));
        return out;
    };
    const auto shapeA = shapes(a), shapeB = shapes(b);
    dtl::Diff<std::string, std::vector<std::string>> diff(shapeA, shapeB);
    diff.compose();
    // Votes: B's name stood where A's did, on lines alike but for names.
    std::map<std::pair<std::string, std::string>, int> votes;
    std::vector<std::pair<std::string, std::string>> firstSeen;
    {
        size_t i = 0, j = 0;
        for (const auto& [line, info] : diff.getSes().getSequence()) {
            (void)line;
            if (info.type == dtl::SES_COMMON) {
                const auto& ta = a[i].tokens;
                const auto& tb = b[j].tokens;
                for (size_t k = 0; k < ta.size() && k < tb.size(); ++k) {
                    std::pair<std::string, std::string> v{scopeA[i] + "\x1f" + ta[k].kind + "\x1f" + ta[k].name,
                                                          scopeB[j] + "\x1f" + tb[k].kind + "\x1f" + tb[k].name};
                    if (votes[v]++ == 0) firstSeen.push_back(v);
                }
                ++i, ++j;
            } else if (info.type == dtl::SES_DELETE) {
                ++i;
            } else {
                ++j;
            }
        }
    }
    // Most votes first; of equal votes, the first seen.
    std::stable_sort(firstSeen.begin(), firstSeen.end(),
                     [&](const auto& x, const auto& y) { return votes[x] > votes[y]; });
    std::map<std::string, std::string> bToA;
    std::set<std::string> aTaken;
    for (const auto& [qa, qb] : firstSeen)
        if (!bToA.count(qb) && !aTaken.count(qa)) {
            bToA[qb] = qa;
            aTaken.insert(qa);
        }
    // A's names by first use, kept by qualified name for B's lines.
    std::map<std::string, std::string> nameOfA;
    std::vector<std::string> keysA;
    {
        Names names;
        for (size_t i = 0; i < a.size(); ++i) {
            if (a[i].functionStart) names = {};
            keysA.push_back(a[i].join([&](const Token& t) {
                auto n = names.name(t.kind, t.name);
                nameOfA[scopeA[i] + "\x1f" + t.kind + "\x1f" + t.name] = n;
                return n;
            }));
        }
    }
    std::vector<std::string> keysB;
    {
        Names fresh;
        for (size_t j = 0; j < b.size(); ++j) {
            if (b[j].functionStart) fresh = {};
            keysB.push_back(b[j].join([&](const Token& t) {
                const auto it = bToA.find(scopeB[j] + "\x1f" + t.kind + "\x1f" + t.name);
                if (it != bToA.end()) {
                    const auto n = nameOfA.find(it->second);
                    if (n != nameOfA.end()) return n->second;
                }
                return fresh.name(t.kind + "#new", t.name);
            }));
        }
    }
    return {std::move(keysA), std::move(keysB)};
}

}  // namespace

std::vector<std::string> renamedPtxLines(const std::vector<std::string>& lines) {
    return canonical(cutPtx(lines));
}
std::vector<std::string> renamedSassLines(const std::vector<std::string>& lines) {
    return canonical(cutSass(lines));
}

std::pair<std::vector<std::string>, std::vector<std::string>> matchedPtxLines(const std::vector<std::string>& a,
                                                                              const std::vector<std::string>& b) {
    return matched(cutPtx(a), cutPtx(b));
}
std::pair<std::vector<std::string>, std::vector<std::string>> matchedSassLines(const std::vector<std::string>& a,
                                                                               const std::vector<std::string>& b) {
    return matched(cutSass(a), cutSass(b));
}

}  // namespace nvpg::inspect
