#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include <QWidget>

#include "core/gpu/Occupancy.h"
#include "core/gpu/RunConfig.h"
#include "core/pipeline/CompileResult.h"
#include "core/pipeline/Report.h"

class QBarSet;
class QChartView;
class QComboBox;
class QHorizontalBarSeries;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QSpinBox;
class QTableWidget;
class QToolButton;
class QsciScintilla;

namespace nvpg::gui {

class CompileController;

// The Analysis dock: for one kernel of the shown compile, what it spends its instructions on
// (pipeline::mixesOf: the SASS's classes, the PTX's without nvdisasm) as a bar chart, and its
// theoretical occupancy (gpu::occupancySweep over 32..1024 threads) as a line chart with the
// launch's block size marked, beside a table of gpu::computeOccupancy's figures at that block.
// The launch is the Runs dock's configuration for the kernel, else the workspace's first saved
// one that launches it, else 128 threads without dynamic shared memory; the block spin box tries
// another size until the configuration changes. Each chart's info button explains it (the
// "view" doc entries, resources/docs/view.json). Every figure is core's; the panel only shows it.
class AnalysisPanel : public QWidget {
    Q_OBJECT

public:
    // The block size when no run configuration launches the kernel.
    static constexpr int kDefaultBlock = 128;
    // Shows each compile's result: the PTX mix and occupancy with the plain result, the SASS mix
    // with the complete one.
    void attach(CompileController* controller);

    explicit AnalysisPanel(QWidget* parent = nullptr);

    // Each result the window shows: the plain one, then the complete one with its SASS.
    void setResult(std::shared_ptr<const pipeline::CompileResult> result);
    void clear();
    // The Runs dock's configuration as edited, and the workspace's saved configurations.
    void setRunConfigs(const gpu::RunConfig& editing, std::vector<gpu::RunConfig> saved);
    // The kernel to show when the user has not chosen one: the one under the editor's caret.
    void setPreferredKernel(const QString& symbol);
    // The same from the caret at 0-based `line` of an IR editor: the kernel whose define is
    // nearest at or above it (inspect::functionAtLine).
    void preferKernelAt(QsciScintilla* editor, int line);
    // Whether the app found a GPU: what the driver's figure needs.
    void setGpuAvailable(bool available);

    QString kernel() const;  // the symbol shown; empty when none
    int blockSize() const;
    std::size_t dynamicShared() const { return dynamicShared_; }
    // Where the block size comes from: "Runs dock", "saved configuration NAME", "default".
    QString launchSource() const { return launchSource_; }
    // The figures shown: the sweep and the marked block's, when the kernel has ptxas' figures.
    const std::vector<gpu::Occupancy>& sweep() const { return sweep_; }
    const std::optional<gpu::Occupancy>& marked() const { return marked_; }

    QComboBox* kernelCombo() const { return kernel_; }
    QSpinBox* blockSpin() const { return block_; }
    QChartView* mixChart() const { return mixView_; }
    QChartView* occupancyChart() const { return occupancyView_; }
    QHorizontalBarSeries* mixSeries() const { return mixSeries_; }
    QLineSeries* occupancySeries() const { return occupancySeries_; }
    QScatterSeries* markSeries() const { return markSeries_; }
    QTableWidget* occupancyTable() const { return table_; }
    QLabel* mixHeader() const { return mixHeader_; }
    QLabel* occupancyHeader() const { return occupancyHeader_; }
    QToolButton* mixInfoButton() const { return mixInfo_; }
    QToolButton* occupancyInfoButton() const { return occupancyInfo_; }
    // The mix chart's bars: class label → count, in the chart's order.
    std::vector<std::pair<QString, int>> mixBars() const;
    // The table's value in the row whose figure is `figure`; empty when there is no such row.
    QString tableValue(const QString& figure) const;

    // The name the mix chart gives a class.
    static QString className(inspect::MixClass c);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildUi();
    void refresh();  // the result's mix and kernels, once shown
    void rebuildKernels();
    void chooseLaunch();
    void showMix();
    void showOccupancy();
    void applyChartFonts();
    const pipeline::Kernel* currentKernel() const;

    std::shared_ptr<const pipeline::CompileResult> result_;
    pipeline::Mixes mixes_;
    gpu::RunConfig editing_;
    std::vector<gpu::RunConfig> saved_;
    QString preferred_;
    QString chosen_;      // the user's pick in the combo, kept across compiles
    bool stale_ = false;  // result_ came while hidden: its mix is not read yet
    bool gpu_ = false;
    bool blockEdited_ = false;  // the spin box holds the user's size, not the launch's
    std::size_t dynamicShared_ = 0;
    QString launchSource_;
    std::vector<gpu::Occupancy> sweep_;
    std::optional<gpu::Occupancy> marked_;

    QComboBox* kernel_ = nullptr;
    QSpinBox* block_ = nullptr;
    QLabel* launch_ = nullptr;
    QLabel* mixHeader_ = nullptr;
    QLabel* occupancyHeader_ = nullptr;
    QToolButton* mixInfo_ = nullptr;
    QToolButton* occupancyInfo_ = nullptr;
    QChartView* mixView_ = nullptr;
    QChartView* occupancyView_ = nullptr;
    QHorizontalBarSeries* mixSeries_ = nullptr;
    QLineSeries* occupancySeries_ = nullptr;
    QLineSeries* markLine_ = nullptr;
    QScatterSeries* markSeries_ = nullptr;
    QTableWidget* table_ = nullptr;
};

}  // namespace nvpg::gui
