#pragma once

#include <atomic>
#include <memory>

#include <QThread>

#include "engine/Engine.h"

namespace nvpg::gui {

class CompileWorker;
class RunWorker;

// The engine on two background QThreads. The compile worker owns the pipeline and with it the
// NVVM Program of the current modules: an edit makes a new Program, an options change compiles
// the same one again. When requests pile up during a long compile, only the newest is run.
// The run worker owns the GPU session on a thread of its own: a kernel that hangs blocks its
// thread until the run's timeout, and compiles must go on meanwhile.
class ThreadEngine : public Engine {
    Q_OBJECT

public:
    // A null toolkit: every request replies with `whyNone` until setToolkit gives one.
    ThreadEngine(std::shared_ptr<const toolkit::Toolkit> toolkit, const QString& whyNone, QObject* parent = nullptr);
    ~ThreadEngine() override;  // waits for a compile or run in flight to end

    void submit(const pipeline::Job& job) override;
    void setToolkit(std::shared_ptr<const toolkit::Toolkit> toolkit, const QString& whyNone = {}) override;
    void run(const RunRequest& request) override;
    void probeGpu() override;

    // For tests: how many requests were skipped because a newer one came.
    int skipped() const { return skipped_.load(); }

private:
    QThread thread_;
    QThread runThread_;
    CompileWorker* worker_ = nullptr;
    RunWorker* runWorker_ = nullptr;
    std::shared_ptr<std::atomic<quint64>> newest_ = std::make_shared<std::atomic<quint64>>(0);
    std::atomic<int> skipped_{0};
};

}  // namespace nvpg::gui
