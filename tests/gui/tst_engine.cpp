// The compile thread and the controller in front of it: replies come back off the UI thread,
// stale ones are never shown, cancel discards, and an edit compiles after the delay.
#include <QtTest>
#include <algorithm>

#include "TestSupport.h"
#include "gui/compile/CompileController.h"
#include "gui/compile/SupervisedEngine.h"
#include "gui/document/WorkspaceDocument.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {

pipeline::Job jobFor(std::vector<nvvm::Module> modules, quint64 generation) {
    pipeline::Job job;
    job.modules = std::move(modules);
    job.libdevice = !workspace::libdeviceCallsOf(job.modules).empty();  // the app's rule
    job.options.arch = "compute_90";
    job.generation = generation;
    return job;
}

}  // namespace

class TestEngine : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useNvpgAsEngine(); }

    void compilesOffTheUiThread() {
        SupervisedEngine engine(test::realToolkit(), {});
        QThread* replyThread = nullptr;
        connect(&engine, &Engine::replied, this, [&](const EngineReply&) { replyThread = QThread::currentThread(); });
        QSignalSpy spy(&engine, &Engine::replied);
        // The UI thread's event loop is sampled every 10 ms during a compile that takes a while:
        // a compile on this thread (or a submit that waits for it) would starve it.
        int ticks = 0;
        QTimer tick;
        tick.setInterval(10);
        connect(&tick, &QTimer::timeout, this, [&] { ++ticks; });
        tick.start();
        QElapsedTimer clock;
        clock.start();
        engine.submit(jobFor({test::manyKernelsModule(200)}, 1));
        const qint64 submitMs = clock.elapsed();
        QVERIFY(spy.wait(120000));
        const qint64 compileMs = clock.elapsed();
        tick.stop();
        const auto reply = spy.at(0).at(0).value<EngineReply>();
        QCOMPARE(reply.generation, quint64(1));
        QVERIFY2(reply.result && reply.result->ok, qPrintable(reply.error));
        QVERIFY(reply.result->ptx.find(".entry k199(") != std::string::npos);
        QVERIFY2(compileMs >= 300, qPrintable(QString("the compile took %1 ms: too short for this test to "
                                                      "mean anything")
                                                  .arg(compileMs)));
        QVERIFY2(submitMs * 10 < compileMs,
                 qPrintable(QString("submit took %1 ms of a %2 ms compile").arg(submitMs).arg(compileMs)));
        QVERIFY2(
            ticks * 10 * 10 >= compileMs,
            qPrintable(QString("the UI thread ran %1 of ~%2 ticks while compiling").arg(ticks).arg(compileMs / 10)));
        QCOMPARE(replyThread, QThread::currentThread());  // delivered on the thread that asked
    }

    void olderRequestsQueuedBehindAreSkipped() {
        // The long compile runs to its end here, as it would in-process (tst_gui_cancel has
        // newer requests stopping it).
        auto settings = EngineSettings::defaults();
        settings.stopAfterSeconds = -1;
        SupervisedEngine engine(test::realToolkit(), {}, settings);
        QSignalSpy spy(&engine, &Engine::replied);
        engine.submit(jobFor({test::manyKernelsModule(200)}, 1));  // busy for a while
        QTest::qWait(150);                                         // let the worker start on it
        for (quint64 g = 2; g <= 5; ++g) engine.submit(jobFor({test::irFixture("sinf.ll")}, g));
        QTRY_VERIFY_WITH_TIMEOUT(!spy.isEmpty() && spy.last().at(0).value<EngineReply>().generation == 5, 120000);
        const auto first = spy.at(0).at(0).value<EngineReply>();
        QCOMPARE(first.generation, quint64(1));
        QVERIFY2(first.result && first.result->ok, "the long compile must succeed for this test to mean anything");
        QTest::qWait(200);
        QVERIFY(engine.skipped() >= 3);  // 2, 3 and 4 were never compiled
        for (const auto& args : spy) {
            const auto g = args.at(0).value<EngineReply>().generation;
            QVERIFY(g == 1 || g == 5);
        }
    }

    void anEngineThatStopsAnsweringIsStoppedAndReplaced() {
        // An engine that never answers (as libNVVM stuck in a loop would look): the compile fails
        // after the timeout with words saying so, and the next compile gets a working engine.
        EngineSettings hung;
        hung.command = {"/bin/sleep", "600"};
        hung.compileTimeoutSeconds = 1;
        SupervisedEngine engine(test::realToolkit(), {}, hung);
        QSignalSpy spy(&engine, &Engine::replied);
        QElapsedTimer t;
        t.start();
        engine.submit(jobFor({test::irFixture("sinf.ll")}, 1));
        QVERIFY(spy.wait(30000));
        QVERIFY(t.elapsed() < 20000);
        auto reply = spy.last().at(0).value<EngineReply>();
        QVERIFY(reply.result && !reply.result->ok);
        const auto& message = reply.result->diagnostics.at(0).message;
        QVERIFY2(message.find("did not finish") != std::string::npos && message.find("sinf.ll") != std::string::npos &&
                     message.find("within 1 s") != std::string::npos,
                 message.c_str());

        auto working = EngineSettings::defaults();
        working.compileTimeoutSeconds = 1;
        engine.setEngineSettings(working);
        engine.setToolkit(test::realToolkit());
        engine.submit(jobFor({test::irFixture("sinf.ll")}, 2));
        QVERIFY(spy.wait(60000));
        reply = spy.last().at(0).value<EngineReply>();
        QVERIFY(reply.result && reply.result->ok);
        QVERIFY(reply.result->ptx.find(".entry sin_kernel") != std::string::npos);
    }

    void noToolkitRepliesWithTheReason() {
        SupervisedEngine engine(nullptr, "libNVVM not found: tried /x");
        QSignalSpy spy(&engine, &Engine::replied);
        engine.submit(jobFor({test::irFixture("sinf.ll")}, 7));
        QVERIFY(spy.wait(10000));
        const auto reply = spy.at(0).at(0).value<EngineReply>();
        QVERIFY(!reply.result);
        QCOMPARE(reply.error, QString("libNVVM not found: tried /x"));
        engine.setToolkit(test::realToolkit());
        engine.submit(jobFor({test::irFixture("sinf.ll")}, 8));
        QVERIFY(spy.wait(60000));
        QVERIFY(spy.last().at(0).value<EngineReply>().result);
    }

    void controllerShowsOnlyTheNewest() {
        SupervisedEngine engine(test::realToolkit(), {});
        WorkspaceDocument doc;
        workspace::Workspace ws;
        ws.modules = {test::manyKernelsModule(60)};
        ws.options.arch = "compute_90";
        doc.reset(ws, {});
        CompileController controller(&engine, &doc);
        controller.setOutputs(pipeline::kPtx);
        QSignalSpy shown(&controller, &CompileController::replyShown);
        controller.compileNow();  // the long one
        doc.setModuleText(0, test::irFixture("sinf.ll").bytes);
        controller.compileNow();  // the edit: this one wins
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 120000);
        QTest::qWait(300);
        QCOMPARE(shown.size(), 1);
        const auto reply = shown.at(0).at(0).value<EngineReply>();
        QCOMPARE(reply.generation, controller.newestGeneration());
        QVERIFY(reply.result->ptx.find(".entry sin_kernel") != std::string::npos);
        QVERIFY(!controller.busy());
    }

    void cancelDiscardsTheResult() {
        SupervisedEngine engine(test::realToolkit(), {});
        WorkspaceDocument doc;
        workspace::Workspace ws;
        ws.modules = {test::irFixture("sinf.ll")};
        doc.reset(ws, {});
        CompileController controller(&engine, &doc);
        QSignalSpy shown(&controller, &CompileController::replyShown);
        QSignalSpy replied(&engine, &Engine::replied);
        controller.compileNow();
        QVERIFY(controller.busy());
        controller.cancel();
        QVERIFY(!controller.busy());
        QVERIFY(replied.wait(60000));
        QTest::qWait(50);
        QCOMPARE(shown.size(), 0);
        QCOMPARE(controller.droppedReplies(), 1);
        controller.compileNow();  // the next compile shows again
        QTRY_COMPARE_WITH_TIMEOUT(shown.size(), 1, 60000);
    }

    void stagesArriveOnTheUiThreadAsTheEngineStartsThem() {
        SupervisedEngine engine(test::realToolkit(), {});
        WorkspaceDocument doc;
        workspace::Workspace ws;
        ws.modules = {test::irFixture("sinf.ll")};
        ws.options.arch = "compute_90";
        doc.reset(ws, {});
        CompileController controller(&engine, &doc);
        controller.setOutputs(pipeline::kPtx | pipeline::kLtoIr);
        // The plain job's stages alone: a line map's stage comes after the plain reply, and may be
        // delivered before this wait returns (tst_linemap covers the map).
        controller.setLineMap(false);
        std::vector<pipeline::StageEvent> stages;
        QStringList words;
        QThread* stageThread = nullptr;
        connect(&engine, &Engine::stageStarted, this, [&](quint64 g, const pipeline::StageEvent& s) {
            QCOMPARE(g, controller.newestGeneration());
            stages.push_back(s);
            stageThread = QThread::currentThread();
        });
        connect(&controller, &CompileController::stageChanged, this, [&](const QString& w) { words << w; });
        QSignalSpy shown(&controller, &CompileController::replyShown);
        controller.compileNow();
        QVERIFY(shown.wait(60000));
        QCOMPARE(stageThread, QThread::currentThread());
        // libNVVM's verifier runs before every compile; then the PTX compile and the
        // LTO chain (its own Program: the module added, then the LTO-IR compile) run side by side,
        // their announcements interleaved as their threads start them.
        QString seen;
        for (const auto& st : stages) seen += QString::fromStdString(std::string(pipeline::stageName(st.id))) + "; ";
        QVERIFY2(stages.size() == 5, qPrintable(seen));
        QVERIFY((stages[0] == pipeline::StageEvent{pipeline::StageId::AddModule, "sinf.ll", {}}));
        QVERIFY((stages[1] == pipeline::StageEvent{pipeline::StageId::Verify, "", {}}));
        auto at = [&](pipeline::StageId id, const std::string& module) {
            for (size_t i = 2; i < stages.size(); ++i)
                if (stages[i].id == id && stages[i].module == module) return int(i);
            return -1;
        };
        const int ptx = at(pipeline::StageId::CompilePtx, ""), ltoAdd = at(pipeline::StageId::AddModule, "sinf.ll"),
                  lto = at(pipeline::StageId::CompileLtoIr, "");
        QVERIFY2(ptx > 1 && ltoAdd > 1 && lto > ltoAdd, qPrintable(seen));
        // The status bar keeps a stage while it runs: it shows the add and the verify, then
        // stages of the two chains, each at most once in a row.
        QVERIFY2(words.size() >= 3, qPrintable(words.join(" | ")));
        QCOMPARE(words.mid(0, 2), (QStringList{"adding module sinf.ll", "verifying the IR"}));
        for (const auto& w : words.mid(2))
            QVERIFY2(w == "compiling PTX" || w == "compiling LTO-IR" || w == "adding module sinf.ll", qPrintable(w));
        for (int i = 1; i < words.size(); ++i) QVERIFY(words[i] != words[i - 1]);
        QVERIFY(controller.stage().isEmpty());  // nothing is going on once the result is shown
        // The timings in the result carry the same ids.
        const auto& r = *shown.at(0).at(0).value<EngineReply>().result;
        QVERIFY(r.findStage(pipeline::StageId::CompilePtx) && r.findStage(pipeline::StageId::CompileLtoIr));
        QVERIFY(!r.findStage(pipeline::StageId::LinkLtoPtx));
    }

    void editCompilesAfterTheDelay() {
        SupervisedEngine engine(test::realToolkit(), {});
        WorkspaceDocument doc;
        workspace::Workspace ws;
        ws.modules = {test::irFixture("sinf.ll")};
        doc.reset(ws, {});
        CompileController controller(&engine, &doc);
        controller.setDelayMs(400);
        QSignalSpy shown(&controller, &CompileController::replyShown);
        QElapsedTimer t;
        t.start();
        controller.edited();
        controller.edited();  // typing on: the delay restarts, one compile follows
        QVERIFY(!controller.busy());
        QTRY_VERIFY_WITH_TIMEOUT(controller.busy() || !shown.isEmpty(), 5000);
        QVERIFY(t.elapsed() >= 350);
        QTRY_COMPARE_WITH_TIMEOUT(shown.size(), 1, 60000);
        QCOMPARE(controller.newestGeneration(), quint64(1));

        controller.setAutoCompile(false);
        controller.edited();
        QTest::qWait(700);
        QCOMPARE(controller.newestGeneration(), quint64(1));  // off: edits do not compile
    }
};

QTEST_MAIN(TestEngine)
#include "tst_engine.moc"
