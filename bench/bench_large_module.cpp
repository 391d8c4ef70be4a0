// nvpg_bench_large: the large-input goal, measured the way a user meets it. A 200,000-line
// module (the bench generator's) is opened in the app's window as File > Open of a .ll does, then
// typed into, in the middle and at the end, one key at a time with the event loop running between
// keys, until the compiles that the typing starts have come back and been shown.
//
//   nvpg_bench_large [--lines N] [--keys N] [--interval MS] [--settle S] [--libdevice]
//
// Printed: the time from the open call until the editor has painted the module (goal <= 1000 ms),
// and the UI thread's longest stall during the typing session (goal <= 16 ms), its 99th
// percentile, and the deliveries that made the long stalls. A stall is measured by a probe thread
// that posts an event to the UI thread every millisecond and waits for it: the delay until it is
// handled is how long a key press arriving then would have waited. The idle time between keys is
// not a stall (the probe is answered at once), everything the app does per key is: the key itself,
// restyling, the debounced compile request, the reply shown, the journal, marks, panels.
//
// Runs on Qt's offscreen platform (set unless QT_QPA_PLATFORM is), with HOME and XDG_* under a
// fresh temporary directory, and this executable as its own engine process (like the app's).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QMetaObject>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QtTest/QTest>

#include <Qsci/qsciscintilla.h>

#include <fmt/format.h>

#include "Goals.h"
#include "GuiBench.h"
#include "IrGenerator.h"
#include "core/engine/Server.h"
#include "gui/compile/CompileController.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/editor/NvvmLexer.h"
#include "gui/window/MainWindow.h"

namespace {

using nvpg::bench::Clock;
using nvpg::bench::msSince;
using nvpg::bench::Probe;
using nvpg::bench::spinUntil;
using nvpg::bench::TimedApp;

// Types `text` into `e` one key per `intervalMs`, the event loop running in between.
void typeSlowly(QWidget* e, const QString& text, int intervalMs) {
    for (QChar c : text) {
        if (c == QLatin1Char('\n'))
            QTest::keyClick(e, Qt::Key_Return);
        else
            QTest::keyClicks(e, QString(c));
        QEventLoop loop;
        QTimer::singleShot(intervalMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
}

}  // namespace

int main(int argc, char** argv) {
    // The engine process for compiles, as the app's own executable serves it.
    if (argc == 2 && !std::strcmp(argv[1], "--engine")) return nvpg::engine::serveEngine(0, 1);

    int lines = 200000, keys = 200, intervalMs = 50, settleS = 180;
    bool libdevice = false;
    for (int i = 1; i < argc; ++i) {
        auto value = [&] { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
        if (!std::strcmp(argv[i], "--lines"))
            lines = value();
        else if (!std::strcmp(argv[i], "--keys"))
            keys = value();
        else if (!std::strcmp(argv[i], "--interval"))
            intervalMs = value();
        else if (!std::strcmp(argv[i], "--settle"))
            settleS = value();
        else if (!std::strcmp(argv[i], "--libdevice"))
            libdevice = true;
        else {
            std::fprintf(stderr, "usage: %s [--lines N] [--keys N] [--interval MS] [--settle S] [--libdevice]\n",
                         argv[0]);
            return 2;
        }
    }

    // A fresh profile: no settings, journals, recent files or caches of the user's.
    const std::filesystem::path home = nvpg::bench::freshProfile("nvpg-bench-large");
    if (home.empty()) return 1;

    TimedApp app(argc, argv);
    QApplication::setOrganizationName("nvvm-playground");
    QApplication::setApplicationName("nvvm-playground");

    const int kernels = nvpg::bench::kernelsForLines(lines, libdevice);
    const std::string ir = nvpg::bench::generateModule(kernels, libdevice);
    const auto file = home / "large.ll";
    std::ofstream(file, std::ios::binary) << ir;
    const long irLines = long(std::count(ir.begin(), ir.end(), '\n'));
    std::printf("module: %s, %d kernels, %ld lines, %.1f MB\n", file.c_str(), kernels, irLines, ir.size() / 1e6);

    auto window = std::make_unique<nvpg::gui::MainWindow>();
    auto& w = *window;
    w.setErrorSink([](const QString& title, const QString& message) {
        std::printf("error shown: %s: %s\n", qPrintable(title), qPrintable(message));
    });
    w.setSaveQuestion([] { return QMessageBox::Discard; });
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) std::printf("warning: the window was not exposed\n");
    spinUntil([] { return false; }, 500);  // start-up work (the GPU query) out of the way

    Probe probe;
    probe.start();

    // Open: from the call until the editor has painted the module.
    const auto t0 = Clock::now();
    app.recording = true;
    // The editor is made inside openPaths; its viewport's first paint after that is the one seen.
    QObject::connect(w.editors(), &nvpg::gui::EditorArea::editorMade, [&](int module) {
        if (auto* e = w.editors()->madeEditor(module)) app.paintWatch = e->viewport();
    });
    if (!w.openPaths({QString::fromStdString(file.string())})) {
        std::printf("the module did not open\n");
        return 1;
    }
    const auto tReturned = Clock::now();
    spinUntil([&] { return app.paintedAt != Clock::time_point{}; }, 20000);
    const auto tPainted = app.paintedAt;
    auto* e = w.editors()->currentEditor();
    if (!e || e->lines() < irLines) {
        std::printf("the editor does not show the module (%d lines)\n", e ? e->lines() : -1);
        return 1;
    }
    const double openMs = msSince(t0, tPainted);
    std::printf(
        "open: openPaths returned after %.1f ms, the editor painted the module after %.1f ms (goal <= 1000 ms)\n",
        msSince(t0, tReturned), openMs);
    for (const auto& d : app.slow)
        std::printf("  during open: %7.1f ms at +%.0f ms  %s\n", msSince(d.start, d.end), msSince(t0, d.start),
                    d.what.c_str());
    app.slow.clear();

    // Let the open's compile run; typing starts while it does, as a user would.
    spinUntil([] { return false; }, 300);

    // Typing: `keys` characters in the middle, then at the end; then waiting for the compiles.
    app.recording = true;
    probe.recording = true;
    const auto tTyping = Clock::now();
    QString text;
    const QString sentence = QStringLiteral("  %t%1 = fadd float %v, 1.0 ; typed\n");
    for (int i = 0; text.size() < keys; ++i) text += sentence.arg(i);
    text.truncate(keys);
    // Moving there is not typing: each jump (and the paint that styles what comes into view) is
    // timed on its own, then typing starts once the loop is idle again.
    std::vector<double> jumpStalls;
    auto jump = [&](int line, const char* where) {
        probe.phase = 1;
        const size_t first = probe.samples.size();
        const auto t = Clock::now();
        e->goTo(line, 1);
        e->repaint();
        const double callMs = msSince(t, Clock::now());
        // Until the screen is styled (at once, or in idle steps for a large module).
        spinUntil(
            [&] {
                const long lastVisible = e->SendScintilla(QsciScintillaBase::SCI_GETFIRSTVISIBLELINE) +
                                         e->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN);
                const long pos = e->SendScintilla(QsciScintillaBase::SCI_POSITIONFROMLINE,
                                                  std::min<long>(lastVisible, e->lines() - 1));
                return e->SendScintilla(QsciScintillaBase::SCI_GETENDSTYLED) >= pos;
            },
            20000);
        const double styledMs = msSince(t, Clock::now());
        spinUntil([] { return false; }, 100);
        double worst = callMs;
        for (size_t i = first; i < probe.samples.size(); ++i) worst = std::max(worst, probe.samples[i].ms);
        jumpStalls.push_back(worst);
        std::printf("moving to %s: the screen styled after %.1f ms; the move itself %.1f ms, longest stall %.1f ms\n",
                    where, styledMs, callMs, worst);
        probe.phase = 2;
    };
    const int middle = e->lines() / 2;
    e->setFocus();
    jump(middle + 1, "the middle");
    typeSlowly(e, text, intervalMs);
    const auto tMiddleDone = Clock::now();
    const int linesAfterMiddle = e->lines();
    jump(e->lines(), "the end");
    e->SendScintilla(QsciScintillaBase::SCI_LINEEND);
    typeSlowly(e, QStringLiteral("\n") + text.left(keys - 1), intervalMs);
    const auto tEndDone = Clock::now();
    // The debounced compile of the final text, its reply shown, its SASS and map.
    const bool settled = spinUntil(
        [&] { return msSince(tEndDone, Clock::now()) > 1500 && !w.controller()->busy() && !w.controller()->mapping(); },
        settleS * 1000);
    spinUntil([] { return false; }, 500);
    const auto tSettled = Clock::now();
    probe.recording = false;
    app.recording = false;
    probe.stop();

    std::vector<double> all, typingOnly;
    for (const auto& sample : probe.samples) {
        if (sample.phase != 2) continue;
        all.push_back(sample.ms);
        if (sample.posted <= tEndDone) typingOnly.push_back(sample.ms);
    }
    const auto sa = nvpg::bench::stallStats(all), st = nvpg::bench::stallStats(typingOnly);
    std::printf(
        "typing: %d keys in the middle (%.1f s), %d at the end (%.1f s), every %d ms; then %.1f s until the "
        "compiles were shown%s\n",
        keys, msSince(tTyping, tMiddleDone) / 1000, keys, msSince(tMiddleDone, tEndDone) / 1000, intervalMs,
        msSince(tEndDone, tSettled) / 1000, settled ? "" : " (gave up waiting)");
    std::printf(
        "event-loop stalls while typing (%zu probes): longest %.1f ms (goal <= 16 ms), p99 %.2f ms, median %.2f ms\n",
        st.n, st.worst, st.p99, st.p50);
    std::printf(
        "event-loop stalls, typing and the replies after it (%zu probes): longest %.1f ms (goal <= 16 ms), "
        "p99 %.2f ms, median %.2f ms\n",
        sa.n, sa.worst, sa.p99, sa.p50);
    std::printf("goal: open %.0f ms / 1000 ms = %.2fx; longest stall %.1f ms / 16 ms = %.2fx\n", openMs, openMs / 1000,
                sa.worst, sa.worst / 16);
    nvpg::bench::printGoal(fmt::format("app: open a {}-line module, until painted", irLines), openMs, " ms", true,
                           1000);
    nvpg::bench::printGoal("app: longest event-loop stall while typing in it", st.worst, " ms", true, 16);
    // The deliveries behind the stalls, longest first, grouped by what ran.
    std::map<std::string, std::pair<int, double>> byWhat;
    for (const auto& d : app.slow) {
        auto& [count, worst] = byWhat[d.what];
        ++count;
        worst = std::max(worst, msSince(d.start, d.end));
    }
    std::vector<std::pair<std::string, std::pair<int, double>>> sorted(byWhat.begin(), byWhat.end());
    std::sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) { return a.second.second > b.second.second; });
    std::printf("deliveries of 4 ms or more on the UI thread (count, longest):\n");
    for (size_t i = 0; i < sorted.size() && i < 25; ++i)
        std::printf("  %4d x  %7.1f ms  %s\n", sorted[i].second.first, sorted[i].second.second,
                    sorted[i].first.c_str());
    if (sorted.empty()) std::printf("  none\n");
    std::map<std::string, std::pair<int, double>> innerByWhat;
    for (const auto& d : app.inner) {
        auto& [count, worst] = innerByWhat[d.what];
        ++count;
        worst = std::max(worst, msSince(d.start, d.end));
    }
    std::printf("widget paints of 1 ms or more inside them (count, longest):\n");
    for (const auto& [what, cw] : innerByWhat)
        std::printf("  %4d x  %7.1f ms  %s\n", cw.first, cw.second, what.c_str());
    std::vector<std::pair<std::string, std::pair<int, double>>> totals(app.paintTotals.begin(), app.paintTotals.end());
    std::sort(totals.begin(), totals.end(), [](auto& a, auto& b) { return a.second.second > b.second.second; });
    std::printf("widget paints, most time in all first (count, ms in all):\n");
    for (size_t i = 0; i < totals.size() && i < 10; ++i)
        std::printf("  %5d x  %8.1f ms  %s\n", totals[i].second.first, totals[i].second.second,
                    totals[i].first.c_str());
    std::printf("lines: %ld at the start, %d after typing in the middle\n", irLines, linesAfterMiddle);
    for (const char* pane : {"ptxEditor", "ltoEditor"})
        if (auto* out = w.findChild<QsciScintilla*>(QString::fromLatin1(pane)))
            std::printf("%s shows %d lines\n", pane, out->lines());
    std::printf("final text: %d lines, %s compiles shown: generation %llu\n", e->lines(), settled ? "all" : "not all",
                (unsigned long long)w.controller()->newestGeneration());
    window.reset();
    std::filesystem::remove_all(home);
    return 0;
}
