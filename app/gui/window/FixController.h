#pragma once

#include <map>
#include <string>
#include <vector>

#include <QObject>
#include <QString>

#include "core/nvvm/Fix.h"
#include "core/nvvm/Module.h"
#include "core/nvvm/Options.h"

namespace nvpg::gui {

class CompileController;
class EditorArea;
class ProblemsPanel;
class WorkspaceDocument;

// Applies the fixes core offers on diagnostics (the Problems panel's "Fix: …", an editor's
// lightbulb) and undoes them. The app invents no fix: core's nvvm::applyFix says what the modules
// and options become, and this only carries that out the way a person's edit would go: a module's
// new text into its editor as one undo action, options and libdevice through the document (as
// the Options dock sets them), lazy flags as Module ▸ Lazy sets them; then the compile runs.
//
// Undo: a fix can change an editor and the options at once, which no single undo stack holds.
// So each applied fix is remembered with the workspace before and after it, and Ctrl+Z (in an
// editor, or Edit ▸ Undo anywhere) first asks undoLast(): while the workspace is exactly as the
// last fix left it (every module's text and lazy flag, the options, libdevice), that fix is the
// last change, and it is undone whole (the editor's own undo for its text, the document for the
// rest). Otherwise Ctrl+Z is the pane's ordinary undo; once that brings the workspace back to
// how a fix left it, the next Ctrl+Z undoes the fix.
class FixController : public QObject {
    Q_OBJECT

public:
    FixController(WorkspaceDocument* document, EditorArea* editors, ProblemsPanel* problems,
                  CompileController* controller, QObject* parent = nullptr);

    // Applies `fix`, then compiles. False, with nothing changed and `error` saying why, when core
    // refuses it or when a module it edits changed since the compile that offered it.
    bool apply(const nvvm::Fix& fix, QString* error = nullptr);
    // Undoes the last fix when it is the last change (see above), then compiles: true. False
    // when it is not, and nothing happened.
    bool undoLast();
    bool canUndo() const;
    int historySize() const { return int(history_.size()); }
    // Fixes remembered for undo, the oldest forgotten first.
    static constexpr int kMaxHistory = 32;

signals:
    void applied(const QString& title);
    void undone(const QString& title);
    // A fix could not be applied: the window shows why.
    void failed(const QString& title, const QString& message);

private:
    struct State {
        std::vector<nvvm::Module> modules;
        nvvm::Options options;
        bool libdevice = false;
        bool operator==(const State& o) const;
    };
    struct Entry {
        QString title;
        State before, after;
    };
    State current() const;  // the editors' text flushed into the document first
    // Makes the workspace `target` from `from`: texts as one undo action per editor (or by undo,
    // when `byUndo` and the editor's last action is what separates them), lazy flags, options.
    void moveTo(const State& from, const State& target, bool byUndo);
    void compile(bool settingsChanged);

    WorkspaceDocument* document_;
    EditorArea* editors_;
    CompileController* controller_;
    std::vector<Entry> history_;
    // Hashes of each module's text as last sent to the engine, and as the reply on screen was
    // compiled from: the lines of its diagnostics (and so of its fixes) are of that text.
    std::map<std::string, size_t> submitted_, compiled_;
};

}  // namespace nvpg::gui
