#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <Qsci/qsciscintilla.h>
#include <QElapsedTimer>
#include <QString>

#include "core/nvvm/Diagnostic.h"
#include "gui/editor/Annotations.h"

class QMenu;

namespace nvpg::gui {

class LlvmDis;
class NvvmLexer;
struct Disassembly;

// One module's editor: NVVM IR highlighting, line numbers, folding of function bodies, brace
// matching, autocompletion (instructions, NVVM intrinsics, libdevice functions) with call tips
// giving libdevice signatures, and the problems of this module shown in place (squiggles, margin
// markers, annotations under the line: Annotations), a lightbulb in the margin where core offers
// a fix, and hover docs (HoverDocs, read as IR). A bitcode module is shown read-only: its
// disassembly by llvm-dis-14 (LlvmDis) when installed, else a summary.
//
// Keys: Esc is the window's (Build > Cancel) unless a completion list or call tip is open; Enter
// on a completion that is already what was typed is a new line (Tab accepts); Enter after `{`
// indents by two; the window's zoom, Go to Line and Toggle Comment keys are not Scintilla's.
class ModuleEditor : public QsciScintilla {
    Q_OBJECT

public:
    explicit ModuleEditor(QWidget* parent = nullptr);
    // A disassembly still running is stopped first: deleting its run (LlvmDis) as a child, later in
    // ~QWidget, waits for it and says it finished to this editor, half destroyed by then.
    ~ModuleEditor() override;

    // Shows a module. Text is editable; bitcode is shown read-only (and moduleText() keeps the
    // original bytes). Bitcode is shown at once as a summary read from its bitstream while
    // llvm-dis-14 runs beside the event loop (at most 10 s); its text then replaces the summary,
    // and disassembled() says so.
    void setModule(const std::string& bytes, bool bitcode);
    // llvm-dis-14 is still making this bitcode module's text.
    bool isDisassembling() const { return disassembler_ != nullptr; }
    std::string moduleText() const;
    // The same bytes in place, valid until the next edit: a flush of a large module compares and
    // copies them once instead of copying them twice.
    std::string_view moduleTextView() const;
    bool isBitcodeView() const { return bitcode_; }

    // This module's problems; earlier ones are cleared. Lines and columns are 1-based.
    void setDiagnostics(const std::vector<nvvm::Diagnostic>& diagnostics);  // a copy
    // Those of a reply's shared list that are this module's (pointers into `all`, kept alive here).
    void setDiagnostics(nvvm::SharedDiagnostics all, const std::vector<const nvvm::Diagnostic*>& mine);
    // 1-based lines that carry an error or warning marker now (for tests and navigation).
    std::vector<int> markedLines() const;
    // Notes from the line map under their lines (0-based line -> text), in a quieter style than
    // the problems; a line with both shows the problems first. Replaces the earlier notes.
    void setMapNotes(const std::map<int, QString>& notes);
    // The annotation text under 0-based `line` as shown now (problems and notes).
    QString annotationText(int line) const;
    // Core's fixes for the problems on 1-based `line`, as setDiagnostics gave them: a lightbulb in
    // the margin marks such a line (in place of its error or warning mark), and a click on it
    // offers them. Empty when the line has none.
    std::vector<nvvm::Fix> fixesAt(int line) const;
    std::vector<int> fixLines() const;  // 1-based lines with a lightbulb now
    // What a click on the lightbulb of 1-based `line` does: a menu of "Fix: <title>" entries,
    // each emitting fixRequested. Null (no menu) when the line has no fixes.
    QMenu* offerFixes(int line);
    // Asked first on Ctrl+Z: true when it undid something (a fix of the window's) and the
    // editor's own undo is not wanted.
    void setUndoFirst(std::function<bool()> undo) { undoFirst_ = std::move(undo); }
    // Puts the cursor at 1-based line and column and makes it visible.
    void goTo(int line, int column);

    NvvmLexer* nvvmLexer() const { return lexer_; }

    // Comments the lines of the selection (or the caret's line) with "; " at their common
    // indentation, or uncomments them when every non-blank one is a comment already.
    void toggleComment();
    // Annotation boxes under lines push the code below them down: while the user is typing (a
    // key within this many ms, or a completion list open) new ones wait.
    static constexpr int kAnnotationPauseMs = Annotations::kPauseMs;
    // From this many lines on, a jump far ahead (Ctrl+End, Go to Line) styles the text up to the
    // new screen in steps between events (Scintilla's idle styling, a few ms a step: LineLexer)
    // instead of in one go: 100,000 lines styled at once hold the window for a tenth of a second
    // or more, and 7,500 lines 17 ms on the H200 machine. Smaller modules are
    // styled before they are painted, as always.
    static constexpr int kIdleStylingLines = 5000;
    // From this many lines on, the editor is offered to assistive technology (screen readers)
    // as an editable-text widget without QScintilla's text interface. That interface turns every
    // caret move and key into character offsets by counting the characters from the start of the
    // module (SCI_COUNTCHARACTERS): tens of ms per key at 200,000 lines, twice (key and paint).
    static constexpr int kPlainAccessibleLines = 20000;
    // Whether the accessible interface is the plain one (above), for tests.
    bool plainAccessible() const { return plainAccessible_; }
    // Such an editor also hides its insertions and deletions from QScintilla's notification of
    // them: QScintilla answers every one by counting the characters from the start of the module
    // (for an accessibility event, whether or not a screen reader runs), 20-40 ms per key at
    // 200,000 lines. It hears that a change is coming instead (SC_MOD_BEFOREINSERT/DELETE) and
    // says textChanged() (and linesChanged()) itself once the change is made: at the end of the
    // key or input method event that made it, else as soon as the event loop runs.
    bool quietChanges() const { return quietChanges_; }
    // A bitcode module's llvm-dis-14 text as shown (without the read-only header), for Convert to
    // Text; nullopt for a text module or when no disassembly could be made.
    std::optional<std::string> disassembly() const;
    // Whether the disassembler (llvm-dis-14, or the override) is there.
    static bool hasDisassembler();

    // Which disassembler setModule runs for bitcode. Unset (the default): llvm-dis-14 found on
    // PATH. Set to a program path to use that one; set to an empty string to behave as if none
    // were installed (tests of the summary view).
    static void setDisassemblerOverride(std::optional<QString> program);

signals:
    // A key that would edit was typed into the read-only bitcode view: nothing changed, and the
    // editor area offers Convert to Text instead of ignoring the key.
    void typingRefused();
    // Fix `index` of fixesAt(line) was chosen from the lightbulb's menu (by index: a Fix is
    // plain data that Qt's meta-types cannot compare).
    void fixRequested(int line, int index);
    // A bitcode module's view was replaced by llvm-dis-14's text, or by the summary saying why
    // there is none: markers and notes placed on the pending summary are gone.
    void disassembled();

protected:
    bool event(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void inputMethodEvent(QInputMethodEvent* event) override;

private:
    // Squiggles, margin markers and the boxes still waiting; the boxes shown are left.
    void clearMarks();
    QString wordBeforeCaret() const;
    QString currentCompletion() const;
    void loadBytes(const QByteArray& bytes);
    void clearDiagnostics();
    void updateLineNumberWidth();
    // The symbol margin's marks (the lightbulb among them) at the text's height: they grow with
    // the zoom as the text does.
    void sizeMarkers();
    // Switches between QScintilla's accessible interface and the plain one as the module
    // crosses kPlainAccessibleLines (the cached interface is dropped, so the next query makes
    // the right one).
    void updateAccessibleKind();
    void onCharAdded(int ch);
    bool caretInCommentOrString() const;
    // Whether the caret, and the line below it where a completion list opens, lie on a screen.
    bool caretOnAScreen() const;
    // quietChanges(): a change is coming (a Scintilla notification), and tell it once made.
    void onModified(int position, int type);
    void tellQuietChange();
    void disassemblyEnded(LlvmDis* run, const Disassembly& dis);

    bool bitcode_ = false;
    bool plainAccessible_ = false;
    bool quietChanges_ = false;
    bool quietChangePending_ = false;
    int linesBeforeQuietChange_ = 0;
    std::string bitcodeBytes_;
    std::optional<std::string> disassembly_;
    LlvmDis* disassembler_ = nullptr;  // the llvm-dis-14 run for bitcodeBytes_, while it runs
    NvvmLexer* lexer_ = nullptr;
    int errorIndicator_ = -1;
    int warningIndicator_ = -1;
    int errorMarker_ = -1;
    int warningMarker_ = -1;
    int fixErrorMarker_ = -1;
    int fixWarningMarker_ = -1;
    struct LineFixes {
        int markerHandle;                     // the lightbulb, which follows its line through edits
        std::vector<const nvvm::Fix*> fixes;  // in diagnostics_
    };
    std::vector<LineFixes> fixes_;
    nvvm::SharedDiagnostics diagnostics_;  // what fixes_ point into
    std::function<bool()> undoFirst_;
    int lineNumberDigits_ = 0;
    QElapsedTimer lastKey_;
    std::unique_ptr<Annotations> annotations_;  // the boxes under the lines
};

}  // namespace nvpg::gui
