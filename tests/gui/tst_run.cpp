// The Run panel: the argument table follows the compiled kernel's parameters with SPECs filled
// in from the IR's types, problems are marked where they are and keep Run disabled, saved
// configurations live in the workspace, results (time, bandwidth, paged buffers, plots, history)
// show what the engine replied, and the window keeps working while a run is in flight.
//
// A fake engine isolates the panel where a GPU's answers are needed (this build machine has
// none); the real SupervisedEngine proves the compile and the no-GPU path, and runs saxpy for real
// where a GPU is present.
#include <QAbstractItemModelTester>
#include <QtTest>

#include <cstring>
#include <functional>

#include <QAction>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>

#include "TestSupport.h"
#include "core/pipeline/Pipeline.h"
#include "core/workspace/Workspace.h"
#include "gui/compile/CompileController.h"
#include "gui/compile/SupervisedEngine.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/panels/BufferView.h"
#include "gui/panels/RunPanel.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {

// Answers runs as the test says, after a delay, from the UI thread's event loop.
class FakeEngine : public Engine {
public:
    bool gpu = true;
    int delayMs = 0;
    std::vector<RunRequest> runs;
    std::function<RunReply(const RunRequest&)> answer;

    void submit(const pipeline::Job&) override {}
    void cancel(quint64) override {}
    void setToolkit(std::shared_ptr<const toolkit::Toolkit>, const QString&) override {}
    void run(const RunRequest& request) override {
        runs.push_back(request);
        if (!answer) return;
        const RunReply reply = answer(request);
        QTimer::singleShot(delayMs, this, [this, reply] { emit runReplied(reply); });
    }
    void probeGpu() override { setGpuStatus(gpu, gpu ? QString() : QStringLiteral("no GPU in this fake")); }
};

workspace::Workspace saxpyWorkspace(bool withRuns) {
    auto ws = workspace::loadWorkspace(test::examplesDir() / "saxpy.nvpg");
    if (!ws) qFatal("%s", ws.error().message.c_str());
    if (!withRuns) ws->runs.clear();
    return *ws;
}

// The saxpy example compiled by the real pipeline, as the window's compile reply carries it.
EngineReply compiled(const workspace::Workspace& ws) {
    static pipeline::Pipeline pipe(test::realToolkit());
    pipeline::Job job;
    job.modules = ws.modules;
    job.options = ws.options;
    job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin;
    auto r = pipe.run(job);
    if (!r) qFatal("%s", r.error().message.c_str());
    EngineReply reply;
    reply.generation = 1;
    reply.result = std::make_shared<const pipeline::CompileResult>(std::move(*r));
    return reply;
}

QString cell(const RunPanel& panel, int row, int column, int role = Qt::DisplayRole) {
    return panel.argModel()->index(row, column).data(role).toString();
}

void setSpec(RunPanel& panel, int row, const QString& spec) {
    QVERIFY(panel.argModel()->setData(panel.argModel()->index(row, ArgTableModel::ArgColumn), spec));
}

std::shared_ptr<const gpu::RunOutcome> outcomeWithFloats(size_t n) {
    auto o = std::make_shared<gpu::RunOutcome>();
    o->kernel = "saxpy";
    o->device = "NVIDIA H200";
    o->kernelMs = 0.0123;
    o->launchMs = {0.013, 0.0123, 0.012, 0.0125, 0.0121};
    o->bytesIn = 2 * n * 4;
    o->bytesOut = 2 * n * 4;
    gpu::BufferOut b;
    b.arg = 3;
    b.type = gpu::ElemType::F32;
    b.count = n;
    b.bytes.resize(n * 4);
    for (size_t i = 0; i < n; ++i) {
        const float v = 2.0f * float(i) + 1.0f;
        std::memcpy(b.bytes.data() + i * 4, &v, 4);
    }
    o->buffers.push_back(std::move(b));
    return o;
}

}  // namespace

class TestRun : public QObject {
    Q_OBJECT

    // A panel over the given engine and a document holding `ws`, with `reply` shown.
    struct Rig {
        WorkspaceDocument document;
        std::unique_ptr<RunPanel> panel;
        // Checks the argument table's model on every change the test drives (destroyed first).
        std::unique_ptr<QAbstractItemModelTester> argTester;
    };
    std::unique_ptr<Rig> rig(Engine& engine, workspace::Workspace ws, const EngineReply* reply) {
        auto r = std::make_unique<Rig>();
        r->document.reset(std::move(ws), {});
        r->panel = std::make_unique<RunPanel>(&engine, &r->document);
        r->argTester = std::make_unique<QAbstractItemModelTester>(
            r->panel->argModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        if (reply) r->panel->setCompiled(*reply);
        return r;
    }

private slots:
    void initTestCase() {
        test::isolateAppData("tst_gui_run");
        test::useNvpgAsEngine();
        QSettings().clear();
    }

    // Beside each PTX name (saxpy_param_2) the table shows the name the kernel's define gives
    // it (%x): the one a person wrote and reads in the IR.
    void argumentsShowTheirIrNames() {
        FakeEngine engine;
        engine.probeGpu();
        const auto ws = saxpyWorkspace(false);
        const auto reply = compiled(ws);
        auto r = rig(engine, ws, &reply);
        auto& p = *r->panel;
        auto* model = p.argModel();
        int irColumn = -1;
        for (int c = 0; c < model->columnCount(); ++c)
            if (model->headerData(c, Qt::Horizontal).toString() == "IR") irColumn = c;
        QVERIFY2(irColumn >= 0, "no IR column in the argument table");
        QCOMPARE(model->rowCount(), 4);
        const QStringList want{"%n", "%a", "%x", "%y"};
        for (int row = 0; row < 4; ++row) QCOMPARE(cell(p, row, irColumn), want[row]);
        QCOMPARE(cell(p, 2, ArgTableModel::ParamColumn), QString("saxpy_param_2"));
        QVERIFY2(cell(p, 2, irColumn, Qt::ToolTipRole).contains("%x in the IR, saxpy_param_2 in the PTX"),
                 qPrintable(cell(p, 2, irColumn, Qt::ToolTipRole)));
    }

    // On a machine without a GPU (this one) the Runs dock starts behind Problems, and the
    // bottom docks take a small part of the window, not a third of it.
    void runsDockStaysSmallWithoutAGpu() {
        QSettings().clear();
        MainWindow w;
        w.setSaveQuestion([] { return QMessageBox::Discard; });
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // The status bar's GPU label says when the GPU is known (before the fix it had no name:
        // then the wait is a plain two seconds).
        if (auto* gpu = w.findChild<QLabel*>("gpuStatus")) {
            QTRY_VERIFY_WITH_TIMEOUT(!gpu->text().isEmpty() && !gpu->text().contains("looking"), 30000);
            if (!gpu->text().contains("no GPU")) QSKIP("this machine has a GPU");
        } else {
            QTest::qWait(2000);
        }
        auto* runs = w.findChild<QDockWidget*>("runsDock");
        auto* problems = w.findChild<QDockWidget*>("problemsDock");
        QVERIFY(runs && problems);
        QTest::qWait(200);
        // A dock behind another's tab is "visible" to Qt; what shows is its region.
        QVERIFY2(runs->visibleRegion().isEmpty(), "the Runs dock is in front");
        QVERIFY(problems->isVisible() && !problems->visibleRegion().isEmpty());
        QVERIFY2(problems->height() < w.height() / 4,
                 qPrintable(QStringLiteral("bottom docks %1 of %2 px").arg(problems->height()).arg(w.height())));
    }

    void argumentRowsFollowTheKernelWithTypesFromTheIr() {
        FakeEngine engine;
        engine.probeGpu();
        const auto ws = saxpyWorkspace(false);
        const auto reply = compiled(ws);
        auto r = rig(engine, ws, &reply);
        auto& p = *r->panel;
        QCOMPARE(p.kernelCombo()->count(), 1);
        QCOMPARE(p.kernelCombo()->currentText(), QString("saxpy"));
        QCOMPARE(p.argModel()->rowCount(), 4);
        QCOMPARE(cell(p, 0, ArgTableModel::ParamColumn), QString("saxpy_param_0"));
        QCOMPARE(cell(p, 0, ArgTableModel::PtxColumn), QString(".u32 (4 B)"));
        QCOMPARE(cell(p, 2, ArgTableModel::PtxColumn), QString(".u64 (8 B)"));
        QCOMPARE(cell(p, 0, ArgTableModel::ArgColumn), QString("u32:1024"));
        QCOMPARE(cell(p, 1, ArgTableModel::ArgColumn), QString("f32:1"));
        // float* in the IR: f32 buffers, not a guess.
        QCOMPARE(cell(p, 2, ArgTableModel::ArgColumn), QString("buf:f32:1024:zeros"));
        QCOMPARE(cell(p, 3, ArgTableModel::ArgColumn), QString("buf:f32:1024:zeros"));
        QVERIFY(p.argModel()->rows()[2].hint.isEmpty());
        QCOMPARE(p.argModel()->rows()[2].irType, QString("float*"));
        QVERIFY(p.problems().isEmpty());
        QCOMPARE(p.gridEdit()->text(), QString("4"));
        QCOMPARE(p.blockEdit()->text(), QString("256"));
        QVERIFY2(p.runButton()->isEnabled(), qPrintable(p.runBlockers().join('\n')));
        QVERIFY(p.runAction()->isEnabled());
        // LTO is offered: this compile made a cubin.
        QVERIFY(!reply.result->cubin.empty());
        p.fromCombo()->setCurrentIndex(1);
        QVERIFY(p.problems().isEmpty());
        QVERIFY(p.currentConfig().fromLto);
    }

    void withoutTheIrPointersAreGuessedAndSaySo() {
        FakeEngine engine;
        engine.probeGpu();
        auto ws = saxpyWorkspace(false);
        const auto reply = compiled(ws);
        ws.modules.clear();  // as if the kernel came from a bitcode module: no IR text to read
        auto r = rig(engine, ws, &reply);
        QCOMPARE(cell(*r->panel, 2, ArgTableModel::ArgColumn), QString("buf:f32:1024:zeros"));
        QVERIFY(cell(*r->panel, 2, ArgTableModel::ArgColumn, Qt::ToolTipRole).contains("guess"));
        // An edit makes it the user's choice.
        setSpec(*r->panel, 2, "buf:f32:1024:iota");
        QVERIFY(cell(*r->panel, 2, ArgTableModel::ArgColumn, Qt::ToolTipRole).indexOf("guess") < 0);
    }

    void aBadSpecMarksItsCellAndDisablesRun() {
        FakeEngine engine;
        engine.probeGpu();
        const auto ws = saxpyWorkspace(false);
        const auto reply = compiled(ws);
        auto r = rig(engine, ws, &reply);
        auto& p = *r->panel;
        setSpec(p, 1, "f32:abc");
        const auto& row = p.argModel()->rows()[1];
        QVERIFY(!row.error.isEmpty());
        QVERIFY(row.error.startsWith("argument 1: "));
        QCOMPARE(p.argModel()->index(1, ArgTableModel::ArgColumn).data(Qt::BackgroundRole).value<QColor>(),
                 QColor(0xff, 0xd6, 0xd6));
        QCOMPARE(cell(p, 1, ArgTableModel::ArgColumn, Qt::ToolTipRole), row.error);
        QVERIFY(p.messageLabel()->isVisibleTo(&p));
        QVERIFY(p.messageLabel()->text().contains("f32:abc"));
        QVERIFY(!p.runButton()->isEnabled());
        QVERIFY(!p.runAction()->isEnabled());
        QVERIFY(p.runButton()->toolTip().contains("f32:abc"));
        QVERIFY(!p.saveButton()->isEnabled());  // what does not parse cannot be saved
        // Other cells stay as they were.
        QVERIFY(p.argModel()->rows()[0].error.isEmpty());
        setSpec(p, 1, "f32:2.5");
        QVERIFY(p.argModel()->rows()[1].error.isEmpty());
        QVERIFY(!p.messageLabel()->isVisibleTo(&p));
        QVERIFY(p.runButton()->isEnabled());
    }

    void configurationsThatDoNotFitTheKernelAreExplained() {
        FakeEngine engine;
        engine.probeGpu();
        const auto ws = saxpyWorkspace(false);
        const auto reply = compiled(ws);
        auto r = rig(engine, ws, &reply);
        auto& p = *r->panel;
        // An 8-byte value for the 4-byte .u32: core's message, on row 0.
        setSpec(p, 0, "i64:5");
        const auto error = p.argModel()->rows()[0].error;
        QVERIFY2(error.contains("argument 0 (i64:5)"), qPrintable(error));
        QVERIFY2(error.contains("8 bytes but the parameter is 4"), qPrintable(error));
        QVERIFY(p.messageLabel()->text().contains("8 bytes but the parameter is 4"));
        // A buffer for the float: on row 1, numbered 1.
        setSpec(p, 1, "buf:f32:16:zeros");
        QVERIFY2(p.argModel()->rows()[1].error.contains("argument 1 (buf:f32:16:zeros)"),
                 qPrintable(p.argModel()->rows()[1].error));
        QVERIFY(!p.runButton()->isEnabled());
        setSpec(p, 0, "i32:5");
        setSpec(p, 1, "f32:2");
        QVERIFY(p.problems().isEmpty());
        // The launch shape: too many threads, and a size that does not parse.
        p.blockEdit()->setText("64,32");
        QVERIFY2(p.messageLabel()->text().contains("at most 1024"), qPrintable(p.messageLabel()->text()));
        QVERIFY(!p.blockEdit()->styleSheet().isEmpty());
        QVERIFY(!p.runButton()->isEnabled());
        p.blockEdit()->setText("256");
        p.gridEdit()->setText("0");
        QVERIFY(p.messageLabel()->text().contains("grid '0'"));
        QVERIFY(!p.gridEdit()->styleSheet().isEmpty());
        p.gridEdit()->setText("16");
        QVERIFY(p.gridEdit()->styleSheet().isEmpty());
        QVERIFY(p.runButton()->isEnabled());
        // A kernel the compile does not have (a saved configuration of another version).
        auto config = p.currentConfig();
        config.kernel = "saxpy2";
        p.loadConfig(config);
        QVERIFY(p.kernelCombo()->currentText().contains("not in this compile"));
        // The words nvpg run uses (pipeline::findKernel), not a second set.
        QVERIFY(p.messageLabel()->text().contains("there is no kernel saxpy2; the kernels are saxpy"));
        QVERIFY(!p.runButton()->isEnabled());
        p.kernelCombo()->activated(p.kernelCombo()->findData("saxpy"));
        QVERIFY(p.problems().isEmpty());
    }

    void configurationsAreSavedInTheWorkspace() {
        FakeEngine engine;
        engine.probeGpu();
        const auto ws = saxpyWorkspace(false);
        const auto reply = compiled(ws);
        auto r = rig(engine, ws, &reply);
        auto& p = *r->panel;
        QVERIFY(!p.deleteButton()->isEnabled());
        setSpec(p, 2, "buf:f32:1024:iota");
        p.gridEdit()->setText("8");
        p.blockEdit()->setText("128");
        p.repeatSpin()->setValue(5);
        p.nameEdit()->setText("mine");
        QVERIFY(p.saveButton()->isEnabled());
        QVERIFY(p.saveConfig());
        QVERIFY(r->document.isModified());
        const auto& runs = r->document.workspace().runs;
        QCOMPARE(runs.size(), size_t(1));
        const auto* back = &runs[0];
        QCOMPARE(back->name, std::string("mine"));
        QCOMPARE(back->kernel, std::string("saxpy"));
        QCOMPARE(back->grid, (gpu::Dim3{8, 1, 1}));
        QCOMPARE(back->block, (gpu::Dim3{128, 1, 1}));
        QCOMPARE(back->repeat, 5);
        QCOMPARE(back->args.size(), size_t(4));
        QCOMPARE(back->args[2].text, std::string("buf:f32:1024:iota"));
        QCOMPARE(p.savedCombo()->currentText(), QString("mine"));
        // The same name replaces; another name adds.
        p.repeatSpin()->setValue(7);
        QVERIFY(p.saveConfig());
        QCOMPARE(r->document.workspace().runs.size(), size_t(1));
        QCOMPARE(r->document.workspace().runs[0].repeat, 7);
        p.nameEdit()->setText("other");
        QVERIFY(p.saveConfig());
        QCOMPARE(r->document.workspace().runs.size(), size_t(2));
        QCOMPARE(p.savedCombo()->count(), 2);
        // Choosing a saved one loads it into the editors.
        p.savedCombo()->activated(0);
        QCOMPARE(p.repeatSpin()->value(), 7);
        QCOMPARE(p.nameEdit()->text(), QString("mine"));
        p.deleteConfig();
        QCOMPARE(r->document.workspace().runs.size(), size_t(1));
        QCOMPARE(r->document.workspace().runs[0].name, std::string("other"));
        QCOMPARE(p.savedCombo()->count(), 1);
    }

    void aWorkspaceOpensWithItsFirstConfiguration() {
        FakeEngine engine;
        engine.probeGpu();
        const auto ws = saxpyWorkspace(true);
        auto r = rig(engine, ws, nullptr);
        auto& p = *r->panel;
        // Before the compile: the configuration is there, unchecked, and Run waits for a compile.
        QCOMPARE(p.savedCombo()->currentText(), QString("saxpy 4096"));
        QCOMPARE(p.gridEdit()->text(), QString("16"));
        QCOMPARE(p.blockEdit()->text(), QString("256"));
        QVERIFY(p.kernelCombo()->currentText().contains("saxpy"));
        QCOMPARE(p.argModel()->rowCount(), 4);
        QVERIFY(!p.runButton()->isEnabled());
        QVERIFY(p.runButton()->toolTip().contains("compile"));
        const auto reply = compiled(ws);
        p.setCompiled(reply);
        QCOMPARE(cell(p, 0, ArgTableModel::ArgColumn), QString("i32:4096"));
        QCOMPARE(cell(p, 2, ArgTableModel::ArgColumn), QString("buf:f32:4096:iota"));
        QCOMPARE(cell(p, 3, ArgTableModel::ArgColumn), QString("buf:f32:4096:const:1"));
        QCOMPARE(cell(p, 2, ArgTableModel::PtxColumn), QString(".u64 (8 B)"));
        QVERIFY(p.problems().isEmpty());
        QVERIFY(p.runButton()->isEnabled());
        // A failed compile keeps the table but stops runs until the next success.
        EngineReply failed;
        failed.generation = 2;
        failed.error = "libNVVM is not available";
        p.setCompiled(failed);
        QCOMPARE(p.argModel()->rowCount(), 4);
        QVERIFY(!p.runButton()->isEnabled());
        QVERIFY(p.runButton()->toolTip().contains("libNVVM is not available"));
        p.setCompiled(reply);
        QVERIFY(p.runButton()->isEnabled());
        // Another workspace without runs: back to defaults, filled in at its compile.
        r->document.reset(saxpyWorkspace(false), {});
        QCOMPARE(p.savedCombo()->count(), 0);
        QCOMPARE(p.argModel()->rowCount(), 0);
        p.setCompiled(reply);
        QCOMPARE(cell(p, 0, ArgTableModel::ArgColumn), QString("u32:1024"));
        // A saved entry that does not read never gets here: the workspace is refused when it
        // is read, saying /runs/0/grid (tst_workspace's "run with a bad grid").
    }

    void withoutAGpuRunIsDisabledAndSaysWhy() {
        // The real engine: compile on its thread, probe the GPU on its run thread.
        SupervisedEngine engine(test::realToolkit(), {});
        QSignalSpy status(&engine, &Engine::gpuStatus);
        QVERIFY(status.wait(30000));
        const bool gpu = status.last().at(0).toBool();
        const QString why = status.last().at(1).toString();

        const auto ws = saxpyWorkspace(true);
        WorkspaceDocument document;
        document.reset(ws, {});
        RunPanel panel(&engine, &document);
        QSignalSpy compiledSpy(&engine, &Engine::replied);
        pipeline::Job job;
        job.modules = ws.modules;
        job.options = ws.options;
        job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin;
        job.generation = 1;
        engine.submit(job);
        QVERIFY(compiledSpy.wait(120000));
        const auto reply = compiledSpy.last().at(0).value<EngineReply>();
        QVERIFY2(reply.result && reply.result->ok, qPrintable(reply.error));
        panel.setCompiled(reply);
        QVERIFY(panel.problems().isEmpty());

        QSignalSpy ran(&engine, &Engine::runReplied);
        if (!gpu) {
            QVERIFY2(why.contains("libcuda.so.1") || why.contains("no CUDA driver") || why.contains("no GPU"),
                     qPrintable(why));
            QVERIFY(!panel.runButton()->isEnabled());
            QVERIFY(!panel.runAction()->isEnabled());
            QVERIFY2(panel.runButton()->toolTip().contains("No GPU: " + why), qPrintable(panel.runButton()->toolTip()));
            QVERIFY(panel.noteLabel()->isVisibleTo(&panel));
            QCOMPARE(panel.noteLabel()->text(), "No GPU: " + why);
            // Asked anyway, the run thread answers with the driver's reason, as an environment
            // error.
            RunRequest request;
            request.id = 7;
            request.compiled = reply.result;
            request.config = panel.currentConfig();
            request.baseDir = panel.baseDir();
            engine.run(request);
            QVERIFY(ran.wait(30000));
            const auto answer = ran.last().at(0).value<RunReply>();
            QCOMPARE(answer.id, quint64(7));
            QVERIFY(!answer.outcome);
            QVERIFY(answer.kind == support::ErrorKind::Environment);
            QVERIFY2(answer.error.contains("libcuda.so.1") || answer.error.contains("GPU"), qPrintable(answer.error));
            return;
        }
        // On a GPU machine: saxpy for real, y = 2 * iota + 1.
        QVERIFY2(panel.runButton()->isEnabled(), qPrintable(panel.runBlockers().join('\n')));
        panel.runAction()->trigger();
        QVERIFY(panel.isBusy());
        QVERIFY(ran.wait(60000));
        QVERIFY(!panel.isBusy());
        QCOMPARE(panel.history()->count(), 1);
        const auto& rec = panel.history()->record(0);
        QVERIFY2(rec.outcome, qPrintable(rec.error));
        QCOMPARE(rec.outcome->buffers.size(), size_t(2));
        const auto& y = rec.outcome->buffers[1];
        float v = 0;
        std::memcpy(&v, y.bytes.data() + 4 * 100, 4);
        QCOMPARE(v, 201.0f);
        QVERIFY(panel.summaryLabel()->text().startsWith("saxpy on "));
        QCOMPARE(panel.bufferTabs()->count(), 2);
    }

    // A workspace's run configuration may name buffer files anywhere (buf:f32:@../../x.bin,
    // buf:@/home/me/secret.npy): the panel asks before a run reads files outside the workspace's
    // folder, naming them, and keeps the answer for that workspace for the session. Files inside
    // it are read without asking.
    void filesOutsideTheWorkspaceAreReadOnlyWhenTheUserSaysSo() {
        FakeEngine engine;
        engine.probeGpu();
        engine.answer = [](const RunRequest& request) {
            RunReply reply;
            reply.id = request.id;
            reply.error = "fake";
            return reply;
        };
        QTemporaryDir root;
        QVERIFY(QDir(root.path()).mkpath("ws"));
        for (const auto& name : {"ws/inside.bin", "outside.bin", "absolute.bin"}) {
            QFile f(root.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(64, '\0'));
        }
        const auto ws = saxpyWorkspace(false);
        const auto reply = compiled(ws);
        const auto run = [&](const QString& workspaceFile, bool answerRead, QStringList& asked) {
            auto r = rig(engine, ws, nullptr);
            r->document.reset(ws, workspaceFile);
            r->panel->setCompiled(reply);
            r->panel->setOutsideFilesQuestion([&asked, answerRead](const QString& text) {
                asked << text;
                return answerRead;
            });
            return r;
        };
        QStringList asked;
        auto r = run(root.filePath("ws/a.nvpg"), false, asked);
        auto& p = *r->panel;
        setSpec(p, 2, "buf:f32:@inside.bin");
        setSpec(p, 3, "buf:f32:@inside.bin");
        QVERIFY2(p.runBlockers().isEmpty(), qPrintable(p.runBlockers().join('\n')));
        p.runNow();
        QVERIFY(asked.isEmpty());
        QCOMPARE(engine.runs.size(), size_t(1));
        QTRY_VERIFY(!p.isBusy());

        setSpec(p, 2, "buf:f32:@../outside.bin");
        setSpec(p, 3, "buf:f32:@" + root.filePath("absolute.bin"));
        p.runNow();
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked[0].contains(root.filePath("outside.bin")) && asked[0].contains(root.filePath("absolute.bin")) &&
                     !asked[0].contains("inside.bin"),
                 qPrintable(asked[0]));
        QCOMPARE(engine.runs.size(), size_t(1));  // not read, not run
        QVERIFY2(p.messageLabel()->text().contains("outside the workspace's folder"),
                 qPrintable(p.messageLabel()->text()));
        p.runNow();  // the answer holds: not asked again
        QCOMPARE(asked.size(), 1);
        QCOMPARE(engine.runs.size(), size_t(1));

        // Another workspace asks anew; Read runs it, and holds too.
        QStringList askedB;
        auto rb = run(root.filePath("ws/b.nvpg"), true, askedB);
        auto& pb = *rb->panel;
        setSpec(pb, 2, "buf:f32:@../outside.bin");
        pb.runNow();
        QCOMPARE(askedB.size(), 1);
        QCOMPARE(engine.runs.size(), size_t(2));
        QCOMPARE(engine.runs.back().config.args[2].text, std::string("buf:f32:@../outside.bin"));
        QTRY_VERIFY(!pb.isBusy());
        pb.runNow();
        QCOMPARE(askedB.size(), 1);
        QCOMPARE(engine.runs.size(), size_t(3));
    }

    void aReplyShowsTimesBuffersPlotsAndHistory() {
        FakeEngine engine;
        engine.probeGpu();
        engine.answer = [](const RunRequest& request) {
            RunReply reply;
            reply.id = request.id;
            reply.outcome = outcomeWithFloats(2500);
            return reply;
        };
        const auto ws = saxpyWorkspace(true);
        const auto reply = compiled(ws);
        auto r = rig(engine, ws, &reply);
        auto& p = *r->panel;
        p.repeatSpin()->setValue(5);
        QVERIFY(p.runAction()->isEnabled());
        p.runAction()->trigger();
        QCOMPARE(engine.runs.size(), size_t(1));
        const auto& request = engine.runs[0];
        QCOMPARE(request.compiled.get(), reply.result.get());
        QCOMPARE(request.config.kernel, std::string("saxpy"));
        QCOMPARE(request.config.grid, (gpu::Dim3{16, 1, 1}));
        QCOMPARE(request.config.block, (gpu::Dim3{256, 1, 1}));
        QCOMPARE(request.config.repeat, 5);
        QCOMPARE(request.config.args.size(), size_t(4));
        QCOMPARE(request.config.args[3].text, std::string("buf:f32:4096:const:1"));
        QCOMPARE(request.baseDir, std::filesystem::current_path());  // unsaved: the current folder
        QVERIFY(p.isBusy());
        QVERIFY(!p.runButton()->isEnabled());
        p.runNow();  // ignored while one is in flight
        QCOMPARE(engine.runs.size(), size_t(1));

        QTRY_VERIFY(!p.isBusy());
        QCOMPARE(p.summaryLabel()->text(), QString("saxpy on NVIDIA H200: 0.0123 ms (median of 5), "
                                                   "19.5 KiB in, 19.5 KiB out, 0.8 GB/s"));
        QCOMPARE(p.bufferTabs()->count(), 1);
        QCOMPARE(p.bufferTabs()->tabText(0), QString("arg 3 f32[2500]"));
        auto* view = qobject_cast<BufferView*>(p.bufferTabs()->widget(0));
        QVERIFY(view);
        QAbstractItemModelTester bufferTester(view->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester historyTester(p.history()->list()->model(),
                                               QAbstractItemModelTester::FailureReportingMode::Fatal);
        QCOMPARE(view->model()->pageCount(), 3);
        QCOMPARE(view->model()->rowCount(), 1000);
        QCOMPARE(view->model()->index(1, 1).data().toString(), QString("3"));
        QVERIFY(view->pageLabel()->text().contains("page 1/3"));
        QVERIFY(!view->previousButton()->isEnabled());
        view->nextButton()->click();
        view->nextButton()->click();
        QCOMPARE(view->model()->page(), 2);
        QCOMPARE(view->model()->rowCount(), 500);
        QCOMPARE(view->model()->index(0, 0).data().toString(), QString("2000"));
        QCOMPARE(view->model()->index(0, 1).data().toString(), QString("4001"));
        QVERIFY(!view->nextButton()->isEnabled());
        QCOMPARE(view->series()->count(), 2500);
        QCOMPARE(view->series()->at(10), QPointF(10, 21));
        QCOMPARE(p.history()->count(), 1);
        QVERIFY(p.history()->list()->item(0)->text().contains("saxpy  16×256  0.0123 ms"));
        QVERIFY(p.runButton()->isEnabled());

        // A failed launch: the CUDA error up front, in red, and in the history.
        engine.answer = [](const RunRequest& request) {
            RunReply reply;
            reply.id = request.id;
            reply.kind = support::ErrorKind::Run;
            reply.error =
                "saxpy (grid 16, block 256): the launch failed: CUDA_ERROR_ILLEGAL_ADDRESS (an "
                "illegal "
                "memory access was encountered); the context was reset";
            return reply;
        };
        p.runAction()->trigger();
        QTRY_VERIFY(!p.isBusy());
        QVERIFY(p.summaryLabel()->text().contains("<b>CUDA_ERROR_ILLEGAL_ADDRESS</b>"));
        QVERIFY(p.summaryLabel()->text().contains("the context was reset"));
        QVERIFY(p.summaryLabel()->styleSheet().contains("#b00020"));
        QCOMPARE(p.bufferTabs()->count(), 0);
        QCOMPARE(p.history()->count(), 2);
        QVERIFY(p.history()->list()->item(0)->text().endsWith("CUDA_ERROR_ILLEGAL_ADDRESS"));
        // The earlier run, chosen in the history, shows again.
        p.history()->list()->setCurrentRow(1);
        QVERIFY(p.summaryLabel()->text().startsWith("saxpy on NVIDIA H200"));
        QCOMPARE(p.bufferTabs()->count(), 1);
    }

    void theHistoryIsBounded() {
        RunHistory history;
        QAbstractItemModelTester historyTester(history.list()->model(),
                                               QAbstractItemModelTester::FailureReportingMode::Fatal);
        for (int i = 0; i < RunHistory::kMaxRuns + 5; ++i) {
            RunRecord rec;
            rec.when = QDateTime::currentDateTime();
            rec.config.kernel = "k" + std::to_string(i);
            rec.outcome = outcomeWithFloats(16);
            history.add(rec);
        }
        QCOMPARE(history.count(), RunHistory::kMaxRuns);
        QCOMPARE(history.list()->count(), RunHistory::kMaxRuns);
        QCOMPARE(history.record(0).config.kernel, std::string("k24"));
    }

    void bigBuffersArePlottedWithTheirExtremes() {
        gpu::BufferOut b;
        b.type = gpu::ElemType::F16;
        b.count = 1'000'000;
        b.bytes.resize(b.count * 2);
        for (size_t i = 0; i < b.count; ++i) {
            const uint16_t h = gpu::halfFromDouble(i == 123457 ? 1000.0 : (i == 654321 ? -500.0 : 0.5));
            std::memcpy(b.bytes.data() + i * 2, &h, 2);
        }
        const auto points = BufferView::plotPoints(b);
        QVERIFY(points.size() <= BufferView::kMaxPlotPoints);
        QVERIFY(points.size() >= BufferView::kMaxPlotPoints / 2);
        bool spike = false, dip = false;
        for (qsizetype i = 0; i < points.size(); ++i) {
            if (i) QVERIFY(points[i].x() > points[i - 1].x());  // never runs backwards
            spike = spike || (points[i] == QPointF(123457, 1000));
            dip = dip || (points[i] == QPointF(654321, -500));
        }
        QVERIFY(spike);
        QVERIFY(dip);
        // Integers as numbers.
        gpu::BufferOut ints;
        ints.type = gpu::ElemType::I64;
        ints.count = 3;
        const int64_t vals[3] = {-5, 0, 1LL << 40};
        ints.bytes.assign(reinterpret_cast<const char*>(vals), sizeof vals);
        const auto ip = BufferView::plotPoints(ints);
        QCOMPARE(ip.size(), 3);
        QCOMPARE(ip[0].y(), -5.0);
        QCOMPARE(ip[2].y(), double(1LL << 40));
    }

    void theWindowKeepsWorkingWhileARunIsInFlight() {
        FakeEngine engine;
        engine.probeGpu();
        engine.delayMs = 2000;
        engine.answer = [](const RunRequest& request) {
            RunReply reply;
            reply.id = request.id;
            reply.outcome = outcomeWithFloats(100);
            return reply;
        };
        const auto ws = saxpyWorkspace(true);
        const auto reply = compiled(ws);
        auto r = rig(engine, ws, &reply);
        auto& p = *r->panel;
        p.show();

        test::EventLoopProbe probe([&] { return p.isBusy(); });
        p.runAction()->trigger();
        QVERIFY(p.isBusy());
        QTest::qWait(1200);
        QVERIFY(p.isBusy());
        QVERIFY2(p.noteLabel()->text().startsWith("Running saxpy… 1."), qPrintable(p.noteLabel()->text()));
        QVERIFY(!p.runButton()->isEnabled());
        QVERIFY(p.runButton()->toolTip().contains("in flight"));
        // Editing goes on meanwhile.
        p.gridEdit()->setText("32");
        QCOMPARE(p.currentConfig().grid.x, 32u);
        QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 5000);
        probe.stop();
        QVERIFY(probe.ticks() > 100);
        QVERIFY2(probe.worstGapMs() < 250, qPrintable(QString("worst gap %1 ms").arg(probe.worstGapMs())));
        QCOMPARE(p.history()->count(), 1);
        QVERIFY(p.runButton()->isEnabled());
    }

    void theWindowHasARunsDockAndRunKernel() {
        MainWindow w;
        w.setErrorSink([](const QString& title, const QString& message) { QFAIL(qPrintable(title + ": " + message)); });
        w.setSaveQuestion([] { return QMessageBox::Discard; });
        w.show();
        auto* dock = w.findChild<QDockWidget*>("runsDock");
        QVERIFY(dock);
        QCOMPARE(dock->widget(), static_cast<QWidget*>(w.runPanel()));
        QCOMPARE(w.dockWidgetArea(dock), Qt::BottomDockWidgetArea);
        QVERIFY(w.tabifiedDockWidgets(dock).contains(w.findChild<QDockWidget*>("problemsDock")));
        QAction* run = nullptr;
        for (auto* menu : w.menuBar()->findChildren<QMenu*>())
            for (auto* a : menu->actions())
                if (a->text() == "&Run Kernel") run = a;
        QVERIFY(run);
        QCOMPARE(run->shortcut(), QKeySequence("Ctrl+R"));

        QSignalSpy shown(w.controller(), &CompileController::replyShown);
        QVERIFY(w.openExample("saxpy"));
        QVERIFY(shown.wait(120000));
        auto& p = *w.runPanel();
        QCOMPARE(p.kernelCombo()->currentText(), QString("saxpy"));
        QCOMPARE(p.savedCombo()->currentText(), QString("saxpy 4096"));
        QCOMPARE(cell(p, 2, ArgTableModel::ArgColumn), QString("buf:f32:4096:iota"));
        QVERIFY(p.problems().isEmpty());
        // Whatever the machine, Run either works or says why not.
        QTRY_VERIFY_WITH_TIMEOUT(!p.noteLabel()->text().contains("looking"), 30000);
        if (!w.runPanel()->runBlockers().isEmpty()) {
            QVERIFY(!run->isEnabled());
            QVERIFY(p.runButton()->toolTip().contains("No GPU: "));
        }
    }
};

QTEST_MAIN(TestRun)
#include "tst_run.moc"
