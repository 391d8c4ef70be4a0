#include "editor/EditorArea.h"

#include <QHBoxLayout>
#include <QStyle>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>

#include "document/WorkspaceDocument.h"
#include "editor/ModuleEditor.h"

namespace nvpg::gui {

EditorArea::EditorArea(WorkspaceDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    splitter_ = new QSplitter(Qt::Horizontal, this);
    for (int side = 0; side < 2; ++side) {
        panes_[side] = new QTabWidget(splitter_);
        panes_[side]->setDocumentMode(true);
        panes_[side]->setMovable(false);  // order is the document's: use Move Up/Down
        connect(panes_[side], &QTabWidget::currentChanged, this,
                [this] { emit currentModuleChanged(currentModule()); });
        splitter_->addWidget(panes_[side]);
    }
    panes_[1]->hide();
    layout->addWidget(splitter_);
    connect(document_, &WorkspaceDocument::reloaded, this, [this] {
        // Another workspace: nothing of the old editors carries over.
        for (auto* e : editors_) e->deleteLater();
        editors_.clear();
        dirty_.clear();
        side_.clear();
    });
    connect(document_, &WorkspaceDocument::modulesChanged, this, &EditorArea::rebuild);
    rebuild();
}

void EditorArea::flush() {
    for (size_t i = 0; i < editors_.size(); ++i) {
        if (!dirty_[i] || editors_[i]->isBitcodeView()) continue;
        const int module = document_->indexOf(editors_[i]->property("moduleName").toString());
        if (module >= 0) document_->setModuleText(module, editors_[i]->moduleText());
        dirty_[i] = false;
    }
}

int EditorArea::currentModule() const {
    QWidget* w = nullptr;
    if (panes_[1]->isVisible() && panes_[1]->hasFocus()) w = panes_[1]->currentWidget();
    for (int side = 0; side < 2 && !w; ++side)
        if (panes_[side]->isVisible()) w = panes_[side]->currentWidget();
    // The pane holding the focused editor wins, so actions apply to what the user looks at.
    for (size_t i = 0; i < editors_.size(); ++i)
        if (editors_[i]->hasFocus()) return int(i);
    for (size_t i = 0; i < editors_.size(); ++i)
        if (editors_[i] == w) return int(i);
    return -1;
}

ModuleEditor* EditorArea::editor(int module) const {
    return module >= 0 && module < int(editors_.size()) ? editors_[size_t(module)] : nullptr;
}

ModuleEditor* EditorArea::currentEditor() const {
    return editor(currentModule());
}

void EditorArea::rebuild() {
    // No flush here: the document's order may already have changed, and a dirty editor keeps
    // its text until the next flush maps it to the right module by name. Reuse the editor of each
    // module that is still there (matched by name), in the new order.
    std::vector<ModuleEditor*> next;
    std::vector<bool> nextDirty;
    std::vector<int> nextSide;
    std::vector<bool> used(editors_.size(), false);
    loading_ = true;
    for (int i = 0; i < document_->moduleCount(); ++i) {
        const auto& m = document_->module(i);
        ModuleEditor* found = nullptr;
        for (size_t k = 0; k < editors_.size(); ++k) {
            if (!used[k] &&
                editors_[k]->property("moduleName").toString().toStdString() == m.name) {
                found = editors_[k];
                used[k] = true;
                nextDirty.push_back(dirty_[k]);
                nextSide.push_back(side_[k]);
                break;
            }
        }
        if (found && !nextDirty.back() && found->moduleText() != m.bytes)
            found->setModule(m.bytes, m.isBitcode());
        if (!found) {
            found = new ModuleEditor(this);
            found->setModule(m.bytes, m.isBitcode());
            found->setProperty("moduleName", QString::fromStdString(m.name));
            connect(found, &QsciScintilla::textChanged, this, [this, found] {
                if (loading_) return;
                for (size_t k = 0; k < editors_.size(); ++k)
                    if (editors_[k] == found) dirty_[k] = true;
                document_->markModified();
                emit edited();
            });
            nextDirty.push_back(false);
            nextSide.push_back(0);
        }
        next.push_back(found);
    }
    for (size_t k = 0; k < editors_.size(); ++k)
        if (!used[k]) editors_[k]->deleteLater();
    editors_ = std::move(next);
    dirty_ = std::move(nextDirty);
    side_ = std::move(nextSide);
    loading_ = false;
    refreshTabs();
}

void EditorArea::refreshTabs() {
    ModuleEditor* current = currentEditor();
    for (auto* pane : panes_) {
        const QSignalBlocker block(pane);
        while (pane->count()) pane->removeTab(0);
    }
    for (size_t i = 0; i < editors_.size(); ++i) {
        const auto& m = document_->module(int(i));
        QString label = QString::fromStdString(m.name);
        QStringList badges;
        if (m.isBitcode()) badges << "bitcode";
        if (m.lazy) badges << "lazy";
        if (!badges.isEmpty()) label += "  [" + badges.join(", ") + "]";
        auto* pane = panes_[side_[i]];
        const int tab = pane->addTab(editors_[i], label);
        pane->setTabToolTip(
            tab, QStringLiteral("%1: %2 module %3 of %4, %5 bytes%6")
                     .arg(QString::fromStdString(m.name))
                     .arg(m.isBitcode() ? "bitcode" : "text IR")
                     .arg(i + 1)
                     .arg(editors_.size())
                     .arg(m.bytes.size())
                     .arg(m.lazy ? ", loaded lazily (only what other modules use)" : ""));
    }
    panes_[1]->setVisible(panes_[1]->count() > 0);
    refreshTabIcons();
    if (current) {
        for (auto* pane : panes_)
            if (pane->indexOf(current) >= 0) pane->setCurrentWidget(current);
    }
}

QTabWidget* EditorArea::paneOf(ModuleEditor* e) const {
    for (auto* pane : panes_)
        if (pane->indexOf(e) >= 0) return pane;
    return nullptr;
}

void EditorArea::activate(int module) {
    auto* e = editor(module);
    if (!e) return;
    if (auto* pane = paneOf(e)) pane->setCurrentWidget(e);
    e->setFocus();
}

void EditorArea::addModule(const std::string& name, const std::string& bytes, bool lazy) {
    flush();
    const int i = document_->addModule({name, bytes, lazy});
    activate(i);
}

void EditorArea::removeModule(int module) {
    if (!editor(module)) return;
    flush();
    document_->removeModule(module);
}

bool EditorArea::renameModule(int module, const QString& name, QString* error) {
    auto* e = editor(module);
    if (!e) return false;
    flush();
    const QString old = e->property("moduleName").toString();
    e->setProperty("moduleName", name.trimmed());  // so rebuild() keeps this editor
    if (auto st = document_->renameModule(module, name); !st) {
        e->setProperty("moduleName", old);
        if (error) *error = QString::fromStdString(st.error().message);
        return false;
    }
    return true;
}

void EditorArea::moveModule(int module, int delta) {
    const int to = module + delta;
    if (!editor(module) || to < 0 || to >= int(editors_.size())) return;
    flush();
    document_->moveModule(module, to);
    activate(to);
}

void EditorArea::setLazy(int module, bool lazy) {
    if (!editor(module)) return;
    document_->setLazy(module, lazy);
}

bool EditorArea::isSplit() const {
    return panes_[1]->count() > 0;
}

void EditorArea::setSplit(bool split) {
    if (split == isSplit()) return;
    if (split) {
        const int current = currentModule();
        if (current < 0 || editors_.size() < 2) return;  // two modules are needed to see two
        side_[size_t(current)] = 1;
    } else {
        std::fill(side_.begin(), side_.end(), 0);
    }
    refreshTabs();
    if (split) {
        const int half = std::max(splitter_->width() / 2, 100);
        splitter_->setSizes({half, half});
    }
}

void EditorArea::setDiagnostics(const std::vector<nvvm::Diagnostic>& diagnostics) {
    for (size_t i = 0; i < editors_.size(); ++i) {
        std::vector<nvvm::Diagnostic> mine;
        for (const auto& d : diagnostics)
            if (d.module == document_->module(int(i)).name) mine.push_back(d);
        loading_ = true;  // annotations are not edits
        editors_[i]->setDiagnostics(mine);
        loading_ = false;
        int worst = 0;  // 2 error, 1 warning: shown on the tab, so a problem in a hidden module shows
        for (const auto& d : mine) worst = std::max(worst, d.severity == nvvm::Severity::Error ? 2 : 1);
        editors_[i]->setProperty("problemLevel", worst);
    }
    refreshTabIcons();
}

void EditorArea::refreshTabIcons() {
    for (auto* e : editors_) {
        auto* pane = paneOf(e);
        if (!pane) continue;
        const int level = e->property("problemLevel").toInt();
        pane->setTabIcon(pane->indexOf(e), level == 2   ? style()->standardIcon(QStyle::SP_MessageBoxCritical)
                                           : level == 1 ? style()->standardIcon(QStyle::SP_MessageBoxWarning)
                                                        : QIcon());
    }
}

void EditorArea::showLocation(const QString& module, int line, int column) {
    const int i = document_->indexOf(module);
    if (i < 0) return;
    activate(i);
    if (line > 0) editors_[size_t(i)]->goTo(line, std::max(column, 1));
}

}  // namespace nvpg::gui
