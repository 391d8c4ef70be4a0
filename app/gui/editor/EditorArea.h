#pragma once

#include <vector>

#include <QWidget>

#include "core/nvvm/Diagnostic.h"

class QComboBox;
class QSplitter;
class QTabWidget;

namespace nvpg::gui {

class ModuleEditor;
class WorkspaceDocument;

// The left side: one editor per module, as tabs in one or two panes side by side (split), in
// the document's module order. Structure changes go through here so the editors (with their
// undo history and cursor) follow their modules. A module's editor is made when its tab is first
// shown (or editor() asks for it), so a workspace of thousands of modules does not make thousands
// of QScintilla editors. The first kMaxTabs modules have tabs from the start; with more, a list
// above the tabs holds every module, and picking one (or going to it from Problems) opens its tab.
class EditorArea : public QWidget {
    Q_OBJECT

public:
    explicit EditorArea(WorkspaceDocument* document, QWidget* parent = nullptr);

    // Copies the text of edited modules into the document (before a compile or a save).
    void flush();

    int currentModule() const;  // -1 when none
    // Made on first use, so a module's editor is there for whoever asks.
    ModuleEditor* editor(int module) const;
    // The module's editor when it has been made; null otherwise (makes none).
    ModuleEditor* madeEditor(int module) const {
        return module >= 0 && module < int(editors_.size()) ? editors_[size_t(module)] : nullptr;
    }
    // Editors made so far (for tests: a large workspace does not make them all).
    int editorCount() const;
    // Adding a tab lays out every tab again (QTabBar), so tens of thousands of tabs took minutes:
    // beyond this many, tabs open on demand.
    static constexpr int kMaxTabs = 256;
    bool hasTab(int module) const;
    ModuleEditor* currentEditor() const;

    void addModule(const std::string& name, const std::string& bytes, bool lazy);
    void removeModule(int module);
    bool renameModule(int module, const QString& name, QString* error);
    void moveModule(int module, int delta);
    void setLazy(int module, bool lazy);

    bool isSplit() const;
    // The current module and its neighbour side by side, the earlier module (in libNVVM's order)
    // on the left; every module before the split point is a tab on the left, the rest on the right.
    void setSplit(bool split);

    // Scintilla's zoom (points added to every style) for every editor, also those made later.
    void setZoom(int zoom);
    // A bitcode module's text: its llvm-dis-14 disassembly replaces the module's bytes, and the
    // name follows (kernel.bc -> kernel.ll, made unique as any module name is). False (with
    // `error` saying why) when it is not bitcode or there is no disassembly.
    bool convertToText(int module, QString* error);

    void setDiagnostics(const std::vector<nvvm::Diagnostic>& diagnostics);  // a copy
    // A reply's list, shared with it: each editor gets pointers to its module's.
    void setDiagnostics(nvvm::SharedDiagnostics diagnostics);
    void showLocation(const QString& module, int line, int column);

signals:
    void edited();  // a module's text changed
    // The bar's Convert to text button: the window asks first, then calls convertToText.
    void convertToTextRequested(int module);
    void currentModuleChanged(int module);
    // A module's editor was made (its tab shown, or someone asked for it).
    void editorMade(int module);

private:
    void rebuild();  // match editors to the document's modules, by name
    void refreshTabs();
    QTabWidget* paneOf(QWidget* page) const;
    int moduleOfPage(QWidget* page) const;  // -1 when none
    void activate(int module);
    ModuleEditor* makeEditor(int module);
    void showTabIcon(int module);
    void addTab(int module, int position);  // -1: at the end
    void showBitcodeBar(int module);        // typing into bitcode: say why nothing happens, offer the way out

    WorkspaceDocument* document_;
    QSplitter* splitter_;
    QTabWidget* panes_[2];
    // Parallel to the document's modules: each one's tab page, which holds its editor once made.
    std::vector<QWidget*> pages_;
    std::vector<bool> opened_;  // has a tab beyond the first kMaxTabs
    QComboBox* moduleBox_;
    std::vector<ModuleEditor*> editors_;  // null until made
    std::vector<bool> dirty_;
    std::vector<int> side_;  // 0 or 1: the pane a module's tab is in
    std::vector<std::vector<const nvvm::Diagnostic*>>
        diagnostics_;  // per module, into shown_; also for editors not made yet
    nvvm::SharedDiagnostics shown_;
    std::vector<int> levels_;  // 2 error, 1 warning, 0 none: the tab's icon
    bool loading_ = false;
    int zoom_ = 0;
};

}  // namespace nvpg::gui
