#include "gui/editor/EditorArea.h"

#include <algorithm>

#include <QComboBox>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/ModuleEditor.h"

namespace nvpg::gui {

EditorArea::EditorArea(WorkspaceDocument* document, QWidget* parent) : QWidget(parent), document_(document) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    moduleBox_ = new QComboBox(this);
    moduleBox_->setObjectName(QStringLiteral("moduleBox"));
    moduleBox_->setToolTip(tr("Every module of this workspace: pick one to open its tab"));
    moduleBox_->hide();
    connect(moduleBox_, &QComboBox::activated, this, [this](int module) { activate(module); });
    layout->addWidget(moduleBox_);
    splitter_ = new QSplitter(Qt::Horizontal, this);
    for (int side = 0; side < 2; ++side) {
        panes_[side] = new QTabWidget(splitter_);
        panes_[side]->setDocumentMode(true);
        panes_[side]->setMovable(false);  // order is the document's: use Move Up/Down
        connect(panes_[side], &QTabWidget::currentChanged, this, [this, side](int tab) {
            makeEditor(moduleOfPage(panes_[side]->widget(tab)));  // a tab shown has its editor
            if (moduleBox_->isVisible()) {
                const QSignalBlocker block(moduleBox_);
                moduleBox_->setCurrentIndex(currentModule());
            }
            emit currentModuleChanged(currentModule());
        });
        splitter_->addWidget(panes_[side]);
    }
    panes_[1]->hide();
    layout->addWidget(splitter_);
    connect(document_, &WorkspaceDocument::reloaded, this, [this] {
        // Another workspace: nothing of the old editors carries over.
        for (auto* page : pages_) page->deleteLater();
        pages_.clear();
        opened_.clear();
        editors_.clear();
        dirty_.clear();
        side_.clear();
        diagnostics_.clear();
        levels_.clear();
    });
    connect(document_, &WorkspaceDocument::modulesChanged, this, &EditorArea::rebuild);
    // Saved (or back to what was saved): each editor's undo history marks this as the point
    // where it is unmodified, so undoing to it clears the title's * again.
    connect(document_, &WorkspaceDocument::modifiedChanged, this, [this](bool modified) {
        if (modified) return;
        loading_ = true;
        for (auto* e : editors_)
            if (e && e->isModified()) e->setModified(false);
        loading_ = false;
    });
    rebuild();
}

void EditorArea::flush() {
    for (size_t i = 0; i < editors_.size(); ++i) {
        if (!editors_[i] || !dirty_[i] || editors_[i]->isBitcodeView()) continue;
        const int module = document_->indexOf(pages_[i]->property("moduleName").toString());
        if (module >= 0) document_->setModuleText(module, editors_[i]->moduleTextView());
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
        if (editors_[i] && editors_[i]->hasFocus()) return int(i);
    return moduleOfPage(w);
}

ModuleEditor* EditorArea::editor(int module) const {
    // Making the editor a module already has changes no state anyone can see: hence const.
    return const_cast<EditorArea*>(this)->makeEditor(module);
}

int EditorArea::editorCount() const {
    return int(std::count_if(editors_.begin(), editors_.end(), [](auto* e) { return e != nullptr; }));
}

ModuleEditor* EditorArea::currentEditor() const {
    return editor(currentModule());
}

int EditorArea::moduleOfPage(QWidget* page) const {
    if (!page) return -1;
    const auto it = std::find(pages_.begin(), pages_.end(), page);
    return it == pages_.end() ? -1 : int(it - pages_.begin());
}

ModuleEditor* EditorArea::makeEditor(int module) {
    if (module < 0 || module >= int(pages_.size())) return nullptr;
    if (auto* e = editors_[size_t(module)]) return e;
    const auto& m = document_->module(module);
    auto* e = new ModuleEditor(pages_[size_t(module)]);
    const bool wasLoading = loading_;
    loading_ = true;
    e->setModule(m.bytes, m.isBitcode());
    e->setDiagnostics(shown_, diagnostics_[size_t(module)]);
    e->SendScintilla(QsciScintillaBase::SCI_SETZOOM, zoom_);
    loading_ = wasLoading;
    pages_[size_t(module)]->layout()->addWidget(e);
    e->show();  // at once (a layout would show it only at the next event), and with its page
    pages_[size_t(module)]->setFocusProxy(e);
    connect(e, &ModuleEditor::typingRefused, this, [this, e] {
        const auto it = std::find(editors_.begin(), editors_.end(), e);
        if (it != editors_.end()) showBitcodeBar(int(it - editors_.begin()));
    });
    connect(e, &QsciScintilla::textChanged, this, [this, e] {
        // A bitcode view is read-only: its text changes only when llvm-dis-14's text replaces the
        // summary, which is no edit.
        if (loading_ || e->isBitcodeView()) return;
        for (size_t k = 0; k < editors_.size(); ++k)
            if (editors_[k] == e) dirty_[k] = true;
        document_->markModified();
        emit edited();
    });
    // Undone (or redone) back to the text last saved: the document may be as saved again.
    connect(e, &QsciScintilla::modificationChanged, this, [this, e](bool modified) {
        if (loading_ || modified || e->isBitcodeView()) return;
        flush();
        document_->markUnmodifiedIfAsSaved();
    });
    editors_[size_t(module)] = e;
    emit editorMade(module);
    return e;
}

void EditorArea::rebuild() {
    // No flush here: the document's order may already have changed, and a dirty editor keeps
    // its text until the next flush maps it to the right module by name. Reuse the page (and
    // editor) of each module that is still there (matched by name), in the new order.
    QHash<QString, QList<size_t>> byName;
    for (size_t k = 0; k < pages_.size(); ++k) byName[pages_[k]->property("moduleName").toString()] << k;
    std::vector<QWidget*> next;
    std::vector<ModuleEditor*> nextEditors;
    std::vector<bool> nextDirty, nextOpened;
    std::vector<int> nextSide, nextLevels;
    std::vector<std::vector<const nvvm::Diagnostic*>> nextDiagnostics;
    std::vector<bool> used(pages_.size(), false);
    loading_ = true;
    for (int i = 0; i < document_->moduleCount(); ++i) {
        const auto& m = document_->module(i);
        const auto name = QString::fromStdString(m.name);
        auto same = byName.find(name);
        if (same != byName.end() && !same->isEmpty()) {
            const size_t k = same->takeFirst();
            used[k] = true;
            auto* e = editors_[k];
            if (e && !dirty_[k] && e->moduleText() != m.bytes) e->setModule(m.bytes, m.isBitcode());
            next.push_back(pages_[k]);
            nextOpened.push_back(opened_[k]);
            nextEditors.push_back(e);
            nextDirty.push_back(dirty_[k]);
            nextSide.push_back(side_[k]);
            nextLevels.push_back(levels_[k]);
            nextDiagnostics.push_back(std::move(diagnostics_[k]));
            continue;
        }
        auto* page = new QWidget(this);
        auto* layout = new QVBoxLayout(page);
        layout->setContentsMargins(0, 0, 0, 0);
        page->setProperty("moduleName", name);
        page->hide();  // until it is in a tab
        next.push_back(page);
        nextOpened.push_back(false);
        nextEditors.push_back(nullptr);
        nextDirty.push_back(false);
        nextSide.push_back(nextSide.empty() ? 0 : nextSide.back());
        nextLevels.push_back(0);
        nextDiagnostics.emplace_back();
    }
    for (size_t k = 0; k < pages_.size(); ++k)
        if (!used[k]) pages_[k]->deleteLater();
    // A module moved across the split point: the right pane starts at the first module it holds,
    // so the left one still shows only earlier modules.
    for (size_t i = 1; i < nextSide.size(); ++i) nextSide[i] = std::max(nextSide[i], nextSide[i - 1]);
    if (!nextSide.empty()) nextSide[0] = 0;
    pages_ = std::move(next);
    opened_ = std::move(nextOpened);
    editors_ = std::move(nextEditors);
    dirty_ = std::move(nextDirty);
    side_ = std::move(nextSide);
    levels_ = std::move(nextLevels);
    diagnostics_ = std::move(nextDiagnostics);
    loading_ = false;
    refreshTabs();
}

bool EditorArea::hasTab(int module) const {
    return module < kMaxTabs || opened_[size_t(module)];
}

void EditorArea::addTab(int module, int position) {
    const auto& m = document_->module(module);
    QString label = QString::fromStdString(m.name);
    QStringList badges;
    if (m.isBitcode()) badges << "bitcode";
    if (m.lazy) badges << "lazy";
    if (!badges.isEmpty()) label += "  [" + badges.join(", ") + "]";
    auto* pane = panes_[side_[size_t(module)]];
    const int tab = pane->insertTab(position, pages_[size_t(module)], label);
    pane->setTabToolTip(tab, QStringLiteral("%1: %2 module %3 of %4, %5 bytes%6")
                                 .arg(QString::fromStdString(m.name))
                                 .arg(m.isBitcode() ? "bitcode" : "text IR")
                                 .arg(module + 1)
                                 .arg(pages_.size())
                                 .arg(m.bytes.size())
                                 .arg(m.lazy ? ", loaded lazily (only what other modules use)" : ""));
    if (levels_[size_t(module)]) showTabIcon(module);
}

void EditorArea::refreshTabs() {
    QWidget* current = nullptr;
    if (const int i = currentModule(); i >= 0) current = pages_[size_t(i)];
    for (auto* pane : panes_) {
        const QSignalBlocker block(pane);
        while (pane->count()) pane->removeTab(0);
        // A tab bar that is not visible lays its tabs out once, when shown, instead of after each
        // tab added.
        pane->tabBar()->hide();
    }
    for (size_t i = 0; i < pages_.size(); ++i) {
        if (hasTab(int(i)))
            addTab(int(i), -1);
        else
            pages_[i]->hide();
    }
    for (auto* pane : panes_) pane->tabBar()->show();
    panes_[1]->setVisible(panes_[1]->count() > 0);
    if (current) {
        for (auto* pane : panes_)
            if (pane->indexOf(current) >= 0) pane->setCurrentWidget(current);
    }
    for (auto* pane : panes_) makeEditor(moduleOfPage(pane->currentWidget()));
    // More modules than tabs: every one of them is in the list above the tabs.
    const QSignalBlocker block(moduleBox_);
    moduleBox_->clear();
    if (int(pages_.size()) > kMaxTabs) {
        QStringList names;
        names.reserve(qsizetype(pages_.size()));
        for (auto* page : pages_) names << page->property("moduleName").toString();
        moduleBox_->addItems(names);
        moduleBox_->setCurrentIndex(currentModule());
    }
    moduleBox_->setVisible(int(pages_.size()) > kMaxTabs);
}

QTabWidget* EditorArea::paneOf(QWidget* page) const {
    for (auto* pane : panes_)
        if (pane->indexOf(page) >= 0) return pane;
    return nullptr;
}

void EditorArea::activate(int module) {
    auto* e = editor(module);
    if (!e) return;
    if (!hasTab(module)) {
        // Its tab goes among the others in module order.
        opened_[size_t(module)] = true;
        int position = 0;
        for (int j = 0; j < module; ++j) position += hasTab(j) && side_[size_t(j)] == side_[size_t(module)];
        addTab(module, position);
    }
    if (auto* pane = paneOf(pages_[size_t(module)])) pane->setCurrentWidget(pages_[size_t(module)]);
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
    if (!editor(module)) return false;
    flush();
    auto* page = pages_[size_t(module)];
    const QString old = page->property("moduleName").toString();
    page->setProperty("moduleName", name.trimmed());  // so rebuild() keeps this editor
    if (auto st = document_->renameModule(module, name); !st) {
        page->setProperty("moduleName", old);
        if (error) *error = QString::fromStdString(st.error().message);
        return false;
    }
    return true;
}

void EditorArea::moveModule(int module, int delta) {
    const int to = module + delta;
    if (!editor(module) || to < 0 || to >= int(pages_.size())) return;
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
        if (current < 0 || pages_.size() < 2) return;  // two modules are needed to see two
        // libNVVM's module order reads left to right: the modules before the split point stay on
        // the left, the rest go right. The current module and its neighbour end up side by side
        // (the first module's neighbour is the next one), the earlier one on the left.
        const size_t at = size_t(std::max(current, 1));
        for (size_t i = 0; i < side_.size(); ++i) side_[i] = i >= at;
        refreshTabs();
        panes_[0]->setCurrentWidget(pages_[at - 1]);
        panes_[1]->setCurrentWidget(pages_[at]);
        makeEditor(int(at - 1));
        makeEditor(int(at));
        const int half = std::max(splitter_->width() / 2, 100);
        splitter_->setSizes({half, half});
        return;
    } else {
        std::fill(side_.begin(), side_.end(), 0);
    }
    refreshTabs();
}

void EditorArea::setZoom(int zoom) {
    zoom_ = zoom;
    for (auto* e : editors_)
        if (e) e->SendScintilla(QsciScintillaBase::SCI_SETZOOM, zoom);
}

void EditorArea::showBitcodeBar(int module) {
    auto* page = pages_[size_t(module)];
    auto* bar = page->findChild<QFrame*>(QStringLiteral("bitcodeBar"), Qt::FindDirectChildrenOnly);
    if (!bar) {
        bar = new QFrame(page);
        bar->setObjectName(QStringLiteral("bitcodeBar"));
        bar->setFrameShape(QFrame::StyledPanel);
        bar->setStyleSheet(QStringLiteral("#bitcodeBar { background: #fff4ce; border: 1px solid #e0c060; }"));
        auto* row = new QHBoxLayout(bar);
        row->setContentsMargins(8, 4, 8, 4);
        auto* label = new QLabel(bar);
        label->setObjectName(QStringLiteral("bitcodeBarText"));
        label->setWordWrap(true);
        row->addWidget(label, 1);
        if (ModuleEditor::hasDisassembler()) {
            label->setText(
                tr("Bitcode is read-only: what you see is its llvm-dis-14 disassembly. Convert the module "
                   "to text to edit it."));
            auto* convert = new QPushButton(tr("Convert to text"), bar);
            convert->setObjectName(QStringLiteral("convertToTextButton"));
            connect(convert, &QPushButton::clicked, this, [this, page] {
                const int i = moduleOfPage(page);
                if (i >= 0) emit convertToTextRequested(i);
            });
            row->addWidget(convert);
        } else {
            label->setText(
                tr("Bitcode is read-only. To edit it as text, install llvm-14 (llvm-dis-14 disassembles "
                   "it; Module ▸ Convert to Text then makes it a text module)."));
        }
        static_cast<QVBoxLayout*>(page->layout())->insertWidget(0, bar);
    }
    bar->show();
}

bool EditorArea::convertToText(int module, QString* error) {
    auto* e = editor(module);
    if (!e || !e->isBitcodeView()) {
        if (error) *error = tr("Only a bitcode module can be converted to text.");
        return false;
    }
    if (e->isDisassembling()) {
        if (error)
            *error = tr("llvm-dis-14 is still disassembling %1: try again in a moment.")
                         .arg(QString::fromStdString(document_->module(module).name));
        return false;
    }
    const auto text = e->disassembly();
    if (!text) {
        if (error)
            *error = ModuleEditor::hasDisassembler()
                         ? tr("llvm-dis-14 could not read %1; it stays bitcode.")
                               .arg(QString::fromStdString(document_->module(module).name))
                         : tr("Converting bitcode to text needs llvm-dis-14: install llvm-14.");
        return false;
    }
    flush();
    const QString old = QString::fromStdString(document_->module(module).name);
    const QFileInfo fi(old);
    const QString wanted = fi.suffix() == QLatin1String("bc")   ? fi.completeBaseName() + QStringLiteral(".ll")
                           : fi.suffix() == QLatin1String("ll") ? old
                                                                : old + QStringLiteral(".ll");
    document_->setModuleText(module, "; " + old.toStdString() + ", converted to text by llvm-dis-14\n" + *text);
    // libNVVM loads only bitcode lazily: a text module is added whole.
    if (document_->module(module).lazy) document_->setLazy(module, false);
    if (auto* bar = pages_[size_t(module)]->findChild<QFrame*>(QStringLiteral("bitcodeBar"))) bar->deleteLater();
    // Renaming rebuilds the tabs, and the editor takes the new (text) bytes there.
    auto* page = pages_[size_t(module)];
    const QString name = wanted == old ? old : document_->uniqueName(wanted);
    page->setProperty("moduleName", name);
    if (auto st = document_->renameModule(module, name); !st) {
        page->setProperty("moduleName", old);
        const auto& m = document_->module(module);
        loading_ = true;
        e->setModule(m.bytes, m.isBitcode());
        loading_ = false;
        refreshTabs();
        emit edited();
    }
    return true;
}

void EditorArea::setDiagnostics(const std::vector<nvvm::Diagnostic>& diagnostics) {
    setDiagnostics(std::make_shared<const std::vector<nvvm::Diagnostic>>(diagnostics));
}

void EditorArea::setDiagnostics(nvvm::SharedDiagnostics diagnostics) {
    if (!diagnostics) diagnostics = std::make_shared<const std::vector<nvvm::Diagnostic>>();
    // Pointers into the reply's list, per module: nothing is copied (hints with fixes are
    // kilobytes each).
    QHash<QString, std::vector<const nvvm::Diagnostic*>> byModule;
    for (const auto& d : *diagnostics) byModule[QString::fromStdString(d.module)].push_back(&d);
    shown_ = diagnostics;
    for (size_t i = 0; i < pages_.size(); ++i) {
        std::vector<const nvvm::Diagnostic*> mine;
        if (auto it = byModule.find(pages_[i]->property("moduleName").toString()); it != byModule.end())
            mine = std::move(*it);
        if (editors_[i]) {
            loading_ = true;  // annotations are not edits
            editors_[i]->setDiagnostics(shown_, mine);
            loading_ = false;
        }
        int worst = 0;  // 2 error, 1 warning: shown on the tab, so a problem in a hidden module shows
        for (const auto* d : mine) worst = std::max(worst, d->severity == nvvm::Severity::Error ? 2 : 1);
        diagnostics_[i] = std::move(mine);
        // Only the icons that change: each one set lays out every tab again.
        if (levels_[i] != worst) {
            levels_[i] = worst;
            showTabIcon(int(i));
        }
    }
}

void EditorArea::showTabIcon(int module) {
    auto* page = pages_[size_t(module)];
    auto* pane = paneOf(page);
    if (!pane) return;
    const int level = levels_[size_t(module)];
    pane->setTabIcon(pane->indexOf(page), level == 2   ? style()->standardIcon(QStyle::SP_MessageBoxCritical)
                                          : level == 1 ? style()->standardIcon(QStyle::SP_MessageBoxWarning)
                                                       : QIcon());
}

void EditorArea::showLocation(const QString& module, int line, int column) {
    const int i = document_->indexOf(module);
    if (i < 0) return;
    activate(i);
    if (line > 0) editor(i)->goTo(line, std::max(column, 1));
}

}  // namespace nvpg::gui
