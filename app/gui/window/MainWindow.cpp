#include "gui/window/MainWindow.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QIcon>
#include <QLineEdit>
#include <QMimeData>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>

#include <Qsci/qsciscintilla.h>

#include "core/inspect/Docs.h"
#include "core/lesson/Course.h"
#include "core/nvvm/Options.h"
#include "core/workspace/Examples.h"
#include "gui/compile/CompileController.h"
#include "gui/compile/SupervisedEngine.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/FindBar.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/LineMapLinks.h"
#include "gui/output/OutputView.h"
#include "gui/output/Pressure.h"
#include "gui/panels/AnalysisPanel.h"
#include "gui/panels/CfgPanel.h"
#include "gui/panels/ComparePanel.h"
#include "gui/panels/LessonPanel.h"
#include "gui/panels/LibdevicePanel.h"
#include "gui/panels/OptionsPanel.h"
#include "gui/panels/ProblemsPanel.h"
#include "gui/panels/RunPanel.h"
#include "gui/window/FixController.h"
#include "gui/window/StartPage.h"
#include "gui/window/ToolkitStatus.h"

namespace nvpg::gui {

void initResources();

namespace {

// A dock's form that scrolls up and down, never sideways: as wide as the form needs (and its
// scroll bar), however short the dock.
class UpDownScroll : public QScrollArea {
public:
    using QScrollArea::QScrollArea;
    QSize minimumSizeHint() const override {
        const QSize least = QScrollArea::minimumSizeHint();
        if (!widget()) return least;
        return {widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth(),
                least.height()};
    }
};

}  // namespace

MainWindow::MainWindow(std::unique_ptr<Engine> engine, QWidget* parent)
    : QMainWindow(parent),
      document_(new WorkspaceDocument(this)),
      engine_(std::move(engine)),
      toolkit_(new ToolkitStatus(this)) {
    initResources();
    setObjectName("MainWindow");
    // The installed icon theme's, else (run from a build) the same icon built in.
    QIcon builtIn;
    for (const int size : {16, 32, 48, 64, 128, 256}) builtIn.addFile(QString(":/icons/%1.png").arg(size));
    setWindowIcon(QIcon::fromTheme(QStringLiteral(NVPG_APP_ID), builtIn));
    setAcceptDrops(true);
    toolkit_->load();
    const auto tk = toolkit_->toolkit();
    if (!engine_)
        engine_ = std::make_unique<SupervisedEngine>(
            tk, tk ? QString() : QString("libNVVM is not available: see the status bar"),
            ToolkitStatus::engineSettings());
    controller_ = new CompileController(engine_.get(), document_, this);
    controller_->setOutputs(ToolkitStatus::outputsFor(tk.get()));
    controller_->setFlush([this] { editors_->flush(); });

    // Left: editors over a find bar; right: the output panes. The find bar sits under whichever
    // side it searches.
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(0);
    editors_ = new EditorArea(document_, left);
    findBar_ = new FindBar(left);
    findBar_->hide();
    leftLayout->addWidget(editors_, 1);
    // While the workspace has no modules, the start page lies over the editors.
    startPage_ = new StartPage(left);
    startPage_->cover(editors_);
    startPage_->hide();
    leftLayout->addWidget(findBar_);
    output_ = new OutputView(this);
    output_->setSassUnavailableReason(ToolkitStatus::sassMissing(tk.get()));
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(0);
    rightLayout->addWidget(output_, 1);
    findSides_[0] = left;
    findSides_[1] = right;
    auto* central = new QSplitter(Qt::Horizontal, this);
    central->setObjectName("centralSplitter");
    // Neither side may vanish: at 1280 px both stay wide enough to read.
    central->setChildrenCollapsible(false);
    central->addWidget(left);
    central->addWidget(right);
    central->setStretchFactor(0, 1);
    central->setStretchFactor(1, 1);
    setCentralWidget(central);

    buildDocks(central);
    connectParts();
    if (!tk) toolkit_->queryGpu();  // else once the probe answered
    docks_->restore(central, optionsDock_, problemsDock_);
    files_->newWorkspace();
    presentation_->applyZoom();
}

MainWindow::~MainWindow() {
    docks_->detach();
}

void MainWindow::buildDocks(QWidget* central) {
    using Dock = DockLayout::Dock;
    using Height = DockLayout::Height;
    docks_ = new DockLayout(this);
    options_ = new OptionsPanel(document_, this);
    // Its rows scroll rather than set a least height for the side of the window: at 1280x720 they
    // held the bottom docks (Compare's diff) to a few lines.
    auto* optionsScroll = new UpDownScroll(this);
    optionsScroll->setObjectName("optionsScroll");
    optionsScroll->setFrameShape(QFrame::NoFrame);
    optionsScroll->setWidgetResizable(true);
    optionsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    optionsScroll->setWidget(options_);
    optionsDock_ = docks_->add(Dock{optionsScroll, tr("Options"), "optionsDock", false});
    problems_ = new ProblemsPanel(this);
    problemsDock_ = docks_->add(Dock{problems_, tr("Problems"), "problemsDock", true, nullptr, false, Height::Content});
    runs_ = new RunPanel(engine_.get(), document_, this);
    runsDock_ = docks_->add(Dock{runs_, tr("Runs"), "runsDock", true, problemsDock_});
    libdevice_ = new LibdevicePanel(this);
    auto* libdeviceDock = docks_->add(Dock{libdevice_, tr("libdevice"), "libdeviceDock", true, runsDock_});
    // Compare: a pinned result or a variant beside the current compile, closed until asked for
    // (View > Compare, Build > Pin Result). A tab of the bottom docks: there its two sides get
    // the window's whole width, and the editors and outputs keep theirs.
    const auto tk = toolkit_->toolkit();
    compare_ = new ComparePanel(document_, tk, ToolkitStatus::engineSettings(), this);
    compare_->setOutputs(ToolkitStatus::outputsFor(tk.get()) & ~unsigned(pipeline::kCubin));
    compare_->setFlush([this] { editors_->flush(); });
    compareDock_ = docks_->add(Dock{compare_, tr("Compare"), "compareDock", true, libdeviceDock, true, Height::Tall});
    // Analysis: the instruction mix and the theoretical occupancy of one kernel, as charts.
    analysis_ = new AnalysisPanel(this);
    analysisDock_ =
        docks_->add(Dock{analysis_, tr("Analysis"), "analysisDock", true, compareDock_, true, Height::Tall});
    // Control Flow: the graph of the function under the caret.
    links_ = new LineMapLinks(editors_, output_, document_, this);
    cfg_ = new CfgPanel(output_, editors_, document_, links_, this);
    cfgDock_ = docks_->add(Dock{cfg_, tr("Control Flow"), "cfgDock", true, compareDock_, true, Height::Tall});
    // Lesson: a lesson's steps, instructions and checks, beside the editors (tabbed with Options);
    // shown when a lesson opens, hidden when a workspace without one does.
    lesson_ = new LessonPanel(engine_.get(), document_, controller_, this);
    lesson_->setFlush([this] { editors_->flush(); });
    lessonDock_ = docks_->add(Dock{lesson_, tr("Lesson"), "lessonDock", false, optionsDock_, true});
    // Problems is in front until the GPU is known (placeRuns), and comes to the front when a
    // compile fails.
    problemsDock_->raise();
    if (tk)
        options_->setArchs(nvvm::supportedArchs(ToolkitStatus::knownCudaMajor(*tk)), ToolkitStatus::knownCudaMajor(*tk),
                           tr("default: libNVVM's (compute_75)"));

    // The parts that are not docks: they take what they need and report by signals.
    status_ = new CompileStatus(statusBar(), controller_,
                                {output_, links_, runs_, problems_, problemsDock_, editors_, compare_, compareDock_});
    toolkit_->addLabels(statusBar());
    files_ = new WorkspaceFiles(this, document_, editors_, lesson_);
    recovery_ = new Recovery(this, files_, document_, editors_, controller_);
    presentation_ = new Presentation(this, static_cast<QSplitter*>(central), editors_, output_, compare_, cfg_, docks_);
    transfer_ = new ProgramTransfer(this, files_, document_, editors_, controller_, runs_, toolkit_);
    fixes_ = new FixController(document_, editors_, problems_, controller_, this);
}

void MainWindow::connectParts() {
    // Each compile's results, in the order the views want them: the current side of Compare,
    // Analysis (the caret's kernel first), the SASS before the map's bands laid on it, the line
    // map, the live registers on the listing, the libdevice dock, the graph.
    compare_->attach(controller_);
    connect(controller_, &CompileController::replyShown, this, [this] { preferCaretKernel(); });
    analysis_->attach(controller_);
    output_->attach(controller_);
    links_->attach(controller_);
    pressure_ = new Pressure(editors_, output_, links_, document_, this);
    pressure_->attach(controller_);
    libdevice_->attach(controller_, document_);
    cfg_->attach(controller_);

    connect(analysisDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible) preferCaretKernel();
    });
    connect(lesson_, &LessonPanel::lessonChanged, this, [this](bool has) {
        if (has) {
            DockLayout::bringForward(lessonDock_);
            // Once shown and laid out: wide enough to read the instructions and their tables.
            QMetaObject::invokeMethod(
                this, [this] { docks_->widen(lessonDock_, lesson_->readingWidth()); }, Qt::QueuedConnection);
        } else {
            lessonDock_->hide();
        }
        files_->rebuildLessonsMenu();
    });
    connect(lesson_, &LessonPanel::lessonError, this, [this](const QString& message) {
        showError(tr("Open lesson"), tr("The workspace is open, but its lesson cannot be used:\n\n%1").arg(message));
    });
    connect(lesson_, &LessonPanel::openLessonRequested, this, [this](const QString& path) {
        if (files_->maybeSave()) files_->openLesson(path);
    });
    connect(lesson_, &LessonPanel::hiddenFixesChanged, status_, &CompileStatus::setHiddenFixes);
    connect(problems_, &ProblemsPanel::contentChanged, this, [this] { docks_->fit(problemsDock_); });
    // Show effect (the Options dock's Δ): the current compile beside the option flipped.
    connect(options_, &OptionsPanel::effectRequested, this, [this](const QString& option, const QString& value) {
        const auto changed =
            nvvm::withOptionChanged(document_->workspace().options, option.toStdString(), value.toStdString());
        if (!changed) return;
        compare_->showEffect(changed->options, QString::fromStdString(changed->label),
                             QString::fromStdString(inspect::optionEffectText(option.toStdString(), changed->value)));
        DockLayout::bringForward(compareDock_);
    });
    connect(editors_, &EditorArea::edited, compare_, &ComparePanel::edited);
    // A workspace saved with variants or pins opens with them shown, once the editors show the
    // new modules (they follow the reset's later signals).
    connect(document_, &WorkspaceDocument::reloaded, this, [this] {
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (compare_->showSaved()) DockLayout::bringForward(compareDock_);
            },
            Qt::QueuedConnection);
    });
    connect(document_, &WorkspaceDocument::settingsChanged, compare_, &ComparePanel::edited);
    connect(document_, &WorkspaceDocument::modulesChanged, compare_, &ComparePanel::edited);
    // The launch Analysis marks follows the Runs dock's configuration and the saved ones.
    const auto runConfigs = [this] { analysis_->setRunConfigs(runs_->currentConfig(), document_->workspace().runs); };
    connect(runs_->blockEdit(), &QLineEdit::textChanged, analysis_, runConfigs);
    connect(runs_->sharedSpin(), &QSpinBox::valueChanged, analysis_, runConfigs);
    connect(runs_->kernelCombo(), &QComboBox::currentIndexChanged, analysis_, runConfigs);
    connect(document_, &WorkspaceDocument::changed, analysis_, runConfigs);
    connect(document_, &WorkspaceDocument::reloaded, analysis_, runConfigs);
    connect(editors_, &EditorArea::edited, links_, &LineMapLinks::textEdited);
    connect(editors_, &EditorArea::edited, pressure_, &Pressure::textEdited);
    connect(libdevice_, &LibdevicePanel::activated, links_,
            [this](const QString& module, int line, int) { links_->showIrLine(module, line); });
    connect(libdevice_, &LibdevicePanel::ptxLinesSelected, links_,
            [this](const std::vector<inspect::LineRange>& lines) {
                links_->markOutputLines(inspect::MappedOutput::Ptx, lines);
            });
    connect(editors_, &EditorArea::edited, controller_, &CompileController::edited);
    connect(document_, &WorkspaceDocument::settingsChanged, this, [this] {
        if (!files_->opening()) controller_->settingsEdited();
    });
    connect(document_, &WorkspaceDocument::modulesChanged, this, [this] {
        actions_->updateModuleActions();
        updateStartPage();
        if (!files_->opening()) controller_->edited();
    });
    connect(document_, &WorkspaceDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(document_, &WorkspaceDocument::pathChanged, this, &MainWindow::updateTitle);
    // Exports are proposed beside the workspace, named as it is; the status bar says where they went.
    const auto exportBase = [this] { output_->setExportBaseName(files_->proposedPath(".ptx")); };
    connect(document_, &WorkspaceDocument::pathChanged, this, exportBase);
    connect(document_, &WorkspaceDocument::reloaded, this, exportBase);
    connect(output_, &OutputView::exported, this, [this](const QStringList& paths) {
        QStringList shown;
        for (const auto& p : paths) shown << QDir::toNativeSeparators(p);
        showMessage(tr("Exported to %1").arg(shown.join(", ")), 15000);
    });
    connect(problems_, &ProblemsPanel::activated, editors_, &EditorArea::showLocation);
    connect(fixes_, &FixController::failed, this, &MainWindow::showError);

    // The start page: examples, recent files, a new module, Open, the course.
    QList<QPair<QString, QString>> described;
    for (const auto& example : workspace::listExamples())
        described.append({QString::fromStdString(example.name), QString::fromStdString(example.description)});
    startPage_->setExamples(described);
    startPage_->setCourse(int(lesson::listLessons().size()));
    connect(files_, &WorkspaceFiles::recentChanged, startPage_, &StartPage::setRecent);
    connect(startPage_, &StartPage::exampleChosen, this, [this](const QString& name) {
        if (files_->maybeSave()) files_->openExample(name);
    });
    connect(startPage_, &StartPage::openRequested, files_, &WorkspaceFiles::openDialog);
    connect(startPage_, &StartPage::recentChosen, this, [this](const QString& path) {
        if (files_->maybeSave()) files_->openWorkspace(path);
    });
    // The course: the lesson last worked on, else the first.
    connect(startPage_, &StartPage::courseRequested, this, [this] {
        const auto lessons = lesson::listLessons();
        if (lessons.empty() || !files_->maybeSave()) return;
        auto chosen = lessons.front().path;
        QDateTime newest;
        for (const auto& l : lessons) {
            const QFileInfo fi(
                QString::fromStdString(lesson::progressFile(LessonPanel::progressDir().toStdString(), l.id).string()));
            if (fi.exists() && (newest.isNull() || fi.lastModified() > newest)) {
                newest = fi.lastModified();
                chosen = l.path;
            }
        }
        files_->openLesson(QString::fromStdString(chosen.string()));
    });

    connect(files_, &WorkspaceFiles::failed, this, &MainWindow::showError);
    connect(files_, &WorkspaceFiles::message, this, &MainWindow::showMessage);
    connect(files_, &WorkspaceFiles::replaced, this, &MainWindow::workspaceReplaced);
    connect(files_, &WorkspaceFiles::saved, this, &MainWindow::updateTitle);
    connect(recovery_, &Recovery::message, this, &MainWindow::showMessage);
    connect(transfer_, &ProgramTransfer::failed, this, &MainWindow::showError);
    connect(transfer_, &ProgramTransfer::message, this, &MainWindow::showMessage);
    connect(transfer_, &ProgramTransfer::exported, this, [this](const QString& title, const QString& report) {
        if (!errorSink_) QMessageBox::information(this, title, report);
    });
    connect(toolkit_, &ToolkitStatus::probed, this, [this] {
        const auto tk = toolkit_->toolkit();
        if (const auto* far = toolkit_->farToolkit()) {
            // The engine on another machine described itself: its toolkit decides the outputs
            // and archs, its GPU the runs.
            engine_->setToolkit(nullptr, {});
            controller_->setOutputs(ToolkitStatus::outputsFor(*far));
            applyToolkit();
            options_->setArchs(nvvm::supportedArchs(far->cudaMajor), far->cudaMajor,
                               tr("default: libNVVM's (compute_75)"));
            toolkit_->queryGpu();
            controller_->compileNow();
            return;
        }
        if (!tk) {
            // Its libNVVM cannot be loaded, so no compile can use it: the status bar says why, and
            // every compile says it in Problems (no engine is started to crash on it again).
            engine_->setToolkit(nullptr, toolkit_->problem());
            controller_->setOutputs(ToolkitStatus::outputsFor(nullptr));
            applyToolkit();
            showMessage(toolkit_->problem(), 0);
            toolkit_->queryGpu();
            controller_->compileNow();
            return;
        }
        applyToolkit();
        options_->setArchs(nvvm::supportedArchs(tk->cudaMajor()), tk->cudaMajor(),
                           tr("default: libNVVM's (compute_75)"));
        toolkit_->queryGpu();
        // Only fewer outputs than asked for until now: without nvJitLink (taken as there when only
        // the system loader could say) the compile failed for the link, so it runs again.
        const unsigned outputs = ToolkitStatus::outputsFor(tk.get());
        const bool lostLink = controller_->outputs() & ~outputs & pipeline::kLtoPtx;
        controller_->setOutputs(outputs);
        if (lostLink) controller_->compileNow();
    });
    connect(toolkit_, &ToolkitStatus::gpuKnown, this, [this](bool gpu, const QString& archLabel) {
        docks_->placeRuns(runsDock_, gpu);
        analysis_->setGpuAvailable(gpu);
        if (const auto tk = toolkit_->toolkit(); tk && !archLabel.isEmpty())
            options_->setArchs(nvvm::supportedArchs(tk->cudaMajor()), tk->cudaMajor(), archLabel);
        if (const auto* far = toolkit_->farToolkit(); far && !archLabel.isEmpty())
            options_->setArchs(nvvm::supportedArchs(far->cudaMajor), far->cudaMajor, archLabel);
    });

    actions_ = new WindowActions({this,
                                  document_,
                                  controller_,
                                  editors_,
                                  output_,
                                  findBar_,
                                  {findSides_[0], findSides_[1]},
                                  compare_,
                                  compareDock_,
                                  lesson_,
                                  runs_,
                                  fixes_,
                                  links_,
                                  files_,
                                  presentation_,
                                  transfer_,
                                  status_,
                                  toolkit_});
    actions_->build();
    connect(actions_, &WindowActions::settingsAccepted, this, &MainWindow::applySettings);
    connect(actions_, &WindowActions::pinRequested, this, &MainWindow::pinResult);
    connect(actions_, &WindowActions::failed, this, &MainWindow::showError);
    connect(startPage_, &StartPage::newModuleRequested, actions_, &WindowActions::addTemplateModule);
    connect(editors_, &EditorArea::convertToTextRequested, actions_, &WindowActions::convertToText);
    connect(editors_, &EditorArea::currentModuleChanged, this, [this] {
        actions_->updateModuleActions();
        // A search in an output pane stays there; one in the editors follows the tab shown.
        if (findBar_->editor() && output_->isAncestorOf(findBar_->editor())) return;
        if (auto* e = editors_->currentEditor()) findBar_->attach(e);
    });
}

void MainWindow::applyToolkit() {
    const auto tk = toolkit_->toolkit();
    const auto* far = toolkit_->farToolkit();
    compare_->setOutputs((far ? ToolkitStatus::outputsFor(*far) : ToolkitStatus::outputsFor(tk.get())) &
                         ~unsigned(pipeline::kCubin));
    compare_->setAppToolkit(tk, ToolkitStatus::engineSettings());
    output_->setSassUnavailableReason(
        far ? (far->hasNvdisasm ? QString() : QString::fromStdString(far->nvdisasmProblem))
            : ToolkitStatus::sassMissing(tk.get()));
}

void MainWindow::applySettings() {
    toolkit_->load();
    const auto tk = toolkit_->toolkit();
    if (auto* threads = dynamic_cast<SupervisedEngine*>(engine_.get()))
        threads->setEngineSettings(ToolkitStatus::engineSettings());
    engine_->setToolkit(tk, tk ? QString() : toolkit_->problem());
    controller_->setOutputs(ToolkitStatus::outputsFor(tk.get()));
    applyToolkit();
    toolkit_->showLibraries();
    if (!tk) toolkit_->queryGpu();  // else once the probe answered
    presentation_->applyZoom();
    controller_->compileNow();
}

void MainWindow::workspaceReplaced(bool opened) {
    output_->clear();
    links_->resultShown(false);
    problems_->clear();
    status_->clear(/*statusToo=*/!opened);
    libdevice_->clear();
    cfg_->clear();
    updateTitle();
    if (!opened) {
        analysis_->clear();
        updateStartPage();
        return;
    }
    actions_->updateModuleActions();
    controller_->compileNow();
}

void MainWindow::preferCaretKernel() {
    // Only while it shows: the lookup reads the module.
    if (!analysisDock_->isVisible()) return;
    auto* editor = editors_->currentEditor();
    if (!editor) return;
    int line = 0, index = 0;
    editor->getCursorPosition(&line, &index);
    analysis_->preferKernelAt(editor, line);
}

bool MainWindow::pinResult(const QString& name) {
    if (auto st = compare_->pinCurrent(name); !st) {
        showError(tr("Pin Result"), QString::fromStdString(st.error().message));
        return false;
    }
    DockLayout::bringForward(compareDock_);
    return true;
}

QStringList MainWindow::exampleNames() {
    QStringList names;
    for (const auto& example : workspace::listExamples()) names << QString::fromStdString(example.name);
    return names;
}

void MainWindow::updateTitle() {
    // The app's name once, at the end: a platform that adds the display name itself sees it is
    // there already, and tools that read the plain X11 WM_NAME (which Qt leaves unadorned) see it.
    setWindowTitle(tr("%1[*] — %2").arg(document_->displayName(), QGuiApplication::applicationDisplayName()));
    setWindowModified(document_->isModified());
}

void MainWindow::updateStartPage() {
    startPage_->setVisible(document_->moduleCount() == 0);
    startPage_->raise();
}

void MainWindow::showMessage(const QString& text, int timeoutMs) {
    statusBar()->showMessage(text, timeoutMs);
}

void MainWindow::showError(const QString& title, const QString& message) {
    statusBar()->showMessage(title + ": " + message.section('\n', 0, 0), 10000);
    if (errorSink_)
        errorSink_(title, message);
    else
        QMessageBox::warning(this, title, message);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    docks_->shown();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (files_->busyWithFile()) {  // the worker writes into this window's document: let it finish
        event->ignore();
        return;
    }
    editors_->flush();
    if (!files_->maybeSave()) {
        event->ignore();
        return;
    }
    presentation_->setPresenterMode(false);  // the layout to keep is the one before it
    docks_->save();
    recovery_->close();  // a clean end: nothing to offer back
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (WorkspaceFiles::canOpen(event->mimeData())) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    if (files_->dropped(event->mimeData())) event->acceptProposedAction();
}

}  // namespace nvpg::gui
