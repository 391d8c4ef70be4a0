#include "gui/panels/RunPanel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "core/gpu/ArgSpec.h"
#include "core/nvvm/IrScan.h"
#include "core/pipeline/RunCheck.h"
#include "core/support/Text.h"
#include "core/workspace/Workspace.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/output/SymbolNames.h"
#include "gui/panels/BufferView.h"

namespace nvpg::gui {

namespace {

const QString kBadField = QStringLiteral("QLineEdit { background: #ffd6d6; }");
const QString kError = QStringLiteral("color: #b00020;");

QString dimText(const gpu::Dim3& d) {
    if (d.y == 1 && d.z == 1) return QString::number(d.x);
    if (d.z == 1) return QStringLiteral("%1,%2").arg(d.x).arg(d.y);
    return QStringLiteral("%1,%2,%3").arg(d.x).arg(d.y).arg(d.z);
}

QString specText(const gpu::ArgSpec& a) {
    return QString::fromStdString(a.text.empty() ? gpu::formatArgSpec(a) : a.text);
}

}  // namespace

RunPanel::RunPanel(Engine* engine, WorkspaceDocument* document, QWidget* parent)
    : QWidget(parent), engine_(engine), document_(document) {
    runAction_ = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run Kernel"), this);
    runAction_->setShortcut(QKeySequence(tr("Ctrl+R")));
    connect(runAction_, &QAction::triggered, this, &RunPanel::runNow);
    ticker_ = new QTimer(this);
    ticker_->setInterval(100);
    connect(ticker_, &QTimer::timeout, this, &RunPanel::updateRunState);
    buildUi();

    connect(engine_, &Engine::runReplied, this, &RunPanel::onRunReplied);
    connect(engine_, &Engine::gpuStatus, this, &RunPanel::setGpuStatus);
    connect(document_, &WorkspaceDocument::reloaded, this, &RunPanel::documentReloaded);
    QString why;
    const bool ok = engine_->gpuAvailable(&why);
    gpuOk_ = ok;
    gpuWhy_ = why;
    documentReloaded();
}

RunPanel::~RunPanel() = default;

void RunPanel::buildUi() {
    // Left: the configuration; middle: Run and the results; right: the history. (No scroll area
    // around the configuration: the wrapped message under the table would make it ask for its
    // preferred height rather than let the table shrink.)
    auto* config = new QWidget;
    auto* form = new QVBoxLayout(config);
    form->setContentsMargins(4, 4, 4, 4);
    form->setSpacing(4);

    auto* savedRow = new QHBoxLayout;
    saved_ = new QComboBox(config);
    saved_->setObjectName(QStringLiteral("savedConfigs"));
    saved_->setPlaceholderText(tr("saved configurations"));
    saved_->setToolTip(tr("The run configurations saved in this workspace"));
    saved_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    saved_->setMinimumContentsLength(10);
    name_ = new QLineEdit(config);
    name_->setObjectName(QStringLiteral("configName"));
    name_->setToolTip(tr("The name to save this configuration under (the kernel's when empty)"));
    save_ = new QPushButton(tr("Save"), config);
    save_->setObjectName(QStringLiteral("saveConfig"));
    delete_ = new QPushButton(tr("Delete"), config);
    delete_->setObjectName(QStringLiteral("deleteConfig"));
    delete_->setToolTip(tr("Remove the chosen configuration from the workspace"));
    savedRow->addWidget(new QLabel(tr("Config"), config));
    savedRow->addWidget(saved_, 2);
    savedRow->addWidget(name_, 2);
    savedRow->addWidget(save_);
    savedRow->addWidget(delete_);
    form->addLayout(savedRow);

    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(4);
    kernel_ = new QComboBox(config);
    kernel_->setObjectName(QStringLiteral("kernelCombo"));
    kernel_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    kernel_->setMinimumContentsLength(12);
    kernel_->setToolTip(tr("The kernels (.entry) of the last successful compile"));
    from_ = new QComboBox(config);
    from_->setObjectName(QStringLiteral("fromCombo"));
    from_->addItem(tr("PTX"));
    from_->addItem(tr("LTO cubin"));
    from_->setToolTip(tr("Load libNVVM's PTX (the driver compiles it), or the cubin nvJitLink's LTO made"));
    grid_ = new QLineEdit(config);
    grid_->setObjectName(QStringLiteral("gridEdit"));
    grid_->setPlaceholderText(tr("X[,Y[,Z]]"));
    block_ = new QLineEdit(config);
    block_->setObjectName(QStringLiteral("blockEdit"));
    block_->setPlaceholderText(tr("X[,Y[,Z]]"));
    for (auto* e : {grid_, block_}) e->setMaximumWidth(110);
    grid_->setToolTip(tr("Blocks in the grid: X, X,Y or X,Y,Z"));
    block_->setToolTip(tr("Threads per block: X, X,Y or X,Y,Z (at most 1024 in all)"));
    shared_ = new QSpinBox(config);
    shared_->setObjectName(QStringLiteral("sharedSpin"));
    shared_->setRange(0, 0x7fffffff);
    shared_->setSuffix(tr(" B"));
    shared_->setToolTip(tr("Bytes of dynamic shared memory per block"));
    repeat_ = new QSpinBox(config);
    repeat_->setObjectName(QStringLiteral("repeatSpin"));
    repeat_->setRange(1, 1000);
    repeat_->setToolTip(tr("Launch this many times; the time shown is the median"));
    timeout_ = new QDoubleSpinBox(config);
    timeout_->setObjectName(QStringLiteral("timeoutSpin"));
    timeout_->setRange(0.1, 3600);
    timeout_->setDecimals(1);
    timeout_->setValue(10);
    timeout_->setSuffix(tr(" s"));
    timeout_->setToolTip(tr("A launch still running after this long is stopped (the GPU context is reset)"));

    auto label = [config](const QString& text, QWidget* buddy) {
        auto* l = new QLabel(text, config);
        l->setBuddy(buddy);
        return l;
    };
    grid->addWidget(label(tr("&Kernel"), kernel_), 0, 0);
    grid->addWidget(kernel_, 0, 1, 1, 5);
    grid->addWidget(label(tr("&Grid"), grid_), 1, 0);
    grid->addWidget(grid_, 1, 1);
    grid->addWidget(label(tr("&Block"), block_), 1, 2);
    grid->addWidget(block_, 1, 3);
    grid->addWidget(label(tr("Shared"), shared_), 1, 4);
    grid->addWidget(shared_, 1, 5);
    grid->addWidget(label(tr("Repeat"), repeat_), 2, 0);
    grid->addWidget(repeat_, 2, 1);
    grid->addWidget(label(tr("Timeout"), timeout_), 2, 2);
    grid->addWidget(timeout_, 2, 3);
    grid->addWidget(label(tr("From"), from_), 2, 4);
    grid->addWidget(from_, 2, 5);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 1);
    grid->setColumnStretch(5, 1);
    form->addLayout(grid);

    args_ = new ArgTableModel(this);
    argView_ = new QTableView(config);
    argView_->setObjectName(QStringLiteral("argTable"));
    argView_->setModel(args_);
    argView_->verticalHeader()->hide();
    argView_->verticalHeader()->setDefaultSectionSize(argView_->fontMetrics().height() + 6);
    argView_->setEditTriggers(QAbstractItemView::AllEditTriggers);
    argView_->setSelectionMode(QAbstractItemView::SingleSelection);
    argView_->setWordWrap(false);
    auto* h = argView_->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setStretchLastSection(true);
    argView_->setColumnWidth(ArgTableModel::IndexColumn, 26);
    argView_->setColumnWidth(ArgTableModel::IrColumn, 56);
    argView_->setColumnWidth(ArgTableModel::ParamColumn, 120);
    argView_->setColumnWidth(ArgTableModel::PtxColumn, 84);
    argView_->setMinimumHeight(argView_->verticalHeader()->defaultSectionSize() * 2 + h->sizeHint().height() + 4);
    form->addWidget(argView_, 1);

    message_ = new QLabel(config);
    message_->setObjectName(QStringLiteral("runMessage"));
    message_->setWordWrap(true);
    message_->setStyleSheet(kError);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->hide();
    form->addWidget(message_);

    auto* results = new QWidget;
    auto* resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(4, 4, 4, 4);
    resultsLayout->setSpacing(4);
    // Run heads the results, with what stops it or how long the run in flight has taken beside it.
    auto* runRow = new QHBoxLayout;
    run_ = new QPushButton(runAction_->icon(), tr("Run"), results);
    run_->setObjectName(QStringLiteral("runButton"));
    run_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    connect(run_, &QPushButton::clicked, this, &RunPanel::runNow);
    note_ = new QLabel(results);
    note_->setObjectName(QStringLiteral("runNote"));
    note_->setWordWrap(true);
    // Both can hold a kernel's name: they wrap to the dock's width and never widen it.
    note_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    runRow->addWidget(run_, 0, Qt::AlignLeft | Qt::AlignTop);
    runRow->addWidget(note_, 1);
    resultsLayout->addLayout(runRow);
    summary_ = new QLabel(results);
    summary_->setObjectName(QStringLiteral("runSummary"));
    summary_->setWordWrap(true);
    summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    summary_->setTextFormat(Qt::RichText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    resultsLayout->addWidget(summary_);
    buffers_ = new QTabWidget(results);
    buffers_->setObjectName(QStringLiteral("bufferTabs"));
    buffers_->setDocumentMode(true);
    buffers_->setUsesScrollButtons(true);
    buffers_->hide();
    resultsLayout->addWidget(buffers_, 1);
    resultsLayout->addStretch(0);

    history_ = new RunHistory;
    connect(history_, &RunHistory::chosen, this, &RunPanel::showRecord);
    connect(SymbolNames::instance(), &SymbolNames::rawChanged, this, [this] {
        rebuildKernelCombo();
        args_->setRows(args_->rows());  // the parameter column's labels
    });

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("runSplitter"));
    split->addWidget(config);
    split->addWidget(results);
    split->addWidget(history_);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 0);
    split->setCollapsible(0, false);
    split->setSizes({500, 700, 230});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    // Every edit re-checks the configuration.
    connect(args_, &ArgTableModel::specEdited, this, [this] {
        if (!loading_) validate();
    });
    for (auto* e : {grid_, block_})
        connect(e, &QLineEdit::textChanged, this, [this] {
            if (!loading_) validate();
        });
    connect(shared_, &QSpinBox::valueChanged, this, [this] {
        if (!loading_) validate();
    });
    connect(repeat_, &QSpinBox::valueChanged, this, [this] {
        if (!loading_) validate();
    });
    connect(timeout_, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!loading_) validate();
    });
    connect(from_, &QComboBox::currentIndexChanged, this, [this] {
        if (!loading_) validate();
    });
    connect(name_, &QLineEdit::textChanged, this, &RunPanel::updateRunState);
    connect(kernel_, &QComboBox::activated, this, [this](int i) { chooseKernel(kernel_->itemData(i).toString()); });
    connect(saved_, &QComboBox::activated, this, &RunPanel::loadSaved);
    connect(save_, &QPushButton::clicked, this, &RunPanel::saveConfig);
    connect(delete_, &QPushButton::clicked, this, &RunPanel::deleteConfig);
    clearResults();
}

// --- the configuration --------------------------------------------------------------------

void RunPanel::documentReloaded() {
    compiled_.reset();
    compileOk_ = false;
    compileProblem_.clear();
    kernelName_.clear();
    specsByKernel_.clear();
    reloadSaved({});
    // A workspace opens ready to run what it was saved with.
    if (loadSaved(0)) return;
    gpu::RunConfig defaults;
    defaults.grid = {4, 1, 1};
    defaults.block = {256, 1, 1};
    loadConfig(defaults);
}

void RunPanel::reloadSaved(const QString& select) {
    const QSignalBlocker block(saved_);
    saved_->clear();
    const auto& runs = document_->workspace().runs;
    int current = -1;
    for (size_t i = 0; i < runs.size(); ++i) {
        saved_->addItem(QString::fromStdString(workspace::runLabel(runs, i)), int(i));
        if (!select.isEmpty() && QString::fromStdString(runs[i].name) == select) current = int(i);
    }
    saved_->setCurrentIndex(current);
    delete_->setEnabled(saved_->count() > 0);
}

bool RunPanel::loadSaved(int index) {
    const auto& runs = document_->workspace().runs;
    if (index < 0 || size_t(index) >= runs.size()) return false;
    {
        const QSignalBlocker block(saved_);
        saved_->setCurrentIndex(index);
    }
    loadConfig(runs[size_t(index)]);  // checked when the workspace was read
    return true;
}

void RunPanel::loadConfig(const gpu::RunConfig& config) {
    loading_ = true;
    name_->setText(QString::fromStdString(config.name));
    grid_->setText(dimText(config.grid));
    block_->setText(dimText(config.block));
    shared_->setValue(int(std::min<unsigned>(config.sharedBytes, 0x7fffffff)));
    repeat_->setValue(config.repeat);
    timeout_->setValue(config.timeoutSeconds);
    from_->setCurrentIndex(config.fromLto ? 1 : 0);
    if (!config.kernel.empty()) {
        if (!kernelName_.isEmpty()) specsByKernel_[kernelName_] = args_->specs();
        kernelName_ = QString::fromStdString(config.kernel);
    }
    QStringList specs;
    for (const auto& a : config.args) specs << specText(a);
    if (!config.kernel.empty()) specsByKernel_[kernelName_] = specs;
    rebuildKernelCombo();
    rebuildRows(specs);
    loading_ = false;
    validate();
}

pipeline::RunDraft RunPanel::draft() const {
    pipeline::RunDraft d;
    d.config.name = name_->text().trimmed().toStdString();
    d.config.kernel = kernelName_.toStdString();
    d.config.sharedBytes = unsigned(shared_->value());
    d.config.repeat = repeat_->value();
    d.config.timeoutSeconds = timeout_->value();
    d.config.fromLto = from_->currentIndex() == 1;
    d.grid = grid_->text().toStdString();
    d.block = block_->text().toStdString();
    for (const auto& row : args_->rows()) {
        d.specs.push_back(row.spec.toStdString());
        d.params.push_back(row.param);
    }
    return d;
}

gpu::RunConfig RunPanel::currentConfig() const {
    return pipeline::configOf(draft());
}

std::filesystem::path RunPanel::baseDir() const {
    const QString path = document_->path();
    return (path.isEmpty() ? QDir::currentPath() : QFileInfo(path).absolutePath()).toStdString();
}

void RunPanel::setCompiled(const EngineReply& reply) {
    if (reply.result && reply.result->ok) {
        compiled_ = reply.result;
        compileOk_ = true;
        compileProblem_.clear();
        const auto entries = compiled_->ptxModule.entries();
        if (kernelName_.isEmpty() && !entries.empty()) kernelName_ = QString::fromStdString(entries.front()->name);
    } else {
        compileOk_ = false;
        compileProblem_ = reply.result ? tr("the last compile has errors (see Problems)")
                                       : tr("the last compile failed: %1").arg(reply.error.section('\n', 0, 0));
    }
    loading_ = true;
    rebuildKernelCombo();
    // The same kernel compiled again keeps its arguments; new parameters are filled in.
    rebuildRows(args_->specs().isEmpty() ? specsByKernel_.value(kernelName_) : args_->specs());
    auto* model = qobject_cast<QStandardItemModel*>(from_->model());
    const bool haveCubin = compiled_ && !compiled_->cubin.empty();
    if (auto* lto = model ? model->item(1) : nullptr) {
        lto->setEnabled(haveCubin || from_->currentIndex() == 1);
        lto->setToolTip(haveCubin ? QString() : tr("This compile made no LTO cubin (nvJitLink missing?)"));
    }
    loading_ = false;
    validate();
}

void RunPanel::setGpuStatus(bool available, const QString& why) {
    gpuOk_ = available;
    gpuWhy_ = why;
    updateRunState();
}

void RunPanel::chooseKernel(const QString& name) {
    if (name == kernelName_) return;
    if (!kernelName_.isEmpty()) specsByKernel_[kernelName_] = args_->specs();
    kernelName_ = name;
    loading_ = true;
    rebuildKernelCombo();
    rebuildRows(specsByKernel_.value(name));
    loading_ = false;
    validate();
}

const ptx::Function* RunPanel::currentKernel() const {
    if (!compiled_ || kernelName_.isEmpty()) return nullptr;
    const auto* k = compiled_->ptxModule.find(kernelName_.toStdString());
    return k && k->isEntry ? k : nullptr;
}

void RunPanel::rebuildKernelCombo() {
    const QSignalBlocker block(kernel_);
    kernel_->clear();
    bool found = false;
    if (compiled_)
        for (const auto* e : compiled_->ptxModule.entries()) {
            const auto name = QString::fromStdString(e->name);
            kernel_->addItem(SymbolNames::shown(e->name), name);
            kernel_->setItemData(kernel_->count() - 1, SymbolNames::toolTip(e->name), Qt::ToolTipRole);
            found = found || name == kernelName_;
        }
    if (!kernelName_.isEmpty() && !found) {
        const auto symbol = kernelName_.toStdString();
        kernel_->addItem(compiled_ ? tr("%1 (not in this compile)").arg(SymbolNames::shown(symbol))
                                   : tr("%1 (not compiled yet)").arg(SymbolNames::shown(symbol)),
                         kernelName_);
        kernel_->setItemData(kernel_->count() - 1, SymbolNames::toolTip(symbol), Qt::ToolTipRole);
    }
    kernel_->setCurrentIndex(kernel_->findData(kernelName_));
    kernel_->setEnabled(kernel_->count() > 0);
}

std::optional<nvvm::IrFunction> RunPanel::irDefinition(const std::string& kernel) const {
    for (int i = 0; i < document_->moduleCount(); ++i) {
        const auto& m = document_->module(i);
        if (m.isBitcode()) continue;
        for (auto& f : nvvm::scanFunctions(m.bytes))
            if (f.isDefinition && f.name == kernel) return std::move(f);
    }
    return std::nullopt;
}

ArgTableModel::Row RunPanel::prefill(const ptx::Param& p, const std::string& irType) const {
    ArgTableModel::Row r;
    r.param = p;
    r.irType = QString::fromStdString(irType);
    const auto d = gpu::defaultArgSpec(p, irType);
    r.spec = QString::fromStdString(d.spec);
    r.hint = QString::fromStdString(d.hint);
    return r;
}

void RunPanel::rebuildRows(const QStringList& specs) {
    std::vector<ArgTableModel::Row> rows;
    if (const auto* k = currentKernel()) {
        auto ir = irDefinition(k->name);
        if (ir && ir->paramTypes.size() != k->params.size()) ir.reset();  // byval splits: do not pair them up
        for (size_t i = 0; i < k->params.size(); ++i) {
            auto row = prefill(k->params[i], ir ? ir->paramTypes[i] : std::string());
            if (ir) row.irName = QString::fromStdString(ir->paramNames[i]);
            if (int(i) < specs.size() && !specs[int(i)].isEmpty() && specs[int(i)] != row.spec) {
                row.spec = specs[int(i)];
                row.hint.clear();
            }
            rows.push_back(std::move(row));
        }
    } else {
        // The kernel is not compiled (yet): show what the configuration says, unchecked.
        for (const auto& s : specs) rows.push_back({std::nullopt, {}, s, {}, {}});
    }
    args_->setRows(std::move(rows));
}

void RunPanel::validate() {
    const auto check = pipeline::checkRunDraft(draft(), compiled_.get());
    parses_ = check.parses;
    problems_.clear();
    for (const auto& p : check.problems) problems_ << QString::fromStdString(p);
    QStringList rowErrors;
    for (const auto& e : check.argErrors) rowErrors << QString::fromStdString(e);
    args_->setErrors(rowErrors);
    const QString gridError = QString::fromStdString(check.gridError);
    const QString blockError = QString::fromStdString(check.blockError);
    grid_->setStyleSheet(gridError.isEmpty() ? QString() : kBadField);
    grid_->setToolTip(gridError.isEmpty() ? tr("Blocks in the grid: X, X,Y or X,Y,Z") : gridError);
    block_->setStyleSheet(blockError.isEmpty() ? QString() : kBadField);
    block_->setToolTip(blockError.isEmpty() ? tr("Threads per block: X, X,Y or X,Y,Z (at most 1024 in all)")
                                            : blockError);
    message_->setText(problems_.join('\n'));
    message_->setVisible(!problems_.isEmpty());
    updateRunState();
}

void RunPanel::updateRunState() {
    blockers_.clear();
    if (busy_) blockers_ << tr("a run is in flight");
    if (!gpuOk_) blockers_ << tr("No GPU: %1").arg(gpuWhy_);
    if (!compiled_)
        blockers_ << (compileProblem_.isEmpty() ? tr("nothing is compiled yet: Run needs a successful compile")
                                                : compileProblem_);
    else if (!compileOk_)
        blockers_ << compileProblem_;
    blockers_ << problems_;
    const bool ok = blockers_.isEmpty();
    run_->setEnabled(ok);
    runAction_->setEnabled(ok);
    const QString tip = ok ? tr("Run %1 on the GPU (Ctrl+R)").arg(kernelName_)
                           : tr("Run is not available:\n• %1").arg(blockers_.join(QStringLiteral("\n• ")));
    run_->setToolTip(tip);
    runAction_->setToolTip(tip);

    if (busy_) {
        note_->setText(tr("Running %1… %2 s (stopped after %3 s)")
                           .arg(QString::fromStdString(inFlightConfig_.kernel))
                           .arg(busySeconds(), 0, 'f', 1)
                           .arg(inFlightConfig_.timeoutSeconds));
        note_->setStyleSheet({});
    } else if (!gpuOk_) {
        note_->setText(tr("No GPU: %1").arg(gpuWhy_));
        note_->setStyleSheet(QStringLiteral("color: #7a5a00;"));
    } else if (!compiled_ || !compileOk_) {
        note_->setText(compiled_ || !compileProblem_.isEmpty() ? compileProblem_
                                                               : tr("Run needs a successful compile."));
        note_->setStyleSheet(QStringLiteral("color: #7a5a00;"));
    } else {
        note_->clear();
    }
    note_->setVisible(!note_->text().isEmpty());

    const QString name = name_->text().trimmed().isEmpty() ? kernelName_ : name_->text().trimmed();
    save_->setEnabled(parses_ && !name.isEmpty());
    save_->setToolTip(!parses_                      ? tr("Fix the fields marked red to save this configuration")
                      : saved_->findText(name) >= 0 ? tr("Replace the saved configuration %1").arg(name)
                                                    : tr("Save as %1 in the workspace").arg(name));
    delete_->setEnabled(saved_->currentIndex() >= 0);
}

bool RunPanel::saveConfig() {
    validate();
    if (!parses_) return false;
    auto config = currentConfig();
    if (config.name.empty()) config.name = config.kernel;
    auto runs = document_->workspace().runs;
    workspace::putRun(runs, config);
    document_->setRuns(std::move(runs));
    const QString name = QString::fromStdString(config.name);
    {
        const QSignalBlocker block(name_);
        name_->setText(name);
    }
    reloadSaved(name);
    updateRunState();
    return true;
}

void RunPanel::deleteConfig() {
    const int i = saved_->currentIndex();
    auto runs = document_->workspace().runs;
    if (i < 0 || size_t(i) >= runs.size()) return;
    runs.erase(runs.begin() + i);
    document_->setRuns(std::move(runs));
    reloadSaved({});
    updateRunState();
}

// --- running ------------------------------------------------------------------------------

double RunPanel::busySeconds() const {
    return busy_ ? clock_.elapsed() / 1000.0 : 0;
}

void RunPanel::setBusy(bool busy) {
    busy_ = busy;
    if (busy) {
        clock_.start();
        ticker_->start();
    } else {
        ticker_->stop();
    }
    updateRunState();
    emit busyChanged(busy);
}

bool RunPanel::mayReadOutsideFiles(const gpu::RunConfig& config) {
    const auto folder = baseDir();
    const auto outside = workspace::filesOutsideFolder({config}, folder);
    if (outside.empty()) return true;
    QStringList names;
    for (const auto& f : outside) names << QString::fromStdString(f.path.string());
    names.removeDuplicates();
    constexpr int kListed = 10;
    const QString listed = names.size() <= kListed ? names.join('\n')
                                                   : names.mid(0, kListed).join('\n') + '\n' +
                                                         tr("and %1 more").arg(names.size() - kListed);
    // This session's answers, per workspace (its file; its folder while it has none).
    static QHash<QString, bool> answers;
    const QString key = document_->path().isEmpty() ? QString::fromStdString(folder.string()) : document_->path();
    auto answer = answers.constFind(key);
    if (answer == answers.constEnd()) {
        const QString text = tr("This run reads files outside the workspace's folder %1:\n%2\n\nRead them? The answer "
                                "holds for this workspace until the app ends.")
                                 .arg(QString::fromStdString(folder.string()), listed);
        bool read = false;
        if (askOutside_) {
            read = askOutside_(text);
        } else {
            QMessageBox box(QMessageBox::Warning, tr("Files outside the workspace"), text, QMessageBox::NoButton, this);
            auto* yes = box.addButton(tr("Read"), QMessageBox::AcceptRole);
            auto* no = box.addButton(tr("Don't Read"), QMessageBox::RejectRole);
            box.setDefaultButton(static_cast<QPushButton*>(no));
            box.setEscapeButton(no);
            box.exec();
            read = box.clickedButton() == yes;
        }
        answer = answers.insert(key, read);
    }
    if (*answer) return true;
    message_->setText(tr("Not run: it reads files outside the workspace's folder, which you chose not to read for "
                         "this workspace: %1")
                          .arg(names.join(", ")));
    message_->show();
    return false;
}

void RunPanel::runNow() {
    validate();
    if (!blockers_.isEmpty()) return;
    if (!mayReadOutsideFiles(currentConfig())) return;
    RunRequest request;
    request.id = ++nextId_;
    request.compiled = compiled_;
    request.config = currentConfig();
    request.baseDir = baseDir();
    inFlight_ = request.id;
    inFlightConfig_ = request.config;
    setBusy(true);
    engine_->run(request);
}

void RunPanel::onRunReplied(const RunReply& reply) {
    if (!busy_ || reply.id != inFlight_) return;  // not ours, or from before a reload
    RunRecord record;
    record.when = QDateTime::currentDateTime();
    record.config = inFlightConfig_;
    record.outcome = reply.outcome;
    record.error = reply.error;
    record.kind = reply.kind;
    if (reply.outcome) record.summary = summarize(*reply.outcome);
    setBusy(false);
    history_->add(std::move(record));
    showRecord(history_->record(0));
}

QString RunPanel::bytesText(size_t n) {
    return QString::fromStdString(support::formatBytes(n));
}

QString RunPanel::summarize(const gpu::RunOutcome& o) {
    const QString ms = o.kernelMs < 1 ? QString::number(o.kernelMs, 'g', 3) : QString::number(o.kernelMs, 'f', 3);
    return tr("%1 on %2: %3 ms%4, %5 in, %6 out, %7 GB/s")
        .arg(RunHistory::kernelLabel(o.kernel), QString::fromStdString(o.device), ms,
             o.launchMs.size() > 1 ? tr(" (median of %1)").arg(o.launchMs.size()) : QString(), bytesText(o.bytesIn),
             bytesText(o.bytesOut), QString::number(o.gigabytesPerSecond(), 'f', 1));
}

void RunPanel::clearResults() {
    while (buffers_->count() > 0) {
        QWidget* w = buffers_->widget(0);
        buffers_->removeTab(0);
        delete w;
    }
    buffers_->hide();
    summary_->setStyleSheet({});
    summary_->setToolTip({});
    summary_->setText(
        tr("No runs yet. Choose a kernel, check its arguments and press Run (Ctrl+R): the kernel "
           "time, the bandwidth and every buffer copied back show here."));
    summary_->setForegroundRole(QPalette::PlaceholderText);
}

void RunPanel::showRecord(const RunRecord& record) {
    clearResults();
    summary_->setForegroundRole(QPalette::WindowText);
    const QString shape = RunHistory::shape(record.config.grid, record.config.block);
    if (!record.outcome) {
        static const QRegularExpression cudaError(QStringLiteral("CUDA_ERROR_\\w+"));
        const auto m = cudaError.match(record.error);
        summary_->setStyleSheet(kError);
        summary_->setText(tr("<b>%1</b> %2 (%3): %4")
                              .arg(m.hasMatch() ? m.captured() : tr("Run failed:"),
                                   RunHistory::kernelLabel(record.config.kernel).toHtmlEscaped(), shape,
                                   record.error.toHtmlEscaped()));
        summary_->setToolTip(record.error);
        return;
    }
    const auto& o = *record.outcome;
    QString text = record.summary.isEmpty() ? summarize(o) : record.summary;
    if (record.buffersDropped)
        text += tr(" (its buffers are no longer kept)");
    else if (o.buffers.empty())
        text += tr(" (no buffers)");
    summary_->setText(text.toHtmlEscaped());
    QStringList launches;
    for (double ms : o.launchMs) launches << QString::number(ms, 'g', 4);
    summary_->setToolTip(tr("grid×block %1\nlaunches (ms): %2").arg(shape, launches.join(QStringLiteral(", "))));
    for (size_t i = 0; i < o.buffers.size(); ++i) {
        const auto& b = o.buffers[i];
        const auto& info = gpu::elemInfo(b.type);
        auto* view = new BufferView(record.outcome, i);
        const int tab =
            buffers_->addTab(view, tr("arg %1 %2[%3]")
                                       .arg(b.arg)
                                       .arg(QString::fromUtf8(info.name.data(), qsizetype(info.name.size())))
                                       .arg(b.count));
        if (b.arg < record.config.args.size())
            buffers_->setTabToolTip(tab, QString::fromStdString(record.config.args[b.arg].text));
    }
    buffers_->setVisible(buffers_->count() > 0);
}

}  // namespace nvpg::gui
