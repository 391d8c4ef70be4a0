#include "core/nvvm/IrScan.h"

#include <algorithm>
#include <vector>

#include "core/support/Text.h"

namespace nvpg::nvvm {

using support::trim;

namespace {

bool isIdentChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '-';
}

// Parameter attributes come after the type; the type is what precedes the first of them.
bool isParamAttribute(std::string_view tok) {
    static const char* attrs[] = {"noalias",
                                  "nocapture",
                                  "readonly",
                                  "readnone",
                                  "writeonly",
                                  "nonnull",
                                  "align",
                                  "dereferenceable",
                                  "dereferenceable_or_null",
                                  "byval",
                                  "sret",
                                  "signext",
                                  "zeroext",
                                  "inreg",
                                  "noundef",
                                  "returned",
                                  "nest",
                                  "immarg",
                                  "swiftself",
                                  "swifterror",
                                  "inalloca",
                                  "preallocated",
                                  "noinline",
                                  "nofree"};
    for (const char* a : attrs) {
        const std::string_view s(a);
        if (tok == s || (support::startsWith(tok, s) && tok.size() > s.size() && tok[s.size()] == '(')) return true;
    }
    return false;
}

// "float* nocapture %x" -> "float*"; "i32" -> "i32"; "%struct.S* byval(%struct.S) align 8 %s".
std::string paramType(std::string_view param) {
    std::vector<std::string> kept;
    int depth = 0;
    size_t i = 0;
    while (i < param.size()) {
        while (i < param.size() && param[i] == ' ') ++i;
        if (i >= param.size()) break;
        size_t start = i;
        while (i < param.size() && (param[i] != ' ' || depth > 0)) {
            if (param[i] == '(' || param[i] == '[' || param[i] == '{' || param[i] == '<') ++depth;
            if (param[i] == ')' || param[i] == ']' || param[i] == '}' || param[i] == '>') --depth;
            ++i;
        }
        const auto tok = param.substr(start, i - start);
        if (depth == 0 && (isParamAttribute(tok) || (tok[0] == '%' && !kept.empty()))) break;
        kept.emplace_back(tok);
    }
    return support::join(kept, " ");
}

// "float* nocapture %x" -> "%x": the last word, when it is a %name after the type; "" for
// "i32" or "%struct.S*" (a type alone).
std::string paramName(std::string_view param) {
    const auto sp = param.find_last_of(" \t");
    if (sp == std::string_view::npos) return {};
    const auto last = param.substr(sp + 1);
    if (last.size() < 2 || last[0] != '%') return {};
    // A %name ends the parameter; brackets in it would make it part of a type.
    if (last.find_first_of("()[]{}<>*,") != std::string_view::npos) return {};
    return std::string(last);
}

std::vector<std::string_view> splitTopLevel(std::string_view s) {
    std::vector<std::string_view> out;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '(' || c == '[' || c == '{' || c == '<')
            ++depth;
        else if (c == ')' || c == ']' || c == '}' || c == '>')
            --depth;
        else if (c == ',' && depth == 0) {
            out.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    if (auto last = trim(s.substr(start)); !last.empty()) out.push_back(last);
    return out;
}

}  // namespace

std::vector<IrFunction> scanFunctions(std::string_view ir) {
    std::vector<IrFunction> out;
    int lineNo = 0;
    for (auto raw : support::splitLines(ir)) {
        ++lineNo;
        const auto line = trim(raw);
        const bool def = support::startsWith(line, "define ");
        if (!def && !support::startsWith(line, "declare ")) continue;
        const auto at = line.find('@');
        if (at == std::string_view::npos) continue;
        IrFunction f;
        f.isDefinition = def;
        f.line = lineNo;
        size_t p = at + 1;
        if (p < line.size() && line[p] == '"') {
            const auto close = line.find('"', p + 1);
            if (close == std::string_view::npos) continue;
            f.name = std::string(line.substr(p + 1, close - p - 1));
            p = close + 1;
        } else {
            const auto start = p;
            while (p < line.size() && isIdentChar(line[p])) ++p;
            f.name = std::string(line.substr(start, p - start));
        }
        // The return type is the last word before '@' that is not a keyword: kernels return void.
        auto head = trim(line.substr(def ? 7 : 8, at - (def ? 7 : 8)));
        const auto sp = head.rfind(' ');
        f.returnType = std::string(sp == std::string_view::npos ? head : head.substr(sp + 1));
        if (p < line.size() && line[p] == '(') {
            int depth = 0;
            size_t end = p;
            for (; end < line.size(); ++end) {
                if (line[end] == '(') ++depth;
                if (line[end] == ')' && --depth == 0) break;
            }
            for (auto param : splitTopLevel(line.substr(p + 1, end - p - 1)))
                if (param != "...") {
                    f.paramTypes.push_back(paramType(param));
                    f.paramNames.push_back(paramName(param));
                }
        }
        out.push_back(std::move(f));
    }
    return out;
}

bool usesOpaquePointers(std::string_view ir) {
    for (std::string_view pat : {" ptr ", " ptr,", "(ptr ", " ptr)", "[ptr "})
        if (ir.find(pat) != std::string_view::npos) return true;
    return false;
}

std::optional<int> llvmUsedLine(std::string_view ir) {
    int lineNo = 0;
    for (auto raw : support::splitLines(ir)) {
        ++lineNo;
        const auto line = trim(raw);
        if (support::startsWith(line, "@llvm.used ") || support::startsWith(line, "@\"llvm.used\"")) return lineNo;
    }
    return std::nullopt;
}

namespace {

// A decimal number of at most six digits (every size and alignment a datalayout needs).
std::optional<unsigned> smallNumber(std::string_view s) {
    if (s.empty() || s.size() > 6) return std::nullopt;
    unsigned n = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        n = n * 10 + unsigned(c - '0');
    }
    return n;
}

bool powerOfTwo(unsigned n) {
    return n != 0 && (n & (n - 1)) == 0;
}

// An alignment in bits: whole bytes, a power of two of them (or zero where `zeroOk`).
bool alignment(std::optional<unsigned> bits, bool zeroOk) {
    if (!bits || *bits % 8 != 0) return false;
    return (*bits == 0 && zeroOk) || powerOfTwo(*bits / 8);
}

// "abi[:pref]" fields from `at` on: alignments, the preferred one not below the ABI one.
bool alignments(const std::vector<std::string_view>& f, size_t at, bool zeroOk) {
    if (f.size() <= at || f.size() > at + 2) return false;
    const auto abi = smallNumber(f[at]);
    if (!alignment(abi, zeroOk)) return false;
    if (f.size() == at + 1) return true;
    const auto pref = smallNumber(f[at + 1]);
    return alignment(pref, zeroOk) && *pref >= *abi;
}

}  // namespace

bool dataLayoutParses(std::string_view layout) {
    if (layout.empty()) return false;
    for (auto spec : support::split(layout, '-')) {
        if (spec.empty()) return false;
        const auto f = support::split(spec, ':');
        const char kind = spec.front();
        const auto head = f[0].substr(1);
        switch (kind) {
            case 'e':  // little-endian, as NVPTX is ('E' is left to the probe)
                if (spec.size() != 1) return false;
                break;
            case 'p': {  // p[AS]:size:abi[:pref[:index]]
                if (!head.empty() && !smallNumber(head)) return false;
                if (f.size() < 3 || f.size() > 5) return false;
                const auto size = smallNumber(f[1]);
                if (!size || *size == 0 || *size % 8 != 0) return false;
                if (!alignments({f.begin(), f.begin() + std::min<size_t>(f.size(), 4)}, 2, false)) return false;
                if (f.size() == 5) {
                    const auto index = smallNumber(f[4]);
                    if (!index || *index == 0 || *index % 8 != 0) return false;
                }
                break;
            }
            case 'i':
            case 'v':
            case 'f': {  // size:abi[:pref]
                const auto size = smallNumber(head);
                if (!size || *size == 0 || !alignments(f, 1, false)) return false;
                break;
            }
            case 'a':  // a[0]:abi[:pref]
                if (!head.empty() && head != "0") return false;
                if (!alignments(f, 1, true)) return false;
                break;
            case 'n':  // nW[:W...]
                if (!head.empty() && f.size() >= 1) {
                    std::vector<std::string_view> widths = {head};
                    widths.insert(widths.end(), f.begin() + 1, f.end());
                    for (auto w : widths)
                        if (auto n = smallNumber(w); !n || *n == 0) return false;
                } else {
                    return false;
                }
                break;
            case 'S':  // natural stack alignment in bits
                if (f.size() != 1 || !alignment(smallNumber(head), true)) return false;
                break;
            case 'm':  // mangling
                if (spec.size() != 3 || spec[1] != ':' ||
                    std::string_view("elmowx").find(spec[2]) == std::string_view::npos)
                    return false;
                break;
            default:
                return false;
        }
    }
    return true;
}

std::vector<SymbolUse> symbolUses(std::string_view ir, std::string_view name) {
    std::vector<SymbolUse> out;
    if (name.empty()) return out;
    int lineNo = 0;
    for (auto line : support::splitLines(ir)) {
        ++lineNo;
        // A comment may name it too; only code counts.
        const auto code = line.substr(0, std::min(line.find(';'), line.size()));
        for (size_t at = code.find('@'); at != std::string_view::npos; at = code.find('@', at + 1)) {
            size_t end = at + 1;
            if (end < code.size() && code[end] == '"') {
                if (code.substr(end + 1, name.size()) != name || code.substr(end + 1 + name.size(), 1) != "\"")
                    continue;
                end += name.size() + 2;
            } else {
                if (code.substr(end, name.size()) != name) continue;
                end += name.size();
                if (end < code.size() && isIdentChar(code[end])) continue;  // @__nv_sinf is not @__nv_sin
            }
            SymbolUse use;
            use.line = lineNo;
            use.column = int(at) + 1;
            const auto trimmed = trim(code);
            use.declaration = support::startsWith(trimmed, "declare ");
            // "call float @f(", "tail call", "%r = call ... @f(", "invoke": the callee is followed by '('.
            const bool called = end < code.size() && code[end] == '(';
            use.call = called && !use.declaration && !support::startsWith(trimmed, "define ") &&
                       (code.find("call ") != std::string_view::npos || code.find("invoke ") != std::string_view::npos);
            out.push_back(use);
            break;  // one place per line
        }
    }
    return out;
}

std::optional<SymbolUse> firstUse(std::string_view ir, std::string_view name) {
    const auto uses = symbolUses(ir, name);
    if (uses.empty()) return std::nullopt;
    for (const auto& u : uses)
        if (u.call) return u;
    for (const auto& u : uses)
        if (u.declaration) return u;
    return uses.front();
}

}  // namespace nvpg::nvvm
