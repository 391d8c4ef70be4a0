// The compile thread under a long, seeded stream of edits, compiles and cancels, as the app
// drives it (the real CompileController, SupervisedEngine and engine process): it never deadlocks,
// never shows a stale or cancelled result, keeps the memory of both processes flat, survives a
// few modules that kill libNVVM, and leaves no engine process behind. Once with stopping off (one
// engine, whose memory is watched), once with the app's settings (compiles stopped, engines ended).
#include <QtTest>

#include <unistd.h>

#include <algorithm>
#include <set>

#include "TestSupport.h"
#include "gui/compile/CompileController.h"
#include "gui/compile/SupervisedEngine.h"
#include "gui/document/WorkspaceDocument.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {

constexpr quint64 kRequests = 10000;
constexpr quint64 kBaselineAt = 1000;        // memory is measured here and at the end
constexpr int kCompilesAfterBaseline = 800;  // the least for the engine's memory bound to mean anything
// Idle time before memory is read: the engine trims its heaps once idle for 150 ms after a
// compile (engine/Server.cpp), so both readings see what it holds, not what glibc keeps free.
constexpr int kEngineSettleMs = 600;
// The requests at which a module that kills libNVVM is added (and the user waits for the
// result): all before the baseline, so that the engine measured after it is one process.
constexpr quint64 kKillersAt[] = {200, 450, 700};
// With stopping on: fewer requests, since every stop costs a new engine (~0.17 s), and a module
// of this many kernels next to the edited one, so that compiles take longer than the stop age.
// How long a compile of the stream takes against the stop age (0.1 s) decides how many are
// stopped and how many are shown, and both must be enough. Since the LTO chain runs beside the
// PTX compile, 10 kernels finish within the stop age on an idle 2-core VM (14 stopped
// for a newer request, 20 needed). 20 kernels, measured on the 2-core VM: idle, 46 stopped for a
// newer request and 94 results shown; with both cores busy with other work (as under ctest -j2),
// 148 and 35.
constexpr quint64 kStopRequests = 600;
constexpr quint64 kStopKillersAt[] = {200, 450};
constexpr int kStopKernels = 20;

// A number from /proc/PID/status ("VmRSS" in KiB, "Threads"); 0 when the process is gone.
long procStatus(const QString& pid, const QByteArray& field) {
    QFile f("/proc/" + pid + "/status");
    if (!f.open(QIODevice::ReadOnly)) return 0;
    for (const auto& line : f.readAll().split('\n'))
        if (line.startsWith(field + ':')) return line.mid(field.size() + 1).trimmed().split(' ').first().toLong();
    return 0;
}
long rssKiB(const QString& pid) {
    return procStatus(pid, "VmRSS");
}
qsizetype openFiles() {
    return QDir("/proc/self/fd").entryList(QDir::Files | QDir::System).size();
}

struct Child {
    int pid;
    char state;  // 'Z' for a zombie nobody reaped
};

// This process's children, from /proc/*/stat: what the engine machinery started and has not
// reaped.
std::vector<Child> childProcesses() {
    std::vector<Child> out;
    const QByteArray self = QByteArray::number(::getpid());
    for (const auto& entry : QDir("/proc").entryList(QDir::Dirs)) {
        bool isPid = false;
        const int pid = entry.toInt(&isPid);
        if (!isPid) continue;
        QFile f("/proc/" + entry + "/stat");
        if (!f.open(QIODevice::ReadOnly)) continue;
        const QByteArray stat = f.readAll();
        // "pid (comm) state ppid ...": comm may hold spaces, so read after its last ')'.
        const auto fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1] == self) out.push_back({pid, fields[0].at(0)});
    }
    return out;
}

enum class Kind { Good, SyntaxError };

// The module a user edits. Edit N names its kernel eN and multiplies by N, so the PTX shown
// says which edit it came from. The comment block makes the module ~3 KB, so that keeping a
// copy of every request (9,000 x 3 KB = 27 MB) would break the test process's RSS bound.
std::string moduleText(int edit, Kind kind) {
    std::string ir =
        R"(target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@NOTES@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*, i32)* @eN to i8*)], section "llvm.metadata"
define void @eN(float* %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %q = getelementptr float, float* %p, i32 %i
  %v = load float, float* %q
  %e = fadd float %v, 3.0
  %w = fmul float %e, N.0
  store float %w, float* %q
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret void
}
!nvvm.annotations = !{!1}
!1 = !{void (float*, i32)* @eN, !"kernel", i32 1}
!nvvmir.version = !{!0}
!0 = !{i32 2, i32 0}
)";
    const auto n = std::to_string(edit);
    std::string notes;
    for (int i = 0; i < 40; ++i) notes += "; edit " + n + ", a line of notes the user keeps next to the kernel\n";
    auto replace = [&](const std::string& from, const std::string& to) {
        for (auto at = ir.find(from); at != std::string::npos; at = ir.find(from, at + to.size()))
            ir.replace(at, from.size(), to);
    };
    replace("@NOTES", notes);
    replace("@eN", "@e" + n);
    replace("N.0", n + ".0");
    // The typo a user makes mid-word: libNVVM rejects the line.
    if (kind == Kind::SyntaxError) replace("fadd float", "fadd flot");
    return ir;
}

int lineOf(const std::string& text, const std::string& needle) {
    const auto at = text.find(needle);
    return at == std::string::npos ? 0 : 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
}

// The app's compile machinery as MainWindow wires it (the real CompileController, SupervisedEngine
// and engine process) over a document of stress.ll, which the user edits, and `fixed` modules
// next to it; the editor whose text each compile copies in; and what a user would check on every
// reply shown: the newest request's, never a cancelled one's, with that edit's content.
struct Session {
    struct Request {
        int edit;
        Kind kind;
        bool killer;
    };

    // Taken before the engine starts. Each engine start opens a socket, a pipe and a thread
    // reading the engine's stderr; all must be gone with the compile thread, crashed and stopped
    // engines included.
    const qsizetype filesBefore = openFiles();
    const long threadsBefore = procStatus("self", "Threads");
    std::unique_ptr<SupervisedEngine> engine;
    WorkspaceDocument doc;
    std::unique_ptr<CompileController> owned;
    CompileController& controller;
    const int fixedModules;  // stress.ll's companions; a module past them is the killer

    // The editor: its text is copied into the document when a compile asks (as EditorArea::flush
    // does), and each copy is one request, in generation order.
    std::vector<Request> requests;
    int edit = 0;
    Kind kind = Kind::Good;
    std::string editorText = moduleText(0, Kind::Good);

    QStringList problems;
    quint64 lastShown = 0, cancelledUpTo = 0;
    int shown = 0, shownErrors = 0, shownCrashes = 0, cancels = 0, cancelDiscards = 0, compiles = 0, crashes = 0;
    std::set<int> enginePids;

    Session(const EngineSettings& settings, std::vector<nvvm::Module> fixed, size_t expectedRequests)
        : engine(std::make_unique<SupervisedEngine>(test::realToolkit(), QString(), settings)),
          owned(std::make_unique<CompileController>(engine.get(), &doc)),
          controller(*owned),
          fixedModules(int(fixed.size())) {
        workspace::Workspace ws;
        ws.modules = {{"stress.ll", moduleText(0, Kind::Good), false}};
        ws.modules.insert(ws.modules.end(), fixed.begin(), fixed.end());
        ws.options.arch = "compute_90";
        doc.reset(ws, {});
        // Shorter than the app's 400 ms so that pauses in the stream let the delay run out too.
        controller.setDelayMs(40);
        // Wired as MainWindow wires them: settings compile at once, module changes after the
        // delay.
        QObject::connect(&doc, &WorkspaceDocument::settingsChanged, &controller, &CompileController::settingsEdited);
        QObject::connect(&doc, &WorkspaceDocument::modulesChanged, &controller, &CompileController::edited);
        requests.reserve(expectedRequests + 16);
        controller.setFlush([this] {
            doc.setModuleText(0, editorText);
            requests.push_back({edit, kind, doc.moduleCount() > 1 + fixedModules});
        });
        QObject::connect(&controller, &CompileController::replyShown, &controller,
                         [this](const EngineReply& reply) { check(reply); });
        QObject::connect(engine.get(), &Engine::replied, &controller, [this](const EngineReply& reply) {
            // Every reply is a compile that ran (or was stopped); the controller has already
            // chosen to show or drop it.
            ++compiles;
            if (reply.result && !reply.result->diagnostics.empty() &&
                reply.result->diagnostics[0].message.find("crashed (") != std::string::npos)
                ++crashes;
            if (reply.generation == controller.newestGeneration() && reply.generation <= cancelledUpTo)
                ++cancelDiscards;  // it would have been shown but for the cancel
            if (const int pid = engine->enginePid()) enginePids.insert(pid);
        });
    }

    void problem(const QString& p) {
        if (problems.size() < 20) problems << p;
    }

    void check(const EngineReply& reply) {
        ++shown;
        const quint64 g = reply.generation;
        if (g != controller.newestGeneration())
            problem(QString("shown generation %1 while the newest request is %2")
                        .arg(g)
                        .arg(controller.newestGeneration()));
        if (g <= lastShown) problem(QString("generation %1 shown after %2").arg(g).arg(lastShown));
        if (g <= cancelledUpTo || reply.cancelled)
            problem(QString("generation %1 shown although cancelled (up to %2)").arg(g).arg(cancelledUpTo));
        lastShown = std::max(lastShown, g);
        if (g == 0 || g > requests.size()) {
            problem(QString("generation %1 was never requested").arg(g));
            return;
        }
        if (!reply.result) {
            problem(QString("generation %1: no result: %2").arg(g).arg(reply.error));
            return;
        }
        const auto& r = *reply.result;
        const auto& req = requests[g - 1];
        const auto what = QString("generation %1 (edit %2)").arg(g).arg(req.edit);
        if (r.generation != g) problem(what + QString(": the result says generation %1").arg(r.generation));
        if (req.killer) {
            ++shownCrashes;
            const bool named = r.diagnostics.size() == 1 && r.diagnostics[0].module == "killer.bc" &&
                               r.diagnostics[0].message.find("crashed (") != std::string::npos &&
                               r.diagnostics[0].message.find("killer.bc") != std::string::npos;
            if (r.ok || !named) problem(what + ": the module that kills libNVVM was not reported as the crash's cause");
        } else if (req.kind == Kind::SyntaxError) {
            ++shownErrors;
            const auto line = lineOf(moduleText(req.edit, Kind::SyntaxError), "flot");
            const bool placed =
                !r.diagnostics.empty() && r.diagnostics[0].module == "stress.ll" && r.diagnostics[0].line == line;
            if (r.ok || !placed) problem(what + QString(": the typo was not reported on stress.ll:%1").arg(line));
        } else {
            // Both panes must show this edit's kernel: the libNVVM PTX and the LTO-linked PTX.
            const auto entry = ".entry e" + std::to_string(req.edit) + "(";
            if (!r.ok || r.ptx.find(entry) == std::string::npos || r.linkedPtx.find(entry) == std::string::npos)
                problem(what + ": the PTX shown is not that of the newest edit" +
                        (r.diagnostics.empty() ? QString() : ": " + QString::fromStdString(r.diagnostics[0].message)));
        }
    }

    bool waitShown(quint64 g, int timeoutMs) {
        QElapsedTimer t;
        t.start();
        while (lastShown < g && t.elapsed() < timeoutMs) QTest::qWait(5);
        return lastShown >= g;
    }

    // The user types on: the editor holds the next edit, a typo in `syntaxErrorPercent` of them.
    void nextEdit(test::Rng& rng, int syntaxErrorPercent) {
        ++edit;
        kind = int(rng.below(100)) < syntaxErrorPercent ? Kind::SyntaxError : Kind::Good;
        editorText = moduleText(edit, kind);
    }

    // The user adds a module that kills libNVVM, waits for the verdict, and removes it.
    void compileKiller(const std::string& killer) {
        doc.addModule({"killer.bc", killer, false});
        controller.compileNow();
        if (!waitShown(controller.newestGeneration(), 120000)) problem("no result for the module that kills libNVVM");
        doc.removeModule(doc.moduleCount() - 1);
    }

    // One option flipped in the options panel: a recompile of the same modules.
    void changeOption(test::Rng& rng) {
        auto options = doc.workspace().options;
        switch (rng.below(3)) {
            case 0:
                options.ftz = !options.ftz.value_or(false);
                break;
            case 1:
                options.fma = !options.fma.value_or(true);
                break;
            default:
                options.opt = options.opt.value_or(3) == 3 ? 0 : 3;
                break;
        }
        doc.setOptions(options);
    }

    // The gaps of someone typing fast, or with `pause` one of `pauseMs` + up to `spreadMs` to
    // read the result.
    // untilIdle: a pause also waits (up to 10 s) for the compile in flight to end and be shown,
    // so that how many results a stream shows does not depend on how loaded the machine is.
    void gap(test::Rng& rng, bool pause, int pauseMs, int spreadMs, bool untilIdle = false) {
        if (pause) {
            QTest::qWait(pauseMs + int(rng.below(size_t(spreadMs))));
            if (untilIdle) QTRY_VERIFY_WITH_TIMEOUT(!controller.busy(), 10000);
        } else if (rng.below(100) < 40)
            QTest::qWait(1 + int(rng.below(8)));
        else
            QCoreApplication::processEvents();
    }

    // Esc.
    void cancel() {
        if (controller.busy()) {
            ++cancels;
            cancelledUpTo = controller.newestGeneration();
        }
        controller.cancel();
    }
};

}  // namespace

class TestStress : public QObject {
    Q_OBJECT

public:
    // Before QApplication: Qt Test's watchdog stops a test function after 5 minutes, and the
    // stream takes 3-4 here (a deadlock is caught sooner, by the wait for the last result).
    static void initMain() {
        if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT")) qputenv("QTEST_FUNCTION_TIMEOUT", "1200000");
    }

private slots:
    // Both streams crash libNVVM with the same module; finding one takes mutating and trying.
    void initTestCase() {
        test::useNvpgAsEngine();
        QString why;
        const auto killerPath = test::bitcodeThatKillsLibnvvm(&why);
        QVERIFY2(killerPath, qPrintable(why));
        killer_ = test::readText(*killerPath);
    }

    void tenThousandRequestsWithEditsAndCancels();
    // The same checks with the app's settings: a newer request or a cancel stops the compile in
    // flight by ending its engine, so engines come and go all the time.
    void requestsWithStoppingOn();

private:
    std::string killer_;
    // The last request, a good edit compiled now: its result must come, and be this edit's.
    void answerLastRequest(Session& s);
    // The compile thread ends with the session's engine: it must take its engine process, file
    // descriptors and threads with it.
    void endWithoutLeaks(Session& s);
};

void TestStress::answerLastRequest(Session& s) {
    QVERIFY2(s.problems.isEmpty(), qPrintable(s.problems.join('\n')));
    ++s.edit;
    s.kind = Kind::Good;
    s.editorText = moduleText(s.edit, s.kind);
    s.controller.compileNow();
    const quint64 last = s.controller.newestGeneration();
    QVERIFY2(s.waitShown(last, 120000), "no result for the last request: the compile thread is stuck");
    QTest::qWait(200);  // anything still queued would show up now
    QVERIFY2(s.problems.isEmpty(), qPrintable(s.problems.join('\n')));
    QCOMPARE(s.lastShown, last);
    QCOMPARE(quint64(s.requests.size()), last);
    // Every request was either compiled (and answered once) or skipped for a newer one.
    QCOMPARE(quint64(s.compiles + s.engine->skipped()), last);
}

void TestStress::endWithoutLeaks(Session& s) {
    s.engine.reset();
    QVERIFY2(childProcesses().empty(), "the engine process outlived the compile thread");
    qInfo("open files %lld before the compile thread, %lld after; threads %ld, %ld", (long long)s.filesBefore,
          (long long)openFiles(), s.threadsBefore, procStatus("self", "Threads"));
    QCOMPARE(openFiles(), s.filesBefore);
    // QThread::wait() returns when the thread's function has returned; the kernel drops the
    // thread from /proc/self/task a moment later (seen: one run in two still counted it). A
    // thread that leaked never goes, so waiting for the count cannot hide one.
    QTRY_COMPARE_WITH_TIMEOUT(procStatus("self", "Threads"), s.threadsBefore, 10000);
}

void TestStress::tenThousandRequestsWithEditsAndCancels() {
    QVERIFY(childProcesses().empty());  // what follows is ours

    QElapsedTimer clock;
    clock.start();
    // The same stream of edits, cancels and pauses on every run; which requests get compiled
    // and which are superseded first depends on timing, as in the app.
    test::Rng rng(20240611);

    // One engine over every compile, so that its memory can be watched: cancels and newer
    // requests drop results here and stop no compile (ending engines is tst_gui_cancel's).
    auto settings = EngineSettings::defaults();
    settings.stopAfterSeconds = -1;
    Session s(settings, {}, kRequests);
    auto& controller = s.controller;

    long selfStart = 0, engineStart = 0;
    int compilesAtBaseline = 0;
    int baselineEngine = 0;
    size_t nextKiller = 0;
    // The engine's memory bound needs enough compiles after the baseline to mean anything. How
    // many of the requests get compiled depends on the machine's load (a slow compile lets more
    // requests be superseded while it runs), so a loaded machine gets a longer stream, up to
    // twice the requests.
    const auto moreNeeded = [&] {
        const quint64 g = controller.newestGeneration();
        if (g < kRequests - 1) return true;
        return selfStart != 0 && s.compiles - compilesAtBaseline < kCompilesAfterBaseline && g < 2 * kRequests;
    };
    while (moreNeeded() && s.problems.isEmpty()) {
        const quint64 g = controller.newestGeneration();
        if (nextKiller < std::size(kKillersAt) && g >= kKillersAt[nextKiller]) {
            ++nextKiller;
            s.compileKiller(killer_);
            continue;
        }
        if (selfStart == 0 && g >= kBaselineAt) {
            // Measured with every request answered, when the engine is idle as at the end.
            QTRY_VERIFY_WITH_TIMEOUT(quint64(s.compiles + s.engine->skipped()) == controller.newestGeneration(),
                                     120000);
            QTest::qWait(kEngineSettleMs);
            selfStart = rssKiB("self");
            compilesAtBaseline = s.compiles;
            baselineEngine = s.engine->enginePid();
            QVERIFY2(baselineEngine > 0, "the engine should be running after a compile");
            engineStart = rssKiB(QString::number(baselineEngine));
            const auto kids = childProcesses();
            QVERIFY2(kids.size() == 1 && kids[0].pid == baselineEngine && kids[0].state != 'Z',
                     "only the live engine should be a child: the crashed ones must be reaped");
        }

        // One step of the stream: mostly a new edit, then a compile now (Ctrl+B, or the delay
        // ran out), typing on (the delay restarts), an option change, or Esc.
        const auto roll = rng.below(100);
        if (roll < 92) s.nextEdit(rng, 2);
        bool pause = rng.below(100) < 5;
        if (roll < 60) {
            controller.compileNow();
        } else if (roll < 92) {
            controller.edited();
        } else if (roll < 96) {
            s.changeOption(rng);
        } else {
            s.cancel();
            pause = rng.below(2) == 0;  // Esc, then a look at the screen
        }

        // A look at the result: 20-140 ms, and the compile in flight is shown before the stream
        // goes on, so that how many results are shown does not depend on the machine's load.
        s.gap(rng, pause, 20, 120, true);
    }
    answerLastRequest(s);
    if (QTest::currentTestFailed()) return;
    const quint64 last = controller.newestGeneration();

    QTest::qWait(kEngineSettleMs);
    const long selfEnd = rssKiB("self");
    const int endEngine = s.engine->enginePid();
    const long engineEnd = rssKiB(QString::number(endEngine));
    const auto kids = childProcesses();
    qInfo(
        "requests %llu, compiles run %d, skipped for a newer request %d, results shown %d "
        "(%d with the typo, %d crashes), dropped by the controller %d",
        (unsigned long long)last, s.compiles, s.engine->skipped(), s.shown, s.shownErrors, s.shownCrashes,
        controller.droppedReplies());
    qInfo(
        "cancels %d (%d results discarded only because of one), engine crashes %d, "
        "engine restarts %d",
        s.cancels, s.cancelDiscards, s.crashes, int(s.enginePids.size()) - 1);
    qInfo(
        "RSS of this process %ld KiB at request %llu, %ld KiB at the end; of the engine "
        "%ld KiB -> %ld KiB over %d compiles; %.0f s",
        selfStart, (unsigned long long)kBaselineAt, selfEnd, engineStart, engineEnd, s.compiles - compilesAtBaseline,
        clock.elapsed() / 1000.0);

    // The stream must have done what it claims: shown results, effective cancels, crashes.
    QVERIFY(s.shown > 100);
    QVERIFY(s.shownErrors > 0);
    QVERIFY(s.cancelDiscards > 0);
    QCOMPARE(s.shownCrashes, int(std::size(kKillersAt)));
    QCOMPARE(s.crashes, int(std::size(kKillersAt)));
    // One new engine after each crash and no other restart (no timeouts, no unexplained deaths).
    QCOMPARE(int(s.enginePids.size()), s.crashes + 1);
    QCOMPARE(endEngine, baselineEngine);

    // The compile history holds the newest shown results, within its bound.
    const auto& history = s.controller.history();
    QCOMPARE(history.entries().size(), std::min<size_t>(history.limits().entries, size_t(s.shown)));
    QVERIFY(history.bytes() <= history.limits().bytes);
    QCOMPARE(history.entries().front().id, uint64_t(s.shown));

    // Memory, both measured idle. This process keeps no compile state beyond the history's 50
    // results (~15 KB each here, under 1 MB even if it filled after the baseline): 9,000 requests
    // later it may differ only by allocator slack (thread arenas, event queues at their peak; 0-1 MiB seen), while
    // keeping each request's ~3 KB module would add 27 MB.
    QVERIFY2(selfEnd - selfStart < 8 * 1024,
             qPrintable(QString("RSS grew from %1 to %2 KiB").arg(selfStart).arg(selfEnd)));
    // The engine makes a new Program for each edit and answers each compile with ~11 KB (PTX,
    // LTO-IR, linked PTX, cubin): keeping either would add 11 KB or more per compile. What is
    // seen is a drift of 3.8 KB per compile with the idle trim (7.2 MB over 1,910 compiles on the
    // 2-core VM), 6 KB without it; the plain libNVVM calls alone drift 0.14 KB per compile, so
    // the rest is in the LTO chain or the engine (not found yet). The bound sits between.
    const int compilesMeasured = s.compiles - compilesAtBaseline;
    QVERIFY2(compilesMeasured >= kCompilesAfterBaseline,
             "too few compiles after the baseline for the engine's bound to mean anything");
    const double kibPerCompile = double(engineEnd - engineStart) / compilesMeasured;
    QVERIFY2(kibPerCompile < 8.0,
             qPrintable(QString("the engine's RSS grew from %1 to %2 KiB over %3 compiles (%4 KiB each)")
                            .arg(engineStart)
                            .arg(engineEnd)
                            .arg(compilesMeasured)
                            .arg(kibPerCompile, 0, 'f', 2)));

    // Processes: the one live engine, reaped crashed ones, and none once the engine is gone.
    QVERIFY2(kids.size() == 1 && kids[0].pid == endEngine && kids[0].state != 'Z',
             "only the live engine should be a child of the app");
    endWithoutLeaks(s);
}

void TestStress::requestsWithStoppingOn() {
    QVERIFY(childProcesses().empty());  // what follows is ours

    QElapsedTimer clock;
    clock.start();
    test::Rng rng(20261201);
    // The app's settings: a compile is stopped once it has run stopAfterSeconds with a newer
    // request waiting, or at once on Esc.
    const auto settings = EngineSettings::defaults();
    QVERIFY(settings.stopAfterSeconds > 0);
    // Next to stress.ll, a module that makes every compile take well over stopAfterSeconds.
    Session s(settings, {test::manyKernelsModule(kStopKernels)}, kStopRequests);
    auto& controller = s.controller;
    // Without the line map: a newer request waits for a compile that is only making its map
    // instead of stopping its engine, and this stream needs many engines stopped. The first
    // stream runs with the map on.
    controller.setLineMap(false);

    int lateEdits = 0;  // edits that came while the compile in flight was older than the stop age
    size_t nextKiller = 0;
    while (controller.newestGeneration() < kStopRequests - 1 && s.problems.isEmpty()) {
        const quint64 g = controller.newestGeneration();
        if (nextKiller < std::size(kStopKillersAt) && g >= kStopKillersAt[nextKiller]) {
            ++nextKiller;
            s.compileKiller(killer_);
            continue;
        }
        // One step: an edit compiled after the delay or now, an edit that comes once the compile
        // in flight has run past the stop age, an option change, or Esc.
        const auto roll = rng.below(100);
        bool pause = rng.below(100) < 4;
        if (roll < 35) {
            s.nextEdit(rng, 3);
            controller.edited();
        } else if (roll < 65) {
            s.nextEdit(rng, 3);
            controller.compileNow();
        } else if (roll < 80) {
            // Reading the PTX of a compile that takes too long, then typing on.
            QElapsedTimer wait;
            wait.start();
            while (controller.busy() && controller.elapsedSeconds() < settings.stopAfterSeconds + 0.05 &&
                   wait.elapsed() < 1000)
                QTest::qWait(5);
            if (controller.busy()) ++lateEdits;
            s.nextEdit(rng, 3);
            controller.compileNow();
        } else if (roll < 88) {
            s.changeOption(rng);
        } else {
            s.cancel();
            pause = rng.below(3) == 0;
        }
        // Now and then a pause lets the compile in flight end and be shown (on a loaded machine
        // a fixed pause was too short: 17 results shown in one CI run).
        s.gap(rng, pause, 80, 300, true);
        if (QTest::currentTestFailed()) return;
    }
    answerLastRequest(s);
    if (QTest::currentTestFailed()) return;

    const int stopped = s.engine->stoppedCompiles();
    const auto kids = childProcesses();
    qInfo(
        "requests %llu, compiles run %d (%d stopped), skipped for a newer request %d, results "
        "shown %d (%d with the typo, %d crashes), dropped by the controller %d",
        (unsigned long long)controller.newestGeneration(), s.compiles, stopped, s.engine->skipped(), s.shown,
        s.shownErrors, s.shownCrashes, controller.droppedReplies());
    qInfo(
        "edits while a compile was past the stop age %d, cancels %d (%d results discarded only "
        "because of one), engine crashes %d, engines seen %d; %.1f s",
        lateEdits, s.cancels, s.cancelDiscards, s.crashes, int(s.enginePids.size()), clock.elapsed() / 1000.0);

    // The stream must have done what it claims: compiles stopped (each one an engine ended),
    // results shown in between, typos, cancels and crashes.
    QVERIFY2(stopped >= 30, qPrintable(QString("only %1 compiles were stopped").arg(stopped)));
    // An Esc stops one compile at most: the others were stopped for a newer request.
    QVERIFY2(stopped - s.cancels >= 20,
             qPrintable(QString("only %1 compiles were stopped for a newer request").arg(stopped - s.cancels)));
    QVERIFY(int(s.enginePids.size()) >= 10);
    QVERIFY(s.shown >= 20);
    QVERIFY(s.shownErrors > 0);
    QVERIFY(s.cancels > 0);
    QCOMPARE(s.shownCrashes, int(std::size(kStopKillersAt)));
    QCOMPARE(s.crashes, int(std::size(kStopKillersAt)));

    // Processes: the last engine if it still runs (the last compile was not stopped, so it
    // does), every stopped or crashed one reaped.
    const int endEngine = s.engine->enginePid();
    QVERIFY2(kids.size() <= 1, "only the live engine should be a child of the app");
    for (const auto& kid : kids)
        QVERIFY2(kid.pid == endEngine && kid.state != 'Z', "only the live engine should be a child of the app");
    endWithoutLeaks(s);
    // A guard against a stall, not a speed goal: 44 s alone on the 2-core VM, 58 s beside a build.
    QVERIFY2(clock.elapsed() < 150000, "the stream should take well under 150 s");
}
QTEST_MAIN(TestStress)
#include "tst_stress.moc"
