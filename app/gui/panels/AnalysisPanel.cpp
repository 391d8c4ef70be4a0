#include "gui/panels/AnalysisPanel.h"

#include <algorithm>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include "core/gpu/ArchLimits.h"
#include "gui/common/Text.h"
#include "gui/compile/CompileController.h"
#include "gui/editor/CaretFunction.h"
#include "gui/editor/HoverDocs.h"
#include "gui/output/SymbolNames.h"

namespace nvpg::gui {

namespace {

QString bytes(std::size_t n) {
    if (n >= 1024 && n % 1024 == 0) return QStringLiteral("%1 KiB").arg(n / 1024);
    return QStringLiteral("%1 B").arg(n);
}

QString allows(int blocks) {
    return blocks == gpu::Occupancy::kNoLimit ? QStringLiteral("—") : QString::number(blocks);
}

QChart* newChart() {
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->hide();
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    return chart;
}

// A header: what the chart shows, and its info button.
QWidget* headerRow(QLabel* label, QToolButton* info, QWidget* parent) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(label, 1);
    info->setIcon(info->style()->standardIcon(QStyle::SP_MessageBoxInformation));
    info->setText(QObject::tr("About"));
    info->setToolButtonStyle(Qt::ToolButtonIconOnly);
    info->setAutoRaise(true);
    layout->addWidget(info, 0, Qt::AlignTop);
    return row;
}

}  // namespace

QString AnalysisPanel::className(inspect::MixClass c) {
    using inspect::MixClass;
    switch (c) {
        case MixClass::GlobalMemory:
            return tr("global memory");
        case MixClass::SharedMemory:
            return tr("shared memory");
        case MixClass::LocalMemory:
            return tr("local memory");
        case MixClass::ConstantMemory:
            return tr("constant memory");
        case MixClass::Fp32:
            return tr("FP32");
        case MixClass::Fp64:
            return tr("FP64");
        case MixClass::Fp16:
            return tr("FP16/BF16");
        case MixClass::Integer:
            return tr("integer");
        case MixClass::Conversion:
            return tr("conversion");
        case MixClass::ControlFlow:
            return tr("control flow");
        case MixClass::SyncSpecial:
            return tr("sync/special");
        case MixClass::Tensor:
            return tr("tensor");
        case MixClass::Other:
            return tr("other");
    }
    return {};
}

AnalysisPanel::AnalysisPanel(QWidget* parent) : QWidget(parent) {
    buildUi();
    connect(SymbolNames::instance(), &SymbolNames::rawChanged, this, [this] { rebuildKernels(); });
    clear();
}

void AnalysisPanel::buildUi() {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Kernel:"), this));
    kernel_ = new QComboBox(this);
    kernel_->setObjectName(QStringLiteral("analysisKernel"));
    kernel_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    kernel_->setMinimumContentsLength(16);
    kernel_->setToolTip(tr("The kernels (.entry) of the compile shown"));
    top->addWidget(kernel_, 1);
    top->addWidget(new QLabel(tr("Block:"), this));
    block_ = new QSpinBox(this);
    block_->setObjectName(QStringLiteral("analysisBlock"));
    block_->setRange(1, 1024);
    block_->setSingleStep(32);
    block_->setSuffix(tr(" threads"));
    block_->setToolTip(
        tr("The block size marked on the occupancy chart: the run configuration's; "
           "try another here (the Runs dock's configuration stays as it is)"));
    top->addWidget(block_);
    launch_ = new QLabel(this);
    launch_->setObjectName(QStringLiteral("analysisLaunch"));
    top->addWidget(launch_, 2);
    layout->addLayout(top);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setChildrenCollapsible(false);

    // The instruction mix.
    auto* mixSide = new QWidget(split);
    auto* mixLayout = new QVBoxLayout(mixSide);
    mixLayout->setContentsMargins(0, 0, 0, 0);
    mixHeader_ = new QLabel(mixSide);
    mixHeader_->setObjectName(QStringLiteral("mixHeader"));
    mixInfo_ = new QToolButton(mixSide);
    mixInfo_->setObjectName(QStringLiteral("mixInfo"));
    mixInfo_->setToolTip(tr("What the instruction mix is, and how it is counted"));
    mixLayout->addWidget(headerRow(mixHeader_, mixInfo_, mixSide));
    auto* mixChart = newChart();
    mixSeries_ = new QHorizontalBarSeries(mixChart);
    mixSeries_->setLabelsVisible(true);
    mixSeries_->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    mixSeries_->setLabelsFormat(QStringLiteral("@value"));
    mixSeries_->setBarWidth(0.7);
    mixChart->addSeries(mixSeries_);
    auto* classes = new QBarCategoryAxis(mixChart);
    mixChart->addAxis(classes, Qt::AlignLeft);
    mixSeries_->attachAxis(classes);
    // Each bar says its count: the count axis would only take the rows' height (a dock at 720 px
    // has room for a dozen rows without it).
    auto* counts = new QValueAxis(mixChart);
    counts->setLabelFormat(QStringLiteral("%d"));
    counts->setVisible(false);
    mixChart->addAxis(counts, Qt::AlignBottom);
    mixSeries_->attachAxis(counts);
    mixView_ = new QChartView(mixChart, mixSide);
    mixView_->setObjectName(QStringLiteral("mixChart"));
    mixView_->setRenderHint(QPainter::Antialiasing);
    mixView_->setMinimumSize(260, 100);
    mixLayout->addWidget(mixView_, 1);

    // The occupancy: the chart, and beside it the marked block's figures.
    auto* occSide = new QWidget(split);
    auto* occLayout = new QVBoxLayout(occSide);
    occLayout->setContentsMargins(0, 0, 0, 0);
    occupancyHeader_ = new QLabel(occSide);
    occupancyHeader_->setObjectName(QStringLiteral("occupancyHeader"));
    occupancyInfo_ = new QToolButton(occSide);
    occupancyInfo_->setObjectName(QStringLiteral("occupancyInfo"));
    occupancyInfo_->setToolTip(tr("What theoretical occupancy is, how it is computed and from what"));
    occLayout->addWidget(headerRow(occupancyHeader_, occupancyInfo_, occSide));
    auto* occRow = new QHBoxLayout;
    auto* occChart = newChart();
    occupancySeries_ = new QLineSeries(occChart);
    occupancySeries_->setPointsVisible(true);
    occupancySeries_->setName(tr("occupancy"));
    markLine_ = new QLineSeries(occChart);
    QPen dashed(QColor(0xd0, 0x30, 0x30));
    dashed.setStyle(Qt::DashLine);
    dashed.setWidth(1);
    markLine_->setPen(dashed);
    markSeries_ = new QScatterSeries(occChart);
    markSeries_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    markSeries_->setMarkerSize(11);
    markSeries_->setColor(QColor(0xd0, 0x30, 0x30));
    markSeries_->setBorderColor(QColor(0xd0, 0x30, 0x30));
    occChart->addSeries(occupancySeries_);
    occChart->addSeries(markLine_);
    occChart->addSeries(markSeries_);
    auto* threads = new QValueAxis(occChart);
    threads->setRange(0, 1024);
    threads->setTickCount(9);
    threads->setLabelFormat(QStringLiteral("%d"));
    auto* percent = new QValueAxis(occChart);
    // A little over 100 %: a mark at 100 % shows whole, and the ticks stay at 0, 25 .. 100.
    percent->setRange(0, 104);
    percent->setTickType(QValueAxis::TicksDynamic);
    percent->setTickAnchor(0);
    percent->setTickInterval(25);
    percent->setLabelFormat(QStringLiteral("%d %%"));
    occChart->addAxis(threads, Qt::AlignBottom);
    occChart->addAxis(percent, Qt::AlignLeft);
    for (auto* s : std::initializer_list<QXYSeries*>{occupancySeries_, markLine_, markSeries_}) {
        s->attachAxis(threads);
        s->attachAxis(percent);
    }
    connect(occupancySeries_, &QLineSeries::hovered, this, [this](const QPointF& p, bool on) {
        if (!on) return QToolTip::hideText();
        QToolTip::showText(QCursor::pos(), tr("%1 threads per block: %2 % occupancy").arg(p.x()).arg(p.y(), 0, 'f', 1),
                           occupancyView_);
    });
    occupancyView_ = new QChartView(occChart, occSide);
    occupancyView_->setObjectName(QStringLiteral("occupancyChart"));
    occupancyView_->setRenderHint(QPainter::Antialiasing);
    occupancyView_->setMinimumSize(300, 100);
    occRow->addWidget(occupancyView_, 3);
    auto* figures = new QVBoxLayout;
    table_ = new QTableWidget(0, 2, occSide);
    table_->setObjectName(QStringLiteral("occupancyTable"));
    table_->setHorizontalHeaderLabels({tr("At the marked block"), tr("")});
    table_->horizontalHeader()->hide();  // the first row says which block
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setWordWrap(false);
    table_->setMinimumWidth(240);
    figures->addWidget(table_, 1);
    occRow->addLayout(figures, 2);
    occLayout->addLayout(occRow, 1);

    split->addWidget(mixSide);
    split->addWidget(occSide);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    // The mix's class names whole; the rest to the occupancy chart and its table.
    split->setSizes({420, 860});
    layout->addWidget(split, 1);

    connect(kernel_, &QComboBox::activated, this, [this](int i) {
        chosen_ = kernel_->itemData(i).toString();
        blockEdited_ = false;
        chooseLaunch();
        showMix();
        showOccupancy();
    });
    connect(block_, &QSpinBox::valueChanged, this, [this] {
        blockEdited_ = true;
        showOccupancy();
    });
    connect(mixInfo_, &QToolButton::clicked, this,
            [this] { HoverDocs::popover(mixInfo_, "instruction-mix", inspect::DocContext::View); });
    connect(occupancyInfo_, &QToolButton::clicked, this,
            [this] { HoverDocs::popover(occupancyInfo_, "occupancy", inspect::DocContext::View); });
    applyChartFonts();
}

void AnalysisPanel::setResult(std::shared_ptr<const pipeline::CompileResult> result) {
    if (!result) return clear();
    result_ = std::move(result);
    // Read when shown: a closed dock costs the compiles nothing (a SASS listing of thousands of
    // instructions is read again for the mix).
    stale_ = true;
    if (isVisible()) refresh();
}

void AnalysisPanel::clear() {
    result_.reset();
    stale_ = true;
    refresh();
}

void AnalysisPanel::refresh() {
    if (!stale_) return;
    stale_ = false;
    mixes_ = result_ ? pipeline::mixesOf(*result_) : pipeline::Mixes{};
    rebuildKernels();
}

void AnalysisPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refresh();
}

void AnalysisPanel::setRunConfigs(const gpu::RunConfig& editing, std::vector<gpu::RunConfig> saved) {
    if (editing == editing_ && saved == saved_) return;  // another field of it (an argument) changed
    editing_ = editing;
    saved_ = std::move(saved);
    blockEdited_ = false;
    chooseLaunch();
    showOccupancy();
}

void AnalysisPanel::setPreferredKernel(const QString& symbol) {
    if (symbol.isEmpty() || symbol == preferred_) return;
    preferred_ = symbol;
    if (chosen_.isEmpty() && kernel_->findData(symbol) >= 0 && kernel() != symbol) rebuildKernels();
}

void AnalysisPanel::preferKernelAt(QsciScintilla* editor, int line) {
    const auto at = functionAtLine(editor, line, inspect::FunctionText::Ir);
    setPreferredKernel(QString::fromStdString(at.name));
}

void AnalysisPanel::setGpuAvailable(bool available) {
    gpu_ = available;
    showOccupancy();
}

QString AnalysisPanel::kernel() const {
    return kernel_->currentIndex() >= 0 ? kernel_->currentData().toString() : QString();
}

int AnalysisPanel::blockSize() const {
    return block_->value();
}

const pipeline::Kernel* AnalysisPanel::currentKernel() const {
    if (!result_) return nullptr;
    const std::string name = kernel().toStdString();
    for (const auto& k : result_->kernels)
        if (k.name == name) return &k;
    return nullptr;
}

void AnalysisPanel::rebuildKernels() {
    const QString was = kernel();
    kernel_->clear();
    if (result_)
        for (const auto& k : result_->kernels) {
            kernel_->addItem(SymbolNames::shown(k.name), qstr(k.name));
            kernel_->setItemData(kernel_->count() - 1, SymbolNames::toolTip(k.name), Qt::ToolTipRole);
        }
    // The user's pick, else the kernel under the caret, else the first.
    int index = kernel_->findData(chosen_);
    if (index < 0 && chosen_.isEmpty()) index = kernel_->findData(preferred_);
    if (index < 0) index = kernel_->count() > 0 ? 0 : -1;
    kernel_->setCurrentIndex(index);
    kernel_->setEnabled(kernel_->count() > 0);
    if (kernel() != was) blockEdited_ = false;
    chooseLaunch();
    showMix();
    showOccupancy();
}

void AnalysisPanel::chooseLaunch() {
    const std::string k = kernel().toStdString();
    int block = kDefaultBlock;
    dynamicShared_ = 0;
    launchSource_ = tr("no run configuration launches it: %1 threads").arg(kDefaultBlock);
    const auto threads = [](const gpu::Dim3& b) { return int(std::min<unsigned>(b.x * b.y * b.z, 1 << 20)); };
    const auto* saved = [&]() -> const gpu::RunConfig* {
        for (const auto& r : saved_)
            if (r.kernel == k) return &r;
        return nullptr;
    }();
    if (!k.empty() && editing_.kernel == k) {
        block = threads(editing_.block);
        dynamicShared_ = editing_.sharedBytes;
        launchSource_ = tr("the Runs dock's configuration");
    } else if (saved) {
        block = threads(saved->block);
        dynamicShared_ = saved->sharedBytes;
        launchSource_ = tr("saved configuration %1").arg(qstr(saved->name.empty() ? saved->kernel : saved->name));
    }
    launch_->setText(tr("from %1").arg(launchSource_));
    if (!blockEdited_) {
        const QSignalBlocker quiet(block_);
        block_->setValue(std::clamp(block, block_->minimum(), block_->maximum()));
    }
}

std::vector<std::pair<QString, int>> AnalysisPanel::mixBars() const {
    std::vector<std::pair<QString, int>> bars;
    const auto sets = mixSeries_->barSets();
    if (sets.isEmpty()) return bars;
    QBarCategoryAxis* axis = nullptr;
    for (auto* a : mixSeries_->attachedAxes())
        if (auto* c = qobject_cast<QBarCategoryAxis*>(a)) axis = c;
    if (!axis) return bars;
    const QStringList names = axis->categories();
    // The chart lists them bottom up: top down here, as a person reads it.
    for (qsizetype i = names.size() - 1; i >= 0; --i) bars.emplace_back(names[i], int(sets[0]->at(int(i))));
    return bars;
}

void AnalysisPanel::showMix() {
    mixSeries_->clear();
    QValueAxis* counts = nullptr;
    auto* chart = mixView_->chart();
    for (auto* a : mixSeries_->attachedAxes()) {
        if (auto* v = qobject_cast<QValueAxis*>(a)) counts = v;
        // A new category axis each time: the chart sizes its label column when the axis is added.
        if (qobject_cast<QBarCategoryAxis*>(a)) {
            mixSeries_->detachAxis(a);
            chart->removeAxis(a);
            a->deleteLater();
        }
    }
    const auto* kernel = currentKernel();
    const inspect::InstructionMix* mix = kernel ? mixes_.find(kernel->name) : nullptr;
    if (!result_) {
        mixHeader_->setText(tr("<b>Instruction mix</b>: compile to see it"));
        return;
    }
    if (!mix) {
        mixHeader_->setText(kernel ? tr("<b>Instruction mix</b>: %1 is not in the %2")
                                         .arg(SymbolNames::shown(kernel->name).toHtmlEscaped(),
                                              mixes_.source == "sass" ? tr("SASS") : tr("PTX"))
                                   : tr("<b>Instruction mix</b>: no kernel"));
        return;
    }
    QString source;
    if (mixes_.source == "sass") {
        source = tr("from the SASS");
    } else if (result_->sassPending) {
        source = tr("from the PTX until the SASS comes");
    } else if (!result_->sassUnavailable.empty()) {
        source = tr("from the PTX: there is no SASS without nvdisasm");
    } else {
        source = tr("from the PTX");
    }
    mixHeader_->setText(tr("<b>Instruction mix</b> %1: %2 instructions").arg(source).arg(mix->total()));
    mixHeader_->setToolTip(mixes_.source == "sass"            ? qstr(result_->sassSource)
                           : result_->sassUnavailable.empty() ? QString()
                                                              : qstr(result_->sassUnavailable));
    // Top down in the class order: the chart draws its first category at the bottom.
    auto* set = new QBarSet(tr("instructions"));
    QStringList names;
    int most = 0;
    for (size_t c = inspect::kMixClasses; c-- > 0;) {
        const int n = mix->counts[c];
        if (n == 0) continue;  // a class the kernel has none of takes no row
        names << className(inspect::MixClass(c));
        *set << n;
        most = std::max(most, n);
    }
    set->setColor(palette().color(QPalette::Highlight));
    set->setLabelColor(palette().color(QPalette::Text));
    auto* axis = new QBarCategoryAxis(chart);
    // Qt Charts sizes a left axis' labels column too narrow for "global memory" and cuts the
    // names to "..."; whole, the chart makes room for them.
    axis->setTruncateLabels(false);
    axis->setLabelsFont(font());
    axis->setLabelsBrush(palette().brush(QPalette::Text));
    axis->append(names);
    mixSeries_->append(set);
    chart->addAxis(axis, Qt::AlignLeft);
    mixSeries_->attachAxis(axis);
    // Room past the longest bar for its label.
    counts->setRange(0, std::max(1, most + most / 6 + 1));
    counts->applyNiceNumbers();
}

void AnalysisPanel::showOccupancy() {
    occupancySeries_->clear();
    markLine_->clear();
    markSeries_->clear();
    table_->setRowCount(0);
    sweep_.clear();
    marked_.reset();
    const auto* kernel = currentKernel();
    if (!result_ || !kernel) {
        occupancyHeader_->setText(result_ ? tr("<b>Theoretical occupancy</b>: no kernel")
                                          : tr("<b>Theoretical occupancy</b>: compile to see it"));
        return;
    }
    if (!kernel->usage) {
        const auto& figures = result_->ltoFigures.source.empty() ? result_->ptxFigures : result_->ltoFigures;
        occupancyHeader_->setText(
            tr("<b>Theoretical occupancy</b>: no ptxas figures for this kernel%1")
                .arg(figures.unavailable.empty() ? QString() : QStringLiteral(": ") + qstr(figures.unavailable)));
        return;
    }
    const auto limits = gpu::ArchLimits::forArch(result_->arch);
    if (!limits) {
        occupancyHeader_->setText(tr("<b>Theoretical occupancy</b>: %1").arg(qstr(limits.error().message)));
        return;
    }
    gpu::OccupancyInput in;
    in.registers = kernel->usage->registers;
    in.staticShared = std::size_t(kernel->usage->sharedBytes);
    in.barriers = kernel->usage->barriers;
    in.dynamicShared = dynamicShared_;
    in.blockSize = block_->value();
    occupancyHeader_->setText(
        tr("<b>Theoretical occupancy</b> by threads per block on %1: %2 registers per thread, %3 static and %4 dynamic "
           "shared memory")
            .arg(qstr(limits->arch))
            .arg(in.registers)
            .arg(bytes(in.staticShared), bytes(in.dynamicShared)));
    occupancyHeader_->setToolTip(
        qstr((result_->ltoFigures.source.empty() ? result_->ptxFigures : result_->ltoFigures).source));
    if (auto sweep = gpu::occupancySweep(*limits, in)) {
        sweep_ = std::move(*sweep);
        for (const auto& o : sweep_) occupancySeries_->append(o.blockSize, o.occupancy * 100);
    } else {
        occupancyHeader_->setText(occupancyHeader_->text() + QStringLiteral(": ") + qstr(sweep.error().message));
    }
    const auto o = gpu::computeOccupancy(*limits, in);
    const auto row = [this](const QString& figure, const QString& value, const QString& tip = {}) {
        const int r = table_->rowCount();
        table_->insertRow(r);
        auto* name = new QTableWidgetItem(figure);
        auto* text = new QTableWidgetItem(value);
        text->setToolTip(tip.isEmpty() ? value : tip);
        table_->setItem(r, 0, name);
        table_->setItem(r, 1, text);
    };
    // Where the limits come from, and the driver's figure (not made up where it was not asked).
    const auto limitRows = [&](const gpu::ArchLimits& l) {
        row(tr("Arch limits"), tr("the %1 row of arch-limits.json").arg(qstr(l.arch)),
            tr("resources/occupancy/arch-limits.json, built into the app"));
        row(tr("Cited from"), qstr(l.source));
        if (gpu_)
            row(tr("Driver's figure"), tr("not asked by the app"),
                tr("The app does not ask the driver (cuOccupancyMaxActiveBlocksPerMultiprocessor); "
                   "tests/gpu/tst_occupancy_driver checks it equals this figure on every example kernel"));
        else
            row(tr("Driver's figure"), tr("needs a GPU"),
                tr("The driver's cuOccupancyMaxActiveBlocksPerMultiprocessor answers only where there is a GPU"));
    };
    if (!o) {
        row(tr("Block size"), tr("%1 threads").arg(in.blockSize));
        row(tr("Occupancy"), qstr(o.error().message));
        limitRows(*limits);
        table_->resizeRowsToContents();
        return;
    }
    marked_ = *o;
    markLine_->append(o->blockSize, 0);
    markLine_->append(o->blockSize, 100);
    markSeries_->append(o->blockSize, o->occupancy * 100);
    row(tr("Block size"), tr("%1 threads (%n warp(s))", "", o->warpsPerBlock).arg(o->blockSize));
    row(tr("Active blocks per SM"), QString::number(o->activeBlocks));
    row(tr("Active warps per SM"), tr("%1 of %2").arg(o->activeWarps).arg(o->maxWarps));
    row(tr("Occupancy"), QStringLiteral("%1 %").arg(o->occupancy * 100, 0, 'f', 1));
    row(tr("Limited by"), qstr(gpu::limiterNames(o->limiters)));
    row(tr("Blocks each allows"),
        tr("warps %1, registers %2, shared memory %3, blocks %4%5")
            .arg(allows(o->byWarps), allows(o->byRegisters), allows(o->bySharedMemory), allows(o->byBlocks),
                 o->byBarriers == gpu::Occupancy::kNoLimit ? QString() : tr(", barriers %1").arg(o->byBarriers)));
    row(tr("Registers per block"), tr("%1 allocated (%2 per thread)").arg(o->registersPerBlock).arg(in.registers));
    row(tr("Shared memory per block"),
        tr("%1 allocated, of %2 per SM").arg(bytes(o->sharedPerBlock), bytes(o->sharedCarveout)));
    limitRows(*limits);
    table_->resizeRowsToContents();
}

QString AnalysisPanel::tableValue(const QString& figure) const {
    for (int r = 0; r < table_->rowCount(); ++r)
        if (table_->item(r, 0) && table_->item(r, 0)->text() == figure && table_->item(r, 1))
            return table_->item(r, 1)->text();
    return {};
}

void AnalysisPanel::applyChartFonts() {
    // The charts draw their own text: the window's zoom reaches them through the panel's font.
    for (auto* view : {mixView_, occupancyView_}) {
        auto* chart = view->chart();
        chart->setBackgroundBrush(palette().brush(QPalette::Base));
        chart->setPlotAreaBackgroundVisible(false);
        for (auto* axis : chart->axes()) {
            axis->setLabelsFont(font());
            axis->setTitleFont(font());
            axis->setLabelsBrush(palette().brush(QPalette::Text));
            axis->setTitleBrush(palette().brush(QPalette::Text));
        }
    }
    mixSeries_->setLabelsPrecision(6);
    for (auto* set : mixSeries_->barSets()) set->setLabelFont(font());
}

void AnalysisPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        applyChartFonts();
        showMix();  // the bars' label font and colours
    }
}

void AnalysisPanel::attach(CompileController* controller) {
    connect(controller, &CompileController::replyShown, this, [this](const EngineReply& reply) {
        if (reply.result)
            setResult(reply.result);
        else
            clear();
    });
    connect(controller, &CompileController::lateShown, this,
            [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) {
                if (result) setResult(std::move(result));
            });
}

}  // namespace nvpg::gui
