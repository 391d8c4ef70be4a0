#pragma once

#include <string_view>

#include "gui/editor/LexerSupport.h"

namespace nvpg::gui {

// Highlighting and folding for PTX. Like NvvmLexer it styles only the lines asked for; what
// crosses lines (an open /* comment, the brace depth for folding) is kept in Scintilla's
// per-line state, so a pass starts from the state the previous line ended in.
class PtxLexer : public LineLexer {
    Q_OBJECT

public:
    enum Style {
        Default = 0,
        Comment,
        Directive,    // .version .entry .reg .b32 ...
        Instruction,  // the opcode: ld, mad, setp, bra
        Modifier,     // its suffixes: .global.f32, .lo.s32, .uni
        Register,     // %r1 %rd2 %f3 %p1 %tid.x
        Predicate,    // @%p1 @!%p1
        Label,        // $L__BB0_2: and its uses
        Number,
        String,
        Punctuation,
        StyleCount
    };

    explicit PtxLexer(QObject* parent = nullptr);

    const char* language() const override;
    QString description(int style) const override;
    QColor defaultColor(int style) const override;
    const char* wordCharacters() const override;

    // What one line leaves for the next.
    struct LineState {
        bool inBlockComment = false;
        int braceDepth = 0;
        int pack() const { return (braceDepth << 1) | (inBlockComment ? 1 : 0); }
        static LineState unpack(int v) { return {(v & 1) != 0, v >> 1}; }
    };
    // Styles one line (no line end) given the state the previous line ended in; returns this
    // line's fold level (with the header flag when it opens a brace block).
    static int styleLine(std::string_view line, char* styles, LineState& state);

protected:
    int styleOneLine(std::string_view text, char* styles, int& state) const override;
};

}  // namespace nvpg::gui
