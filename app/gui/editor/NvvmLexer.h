#pragma once

#include <string_view>

#include "gui/editor/LexerSupport.h"

namespace nvpg::gui {

// Highlighting and folding for NVVM IR text (the LLVM 7 dialect, and the `ptr` spelling of the
// modern one). Styling is line-local, so a pass styles only the lines Scintilla asks for: a
// 200k-line module costs what its visible window costs. The only state carried between lines
// is whether a line ends inside a function body (Scintilla's per-line state), for folding.
class NvvmLexer : public LineLexer {
    Q_OBJECT

public:
    enum Style {
        Default = 0,
        Comment,
        Global,
        Local,
        Metadata,
        AttributeGroup,
        Type,
        Instruction,
        Keyword,
        NvvmIntrinsic,
        LlvmIntrinsic,
        String,
        Number,
        Label,
        StyleCount
    };

    explicit NvvmLexer(QObject* parent = nullptr);

    const char* language() const override;
    QString description(int style) const override;
    QColor defaultColor(int style) const override;
    const char* wordCharacters() const override;

    // One line's styles (one per byte of `line`, which holds no line end). `insideFunction`
    // says whether the line starts in a function body and is updated to whether the next does;
    // `foldLevel` gets the Scintilla fold level (with the header flag) of this line. Exposed
    // so that the tokenizer can be checked without an editor.
    static void styleLine(std::string_view line, char* styles, bool& insideFunction, int& foldLevel);

protected:
    int styleOneLine(std::string_view text, char* styles, int& state) const override;
};

}  // namespace nvpg::gui
