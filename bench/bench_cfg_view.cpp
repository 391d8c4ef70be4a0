// nvpg_bench_cfg_view: the other graph goal, in the app's window (offscreen): while the
// Control Flow dock shows a 10,000-instruction kernel's graph, the UI thread never stalls over
// 16 ms. The kernel is nvpg_bench_cfg's (bench::generateBranchyKernel), opened as File > Open of a
// .ll does and compiled by the app; then the dock is opened and switched between the IR, PTX and
// (with nvdisasm) SASS graphs, each laid out on the dock's thread and drawn on the UI thread,
// scrolled through and zoomed. A probe thread posts an event to the UI thread every millisecond;
// the delay until it is handled is a stall (bench/GuiBench.h).
//
//   nvpg_bench_cfg_view [--instructions N] [--per-block N] [--rounds N] [--open FILE] [--screenshot PNG]
//
// --open shows FILE (a module or workspace) instead of the generated kernel; --screenshot saves the
// window with the first graph drawn (to see the layout as a person does).
// Printed: per graph its blocks, the layout's time (off the UI thread) and the longest stall
// while it was requested, drawn and painted; then the longest stall of all against the goal.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <QApplication>
#include <QDockWidget>
#include <QGraphicsView>
#include <QMessageBox>
#include <QScrollBar>
#include <QSignalSpy>
#include <QtTest/QTest>

#include <fmt/format.h>

#include "Goals.h"
#include "GuiBench.h"
#include "IrGenerator.h"
#include "core/engine/Server.h"
#include "gui/compile/CompileController.h"
#include "gui/panels/CfgPanel.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using bench::Clock;
using bench::msSince;

int main(int argc, char** argv) {
    // The engine process for compiles, as the app's own executable serves it.
    if (argc == 2 && !std::strcmp(argv[1], "--engine")) return engine::serveEngine(0, 1);
    int instructions = 10000, perBlock = 5, rounds = 3;
    std::string open, screenshot;
    for (int i = 1; i < argc; ++i) {
        auto value = [&] { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
        if (!std::strcmp(argv[i], "--instructions"))
            instructions = value();
        else if (!std::strcmp(argv[i], "--per-block"))
            perBlock = std::max(1, value());
        else if (!std::strcmp(argv[i], "--rounds"))
            rounds = std::max(1, value());
        else if (!std::strcmp(argv[i], "--open") && i + 1 < argc)
            open = argv[++i];
        else if (!std::strcmp(argv[i], "--screenshot") && i + 1 < argc)
            screenshot = argv[++i];
        else {
            std::fprintf(stderr,
                         "usage: %s [--instructions N] [--per-block N] [--rounds N] [--open FILE] [--screenshot PNG]\n",
                         argv[0]);
            return 2;
        }
    }
    const auto home = bench::freshProfile("nvpg-bench-cfg-view");
    if (home.empty()) return 1;
    bench::TimedApp app(argc, argv);
    QApplication::setOrganizationName("nvvm-playground");
    QApplication::setApplicationName("nvvm-playground");

    std::filesystem::path file = open;
    if (open.empty()) {
        file = home / "large.ll";
        std::ofstream(file, std::ios::binary) << bench::generateBranchyKernel(instructions, perBlock);
    }

    auto window = std::make_unique<gui::MainWindow>();
    auto& w = *window;
    w.setErrorSink([](const QString& title, const QString& message) {
        std::printf("error shown: %s: %s\n", qPrintable(title), qPrintable(message));
    });
    w.setSaveQuestion([] { return QMessageBox::Discard; });
    w.resize(1280, 720);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) std::printf("warning: the window was not exposed\n");
    if (!w.openPaths({QString::fromStdString(file.string())})) {
        std::printf("the module did not open\n");
        return 1;
    }
    // The compile with its SASS (when there is nvdisasm) and its line map, shown.
    const bool compiled = bench::spinUntil(
        [&] { return w.controller()->newestGeneration() > 0 && !w.controller()->busy() && !w.controller()->mapping(); },
        300000);
    bench::spinUntil([] { return false; }, 1000);
    if (!compiled) {
        std::printf("the compile did not come back\n");
        return 1;
    }

    auto* panel = w.cfgPanel();
    w.cfgDock()->show();
    w.cfgDock()->raise();
    bench::Probe probe;
    probe.start();
    probe.recording = true;
    app.recording = true;
    struct Shown {
        std::string source;
        size_t blocks = 0;
        double layoutMs = 0, stallMs = 0;
        double drawStallMs = 0, moveStallMs = 0;  // until drawn; scrolling and zooming after
    };
    std::vector<Shown> shown;
    const std::vector<std::pair<gui::CfgSource, const char*>> sources{
        {gui::CfgSource::Ir, "IR"}, {gui::CfgSource::Ptx, "PTX"}, {gui::CfgSource::Sass, "SASS"}};
    for (int round = 0; round < rounds; ++round)
        for (const auto& [source, name] : sources) {
            if (!panel->sourceUnavailable(source).isEmpty()) {
                if (round == 0)
                    std::printf("%s graph: not available (%s)\n", name, qPrintable(panel->sourceUnavailable(source)));
                continue;
            }
            const size_t first = probe.samples.size();
            QSignalSpy drawn(panel, &gui::CfgPanel::graphShown);
            panel->setSource(source);
            if (!bench::spinUntil([&] { return !drawn.isEmpty(); }, 60000)) {
                std::printf("%s graph: not drawn within 60 s (%s)\n", name, qPrintable(panel->note()));
                continue;
            }
            const size_t drawnAt = probe.samples.size();
            // What a person does next: scroll down through it, zoom in and out.
            auto* view = panel->view();
            auto* bar = view->verticalScrollBar();
            for (int step = 0; step <= 10; ++step) {
                bar->setValue(bar->minimum() + (bar->maximum() - bar->minimum()) * step / 10);
                bench::spinUntil([] { return false; }, 30);
            }
            view->scale(2, 2);
            bench::spinUntil([] { return false; }, 50);
            view->scale(0.5, 0.5);
            bench::spinUntil([] { return false; }, 200);
            if (!screenshot.empty()) {
                w.grab().save(QString::fromStdString(screenshot));
                screenshot.clear();
            }
            Shown s;
            s.source = name;
            if (const auto* laid = panel->shown(); laid && laid->source != source)
                s.source += " (shows " + std::string(laid->source == gui::CfgSource::Ptx ? "PTX" : "another") + ": " +
                            panel->note().toStdString() + ")";
            if (const auto* g = panel->shownGraph()) s.blocks = g->blocks.size();
            if (const auto* laid = panel->shown()) s.layoutMs = laid->layout.seconds * 1e3;
            for (size_t i = first; i < probe.samples.size(); ++i) {
                s.stallMs = std::max(s.stallMs, probe.samples[i].ms);
                (i < drawnAt ? s.drawStallMs : s.moveStallMs) =
                    std::max(i < drawnAt ? s.drawStallMs : s.moveStallMs, probe.samples[i].ms);
            }
            shown.push_back(s);
            // Back to another source before the next round shows this one again.
        }
    probe.recording = false;
    app.recording = false;
    probe.stop();
    if (shown.empty()) {
        std::printf("no graph was drawn\n");
        return 1;
    }
    double worst = 0, slowestLayout = 0;
    std::printf("%-6s %8s %12s %18s %14s %14s\n", "graph", "blocks", "layout", "longest UI stall", "drawing",
                "scroll/zoom");
    for (const auto& s : shown) {
        std::printf("%-6s %8zu %9.1f ms %15.1f ms %11.1f ms %11.1f ms\n", s.source.c_str(), s.blocks, s.layoutMs,
                    s.stallMs, s.drawStallMs, s.moveStallMs);
        worst = std::max(worst, s.stallMs);
        slowestLayout = std::max(slowestLayout, s.layoutMs);
    }
    std::vector<double> all;
    for (const auto& sample : probe.samples) all.push_back(sample.ms);
    const auto st = bench::stallStats(all);
    std::printf("event-loop stalls over %zu probes: longest %.1f ms, p99 %.2f ms, median %.2f ms\n", st.n, st.worst,
                st.p99, st.p50);
    // What ran in the long deliveries, grouped: count and longest.
    std::map<std::string, std::pair<int, double>> byWhat;
    for (const auto& d : app.slow) {
        auto& [count, longest] = byWhat[d.what];
        ++count;
        longest = std::max(longest, msSince(d.start, d.end));
    }
    std::printf("deliveries of 4 ms or more on the UI thread (count, longest):\n");
    for (const auto& [what, cw] : byWhat) std::printf("  %4d x %7.1f ms  %s\n", cw.first, cw.second, what.c_str());
    if (byWhat.empty()) std::printf("  none\n");
    bench::printGoal(fmt::format("app: slowest graph layout ({} instructions, off the UI thread)", instructions),
                     slowestLayout, " ms", true, 300);
    bench::printGoal("app: longest event-loop stall showing the graphs", worst, " ms", true, 16);
    window.reset();
    std::filesystem::remove_all(home);
    return 0;
}
