#include "gui/window/FixController.h"

#include <algorithm>
#include <functional>

#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/panels/ProblemsPanel.h"

namespace nvpg::gui {

namespace {

bool isContinuation(char c) {
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Replaces what differs between `from` (the editor's text) and `to` as one undo action, so that
// the editor keeps its caret and folds outside the change and Ctrl+Z takes the change back whole.
void replaceText(ModuleEditor* e, const std::string& from, const std::string& to) {
    size_t prefix = 0;
    while (prefix < from.size() && prefix < to.size() && from[prefix] == to[prefix]) ++prefix;
    size_t suffix = 0;
    while (suffix < from.size() - prefix && suffix < to.size() - prefix &&
           from[from.size() - 1 - suffix] == to[to.size() - 1 - suffix])
        ++suffix;
    // Whole UTF-8 characters only.
    while (prefix > 0 && ((prefix < from.size() && isContinuation(from[prefix])) ||
                          (prefix < to.size() && isContinuation(to[prefix]))))
        --prefix;
    while (suffix > 0 && (isContinuation(from[from.size() - suffix]) || isContinuation(to[to.size() - suffix])))
        --suffix;
    e->beginUndoAction();
    e->SendScintilla(QsciScintillaBase::SCI_SETTARGETRANGE, static_cast<unsigned long>(prefix),
                     static_cast<long>(from.size() - suffix));
    e->SendScintilla(QsciScintillaBase::SCI_REPLACETARGET, static_cast<unsigned long>(to.size() - prefix - suffix),
                     to.data() + prefix);
    e->endUndoAction();
}

size_t textHash(const std::string& bytes) {
    return std::hash<std::string>{}(bytes);
}

const nvvm::Module* find(const std::vector<nvvm::Module>& modules, const std::string& name) {
    const auto it = std::find_if(modules.begin(), modules.end(), [&](const auto& m) { return m.name == name; });
    return it == modules.end() ? nullptr : &*it;
}

}  // namespace

bool FixController::State::operator==(const State& o) const {
    if (options != o.options || libdevice != o.libdevice || modules.size() != o.modules.size()) return false;
    for (size_t i = 0; i < modules.size(); ++i) {
        const auto &a = modules[i], &b = o.modules[i];
        if (a.name != b.name || a.lazy != b.lazy || a.bytes != b.bytes) return false;
    }
    return true;
}

FixController::FixController(WorkspaceDocument* document, EditorArea* editors, ProblemsPanel* problems,
                             CompileController* controller, QObject* parent)
    : QObject(parent), document_(document), editors_(editors), controller_(controller) {
    connect(problems, &ProblemsPanel::fixRequested, this, [this, problems](int row, int index) {
        if (row < 0 || row >= problems->count()) return;
        const auto& fixes = problems->diagnostic(row).fixes;
        if (index >= 0 && size_t(index) < fixes.size()) apply(nvvm::Fix(fixes[size_t(index)]));
    });
    connect(editors_, &EditorArea::editorMade, this, [this](int module) {
        ModuleEditor* e = editors_->madeEditor(module);
        if (!e) return;
        connect(e, &ModuleEditor::fixRequested, this, [this, e](int line, int index) {
            const auto fixes = e->fixesAt(line);
            if (index >= 0 && size_t(index) < fixes.size()) apply(fixes[size_t(index)]);
        });
        e->setUndoFirst([this] { return undoLast(); });
    });
    // Another workspace: its editors are new, and the fixes remembered were of the old one.
    connect(document_, &WorkspaceDocument::reloaded, this, [this] { history_.clear(); });
    connect(controller_, &CompileController::submitted, this, [this](quint64, bool) {
        submitted_.clear();
        for (const auto& m : document_->workspace().modules) submitted_[m.name] = textHash(m.bytes);
    });
    // A reply is shown only when it answers the newest request, so it was compiled from what
    // was submitted last.
    connect(controller_, &CompileController::replyShown, this, [this] { compiled_ = submitted_; });
    connect(controller_, &CompileController::verified, this, [this] { compiled_ = submitted_; });
}

FixController::State FixController::current() const {
    editors_->flush();
    const auto& ws = document_->workspace();
    return {ws.modules, ws.options, ws.libdevice};
}

bool FixController::apply(const nvvm::Fix& fix, QString* error) {
    const QString title = QString::fromStdString(fix.title);
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        emit failed(tr("Fix: %1").arg(title), why);
        return false;
    };
    const State before = current();
    State after = before;
    if (const auto status = nvvm::applyFix(fix, after.modules, after.options, after.libdevice); !status)
        return fail(QString::fromStdString(status.error().message));
    // Its lines are those of the text that was compiled; typing since may have moved them.
    for (const nvvm::TextEdit& edit : fix.edits) {
        const nvvm::Module* now = find(before.modules, edit.module);
        const auto compiled = compiled_.find(edit.module);
        if (now && (compiled == compiled_.end() || compiled->second != textHash(now->bytes)))
            return fail(tr("%1 changed since the compile that offered this fix, so its lines may not be where the "
                           "fix expects them. Compile again (Ctrl+B) to get a fix for the text as it is now.")
                            .arg(QString::fromStdString(edit.module)));
    }
    const bool settings = after.options != before.options || after.libdevice != before.libdevice;
    // The compile this causes says so in the history (a settings change compiles within moveTo).
    controller_->setNextCause(tr("fix: %1").arg(title));
    moveTo(before, after, /*byUndo=*/false);
    const State done = current();
    if (!(done == before)) {
        history_.push_back({title, before, done});
        if (history_.size() > size_t(kMaxHistory)) history_.erase(history_.begin());
    }
    emit applied(title);
    compile(settings);
    return true;
}

bool FixController::canUndo() const {
    return !history_.empty() && current() == history_.back().after;
}

bool FixController::undoLast() {
    if (!canUndo()) return false;
    const Entry entry = history_.back();
    history_.pop_back();
    const bool settings =
        entry.before.options != entry.after.options || entry.before.libdevice != entry.after.libdevice;
    controller_->setNextCause(tr("fix undone: %1").arg(entry.title));
    moveTo(entry.after, entry.before, /*byUndo=*/true);
    emit undone(entry.title);
    compile(settings);
    return true;
}

void FixController::moveTo(const State& from, const State& target, bool byUndo) {
    for (const nvvm::Module& m : target.modules) {
        const nvvm::Module* was = find(from.modules, m.name);
        const int index = document_->indexOf(QString::fromStdString(m.name));
        if (!was || index < 0) continue;
        if (was->bytes != m.bytes) {
            ModuleEditor* e = editors_->editor(index);
            if (!e) continue;
            bool done = false;
            if (byUndo && e->isUndoAvailable()) {
                // The fix was one undo action: undone as the user's Ctrl+Z would, so that Redo
                // brings it back. Another action on top (typed and deleted again) is put back,
                // and the text is set as one action instead.
                const std::string had = e->moduleText();
                e->undo();
                done = e->moduleText() == m.bytes;
                if (!done && e->moduleText() != had) e->redo();
            }
            if (!done) replaceText(e, e->moduleText(), m.bytes);
        }
        if (was->lazy != m.lazy) editors_->setLazy(index, m.lazy);
    }
    // Through the document, as the Options dock's controls set them.
    if (target.options != from.options) document_->setOptions(target.options);
    if (target.libdevice != from.libdevice) document_->setLibdevice(target.libdevice);
    editors_->flush();
}

void FixController::compile(bool settingsChanged) {
    // A change of options or libdevice compiled at once already while auto-compile is on (the
    // window's settingsChanged → CompileController::settingsEdited); otherwise the fix's proof
    // is compiled now, without waiting for the typing pause.
    if (settingsChanged && controller_->autoCompile()) return;
    controller_->compileNow();
}

}  // namespace nvpg::gui
