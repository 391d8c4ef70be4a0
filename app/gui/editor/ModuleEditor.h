#pragma once

#include <optional>
#include <string>
#include <vector>

#include <Qsci/qsciscintilla.h>
#include <QString>

#include "nvvm/Diagnostic.h"

namespace nvpg::gui {

class NvvmLexer;

// One module's editor: NVVM IR highlighting, line numbers, folding of function bodies, brace
// matching, autocompletion (instructions, NVVM intrinsics, libdevice functions) with call tips
// giving libdevice signatures, and the problems of this module shown in place (squiggles, margin
// markers, annotations under the line). A bitcode module is shown read-only: its disassembly by
// llvm-dis-14 when installed, else a summary.
class ModuleEditor : public QsciScintilla {
    Q_OBJECT

public:
    explicit ModuleEditor(QWidget* parent = nullptr);

    // Shows a module. Text is editable; bitcode is shown read-only (and moduleText() keeps the
    // original bytes).
    void setModule(const std::string& bytes, bool bitcode);
    std::string moduleText() const;
    bool isBitcodeView() const { return bitcode_; }

    // This module's problems; earlier ones are cleared. Lines and columns are 1-based.
    void setDiagnostics(const std::vector<nvvm::Diagnostic>& diagnostics);
    // 1-based lines that carry an error or warning marker now (for tests and navigation).
    std::vector<int> markedLines() const;
    // Puts the cursor at 1-based line and column and makes it visible.
    void goTo(int line, int column);

    NvvmLexer* nvvmLexer() const { return lexer_; }

    // Which disassembler setModule runs for bitcode. Unset (the default): llvm-dis-14 found on
    // PATH. Set to a program path to use that one; set to an empty string to behave as if none
    // were installed (tests of the summary view).
    static void setDisassemblerOverride(std::optional<QString> program);

private:
    void loadBytes(const QByteArray& bytes);
    void clearDiagnostics();
    void updateLineNumberWidth();
    void onCharAdded(int ch);
    bool caretInCommentOrString() const;

    bool bitcode_ = false;
    std::string bitcodeBytes_;
    NvvmLexer* lexer_ = nullptr;
    int errorIndicator_ = -1;
    int warningIndicator_ = -1;
    int errorMarker_ = -1;
    int warningMarker_ = -1;
    int lineNumberDigits_ = 0;
};

}  // namespace nvpg::gui
