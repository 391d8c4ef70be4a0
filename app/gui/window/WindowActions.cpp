#include "gui/window/WindowActions.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDockWidget>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

#include <Qsci/qsciscintilla.h>

#include "core/nvvm/IrVersion.h"
#include "core/workspace/Examples.h"
#include "core/workspace/NewModule.h"
#include "gui/compile/CompileController.h"
#include "gui/dialogs/SettingsDialog.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/FindBar.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/help/Guide.h"
#include "gui/output/LineMapLinks.h"
#include "gui/output/OutputView.h"
#include "gui/output/SymbolNames.h"
#include "gui/panels/ComparePanel.h"
#include "gui/panels/LessonPanel.h"
#include "gui/panels/RunPanel.h"
#include "gui/window/CompileStatus.h"
#include "gui/window/DockLayout.h"
#include "gui/window/FixController.h"
#include "gui/window/Presentation.h"
#include "gui/window/ProgramTransfer.h"
#include "gui/window/ToolkitStatus.h"
#include "gui/window/WorkspaceFiles.h"

namespace nvpg::gui {

WindowActions::WindowActions(const Parts& parts) : QObject(parts.window), p_(parts) {}

void WindowActions::build() {
    buildFile();
    buildEdit();
    buildModule();
    buildBuild();
    buildView();
    buildHelp();
    auto* bar = p_.window->addToolBar(tr("Build"));
    bar->setObjectName("buildToolBar");
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(compile_);
    bar->addAction(cancel_);
    bar->addAction(autoAction_);
    bar->addAction(splitAction_);
    bar->addSeparator();
    bar->addAction(p_.runs->runAction());
    updateModuleActions();
}

void WindowActions::buildFile() {
    auto* files = p_.files;
    auto* file = p_.window->menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New Workspace"), QKeySequence::New, this, [files] {
        if (files->maybeSave()) files->newWorkspace();
    });
    file->addAction(tr("&Open…"), QKeySequence::Open, files, &WorkspaceFiles::openDialog);
    files->setRecentMenu(file->addMenu(tr("Open &Recent")));
    auto* examples = file->addMenu(tr("&Examples"));
    for (const auto& example : workspace::listExamples()) {
        const auto name = QString::fromStdString(example.name);
        auto* a = examples->addAction(name, this, [files, name] {
            if (files->maybeSave()) files->openExample(name);
        });
        a->setToolTip(QString::fromStdString(example.description));
    }
    if (examples->isEmpty()) {
        // A broken install: say where they belong instead of an empty menu.
        examples->addAction(tr("No examples installed (share/nvvm-playground/examples)"))->setEnabled(false);
    }
    file->addAction(tr("&Import from numba…"), p_.transfer, &ProgramTransfer::importFromNumba)
        ->setObjectName("importNumbaAction");
    auto* lessons = file->addMenu(tr("&Lessons"));
    lessons->setObjectName("lessonsMenu");
    files->setLessonsMenu(lessons);
    file->addSeparator();
    file->addAction(tr("&Save"), QKeySequence::Save, files, &WorkspaceFiles::save);
    auto* saveAsAction = file->addAction(tr("Save &As…"), files, &WorkspaceFiles::saveAsDialog);
    // The platform's Save As key where it has one (only GNOME and macOS do), and Ctrl+Shift+S.
    QList<QKeySequence> saveAsKeys = QKeySequence::keyBindings(QKeySequence::SaveAs);
    if (!saveAsKeys.contains(QKeySequence(tr("Ctrl+Shift+S")))) saveAsKeys << QKeySequence(tr("Ctrl+Shift+S"));
    saveAsAction->setShortcuts(saveAsKeys);
    file->addSeparator();
    auto* exports = file->addMenu(tr("E&xport"));
    exports->addAction(tr("PTX…"), p_.output, &OutputView::exportPtx);
    exports->addAction(tr("LTO-IR…"), p_.output, &OutputView::exportLtoIr);
    exports->addAction(tr("Linked PTX…"), p_.output, &OutputView::exportLinkedPtx);
    exports->addAction(tr("Cubin…"), p_.output, &OutputView::exportCubin);
    exports->addAction(tr("SASS…"), p_.output, &OutputView::exportSass);
    exports->addSeparator();
    const auto exportTo = [this](exporting::Target target) {
        return [this, target] { p_.transfer->exportDialog(target, p_.status->lastReply()); };
    };
    exports->addAction(tr("As cuda.core &script…"), this, exportTo(exporting::Target::CudaCore))
        ->setObjectName("exportCudaCoreAction");
    exports->addAction(tr("As &C program…"), this, exportTo(exporting::Target::C))->setObjectName("exportCAction");
    file->addSeparator();
    file->addAction(tr("Se&ttings…"), this, [this] {
        SettingsDialog dialog(p_.window);
        if (dialog.exec() == QDialog::Accepted) emit settingsAccepted();
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, p_.window, &QWidget::close);
}

void WindowActions::buildEdit() {
    auto* edit = p_.window->menuBar()->addMenu(tr("&Edit"));
    // On the pane that has focus. In an editor Scintilla handles these keys itself; the menu
    // entries are for the mouse and for the read-only output panes.
    const auto onPane = [this](void (QsciScintilla::*f)()) {
        return [this, f] {
            if (auto* pane = focusedPane()) (pane->*f)();
        };
    };
    // A fix that is the last change is undone whole first (its text and its options).
    edit->addAction(tr("&Undo"), QKeySequence::Undo, this, [this, paneUndo = onPane(&QsciScintilla::undo)] {
        if (!p_.fixes->undoLast()) paneUndo();
    });
    edit->addAction(tr("&Redo"), QKeySequence::Redo, this, onPane(&QsciScintilla::redo));
    edit->addSeparator();
    edit->addAction(tr("Cu&t"), QKeySequence::Cut, this, onPane(&QsciScintilla::cut));
    edit->addAction(tr("&Copy"), QKeySequence::Copy, this, onPane(&QsciScintilla::copy));
    edit->addAction(tr("&Paste"), QKeySequence::Paste, this, onPane(&QsciScintilla::paste));
    edit->addSeparator();
    edit->addAction(tr("&Find…"), QKeySequence::Find, this, [this] {
        attachFindBar(focusedPane());
        p_.findBar->showFind();
    });
    edit->addAction(tr("R&eplace…"), QKeySequence(tr("Ctrl+H")), this, [this] {
        attachFindBar(focusedPane());
        p_.findBar->showReplace();
    });
    edit->addAction(tr("&Go to Line…"), QKeySequence(tr("Ctrl+L")), this, [this] {
        auto* pane = focusedPane();
        if (!pane) return;
        int line = 0, index = 0;
        pane->getCursorPosition(&line, &index);
        bool ok = false;
        const int last = std::max(1, pane->lines());
        const int to =
            QInputDialog::getInt(p_.window, tr("Go to Line"), tr("Line (1–%1):").arg(last), line + 1, 1, last, 1, &ok);
        if (!ok) return;
        pane->setCursorPosition(to - 1, 0);
        pane->ensureLineVisible(to - 1);
        pane->setFocus();
    });
    edit->addAction(tr("Toggle Co&mment"), QKeySequence(tr("Ctrl+/")), this, [this] {
        if (auto* e = qobject_cast<ModuleEditor*>(focusedPane())) e->toggleComment();
    });
}

void WindowActions::buildModule() {
    auto* editors = p_.editors;
    auto* module = p_.window->menuBar()->addMenu(tr("&Module"));
    module->addAction(tr("&New Module"), QKeySequence(tr("Ctrl+Shift+N")), this, &WindowActions::addTemplateModule);
    module->addAction(tr("&Add Module Files…"), p_.files, &WorkspaceFiles::addModulesDialog);
    moduleActions_ << module->addAction(tr("&Rename…"), this, [this, editors] {
        const int i = editors->currentModule();
        if (i < 0) return;
        bool ok = false;
        const auto name =
            QInputDialog::getText(p_.window, tr("Rename module"), tr("Name (libNVVM reports errors by it):"),
                                  QLineEdit::Normal, QString::fromStdString(p_.document->module(i).name), &ok);
        QString error;
        if (ok && !editors->renameModule(i, name, &error)) emit failed(tr("Rename module"), error);
    });
    moduleActions_ << module->addAction(tr("Re&move"), this, [this, editors] {
        const int i = editors->currentModule();
        if (i < 0) return;
        const auto name = QString::fromStdString(p_.document->module(i).name);
        if (QMessageBox::question(p_.window, tr("Remove module"), tr("Remove %1 from the workspace?").arg(name)) ==
            QMessageBox::Yes)
            editors->removeModule(i);
    });
    moduleActions_ << module->addAction(tr("Move &Up"), QKeySequence(tr("Ctrl+Shift+Up")), this,
                                        [editors] { editors->moveModule(editors->currentModule(), -1); });
    moduleActions_ << module->addAction(tr("Move &Down"), QKeySequence(tr("Ctrl+Shift+Down")), this,
                                        [editors] { editors->moveModule(editors->currentModule(), +1); });
    convertAction_ =
        module->addAction(tr("&Convert to Text"), this, [this, editors] { convertToText(editors->currentModule()); });
    convertAction_->setToolTip(
        tr("Replace a bitcode module by its llvm-dis-14 disassembly, as an editable .ll module"));
    lazyAction_ = module->addAction(tr("&Lazy (load only what other modules use)"));
    lazyAction_->setCheckable(true);
    connect(lazyAction_, &QAction::triggered, this,
            [editors](bool on) { editors->setLazy(editors->currentModule(), on); });
    moduleActions_ << lazyAction_;
    module->addSeparator();
    splitAction_ = module->addAction(tr("&Split View"), QKeySequence(tr("Ctrl+\\")));
    splitAction_->setCheckable(true);
    connect(splitAction_, &QAction::triggered, this, [this, editors](bool on) {
        editors->setSplit(on);
        splitAction_->setChecked(editors->isSplit());
    });
}

void WindowActions::buildBuild() {
    auto* controller = p_.controller;
    auto* build = p_.window->menuBar()->addMenu(tr("&Build"));
    compile_ = build->addAction(tr("&Compile"), QKeySequence(tr("Ctrl+B")), controller, &CompileController::compileNow);
    auto* verify = build->addAction(tr("&Verify"), controller, &CompileController::verifyNow);
    verify->setObjectName("verifyAction");
    verify->setStatusTip(tr("Run libNVVM's verifier alone; the outputs stay as they are"));
    autoAction_ = build->addAction(tr("&Auto-compile after edits"));
    autoAction_->setCheckable(true);
    autoAction_->setChecked(QSettings().value("build/auto", true).toBool());
    controller->setAutoCompile(autoAction_->isChecked());
    connect(autoAction_, &QAction::toggled, this, [controller](bool on) {
        controller->setAutoCompile(on);
        QSettings().setValue("build/auto", on);
    });
    cancel_ = build->addAction(tr("Ca&ncel"), QKeySequence(Qt::Key_Escape), controller, &CompileController::cancel);
    build->addSeparator();
    auto* pin = build->addAction(tr("&Pin Result…"), QKeySequence(tr("Ctrl+Shift+P")), this, [this] {
        bool ok = false;
        const auto name = QInputDialog::getText(p_.window, tr("Pin Result"),
                                                tr("Keep the result shown now in the workspace, to compare later "
                                                   "compiles with. Name:"),
                                                QLineEdit::Normal, p_.compare->defaultPinName(), &ok);
        if (ok) emit pinRequested(name);
    });
    pin->setObjectName("pinAction");
    build->addAction(tr("Add Varian&t…"), p_.compare, [this] {
        DockLayout::bringForward(p_.compareDock);
        p_.compare->addVariant();
    });
    build->addSeparator();
    build->addAction(p_.runs->runAction());
    build->addSeparator();
    auto* checkStep = build->addAction(tr("Check &Lesson Step"), p_.lesson, &LessonPanel::check);
    checkStep->setObjectName("checkLessonAction");
    checkStep->setShortcuts({QKeySequence(tr("Ctrl+Return")), QKeySequence(tr("Ctrl+Enter"))});
    checkStep->setStatusTip(tr("Compile and run the open lesson's checks for this step"));
    checkStep->setEnabled(false);
    connect(p_.lesson, &LessonPanel::lessonChanged, checkStep, &QAction::setEnabled);
}

void WindowActions::buildView() {
    auto* view = p_.window->menuBar()->addMenu(tr("&View"));
    for (auto* dock : p_.window->findChildren<QDockWidget*>()) {
        view->addAction(dock->toggleViewAction());
        // Shown from the View menu a dock comes to the front of the tabs it shares: shown behind
        // Problems, asking for Compare or Control Flow would seem to do nothing.
        connect(dock->toggleViewAction(), &QAction::triggered, dock, [dock](bool on) {
            if (on) dock->raise();
        });
    }
    auto* diff = view->addAction(tr("&Diff: PTX vs Linked PTX"));
    diff->setCheckable(true);
    connect(diff, &QAction::toggled, p_.output, &OutputView::setDiffMode);
    connect(p_.output, &OutputView::diffModeChanged, diff, &QAction::setChecked);  // its own button too
    auto* sinceLast =
        view->addAction(tr("Diff: PTX &Since Last Compile"), p_.output->sinceLastAction(), &QAction::trigger);
    sinceLast->setEnabled(p_.output->sinceLastAction()->isEnabled());
    connect(p_.output->sinceLastAction(), &QAction::changed, sinceLast,
            [sinceLast, source = p_.output->sinceLastAction()] { sinceLast->setEnabled(source->isEnabled()); });
    // The twin compile costs a second compile's time; people who do not look at it turn it off.
    lineMapAction_ = view->addAction(tr("&Line map"));
    lineMapAction_->setCheckable(true);
    lineMapAction_->setStatusTip(tr("Colour each IR line and the PTX, LTO and SASS lines it became"));
    lineMapAction_->setChecked(QSettings().value("view/lineMap", true).toBool());
    p_.controller->setLineMap(lineMapAction_->isChecked());
    p_.links->setEnabled(lineMapAction_->isChecked());
    connect(lineMapAction_, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue("view/lineMap", on);
        p_.controller->setLineMap(on);
        p_.links->setEnabled(on);
        if (on && !p_.document->workspace().modules.empty()) p_.controller->settingsEdited();
    });
    // Kernel names are shown demangled and cut to fit (SymbolNames); this shows the symbols.
    auto* rawNames = view->addAction(tr("Ra&w Symbol Names"));
    rawNames->setObjectName(QStringLiteral("rawSymbolNames"));
    rawNames->setCheckable(true);
    rawNames->setChecked(SymbolNames::instance()->raw());
    rawNames->setStatusTip(tr("Show kernel and function names as the PTX spells them, not demangled"));
    connect(rawNames, &QAction::toggled, SymbolNames::instance(), &SymbolNames::setRaw);
    view->addAction(p_.output->sassRawAction());  // the SASS pane's toggle, also beside its tab
    view->addSeparator();
    p_.presentation->addViewActions(view);
}

void WindowActions::buildHelp() {
    auto* help = p_.window->menuBar()->addMenu(tr("&Help"));
    const auto link = [this, help](const QString& text, const QUrl& url) {
        auto* a = help->addAction(text, this, [url] { QDesktopServices::openUrl(url); });
        a->setData(url);
        a->setToolTip(url.toString());
        return a;
    };
    // The documentation's pages, shown inside the app.
    help::addGuideEntries(help, p_.window);
    help->addSeparator();
    link(tr("PTX ISA"), QUrl("https://docs.nvidia.com/cuda/parallel-thread-execution/"));
    link(tr("NVVM IR Specification"), QUrl("https://docs.nvidia.com/cuda/nvvm-ir-spec/"));
    link(tr("libdevice User's Guide"), QUrl("https://docs.nvidia.com/cuda/libdevice-users-guide/"));
    help->addSeparator();
    help->addAction(tr("&About NVVM Playground"), this, [this] {
        QMessageBox::about(p_.window, tr("About NVVM Playground"),
                           tr("<b>NVVM Playground</b> %1<br>An IR playground for NVIDIA's libNVVM: edit NVVM IR "
                              "modules, see their PTX and LTO result side by side.")
                               .arg(NVPG_VERSION));
    });
}

QsciScintilla* WindowActions::focusedPane() const {
    for (QWidget* w = QApplication::focusWidget(); w; w = w->parentWidget()) {
        if (auto* pane = qobject_cast<QsciScintilla*>(w); pane && p_.window->isAncestorOf(pane)) return pane;
        if (w == p_.findBar && p_.findBar->editor()) return p_.findBar->editor();
    }
    return p_.editors->currentEditor();
}

void WindowActions::attachFindBar(QsciScintilla* pane) {
    if (!pane) return;
    p_.findBar->attach(pane);
    auto* side = p_.findSides[p_.output->isAncestorOf(pane) ? 1 : 0];
    if (p_.findBar->parentWidget() != side) {
        const bool shown = p_.findBar->isVisible();
        static_cast<QVBoxLayout*>(side->layout())->addWidget(p_.findBar);
        p_.findBar->setVisible(shown);
    }
}

void WindowActions::updateModuleActions() {
    const int i = p_.editors->currentModule();
    for (auto* a : moduleActions_) a->setEnabled(i >= 0);
    if (i >= 0 && lazyAction_) {
        const QSignalBlocker block(lazyAction_);
        lazyAction_->setChecked(p_.document->module(i).lazy);
    }
    if (convertAction_) convertAction_->setEnabled(i >= 0 && p_.document->module(i).isBitcode());
    if (splitAction_) {
        splitAction_->setEnabled(p_.document->moduleCount() >= 2);
        splitAction_->setChecked(p_.editors->isSplit());
    }
}

void WindowActions::addTemplateModule() {
    p_.editors->flush();
    const QString name = p_.document->uniqueName("module.ll");
    const auto toolkit = p_.toolkit->toolkit();
    const auto t = workspace::newModuleTemplate(name.toStdString(), p_.document->workspace().modules,
                                                toolkit ? nvvm::irVersionOf(*toolkit) : nvvm::IrVersion{});
    // Its run configuration comes with it, so Run works at once.
    auto runs = p_.document->workspace().runs;
    workspace::putRun(runs, t.run);
    p_.document->setRuns(std::move(runs));
    p_.editors->addModule(t.module.name, t.module.bytes, false);
}

void WindowActions::convertToText(int module) {
    auto* document = p_.document;
    if (module < 0 || module >= document->moduleCount() || !document->module(module).isBitcode()) return;
    const auto name = QString::fromStdString(document->module(module).name);
    if (QMessageBox::question(p_.window, tr("Convert to text"),
                              tr("Replace the bitcode of %1 by its llvm-dis-14 disassembly? It becomes an editable "
                                 "text module (.ll). This cannot be undone: the bitcode is kept only in a saved "
                                 "workspace file.%2")
                                  .arg(name, document->module(module).lazy
                                                 ? tr(" It is loaded lazily now; libNVVM loads only bitcode so, "
                                                      "so the text module will be added whole.")
                                                 : QString())) != QMessageBox::Yes)
        return;
    QString error;
    if (!p_.editors->convertToText(module, &error)) emit failed(tr("Convert to text"), error);
}

}  // namespace nvpg::gui
