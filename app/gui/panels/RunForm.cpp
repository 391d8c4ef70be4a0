#include "gui/panels/RunForm.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "gui/panels/ArgTableModel.h"
#include "gui/panels/RunHistory.h"

namespace nvpg::gui {

RunForm RunForm::build(QWidget* panel, ArgTableModel* args, const QIcon& runIcon) {
    RunForm f;
    // Left: the configuration; middle: Run and the results; right: the history. (No scroll area
    // around the configuration: the wrapped message under the table would make it ask for its
    // preferred height rather than let the table shrink.)
    auto* config = new QWidget;
    auto* form = new QVBoxLayout(config);
    form->setContentsMargins(4, 4, 4, 4);
    form->setSpacing(4);

    auto* savedRow = new QHBoxLayout;
    f.saved = new QComboBox(config);
    f.saved->setObjectName(QStringLiteral("savedConfigs"));
    f.saved->setPlaceholderText(tr("saved configurations"));
    f.saved->setToolTip(tr("The run configurations saved in this workspace"));
    f.saved->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    f.saved->setMinimumContentsLength(10);
    f.name = new QLineEdit(config);
    f.name->setObjectName(QStringLiteral("configName"));
    f.name->setToolTip(tr("The name to save this configuration under (the kernel's when empty)"));
    f.save = new QPushButton(tr("Save"), config);
    f.save->setObjectName(QStringLiteral("saveConfig"));
    f.remove = new QPushButton(tr("Delete"), config);
    f.remove->setObjectName(QStringLiteral("deleteConfig"));
    f.remove->setToolTip(tr("Remove the chosen configuration from the workspace"));
    savedRow->addWidget(new QLabel(tr("Config"), config));
    savedRow->addWidget(f.saved, 2);
    savedRow->addWidget(f.name, 2);
    savedRow->addWidget(f.save);
    savedRow->addWidget(f.remove);
    form->addLayout(savedRow);

    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(4);
    f.kernel = new QComboBox(config);
    f.kernel->setObjectName(QStringLiteral("kernelCombo"));
    f.kernel->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    f.kernel->setMinimumContentsLength(12);
    f.kernel->setToolTip(tr("The kernels (.entry) of the last successful compile"));
    f.from = new QComboBox(config);
    f.from->setObjectName(QStringLiteral("fromCombo"));
    f.from->addItem(tr("PTX"));
    f.from->addItem(tr("LTO cubin"));
    f.from->setToolTip(tr("Load libNVVM's PTX (the driver compiles it), or the cubin nvJitLink's LTO made"));
    f.grid = new QLineEdit(config);
    f.grid->setObjectName(QStringLiteral("gridEdit"));
    f.grid->setPlaceholderText(tr("X[,Y[,Z]]"));
    f.block = new QLineEdit(config);
    f.block->setObjectName(QStringLiteral("blockEdit"));
    f.block->setPlaceholderText(tr("X[,Y[,Z]]"));
    for (auto* e : {f.grid, f.block}) e->setMaximumWidth(110);
    f.grid->setToolTip(tr("Blocks in the grid: X, X,Y or X,Y,Z"));
    f.block->setToolTip(tr("Threads per block: X, X,Y or X,Y,Z (at most 1024 in all)"));
    f.shared = new QSpinBox(config);
    f.shared->setObjectName(QStringLiteral("sharedSpin"));
    f.shared->setRange(0, 0x7fffffff);
    f.shared->setSuffix(tr(" B"));
    f.shared->setToolTip(tr("Bytes of dynamic shared memory per block"));
    f.repeat = new QSpinBox(config);
    f.repeat->setObjectName(QStringLiteral("repeatSpin"));
    f.repeat->setRange(1, 1000);
    f.repeat->setToolTip(tr("Launch this many times; the time shown is the median"));
    f.timeout = new QDoubleSpinBox(config);
    f.timeout->setObjectName(QStringLiteral("timeoutSpin"));
    f.timeout->setRange(0.1, 3600);
    f.timeout->setDecimals(1);
    f.timeout->setValue(10);
    f.timeout->setSuffix(tr(" s"));
    f.timeout->setToolTip(tr("A launch still running after this long is stopped (the GPU context is reset)"));

    auto label = [config](const QString& text, QWidget* buddy) {
        auto* l = new QLabel(text, config);
        l->setBuddy(buddy);
        return l;
    };
    grid->addWidget(label(tr("&Kernel"), f.kernel), 0, 0);
    grid->addWidget(f.kernel, 0, 1, 1, 5);
    grid->addWidget(label(tr("&Grid"), f.grid), 1, 0);
    grid->addWidget(f.grid, 1, 1);
    grid->addWidget(label(tr("&Block"), f.block), 1, 2);
    grid->addWidget(f.block, 1, 3);
    grid->addWidget(label(tr("Shared"), f.shared), 1, 4);
    grid->addWidget(f.shared, 1, 5);
    grid->addWidget(label(tr("Repeat"), f.repeat), 2, 0);
    grid->addWidget(f.repeat, 2, 1);
    grid->addWidget(label(tr("Timeout"), f.timeout), 2, 2);
    grid->addWidget(f.timeout, 2, 3);
    grid->addWidget(label(tr("From"), f.from), 2, 4);
    grid->addWidget(f.from, 2, 5);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 1);
    grid->setColumnStretch(5, 1);
    form->addLayout(grid);

    f.argView = new QTableView(config);
    f.argView->setObjectName(QStringLiteral("argTable"));
    f.argView->setModel(args);
    f.argView->verticalHeader()->hide();
    f.argView->verticalHeader()->setDefaultSectionSize(f.argView->fontMetrics().height() + 6);
    f.argView->setEditTriggers(QAbstractItemView::AllEditTriggers);
    f.argView->setSelectionMode(QAbstractItemView::SingleSelection);
    f.argView->setWordWrap(false);
    auto* h = f.argView->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setStretchLastSection(true);
    f.argView->setColumnWidth(ArgTableModel::IndexColumn, 26);
    f.argView->setColumnWidth(ArgTableModel::IrColumn, 56);
    f.argView->setColumnWidth(ArgTableModel::ParamColumn, 120);
    f.argView->setColumnWidth(ArgTableModel::PtxColumn, 84);
    f.argView->setMinimumHeight(f.argView->verticalHeader()->defaultSectionSize() * 2 + h->sizeHint().height() + 4);
    form->addWidget(f.argView, 1);

    f.message = new QLabel(config);
    f.message->setObjectName(QStringLiteral("runMessage"));
    f.message->setWordWrap(true);
    f.message->setStyleSheet(errorStyle());
    f.message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    f.message->hide();
    form->addWidget(f.message);

    auto* results = new QWidget;
    auto* resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(4, 4, 4, 4);
    resultsLayout->setSpacing(4);
    // Run heads the results, with what stops it or how long the run in flight has taken beside it.
    auto* runRow = new QHBoxLayout;
    f.run = new QPushButton(runIcon, tr("Run"), results);
    f.run->setObjectName(QStringLiteral("runButton"));
    f.run->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    f.note = new QLabel(results);
    f.note->setObjectName(QStringLiteral("runNote"));
    f.note->setWordWrap(true);
    // Both can hold a kernel's name: they wrap to the dock's width and never widen it.
    f.note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    f.note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    runRow->addWidget(f.run, 0, Qt::AlignLeft | Qt::AlignTop);
    runRow->addWidget(f.note, 1);
    resultsLayout->addLayout(runRow);
    f.summary = new QLabel(results);
    f.summary->setObjectName(QStringLiteral("runSummary"));
    f.summary->setWordWrap(true);
    f.summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    f.summary->setTextFormat(Qt::RichText);
    f.summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    resultsLayout->addWidget(f.summary);
    f.buffers = new QTabWidget(results);
    f.buffers->setObjectName(QStringLiteral("bufferTabs"));
    f.buffers->setDocumentMode(true);
    f.buffers->setUsesScrollButtons(true);
    f.buffers->hide();
    resultsLayout->addWidget(f.buffers, 1);
    resultsLayout->addStretch(0);

    f.history = new RunHistory;

    auto* split = new QSplitter(Qt::Horizontal, panel);
    split->setObjectName(QStringLiteral("runSplitter"));
    split->addWidget(config);
    split->addWidget(results);
    split->addWidget(f.history);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 0);
    split->setCollapsible(0, false);
    split->setSizes({500, 700, 230});
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    return f;
}

}  // namespace nvpg::gui
