#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QThread>

#include "compile/Engine.h"

namespace nvpg::gui {

class CompileWorker;
class RunWorker;

// Where the engine works: the command that starts the engine process (empty: in this process,
// for debugging) and the CUDA toolkit it uses (none: searched as nvpg does).
struct EngineSettings {
    std::vector<std::string> command;
    std::optional<std::filesystem::path> cudaPath;
    double compileTimeoutSeconds = 300;  // a compile still running then is stopped, its engine too
    static EngineSettings defaults();  // this executable with --engine, or NVPG_ENGINE's
};

// The engine on two background QThreads, each talking to an engine process of its own (libNVVM
// and the GPU work there, so that what kills them leaves the window up). The compile side's
// engine keeps the NVVM Program of the current modules: an edit makes a new Program, an
// options change compiles the same one again. When requests pile up during a long compile,
// only the newest is run. Runs have their own thread and engine: a kernel that hangs blocks
// them until the run's timeout, and compiles must go on meanwhile.
class ThreadEngine : public Engine {
    Q_OBJECT

public:
    // A null toolkit: every request replies with `whyNone` until setToolkit gives one.
    ThreadEngine(std::shared_ptr<const toolkit::Toolkit> toolkit, const QString& whyNone,
                 EngineSettings settings = EngineSettings::defaults(), QObject* parent = nullptr);
    ~ThreadEngine() override;  // waits for a compile or run in flight to end

    void submit(const pipeline::Job& job) override;
    void setToolkit(std::shared_ptr<const toolkit::Toolkit> toolkit, const QString& whyNone = {}) override;
    void run(const RunRequest& request) override;
    void probeGpu() override;

    // Takes effect with the next setToolkit.
    void setEngineSettings(const EngineSettings& settings);

    // For tests: how many requests were skipped because a newer one came.
    int skipped() const { return skipped_.load(); }
    // For tests: the compile engine process's id after the last compile (0: none running).
    int enginePid() const { return enginePid_.load(); }

private:
    QThread thread_;
    QThread runThread_;
    CompileWorker* worker_ = nullptr;
    RunWorker* runWorker_ = nullptr;
    std::shared_ptr<std::atomic<quint64>> newest_ = std::make_shared<std::atomic<quint64>>(0);
    std::atomic<int> skipped_{0};
    std::atomic<int> enginePid_{0};
};

}  // namespace nvpg::gui
