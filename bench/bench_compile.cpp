// nvpg_bench: how much a whole `nvpg compile` process costs over the plain libNVVM calls on the
// same large module, measured in one run so that the ratios compare like with like.
//
//   BM_RawLibnvvm/K[/libdevice]         nvvmCreateProgram, nvvmAddModuleToProgram,
//                                       [nvvmLazyAddModuleToProgram(libdevice)],
//                                       nvvmCompileProgram(-arch=compute_90), result size/result,
//                                       nvvmDestroyProgram; in process, libNVVM already loaded
//   BM_PipelineInProcess/K[/libdevice]  pipeline::Pipeline::run on a new Pipeline (no Program reuse)
//   BM_NvpgProcess/K[/libdevice]        posix_spawn + wait4 of
//                                       `nvpg compile big.ll --arch compute_90 -o OUT [--libdevice]`
//   BM_Paired/K[/libdevice]             the raw calls, the smallest libNVVM process and an nvpg
//                                       process back to back; counters hold their ratios
//   BM_NvpgProcess/K[/libdevice]/default-search
//                                       the same with CUDA_HOME and CUDA_PATH removed from the
//                                       child's environment: nvpg's default toolkit search
//
// After the run it prints the ratios against the 1.10 target: of the medians, of the CPU times, of
// the fastest repetitions, and BM_Paired's back-to-back ratios (the steadiest). Flags of its own
// (the rest go to Google Benchmark):
//   --nvpg_kernels=300[,1000...]   module sizes (kernels per module); default 300
//   --nvpg_repetitions=N           repetitions per benchmark (one iteration each); default 7
//   --nvpg_default_search=0|1      also run the default-search process variants; default 1
//   --nvpg_executable=PATH         the nvpg to spawn; default: the one built with this bench
//   --nvpg_rawproc=PATH            the nvpg_bench_rawproc to spawn; default: the one built here
// Repetitions of different benchmarks are interleaved at random unless
// --benchmark_enable_random_interleaving is given, so that drift in the machine's load (other
// builds, frequency changes) falls on every benchmark alike instead of on whichever ran then.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <nvvm.h>

#include "BuildPaths.h"
#include "IrGenerator.h"
#include "RawNvvm.h"
#include "core/pipeline/Pipeline.h"
#include "core/toolkit/Toolkit.h"

extern char** environ;

namespace fs = std::filesystem;
using nvpg::bench::loadRawNvvm;
using nvpg::bench::rawCompile;
using nvpg::bench::RawNvvm;

namespace {

constexpr double kTarget = 1.10;
constexpr const char* kArch = "compute_90";
std::string gNvpg = nvpg::bench::built::nvpg;        // --nvpg_executable
std::string gRawProc = nvpg::bench::built::rawproc;  // --nvpg_rawproc

// ---- the nvpg process ----------------------------------------------------------------------

double cpuMs(const rusage& ru) {
    return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

// CPU time (user + system) of this whole process so far, every thread included.
double selfCpuMs() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    return cpuMs(ru);
}

// Runs `exe` with `args` and `envp`, stdout to /dev/null, stderr inherited; returns the exit
// status (or -1 when it could not be started or did not exit normally). `childCpuMs` gets the
// child's CPU time (user + system).
int runProcess(std::string& exe, const std::vector<std::string>& args, char** envp, double* childCpuMs = nullptr) {
    std::vector<char*> argv;
    argv.push_back(exe.data());
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), envp);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        std::fprintf(stderr, "nvpg_bench: cannot start %s: %s\n", exe.c_str(), std::strerror(rc));
        return -1;
    }
    int status = 0;
    rusage ru{};
    while (::wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR) return -1;
    if (childCpuMs) *childCpuMs = cpuMs(ru);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int runNvpg(const std::vector<std::string>& args, char** envp, double* childCpuMs = nullptr) {
    return runProcess(gNvpg, args, envp, childCpuMs);
}

// An environment: this process's, optionally without some variables.
class Environment {
public:
    explicit Environment(const std::vector<std::string>& drop = {}) {
        for (char** e = environ; *e; ++e) {
            const std::string entry = *e;
            bool keep = true;
            for (const auto& name : drop)
                if (entry.compare(0, name.size() + 1, name + "=") == 0) keep = false;
            if (keep) entries_.push_back(entry);
        }
        for (auto& e : entries_) ptrs_.push_back(e.data());
        ptrs_.push_back(nullptr);
    }
    char** envp() { return ptrs_.data(); }

private:
    std::vector<std::string> entries_;
    std::vector<char*> ptrs_;
};

// ---- shared state, set up before any benchmark runs -----------------------------------------

struct Input {
    int kernels = 0;
    bool libdevice = false;
    fs::path path;  // the module on disk, what nvpg reads
    std::string bytes;
};

struct Setup {
    fs::path dir;
    std::shared_ptr<const nvpg::toolkit::Toolkit> toolkit;
    RawNvvm raw;
    std::string libdevice;  // libdevice.10.bc's bytes, read once before timing
    std::vector<Input> inputs;
    Environment env;
    Environment defaultSearchEnv{{"CUDA_HOME", "CUDA_PATH"}};
};
Setup* g = nullptr;

const Input& input(int kernels, bool libdevice) {
    for (const auto& in : g->inputs)
        if (in.kernels == kernels && in.libdevice == libdevice) return in;
    std::abort();
}

std::vector<std::string> nvpgArgs(const Input& in) {
    std::vector<std::string> args = {
        "compile", in.path.string(), "--arch", kArch, "-o", (g->dir / (in.path.stem().string() + ".out.ptx")).string()};
    if (in.libdevice) args.push_back("--libdevice");
    return args;
}

std::vector<std::string> rawProcArgs(const Input& in) {
    std::vector<std::string> args = {g->toolkit->nvvmReport().path.string(), in.path.string(),
                                     (g->dir / (in.path.stem().string() + ".rawproc.ptx")).string()};
    if (in.libdevice) args.push_back(g->toolkit->libdeviceReport().path.string());
    return args;
}

// ---- the benchmarks ------------------------------------------------------------------------

void BM_RawLibnvvm(benchmark::State& state, int kernels, bool libdevice) {
    const Input& in = input(kernels, libdevice);
    std::string error;
    double cpu = 0;
    for (auto _ : state) {
        const double before = selfCpuMs();
        auto ptx = rawCompile(g->raw, in.bytes, libdevice ? &g->libdevice : nullptr, error);
        cpu += selfCpuMs() - before;
        if (!ptx) {
            state.SkipWithError(error.c_str());
            break;
        }
        benchmark::DoNotOptimize(ptx->data());
    }
    state.counters["cpu_ms"] = benchmark::Counter(cpu, benchmark::Counter::kAvgIterations);
}

void BM_PipelineInProcess(benchmark::State& state, int kernels, bool libdevice) {
    const Input& in = input(kernels, libdevice);
    nvpg::pipeline::Job job;
    job.modules.push_back({in.path.string(), in.bytes, false});
    (void)job.options.set("arch", kArch);
    job.libdevice = libdevice;
    job.outputs = nvpg::pipeline::kPtx;  // what `nvpg compile` asks for with the default --emit ptx
    double cpu = 0;
    for (auto _ : state) {
        const double before = selfCpuMs();
        nvpg::pipeline::Pipeline pipe(g->toolkit);  // new each time: no Program reuse
        auto result = pipe.run(job);
        cpu += selfCpuMs() - before;
        if (!result || !result->ok) {
            state.SkipWithError(result ? "the pipeline reported errors" : result.error().message.c_str());
            break;
        }
        benchmark::DoNotOptimize(result->ptx.data());
    }
    state.counters["cpu_ms"] = benchmark::Counter(cpu, benchmark::Counter::kAvgIterations);
}

void BM_NvpgProcess(benchmark::State& state, int kernels, bool libdevice, bool defaultSearch) {
    const auto args = nvpgArgs(input(kernels, libdevice));
    char** envp = defaultSearch ? g->defaultSearchEnv.envp() : g->env.envp();
    double cpu = 0;
    for (auto _ : state) {
        double child = 0;
        if (const int rc = runNvpg(args, envp, &child); rc != 0) {
            state.SkipWithError(("nvpg exited with status " + std::to_string(rc)).c_str());
            break;
        }
        cpu += child;
    }
    state.counters["cpu_ms"] = benchmark::Counter(cpu, benchmark::Counter::kAvgIterations);
}

// Three compiles back to back, their order rotating from one repetition to the next: the raw
// calls in process, the same calls in the smallest new process (nvpg_bench_rawproc), and an nvpg
// process. Counters, per repetition: `ratio` = nvpg / raw, `newproc` = rawproc / raw (what any new
// process pays), `nvpg_vs_newproc` = nvpg / rawproc (what nvpg adds to that). Drift in the
// machine's speed hits the three alike, so the medians of these ratios are steadier than ratios
// of separate medians.
void BM_Paired(benchmark::State& state, int kernels, bool libdevice) {
    const Input& in = input(kernels, libdevice);
    const auto args = nvpgArgs(in);
    const auto rawArgs = rawProcArgs(in);
    static int turn = 0;
    double ratio = 0, newproc = 0, nvpgVsNewproc = 0;
    std::string error;
    for (auto _ : state) {
        double t[3] = {};
        for (int leg = 0; leg < 3; ++leg) {
            const int which = (leg + turn) % 3;
            const auto start = std::chrono::steady_clock::now();
            if (which == 0) {
                if (!rawCompile(g->raw, in.bytes, libdevice ? &g->libdevice : nullptr, error)) {
                    state.SkipWithError(error.c_str());
                    return;
                }
            } else if (const int rc =
                           which == 1 ? runProcess(gRawProc, rawArgs, g->env.envp()) : runNvpg(args, g->env.envp());
                       rc != 0) {
                state.SkipWithError((std::string(which == 1 ? "nvpg_bench_rawproc" : "nvpg") + " exited with status " +
                                     std::to_string(rc))
                                        .c_str());
                return;
            }
            t[which] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
        ++turn;
        ratio += t[2] / t[0];
        newproc += t[1] / t[0];
        nvpgVsNewproc += t[2] / t[1];
    }
    state.counters["ratio"] = benchmark::Counter(ratio, benchmark::Counter::kAvgIterations);
    state.counters["newproc"] = benchmark::Counter(newproc, benchmark::Counter::kAvgIterations);
    state.counters["nvpg_vs_newproc"] = benchmark::Counter(nvpgVsNewproc, benchmark::Counter::kAvgIterations);
}

// ---- collecting the medians ------------------------------------------------------------------

// What a benchmark measures, by its name.
struct Key {
    std::string kind;  // "raw", "pipeline", "process", "process-default-search"
    int kernels = 0;
    bool libdevice = false;
    bool operator<(const Key& o) const {
        return std::tie(kind, kernels, libdevice) < std::tie(o.kind, o.kernels, o.libdevice);
    }
};
std::map<std::string, Key> gKeys;  // benchmark function name -> what it measures

struct Figure {
    double median = 0;     // real time, milliseconds
    double cv = NAN;       // coefficient of variation of the repetitions, when known
    double cpuMedian = 0;  // CPU time (user + system) of the process doing the work, milliseconds
    double min = 0;        // the fastest repetition, real time
    // BM_Paired: medians of the per-repetition ratios
    double pairedRatio = 0, pairedNewproc = 0, pairedNvpgVsNewproc = 0;
    std::vector<double> samples, cpuSamples, ratioSamples, newprocSamples, nvpgVsNewprocSamples;
};

double counter(const benchmark::BenchmarkReporter::Run& run, const char* name) {
    auto it = run.counters.find(name);
    return it == run.counters.end() ? 0 : it->second.value;
}

double mean(const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

// Prints as the console reporter does, and keeps each benchmark's median (or, without
// repetitions, the mean of its runs) in milliseconds.
class RatioReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const auto& run : runs) {
            auto it = gKeys.find(run.run_name.function_name);
            if (it == gKeys.end() || run.error_occurred) continue;
            auto& f = figures_[it->second];
            const double ms = run.GetAdjustedRealTime();  // every benchmark uses kMillisecond
            if (run.run_type == Run::RT_Aggregate) {
                if (run.aggregate_name == "median") {
                    f.median = ms;
                    f.cpuMedian = counter(run, "cpu_ms");
                    f.pairedRatio = counter(run, "ratio");
                    f.pairedNewproc = counter(run, "newproc");
                    f.pairedNvpgVsNewproc = counter(run, "nvpg_vs_newproc");
                }
                if (run.aggregate_name == "cv") f.cv = run.real_accumulated_time;  // a fraction
                if (run.aggregate_name == "min") f.min = ms;
            } else {
                f.samples.push_back(ms);
                f.cpuSamples.push_back(counter(run, "cpu_ms"));
                f.ratioSamples.push_back(counter(run, "ratio"));
                f.newprocSamples.push_back(counter(run, "newproc"));
                f.nvpgVsNewprocSamples.push_back(counter(run, "nvpg_vs_newproc"));
            }
        }
        ConsoleReporter::ReportRuns(runs);
    }

    std::optional<Figure> figure(const Key& key) const {
        auto it = figures_.find(key);
        if (it == figures_.end()) return std::nullopt;
        Figure f = it->second;
        if (f.median == 0) {
            f.median = mean(f.samples);
            f.cpuMedian = mean(f.cpuSamples);
            f.pairedRatio = mean(f.ratioSamples);
            f.pairedNewproc = mean(f.newprocSamples);
            f.pairedNvpgVsNewproc = mean(f.nvpgVsNewprocSamples);
        }
        if (f.min == 0 && !f.samples.empty()) f.min = *std::min_element(f.samples.begin(), f.samples.end());
        if (f.median == 0) return std::nullopt;
        return f;
    }

private:
    std::map<Key, Figure> figures_;
};

void printSummary(const RatioReporter& rep, const std::vector<int>& sizes) {
    const std::pair<const char*, const char*> kinds[] = {
        {"raw", "raw libNVVM calls (in process)"},
        {"pipeline", "Pipeline::run (in process)"},
        {"process", "nvpg compile process"},
        {"process-default-search", "nvpg compile process, CUDA_HOME/CUDA_PATH unset"},
    };
    auto variant = [](int k, bool ld) { return fmt::format("{} kernels{}", k, ld ? ", libdevice" : ""); };

    std::printf("\n== medians: real time (spread of the repetitions), CPU time user+sys; fastest repetition ==\n");
    for (int k : sizes)
        for (bool ld : {false, true})
            for (const auto& [kind, label] : kinds)
                if (auto f = rep.figure({kind, k, ld}))
                    std::printf(
                        "%s\n",
                        fmt::format("  {:<50} {:<22} {:>8.1f} ms{:<13} cpu {:>8.1f} ms   min {:>8.1f} ms", label,
                                    variant(k, ld), f->median,
                                    std::isnan(f->cv) ? std::string() : fmt::format(" (cv {:.1f}%)", f->cv * 100),
                                    f->cpuMedian, f->min)
                            .c_str());

    // The goal is stated in real time; the CPU-time ratio is printed beside it because it moves
    // much less when other work shares the machine.
    std::printf("\n== ratios of medians, real time (target <= %.2fx) ==\n", kTarget);
    std::string cpuLines, minLines;
    for (int k : sizes)
        for (bool ld : {false, true}) {
            const auto raw = rep.figure({"raw", k, ld});
            if (!raw) continue;
            for (const auto& [kind, label] : kinds) {
                if (std::string(kind) == "raw") continue;
                const auto f = rep.figure({kind, k, ld});
                if (!f) continue;
                const double ratio = f->median / raw->median;
                std::printf("%s\n", fmt::format("{} / raw libNVVM calls, {}: {:.3f}x ({:+.1f} ms; target <= {:.2f}x){}",
                                                label, variant(k, ld), ratio, f->median - raw->median, kTarget,
                                                ratio <= kTarget ? "" : "  ** over target **")
                                        .c_str());
                if (raw->min > 0 && f->min > 0)
                    minLines += fmt::format("{} / raw libNVVM calls, {}: {:.3f}x ({:+.1f} ms)\n", label, variant(k, ld),
                                            f->min / raw->min, f->min - raw->min);
                if (raw->cpuMedian > 0 && f->cpuMedian > 0)
                    cpuLines += fmt::format("{} / raw libNVVM calls, {}: {:.3f}x ({:+.1f} ms)\n", label, variant(k, ld),
                                            f->cpuMedian / raw->cpuMedian, f->cpuMedian - raw->cpuMedian);
            }
        }
    std::string pairedLines;
    for (int k : sizes)
        for (bool ld : {false, true})
            if (auto f = rep.figure({"paired", k, ld}); f && f->pairedRatio > 0) {
                pairedLines += fmt::format(
                    "nvpg compile process / raw libNVVM calls, {}, back to back: {:.3f}x (target <= {:.2f}x){}\n",
                    variant(k, ld), f->pairedRatio, kTarget, f->pairedRatio <= kTarget ? "" : "  ** over target **");
                pairedLines += fmt::format(
                    "  of which: smallest libNVVM process / raw calls {:.3f}x, nvpg process / smallest libNVVM process "
                    "{:.3f}x\n",
                    f->pairedNewproc, f->pairedNvpgVsNewproc);
            }
    if (!pairedLines.empty())
        std::printf(
            "\n== back-to-back ratios, medians of per-repetition ratios (steadier when the machine's speed drifts) "
            "==\n%s",
            pairedLines.c_str());
    if (!cpuLines.empty()) std::printf("\n== ratios of medians, CPU time user+sys ==\n%s", cpuLines.c_str());
    if (!minLines.empty())
        std::printf("\n== ratios of the fastest repetitions, real time (steadier on a busy machine) ==\n%s",
                    minLines.c_str());
}

// ---- set-up ----------------------------------------------------------------------------------

std::vector<int> parseSizes(const std::string& s) {
    std::vector<int> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
        if (int v = std::atoi(item.c_str()); v > 0) out.push_back(v);
    return out;
}

size_t countEntries(const std::string& ptx) {
    size_t n = 0;
    for (size_t pos = 0; (pos = ptx.find(".entry ", pos)) != std::string::npos; ++pos) ++n;
    return n;
}

bool prepare(Setup& s, const std::vector<int>& sizes) {
    auto tk = nvpg::toolkit::Toolkit::load();
    if (!tk) {
        std::fprintf(stderr, "nvpg_bench: %s\n", tk.error().message.c_str());
        return false;
    }
    s.toolkit = *tk;
    const auto& nvvmPath = s.toolkit->nvvmReport().path;
    auto raw = loadRawNvvm(nvvmPath);
    if (!raw) return false;
    s.raw = *raw;
    auto ld = s.toolkit->libdevice();
    if (!ld) {
        std::fprintf(stderr, "nvpg_bench: %s\n", ld.error().message.c_str());
        return false;
    }
    s.libdevice = **ld;
    std::fprintf(stderr, "nvpg_bench: libNVVM %s (%s %s), libdevice %s\n", s.toolkit->nvvmReport().version.c_str(),
                 nvvmPath.c_str(), s.toolkit->nvvmReport().via.c_str(), s.toolkit->libdeviceReport().path.c_str());
    std::fprintf(stderr, "nvpg_bench: nvpg %s, modules in %s\n", gNvpg.c_str(), s.dir.c_str());

    for (int k : sizes)
        for (bool withLd : {false, true}) {
            Input in;
            in.kernels = k;
            in.libdevice = withLd;
            in.path = s.dir / (std::string("big") + std::to_string(k) + (withLd ? "-libdevice" : "") + ".ll");
            in.bytes = nvpg::bench::generateModule(k, withLd);
            std::ofstream(in.path, std::ios::binary) << in.bytes;

            // The module must compile, to the same PTX through nvpg as through the raw calls:
            // otherwise the two sides would not do the same work. This also warms the caches.
            std::string error;
            auto ptx = rawCompile(s.raw, in.bytes, withLd ? &s.libdevice : nullptr, error);
            if (!ptx) {
                std::fprintf(stderr, "nvpg_bench: libNVVM rejected %s: %s\n", in.path.c_str(), error.c_str());
                return false;
            }
            if (countEntries(*ptx) != static_cast<size_t>(k)) {
                std::fprintf(stderr, "nvpg_bench: %s gave %zu .entry, expected %d\n", in.path.c_str(),
                             countEntries(*ptx), k);
                return false;
            }
            const auto args = nvpgArgs(in);
            if (const int rc = runNvpg(args, s.env.envp()); rc != 0) {
                std::fprintf(stderr, "nvpg_bench: nvpg %s failed with status %d\n", in.path.c_str(), rc);
                return false;
            }
            std::ifstream f(args[5], std::ios::binary);
            std::stringstream nvpgPtx;
            nvpgPtx << f.rdbuf();
            if (nvpgPtx.str() != *ptx)
                std::fprintf(stderr,
                             "nvpg_bench: warning: nvpg's PTX for %s differs from the raw calls' "
                             "(%zu vs %zu bytes)\n",
                             in.path.c_str(), nvpgPtx.str().size(), ptx->size());
            std::fprintf(stderr, "nvpg_bench: %s: %zu bytes of IR, %zu bytes of PTX, %d kernels\n",
                         in.path.filename().c_str(), in.bytes.size(), ptx->size(), k);
            s.inputs.push_back(std::move(in));
        }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    // Every nvpg process this spawns compiles: the result cache would answer the repetitions.
    ::setenv("NVPG_NO_CACHE", "1", 1);
    std::vector<int> sizes = {300};
    int repetitions = 7;
    bool defaultSearch = true;
    bool interleavingGiven = false;
    // Take our flags out before Google Benchmark sees the rest.
    std::vector<char*> rest = {argv[0]};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--nvpg_kernels=", 0) == 0)
            sizes = parseSizes(a.substr(15));
        else if (a.rfind("--nvpg_repetitions=", 0) == 0)
            repetitions = std::max(1, std::atoi(a.c_str() + 19));
        else if (a.rfind("--nvpg_default_search=", 0) == 0)
            defaultSearch = a.substr(22) != "0";
        else if (a.rfind("--nvpg_executable=", 0) == 0)
            gNvpg = a.substr(18);
        else if (a.rfind("--nvpg_rawproc=", 0) == 0)
            gRawProc = a.substr(15);
        else
            rest.push_back(argv[i]);
        if (a.rfind("--benchmark_enable_random_interleaving", 0) == 0) interleavingGiven = true;
    }
    std::string interleave = "--benchmark_enable_random_interleaving=true";
    if (!interleavingGiven) rest.push_back(interleave.data());
    if (sizes.empty()) {
        std::fprintf(stderr, "nvpg_bench: --nvpg_kernels wants kernel counts, e.g. 300 or 100,300\n");
        return 2;
    }
    int restc = static_cast<int>(rest.size());
    rest.push_back(nullptr);
    benchmark::Initialize(&restc, rest.data());
    if (benchmark::ReportUnrecognizedArguments(restc, rest.data())) return 2;

    char dirTemplate[] = "/tmp/nvpg-bench-XXXXXX";
    if (!::mkdtemp(dirTemplate)) {
        std::perror("nvpg_bench: mkdtemp");
        return 1;
    }
    Setup setup;
    setup.dir = dirTemplate;
    g = &setup;
    if (!prepare(setup, sizes)) {
        fs::remove_all(setup.dir);
        return 1;
    }

    auto reg = [&](const std::string& name, Key key, auto fn) {
        gKeys[name] = key;
        benchmark::RegisterBenchmark(name.c_str(), fn)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->Iterations(1)
            ->Repetitions(repetitions)
            ->ReportAggregatesOnly(true)
            // The fastest repetition: noise on a shared machine only ever adds time, so the
            // minimums give a steadier ratio than the medians when the repetitions spread widely.
            ->ComputeStatistics("min",
                                [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); });
    };
    for (int k : sizes)
        for (bool ld : {false, true}) {
            const std::string tail = "/" + std::to_string(k) + (ld ? "/libdevice" : "");
            reg("BM_RawLibnvvm" + tail, {"raw", k, ld}, [k, ld](benchmark::State& st) { BM_RawLibnvvm(st, k, ld); });
            reg("BM_PipelineInProcess" + tail, {"pipeline", k, ld},
                [k, ld](benchmark::State& st) { BM_PipelineInProcess(st, k, ld); });
            reg("BM_NvpgProcess" + tail, {"process", k, ld},
                [k, ld](benchmark::State& st) { BM_NvpgProcess(st, k, ld, false); });
            reg("BM_Paired" + tail, {"paired", k, ld}, [k, ld](benchmark::State& st) { BM_Paired(st, k, ld); });
            if (defaultSearch)
                reg("BM_NvpgProcess" + tail + "/default-search", {"process-default-search", k, ld},
                    [k, ld](benchmark::State& st) { BM_NvpgProcess(st, k, ld, true); });
        }

    RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    printSummary(reporter, sizes);
    std::fflush(stdout);
    fs::remove_all(setup.dir);
    return 0;
}
