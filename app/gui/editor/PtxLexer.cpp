#include "gui/editor/PtxLexer.h"

#include <algorithm>
#include <unordered_set>

#include "gui/editor/LexerSupport.h"

namespace nvpg::gui {

using namespace lexer_support;

namespace {

// PTX opcodes (ISA 8.x). A word counts as an instruction only first in its statement, so a
// kernel called `add` or a call's argument list spread over lines is not mistaken for one.
const std::unordered_set<std::string_view>& opcodes() {
    static const std::unordered_set<std::string_view> s = {"abs",           "activemask", "add",
                                                           "addc",          "alloca",     "and",
                                                           "applypriority", "atom",       "bar",
                                                           "barrier",       "bfe",        "bfi",
                                                           "bfind",         "bmsk",       "bra",
                                                           "brev",          "brkpt",      "brx",
                                                           "call",          "clz",        "cnot",
                                                           "copysign",      "cos",        "cp",
                                                           "createpolicy",  "cvt",        "cvta",
                                                           "discard",       "div",        "dp2a",
                                                           "dp4a",          "elect",      "ex2",
                                                           "exit",          "fence",      "fma",
                                                           "fns",           "getctarank", "griddepcontrol",
                                                           "isspacep",      "istypep",    "ld",
                                                           "ldmatrix",      "ldu",        "lg2",
                                                           "lop3",          "mad",        "mad24",
                                                           "madc",          "mapa",       "match",
                                                           "max",           "mbarrier",   "membar",
                                                           "min",           "mma",        "mov",
                                                           "movmatrix",     "mul",        "mul24",
                                                           "multimem",      "nanosleep",  "neg",
                                                           "not",           "or",         "pmevent",
                                                           "popc",          "prefetch",   "prefetchu",
                                                           "prmt",          "rcp",        "red",
                                                           "redux",         "rem",        "ret",
                                                           "rsqrt",         "sad",        "selp",
                                                           "set",           "setmaxnreg", "setp",
                                                           "shf",           "shfl",       "shl",
                                                           "shr",           "sin",        "slct",
                                                           "sqrt",          "st",         "stackrestore",
                                                           "stacksave",     "stmatrix",   "sub",
                                                           "subc",          "suld",       "suq",
                                                           "sured",         "sust",       "szext",
                                                           "tanh",          "testp",      "tex",
                                                           "tld4",          "trap",       "txq",
                                                           "vabsdiff",      "vadd",       "vmad",
                                                           "vmax",          "vmin",       "vote",
                                                           "vset",          "vshl",       "vshr",
                                                           "vsub",          "wgmma",      "wmma",
                                                           "xor",           "tcgen05",    "clusterlaunchcontrol"};
    return s;
}

inline bool isIdentStart(char c) {
    return isAlpha(c) || c == '_' || c == '$';
}
inline bool isIdentChar(char c) {
    return isAlnum(c) || c == '_' || c == '$';
}

int scanNumber(std::string_view s, int i) {
    const int n = static_cast<int>(s.size());
    if (s[i] == '-' || s[i] == '+') ++i;
    if (i + 1 < n && s[i] == '0' &&
        (s[i + 1] == 'x' || s[i + 1] == 'X' || s[i + 1] == 'f' || s[i + 1] == 'F' || s[i + 1] == 'd' ||
         s[i + 1] == 'D')) {
        // 0x1F, and the exact float spellings 0f3F800000 / 0d3FF0000000000000.
        i += 2;
        while (i < n && isHex(s[i])) ++i;
    } else {
        while (i < n && isDigit(s[i])) ++i;
        if (i < n && s[i] == '.') {
            ++i;
            while (i < n && isDigit(s[i])) ++i;
        }
        if (i < n && (s[i] == 'e' || s[i] == 'E')) {
            int j = i + 1;
            if (j < n && (s[j] == '+' || s[j] == '-')) ++j;
            if (j < n && isDigit(s[j])) {
                i = j;
                while (i < n && isDigit(s[i])) ++i;
            }
        }
    }
    if (i < n && s[i] == 'U') ++i;
    return i;
}

}  // namespace

PtxLexer::PtxLexer(QObject* parent) : LineLexer(parent, Comment, {Instruction, Predicate, Label}) {}

const char* PtxLexer::language() const {
    return "PTX";
}

QString PtxLexer::description(int style) const {
    switch (style) {
        case Default:
            return tr("Default");
        case Comment:
            return tr("Comment");
        case Directive:
            return tr("Directive");
        case Instruction:
            return tr("Instruction");
        case Modifier:
            return tr("Instruction modifier");
        case Register:
            return tr("Register");
        case Predicate:
            return tr("Predicate guard");
        case Label:
            return tr("Label");
        case Number:
            return tr("Number");
        case String:
            return tr("String");
        case Punctuation:
            return tr("Punctuation");
        default:
            return {};
    }
}

QColor PtxLexer::defaultColor(int style) const {
    switch (style) {
        case Comment:
            return QColor(0x80, 0x80, 0x80);
        case Directive:
            return QColor(0xaf, 0x00, 0xdb);
        case Instruction:
            return QColor(0x00, 0x00, 0xc0);
        case Modifier:
            return QColor(0x3a, 0x6f, 0xc4);
        case Register:
            return QColor(0x00, 0x10, 0x80);
        case Predicate:
            return QColor(0xc0, 0x56, 0x00);
        case Label:
            return QColor(0xa0, 0x52, 0x2d);
        case Number:
            return QColor(0x98, 0x68, 0x01);
        case String:
            return QColor(0xa3, 0x15, 0x15);
        case Punctuation:
            return QColor(0x55, 0x55, 0x55);
        default:
            return QColor(0x1f, 0x1f, 0x1f);
    }
}

const char* PtxLexer::wordCharacters() const {
    return "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$%.";
}

int PtxLexer::styleOneLine(std::string_view text, char* styles, int& packed) const {
    LineState state = LineState::unpack(packed);
    const int level = styleLine(text, styles, state);
    packed = state.pack();
    return level;
}

int PtxLexer::styleLine(std::string_view s, char* st, LineState& state) {
    const int n = static_cast<int>(s.size());
    auto fill = [&](int from, int to, char style) {
        for (int k = from; k < to; ++k) st[k] = style;
    };
    fill(0, n, Default);
    const int depthAtStart = state.braceDepth;
    bool statementStart = true;
    bool onlySpaceSoFar = true;

    int i = 0;
    while (i < n) {
        if (state.inBlockComment) {
            int j = i;
            while (j + 1 < n && !(s[j] == '*' && s[j + 1] == '/')) ++j;
            if (j + 1 < n) {
                fill(i, j + 2, Comment);
                i = j + 2;
                state.inBlockComment = false;
            } else {
                fill(i, n, Comment);
                i = n;
            }
            continue;
        }
        const char c = s[i];
        if (isSpace(c)) {
            ++i;
            continue;
        }
        const bool atLineStart = onlySpaceSoFar;
        onlySpaceSoFar = false;
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            fill(i, n, Comment);
            break;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            fill(i, i + 2, Comment);
            i += 2;
            state.inBlockComment = true;
            continue;
        }
        if (c == '"') {
            int j = i + 1;
            while (j < n && s[j] != '"') j += (s[j] == '\\' && j + 1 < n) ? 2 : 1;
            j = std::min(n, j + 1);
            fill(i, j, String);
            i = j;
            statementStart = false;
            continue;
        }
        if (c == '@') {  // guard: @%p1, @!%p1; the instruction follows
            int j = i + 1;
            if (j < n && s[j] == '!') ++j;
            if (j < n && s[j] == '%') ++j;
            while (j < n && (isIdentChar(s[j]) || s[j] == '.')) ++j;
            fill(i, j, Predicate);
            i = j;
            continue;
        }
        if (c == '%') {
            int j = i + 1;
            while (j < n && (isIdentChar(s[j]) || s[j] == '.')) ++j;
            fill(i, j, Register);
            i = j;
            statementStart = false;
            continue;
        }
        if (c == '.' && i + 1 < n && (isAlpha(s[i + 1]) || s[i + 1] == '_')) {
            int j = i + 1;
            while (j < n && isIdentChar(s[j])) ++j;
            fill(i, j, Directive);
            i = j;
            statementStart = false;
            continue;
        }
        if (isDigit(c) || ((c == '-' || c == '+') && i + 1 < n && isDigit(s[i + 1]))) {
            const int j = scanNumber(s, i);
            fill(i, j, Number);
            i = j;
            statementStart = false;
            continue;
        }
        if (isIdentStart(c)) {
            int j = i;
            while (j < n && isIdentChar(s[j])) ++j;
            const std::string_view w = s.substr(i, j - i);
            if (atLineStart && j < n && s[j] == ':') {
                fill(i, j + 1, Label);
                i = j + 1;
                continue;
            }
            if (w[0] == '$') {
                fill(i, j, Label);
            } else if (statementStart && opcodes().count(w)) {
                fill(i, j, Instruction);
                // The suffix chain: ld.global.nc.v4.f32, mad.lo.s32, bra.uni.
                while (j < n && s[j] == '.' && j + 1 < n && isIdentChar(s[j + 1])) {
                    int k = j + 1;
                    while (k < n && isIdentChar(s[k])) ++k;
                    fill(j, k, Modifier);
                    j = k;
                }
            }
            i = j;
            statementStart = false;
            continue;
        }
        switch (c) {
            case '{':
                ++state.braceDepth;
                statementStart = true;
                break;
            case '}':
                state.braceDepth = std::max(0, state.braceDepth - 1);
                statementStart = true;
                break;
            case ';':
                statementStart = true;
                break;
            default:
                break;
        }
        if (std::string_view("{}()[];,<>+-=|:!&*/~^?").find(c) != std::string_view::npos) st[i] = Punctuation;
        ++i;
    }

    int level = QsciScintillaBase::SC_FOLDLEVELBASE + std::min(depthAtStart, 0xFF);
    if (state.braceDepth > depthAtStart) level |= QsciScintillaBase::SC_FOLDLEVELHEADERFLAG;
    return level;
}

}  // namespace nvpg::gui
