// The Analysis dock with the real engine: on libdevice-math, the instruction-mix bars are core's
// mix of the kernel (SASS with nvdisasm, else PTX, saying so) and sum to its instruction count;
// the occupancy chart is core's sweep over 32..1024 threads, the mark sits at the run
// configuration's block, the table has computeOccupancy's figures there, and both follow the Runs
// dock's block and the panel's own; the info buttons open their docs; the zoom reaches the charts.
#include <QtTest>

#include <QAbstractAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QMenuBar>
#include <QScatterSeries>
#include <QSpinBox>
#include <QTableWidget>
#include <QToolButton>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "core/gpu/ArchLimits.h"
#include "core/gpu/Occupancy.h"
#include "core/pipeline/Report.h"
#include "core/pipeline/ResultJson.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/SymbolNames.h"
#include "gui/panels/AnalysisPanel.h"
#include "gui/panels/RunPanel.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {

// Opens an example and waits for its complete result (with its SASS, where there is nvdisasm).
std::shared_ptr<const pipeline::CompileResult> openComplete(MainWindow& w, const QString& example) {
    QSignalSpy lates(w.controller(), &CompileController::lateShown);
    if (!w.openExample(example)) qFatal("cannot open %s", qPrintable(example));
    if (lates.isEmpty() && !lates.wait(120000)) qFatal("no complete result");
    return lates.last().at(1).value<std::shared_ptr<const pipeline::CompileResult>>();
}

const pipeline::Kernel* kernelNamed(const pipeline::CompileResult& r, const QString& name) {
    for (const auto& k : r.kernels)
        if (QString::fromStdString(k.name) == name) return &k;
    return nullptr;
}

gpu::OccupancyInput inputOf(const pipeline::Kernel& k, int block, std::size_t dynamicShared) {
    gpu::OccupancyInput in;
    in.registers = k.usage->registers;
    in.staticShared = std::size_t(k.usage->sharedBytes);
    in.barriers = k.usage->barriers;
    in.blockSize = block;
    in.dynamicShared = dynamicShared;
    return in;
}

double pointsOf(const QWidget* w) {
    return QFontInfo(w->font()).pointSizeF();
}

}  // namespace

class TestAnalysis : public QObject {
    Q_OBJECT

    // The table and the mark show computeOccupancy's figures at `block`.
    void checkMarked(AnalysisPanel* panel, const pipeline::CompileResult& r, const pipeline::Kernel& k, int block) {
        const auto limits = gpu::ArchLimits::forArch(r.arch);
        QVERIFY2(limits, limits ? "" : limits.error().message.c_str());
        const auto o = gpu::computeOccupancy(*limits, inputOf(k, block, panel->dynamicShared()));
        QVERIFY(o);
        QCOMPARE(panel->blockSize(), block);
        QVERIFY(panel->marked());
        QCOMPARE(panel->marked()->activeBlocks, o->activeBlocks);
        QCOMPARE(panel->marked()->limiters, o->limiters);
        const auto mark = panel->markSeries()->points();
        QCOMPARE(mark.size(), qsizetype(1));
        QCOMPARE(mark[0].x(), double(block));
        QCOMPARE(mark[0].y(), o->occupancy * 100);
        QCOMPARE(panel->tableValue("Active blocks per SM"), QString::number(o->activeBlocks));
        QCOMPARE(panel->tableValue("Active warps per SM"), QString("%1 of %2").arg(o->activeWarps).arg(o->maxWarps));
        QCOMPARE(panel->tableValue("Occupancy"), QString("%1 %").arg(o->occupancy * 100, 0, 'f', 1));
        QCOMPARE(panel->tableValue("Limited by"), QString::fromStdString(gpu::limiterNames(o->limiters)));
        QVERIFY(panel->tableValue("Block size").startsWith(QString("%1 threads").arg(block)));
    }

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_analysis");
    }

    // Behind the other bottom docks until asked for: the 1280x720 layout stays as it was.
    void closedUntilAsked() {
        auto w = test::makeWindow();
        QVERIFY(w->analysisDock());
        QVERIFY(!w->analysisDock()->isVisible());
        QAction* toggle = w->analysisDock()->toggleViewAction();
        QMenu* view = nullptr;
        for (auto* a : w->menuBar()->actions())
            if (a->text() == "&View") view = a->menu();
        QVERIFY(view);
        QVERIFY(view->actions().contains(toggle));
        toggle->trigger();
        // In front of the tabs it shares, not only listed among them.
        QVERIFY(w->analysisDock()->isVisible());
        QTRY_VERIFY(!w->analysisDock()->visibleRegion().isEmpty());
        QCOMPARE(w->analysisPanel()->kernelCombo()->count(), 0);
        QVERIFY(w->analysisPanel()->mixHeader()->text().contains("compile"));
    }

    void mixIsCoresMixOfTheKernel() {
        auto w = test::makeWindow();
        const auto r = openComplete(*w, "libdevice-math");
        QVERIFY(r && r->ok);
        auto* panel = w->analysisPanel();
        // Closed, it leaves the results alone; opened, it reads the one shown.
        QCOMPARE(panel->kernelCombo()->count(), 0);
        w->analysisDock()->show();
        w->analysisDock()->raise();
        QCOMPARE(panel->kernel(), QString("wave"));
        QCOMPARE(panel->kernelCombo()->currentText(), SymbolNames::shown("wave"));

        const auto mixes = pipeline::mixesOf(*r);
        // The suite runs with nvdisasm's wheel on PATH (nvpg_test_uses_nvdisasm): SASS then.
        if (qEnvironmentVariableIsSet("NVPG_TEST_PYTHON")) QCOMPARE(mixes.source, std::string("sass"));
        const auto* mix = mixes.find("wave");
        QVERIFY(mix);
        const auto bars = panel->mixBars();
        int sum = 0;
        size_t listed = 0;
        for (size_t c = 0; c < inspect::kMixClasses; ++c) {
            const QString name = AnalysisPanel::className(inspect::MixClass(c));
            const auto bar = std::find_if(bars.begin(), bars.end(), [&](const auto& b) { return b.first == name; });
            if (mix->counts[c] == 0) {
                QVERIFY2(bar == bars.end(), qPrintable(name + " has a bar without instructions"));
                continue;
            }
            QVERIFY2(bar != bars.end(), qPrintable(name + " has no bar"));
            QCOMPARE(bar->second, mix->counts[c]);
            sum += bar->second;
            ++listed;
        }
        QCOMPARE(bars.size(), listed);
        QVERIFY(listed >= 4);  // libdevice's sinf, expf, powf: memory, FP32, integer, control flow
        QCOMPARE(sum, mix->total());
        // Listed top down in the class order.
        QCOMPARE(bars.front().first, AnalysisPanel::className(inspect::MixClass::GlobalMemory));
        if (mixes.source == "sass") {
            int instructions = 0;
            for (const auto& f : r->sassFunctions)
                if (f.isEntry && f.name == "wave") instructions = f.instructions;
            QCOMPARE(sum, instructions);
            QVERIFY(panel->mixHeader()->text().contains("from the SASS"));
        } else {
            QVERIFY2(panel->mixHeader()->text().contains("from the PTX"), qPrintable(panel->mixHeader()->text()));
        }
        QVERIFY(panel->mixHeader()->text().contains(QString::number(mix->total())));
    }

    void occupancyIsCoresSweepAndFollowsTheBlock() {
        auto w = test::makeWindow();
        const auto r = openComplete(*w, "libdevice-math");
        QVERIFY(r && r->ok);
        w->analysisDock()->show();
        w->analysisDock()->raise();
        auto* panel = w->analysisPanel();
        const auto* k = kernelNamed(*r, panel->kernel());
        QVERIFY2(k && k->usage,
                 qPrintable(QStringLiteral("kernel '%1' of %2 kernels; arch %3 (%4); figures: %5 / %6; "
                                           "PTX figures of %7 functions from '%8'; LTO figures of %9 functions "
                                           "from '%10'; stages %11")
                                .arg(panel->kernel())
                                .arg(r->kernels.size())
                                .arg(QString::fromStdString(r->arch), QString::fromStdString(r->archSource),
                                     QString::fromStdString(r->ptxFigures.unavailable),
                                     QString::fromStdString(r->ltoFigures.unavailable))
                                .arg(r->ptxFigures.functions.size())
                                .arg(QString::fromStdString(r->ptxFigures.source))
                                .arg(r->ltoFigures.functions.size())
                                .arg(QString::fromStdString(r->ltoFigures.source))
                                .arg(QString::fromStdString(pipeline::stagesToJson(r->stages).dump()))));
        const auto limits = gpu::ArchLimits::forArch(r->arch);
        QVERIFY(limits);

        // The saved configuration "wave 4096" launches 256 threads without dynamic shared memory.
        QCOMPARE(w->runPanel()->currentConfig().kernel, std::string("wave"));
        QCOMPARE(panel->blockSize(), 256);
        QCOMPARE(panel->dynamicShared(), std::size_t(0));
        const auto sweep = gpu::occupancySweep(*limits, inputOf(*k, 256, 0));
        QVERIFY(sweep);
        const auto points = panel->occupancySeries()->points();
        QCOMPARE(points.size(), qsizetype(32));
        QCOMPARE(sweep->size(), size_t(32));
        for (int i = 0; i < 32; ++i) {
            QCOMPARE(points[i].x(), double(32 * (i + 1)));
            QCOMPARE(points[i].x(), double((*sweep)[i].blockSize));
            QCOMPARE(points[i].y(), (*sweep)[i].occupancy * 100);
        }
        checkMarked(panel, *r, *k, 256);
        QVERIFY(panel->tableValue("Arch limits").contains(QString::fromStdString(limits->arch)));
        QCOMPARE(panel->tableValue("Cited from"), QString::fromStdString(limits->source));
        // The driver's figure is not made up: without a GPU the panel says it needs one, with one
        // it says the app does not ask for it.
        panel->setGpuAvailable(false);
        QCOMPARE(panel->tableValue("Driver's figure"), QString("needs a GPU"));
        panel->setGpuAvailable(true);
        QVERIFY(panel->tableValue("Driver's figure").contains("not asked"));

        // The Runs dock's block moves the mark and the table.
        w->runPanel()->blockEdit()->setText("512");
        checkMarked(panel, *r, *k, 512);
        w->runPanel()->blockEdit()->setText("16,16");
        checkMarked(panel, *r, *k, 256);
        // So does the panel's own spin box, until the configuration changes again.
        panel->blockSpin()->setValue(96);
        checkMarked(panel, *r, *k, 96);
        w->runPanel()->blockEdit()->setText("1024");
        checkMarked(panel, *r, *k, 1024);
        // Dynamic shared memory is the configuration's too: the sweep changes with it.
        w->runPanel()->sharedSpin()->setValue(48 * 1024);
        QCOMPARE(panel->dynamicShared(), std::size_t(48 * 1024));
        checkMarked(panel, *r, *k, 1024);
        const auto withShared = gpu::occupancySweep(*limits, inputOf(*k, 1024, 48 * 1024));
        QVERIFY(withShared);
        QCOMPARE(panel->occupancySeries()->points().at(0).y(), withShared->front().occupancy * 100);
    }

    // A kernel no configuration launches is shown at 128 threads.
    void defaultBlockWithoutAConfiguration() {
        auto w = test::makeWindow();
        const auto r = openComplete(*w, "saxpy");
        QVERIFY(r && r->ok);
        w->analysisDock()->show();
        auto* panel = w->analysisPanel();
        QVERIFY(!panel->kernel().isEmpty());
        panel->setRunConfigs(gpu::RunConfig{}, {});
        QCOMPARE(panel->blockSize(), AnalysisPanel::kDefaultBlock);
        QVERIFY(panel->launchSource().contains("no run configuration"));
        checkMarked(panel, *r, *kernelNamed(*r, panel->kernel()), AnalysisPanel::kDefaultBlock);
    }

    // The kernel whose define holds the caret, until the user picks one.
    void kernelUnderTheCaret() {
        auto w = test::makeWindow();
        const auto r = openComplete(*w, "lto-kept");
        QVERIFY(r && r->kernels.size() == 2);
        auto* editor = static_cast<QsciScintilla*>(w->editors()->currentEditor());
        const int shift = test::lineContaining(editor, "define void @shift");
        QVERIFY(shift > 0);
        editor->setCursorPosition(shift + 2, 0);
        w->analysisDock()->toggleViewAction()->trigger();
        auto* panel = w->analysisPanel();
        QCOMPARE(panel->kernelCombo()->count(), 2);
        QCOMPARE(panel->kernel(), QString("shift"));
        // Picked in the combo, it stays through the next compile wherever the caret is.
        const int scale = panel->kernelCombo()->findData(QString("scale"));
        QVERIFY(scale >= 0);
        panel->kernelCombo()->setCurrentIndex(scale);
        emit panel->kernelCombo()->activated(scale);
        QCOMPARE(panel->kernel(), QString("scale"));
        QSignalSpy replies(w->controller(), &CompileController::replyShown);
        w->controller()->compileNow();
        QVERIFY(replies.wait(120000));
        QCOMPARE(panel->kernel(), QString("scale"));
    }

    // The panel's own reading of a caret (inspect::functionAtLine): the define at or above it.
    void preferKernelAtReadsTheDefineAboveTheCaret() {
        auto w = test::makeWindow();
        const auto r = openComplete(*w, "lto-kept");
        QVERIFY(r && r->kernels.size() == 2);
        auto* editor = static_cast<QsciScintilla*>(w->editors()->currentEditor());
        const int shift = test::lineContaining(editor, "define void @shift");
        const int scale = test::lineContaining(editor, "define void @scale");
        QVERIFY(shift > 0 && scale > 0);
        w->analysisDock()->show();
        auto* panel = w->analysisPanel();
        QCOMPARE(panel->kernelCombo()->count(), 2);
        panel->preferKernelAt(editor, shift + 1);
        QCOMPARE(panel->kernel(), QString("shift"));
        panel->preferKernelAt(editor, scale);  // the define's own line
        QCOMPARE(panel->kernel(), QString("scale"));
        // Above every define: no kernel to prefer, the last one stays.
        panel->preferKernelAt(editor, 0);
        QCOMPARE(panel->kernel(), QString("scale"));
    }

    void infoButtonsOpenTheirDocs() {
        auto w = test::makeWindow();
        w->analysisDock()->show();
        w->analysisDock()->raise();
        auto* panel = w->analysisPanel();
        for (auto [button, title] : {std::pair{panel->occupancyInfoButton(), "theoretical occupancy"},
                                     std::pair{panel->mixInfoButton(), "what a kernel spends its instructions on"}}) {
            QTRY_VERIFY(button->isVisible());
            QTest::mouseClick(button, Qt::LeftButton);
            QLabel* popover = nullptr;
            QTRY_VERIFY((popover = panel->findChild<QLabel*>("docPopover")) && popover->isVisible());
            QVERIFY2(popover->text().contains(title), qPrintable(popover->text()));
            QVERIFY(popover->text().contains("https://docs.nvidia.com/"));
            popover->close();
            QTRY_VERIFY(!panel->findChild<QLabel*>("docPopover"));
        }
    }

    void zoomReachesTheCharts() {
        auto w = test::makeWindow();
        const auto r = openComplete(*w, "libdevice-math");
        QVERIFY(r);
        w->analysisDock()->show();
        w->analysisDock()->raise();
        auto* panel = w->analysisPanel();
        const auto axisPoints = [&] {
            return panel->occupancyChart()->chart()->axes().at(0)->labelsFont().pointSizeF();
        };
        const double before = pointsOf(panel->occupancyTable()), axisBefore = axisPoints();
        auto* editor = static_cast<QsciScintilla*>(w->editors()->currentEditor());
        for (int i = 0; i < 3; ++i) QTest::keyClick(editor, Qt::Key_Equal, Qt::ControlModifier);
        QVERIFY2(pointsOf(panel->occupancyTable()) >= before + 2,
                 qPrintable(QString("%1 -> %2").arg(before).arg(pointsOf(panel->occupancyTable()))));
        QVERIFY2(axisPoints() >= axisBefore + 2, qPrintable(QString("%1 -> %2").arg(axisBefore).arg(axisPoints())));
        QTest::keyClick(editor, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(axisPoints(), axisBefore);
    }
};

QTEST_MAIN(TestAnalysis)
#include "tst_analysis.moc"
