#include "gui/editor/NvvmLexer.h"

#include <unordered_set>

#include "gui/editor/IrWords.h"
#include "gui/editor/LexerSupport.h"

namespace nvpg::gui {

using namespace lexer_support;

namespace {

using WordSet = std::unordered_set<std::string_view>;

template <std::size_t N>
WordSet makeSet(const std::string_view (&words)[N]) {
    return WordSet(std::begin(words), std::end(words));
}
const WordSet& typeWords() {
    static const WordSet s = makeSet(ir_words::kTypes);
    return s;
}
const WordSet& instructionWords() {
    static const WordSet s = makeSet(ir_words::kInstructions);
    return s;
}
const WordSet& keywordWords() {
    static const WordSet s = makeSet(ir_words::kKeywords);
    return s;
}

inline bool isNameChar(char c) {
    return isAlnum(c) || c == '-' || c == '$' || c == '.' || c == '_';
}
inline bool isWordStart(char c) {
    return isAlpha(c) || c == '_';
}
inline bool isWordChar(char c) {
    return isAlnum(c) || c == '_';
}

// A global's style: NVVM's own intrinsics apart from LLVM's, apart from user symbols.
char globalStyle(std::string_view name) {
    if (name.substr(0, 10) == "llvm.nvvm.") return NvvmLexer::NvvmIntrinsic;
    if (name.substr(0, 5) == "llvm.") return NvvmLexer::LlvmIntrinsic;
    return NvvmLexer::Global;
}

// Index just past a quoted string starting at `i` (on its opening quote); LLVM strings escape
// with \XX, never with \", so the next quote closes it. An unclosed string runs to the line end.
int skipString(std::string_view s, int i) {
    const int n = static_cast<int>(s.size());
    ++i;
    while (i < n && s[i] != '"') ++i;
    return i < n ? i + 1 : n;
}

int scanNumber(std::string_view s, int i) {
    const int n = static_cast<int>(s.size());
    if (s[i] == '-' || s[i] == '+') ++i;
    if (i + 1 < n && s[i] == '0' && s[i + 1] == 'x') {
        i += 2;
        // Hex float kinds: 0xK (x86_fp80), 0xL (fp128), 0xM (ppc_fp128), 0xH (half), 0xR (bfloat).
        if (i < n && (s[i] == 'K' || s[i] == 'L' || s[i] == 'M' || s[i] == 'H' || s[i] == 'R')) ++i;
        while (i < n && isHex(s[i])) ++i;
        return i;
    }
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
    return i;
}

}  // namespace

NvvmLexer::NvvmLexer(QObject* parent) : LineLexer(parent, Comment, {Instruction, NvvmIntrinsic, Label}) {}

const char* NvvmLexer::language() const {
    return "NVVM IR";
}

QString NvvmLexer::description(int style) const {
    // Scintilla only gets colours for styles with a description, so every style needs one.
    switch (style) {
        case Default:
            return tr("Default");
        case Comment:
            return tr("Comment");
        case Global:
            return tr("Global");
        case Local:
            return tr("Local");
        case Metadata:
            return tr("Metadata");
        case AttributeGroup:
            return tr("Attribute group");
        case Type:
            return tr("Type");
        case Instruction:
            return tr("Instruction");
        case Keyword:
            return tr("Keyword");
        case NvvmIntrinsic:
            return tr("NVVM intrinsic");
        case LlvmIntrinsic:
            return tr("LLVM intrinsic");
        case String:
            return tr("String");
        case Number:
            return tr("Number");
        case Label:
            return tr("Label");
        default:
            return {};
    }
}

QColor NvvmLexer::defaultColor(int style) const {
    switch (style) {
        case Comment:
            return QColor(0x80, 0x80, 0x80);
        case Global:
            return QColor(0x79, 0x5e, 0x26);
        case Local:
            return QColor(0x00, 0x10, 0x80);
        case Metadata:
            return QColor(0x4f, 0x6f, 0x8f);
        case AttributeGroup:
            return QColor(0xc0, 0x30, 0x7a);
        case Type:
            return QColor(0x26, 0x7f, 0x99);
        case Instruction:
            return QColor(0x00, 0x00, 0xc0);
        case Keyword:
            return QColor(0xaf, 0x00, 0xdb);
        case NvvmIntrinsic:
            return QColor(0x2e, 0x7d, 0x32);
        case LlvmIntrinsic:
            return QColor(0xc0, 0x56, 0x00);
        case String:
            return QColor(0xa3, 0x15, 0x15);
        case Number:
            return QColor(0x98, 0x68, 0x01);
        case Label:
            return QColor(0xa0, 0x52, 0x2d);
        default:
            return QColor(0x1f, 0x1f, 0x1f);
    }
}

// '.' makes `llvm.nvvm.read.ptx.sreg.tid.x` one word, for completion and double-click alike.
const char* NvvmLexer::wordCharacters() const {
    return "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$";
}

int NvvmLexer::styleOneLine(std::string_view text, char* styles, int& state) const {
    bool inside = (state & 1) != 0;
    int level = 0;
    styleLine(text, styles, inside, level);
    state = inside ? 1 : 0;
    return level;
}

void NvvmLexer::styleLine(std::string_view s, char* st, bool& insideFunction, int& foldLevel) {
    const int n = static_cast<int>(s.size());
    auto fill = [&](int from, int to, char style) {
        for (int k = from; k < to; ++k) st[k] = style;
    };
    fill(0, n, Default);

    int i = 0;
    while (i < n && isSpace(s[i])) ++i;
    const int firstNonSpace = i;
    std::string_view firstWord;
    int opens = 0, closes = 0;

    // A label: `name:` or `"quoted name":` first on its line.
    {
        int j = i;
        if (j < n && s[j] == '"') {
            j = skipString(s, j);
        } else {
            while (j < n && isNameChar(s[j])) ++j;
        }
        if (j > i && j < n && s[j] == ':') {
            fill(i, j + 1, Label);
            i = j + 1;
        }
    }

    while (i < n) {
        const char c = s[i];
        if (isSpace(c)) {
            ++i;
            continue;
        }
        if (c == ';') {
            fill(i, n, Comment);
            break;
        }
        if (c == '"') {
            const int j = skipString(s, i);
            fill(i, j, String);
            i = j;
            continue;
        }
        if (c == '@' || c == '%') {
            int j = i + 1;
            std::string_view name;
            if (j < n && s[j] == '"') {
                j = skipString(s, j);
                name = s.substr(i + 2, std::max(0, j - i - 3));
            } else {
                while (j < n && isNameChar(s[j])) ++j;
                name = s.substr(i + 1, j - i - 1);
            }
            fill(i, j, c == '%' ? static_cast<char>(Local) : globalStyle(name));
            i = j;
            continue;
        }
        if (c == '$') {  // comdat name
            int j = i + 1;
            while (j < n && isNameChar(s[j])) ++j;
            fill(i, j, Global);
            i = j;
            continue;
        }
        if (c == '!') {
            int j = i + 1;
            while (j < n && (isNameChar(s[j]) || s[j] == '\\')) ++j;
            fill(i, j, Metadata);
            i = j;
            continue;
        }
        if (c == '#' && i + 1 < n && isDigit(s[i + 1])) {
            int j = i + 1;
            while (j < n && isDigit(s[j])) ++j;
            fill(i, j, AttributeGroup);
            i = j;
            continue;
        }
        if (isDigit(c) || ((c == '-' || c == '+') && i + 1 < n && isDigit(s[i + 1]))) {
            const int j = scanNumber(s, i);
            fill(i, j, Number);
            i = j;
            continue;
        }
        if (isWordStart(c)) {
            int j = i;
            while (j < n && isWordChar(s[j])) ++j;
            const std::string_view w = s.substr(i, j - i);
            if (firstWord.empty()) firstWord = w;
            if (w == "c" && j < n && s[j] == '"') {  // c"bytes\00"
                const int e = skipString(s, j);
                fill(i, e, String);
                i = e;
                continue;
            }
            char style = Default;
            if (w.size() > 1 && w[0] == 'i' && w.find_first_not_of("0123456789", 1) == std::string_view::npos)
                style = Type;
            else if (typeWords().count(w))
                style = Type;
            else if (instructionWords().count(w))
                style = Instruction;
            else if (keywordWords().count(w))
                style = Keyword;
            fill(i, j, style);
            i = j;
            continue;
        }
        if (c == '*') {
            st[i++] = Type;
            continue;
        }
        if (c == '{') ++opens;
        if (c == '}') ++closes;
        ++i;
    }

    // Function bodies do not nest: a `define ... {` line opens one, a line starting with `}`
    // inside one closes it. The closing line stays in the fold so that folding hides it too.
    if (!insideFunction) {
        if (firstWord == "define" && opens > closes) {
            foldLevel = QsciScintillaBase::SC_FOLDLEVELBASE | QsciScintillaBase::SC_FOLDLEVELHEADERFLAG;
            insideFunction = true;
        } else {
            foldLevel = QsciScintillaBase::SC_FOLDLEVELBASE;
        }
    } else {
        foldLevel = QsciScintillaBase::SC_FOLDLEVELBASE + 1;
        if (firstNonSpace < n && s[firstNonSpace] == '}') insideFunction = false;
    }
}

}  // namespace nvpg::gui
