// Stopping a compile: Esc, or a newer request behind a compile that has run for a while, ends
// the engine process that was compiling (libNVVM cannot be interrupted otherwise), the stopped
// compile's reply is never shown, and the next request goes to a fresh engine at once. The
// status bar says what the engine is doing meanwhile.
#include <QtTest>

#include <signal.h>

#include <algorithm>
#include <cerrno>

#include <QLabel>

#include "TestSupport.h"
#include "gui/compile/CompileController.h"
#include "gui/compile/SupervisedEngine.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/OutputView.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {

// Takes seconds at -opt=3 on these 2-core machines (3.7 s here, 2.3 s in a CI run; the tests stop
// it long before).
constexpr int kLongKernels = 900;
// What the tests below need of it: still compiling 300 ms after its PTX stage began, when they
// cancel it, and long enough for the status bar's seconds to tick; with a margin for slower runs.
constexpr double kLongEnoughSeconds = 1.0;

bool processExists(int pid) {
    return ::kill(pid, 0) == 0 || errno != ESRCH;
}

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

workspace::Workspace workspaceOf(nvvm::Module module) {
    workspace::Workspace ws;
    ws.modules = {std::move(module)};
    ws.options.arch = "compute_90";
    ws.options.opt = 3;
    workspace::applyLibdeviceRule(ws);  // as the app does: sinf.ll calls libdevice
    return ws;
}

// Waits until the engine says it is compiling the PTX of the newest request: libNVVM is at work
// ("compiling PTX", or "compiling PTX (with libdevice)" where the workspace links it).
bool waitForStage(CompileController& controller, const QString& stage, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (!controller.stage().startsWith(stage) && t.elapsed() < timeoutMs) QTest::qWait(5);
    return controller.stage().startsWith(stage);
}

}  // namespace

class TestCancel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_cancel");
    }

    // The long module must really be long, or the tests below stop nothing. Its time varies from
    // machine to machine: the bound is what those tests need, not what one machine measured.
    void theLongCompileTakesSeconds() {
        SupervisedEngine engine(test::realToolkit(), {});
        QSignalSpy spy(&engine, &Engine::replied);
        auto job = pipeline::Job();
        job.modules = {test::manyKernelsModule(kLongKernels)};
        job.options.arch = "compute_90";
        job.options.opt = 3;
        job.generation = 1;
        QElapsedTimer t;
        t.start();
        engine.submit(job);
        QVERIFY(spy.wait(300000));
        const auto reply = spy.at(0).at(0).value<EngineReply>();
        QVERIFY2(reply.result && reply.result->ok, qPrintable(reply.error));
        qInfo("%d kernels at -opt=3: %lld ms (libNVVM's PTX compile %.2f s)", kLongKernels, t.elapsed(),
              reply.result->stageSeconds(pipeline::StageId::CompilePtx));
        QVERIFY2(reply.result->stageSeconds(pipeline::StageId::CompilePtx) >= kLongEnoughSeconds,
                 qPrintable(QString("the PTX compile took %1 s; the tests need %2 s: raise kLongKernels")
                                .arg(reply.result->stageSeconds(pipeline::StageId::CompilePtx))
                                .arg(kLongEnoughSeconds)));
    }

    void cancelStopsTheEngineAndTheNextRequestStartsAtOnce() {
        SupervisedEngine engine(test::realToolkit(), {});
        WorkspaceDocument doc;
        doc.reset(workspaceOf(test::irFixture("sinf.ll")), {});
        CompileController controller(&engine, &doc);
        controller.setOutputs(pipeline::kPtx);
        QSignalSpy shown(&controller, &CompileController::replyShown);
        QSignalSpy replied(&engine, &Engine::replied);
        controller.compileNow();  // an engine to stop
        QVERIFY(shown.wait(60000));

        std::vector<double> latencies;
        for (int round = 0; round < 3; ++round) {
            shown.clear();
            replied.clear();
            doc.setModuleText(0, test::manyKernelsModule(kLongKernels).bytes);
            controller.compileNow();
            const quint64 cancelled = controller.newestGeneration();
            QVERIFY(waitForStage(controller, "compiling PTX", 30000));
            QTest::qWait(300);
            const int compiling = engine.enginePid();
            QVERIFY(compiling > 0 && processExists(compiling));

            const auto cancelAt = std::chrono::steady_clock::now();
            controller.cancel();
            doc.setModuleText(0, test::irFixture("sinf.ll").bytes);
            controller.compileNow();
            const quint64 small = controller.newestGeneration();
            QVERIFY(shown.wait(60000));

            // The small request was answered, by a new engine; the stopped one is gone.
            const auto reply = shown.at(0).at(0).value<EngineReply>();
            QCOMPARE(reply.generation, small);
            QVERIFY(reply.result && reply.result->ok);
            QVERIFY(reply.result->ptx.find(".entry sin_kernel") != std::string::npos);
            QVERIFY(!processExists(compiling));
            QVERIFY(engine.enginePid() > 0 && engine.enginePid() != compiling);
            QCOMPARE(engine.stoppedCompiles(), round + 1);
            // The stopped compile came back marked cancelled, and was not shown.
            QCOMPARE(replied.size(), 2);
            const auto stopped = replied.at(0).at(0).value<EngineReply>();
            QCOMPARE(stopped.generation, cancelled);
            QVERIFY(stopped.cancelled && !stopped.result);
            QTest::qWait(100);
            QCOMPARE(shown.size(), 1);

            quint64 sentFor = 0;
            const auto sentAt = engine.lastRequestSent(&sentFor);
            QCOMPARE(sentFor, small);
            latencies.push_back(std::chrono::duration<double, std::milli>(sentAt - cancelAt).count());
        }
        qInfo("cancel to the next request sent to a new engine: %.1f, %.1f, %.1f ms", latencies[0], latencies[1],
              latencies[2]);
        QVERIFY2(medianOf(latencies) < 50, qPrintable(QString("median %1 ms").arg(medianOf(latencies))));
    }

    void aNewerRequestStopsALongCompile() {
        SupervisedEngine engine(test::realToolkit(), {});
        QSignalSpy replied(&engine, &Engine::replied);
        auto job = [](nvvm::Module m, quint64 g) {
            pipeline::Job j;
            j.modules = {std::move(m)};
            j.libdevice = !workspace::libdeviceCallsOf(j.modules).empty();  // the app's rule
            j.options.arch = "compute_90";
            j.generation = g;
            return j;
        };
        quint64 g = 0;
        std::vector<double> latencies;
        for (int round = 0; round < 3; ++round) {
            replied.clear();
            QSignalSpy stages(&engine, &Engine::stageStarted);
            engine.submit(job(test::manyKernelsModule(kLongKernels), ++g));
            QTRY_VERIFY_WITH_TIMEOUT(std::any_of(stages.begin(), stages.end(),
                                                 [](const QList<QVariant>& s) {
                                                     return s.at(1).value<pipeline::StageEvent>().id ==
                                                            pipeline::StageId::CompilePtx;
                                                 }),
                                     30000);
            QTest::qWait(300);
            const int compiling = engine.enginePid();
            const auto submitAt = std::chrono::steady_clock::now();
            engine.submit(job(test::irFixture("sinf.ll"), ++g));
            QTRY_COMPARE_WITH_TIMEOUT(replied.size(), 2, 60000);
            QVERIFY(replied.at(0).at(0).value<EngineReply>().cancelled);
            const auto answer = replied.at(1).at(0).value<EngineReply>();
            QCOMPARE(answer.generation, g);
            QVERIFY(answer.result && answer.result->ok);
            QVERIFY(compiling == 0 || !processExists(compiling));
            quint64 sentFor = 0;
            const auto sentAt = engine.lastRequestSent(&sentFor);
            QCOMPARE(sentFor, g);
            latencies.push_back(std::chrono::duration<double, std::milli>(sentAt - submitAt).count());
        }
        QCOMPARE(engine.stoppedCompiles(), 3);
        qInfo("newer request to it being sent to a new engine: %.1f, %.1f, %.1f ms", latencies[0], latencies[1],
              latencies[2]);
        QVERIFY2(medianOf(latencies) < 50, qPrintable(QString("median %1 ms").arg(medianOf(latencies))));

        // A request right behind a young long compile: that one is stopped once it has had its
        // moment, not run to its end.
        replied.clear();
        QElapsedTimer t;
        t.start();
        engine.submit(job(test::manyKernelsModule(kLongKernels), ++g));
        QTest::qWait(20);
        engine.submit(job(test::irFixture("sinf.ll"), ++g));
        QTRY_COMPARE_WITH_TIMEOUT(replied.size(), 2, 60000);
        QVERIFY(replied.at(0).at(0).value<EngineReply>().cancelled);
        QVERIFY(replied.at(1).at(0).value<EngineReply>().result->ok);
        qInfo("a young long compile and a request behind it: answered after %lld ms", t.elapsed());
        QVERIFY(t.elapsed() < 2500);
        QCOMPARE(engine.stoppedCompiles(), 4);
    }

    void closingStopsTheCompile() {
        // Closing the window mid-compile: the engine goes with it rather than holding the exit.
        auto engine = std::make_unique<SupervisedEngine>(test::realToolkit(), QString());
        QSignalSpy warm(engine.get(), &Engine::replied);
        pipeline::Job job;
        job.modules = {test::irFixture("sinf.ll")};
        job.libdevice = true;  // it calls __nv_sinf
        job.options.arch = "compute_90";
        job.generation = 1;
        engine->submit(job);
        QVERIFY(warm.wait(60000));
        const int compiling = engine->enginePid();
        QSignalSpy stages(engine.get(), &Engine::stageStarted);
        job.modules = {test::manyKernelsModule(kLongKernels)};
        job.libdevice = false;
        job.generation = 2;
        engine->submit(job);
        QTRY_VERIFY_WITH_TIMEOUT(
            !stages.isEmpty() && stages.last().at(1).value<pipeline::StageEvent>().id == pipeline::StageId::CompilePtx,
            30000);
        QElapsedTimer t;
        t.start();
        engine.reset();
        qInfo("closed mid-compile in %lld ms", t.elapsed());
        QVERIFY(t.elapsed() < 1000);
        QVERIFY(!processExists(compiling));
    }

    void shortCompilesAreNotStoppedForNewerRequests() {
        // Typing: each request comes while the last one is still compiling, and each of those is
        // quicker than a new engine would be: none is stopped. The policy is under test, not the
        // default threshold: on a loaded machine a libdevice compile can outlast kStopAfterSeconds,
        // so these get a threshold well above any such compile.
        EngineSettings patient = EngineSettings::defaults();
        patient.stopAfterSeconds = 10.0;
        SupervisedEngine engine(test::realToolkit(), {}, patient);
        QSignalSpy replied(&engine, &Engine::replied);
        for (quint64 g = 1; g <= 20; ++g) {
            pipeline::Job j;
            j.modules = {test::irFixture("sinf.ll")};
            j.libdevice = true;  // it calls __nv_sinf
            j.options.arch = "compute_90";
            j.options.fma = g % 2 == 0;
            j.generation = g;
            engine.submit(j);
            QTest::qWait(10);
        }
        QTRY_VERIFY_WITH_TIMEOUT(!replied.isEmpty() && replied.last().at(0).value<EngineReply>().generation == 20,
                                 60000);
        QCOMPARE(engine.stoppedCompiles(), 0);
    }

    void inProcessCompilesAreOnlyHidden() {
        // Without an engine process nothing can stop libNVVM: the compile runs on, its reply is
        // marked cancelled and dropped.
        EngineSettings here = EngineSettings::defaults();
        here.command.clear();
        SupervisedEngine engine(test::realToolkit(), {}, here);
        WorkspaceDocument doc;
        doc.reset(workspaceOf(test::manyKernelsModule(300)), {});
        CompileController controller(&engine, &doc);
        controller.setOutputs(pipeline::kPtx);
        QSignalSpy shown(&controller, &CompileController::replyShown);
        QSignalSpy replied(&engine, &Engine::replied);
        controller.compileNow();
        QVERIFY(waitForStage(controller, "compiling PTX", 30000));
        controller.cancel();
        QVERIFY(!controller.busy());
        QVERIFY(replied.wait(120000));
        QVERIFY(replied.at(0).at(0).value<EngineReply>().cancelled);
        QTest::qWait(100);
        QVERIFY(shown.isEmpty());
        QCOMPARE(engine.stoppedCompiles(), 0);
    }

    // After a cancel the panes still show the compile before it: their headers say so until
    // the next compile is shown.
    void aCancelledCompileMarksThePanesStale() {
        MainWindow w;
        w.setSaveQuestion([] { return QMessageBox::Discard; });
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.controller()->setAutoCompile(false);
        w.openPaths({});
        w.editors()->addModule("kept.ll", test::irFixture("lto-kept-dropped.ll").bytes, false);
        QSignalSpy shown(w.controller(), &CompileController::replyShown);
        w.controller()->compileNow();
        QVERIFY(shown.wait(60000));
        QVERIFY(!w.output()->ptxHeader().contains("stale"));

        w.editors()->addModule("big.ll", test::manyKernelsModule(kLongKernels).bytes, false);
        w.controller()->compileNow();
        QVERIFY(waitForStage(*w.controller(), "compiling PTX", 30000));
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!w.controller()->busy());
        QVERIFY2(w.output()->ptxHeader().contains("stale: from before the cancelled compile"),
                 qPrintable(w.output()->ptxHeader()));
        QVERIFY2(w.output()->ltoHeader().contains("stale"), qPrintable(w.output()->ltoHeader()));
        QVERIFY(w.output()->ptxText().contains(".entry kept"));

        w.editors()->removeModule(w.document()->indexOf("big.ll"));
        w.controller()->compileNow();
        QVERIFY(shown.wait(60000));
        QVERIFY2(!w.output()->ptxHeader().contains("stale"), qPrintable(w.output()->ptxHeader()));
        QVERIFY(!w.output()->ltoHeader().contains("stale"));
    }

    void theStatusBarShowsTheStageAndCancelled() {
        MainWindow w;
        w.setSaveQuestion([] { return QMessageBox::Discard; });
        w.show();
        w.controller()->setAutoCompile(false);
        w.openPaths({});
        w.editors()->addModule("big.ll", test::manyKernelsModule(kLongKernels).bytes, false);
        auto options = w.document()->workspace().options;
        options.arch = "compute_90";
        w.document()->setOptions(options);
        auto* status = w.findChild<QLabel*>("compileStatus");
        QVERIFY(status);

        QSignalSpy shown(w.controller(), &CompileController::replyShown);
        w.controller()->compileNow();
        QTRY_VERIFY_WITH_TIMEOUT(status->text().startsWith("Compiling… compiling PTX ("), 30000);
        // The seconds go on while the stage stays.
        const auto first = status->text();
        QTRY_VERIFY_WITH_TIMEOUT(status->text() != first, 2000);
        QVERIFY2(status->text().contains(QRegularExpression(R"(^Compiling… compiling PTX \(\d+\.\d s\)$)")),
                 qPrintable(status->text()));

        QTest::keyClick(&w, Qt::Key_Escape);
        QCOMPARE(status->text(), QString("Cancelled"));
        QTest::qWait(500);
        QCOMPARE(status->text(), QString("Cancelled"));
        QVERIFY(shown.isEmpty());
    }

    void escapeCancelsWhileTheEditorHasFocus() {
        // QScintilla binds Esc itself (to close its lists): with the cursor in the editor, where
        // the user is when they want to stop a compile, Esc must still reach Build > Cancel.
        MainWindow w;
        w.setSaveQuestion([] { return QMessageBox::Discard; });
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.controller()->setAutoCompile(false);
        w.openPaths({});
        w.editors()->addModule("big.ll", test::manyKernelsModule(kLongKernels).bytes, false);
        auto options = w.document()->workspace().options;
        options.arch = "compute_90";
        w.document()->setOptions(options);
        auto* status = w.findChild<QLabel*>("compileStatus");
        QVERIFY(status);
        auto* editor = w.editors()->editor(0);
        editor->setFocus();
        QVERIFY(editor->hasFocus());

        QSignalSpy shown(w.controller(), &CompileController::replyShown);
        w.controller()->compileNow();
        QVERIFY(waitForStage(*w.controller(), "compiling PTX", 30000));
        QTest::keyClick(editor, Qt::Key_Escape);
        QVERIFY(!w.controller()->busy());
        QCOMPARE(status->text(), QString("Cancelled"));
        QTest::qWait(300);
        QVERIFY(shown.isEmpty());
    }
};

QTEST_MAIN(TestCancel)
#include "tst_cancel.moc"
