#include <algorithm>
#include <charconv>
#include <climits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ptx/Ptx.h"

namespace nvpg::ptx {

std::vector<const Function*> PtxModule::entries() const {
    std::vector<const Function*> out;
    for (const auto& f : functions)
        if (f.isEntry) out.push_back(&f);
    return out;
}

const Function* PtxModule::find(std::string_view name) const {
    for (const auto& f : functions)
        if (f.name == name) return &f;
    return nullptr;
}

namespace {

struct Token {
    std::string_view text;
    int line = 0;
};

bool isWordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c == '%' || c == '.';
}

bool isDirective(const Token& t) {
    return !t.text.empty() && t.text[0] == '.';
}

int toInt(std::string_view s) {
    int v = 0;
    // PTX allows hex counts (0x10); from_chars wants the digits without the prefix.
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        std::from_chars(s.data() + 2, s.data() + s.size(), v, 16);
        return v;
    }
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
}

// Bytes one element of a fundamental type takes in the parameter buffer; 0 when `t` is no type.
int elementSize(std::string_view t) {
    if (t.size() < 3 || t[0] != '.') return 0;
    if (t == ".pred") return 1;  // a .pred param is passed as a byte
    if (t == ".f16x2" || t == ".bf16x2") return 4;
    if (t == ".bf16") return 2;
    if (t == ".tf32") return 4;
    const char k = t[1];
    if (k != 'b' && k != 'u' && k != 's' && k != 'f') return 0;
    const std::string_view bits = t.substr(2);
    if (bits == "8") return k == 'f' ? 0 : 1;
    if (bits == "16") return 2;
    if (bits == "32") return 4;
    if (bits == "64") return 8;
    if (bits == "128") return k == 'b' ? 16 : 0;
    return 0;
}

bool isStateSpace(std::string_view t) {
    return t == ".global" || t == ".shared" || t == ".const" || t == ".local" || t == ".param" || t == ".generic";
}

Param readParam(const Token* b, const Token* e) {
    Param p;
    int explicitAlign = 0;
    for (const Token* t = b; t != e; ++t) {
        const std::string_view x = t->text;
        if (x == ".param" || x == ".reg") continue;
        if (x == ".ptr") {
            p.isPointer = true;
        } else if (x == ".align") {
            if (t + 1 == e) break;
            ++t;
            // After .ptr the alignment describes the pointee, not the parameter slot.
            (p.isPointer ? p.pointerAlign : explicitAlign) = toInt(t->text);
        } else if (p.isPointer && isStateSpace(x)) {
            p.pointerSpace = std::string(x);
        } else if (x == "[") {
            if (t + 1 != e && t[1].text != "]") p.arrayCount = toInt(t[1].text);
        } else if (x[0] == '.') {
            if (p.type.empty() && elementSize(x) > 0) p.type = std::string(x);
        } else if (p.name.empty() && isWordChar(x[0]) && !(x[0] >= '0' && x[0] <= '9')) {
            p.name = std::string(x);
        }
    }
    const int elem = elementSize(p.type);
    // Clamped: a count no real kernel has (name[2147483647]) must not overflow.
    p.size = int(std::min<long long>(1LL * elem * (p.arrayCount > 0 ? p.arrayCount : 1), INT_MAX));
    p.align = explicitAlign > 0 ? explicitAlign : elem;
    return p;
}

// `b` points at '('; returns the token after the matching ')'.
const Token* readParamList(const Token* b, const Token* e, std::vector<Param>& out) {
    int depth = 0;
    const Token* start = b + 1;
    for (const Token* t = b; t != e; ++t) {
        if (t->text == "(") {
            ++depth;
        } else if (t->text == ")") {
            if (--depth == 0) {
                if (start != t) out.push_back(readParam(start, t));
                return t + 1;
            }
        } else if (t->text == "," && depth == 1) {
            out.push_back(readParam(start, t));
            start = t + 1;
        }
    }
    return e;  // unbalanced: keep what was complete
}

class Reader {
public:
    explicit Reader(std::string_view text) : s_(text) {}

    PtxModule read() {
        const size_t n = s_.size();
        size_t i = 0;
        int line = 1;
        int depth = 0;
        while (i < n) {
            const char c = s_[i];
            if (c == '\n') {
                if (inLineDirective_) endLineDirective();
                ++line;
                ++i;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                ++i;
                continue;
            }
            if (c == '/' && i + 1 < n && s_[i + 1] == '/') {
                while (i < n && s_[i] != '\n') ++i;
                continue;
            }
            if (c == '/' && i + 1 < n && s_[i + 1] == '*') {
                i += 2;
                while (i < n && !(s_[i] == '*' && i + 1 < n && s_[i + 1] == '/')) {
                    if (s_[i] == '\n') ++line;
                    ++i;
                }
                i = i < n ? i + 2 : n;
                continue;
            }
            if (c == '"') {
                // Strings (.file names, .pragma texts) may hold braces and slashes.
                const size_t start = i++;
                while (i < n && s_[i] != '"' && s_[i] != '\n') i += s_[i] == '\\' ? 2 : 1;
                i = i < n && s_[i] == '"' ? i + 1 : i;
                if (depth == 0) push({s_.substr(start, i - start), line});
                continue;
            }
            if (depth > 0) {
                // Bodies are most of the text and hold nothing this reader wants: call
                // sequences declare `.param .b32 param0;`, which are not the function's params.
                if (c == '{') ++depth;
                if (c == '}') --depth;
                ++i;
                continue;
            }
            if (c == '{') {
                endStatement(true);
                depth = 1;
                ++i;
                continue;
            }
            if (c == ';') {
                endStatement(false);
                ++i;
                continue;
            }
            if (isWordChar(c)) {
                const size_t start = i;
                while (i < n && isWordChar(s_[i])) ++i;
                const Token t{s_.substr(start, i - start), line};
                // These directives end at the end of their line, not at a ';'.
                if (stmt_.empty() && !inLineDirective_ &&
                    (t.text == ".version" || t.text == ".target" || t.text == ".address_size" || t.text == ".file")) {
                    inLineDirective_ = true;
                    lineDirective_.clear();
                }
                push(t);
                continue;
            }
            if (c != '}') push({s_.substr(i, 1), line});
            ++i;
        }
        if (inLineDirective_) endLineDirective();
        return std::move(module_);
    }

private:
    void push(Token t) { (inLineDirective_ ? lineDirective_ : stmt_).push_back(t); }

    void endLineDirective() {
        inLineDirective_ = false;
        const auto& d = lineDirective_;
        if (d.empty()) return;
        if (d[0].text == ".version" && d.size() > 1) {
            module_.version = std::string(d[1].text);
        } else if (d[0].text == ".target") {
            bool first = true;
            for (size_t k = 1; k < d.size(); ++k) {
                if (d[k].text == ",") continue;
                if (first)
                    module_.target = std::string(d[k].text);
                else
                    module_.targetFlags.emplace_back(d[k].text);
                first = false;
            }
        } else if (d[0].text == ".address_size" && d.size() > 1) {
            module_.addressSize = toInt(d[1].text);
        }
    }

    void endStatement(bool hasBody) {
        if (inLineDirective_) endLineDirective();
        if (!stmt_.empty()) readDeclaration(hasBody);
        stmt_.clear();
    }

    void readDeclaration(bool hasBody) {
        const Token* b = stmt_.data();
        const Token* e = b + stmt_.size();
        const Token* kw = b;
        while (kw != e && kw->text != ".entry" && kw->text != ".func") ++kw;
        if (kw == e) return;

        Function f;
        f.isEntry = kw->text == ".entry";
        f.line = kw->line;
        for (const Token* t = kw; t != b && isDirective(t[-1]); --t) {
            const std::string_view x = t[-1].text;
            if (x == ".visible")
                f.isVisible = true;
            else if (x == ".extern")
                f.isExtern = true;
            else if (x == ".weak")
                f.isWeak = true;
            else if (x != ".common")
                break;
            f.line = t[-1].line;
        }

        const Token* t = kw + 1;
        if (t != e && t->text == ".attribute") {  // .func .attribute(.unified(...)) name
            ++t;
            if (t != e && t->text == "(") {
                std::vector<Param> ignored;
                t = readParamList(t, e, ignored);
            }
        }
        if (!f.isEntry && t != e && t->text == "(") t = readParamList(t, e, f.returns);
        if (t == e || isDirective(*t) || !isWordChar(t->text[0])) return;
        f.name = std::string(t->text);
        ++t;
        if (t != e && t->text == "(") readParamList(t, e, f.params);

        // LLVM declares a function before its first use when it is defined further down; one
        // Function per name, and the definition is the line worth pointing at.
        const auto [it, added] = index_.try_emplace(f.name, module_.functions.size());
        if (added) {
            module_.functions.push_back(std::move(f));
            hasBody_.push_back(hasBody);
        } else if (hasBody && !hasBody_[it->second]) {
            module_.functions[it->second] = std::move(f);
            hasBody_[it->second] = true;
        }
    }

    std::string_view s_;
    PtxModule module_;
    std::vector<Token> stmt_;
    std::vector<Token> lineDirective_;
    bool inLineDirective_ = false;
    std::unordered_map<std::string, size_t> index_;  // name -> position in functions
    std::vector<bool> hasBody_;                      // parallel to functions
};

}  // namespace

PtxModule readPtx(std::string_view ptx) {
    return Reader(ptx).read();
}

}  // namespace nvpg::ptx
