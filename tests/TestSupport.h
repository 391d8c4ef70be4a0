// Shared by the Qt Test suites: where the fixtures are, and the real toolkit.
#pragma once

#include <QtTest>

#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

// AddressSanitizer reserves terabytes of address space for its shadow memory: under a lowered
// limit on it (ulimit -v, RLIMIT_AS) a sanitized program fails before the code under test runs.
// Tests that need such a limit skip it, or check the rest, in that build.
#if defined(__SANITIZE_ADDRESS__)
#define NVPG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NVPG_ASAN 1
#endif
#endif
#ifndef NVPG_ASAN
#define NVPG_ASAN 0
#endif

#include "BuildPaths.h"
#include "Mutate.h"
#include "core/nvvm/Module.h"
#include "core/pipeline/Job.h"
#include "core/support/Files.h"
#include "core/support/Installed.h"
#include "core/support/Text.h"
#include "core/toolkit/Toolkit.h"
#include "core/workspace/Workspace.h"

namespace nvpg::test {

// The tree as built; NVPG_SOURCE_DIR / NVPG_BINARY_DIR in the environment move them (the GPU
// test machine runs the binaries from a copy of the project at another path).
inline std::filesystem::path sourceDir() {
    const char* env = std::getenv("NVPG_SOURCE_DIR");
    return env && *env ? env : built::sourceDir;
}
inline std::filesystem::path binaryDir() {
    const char* env = std::getenv("NVPG_BINARY_DIR");
    return env && *env ? env : built::binaryDir;
}
inline std::filesystem::path dataDir() {
    return sourceDir() / "tests/data";
}
inline std::filesystem::path examplesDir() {
    return sourceDir() / "resources/examples";
}

// The bundled examples by name ("saxpy", "two-modules", ...), sorted: every .nvpg the app offers.
inline std::vector<std::string> exampleNames() {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(examplesDir()))
        if (e.path().extension() == ".nvpg") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}
inline std::filesystem::path examplePath(const std::string& name) {
    auto path = examplesDir() / name;
    return path += ".nvpg";
}
// A bundled example's workspace, as the app opens it; one that does not load ends the suite.
inline workspace::Workspace loadExample(const std::string& name) {
    auto ws = workspace::loadWorkspace(examplePath(name));
    if (!ws) qFatal("%s", ws.error().message.c_str());
    return *ws;
}

// The real libNVVM, libdevice and nvJitLink, found the way the product finds them; loaded once
// per test binary. The tests that prove features need them, so a missing toolkit fails the test.
inline std::shared_ptr<toolkit::Toolkit> realToolkit() {
    static std::shared_ptr<toolkit::Toolkit> tk = [] {
        auto loaded = toolkit::Toolkit::load();
        if (!loaded) qFatal("%s", loaded.error().message.c_str());
        return *loaded;
    }();
    return tk;
}

// nvdisasm for the suites that test SASS, found by the real toolkit search: the toolkit's own
// where it has one (the GPU machine's), else the pip wheel that ctest's nvdisasm_wheel set-up
// (tests/FetchNvdisasm.sh) put in a venv whose python3 is first on PATH. `skip` only when that
// set-up could not get the wheel (no network) or did not run: the test skips, saying why. A
// wheel that was set up but not found is the search's fault, and the test fails.
struct NvdisasmForTests {
    const std::filesystem::path* path = nullptr;
    bool skip = false;
    std::string why;
};
inline NvdisasmForTests nvdisasmForTests() {
    NvdisasmForTests out;
    out.path = realToolkit()->nvdisasm();
    if (out.path) return out;
    const char* venv = std::getenv("NVPG_TEST_PYTHON");
    std::string status;
    if (venv && *venv)
        if (auto s = support::readFile(std::filesystem::path(venv) / "nvdisasm-status")) status = support::trim(*s);
    const auto problem = realToolkit()->nvdisasmReport().problem;
    if (status.rfind("ok", 0) == 0) {
        out.why =
            "the nvdisasm_wheel set-up installed " + status + " but the toolkit search did not find it: " + problem;
    } else {
        out.skip = true;
        out.why = status.empty()
                      ? "no nvdisasm, and the nvdisasm_wheel set-up did not run (run the suite with ctest): " + problem
                      : "no nvdisasm: the set-up says " + status;
    }
    return out;
}

// A test that needs nvdisasm: skips where the nvdisasm_wheel set-up could not get it, fails where
// it got it and the search did not find it (nvdisasmForTests). NEED_NVDISASM(var) also declares
// `var`, the path found.
#define NEED_NVDISASM(var)                                    \
    const auto var##Found = ::nvpg::test::nvdisasmForTests(); \
    if (!var##Found.path) {                                   \
        if (var##Found.skip) QSKIP(var##Found.why.c_str());   \
        QFAIL(var##Found.why.c_str());                        \
    }                                                         \
    const std::filesystem::path& var = *var##Found.path
#define NEED_NVDISASM_FOUND()                                \
    do {                                                     \
        const auto found = ::nvpg::test::nvdisasmForTests(); \
        if (!found.path) {                                   \
            if (found.skip) QSKIP(found.why.c_str());        \
            QFAIL(found.why.c_str());                        \
        }                                                    \
    } while (false)

inline std::string readText(const std::filesystem::path& p) {
    auto r = support::readFile(p);
    if (!r) qFatal("%s", r.error().message.c_str());
    return *r;
}

// A numba-cuda fixture's modules (tests/data/numba/<kernel>.json names them), in the order numba
// adds them to its program.
inline std::vector<nvvm::Module> numbaModules(const std::string& kernel) {
    const auto dir = dataDir() / "numba";
    const auto meta = nlohmann::json::parse(readText(dir / (kernel + ".json")));
    std::vector<nvvm::Module> modules;
    for (const auto& m : meta["modules"]) {
        const auto file = m.get<std::string>();
        modules.push_back({file, readText(dir / file), false});
    }
    return modules;
}

// A numba-cuda fixture as numba compiles it: its modules, its libNVVM options (.options), and
// libdevice, which numba adds to every program.
inline pipeline::Job numbaJob(const std::string& name) {
    const auto dir = dataDir() / "numba";
    pipeline::Job job;
    job.modules = numbaModules(name);
    const auto options = readText(dir / (name + ".options"));
    for (auto line : support::splitLines(options)) {
        line = support::trim(line);
        if (line.empty()) continue;
        if (line == "-gen-lto") {
            job.outputs |= pipeline::kLtoPtx;
            continue;
        }
        const auto eq = line.find('=');
        if (line[0] != '-' || eq == std::string_view::npos)
            qFatal("%s: odd option %s", name.c_str(), std::string(line).c_str());
        if (auto st = job.options.set(line.substr(1, eq - 1), line.substr(eq + 1)); !st)
            qFatal("%s", st.error().message.c_str());
    }
    job.libdevice = true;  // numba adds libdevice to every program
    return job;
}

// Every bundled example as the app opens it (its modules, options, libdevice and LTO mode) and
// every numba-cuda fixture as numba compiles it (numbaJob), named "example NAME" and "numba NAME",
// sorted by name: the inputs a suite checks a feature on.
inline std::vector<std::pair<std::string, pipeline::Job>> exampleAndNumbaJobs() {
    std::vector<std::pair<std::string, pipeline::Job>> jobs;
    for (const auto& name : exampleNames()) {
        const auto ws = loadExample(name);
        pipeline::Job job;
        job.modules = ws.modules;
        job.options = ws.options;
        job.libdevice = ws.libdevice;
        job.ltoMode = ws.ltoMode;
        jobs.emplace_back("example " + name, job);
    }
    for (const auto& e : std::filesystem::directory_iterator(dataDir() / "numba"))
        if (e.path().extension() == ".options")
            jobs.emplace_back("numba " + e.path().stem().string(), numbaJob(e.path().stem().string()));
    std::sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return jobs;
}

// nvpg, as built (NVPG_CLI in the environment moves it: the GPU machine runs a copy elsewhere).
inline std::string nvpgPath() {
    const char* moved = std::getenv("NVPG_CLI");
    return moved && *moved ? moved : built::nvpg;
}
// The app's compiles and runs go to nvpg's engine process: a test binary cannot serve as one.
inline void useNvpgAsEngine() {
    qputenv("NVPG_ENGINE", QByteArray::fromStdString(nvpgPath()) + " engine");
}

// The environment with a stand-in `name` first on PATH: a shell script running `command` (a
// python3 or nvdisasm that hangs, say).
inline QProcessEnvironment withHangingTool(const QTemporaryDir& dir, const QString& name, const QString& command) {
    const auto tool = dir.filePath(name);
    if (!support::writeFileAtomic(tool.toStdString(), ("#!/bin/sh\n" + command + "\n").toStdString()) ||
        !QFile::setPermissions(tool, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner))
        qFatal("cannot write %s", qPrintable(tool));
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("PATH", dir.path() + ":" + env.value("PATH"));
    return env;
}

// A scratch folder for the whole test binary, removed when it ends.
inline std::filesystem::path scratchDir() {
    static QTemporaryDir dir;
    return dir.path().toStdString();
}

// A copy of libdevice.10.bc, mutated with the first seed that makes plain libNVVM die (the
// process killed by a signal: SIGSEGV, or abort on "LLVM ERROR: out of memory") when it is
// compiled in-process by `nvpg compile --in-process`. About one seed in ten does. Found once per
// test binary; nullopt (with `why`) when no seed up to 200 does, e.g. with another libNVVM.
inline std::optional<std::filesystem::path> bitcodeThatKillsLibnvvm(QString* why = nullptr) {
    static const std::optional<std::filesystem::path> found = []() -> std::optional<std::filesystem::path> {
        auto libdevice = realToolkit()->libdevice();
        if (!libdevice) return std::nullopt;
        const auto path = scratchDir() / "killer.bc";
        for (uint64_t seed = 1; seed <= 200; ++seed) {
            if (!support::writeFileAtomic(path, mutateBytes(**libdevice, seed))) return std::nullopt;
            QProcess p;
            p.start(QString::fromStdString(nvpgPath()),
                    {"compile", "--in-process", "-o", "/dev/null", QString::fromStdString(path.string())});
            if (p.waitForFinished(120000) && p.exitStatus() == QProcess::CrashExit) {
                qInfo("libdevice.10.bc mutated with seed %llu kills libNVVM", (unsigned long long)seed);
                return path;
            }
        }
        return std::nullopt;
    }();
    if (!found && why) *why = "no mutated libdevice.10.bc (seeds 1-200) kills this libNVVM";
    return found;
}

// Watches the UI thread's event loop: a 5 ms timer, and the longest gap between its ticks while
// `busy()` holds. A gap is how long the window could not answer because of the app: the time the
// thread sat runnable waiting for a CPU (the kernel's run_delay in /proc/thread-self/schedstat)
// is taken out, since that is the machine's load (another build beside the tests), not a stall
// of ours. Time the thread spent working or blocked (on a lock, a pipe, a child) stays in.
class EventLoopProbe {
public:
    explicit EventLoopProbe(std::function<bool()> busy) : busy_(std::move(busy)) {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(5);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            const qint64 now = clock_.elapsed();
            const qint64 waited = runQueueWaitMs();
            if (busy_()) {
                worstWall_ = std::max(worstWall_, now - last_);
                worst_ = std::max(worst_, now - last_ - (waited - lastWaited_));
                ++ticks_;
            }
            last_ = now;
            lastWaited_ = waited;
        });
        clock_.start();
        lastWaited_ = runQueueWaitMs();
        timer_.start();
    }
    void stop() { timer_.stop(); }
    // The longest gap less the time spent waiting for a CPU in it.
    qint64 worstGapMs() const { return worst_; }
    // The longest gap as a clock on the wall saw it, for the log.
    qint64 worstWallGapMs() const { return worstWall_; }
    int ticks() const { return ticks_; }

private:
    // The calling thread's time runnable but not running, in ms; 0 where the kernel does not say.
    static qint64 runQueueWaitMs() {
        std::ifstream in("/proc/thread-self/schedstat");
        unsigned long long runNs = 0, waitNs = 0;
        if (!(in >> runNs >> waitNs)) return 0;
        return qint64(waitNs / 1000000);
    }
    std::function<bool()> busy_;
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0, worst_ = 0, worstWall_ = 0, lastWaited_ = 0;
    int ticks_ = 0;
};

// A module from tests/data/<folder>/<name>, named by its file name.
inline nvvm::Module irFixture(const std::string& name, bool lazy = false, const char* folder = "ir") {
    return {name, readText(dataDir() / folder / name), lazy};
}

// Settings, journals and other app data of this suite in Qt's test locations, apart from the
// user's and from other suites', with no settings left from an earlier run.
inline void isolateAppData(const char* suite) {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("nvpg-test");
    QCoreApplication::setApplicationName(suite);
    QSettings().clear();
    // A build carried to another machine (the GPU test machine) is no longer in its build tree,
    // so the app would not find the source tree's examples; point it at them.
    if (!support::runsFromBuildTree())
        qputenv("NVPG_DATA_DIR", QByteArray::fromStdString((sourceDir() / "resources").string()));
}

// A text module with `kernels` small looping kernels (k0, k1, ...), optionally calling libdevice's
// __nv_expf: big enough that compiling it takes a while, for tests about concurrency.
inline nvvm::Module manyKernelsModule(int kernels, bool libdevice = false) {
    std::string ir =
        "target datalayout = \"e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-"
        "f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64\"\ntarget triple = \"nvptx64-nvidia-cuda\"\n";
    if (libdevice) ir += "declare float @__nv_expf(float)\n";
    std::string annotations;
    for (int k = 0; k < kernels; ++k) {
        const auto n = std::to_string(k);
        ir += "define void @k" + n +
              "(float* %p, i32 %n) {\nentry:\n  br label %loop\nloop:\n"
              "  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]\n  %q = getelementptr float, float* %p, i32 %i\n"
              "  %v = load float, float* %q\n";
        ir += libdevice ? "  %e = call float @__nv_expf(float %v)\n" : "  %e = fadd float %v, 3.0\n";
        // Whole-number float constants are exact, as LLVM IR text requires.
        ir += "  %w = fmul float %e, " + n +
              ".0\n  store float %w, float* %q\n  %i1 = add i32 %i, 1\n"
              "  %c = icmp slt i32 %i1, %n\n  br i1 %c, label %loop, label %done\ndone:\n  ret void\n}\n";
        annotations += (k ? ", !" : "!") + std::to_string(k + 1);
    }
    ir += "!nvvm.annotations = !{" + annotations + "}\n";
    for (int k = 0; k < kernels; ++k)
        ir +=
            "!" + std::to_string(k + 1) + " = !{void (float*, i32)* @k" + std::to_string(k) + ", !\"kernel\", i32 1}\n";
    ir += "!nvvmir.version = !{!0}\n!0 = !{i32 2, i32 0}\n";
    return {"big.ll", ir, false};
}

// The IR of a global `@name` in global memory with `elements` initialised i32s (0, 7, 14, ... mod
// 1000): libNVVM writes it as one PTX line of megabytes (".global .align 4 .b8 name[...] = {...}"),
// the line on which std::regex's recursion overflowed the stack. Add it to any module.
inline std::string bigGlobalIr(std::string_view name, int elements) {
    std::string ir = "@" + std::string(name) + " = addrspace(1) global [" + std::to_string(elements) + " x i32] [";
    ir.reserve(ir.size() + size_t(elements) * 9);
    for (int i = 0; i < elements; ++i) {
        if (i) ir += ", ";
        ir += "i32 " + std::to_string((i * 7) % 1000);
    }
    return ir + "]\n";
}

// /proc/PID/stat's fields after the command name: state, ppid, ...; empty when it is gone.
inline std::vector<std::string> statFields(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line)) return {};
    const auto close = line.rfind(')');
    if (close == std::string::npos) return {};
    std::vector<std::string> fields;
    for (auto f : support::split(std::string_view(line).substr(close + 2), ' ')) fields.emplace_back(f);
    return fields;
}

// A zombie has ended: it only waits for whoever inherited it to reap it.
inline bool alive(pid_t pid) {
    const auto f = statFields(pid);
    return !f.empty() && f[0] != "Z";
}

// The children of `parent` that are running now.
inline std::vector<pid_t> childrenOf(pid_t parent) {
    std::vector<pid_t> children;
    for (const auto& name : QDir("/proc").entryList(QDir::Dirs)) {
        bool isPid = false;
        const pid_t pid = name.toInt(&isPid);
        if (!isPid) continue;
        const auto f = statFields(pid);
        if (f.size() > 1 && f[1] == std::to_string(parent) && f[0] != "Z") children.push_back(pid);
    }
    return children;
}

// The first child of `parent` that shows up within `ms`.
inline pid_t childOf(pid_t parent, int ms) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < until) {
        if (const auto children = childrenOf(parent); !children.empty()) return children.front();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
}

// Whether `pid` ends within `ms`; kills it when it does not, so that no test leaves one behind.
inline bool endsWithin(pid_t pid, int ms) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (alive(pid) && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!alive(pid)) return true;
    ::kill(pid, SIGKILL);
    return false;
}

}  // namespace nvpg::test
