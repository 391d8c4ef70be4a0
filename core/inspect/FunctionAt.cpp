#include "core/inspect/FunctionAt.h"

#include <cctype>
#include <cstring>

namespace nvpg::inspect {

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool isWord(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

void skipSpace(std::string_view& s) {
    while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
}

// Removes `word` and at least one space after it; false (and `s` as it was) when not there.
bool takeWordAndSpace(std::string_view& s, std::string_view word) {
    if (!startsWith(s, word) || s.size() == word.size() || !isSpace(s[word.size()])) return false;
    s.remove_prefix(word.size());
    skipSpace(s);
    return true;
}

// `define ... @name` or `define ... @"quoted name"`.
std::string irDefine(std::string_view s) {
    if (!startsWith(s, "define") || (s.size() > 6 && isWord(s[6]))) return {};
    const auto at = s.find('@');
    if (at == std::string_view::npos) return {};
    s.remove_prefix(at + 1);
    if (!s.empty() && s.front() == '"') {
        const auto close = s.find('"', 1);
        if (close != std::string_view::npos && close > 1) return std::string(s.substr(1, close - 1));
    }
    size_t n = 0;
    while (n < s.size() && (isWord(s[n]) || s[n] == '-' || s[n] == '$' || s[n] == '.')) ++n;
    return std::string(s.substr(0, n));
}

// `[.visible|.weak|.extern ]* .entry|.func [(returns)] name`.
std::string ptxDeclaration(std::string_view s) {
    skipSpace(s);
    while (takeWordAndSpace(s, ".visible") || takeWordAndSpace(s, ".weak") || takeWordAndSpace(s, ".extern")) {
    }
    if (!takeWordAndSpace(s, ".entry") && !takeWordAndSpace(s, ".func")) return {};
    if (!s.empty() && s.front() == '(') {
        const auto close = s.find(')');
        if (close == std::string_view::npos) return {};
        s.remove_prefix(close + 1);
        skipSpace(s);
    }
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s.front())) || s.front() == '_' || s.front() == '$' ||
                       s.front() == '%'))
        return {};
    size_t n = 1;
    while (n < s.size() && (isWord(s[n]) || s[n] == '$')) ++n;
    return std::string(s.substr(0, n));
}

// `.text.name` or `.section .text.name,...`.
std::string sassHeader(std::string_view s) {
    skipSpace(s);
    takeWordAndSpace(s, ".section");
    if (!startsWith(s, ".text.")) return {};
    s.remove_prefix(6);
    size_t n = 0;
    while (n < s.size() && !isSpace(s[n]) && s[n] != ',' && s[n] != ':' && s[n] != '"') ++n;
    return std::string(s.substr(0, n));
}

}  // namespace

FunctionAt functionAtLine(std::string_view text, int line, FunctionText kind) {
    if (line < 1 || text.empty()) return {};
    // Where the line asked for ends (the last line's end when the text is shorter).
    size_t start = 0;
    int at = 1;
    while (at < line) {
        const void* nl = std::memchr(text.data() + start, '\n', text.size() - start);
        if (!nl) break;
        const size_t next = size_t(static_cast<const char*>(nl) - text.data()) + 1;
        if (next >= text.size()) break;  // a final newline ends the last line, it starts none
        start = next;
        ++at;
    }
    const auto end = text.find('\n', start);
    return functionAtLastLine(text.substr(0, end == std::string_view::npos ? text.size() : end), at, kind);
}

FunctionAt functionAtLastLine(std::string_view text, int line, FunctionText kind) {
    FunctionAt found;
    const auto lastNewline = text.rfind('\n');
    size_t start = lastNewline == std::string_view::npos ? 0 : lastNewline + 1;
    size_t end = text.size();
    bool closed = false;
    for (int l = line;; --l) {
        std::string_view s = text.substr(start, end - start);
        if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
        if (l < line && kind != FunctionText::Sass && startsWith(s, "}")) closed = true;
        std::string name = kind == FunctionText::Ir    ? irDefine(s)
                           : kind == FunctionText::Ptx ? ptxDeclaration(s)
                                                       : sassHeader(s);
        if (!name.empty()) {
            found.name = std::move(name);
            found.line = l;
            found.inside = !closed;
            return found;
        }
        if (start == 0) return found;
        // The line before ends at the newline before this one, and starts after the one before that.
        end = start - 1;
        const auto before = end == 0 ? std::string_view::npos : text.rfind('\n', end - 1);
        start = before == std::string_view::npos ? 0 : before + 1;
    }
}

}  // namespace nvpg::inspect
