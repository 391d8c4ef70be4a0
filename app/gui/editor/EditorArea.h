#pragma once

#include <vector>

#include <QWidget>

#include "nvvm/Diagnostic.h"

class QSplitter;
class QTabWidget;

namespace nvpg::gui {

class ModuleEditor;
class WorkspaceDocument;

// The left side: one editor per module, as tabs in one or two panes side by side (split), in
// the document's module order. Structure changes go through here so the editors (with their
// undo history and cursor) follow their modules.
class EditorArea : public QWidget {
    Q_OBJECT

public:
    explicit EditorArea(WorkspaceDocument* document, QWidget* parent = nullptr);

    // Copies the text of edited modules into the document (before a compile or a save).
    void flush();

    int currentModule() const;  // -1 when none
    ModuleEditor* editor(int module) const;
    ModuleEditor* currentEditor() const;

    void addModule(const std::string& name, const std::string& bytes, bool lazy);
    void removeModule(int module);
    bool renameModule(int module, const QString& name, QString* error);
    void moveModule(int module, int delta);
    void setLazy(int module, bool lazy);

    bool isSplit() const;
    void setSplit(bool split);  // the current module goes to the other pane

    void setDiagnostics(const std::vector<nvvm::Diagnostic>& diagnostics);
    void showLocation(const QString& module, int line, int column);

signals:
    void edited();  // a module's text changed
    void currentModuleChanged(int module);

private:
    void rebuild();  // match editors to the document's modules, by name
    void refreshTabs();
    void refreshTabIcons();
    QTabWidget* paneOf(ModuleEditor* e) const;
    void activate(int module);

    WorkspaceDocument* document_;
    QSplitter* splitter_;
    QTabWidget* panes_[2];
    std::vector<ModuleEditor*> editors_;  // parallel to the document's modules
    std::vector<bool> dirty_;
    std::vector<int> side_;  // 0 or 1: the pane a module's tab is in
    bool loading_ = false;
};

}  // namespace nvpg::gui
