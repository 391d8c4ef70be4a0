#include "gui/panels/RunPanel.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>

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
    args_ = new ArgTableModel(this);
    ui_ = RunForm::build(this, args_, runAction_->icon());
    connectForm();
    clearResults();

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

void RunPanel::connectForm() {
    connect(ui_.run, &QPushButton::clicked, this, &RunPanel::runNow);
    connect(ui_.history, &RunHistory::chosen, this, &RunPanel::showRecord);
    connect(SymbolNames::instance(), &SymbolNames::rawChanged, this, [this] {
        rebuildKernelCombo();
        args_->setRows(args_->rows());  // the parameter column's labels
    });

    // Every edit re-checks the configuration.
    connect(args_, &ArgTableModel::specEdited, this, [this] {
        if (!loading_) validate();
    });
    for (auto* e : {ui_.grid, ui_.block})
        connect(e, &QLineEdit::textChanged, this, [this] {
            if (!loading_) validate();
        });
    connect(ui_.shared, &QSpinBox::valueChanged, this, [this] {
        if (!loading_) validate();
    });
    connect(ui_.repeat, &QSpinBox::valueChanged, this, [this] {
        if (!loading_) validate();
    });
    connect(ui_.timeout, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!loading_) validate();
    });
    connect(ui_.from, &QComboBox::currentIndexChanged, this, [this] {
        if (!loading_) validate();
    });
    connect(ui_.name, &QLineEdit::textChanged, this, &RunPanel::updateRunState);
    connect(ui_.kernel, &QComboBox::activated, this,
            [this](int i) { chooseKernel(ui_.kernel->itemData(i).toString()); });
    connect(ui_.saved, &QComboBox::activated, this, &RunPanel::loadSaved);
    connect(ui_.save, &QPushButton::clicked, this, &RunPanel::saveConfig);
    connect(ui_.remove, &QPushButton::clicked, this, &RunPanel::deleteConfig);
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
    const QSignalBlocker block(ui_.saved);
    ui_.saved->clear();
    const auto& runs = document_->workspace().runs;
    int current = -1;
    for (size_t i = 0; i < runs.size(); ++i) {
        ui_.saved->addItem(QString::fromStdString(workspace::runLabel(runs, i)), int(i));
        if (!select.isEmpty() && QString::fromStdString(runs[i].name) == select) current = int(i);
    }
    ui_.saved->setCurrentIndex(current);
    ui_.remove->setEnabled(ui_.saved->count() > 0);
}

bool RunPanel::loadSaved(int index) {
    const auto& runs = document_->workspace().runs;
    if (index < 0 || size_t(index) >= runs.size()) return false;
    {
        const QSignalBlocker block(ui_.saved);
        ui_.saved->setCurrentIndex(index);
    }
    loadConfig(runs[size_t(index)]);  // checked when the workspace was read
    return true;
}

void RunPanel::loadConfig(const gpu::RunConfig& config) {
    loading_ = true;
    ui_.name->setText(QString::fromStdString(config.name));
    ui_.grid->setText(dimText(config.grid));
    ui_.block->setText(dimText(config.block));
    ui_.shared->setValue(int(std::min<unsigned>(config.sharedBytes, 0x7fffffff)));
    ui_.repeat->setValue(config.repeat);
    ui_.timeout->setValue(config.timeoutSeconds);
    ui_.from->setCurrentIndex(config.fromLto ? 1 : 0);
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
    d.config.name = ui_.name->text().trimmed().toStdString();
    d.config.kernel = kernelName_.toStdString();
    d.config.sharedBytes = unsigned(ui_.shared->value());
    d.config.repeat = ui_.repeat->value();
    d.config.timeoutSeconds = ui_.timeout->value();
    d.config.fromLto = ui_.from->currentIndex() == 1;
    d.grid = ui_.grid->text().toStdString();
    d.block = ui_.block->text().toStdString();
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
    auto* model = qobject_cast<QStandardItemModel*>(ui_.from->model());
    const bool haveCubin = compiled_ && !compiled_->cubin.empty();
    if (auto* lto = model ? model->item(1) : nullptr) {
        lto->setEnabled(haveCubin || ui_.from->currentIndex() == 1);
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
    const QSignalBlocker block(ui_.kernel);
    ui_.kernel->clear();
    bool found = false;
    if (compiled_)
        for (const auto* e : compiled_->ptxModule.entries()) {
            const auto name = QString::fromStdString(e->name);
            ui_.kernel->addItem(SymbolNames::shown(e->name), name);
            ui_.kernel->setItemData(ui_.kernel->count() - 1, SymbolNames::toolTip(e->name), Qt::ToolTipRole);
            found = found || name == kernelName_;
        }
    if (!kernelName_.isEmpty() && !found) {
        const auto symbol = kernelName_.toStdString();
        ui_.kernel->addItem(compiled_ ? tr("%1 (not in this compile)").arg(SymbolNames::shown(symbol))
                                      : tr("%1 (not compiled yet)").arg(SymbolNames::shown(symbol)),
                            kernelName_);
        ui_.kernel->setItemData(ui_.kernel->count() - 1, SymbolNames::toolTip(symbol), Qt::ToolTipRole);
    }
    ui_.kernel->setCurrentIndex(ui_.kernel->findData(kernelName_));
    ui_.kernel->setEnabled(ui_.kernel->count() > 0);
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
    ui_.grid->setStyleSheet(gridError.isEmpty() ? QString() : kBadField);
    ui_.grid->setToolTip(gridError.isEmpty() ? tr("Blocks in the grid: X, X,Y or X,Y,Z") : gridError);
    ui_.block->setStyleSheet(blockError.isEmpty() ? QString() : kBadField);
    ui_.block->setToolTip(blockError.isEmpty() ? tr("Threads per block: X, X,Y or X,Y,Z (at most 1024 in all)")
                                               : blockError);
    ui_.message->setText(problems_.join('\n'));
    ui_.message->setVisible(!problems_.isEmpty());
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
    ui_.run->setEnabled(ok);
    runAction_->setEnabled(ok);
    const QString tip = ok ? tr("Run %1 on the GPU (Ctrl+R)").arg(kernelName_)
                           : tr("Run is not available:\n• %1").arg(blockers_.join(QStringLiteral("\n• ")));
    ui_.run->setToolTip(tip);
    runAction_->setToolTip(tip);

    if (busy_) {
        ui_.note->setText(tr("Running %1… %2 s (stopped after %3 s)")
                              .arg(QString::fromStdString(inFlightConfig_.kernel))
                              .arg(busySeconds(), 0, 'f', 1)
                              .arg(inFlightConfig_.timeoutSeconds));
        ui_.note->setStyleSheet({});
    } else if (!gpuOk_) {
        ui_.note->setText(tr("No GPU: %1").arg(gpuWhy_));
        ui_.note->setStyleSheet(QStringLiteral("color: #7a5a00;"));
    } else if (!compiled_ || !compileOk_) {
        ui_.note->setText(compiled_ || !compileProblem_.isEmpty() ? compileProblem_
                                                                  : tr("Run needs a successful compile."));
        ui_.note->setStyleSheet(QStringLiteral("color: #7a5a00;"));
    } else {
        ui_.note->clear();
    }
    ui_.note->setVisible(!ui_.note->text().isEmpty());

    const QString name = ui_.name->text().trimmed().isEmpty() ? kernelName_ : ui_.name->text().trimmed();
    ui_.save->setEnabled(parses_ && !name.isEmpty());
    ui_.save->setToolTip(!parses_                         ? tr("Fix the fields marked red to save this configuration")
                         : ui_.saved->findText(name) >= 0 ? tr("Replace the saved configuration %1").arg(name)
                                                          : tr("Save as %1 in the workspace").arg(name));
    ui_.remove->setEnabled(ui_.saved->currentIndex() >= 0);
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
        const QSignalBlocker block(ui_.name);
        ui_.name->setText(name);
    }
    reloadSaved(name);
    updateRunState();
    return true;
}

void RunPanel::deleteConfig() {
    const int i = ui_.saved->currentIndex();
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
    ui_.message->setText(tr("Not run: it reads files outside the workspace's folder, which you chose not to read for "
                            "this workspace: %1")
                             .arg(names.join(", ")));
    ui_.message->show();
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
    ui_.history->add(std::move(record));
    showRecord(ui_.history->record(0));
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
    while (ui_.buffers->count() > 0) {
        QWidget* w = ui_.buffers->widget(0);
        ui_.buffers->removeTab(0);
        delete w;
    }
    ui_.buffers->hide();
    ui_.summary->setStyleSheet({});
    ui_.summary->setToolTip({});
    ui_.summary->setText(
        tr("No runs yet. Choose a kernel, check its arguments and press Run (Ctrl+R): the kernel "
           "time, the bandwidth and every buffer copied back show here."));
    ui_.summary->setForegroundRole(QPalette::PlaceholderText);
}

void RunPanel::showRecord(const RunRecord& record) {
    clearResults();
    ui_.summary->setForegroundRole(QPalette::WindowText);
    const QString shape = RunHistory::shape(record.config.grid, record.config.block);
    if (!record.outcome) {
        static const QRegularExpression cudaError(QStringLiteral("CUDA_ERROR_\\w+"));
        const auto m = cudaError.match(record.error);
        ui_.summary->setStyleSheet(RunForm::errorStyle());
        ui_.summary->setText(tr("<b>%1</b> %2 (%3): %4")
                                 .arg(m.hasMatch() ? m.captured() : tr("Run failed:"),
                                      RunHistory::kernelLabel(record.config.kernel).toHtmlEscaped(), shape,
                                      record.error.toHtmlEscaped()));
        ui_.summary->setToolTip(record.error);
        return;
    }
    const auto& o = *record.outcome;
    QString text = record.summary.isEmpty() ? summarize(o) : record.summary;
    if (record.buffersDropped)
        text += tr(" (its buffers are no longer kept)");
    else if (o.buffers.empty())
        text += tr(" (no buffers)");
    ui_.summary->setText(text.toHtmlEscaped());
    QStringList launches;
    for (double ms : o.launchMs) launches << QString::number(ms, 'g', 4);
    ui_.summary->setToolTip(tr("grid×block %1\nlaunches (ms): %2").arg(shape, launches.join(QStringLiteral(", "))));
    for (size_t i = 0; i < o.buffers.size(); ++i) {
        const auto& b = o.buffers[i];
        const auto& info = gpu::elemInfo(b.type);
        auto* view = new BufferView(record.outcome, i);
        const int tab =
            ui_.buffers->addTab(view, tr("arg %1 %2[%3]")
                                          .arg(b.arg)
                                          .arg(QString::fromUtf8(info.name.data(), qsizetype(info.name.size())))
                                          .arg(b.count));
        if (b.arg < record.config.args.size())
            ui_.buffers->setTabToolTip(tab, QString::fromStdString(record.config.args[b.arg].text));
    }
    ui_.buffers->setVisible(ui_.buffers->count() > 0);
}

}  // namespace nvpg::gui
