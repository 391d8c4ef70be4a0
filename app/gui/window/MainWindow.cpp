#include "gui/window/MainWindow.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <optional>
#include <thread>
#include <vector>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QCursor>
#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QIcon>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QPointer>
#include <QProgressDialog>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QShowEvent>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWindow>

#include <Qsci/qsciscintilla.h>

#include "core/engine/ToolkitProbe.h"
#include "core/gpu/Devices.h"
#include "core/inspect/Docs.h"
#include "core/lesson/Course.h"
#include "core/nvvm/IrScan.h"
#include "core/nvvm/IrVersion.h"
#include "core/nvvm/Options.h"
#include "core/support/Files.h"
#include "core/support/Installed.h"
#include "core/support/Text.h"
#include "core/workspace/Examples.h"
#include "core/workspace/NewModule.h"
#include "gui/compile/CompileController.h"
#include "gui/compile/SupervisedEngine.h"
#include "gui/dialogs/HistoryDialog.h"
#include "gui/dialogs/NumbaImportDialog.h"
#include "gui/dialogs/SettingsDialog.h"
#include "gui/document/FileChecks.h"
#include "gui/document/Journal.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/FindBar.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/help/Guide.h"
#include "gui/output/LineMapLinks.h"
#include "gui/output/OutputView.h"
#include "gui/output/Pressure.h"
#include "gui/output/SymbolNames.h"
#include "gui/output/Turns.h"
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

namespace nvpg::gui {

void initResources();

namespace {

// A workspace file that saved no libdevice choice had it decided by its modules when read
// (workspace::parseWorkspace): say so, as adding modules does.
void noteLibdeviceRule(QStatusBar* bar, const workspace::Workspace& ws) {
    if (ws.libdeviceSaved || !ws.libdevice) return;
    if (const auto calls = workspace::libdeviceCallsOf(ws.modules); !calls.empty())
        bar->showMessage(QString::fromStdString(workspace::libdeviceRuleNote(calls)), 15000);
}

constexpr int kMaxRecent = 10;

// The engine process is this app (--engine), unless the settings ask for in-process work.
EngineSettings engineSettings() {
    EngineSettings s = EngineSettings::defaults();
    if (SettingsDialog::inProcessEngine()) s.command.clear();
    s.compileTimeoutSeconds = SettingsDialog::compileTimeoutSeconds();
    const auto path = SettingsDialog::cudaPath();
    if (!path.isEmpty()) s.cudaPath = path.toStdString();
    return s;
}

// The bottom docks' height on a first start: a few Problems rows; with a GPU, the Runs dock's
// table and buttons (about a third of the window).
constexpr int kSmallBottomDocks = 170;
constexpr int kRunsDockHeight = 300;
// The window's first size where the screen has room for it.
constexpr QSize kFirstSize(1500, 920);
// Presenter mode's zoom: points added to every text, on top of the window's zoom.
constexpr int kPresenterZoom = 4;

toolkit::SearchConfig searchConfig() {
    toolkit::SearchConfig config;
    const auto path = SettingsDialog::cudaPath();
    if (!path.isEmpty()) config.explicitRoot = path.toStdString();
    return config;
}

// A question with three labelled answers; the index of the one clicked (the last one for Esc).
int askThreeWay(QWidget* parent, QMessageBox::Icon icon, const QString& title, const QString& text,
                const std::vector<std::pair<QString, QMessageBox::ButtonRole>>& answers, int defaultAnswer) {
    QMessageBox box(icon, title, text, QMessageBox::NoButton, parent);
    std::vector<QAbstractButton*> buttons;
    for (const auto& [label, role] : answers) buttons.push_back(box.addButton(label, role));
    box.setDefaultButton(static_cast<QPushButton*>(buttons[size_t(defaultAnswer)]));
    box.setEscapeButton(buttons[2]);
    box.exec();
    const auto it = std::find(buttons.begin(), buttons.end(), box.clickedButton());
    return it == buttons.end() ? 2 : int(it - buttons.begin());
}

// The CUDA major release for the arch list, without opening nvJitLink here: the probe's answer,
// else the release recorded beside libNVVM, else 13 until the probe says.
int knownCudaMajor(const toolkit::Toolkit& toolkit) {
    if (toolkit.probed()) return toolkit.cudaMajor();
    const auto& release = toolkit.release();
    return release && release->major() > 0 ? release->major() : 13;
}

// What the engine is asked for with this toolkit: PTX only without nvJitLink. Nothing is opened
// or run here: until the probe answered (MainWindow::probeToolkit), nvJitLink is taken as there
// when its file is. SASS is always asked for: an engine without nvdisasm says why in the result
// (the sentence the probe gives), and the outputs, part of the result cache's key, stay the same
// before and after the probe answers (an option set back is answered from the cache).
unsigned outputsFor(const toolkit::Toolkit* toolkit) {
    unsigned outputs = pipeline::kPtx | pipeline::kFigures;
    if (!toolkit || toolkit->hasNvJitLink()) outputs |= pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin;
    if (toolkit) outputs |= pipeline::kSass | pipeline::kLiveRegisters | pipeline::kSassGraph;
    return outputs;
}

// Why the SASS pane stays empty with this toolkit; empty when nvdisasm is there or not known yet.
QString sassMissing(const toolkit::Toolkit* toolkit) {
    if (!toolkit || !toolkit->probed() || toolkit->nvdisasm()) return {};
    // Core's one sentence says what is missing and how to get it.
    return QString::fromStdString(toolkit->nvdisasmReport().problem);
}

}  // namespace

MainWindow::MainWindow(std::unique_ptr<Engine> engine, QWidget* parent)
    : QMainWindow(parent), document_(new WorkspaceDocument(this)), engine_(std::move(engine)) {
    initResources();
    setObjectName("MainWindow");
    // The installed icon theme's, else (run from a build) the same icon built in.
    QIcon builtIn;
    for (const int size : {16, 32, 48, 64, 128, 256}) builtIn.addFile(QString(":/icons/%1.png").arg(size));
    setWindowIcon(QIcon::fromTheme(QStringLiteral(NVPG_APP_ID), builtIn));
    setAcceptDrops(true);
    loadToolkit();
    if (!engine_)
        engine_ = std::make_unique<SupervisedEngine>(
            toolkit_, toolkit_ ? QString() : QString("libNVVM is not available: see the status bar"), engineSettings());
    controller_ = new CompileController(engine_.get(), document_, this);
    controller_->setOutputs(outputsFor(toolkit_.get()));

    // Left: editors over a find bar; right: the output panes.
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
    output_->setSassUnavailableReason(sassMissing(toolkit_.get()));
    // The find bar sits under whichever side it searches.
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(0);
    rightLayout->addWidget(output_, 1);
    findSides_[0] = left;
    findSides_[1] = right;
    auto* central = new QSplitter(Qt::Horizontal, this);
    central_ = central;
    central->setObjectName("centralSplitter");
    // Neither side may vanish: at 1280 px both stay wide enough to read.
    central->setChildrenCollapsible(false);
    central->addWidget(left);
    central->addWidget(right);
    central->setStretchFactor(0, 1);
    central->setStretchFactor(1, 1);
    setCentralWidget(central);
    central->installEventFilter(this);

    options_ = new OptionsPanel(document_, this);
    auto* optionsDock = new QDockWidget(tr("Options"), this);
    optionsDock->setObjectName("optionsDock");
    optionsDock->setWidget(options_);
    addDockWidget(Qt::LeftDockWidgetArea, optionsDock);
    problems_ = new ProblemsPanel(this);
    auto* problemsDock = new QDockWidget(tr("Problems"), this);
    problemsDock->setObjectName("problemsDock");
    problemsDock->setWidget(problems_);
    addDockWidget(Qt::BottomDockWidgetArea, problemsDock);
    runs_ = new RunPanel(engine_.get(), document_, this);
    auto* runsDock = new QDockWidget(tr("Runs"), this);
    runsDock->setObjectName("runsDock");
    runsDock->setWidget(runs_);
    addDockWidget(Qt::BottomDockWidgetArea, runsDock);
    tabifyDockWidget(problemsDock, runsDock);
    libdevice_ = new LibdevicePanel(this);
    auto* libdeviceDock = new QDockWidget(tr("libdevice"), this);
    libdeviceDock->setObjectName("libdeviceDock");
    libdeviceDock->setWidget(libdevice_);
    addDockWidget(Qt::BottomDockWidgetArea, libdeviceDock);
    tabifyDockWidget(runsDock, libdeviceDock);
    problemsDock_ = problemsDock;
    runsDock_ = runsDock;
    // Compare: a pinned result or a variant beside the current compile, closed until asked for
    // (View > Compare, Build > Pin Result). A tab of the bottom docks: there its two sides get
    // the window's whole width, and the editors and outputs keep theirs (on the right, beside the
    // outputs, every pane was left ~280 px wide).
    compare_ = new ComparePanel(document_, toolkit_, engineSettings(), this);
    compare_->setOutputs(outputsFor(toolkit_.get()) & ~unsigned(pipeline::kCubin));
    compare_->setFlush([this] { editors_->flush(); });
    compareDock_ = new QDockWidget(tr("Compare"), this);
    compareDock_->setObjectName("compareDock");
    compareDock_->setWidget(compare_);
    addDockWidget(Qt::BottomDockWidgetArea, compareDock_);
    tabifyDockWidget(libdeviceDock, compareDock_);
    compareDock_->hide();
    // Analysis: the instruction mix and the theoretical occupancy of one kernel, as charts; closed
    // until asked for (View > Analysis), a tab of the bottom docks for their width.
    analysis_ = new AnalysisPanel(this);
    analysisDock_ = new QDockWidget(tr("Analysis"), this);
    analysisDock_->setObjectName("analysisDock");
    analysisDock_->setWidget(analysis_);
    addDockWidget(Qt::BottomDockWidgetArea, analysisDock_);
    tabifyDockWidget(compareDock_, analysisDock_);
    analysisDock_->hide();
    connect(analysisDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible) preferCaretKernel();
    });
    // Control Flow: the graph of the function under the caret, closed until asked for (View >
    // Control Flow); a bottom tab for the width a graph wants.
    links_ = new LineMapLinks(editors_, output_, document_, this);
    cfg_ = new CfgPanel(output_, editors_, document_, links_, this);
    cfgDock_ = new QDockWidget(tr("Control Flow"), this);
    cfgDock_->setObjectName("cfgDock");
    cfgDock_->setWidget(cfg_);
    addDockWidget(Qt::BottomDockWidgetArea, cfgDock_);
    tabifyDockWidget(compareDock_, cfgDock_);
    cfgDock_->hide();
    // Lesson: a lesson's steps, instructions and checks, beside the editors (tabbed with Options);
    // shown when a lesson opens, hidden when a workspace without one does.
    lesson_ = new LessonPanel(engine_.get(), document_, controller_, this);
    lesson_->setFlush([this] { editors_->flush(); });
    lessonDock_ = new QDockWidget(tr("Lesson"), this);
    lessonDock_->setObjectName("lessonDock");
    lessonDock_->setWidget(lesson_);
    addDockWidget(Qt::LeftDockWidgetArea, lessonDock_);
    tabifyDockWidget(optionsDock, lessonDock_);
    lessonDock_->hide();
    connect(lesson_, &LessonPanel::lessonChanged, this, [this](bool has) {
        if (has) {
            lessonDock_->show();
            lessonDock_->raise();
        } else {
            lessonDock_->hide();
        }
        rebuildLessonsMenu();
    });
    connect(lesson_, &LessonPanel::lessonError, this, [this](const QString& message) {
        showError(tr("Open lesson"), tr("The workspace is open, but its lesson cannot be used:\n\n%1").arg(message));
    });
    // The bottom docks share one height: the one in front sets it (fitBottomDock). What a dock
    // holds may be squeezed below its own minimum while another is in front.
    for (auto* dock : bottomDocks()) {
        dock->widget()->setMinimumHeight(1);
        connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
            if (visible) {
                QMetaObject::invokeMethod(
                    this, [this, dock] { fitBottomDock(dock); }, Qt::QueuedConnection);
                return;
            }
            // Going behind another tab: the height it had (the user's, or the one it was given)
            // is the one it comes back with.
            if (dock != problemsDock_ && !presenter_ && !dock->isFloating() &&
                dockWidgetArea(dock) == Qt::BottomDockWidgetArea &&
                dock->widget()->height() >= 3 * fontMetrics().height())
                bottomHeights_[dock] = dock->widget()->height();
        });
    }
    connect(problems_, &ProblemsPanel::contentChanged, this, [this] { fitBottomDock(problemsDock_); });
    // Problems is in front until the GPU is known (placeRunsDock), and comes to the front when a
    // compile fails.
    problemsDock->raise();
    if (toolkit_)
        options_->setArchs(nvvm::supportedArchs(knownCudaMajor(*toolkit_)), knownCudaMajor(*toolkit_),
                           tr("default: libNVVM's (compute_75)"));

    controller_->setFlush([this] { editors_->flush(); });
    // Unsaved work goes to the journal a second after an edit and at each compile.
    journal_ = std::make_unique<Journal>();
    journalTimer_ = new QTimer(this);
    journalTimer_->setSingleShot(true);
    journalTimer_->setInterval(1000);
    connect(journalTimer_, &QTimer::timeout, this, &MainWindow::writeJournal);
    // One rule: every change that marks the document modified (the title's *) is journaled, be
    // it typing, an option, a module's flag or a saved run configuration.
    connect(document_, &WorkspaceDocument::changed, this, [this] {
        if (!opening_ && !journalTimer_->isActive()) journalTimer_->start();
    });
    connect(controller_, &CompileController::busyChanged, this, [this](bool busy) {
        if (busy) writeJournal();
    });
    connect(document_, &WorkspaceDocument::modifiedChanged, this, [this](bool modified) {
        if (!modified && journal_) journal_->clear();
    });
    connect(controller_, &CompileController::replyShown, this, &MainWindow::showReply);
    // Show effect (the Options dock's Δ): the current compile beside the option flipped.
    connect(options_, &OptionsPanel::effectRequested, this, [this](const QString& option, const QString& value) {
        const auto changed =
            nvvm::withOptionChanged(document_->workspace().options, option.toStdString(), value.toStdString());
        if (!changed) return;
        compare_->showEffect(changed->options, QString::fromStdString(changed->label),
                             QString::fromStdString(inspect::optionEffectText(option.toStdString(), changed->value)));
        compareDock_->show();
        compareDock_->raise();
    });
    compare_->setHistory(&controller_->history());
    connect(controller_, &CompileController::historyChanged, compare_, &ComparePanel::historyChanged);
    connect(controller_, &CompileController::replyShown, compare_,
            [this](const EngineReply& reply) { compare_->setCurrent(reply.result); });
    connect(controller_, &CompileController::lateShown, compare_,
            [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) {
                if (result) compare_->setCurrent(std::move(result));
            });
    connect(editors_, &EditorArea::edited, compare_, &ComparePanel::edited);
    // A workspace saved with variants or pins opens with them shown.
    // Once the editors show the new modules (they follow the reset's later signals).
    connect(document_, &WorkspaceDocument::reloaded, this, [this] {
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (compare_->showSaved()) {
                    compareDock_->show();
                    compareDock_->raise();
                }
            },
            Qt::QueuedConnection);
    });
    connect(document_, &WorkspaceDocument::settingsChanged, compare_, &ComparePanel::edited);
    connect(document_, &WorkspaceDocument::modulesChanged, compare_, &ComparePanel::edited);
    connect(controller_, &CompileController::ptxShown, this, &MainWindow::showPtx);
    // Analysis: the plain result's PTX mix and occupancy now, the SASS mix with the complete one.
    connect(controller_, &CompileController::replyShown, this, [this](const EngineReply& reply) {
        preferCaretKernel();
        if (reply.result)
            analysis_->setResult(reply.result);
        else
            analysis_->clear();
    });
    connect(controller_, &CompileController::lateShown, this,
            [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) {
                if (result) analysis_->setResult(std::move(result));
            });
    // The launch it marks follows the Runs dock's configuration and the saved ones.
    const auto runConfigs = [this] { analysis_->setRunConfigs(runs_->currentConfig(), document_->workspace().runs); };
    connect(runs_->blockEdit(), &QLineEdit::textChanged, analysis_, runConfigs);
    connect(runs_->sharedSpin(), &QSpinBox::valueChanged, analysis_, runConfigs);
    connect(runs_->kernelCombo(), &QComboBox::currentIndexChanged, analysis_, runConfigs);
    connect(document_, &WorkspaceDocument::changed, analysis_, runConfigs);
    connect(document_, &WorkspaceDocument::reloaded, analysis_, runConfigs);
    // The SASS first: the map's bands are laid on its text.
    connect(controller_, &CompileController::lateShown, this,
            [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) { output_->showLate(result); });
    // The listing itself comes before the live registers, the graph and the map.
    connect(controller_, &CompileController::sassShown, this,
            [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) { output_->showLate(result); });
    connect(controller_, &CompileController::lineMapShown, this,
            [this](quint64, std::shared_ptr<const inspect::LineMap> map) { links_->setMap(std::move(map)); });
    connect(editors_, &EditorArea::edited, links_, &LineMapLinks::textEdited);
    // Live registers and local memory: strips in the editors' margins, notes under the headers.
    pressure_ = new Pressure(editors_, output_, links_, document_, this);
    connect(controller_, &CompileController::lateShown, pressure_,
            [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) {
                pressure_->setResult(std::move(result));
            });
    // The listing before its figures: no strips of the compile before on it meanwhile.
    connect(controller_, &CompileController::sassShown, pressure_,
            [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) {
                pressure_->setResult(std::move(result));
            });
    connect(editors_, &EditorArea::edited, pressure_, &Pressure::textEdited);
    // The libdevice dock reads the job as it went (the modules' text then) with each result.
    connect(controller_, &CompileController::replyShown, this, [this](const EngineReply& reply) {
        if (!reply.result) {
            libdevice_->clear();
            return;
        }
        const auto& ws = document_->workspace();
        pipeline::Job job;
        job.modules = ws.modules;
        job.libdevice = ws.libdevice;
        job.lineMap = controller_->lineMap();
        libdevice_->setResult(std::move(job), reply.result);
    });
    connect(controller_, &CompileController::lateShown, this,
            [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) {
                if (result) libdevice_->setLateResult(std::move(result));
            });
    connect(controller_, &CompileController::lineMapShown, this,
            [this](quint64, std::shared_ptr<const inspect::LineMap> map) { libdevice_->setLineMap(std::move(map)); });
    connect(libdevice_, &LibdevicePanel::activated, links_,
            [this](const QString& module, int line, int) { links_->showIrLine(module, line); });
    connect(libdevice_, &LibdevicePanel::ptxLinesSelected, links_,
            [this](const std::vector<inspect::LineRange>& lines) {
                links_->markOutputLines(inspect::MappedOutput::Ptx, lines);
            });
    connect(controller_, &CompileController::busyChanged, this, [this](bool busy) {
        if (busy) links_->requested();
    });
    connect(controller_, &CompileController::replyShown, cfg_, [this](const EngineReply& reply) {
        if (reply.result) cfg_->setResult(reply.result);
    });
    connect(controller_, &CompileController::lateShown, cfg_,
            [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) {
                if (result) cfg_->setResult(std::move(result));
            });
    connect(controller_, &CompileController::lineMapShown, cfg_,
            [this](quint64, std::shared_ptr<const inspect::LineMap> map) { cfg_->setLineMap(std::move(map)); });
    connect(controller_, &CompileController::verified, this, &MainWindow::showVerified);
    connect(editors_, &EditorArea::edited, controller_, &CompileController::edited);
    connect(document_, &WorkspaceDocument::settingsChanged, this, [this] {
        if (!opening_) controller_->settingsEdited();
    });
    connect(document_, &WorkspaceDocument::modulesChanged, this, [this] {
        updateModuleActions();
        updateStartPage();
        if (!opening_) controller_->edited();
    });
    connect(startPage_, &StartPage::exampleChosen, this, [this](const QString& name) {
        if (maybeSave()) openExample(name);
    });
    connect(startPage_, &StartPage::recentChosen, this, [this](const QString& path) {
        if (maybeSave()) openWorkspace(path);
    });
    connect(startPage_, &StartPage::newModuleRequested, this, &MainWindow::addTemplateModule);
    // The course: the lesson last worked on, else the first.
    connect(startPage_, &StartPage::courseRequested, this, [this] {
        const auto lessons = lesson::listLessons();
        if (lessons.empty() || !maybeSave()) return;
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
        openLesson(QString::fromStdString(chosen.string()));
    });
    connect(editors_, &EditorArea::convertToTextRequested, this, &MainWindow::convertToText);
    connect(document_, &WorkspaceDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(document_, &WorkspaceDocument::pathChanged, this, &MainWindow::updateTitle);
    // Exports are proposed beside the workspace, named as it is; and the status bar says where
    // they went.
    connect(document_, &WorkspaceDocument::pathChanged, this,
            [this] { output_->setExportBaseName(proposedPath(".ptx")); });
    connect(document_, &WorkspaceDocument::reloaded, this,
            [this] { output_->setExportBaseName(proposedPath(".ptx")); });
    connect(output_, &OutputView::exported, this, [this](const QStringList& paths) {
        QStringList shown;
        for (const auto& p : paths) shown << QDir::toNativeSeparators(p);
        statusBar()->showMessage(tr("Exported to %1").arg(shown.join(", ")), 15000);
    });
    connect(problems_, &ProblemsPanel::activated, editors_, &EditorArea::showLocation);
    fixes_ = new FixController(document_, editors_, problems_, controller_, this);
    connect(fixes_, &FixController::failed, this, &MainWindow::showError);
    connect(editors_, &EditorArea::currentModuleChanged, this, [this] {
        updateModuleActions();
        // A search in an output pane stays there; one in the editors follows the tab shown.
        if (findBar_->editor() && output_->isAncestorOf(findBar_->editor())) return;
        if (auto* e = editors_->currentEditor()) findBar_->attach(e);
    });

    buildActions();
    buildStatusBar();
    if (!toolkit_) queryGpu();  // else once the probe answered

    // First start: at most the available part of the screen it opens on (where the mouse is);
    // editors and output share the width, the docks stay small.
    QScreen* screen = QGuiApplication::screenAt(QCursor::pos());
    if (!screen) screen = QGuiApplication::primaryScreen();
    if (screen) setScreen(screen);
    const QRect room = screen ? screen->availableGeometry() : QRect(QPoint(), kFirstSize);
    resize(kFirstSize.boundedTo(room.size()));
    central->setSizes({640, 860});
    resizeDocks({optionsDock}, {room.width() < kFirstSize.width() ? 220 : 270}, Qt::Horizontal);
    // Small until the GPU is known: on a machine without one the Runs dock has nothing to run.
    resizeDocks({problemsDock}, {kSmallBottomDocks}, Qt::Vertical);
    QSettings settings;
    firstLayout_ = !settings.contains("window/state");
    // The size it had on this screen, if it was ever closed there. The layout's minimum is still
    // the one from before the hidden docks (the Lesson dock's 300 px) were hidden: bring it up to
    // date first, or a short window it cuts to comes back taller than it was closed.
    if (layout()) layout()->activate();
    restoreGeometry(settings.value(geometryKey(screen)).toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    fitToScreen();
    presenterOutput_ = inspect::MappedOutput(std::clamp(settings.value("view/presenterOutput", 0).toInt(), 0, 2));
    for (int i = 0; i < presenterOutputActions_.size(); ++i)
        presenterOutputActions_[i]->setChecked(i == int(presenterOutput_));
    newWorkspace();
    applyZoom();
}

QString MainWindow::geometryKey(const QScreen* screen) {
    if (!screen) return QStringLiteral("window/geometry");
    const QSize size = screen->geometry().size();
    QString name = screen->name();
    name.replace(QLatin1Char('/'), QLatin1Char('_'));  // a settings group separator
    return QStringLiteral("window/geometry/%1 %2x%3").arg(name).arg(size.width()).arg(size.height());
}

void MainWindow::fitToScreen() {
    const QScreen* s = screen();
    if (!s || isFullScreen() || isMaximized()) return;
    const QRect room = s->availableGeometry();
    // The window manager's frame, once it is known (after the window is shown).
    const QRect frame = frameGeometry(), inner = geometry();
    const QMargins margins(inner.left() - frame.left(), inner.top() - frame.top(), frame.right() - inner.right(),
                           frame.bottom() - inner.bottom());
    const QSize most = room.size().shrunkBy(margins);
    if (width() > most.width() || height() > most.height()) resize(size().boundedTo(most));
    const QSize outer = size().grownBy(margins);
    const int x =
        std::clamp(frameGeometry().left(), room.left(), std::max(room.left(), room.right() + 1 - outer.width()));
    const int y =
        std::clamp(frameGeometry().top(), room.top(), std::max(room.top(), room.bottom() + 1 - outer.height()));
    if (QPoint(x, y) != frameGeometry().topLeft()) move(x, y);
}

QList<QDockWidget*> MainWindow::bottomDocks() const {
    QList<QDockWidget*> docks;
    for (const char* name : {"problemsDock", "runsDock", "libdeviceDock", "compareDock", "analysisDock", "cfgDock"})
        if (auto* dock = findChild<QDockWidget*>(QLatin1String(name))) docks << dock;
    return docks;
}

void MainWindow::preferCaretKernel() {
    // Only while it shows: the scan reads the whole module.
    if (!analysisDock_->isVisible()) return;
    auto* editor = editors_->currentEditor();
    if (!editor) return;
    int line = 0, index = 0;
    editor->getCursorPosition(&line, &index);
    const QByteArray text = editor->text().toUtf8();
    QString kernel;
    for (const auto& f : nvvm::scanFunctions(std::string_view(text.constData(), size_t(text.size()))))
        if (f.isDefinition && f.line <= line + 1) kernel = QString::fromStdString(f.name);
    analysis_->setPreferredKernel(kernel);
}

void MainWindow::fitBottomDock(QDockWidget* dock) {
    // Only the dock in front of the bottom area, and not while presenter mode has them hidden.
    if (!dock || presenter_ || dock->isFloating() || !dock->isVisible() || dock->visibleRegion().isEmpty() ||
        dockWidgetArea(dock) != Qt::BottomDockWidgetArea)
        return;
    int wanted = 0;
    if (dock == problemsDock_) {
        // Its content's height: one line for "No problems", its rows (up to a few) otherwise.
        wanted = problems_->sizeHint().height();
    } else {
        const int room = height() * 2 / 5;
        // Compare's two sides and Analysis' charts and the control-flow graph want the height; the others a few rows.
        const bool tall = dock == compareDock_ || dock == analysisDock_ || dock == cfgDock_;
        wanted = bottomHeights_.value(dock, tall ? room : std::min(kRunsDockHeight, room));
    }
    // What resizeDocks sizes is the whole bottom area: the dock's title bar and the tab bar under
    // it come on top of what it holds.
    const int areaBottom = statusBar()->isVisible() ? statusBar()->geometry().top() : height();
    wanted += dock->height() - dock->widget()->height() + std::max(0, areaBottom - 1 - dock->geometry().bottom());
    resizeDocks({dock}, {wanted}, Qt::Vertical);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // In presenter mode the IR and the output share the width equally, whatever size full screen
    // gives the window.
    if (watched == central_ && event->type() == QEvent::Resize && presenter_) {
        const int half = std::max(1, central_->width() / 2);
        central_->setSizes({half, half});
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (shownOnce_) return;
    shownOnce_ = true;
    // The frame is known now; and a window moved to another screen fits that one.
    QMetaObject::invokeMethod(this, &MainWindow::fitToScreen, Qt::QueuedConnection);
    if (auto* handle = windowHandle())
        connect(handle, &QWindow::screenChanged, this,
                [this] { QMetaObject::invokeMethod(this, &MainWindow::fitToScreen, Qt::QueuedConnection); });
}

void MainWindow::setPresenterOutput(inspect::MappedOutput output) {
    presenterOutput_ = output;
    QSettings().setValue("view/presenterOutput", int(output));
    for (int i = 0; i < presenterOutputActions_.size(); ++i) presenterOutputActions_[i]->setChecked(i == int(output));
    if (presenter_) output_->showOnly(output);
}

void MainWindow::setPresenterMode(bool on) {
    if (on == presenterMode()) return;
    if (on) {
        presenter_ = std::make_unique<PresenterSaved>();
        presenter_->state = saveState();
        presenter_->geometry = geometry();
        presenter_->windowState = windowState();
        presenter_->zoom = zoom_;
        presenter_->central = central_->sizes();
        presenter_->sassTab = output_->sassTabShown();
        for (auto* dock : findChildren<QDockWidget*>()) dock->hide();
        output_->setDiffMode(false);
        output_->showOnly(presenterOutput_);
        setWindowState(windowState() | Qt::WindowFullScreen);
        zoom_ += kPresenterZoom;
        applyZoom();
        // The IR and the output halves of the screen.
        const int half = std::max(1, central_->width() / 2);
        central_->setSizes({half, half});
    } else {
        const auto saved = std::move(presenter_);
        output_->showOnly(std::nullopt);
        output_->showSassTab(saved->sassTab);
        zoom_ = saved->zoom;
        applyZoom();
        setWindowState(saved->windowState);
        if (!(saved->windowState & (Qt::WindowMaximized | Qt::WindowFullScreen))) setGeometry(saved->geometry);
        restoreState(saved->state);
        central_->setSizes(saved->central);
    }
    const QSignalBlocker block(presenterAction_);
    presenterAction_->setChecked(on);
}

bool MainWindow::pinResult(const QString& name) {
    if (auto st = compare_->pinCurrent(name); !st) {
        showError(tr("Pin Result"), QString::fromStdString(st.error().message));
        return false;
    }
    compareDock_->show();
    compareDock_->raise();
    return true;
}

QsciScintilla* MainWindow::focusedPane() const {
    for (QWidget* w = QApplication::focusWidget(); w; w = w->parentWidget()) {
        if (auto* pane = qobject_cast<QsciScintilla*>(w); pane && isAncestorOf(pane)) return pane;
        if (w == findBar_ && findBar_->editor()) return findBar_->editor();
    }
    return editors_->currentEditor();
}

void MainWindow::attachFindBar(QsciScintilla* pane) {
    if (!pane) return;
    findBar_->attach(pane);
    auto* side = findSides_[output_->isAncestorOf(pane) ? 1 : 0];
    if (findBar_->parentWidget() != side) {
        const bool shown = findBar_->isVisible();
        static_cast<QVBoxLayout*>(side->layout())->addWidget(findBar_);
        findBar_->setVisible(shown);
    }
}

void MainWindow::applyZoom() {
    const int base = SettingsDialog::editorFontSize() - QFontDatabase::systemFont(QFontDatabase::FixedFont).pointSize();
    // Scintilla ignores a zoom outside -10..20 points.
    zoom_ = std::clamp(zoom_, -10 - base, 20 - base);
    const int zoom = std::clamp(base + zoom_, -10, 20);
    editors_->setZoom(zoom);
    for (auto* pane : output_->findChildren<QsciScintilla*>())
        pane->SendScintilla(QsciScintillaBase::SCI_SETZOOM, zoom);
    for (auto* pane : compare_->findChildren<QsciScintilla*>())
        pane->SendScintilla(QsciScintillaBase::SCI_SETZOOM, zoom);
    cfg_->setZoom(zoom_);

    // Every other text by the window's zoom alone (the font-size setting is the editors'): pane
    // headers, kernel tables, the docks, the status bar; hover popups take their pane's.
    const double appSize = QApplication::font().pointSizeF();
    const double size = std::max(6.0, appSize + zoom_);
    const double before = uiPointSize_ > 0 ? uiPointSize_ : appSize;
    QList<QWidget*> roots{centralWidget(), statusBar()};
    for (auto* dock : findChildren<QDockWidget*>()) roots << dock;
    // The texts that set a font of their own: those whose size does not follow their parent's
    // (a smaller caption) keep their ratio to the others.
    std::vector<std::pair<QWidget*, double>> own;
    for (auto* root : roots)
        for (auto* w : root->findChildren<QWidget*>())
            if (w->testAttribute(Qt::WA_SetFont) && !qobject_cast<QsciScintilla*>(w) &&
                !qobject_cast<QsciScintilla*>(w->parentWidget()))  // its viewport, its popups
                own.emplace_back(w, w->font().pointSizeF());
    for (auto* root : roots) {
        QFont f = root->font();
        f.setPointSizeF(size);
        root->setFont(f);
    }
    for (const auto& [w, was] : own) {
        if (size == before || w->font().pointSizeF() != was || was <= 0) continue;  // it followed
        QVariant ratio = w->property("nvpgFontRatio");
        if (!ratio.isValid()) {
            ratio = was / before;
            w->setProperty("nvpgFontRatio", ratio);
        }
        QFont f = w->font();
        f.setPointSizeF(std::max(4.0, ratio.toDouble() * size));
        w->setFont(f);
    }
    uiPointSize_ = size;
}

MainWindow::~MainWindow() {
    if (probeCancel_) probeCancel_->cancel();  // the probe's engine ends with the window
    for (auto& probe : probeThreads_) probe.join();
    // Hiding them while the window goes would ask for their layout, half gone.
    for (auto* dock : bottomDocks()) dock->disconnect(this);
}

QString MainWindow::journalFile() const {
    return journal_ ? journal_->file() : QString();
}

void MainWindow::writeJournal() {
    if (!journal_) return;
    // First: copying the editors' text in marks the document modified, which would schedule
    // this write again.
    editors_->flush();
    journalTimer_->stop();
    if (!document_->isModified()) {
        journal_->clear();
        return;
    }
    const auto& ws = document_->workspace();
    size_t bytes = 0;
    for (const auto& m : ws.modules) bytes += m.bytes.size();
    if (bytes > Journal::kBackgroundBytes) {
        // A copy goes to the writer; the UI thread does not wait for the JSON or the disk.
        QPointer<MainWindow> self(this);
        journal_->writeInBackground(ws, document_->path(), document_->diskHash(), [self](const support::Status& st) {
            if (st) return;
            const QString message = QString::fromStdString(st.error().message);
            QMetaObject::invokeMethod(qApp, [self, message] {
                if (self) self->statusBar()->showMessage(message, 10000);
            });
        });
        return;
    }
    if (auto st = journal_->write(ws, document_->path(), document_->diskHash()); !st)
        statusBar()->showMessage(QString::fromStdString(st.error().message), 10000);
}

bool MainWindow::offerRestore() {
    const auto orphans = Journal::orphans();
    if (orphans.isEmpty()) return false;
    const auto& newest = orphans.first();
    QStringList modules;
    for (const auto& m : newest.workspace.modules) modules << QString::fromStdString(m.name);
    QString text = tr("NVVM Playground did not close normally. It kept the unsaved work of \"%1\" (%2), as it was "
                      "at %3.")
                       .arg(newest.name, modules.isEmpty() ? tr("no modules") : modules.join(", "),
                            QLocale().toString(newest.written, QLocale::ShortFormat));
    if (!newest.workspacePath.isEmpty()) text += " " + tr("It was opened from %1.").arg(newest.workspacePath);
    if (orphans.size() > 1) text += " " + tr("%n more will be offered at the next start.", "", int(orphans.size() - 1));
    RestoreChoice choice;
    if (askRestore_) {
        choice = askRestore_(text);
    } else {
        const int answer = askThreeWay(this, QMessageBox::Question, tr("Restore unsaved work"), text,
                                       {{tr("Restore"), QMessageBox::AcceptRole},
                                        {tr("Discard"), QMessageBox::DestructiveRole},
                                        {tr("Not Now"), QMessageBox::RejectRole}},
                                       0);
        choice = answer == 0 ? RestoreChoice::Restore : answer == 1 ? RestoreChoice::Discard : RestoreChoice::Later;
    }
    for (int i = 1; i < orphans.size(); ++i) Journal::release(orphans[i].file);
    if (choice == RestoreChoice::Later) {
        Journal::release(newest.file);
        return false;
    }
    if (choice == RestoreChoice::Discard) {
        Journal::discard(newest.file);
        return false;
    }
    opening_ = true;
    document_->reset(newest.workspace, newest.workspacePath, newest.diskHash);
    document_->markModified();
    afterOpen();
    writeJournal();  // this window's journal holds it now; only then does the old one go
    Journal::discard(newest.file);
    statusBar()->showMessage(tr("Restored the unsaved work of %1").arg(newest.name), 10000);
    return true;
}

void MainWindow::loadToolkit() {
    // Only located: the files are named, no library is mapped here (a libNVVM that crashes or
    // hangs as it loads would take the app down). Compiles open it in their engine process, and
    // probeToolkit asks one for the versions. Compiling in the app's own process (Settings, for
    // debugging) maps them here, as asked, for the compile thread.
    toolkitProbed_ = false;
    auto tk = SettingsDialog::inProcessEngine() ? toolkit::Toolkit::load(searchConfig())
                                                : toolkit::Toolkit::locate(searchConfig());
    if (tk) {
        toolkit_ = *tk;
        libsErrorForStatus_.clear();
        probeToolkit();
    } else {
        toolkit_.reset();
        libsErrorForStatus_ = QString::fromStdString(tk.error().message);
        if (probeCancel_) probeCancel_->cancel();
        probeCancel_.reset();
        ++toolkitProbe_;  // an answer still to come is for another toolkit
    }
}

void MainWindow::probeToolkit() {
    if (probeCancel_) probeCancel_->cancel();  // the toolkit before Settings changed it
    probeCancel_ = std::make_shared<engine::CallCancel>();
    const quint64 probe = ++toolkitProbe_;
    QPointer<MainWindow> self(this);
    probeThreads_.emplace_back(
        [self, probe, cancel = probeCancel_, config = searchConfig(), settings = engineSettings()] {
            // A toolkit object of its own: what the probe adopts is never written while another
            // thread reads it.
            const bool here = settings.command.empty();
            auto tk = here ? toolkit::Toolkit::load(config) : toolkit::Toolkit::locate(config);
            std::shared_ptr<toolkit::Toolkit> probed;
            QString problem;
            if (!tk) {
                problem = QString::fromStdString(tk.error().message);
            } else {
                probed = *tk;
                if (here) {
                    probed->adoptProbe(probed->nvvmReport(), probed->nvJitLinkReport(), probed->cudaMajor());
                } else if (auto st = engine::probeToolkit(*probed, settings.cudaPath, settings.command,
                                                          settings.compileTimeoutSeconds, cancel.get());
                           !st) {
                    problem = QString::fromStdString(st.error().message);
                }
                // nvdisasm --version (support::runProbe, bounded) and the release files, asked here.
                if (problem.isEmpty()) {
                    (void)probed->nvdisasmReport();
                    (void)probed->release();
                }
            }
            if (cancel->cancelled()) return;
            QMetaObject::invokeMethod(qApp, [self, probe, probed, problem] {
                if (self) self->toolkitProbed(probe, probed, problem);
            });
        });
}

void MainWindow::toolkitProbed(quint64 probe, std::shared_ptr<const toolkit::Toolkit> probed, const QString& problem) {
    if (probe != toolkitProbe_) return;  // Settings chose another toolkit meanwhile
    probeCancel_.reset();
    if (!problem.isEmpty()) {
        // Its libNVVM cannot be loaded, so no compile can use it: the status bar says why, and
        // every compile says it in Problems (no engine is started to crash on it again).
        toolkit_.reset();
        libsErrorForStatus_ = problem;
        engine_->setToolkit(nullptr, problem);
        controller_->setOutputs(outputsFor(nullptr));
        compare_->setOutputs(outputsFor(nullptr) & ~unsigned(pipeline::kCubin));
        compare_->setAppToolkit(nullptr, engineSettings());
        output_->setSassUnavailableReason({});
        buildStatusBar();
        statusBar()->showMessage(problem);
        queryGpu();
        controller_->compileNow();
        return;
    }
    toolkit_ = std::move(probed);
    toolkitProbed_ = true;
    const unsigned outputs = outputsFor(toolkit_.get());
    compare_->setOutputs(outputs & ~unsigned(pipeline::kCubin));
    compare_->setAppToolkit(toolkit_, engineSettings());
    output_->setSassUnavailableReason(sassMissing(toolkit_.get()));
    options_->setArchs(nvvm::supportedArchs(toolkit_->cudaMajor()), toolkit_->cudaMajor(),
                       tr("default: libNVVM's (compute_75)"));
    buildStatusBar();
    queryGpu();
    // Only fewer outputs than asked for until now: without nvJitLink (taken as there when only the
    // system loader could say) the compile failed for the link, so it runs again.
    const bool lostLink = controller_->outputs() & ~outputs & pipeline::kLtoPtx;
    controller_->setOutputs(outputs);
    if (lostLink) controller_->compileNow();
}

void MainWindow::buildActions() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New Workspace"), QKeySequence::New, this, [this] {
        if (maybeSave()) newWorkspace();
    });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        if (!maybeSave()) return;
        const auto path = QFileDialog::getOpenFileName(this, tr("Open workspace"), {},
                                                       tr("NVVM Playground workspaces (*.nvpg);;All files (*)"));
        if (!path.isEmpty()) openWorkspace(path);
    });
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    auto* examples = file->addMenu(tr("&Examples"));
    QList<QPair<QString, QString>> described;  // the start page shows what each example is about
    for (const auto& example : workspace::listExamples()) {
        const auto name = QString::fromStdString(example.name);
        auto* a = examples->addAction(name, this, [this, name] {
            if (maybeSave()) openExample(name);
        });
        a->setToolTip(QString::fromStdString(example.description));
        described.append({name, QString::fromStdString(example.description)});
    }
    if (examples->isEmpty()) {
        // A broken install: say where they belong instead of an empty menu.
        examples->addAction(tr("No examples installed (share/nvvm-playground/examples)"))->setEnabled(false);
    }
    file->addAction(tr("&Import from numba…"), this, [this] { importFromNumba(); })->setObjectName("importNumbaAction");
    startPage_->setExamples(described);
    startPage_->setCourse(int(lesson::listLessons().size()));
    lessonsMenu_ = file->addMenu(tr("&Lessons"));
    lessonsMenu_->setObjectName("lessonsMenu");
    rebuildLessonsMenu();
    file->addSeparator();
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
    auto* saveAsAction = file->addAction(tr("Save &As…"), this, [this] { saveAsDialog(); });
    // The platform's Save As key where it has one (only GNOME and macOS do), and Ctrl+Shift+S.
    QList<QKeySequence> saveAsKeys = QKeySequence::keyBindings(QKeySequence::SaveAs);
    if (!saveAsKeys.contains(QKeySequence(tr("Ctrl+Shift+S")))) saveAsKeys << QKeySequence(tr("Ctrl+Shift+S"));
    saveAsAction->setShortcuts(saveAsKeys);
    file->addSeparator();
    auto* exports = file->addMenu(tr("E&xport"));
    exports->addAction(tr("PTX…"), output_, &OutputView::exportPtx);
    exports->addAction(tr("LTO-IR…"), output_, &OutputView::exportLtoIr);
    exports->addAction(tr("Linked PTX…"), output_, &OutputView::exportLinkedPtx);
    exports->addAction(tr("Cubin…"), output_, &OutputView::exportCubin);
    exports->addAction(tr("SASS…"), output_, &OutputView::exportSass);
    exports->addSeparator();
    // The program itself, as code to take away: a folder of its own (the code, modules/, inputs/).
    const auto exportCodeTo = [this](exporting::Target target, const QString& what) {
        const auto suffix = target == exporting::Target::CudaCore ? QString("-cuda-core") : QString("-c");
        const auto dir =
            QFileDialog::getSaveFileName(this, tr("Export as %1: the folder to write").arg(what), proposedPath(suffix),
                                         {}, nullptr, QFileDialog::ShowDirsOnly | QFileDialog::DontConfirmOverwrite);
        if (!dir.isEmpty()) exportCode(target, dir);
    };
    exports
        ->addAction(tr("As cuda.core &script…"), this,
                    [=] { exportCodeTo(exporting::Target::CudaCore, tr("cuda.core script")); })
        ->setObjectName("exportCudaCoreAction");
    exports->addAction(tr("As &C program…"), this, [=] { exportCodeTo(exporting::Target::C, tr("C program")); })
        ->setObjectName("exportCAction");
    file->addSeparator();
    file->addAction(tr("Se&ttings…"), this, [this] {
        SettingsDialog dialog(this);
        if (dialog.exec() != QDialog::Accepted) return;
        loadToolkit();
        if (auto* threads = dynamic_cast<SupervisedEngine*>(engine_.get()))
            threads->setEngineSettings(engineSettings());
        engine_->setToolkit(toolkit_, toolkit_ ? QString() : libsErrorForStatus_);
        controller_->setOutputs(outputsFor(toolkit_.get()));
        compare_->setOutputs(outputsFor(toolkit_.get()) & ~unsigned(pipeline::kCubin));
        compare_->setAppToolkit(toolkit_, engineSettings());
        output_->setSassUnavailableReason(sassMissing(toolkit_.get()));
        buildStatusBar();
        if (!toolkit_) queryGpu();  // else once the probe answered
        applyZoom();
        controller_->compileNow();
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    // On the pane that has focus. In an editor Scintilla handles these keys itself; the menu
    // entries are for the mouse and for the read-only output panes.
    const auto onPane = [this](void (QsciScintilla::*f)()) {
        return [this, f] {
            if (auto* pane = focusedPane()) (pane->*f)();
        };
    };
    // A fix that is the last change is undone whole first (its text and its options).
    edit->addAction(tr("&Undo"), QKeySequence::Undo, this, [this, paneUndo = onPane(&QsciScintilla::undo)] {
        if (!fixes_->undoLast()) paneUndo();
    });
    edit->addAction(tr("&Redo"), QKeySequence::Redo, this, onPane(&QsciScintilla::redo));
    edit->addSeparator();
    edit->addAction(tr("Cu&t"), QKeySequence::Cut, this, onPane(&QsciScintilla::cut));
    edit->addAction(tr("&Copy"), QKeySequence::Copy, this, onPane(&QsciScintilla::copy));
    edit->addAction(tr("&Paste"), QKeySequence::Paste, this, onPane(&QsciScintilla::paste));
    edit->addSeparator();
    edit->addAction(tr("&Find…"), QKeySequence::Find, this, [this] {
        attachFindBar(focusedPane());
        findBar_->showFind();
    });
    edit->addAction(tr("R&eplace…"), QKeySequence(tr("Ctrl+H")), this, [this] {
        attachFindBar(focusedPane());
        findBar_->showReplace();
    });
    edit->addAction(tr("&Go to Line…"), QKeySequence(tr("Ctrl+L")), this, [this] {
        auto* pane = focusedPane();
        if (!pane) return;
        int line = 0, index = 0;
        pane->getCursorPosition(&line, &index);
        bool ok = false;
        const int last = std::max(1, pane->lines());
        const int to =
            QInputDialog::getInt(this, tr("Go to Line"), tr("Line (1–%1):").arg(last), line + 1, 1, last, 1, &ok);
        if (!ok) return;
        pane->setCursorPosition(to - 1, 0);
        pane->ensureLineVisible(to - 1);
        pane->setFocus();
    });
    edit->addAction(tr("Toggle Co&mment"), QKeySequence(tr("Ctrl+/")), this, [this] {
        if (auto* e = qobject_cast<ModuleEditor*>(focusedPane())) e->toggleComment();
    });

    auto* module = menuBar()->addMenu(tr("&Module"));
    module->addAction(tr("&New Module"), QKeySequence(tr("Ctrl+Shift+N")), this, &MainWindow::addTemplateModule);
    module->addAction(tr("&Add Module Files…"), this, [this] {
        addModuleFiles(
            QFileDialog::getOpenFileNames(this, tr("Add modules"), {}, tr("NVVM IR (*.ll *.bc);;All files (*)")));
    });
    moduleActions_ << module->addAction(tr("&Rename…"), this, [this] {
        const int i = editors_->currentModule();
        if (i < 0) return;
        bool ok = false;
        const auto name =
            QInputDialog::getText(this, tr("Rename module"), tr("Name (libNVVM reports errors by it):"),
                                  QLineEdit::Normal, QString::fromStdString(document_->module(i).name), &ok);
        QString error;
        if (ok && !editors_->renameModule(i, name, &error)) showError(tr("Rename module"), error);
    });
    moduleActions_ << module->addAction(tr("Re&move"), this, [this] {
        const int i = editors_->currentModule();
        if (i < 0) return;
        const auto name = QString::fromStdString(document_->module(i).name);
        if (QMessageBox::question(this, tr("Remove module"), tr("Remove %1 from the workspace?").arg(name)) ==
            QMessageBox::Yes)
            editors_->removeModule(i);
    });
    moduleActions_ << module->addAction(tr("Move &Up"), QKeySequence(tr("Ctrl+Shift+Up")), this,
                                        [this] { editors_->moveModule(editors_->currentModule(), -1); });
    moduleActions_ << module->addAction(tr("Move &Down"), QKeySequence(tr("Ctrl+Shift+Down")), this,
                                        [this] { editors_->moveModule(editors_->currentModule(), +1); });
    convertAction_ =
        module->addAction(tr("&Convert to Text"), this, [this] { convertToText(editors_->currentModule()); });
    convertAction_->setToolTip(
        tr("Replace a bitcode module by its llvm-dis-14 disassembly, as an editable .ll module"));
    lazyAction_ = module->addAction(tr("&Lazy (load only what other modules use)"));
    lazyAction_->setCheckable(true);
    connect(lazyAction_, &QAction::triggered, this,
            [this](bool on) { editors_->setLazy(editors_->currentModule(), on); });
    moduleActions_ << lazyAction_;
    module->addSeparator();
    splitAction_ = module->addAction(tr("&Split View"), QKeySequence(tr("Ctrl+\\")));
    splitAction_->setCheckable(true);
    connect(splitAction_, &QAction::triggered, this, [this](bool on) {
        editors_->setSplit(on);
        splitAction_->setChecked(editors_->isSplit());
    });

    auto* build = menuBar()->addMenu(tr("&Build"));
    auto* compile =
        build->addAction(tr("&Compile"), QKeySequence(tr("Ctrl+B")), controller_, &CompileController::compileNow);
    auto* verify = build->addAction(tr("&Verify"), controller_, &CompileController::verifyNow);
    verify->setObjectName("verifyAction");
    verify->setStatusTip(tr("Run libNVVM's verifier alone; the outputs stay as they are"));
    autoAction_ = build->addAction(tr("&Auto-compile after edits"));
    autoAction_->setCheckable(true);
    autoAction_->setChecked(QSettings().value("build/auto", true).toBool());
    controller_->setAutoCompile(autoAction_->isChecked());
    connect(autoAction_, &QAction::toggled, this, [this](bool on) {
        controller_->setAutoCompile(on);
        QSettings().setValue("build/auto", on);
    });
    auto* cancel =
        build->addAction(tr("Ca&ncel"), QKeySequence(Qt::Key_Escape), controller_, &CompileController::cancel);
    build->addSeparator();
    auto* pin = build->addAction(tr("&Pin Result…"), QKeySequence(tr("Ctrl+Shift+P")), this, [this] {
        bool ok = false;
        const auto name = QInputDialog::getText(this, tr("Pin Result"),
                                                tr("Keep the result shown now in the workspace, to compare later "
                                                   "compiles with. Name:"),
                                                QLineEdit::Normal, compare_->defaultPinName(), &ok);
        if (ok) pinResult(name);
    });
    pin->setObjectName("pinAction");
    build->addAction(tr("Add Varian&t…"), compare_, [this] {
        compareDock_->show();
        compareDock_->raise();
        compare_->addVariant();
    });
    build->addSeparator();
    build->addAction(runs_->runAction());
    build->addSeparator();
    auto* checkStep = build->addAction(tr("Check &Lesson Step"), lesson_, &LessonPanel::check);
    checkStep->setObjectName("checkLessonAction");
    checkStep->setShortcuts({QKeySequence(tr("Ctrl+Return")), QKeySequence(tr("Ctrl+Enter"))});
    checkStep->setStatusTip(tr("Compile and run the open lesson's checks for this step"));
    checkStep->setEnabled(false);
    connect(lesson_, &LessonPanel::lessonChanged, checkStep, &QAction::setEnabled);

    auto* view = menuBar()->addMenu(tr("&View"));
    for (auto* dock : findChildren<QDockWidget*>()) {
        view->addAction(dock->toggleViewAction());
        // Shown from the View menu a dock comes to the front of the tabs it shares: shown behind
        // Problems, asking for Compare or Control Flow would seem to do nothing.
        connect(dock->toggleViewAction(), &QAction::triggered, dock, [dock](bool on) {
            if (on) dock->raise();
        });
    }
    auto* diff = view->addAction(tr("&Diff of PTX and LTO"));
    diff->setCheckable(true);
    connect(diff, &QAction::toggled, output_, &OutputView::setDiffMode);
    connect(output_, &OutputView::diffModeChanged, diff, &QAction::setChecked);  // its own button too
    // The twin compile costs a second compile's time; people who do not look at it turn it off.
    lineMapAction_ = view->addAction(tr("&Line map"));
    lineMapAction_->setCheckable(true);
    lineMapAction_->setStatusTip(tr("Colour each IR line and the PTX, LTO and SASS lines it became"));
    lineMapAction_->setChecked(QSettings().value("view/lineMap", true).toBool());
    controller_->setLineMap(lineMapAction_->isChecked());
    links_->setEnabled(lineMapAction_->isChecked());
    connect(lineMapAction_, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue("view/lineMap", on);
        controller_->setLineMap(on);
        links_->setEnabled(on);
        if (on && !document_->workspace().modules.empty()) controller_->settingsEdited();
    });
    // Kernel names are shown demangled and cut to fit (SymbolNames); this shows the symbols.
    auto* rawNames = view->addAction(tr("Ra&w Symbol Names"));
    rawNames->setObjectName(QStringLiteral("rawSymbolNames"));
    rawNames->setCheckable(true);
    rawNames->setChecked(SymbolNames::instance()->raw());
    rawNames->setStatusTip(tr("Show kernel and function names as the PTX spells them, not demangled"));
    connect(rawNames, &QAction::toggled, SymbolNames::instance(), &SymbolNames::setRaw);
    view->addAction(output_->sassRawAction());  // the SASS pane's toggle, also beside its tab
    view->addSeparator();
    // One zoom for every editor and output pane, for a projector (File > Settings sets the base).
    auto* zoomIn = view->addAction(tr("Zoom &In"), this, [this] {
        ++zoom_;
        applyZoom();
    });
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(tr("Ctrl+="))});
    view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, this, [this] {
        --zoom_;
        applyZoom();
    });
    view->addAction(tr("&Reset Zoom"), QKeySequence(tr("Ctrl+0")), this, [this] {
        zoom_ = 0;
        applyZoom();
    });
    view->addSeparator();
    // F11: the key of full screen in browsers and editors, which presenter mode is.
    presenterAction_ =
        view->addAction(tr("&Presenter"), QKeySequence(Qt::Key_F11), this, &MainWindow::setPresenterMode);
    presenterAction_->setObjectName("presenterAction");
    presenterAction_->setCheckable(true);
    presenterAction_->setStatusTip(tr("For a projector: the IR and one output full screen, docks hidden, larger text"));
    auto* presenterOutputs = view->addMenu(tr("Presenter O&utput"));
    auto* presenterGroup = new QActionGroup(this);
    for (const auto& [output, text] :
         std::vector<std::pair<inspect::MappedOutput, QString>>{{inspect::MappedOutput::Ptx, tr("&PTX")},
                                                                {inspect::MappedOutput::LtoPtx, tr("&LTO PTX")},
                                                                {inspect::MappedOutput::Sass, tr("&SASS")}}) {
        auto* a = presenterOutputs->addAction(text, this, [this, output = output] { setPresenterOutput(output); });
        a->setCheckable(true);
        a->setActionGroup(presenterGroup);
        presenterOutputActions_ << a;
    }

    auto* help = menuBar()->addMenu(tr("&Help"));
    const auto link = [this, help](const QString& text, const QUrl& url) {
        auto* a = help->addAction(text, this, [url] { QDesktopServices::openUrl(url); });
        a->setData(url);
        a->setToolTip(url.toString());
        return a;
    };
    // The documentation's pages, shown inside the app.
    help::addGuideEntries(help, this);
    help->addSeparator();
    link(tr("PTX ISA"), QUrl("https://docs.nvidia.com/cuda/parallel-thread-execution/"));
    link(tr("NVVM IR Specification"), QUrl("https://docs.nvidia.com/cuda/nvvm-ir-spec/"));
    link(tr("libdevice User's Guide"), QUrl("https://docs.nvidia.com/cuda/libdevice-users-guide/"));
    help->addSeparator();
    help->addAction(tr("&About NVVM Playground"), this, [this] {
        QMessageBox::about(this, tr("About NVVM Playground"),
                           tr("<b>NVVM Playground</b> %1<br>An IR playground for NVIDIA's libNVVM: edit NVVM IR "
                              "modules, see their PTX and LTO result side by side.")
                               .arg(NVPG_VERSION));
    });

    auto* bar = addToolBar(tr("Build"));
    bar->setObjectName("buildToolBar");
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(compile);
    bar->addAction(cancel);
    bar->addAction(autoAction_);
    bar->addAction(splitAction_);
    bar->addSeparator();
    bar->addAction(runs_->runAction());
    updateModuleActions();
}

void MainWindow::showHistory() {
    if (!historyDialog_) {
        historyDialog_ = new HistoryDialog(&controller_->history(), this);
        historyDialog_->setOnCompare([this](uint64_t id) {
            compare_->setSides(ComparePanel::historySide(id), QString::fromLatin1(ComparePanel::kCurrent));
            compareDock_->show();
            compareDock_->raise();
        });
    }
    historyDialog_->refresh();
    historyDialog_->show();
    historyDialog_->raise();
}

void MainWindow::buildStatusBar() {
    if (!busyLabel_) {
        busyLabel_ = new QLabel(this);
        busyLabel_->setObjectName("compileStatus");
        cancelButton_ = new QToolButton(this);
        cancelButton_->setText(tr("Cancel"));
        cancelButton_->hide();
        connect(cancelButton_, &QToolButton::clicked, controller_, &CompileController::cancel);
        libsLabel_ = new QLabel(this);
        libsLabel_->setObjectName("libsStatus");
        gpuLabel_ = new QLabel(this);
        gpuLabel_->setObjectName("gpuStatus");
        statusBar()->addWidget(busyLabel_);
        statusBar()->addWidget(cancelButton_);
        // The session's compiles: the timeline, and any of them against the current one.
        historyButton_ = new QToolButton(this);
        historyButton_->setObjectName("historyButton");
        historyButton_->setAutoRaise(true);
        historyButton_->setText(tr("History"));
        historyButton_->setToolTip(
            tr("This session's compiles: when, why (the edit or option that caused each), "
               "and their figures; compare any of them with the current compile."));
        connect(historyButton_, &QToolButton::clicked, this, &MainWindow::showHistory);
        connect(controller_, &CompileController::historyChanged, historyButton_, [this] {
            const auto& entries = controller_->history().entries();
            historyButton_->setText(entries.empty() ? tr("History") : tr("History (%1)").arg(entries.front().id));
            if (historyDialog_ && historyDialog_->isVisible()) historyDialog_->refresh();
        });
        statusBar()->addPermanentWidget(historyButton_);
        statusBar()->addPermanentWidget(libsLabel_);
        statusBar()->addPermanentWidget(gpuLabel_);
        busyTicker_ = new QTimer(this);
        busyTicker_->setInterval(100);
        // The engine's current stage as it says it, and the time so far.
        auto showProgress = [this] {
            const auto seconds = controller_->elapsedSeconds();
            const auto stage = controller_->stage();
            busyLabel_->setText(stage.isEmpty() ? tr("Compiling… %1 s").arg(seconds, 0, 'f', 1)
                                                : tr("Compiling… %1 (%2 s)").arg(stage).arg(seconds, 0, 'f', 1));
        };
        connect(busyTicker_, &QTimer::timeout, this, showProgress);
        connect(controller_, &CompileController::stageChanged, this, showProgress);
        connect(controller_, &CompileController::busyChanged, this, [this](bool busy) {
            cancelButton_->setVisible(busy);
            if (busy) {
                busyLabel_->setText(tr("Compiling…"));
                busyTicker_->start();
            } else {
                busyTicker_->stop();
            }
        });
        connect(controller_, &CompileController::cancelled, this, [this] {
            busyLabel_->setText(tr("Cancelled"));
            output_->markStale(tr("stale: from before the cancelled compile"));
        });
    }
    if (!toolkit_) {
        // Not found, or found and unusable (the probe's words: crashed, exited, hung as it loaded).
        libsLabel_->setText(libsErrorForStatus_.startsWith("libNVVM (libnvvm.so.4) not found")
                                ? tr("libNVVM not found — File ▸ Settings… to point at a CUDA toolkit")
                                : tr("libNVVM unusable — File ▸ Settings… to point at a working CUDA toolkit"));
        libsLabel_->setToolTip(libsErrorForStatus_);
        libsLabel_->setStyleSheet("color: #b00020;");
        return;
    }
    if (!toolkitProbed_) {
        // Its versions come from the probe's engine (probeToolkit); reports() would open them here.
        libsLabel_->setText(tr("libNVVM: loading…"));
        libsLabel_->setToolTip(QString::fromStdString(toolkit_->nvvmReport().path.string()));
        libsLabel_->setStyleSheet({});
        return;
    }
    QStringList parts, tips;
    for (const auto& r : toolkit_->reports()) {
        if (r.name == "CUDA driver") continue;
        parts << (r.found ? QStringLiteral("%1 %2").arg(
                                QString::fromStdString(r.name),
                                r.name == "libdevice" ? "✓" : QString::fromStdString(r.version).section(' ', 0, 0))
                          : QStringLiteral("%1 missing").arg(QString::fromStdString(r.name)));
        tips << (r.found
                     ? QStringLiteral("%1: %2 (%3) %4")
                           .arg(QString::fromStdString(r.name), QString::fromStdString(r.path.string()),
                                QString::fromStdString(r.via), QString::fromStdString(r.version))
                     : QStringLiteral("%1: %2").arg(QString::fromStdString(r.name), QString::fromStdString(r.problem)));
    }
    libsLabel_->setText(parts.join(" · "));
    libsLabel_->setToolTip(tips.join("\n"));
    libsLabel_->setStyleSheet({});
}

void MainWindow::queryGpu() {
    gpuLabel_->setText(tr("GPU: looking…"));
    if (!toolkit_) {
        gpuLabel_->setText(tr("no GPU"));
        placeRunsDock(false);
        return;
    }
    // cuInit can take a while: ask off the UI thread.
    QPointer<MainWindow> self(this);
    auto tk = toolkit_;
    std::thread([self, tk] {
        auto devices = gpu::listDevices(*tk);
        QString label, tip, archLabel;
        if (devices && !devices->empty()) {
            const auto& d = devices->front();
            label = QString::fromStdString(d.name);
            tip = tr("compute capability %1.%2, %3 GiB")
                      .arg(d.ccMajor)
                      .arg(d.ccMinor)
                      .arg(d.totalMemory / double(1 << 30), 0, 'f', 1);
            if (auto a = nvvm::archForComputeCapability(d.ccMajor, d.ccMinor, tk->cudaMajor()))
                archLabel = tr("default: %1 (the local GPU's)").arg(QString::fromStdString(*a));
        } else {
            label = tr("no GPU");
            tip = QString::fromStdString(devices ? std::string("the driver sees no GPU") : devices.error().message);
        }
        const bool gpu = devices && !devices->empty();
        QMetaObject::invokeMethod(qApp, [self, tk, label, tip, archLabel, gpu] {
            if (!self) return;
            self->placeRunsDock(gpu);
            self->analysis_->setGpuAvailable(gpu);
            self->gpuLabel_->setText(label);
            self->gpuLabel_->setToolTip(tip);
            if (!archLabel.isEmpty())
                self->options_->setArchs(nvvm::supportedArchs(tk->cudaMajor()), tk->cudaMajor(), archLabel);
        });
    }).detach();
}

void MainWindow::placeRunsDock(bool gpu) {
    // Once, and only where no layout was saved: after that the docks stay where the user put them.
    if (!firstLayout_) return;
    firstLayout_ = false;
    if (!gpu) return;  // Problems in front, the docks small
    runsDock_->raise();
    resizeDocks({runsDock_}, {kRunsDockHeight}, Qt::Vertical);
}

void MainWindow::updateTitle() {
    // The app's name once, at the end: a platform that adds the display name itself sees it is
    // there already, and tools that read the plain X11 WM_NAME (which Qt leaves unadorned) see it.
    setWindowTitle(tr("%1[*] — %2").arg(document_->displayName(), QGuiApplication::applicationDisplayName()));
    setWindowModified(document_->isModified());
}

void MainWindow::updateModuleActions() {
    const int i = editors_->currentModule();
    for (auto* a : moduleActions_) a->setEnabled(i >= 0);
    if (i >= 0) {
        const QSignalBlocker block(lazyAction_);
        lazyAction_->setChecked(document_->module(i).lazy);
    }
    if (convertAction_) convertAction_->setEnabled(i >= 0 && document_->module(i).isBitcode());
    if (splitAction_) {
        splitAction_->setEnabled(document_->moduleCount() >= 2);
        splitAction_->setChecked(editors_->isSplit());
    }
}

bool MainWindow::showDiagnostics(const EngineReply& reply, const QString& notDone, int& errors, int& warnings) {
    const quint64 turn = ++diagnosticsTurn_;
    if (!reply.result) {
        problems_->setError(reply.error);
        editors_->setDiagnostics(nvvm::SharedDiagnostics{});
        busyLabel_->setText(notDone.arg(reply.error.section('\n', 0, 0)));
        return false;
    }
    // Shared with the reply: the views keep pointers into it, nothing is copied.
    const nvvm::SharedDiagnostics diagnostics(reply.result, &reply.result->diagnostics);
    problems_->setDiagnostics(diagnostics);
    // Many problems (a hint per kernel of a large module) mark the editors in the next turn of the
    // event loop: the rows and the marks together held the window too long.
    if (diagnostics->size() <= kRowsPerTurn) {
        editors_->setDiagnostics(diagnostics);
    } else {
        runInLaterTurn(this, [this, turn, diagnostics] {
            if (turn == diagnosticsTurn_) editors_->setDiagnostics(diagnostics);  // else newer ones came
        });
    }
    for (const auto& d : *diagnostics) (d.severity == nvvm::Severity::Error ? errors : warnings)++;
    return true;
}

void MainWindow::showReply(const EngineReply& reply) {
    lastReply_ = reply;
    output_->showReply(reply);
    links_->resultShown(controller_->mapping());
    runs_->setCompiled(reply);
    int errors = 0, warnings = 0;
    if (!showDiagnostics(reply, tr("Not compiled: %1"), errors, warnings)) return;
    const auto& r = *reply.result;
    // A failed compile brings Problems forward (from behind Runs, or closed); warnings alone do
    // not. A dock behind another's tab still counts as visible: what shows is its region.
    if (errors > 0 && (!problemsDock_->isVisible() || problemsDock_->visibleRegion().isEmpty())) {
        problemsDock_->show();
        problemsDock_->raise();
    }
    busyLabel_->setText(r.ok ? tr("Compiled in %1 s%2")
                                   .arg(r.seconds, 0, 'f', 2)
                                   .arg(warnings ? tr(", %n warning(s)", "", warnings) : QString())
                             : tr("%n error(s)", "", errors));
}

// The PTX part: its pane and libNVVM's problems now; the LTO panes say theirs is coming.
void MainWindow::showPtx(const EngineReply& reply) {
    output_->showPtx(reply);
    links_->resultShown(controller_->lineMap());  // the old map is of the old PTX
    int errors = 0, warnings = 0;
    showDiagnostics(reply, tr("Not compiled: %1"), errors, warnings);
}

// A verify leaves the outputs and the Runs dock alone: it made nothing to show there.
void MainWindow::showVerified(const EngineReply& reply) {
    int errors = 0, warnings = 0;
    if (!showDiagnostics(reply, tr("Not verified: %1"), errors, warnings)) return;
    const auto& r = *reply.result;
    if (!r.ok || errors)
        busyLabel_->setText(tr("Verify: %n error(s)", "", std::max(errors, 1)));
    else
        busyLabel_->setText(warnings ? tr("Verified: %n warning(s)", "", warnings) : tr("Verified: no problems"));
}

bool MainWindow::maybeSave() {
    if (!document_->isModified()) return true;
    QMessageBox::StandardButton answer;
    if (ask_) {
        answer = ask_();
    } else {
        answer =
            QMessageBox::warning(this, tr("Unsaved changes"),
                                 tr("%1 has changes that are not saved. Save them?").arg(document_->displayName()),
                                 QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    }
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::newWorkspace() {
    opening_ = true;
    workspace::Workspace ws;
    ws.name = "untitled";
    document_->reset(std::move(ws), {});
    opening_ = false;
    output_->clear();
    links_->resultShown(false);
    problems_->clear();
    ++diagnosticsTurn_;  // marks still to come were of the workspace before
    libdevice_->clear();
    analysis_->clear();
    cfg_->clear();
    busyLabel_->clear();  // the last "Compiled in" was another workspace's
    updateTitle();
    updateStartPage();
}

void MainWindow::updateStartPage() {
    startPage_->setVisible(document_->moduleCount() == 0);
    startPage_->raise();
}

void MainWindow::addTemplateModule() {
    editors_->flush();
    const QString name = document_->uniqueName("module.ll");
    const auto t = workspace::newModuleTemplate(name.toStdString(), document_->workspace().modules,
                                                toolkit_ ? nvvm::irVersionOf(*toolkit_) : nvvm::IrVersion{});
    // Its run configuration comes with it, so Run works at once.
    auto runs = document_->workspace().runs;
    workspace::putRun(runs, t.run);
    document_->setRuns(std::move(runs));
    editors_->addModule(t.module.name, t.module.bytes, false);
}

void MainWindow::convertToText(int module) {
    if (module < 0 || module >= document_->moduleCount() || !document_->module(module).isBitcode()) return;
    const auto name = QString::fromStdString(document_->module(module).name);
    if (QMessageBox::question(this, tr("Convert to text"),
                              tr("Replace the bitcode of %1 by its llvm-dis-14 disassembly? It becomes an editable "
                                 "text module (.ll). This cannot be undone: the bitcode is kept only in a saved "
                                 "workspace file.%2")
                                  .arg(name, document_->module(module).lazy
                                                 ? tr(" It is loaded lazily now; libNVVM loads only bitcode so, "
                                                      "so the text module will be added whole.")
                                                 : QString())) != QMessageBox::Yes)
        return;
    QString error;
    if (!editors_->convertToText(module, &error)) showError(tr("Convert to text"), error);
}

void MainWindow::afterOpen() {
    opening_ = false;
    updateTitle();
    updateModuleActions();
    output_->clear();
    links_->resultShown(false);
    problems_->clear();
    ++diagnosticsTurn_;  // marks still to come were of the workspace before
    libdevice_->clear();
    cfg_->clear();
    controller_->compileNow();
}

template <class T>
T MainWindow::awaitWorker(const QString& what, std::function<T()> work) {
    std::promise<T> promise;
    auto future = promise.get_future();
    QEventLoop loop;
    std::thread worker([&] {
        promise.set_value(work());
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
    });
    // A small file is done before anyone could see a message flash by.
    if (future.wait_for(std::chrono::milliseconds(30)) != std::future_status::ready) {
        fileTask_ = what;
        QList<QWidget*> parts{menuBar(), centralWidget()};
        for (auto* dock : findChildren<QDockWidget*>()) parts << dock;
        for (auto* bar : findChildren<QToolBar*>()) parts << bar;
        for (auto* part : parts) part->setEnabled(false);
        QElapsedTimer clock;
        clock.start();
        QTimer ticker;
        ticker.setInterval(100);
        const auto show = [&] {
            statusBar()->showMessage(tr("%1… %2 s").arg(what).arg(clock.elapsed() / 1000.0, 0, 'f', 1));
        };
        connect(&ticker, &QTimer::timeout, this, show);
        show();
        ticker.start();
        loop.exec();
        ticker.stop();
        statusBar()->clearMessage();
        for (auto* part : parts) part->setEnabled(true);
        fileTask_.clear();
    }
    worker.join();
    return future.get();
}

bool MainWindow::busyWithFile() {
    if (fileTask_.isEmpty()) return false;
    statusBar()->showMessage(tr("Wait: %1…").arg(fileTask_), 5000);
    return true;
}

bool MainWindow::openWorkspace(const QString& path) {
    if (busyWithFile()) return false;
    const QFileInfo info(path);
    const auto absolute = info.absoluteFilePath();
    // Read and parsed off the UI thread: a large workspace (thousands of modules) or a slow disk
    // would otherwise freeze the window.
    auto read = awaitWorker<support::Result<WorkspaceDocument::Read>>(
        tr("Opening %1 (%2)").arg(info.fileName(), QLocale().formattedDataSize(info.size())),
        [absolute] { return WorkspaceDocument::read(absolute); });
    if (!read) {
        showError(tr("Open workspace"), QString::fromStdString(read.error().message));
        return false;
    }
    opening_ = true;
    document_->reset(std::move(read->workspace), absolute, read->diskHash);
    addRecent(absolute);
    noteLibdeviceRule(statusBar(), document_->workspace());
    afterOpen();
    return true;
}

QStringList MainWindow::exampleNames() {
    QStringList names;
    for (const auto& example : workspace::listExamples()) names << QString::fromStdString(example.name);
    return names;
}

bool MainWindow::openExample(const QString& name) {
    const auto example = workspace::findExample(name.toStdString());
    if (!example) {
        const auto dir = workspace::examplesDir();
        showError(tr("Open example"),
                  dir.empty()
                      ? tr("The examples are not installed: share/nvvm-playground/examples is missing beside "
                           "the app's folder. Reinstall the package.")
                      : tr("There is no example called %1 in %2.").arg(name, QString::fromStdString(dir.string())));
        return false;
    }
    auto ws = workspace::loadWorkspace(example->path);
    if (!ws) {
        showError(tr("Open example"), QString::fromStdString(ws.error().message));
        return false;
    }
    opening_ = true;
    document_->reset(std::move(*ws), {});  // no path: saving asks where, the example stays pristine
    afterOpen();
    return true;
}

void MainWindow::importFromNumba() {
    if (busyWithFile()) return;
    NumbaImportDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted) return;
    importNumba(dialog.request());
}

bool MainWindow::importNumba(interop::NumbaImportRequest request) {
    if (busyWithFile() || !maybeSave()) return false;
    const auto output = QString::fromStdString(request.output.string());
    if (QFileInfo::exists(output) &&
        QMessageBox::question(this, tr("Import from numba"), tr("%1 exists. Replace it?").arg(output)) !=
            QMessageBox::Yes)
        return false;
    std::atomic<bool> cancel{false};
    std::optional<support::Result<interop::NumbaImport>> result;
    QEventLoop loop;
    QProgressDialog progress(
        tr("Running numba-cuda: %1 for %2…")
            .arg(QString::fromStdString(request.function), QString::fromStdString(request.signature)),
        tr("Cancel"), 0, 0, this);
    progress.setObjectName("numbaImportProgress");
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    progress.setAutoClose(false);
    progress.setAutoReset(false);
    const auto cancelled = connect(&progress, &QProgressDialog::canceled, &progress, [&] { cancel = true; });
    fileTask_ = tr("Importing from numba");
    // The worker owns the Python process (support::runProbe: its own process group, killed on
    // cancel or timeout and reaped before the worker returns), so nothing outlives this call.
    std::thread worker([&, tk = toolkit_] {
        if (request.arch.empty()) request.arch = interop::numbaDefaultArch(tk.get(), /*askDriver=*/false).arch;
        result = interop::importNumba(request, &cancel);
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
    });
    progress.show();
    loop.exec();
    worker.join();
    disconnect(cancelled);  // closing the dialog says canceled() too
    progress.close();
    fileTask_.clear();
    if (!*result) {
        if (!cancel)
            showError(tr("Import from numba"), QString::fromStdString((*result).error().message));
        else
            statusBar()->showMessage(tr("Import from numba cancelled"), 5000);
        return false;
    }
    for (const auto& w : (*result)->warnings) statusBar()->showMessage(QString::fromStdString(w), 15000);
    return openWorkspace(QString::fromStdString((*result)->written.string()));
}

bool MainWindow::exportCode(exporting::Target target, const QString& dir) {
    const auto title =
        target == exporting::Target::CudaCore ? tr("Export as cuda.core script") : tr("Export as C program");
    editors_->flush();
    // The code gets the arch the compile used and is checked against its PTX: it must be the
    // compile of the workspace as it is now.
    const auto& r = lastReply_.result;
    if (controller_->busy() || !r || !r->ok || lastReply_.generation != controller_->newestGeneration() ||
        document_->workspace().modules.empty()) {
        showError(title, tr("Compile the workspace first (Build > Compile, Ctrl+B): the code is made from a "
                            "successful compile of the modules as they are, with the arch it used."));
        return false;
    }
    const auto& ws = document_->workspace();
    exporting::Input in;
    in.name = ws.name.empty() ? document_->displayName().toStdString() : ws.name;
    in.description = ws.description;
    in.modules = ws.modules;
    in.options = ws.options;
    in.options.arch = r->arch;
    in.libdevice = ws.libdevice;
    in.verify = ws.verify;
    in.ltoMode = ws.ltoMode;
    // What the app shows, the code makes: the LTO outputs too where nvJitLink made them.
    in.lto = !r->linkedPtx.empty();
    if (auto config = runs_->currentConfig(); !config.kernel.empty()) in.run = std::move(config);
    in.baseDir = runs_->baseDir();
    in.ptx = r->ptx;
    if (!document_->path().isEmpty()) in.sources.emplace_back(document_->path().toStdString());
    auto out = exporting::generate(target, in);
    if (!out) {
        showError(title, QString::fromStdString(out.error().message));
        return false;
    }
    const std::filesystem::path folder = dir.toStdString();
    if (auto st = exporting::checkInputsKept(*out, folder, "choose another folder"); !st) {
        showError(title, QString::fromStdString(st.error().message));
        return false;
    }
    if (const auto existing = exporting::existingFiles(*out, folder); !existing.empty()) {
        const auto answer = QMessageBox::question(
            this, title,
            tr("%1 holds %n of the files to write (%2). Replace them?", nullptr, int(existing.size()))
                .arg(dir, QString::fromStdString(existing.front().filename().string())));
        if (answer != QMessageBox::Yes) return false;
    }
    if (auto st = exporting::writeOutput(*out, folder, {true, {}, /*durable=*/false}, "choose another folder"); !st) {
        showError(title, QString::fromStdString(st.error().message));
        return false;
    }
    QString text = tr("Wrote %1 to %2.").arg(QString::fromStdString(out->entry), dir);
    text += "\n\n" + QString::fromStdString(out->howToRun);
    if (!out->warnings.empty()) {
        text += "\n\n" + tr("Not carried (cuda.core cannot express them; the script says so too):");
        for (const auto& w : out->warnings) text += "\n- " + QString::fromStdString(w);
    }
    statusBar()->showMessage(tr("Exported to %1").arg(dir), 10000);
    lastExportReport_ = text;
    if (!errorSink_) QMessageBox::information(this, title, text);
    return true;
}

bool MainWindow::openLesson(const QString& path) {
    const auto dir = lesson::lessonsDir();
    const QFileInfo info(path);
    const bool bundled =
        !dir.empty() && info.absolutePath() == QFileInfo(QString::fromStdString(dir.string())).absoluteFilePath();
    if (!bundled) {
        lesson_->setSourceFile({}, false);
        return openWorkspace(path);
    }
    auto ws = workspace::loadWorkspace(path.toStdString());
    if (!ws) {
        showError(tr("Open lesson"), QString::fromStdString(ws.error().message));
        return false;
    }
    opening_ = true;
    lesson_->setSourceFile(info.absoluteFilePath(), /*resume=*/true);
    document_->reset(std::move(*ws), {});  // no path: saving asks where, the course stays pristine
    afterOpen();
    return true;
}

void MainWindow::rebuildLessonsMenu() {
    if (!lessonsMenu_) return;
    lessonsMenu_->clear();
    const auto bundled = lesson::listLessons();
    for (const auto& l : bundled) {
        const auto path = QString::fromStdString(l.path.string());
        auto* a = lessonsMenu_->addAction(QString::fromStdString(l.path.stem().string() + "  " + l.title), this,
                                          [this, path] {
                                              if (maybeSave()) openLesson(path);
                                          });
        a->setToolTip(QString::fromStdString(l.summary));
    }
    if (bundled.empty())
        lessonsMenu_->addAction(tr("No lessons installed (share/nvvm-playground/lessons)"))->setEnabled(false);
    // Lessons a learner saved elsewhere and worked on: their progress names the file.
    QStringList recent;
    const QDir progress(LessonPanel::progressDir());
    for (const auto& fi : progress.entryInfoList({"*.json"}, QDir::Files, QDir::Time)) {
        QFile f(fi.absoluteFilePath());
        if (!f.open(QIODevice::ReadOnly)) continue;
        const auto j = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
        if (!j.is_object() || !j.contains("file") || !j["file"].is_string()) continue;
        const auto file = QString::fromStdString(j["file"].get<std::string>());
        if (file.isEmpty() || !QFileInfo(file).isFile() || recent.contains(file)) continue;
        bool isBundled = false;
        for (const auto& l : bundled)
            isBundled |= QFileInfo(file) == QFileInfo(QString::fromStdString(l.path.string()));
        if (!isBundled) recent << file;
        if (recent.size() == 5) break;
    }
    if (!recent.isEmpty()) {
        lessonsMenu_->addSeparator();
        for (const auto& file : recent)
            lessonsMenu_
                ->addAction(tr("Continue %1").arg(QFileInfo(file).fileName()), this,
                            [this, file] {
                                if (maybeSave()) openLesson(file);
                            })
                ->setToolTip(file);
    }
}

void MainWindow::addModuleFiles(const QStringList& paths) {
    if (paths.isEmpty() || busyWithFile()) return;
    QStringList problems;
    for (const auto& path : paths) {
        if (const auto why = notRegularFile(path); !why.isEmpty()) {
            problems << why;
            continue;
        }
        if (auto why = nvvm::moduleNameProblem(QFileInfo(path).fileName().toStdString())) {
            problems << tr("%1: %2; rename the file.")
                            .arg(QString::fromStdString(support::printable(path.toStdString())),
                                 QString::fromStdString(*why));
            continue;
        }
        auto bytes = awaitWorker<support::Result<std::string>>(
            tr("Reading %1 (%2)").arg(QFileInfo(path).fileName(), QLocale().formattedDataSize(QFileInfo(path).size())),
            [file = path.toStdString()] { return support::readFile(file); });
        if (!bytes) {
            problems << QString::fromStdString(bytes.error().message);
            continue;
        }
        const QFileInfo fi(path);
        if (fi.suffix() == "bc" && !nvvm::looksLikeBitcode(*bytes)) {
            problems << tr("%1 is named .bc but is not bitcode (no BC C0 DE magic); open it as .ll if it is text IR.")
                            .arg(path);
            continue;
        }
        editors_->addModule(fi.fileName().toStdString(), *bytes, false);
        moduleFiles_.insert(fi.fileName(), fi.absoluteFilePath());  // a save must not replace it
    }
    // Modules that call libdevice get it, unless the workspace or the user chose (core's rule).
    if (const auto calls = document_->applyLibdeviceRule(); !calls.empty())
        statusBar()->showMessage(QString::fromStdString(workspace::libdeviceRuleNote(calls)), 15000);
    if (!problems.isEmpty()) showError(tr("Add modules"), problems.join("\n"));
}

bool MainWindow::openPaths(const QStringList& paths) {
    QStringList workspaces, modules, others;
    for (const auto& p : paths) {
        const auto suffix = QFileInfo(p).suffix();
        if (suffix == "nvpg")
            workspaces << p;
        else if (suffix == "ll" || suffix == "bc")
            modules << p;
        else
            others << p;
    }
    if (!others.isEmpty())
        showError(tr("Open"), tr("Not an NVVM IR module (.ll, .bc) or a workspace (.nvpg): %1").arg(others.join(", ")));
    if (!workspaces.isEmpty()) {
        if (workspaces.size() > 1 || !modules.isEmpty())
            showError(tr("Open"), tr("Give one workspace, or .ll/.bc modules; opening %1.").arg(workspaces.first()));
        return openWorkspace(workspaces.first());
    }
    if (modules.isEmpty()) return false;
    opening_ = true;
    workspace::Workspace ws;
    ws.name = QFileInfo(modules.first()).completeBaseName().toStdString();
    document_->reset(std::move(ws), {});
    addModuleFiles(modules);
    afterOpen();
    return document_->moduleCount() > 0;
}

bool MainWindow::save() {
    if (document_->path().isEmpty()) return saveAsDialog();
    return saveAs(document_->path());
}

QString MainWindow::proposedPath(const QString& suffix) const {
    // Beside the workspace's file; a workspace without one (new, an example's copy, modules from
    // the command line) goes to the user's documents, never into the shipped examples.
    QString folder;
    if (!document_->path().isEmpty()) {
        folder = QFileInfo(document_->path()).absolutePath();
    } else {
        folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        if (folder.isEmpty() || !QFileInfo(folder).isDir()) folder = QDir::homePath();
    }
    const QString stem =
        document_->path().isEmpty() ? document_->displayName() : QFileInfo(document_->path()).completeBaseName();
    return QDir(folder).filePath(stem + suffix);
}

bool MainWindow::saveAsDialog() {
    const auto suggested = document_->path().isEmpty() ? proposedPath(".nvpg") : document_->path();
    const auto path =
        QFileDialog::getSaveFileName(this, tr("Save workspace"), suggested, tr("NVVM Playground workspaces (*.nvpg)"));
    return !path.isEmpty() && saveAs(path.endsWith(".nvpg") ? path : path + ".nvpg");
}

bool MainWindow::saveAs(const QString& path) {
    if (busyWithFile()) return false;
    editors_->flush();
    const auto absolute = QFileInfo(path).absoluteFilePath();
    // A FIFO would hold the save until a reader came, /dev/zero (through a link) would be read
    // back for the changed-on-disk check until memory ran out: neither is a workspace file.
    if (const auto why = notRegularFile(absolute); !why.isEmpty()) {
        showError(tr("Save workspace"),
                  tr("%1; the workspace is still open here, unsaved: save it elsewhere with Save As").arg(why));
        return false;
    }
    QStringList moduleFiles;
    for (auto i = moduleFiles_.cbegin(); i != moduleFiles_.cend(); ++i)
        if (document_->indexOf(i.key()) >= 0) moduleFiles << i.value();
    if (const auto why = inputReplacedBy(absolute, document_->workspace(), document_->path(), moduleFiles);
        !why.isEmpty()) {
        showError(tr("Save workspace"), why);
        return false;
    }
    const QString ownPath = document_->path();
    const QByteArray hash = document_->diskHash();
    if (absolute == ownPath &&
        awaitWorker<bool>(tr("Checking %1").arg(QFileInfo(absolute).fileName()),
                          [ownPath, hash] { return WorkspaceDocument::changedOnDisk(ownPath, hash); })) {
        const auto text = tr("%1 was changed on disk since you opened it (by another program or window). Overwrite "
                             "it with your version, or save yours elsewhere?")
                              .arg(document_->path());
        DiskConflict choice;
        if (askConflict_) {
            choice = askConflict_(text);
        } else {
            const int answer = askThreeWay(this, QMessageBox::Warning, tr("File changed on disk"), text,
                                           {{tr("Overwrite"), QMessageBox::DestructiveRole},
                                            {tr("Save As…"), QMessageBox::AcceptRole},
                                            {tr("Cancel"), QMessageBox::RejectRole}},
                                           1);
            choice = answer == 0   ? DiskConflict::Overwrite
                     : answer == 1 ? DiskConflict::SaveElsewhere
                                   : DiskConflict::Cancel;
        }
        if (choice == DiskConflict::Cancel) return false;
        if (choice == DiskConflict::SaveElsewhere) return saveAsDialog();
    }
    if (document_->workspace().name == "untitled") document_->setName(QFileInfo(path).completeBaseName());
    auto data = document_->bytesFor(absolute);
    if (!data) {
        showError(tr("Save workspace"), QString::fromStdString(data.error().message));
        return false;
    }
    const auto bytes = *data;
    if (auto st = awaitWorker<support::Status>(
            tr("Saving %1 (%2)").arg(QFileInfo(absolute).fileName(), QLocale().formattedDataSize(bytes.size())),
            [absolute, bytes] { return WorkspaceDocument::write(absolute, bytes); });
        !st) {
        showError(tr("Save workspace"), QString::fromStdString(st.error().message));
        return false;
    }
    document_->savedAs(absolute, bytes);
    addRecent(document_->path());
    updateTitle();
    return true;
}

void MainWindow::addRecent(const QString& path) {
    QSettings settings;
    auto recent = settings.value("recentFiles").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue("recentFiles", recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    if (!recentMenu_) return;
    recentMenu_->clear();
    const auto recent = QSettings().value("recentFiles").toStringList();
    startPage_->setRecent(recent);
    for (const auto& path : recent)
        recentMenu_->addAction(path, this, [this, path] {
            if (maybeSave()) openWorkspace(path);
        });
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::showError(const QString& title, const QString& message) {
    statusBar()->showMessage(title + ": " + message.section('\n', 0, 0), 10000);
    if (errorSink_)
        errorSink_(title, message);
    else
        QMessageBox::warning(this, title, message);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (busyWithFile()) {  // the worker writes into this window's document: let it finish
        event->ignore();
        return;
    }
    editors_->flush();
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    setPresenterMode(false);  // the layout to keep is the one before it
    QSettings settings;
    settings.setValue(geometryKey(screen()), saveGeometry());
    settings.setValue("window/state", saveState());
    journal_.reset();  // a clean end: nothing to offer back
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    for (const auto& url : event->mimeData()->urls()) {
        const auto suffix = QFileInfo(url.toLocalFile()).suffix();
        if (suffix == "nvpg" || suffix == "ll" || suffix == "bc") {
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList modules;
    for (const auto& url : event->mimeData()->urls()) {
        const auto path = url.toLocalFile();
        if (path.endsWith(".nvpg")) {
            if (maybeSave()) openWorkspace(path);
            return;
        }
        if (path.endsWith(".ll") || path.endsWith(".bc")) modules << path;
    }
    addModuleFiles(modules);  // dropped modules join the open workspace
    event->acceptProposedAction();
}

}  // namespace nvpg::gui
