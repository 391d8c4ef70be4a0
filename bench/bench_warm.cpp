// nvpg_bench_warm: what one compile costs in a process that is already running, the case of the
// app on every edit. For each numba-cuda fixture, with numba's options and libdevice, interleaved
// repetitions (rotating order) of
//   raw      the plain libNVVM calls in this process, numba's sequence (add, verify, lazy
//            libdevice, compile, result, destroy) on a libNVVM loaded before timing;
//   engine   engine::Compiler with its engine process started before timing (what the app and
//            nvpg use), one compile request and its reply, no result cache;
//   in-process  the same Compiler working in this process: the pipeline without the protocol;
//   cuda.core  (when python3 can import cuda.core) bench/cuda_core_warm.py: Program(code, "nvvm",
//            ProgramOptions(...)).compile("ptx"|"ltoir") in a warm Python process.
// Each side compiles each input in bursts of B (5) back to back, the sides and inputs in rotating
// order, until it has N (15) timed compiles of each. Every compile edits the module (a comment line with the
// repetition's number at its end), on every side alike: as after a keystroke, nothing may reuse the last compile's
// Program.
//   nvpg_bench_warm [--repetitions N] [--burst B] [--python PYTHON] [--nvpg PATH] [INPUT.ll ...]
// It prints min and median per side and the goals' ratios: engine / raw (≤ 1.05) and cuda.core /
// engine (≥ 1.3).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "Goals.h"
#include "Inputs.h"
#include "RawNvvm.h"
#include "Stats.h"
#include "core/engine/Compiler.h"
#include "core/support/Files.h"
#include "core/toolkit/Toolkit.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace nvpg;

using bench::median;
using bench::minimum;

namespace {

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string edited(const std::string& text, int n) {
    return text + "\n; edit " + std::to_string(n) + "\n";
}

// The cuda.core side: one python process for all of it, its per-repetition ms on stdout as
// "NAME ms ms ms...". Nothing when python or cuda.core is missing (said on stderr).
std::map<std::string, std::vector<double>> runCudaCore(const std::string& python, const fs::path& script,
                                                       const std::vector<fs::path>& inputs, int repetitions,
                                                       std::string& note) {
    std::string cmd = fmt::format("'{}' '{}' --repetitions {}", python, script.string(), repetitions);
    for (const auto& p : inputs) cmd += " '" + p.string() + "'";
    std::map<std::string, std::vector<double>> out;
    FILE* pipe = ::popen(cmd.c_str(), "r");
    if (!pipe) {
        note = "cannot start " + python;
        return out;
    }
    char buf[1 << 16];
    while (std::fgets(buf, sizeof buf, pipe)) {
        std::istringstream line(buf);
        std::string word;
        line >> word;
        if (word == "#") {  // the script's own notes: which libNVVM it loaded, or why it could not run
            std::string rest;
            std::getline(line, rest);
            note += (note.empty() ? "" : "; ") +
                    rest.substr(rest.find_first_not_of(' ') == std::string::npos ? 0 : rest.find_first_not_of(' '));
            continue;
        }
        double ms = 0;
        while (line >> ms) out[word].push_back(ms);
    }
    const int status = ::pclose(pipe);
    if (status != 0 && out.empty() && note.empty()) note = "the cuda.core script failed";
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    int repetitions = 15;
    int burst = 5;
    std::string python = "python3";
    fs::path nvpgPath = nvpg::bench::built::nvpg;
    std::vector<fs::path> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repetitions" && i + 1 < argc)
            repetitions = std::max(1, std::atoi(argv[++i]));
        else if (a == "--burst" && i + 1 < argc)
            burst = std::max(1, std::atoi(argv[++i]));
        else if (a == "--python" && i + 1 < argc)
            python = argv[++i];
        else if (a == "--nvpg" && i + 1 < argc)
            nvpgPath = argv[++i];
        else if (a == "-h" || a == "--help") {
            std::printf("usage: %s [--repetitions N] [--burst B] [--python PYTHON] [--nvpg PATH] [INPUT.ll ...]\n",
                        argv[0]);
            return 0;
        } else
            paths.emplace_back(a);
    }
    if (paths.empty()) paths = bench::numbaFixtures();

    auto tk = toolkit::Toolkit::load();
    if (!tk) {
        std::fprintf(stderr, "%s\n", tk.error().message.c_str());
        return 2;
    }
    std::shared_ptr<const toolkit::Toolkit> toolkit = *tk;
    auto raw = bench::loadRawNvvm(toolkit->nvvmReport().path);
    if (!raw) return 2;
    auto libdeviceBytes = support::readFile(toolkit->libdeviceReport().path);
    if (!libdeviceBytes) {
        std::fprintf(stderr, "%s\n", libdeviceBytes.error().message.c_str());
        return 2;
    }
    std::printf("libNVVM %s\nlibdevice %s\nengine: %s engine\n", toolkit->nvvmReport().path.c_str(),
                toolkit->libdeviceReport().path.c_str(), nvpgPath.c_str());

    std::vector<bench::Input> inputs;
    for (const auto& p : paths) {
        auto in = bench::loadInput(p, "compute_90");
        if (!in) return 2;
        // -gen-lto in numba's options: the LTO-IR is the output, as numba asks for it.
        in->job.outputs = in->job.options.genLto ? pipeline::kLtoIr : pipeline::kPtx;
        in->job.options.genLto = false;
        inputs.push_back(std::move(*in));
    }

    // One warm engine for all inputs, as the app keeps one; started and used once before timing.
    engine::Compiler compiler(toolkit, std::nullopt, std::vector<std::string>{nvpgPath.string(), "engine"});
    // The same pipeline in this process: the engine's own cost without the protocol and the pipes.
    engine::Compiler local(toolkit, std::nullopt, std::vector<std::string>{});
    std::map<std::string, std::vector<double>> rawMs, engineMs, localMs;
    // Rounds of bursts: in each round, each side compiles each input `burst` times back to back
    // (each an edit of its own), the sides in rotating order. A burst is what "warm" means in use
    // (the app's engine compiles edit after edit; cuda.core's script compiles its repetitions in
    // a row), and it keeps a side's caches from being the other sides' leftovers. Round -1 warms
    // every side up, untimed.
    const int rounds = (repetitions + burst - 1) / burst;
    for (int rep = -1; rep < rounds; ++rep) {
        for (size_t k = 0; k < inputs.size(); ++k) {
            const auto& in = inputs[(k + std::max(rep, 0)) % inputs.size()];
            auto jobOf = [&](int b) {
                auto job = in.job;
                const int edit = (rep + 1) * burst + b + 1;
                job.modules.front().bytes = edited(job.modules.front().bytes, edit);
                job.generation = uint64_t(edit);
                return job;
            };
            auto job = jobOf(0);
            std::vector<std::string> flags = job.options.flags();
            if (job.outputs == pipeline::kLtoIr && std::find(flags.begin(), flags.end(), "-gen-lto") == flags.end())
                flags.push_back("-gen-lto");
            auto runRaw = [&] {
                for (int b = 0; b < burst; ++b) {
                    job = jobOf(b);
                    std::vector<std::string> mods;
                    for (const auto& m : job.modules) mods.push_back(m.bytes);
                    std::string error;
                    const auto t0 = Clock::now();
                    auto out = bench::rawCompileAsNumba(*raw, mods, job.libdevice ? &*libdeviceBytes : nullptr, flags,
                                                        /*verify=*/true, error);
                    const double ms = msSince(t0);
                    if (!out) {
                        std::fprintf(stderr, "%s: raw calls failed: %s\n", in.name.c_str(), error.c_str());
                        std::exit(1);
                    }
                    if (rep >= 0) rawMs[in.name].push_back(ms);
                }
            };
            auto runEngine = [&] {
                for (int b = 0; b < burst; ++b) {
                    job = jobOf(b);
                    const auto t0 = Clock::now();
                    auto out = compiler.run(job);
                    const double ms = msSince(t0);
                    if (!out || !out->ok) {
                        std::fprintf(stderr, "%s: the engine's compile failed%s\n", in.name.c_str(),
                                     out ? "" : (": " + out.error().message).c_str());
                        std::exit(1);
                    }
                    if (rep >= 0) engineMs[in.name].push_back(ms);
                }
            };
            auto runLocal = [&] {
                for (int b = 0; b < burst; ++b) {
                    job = jobOf(b);
                    const auto t0 = Clock::now();
                    auto out = local.run(job);
                    const double ms = msSince(t0);
                    if (out && out->ok && rep >= 0) localMs[in.name].push_back(ms);
                }
            };
            // The order rotates, so that a side never always runs first (cold caches) or last.
            std::function<void()> sides[] = {runRaw, runEngine, runLocal};
            for (int s = 0; s < 3; ++s) sides[(s + std::max(rep, 0) + int(k)) % 3]();
        }
    }
    std::string note;
    std::vector<fs::path> pyInputs;
    for (const auto& p : paths) pyInputs.push_back(p);
    auto coreMs = runCudaCore(python, bench::sourceDir() / "bench/cuda_core_warm.py", pyInputs, repetitions, note);
    if (!note.empty()) std::printf("cuda.core: %s\n", note.c_str());

    std::printf("\n== warm compile in a running process: ms per compile, min / median of %d (bursts of %d) ==\n",
                rounds * burst, burst);
    std::printf("%-22s %17s %17s %17s %17s %10s %12s\n", "input", "raw libNVVM", "engine (nvpg)", "in-process",
                "cuda.core 1.2", "engine/raw", "core/engine");
    std::vector<double> rEngineRaw, rCoreEngine;
    for (const auto& in : inputs) {
        const auto& r = rawMs[in.name];
        const auto& e = engineMs[in.name];
        const auto it = coreMs.find(in.name);
        const double core = it == coreMs.end() ? NAN : median(it->second);
        const double er = median(e) / median(r), ce = core / median(e);
        rEngineRaw.push_back(er);
        if (!std::isnan(ce)) rCoreEngine.push_back(ce);
        const auto& l = localMs[in.name];
        std::printf("%-22s %7.2f / %7.2f %7.2f / %7.2f %7.2f / %7.2f %7.2f / %7.2f %9.3fx %11.3fx\n", in.name.c_str(),
                    minimum(r), median(r), minimum(e), median(e), minimum(l), median(l),
                    it == coreMs.end() ? NAN : minimum(it->second), core, er, ce);
    }
    auto geomean = [](const std::vector<double>& v) {
        double s = 0;
        for (double x : v) s += std::log(x);
        return v.empty() ? NAN : std::exp(s / double(v.size()));
    };
    std::printf("(ratios: medians; the goals below are their geometric means over the inputs)\n");
    bench::printGoal("warm engine compile / raw libNVVM calls in process", geomean(rEngineRaw), "x", true, 1.05);
    bench::printGoal("cuda.core warm Program.compile / warm engine compile", geomean(rCoreEngine), "x", false, 1.3);
    if (rCoreEngine.empty()) std::printf("cuda.core: not measured (%s)\n", note.empty() ? "no figures" : note.c_str());
    return 0;
}
