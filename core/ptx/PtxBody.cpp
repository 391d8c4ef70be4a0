#include "core/ptx/PtxBody.h"

#include <algorithm>

namespace nvpg::ptx {

int FunctionBody::instructions() const {
    return int(std::count_if(statements.begin(), statements.end(),
                             [](const BodyStatement& s) { return s.kind == BodyStatement::Kind::Instruction; }));
}

namespace {

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c == '%' || c == '.';
}

// The function a header (".visible .entry k(...)", ".func (.param .b32 r) f(...)") defines;
// empty when it is no function's.
std::string headerName(std::string_view h, bool& isEntry) {
    size_t at = std::string_view::npos;
    for (const std::string_view kw : {".entry", ".func"}) {
        for (size_t p = h.find(kw); p != std::string_view::npos; p = h.find(kw, p + 1)) {
            const size_t end = p + kw.size();
            if ((p == 0 || !isNameChar(h[p - 1])) && (end == h.size() || !isNameChar(h[end]))) {
                at = end;
                isEntry = kw == ".entry";
                break;
            }
        }
        if (at != std::string_view::npos) break;
    }
    if (at == std::string_view::npos) return {};
    auto skipSpace = [&] {
        while (at < h.size() && (h[at] == ' ' || h[at] == '\t' || h[at] == '\n' || h[at] == '\r')) ++at;
    };
    auto skipParens = [&] {
        int depth = 0;
        for (; at < h.size(); ++at) {
            if (h[at] == '(') ++depth;
            if (h[at] == ')' && --depth == 0) {
                ++at;
                return;
            }
        }
    };
    skipSpace();
    if (h.substr(at, 10) == ".attribute") {  // .func .attribute(.unified(...)) name
        at += 10;
        skipSpace();
        if (at < h.size() && h[at] == '(') skipParens();
        skipSpace();
    }
    if (!isEntry && at < h.size() && h[at] == '(') skipParens();  // the return parameters
    skipSpace();
    const size_t start = at;
    while (at < h.size() && isNameChar(h[at])) ++at;
    return std::string(h.substr(start, at - start));
}

}  // namespace

std::vector<FunctionBody> readBodies(std::string_view s) {
    std::vector<FunctionBody> out;
    std::string header;  // depth 0: the text since the last ';' or '}'
    int headerLine = 0;
    std::string stmt;  // in a body: the statement so far, whitespace runs made one space
    int stmtLine = 0;
    int depth = 0;
    int vector = 0;  // inside a statement's braces
    bool inFunction = false;
    int line = 1;
    auto endStatement = [&](BodyStatement::Kind kind) {
        while (!stmt.empty() && stmt.back() == ' ') stmt.pop_back();
        if (inFunction && !stmt.empty() && stmt[0] != '.') out.back().statements.push_back({kind, stmt, stmtLine});
        stmt.clear();
    };
    const size_t n = s.size();
    for (size_t i = 0; i < n; ++i) {
        const char c = s[i];
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i + 1 < n && s[i + 1] != '\n') ++i;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            for (i += 2; i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/'); ++i)
                if (s[i] == '\n') ++line;
            ++i;
            continue;
        }
        if (c == '\n') {
            // .loc and .file end at the end of their line, not at a ';'.
            if (stmt.starts_with(".loc") || stmt.starts_with(".file")) stmt.clear();
            if (header.starts_with(".version") || header.starts_with(".target") ||
                header.starts_with(".address_size") || header.starts_with(".file"))
                header.clear();
            ++line;
        }
        if (c == '"') {  // .file names and .pragma texts may hold braces and semicolons
            const size_t start = i++;
            while (i < n && s[i] != '"' && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
            const bool closed = i < n && s[i] == '"';
            (depth == 0 ? header : stmt).append(s.substr(start, std::min(i + (closed ? 1 : 0), n) - start));
            if (!closed) --i;  // unterminated: its line's end is read next, and counted
            continue;
        }
        const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
        if (depth == 0) {
            if (c == ';') {
                header.clear();
            } else if (c == '{') {
                bool isEntry = false;
                auto name = headerName(header, isEntry);
                inFunction = !name.empty();
                if (inFunction) out.push_back({std::move(name), isEntry, headerLine, line, 0, {}});
                header.clear();
                depth = 1;
            } else if (!space || !header.empty()) {
                if (header.empty()) headerLine = line;
                header += c;
            }
            continue;
        }
        if (c == '{' && !stmt.empty()) {  // a vector operand: mov.b64 {%temp, %r21}, %fd11;
            ++vector;
            stmt += c;
        } else if (c == '}' && vector > 0) {
            --vector;
            stmt += c;
        } else if (c == '{') {
            ++depth;
        } else if (c == '}') {
            endStatement(BodyStatement::Kind::Instruction);
            if (--depth == 0) {
                if (inFunction) out.back().closeLine = line;
                inFunction = false;
            }
        } else if (c == ';') {
            endStatement(BodyStatement::Kind::Instruction);
        } else if (c == ':' && !(i + 1 < n && s[i + 1] == ':') && !(i > 0 && s[i - 1] == ':') && !stmt.empty() &&
                   std::all_of(stmt.begin(), stmt.end(), isNameChar)) {
            endStatement(BodyStatement::Kind::Label);  // "$L__BB0_2:"; not ld.shared::cta
        } else if (space) {
            if (!stmt.empty() && stmt.back() != ' ') stmt += ' ';
        } else {
            if (stmt.empty()) stmtLine = line;
            stmt += c;
        }
    }
    return out;
}

}  // namespace nvpg::ptx
