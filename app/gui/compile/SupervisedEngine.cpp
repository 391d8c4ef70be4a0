#include "gui/compile/SupervisedEngine.h"

#include <cmath>

#include <QTimer>

#include "core/cache/ResultCache.h"
#include "core/engine/Compiler.h"
#include "core/engine/Runner.h"

namespace nvpg::gui {

// Lives on the engine thread; every slot runs there.
class CompileWorker : public QObject {
    Q_OBJECT

public:
    CompileWorker(std::shared_ptr<std::atomic<quint64>> newest, std::shared_ptr<InFlight> inFlight,
                  std::atomic<int>& skipped, std::atomic<int>& enginePid)
        : newest_(std::move(newest)), inFlight_(std::move(inFlight)), skipped_(skipped), enginePid_(enginePid) {}

public slots:
    void run(const nvpg::pipeline::Job& job) {
        auto cancel = std::make_shared<engine::CallCancel>();
        {
            std::lock_guard lock(inFlight_->mutex);
            if (job.generation < newest_->load()) {
                ++skipped_;  // a newer request is queued behind this one
                return;
            }
            if (job.generation <= inFlight_->cancelledUpTo) {
                // Cancelled while it waited: answered as a stopped compile would be.
                emit replied(cancelledReply(job.generation));
                return;
            }
            if (compiler_) {
                inFlight_->generation = job.generation;
                inFlight_->since = std::chrono::steady_clock::now();
                inFlight_->cancel = cancel;
            }
        }
        EngineReply reply;
        reply.generation = job.generation;
        if (!compiler_) {
            reply.error = whyNone_;
            emit replied(reply);
            return;
        }
        // The plain result goes to the panes at once; the map follows when run returns.
        bool plainSent = false;
        auto r = compiler_->run(
            job,
            [&](const pipeline::StageEvent& stage) {
                // The engine doing this compile (a new one after a stop), while it runs.
                enginePid_.store(compiler_->enginePid());
                emit stageStarted(job.generation, stage);
            },
            cancel.get(),
            [&](const pipeline::CompileResult& plain) {
                if (cancel->cancelled()) return;
                EngineReply early;
                early.generation = job.generation;
                early.result = std::make_shared<const pipeline::CompileResult>(plain);
                plainSent = true;
                // The engine that made it, for whoever reads the pid once the plain reply is shown.
                enginePid_.store(compiler_->enginePid());
                {
                    std::lock_guard lock(inFlight_->mutex);
                    inFlight_->plainSent = true;
                    // What was sent when, for whoever reads it once the plain reply is shown.
                    inFlight_->sentGeneration = job.generation;
                    inFlight_->sentAt = compiler_->lastSent();
                }
                emit replied(early);
            },
            [&](const pipeline::CompileResult& partial) {
                if (cancel->cancelled()) return;
                EngineReply part;
                part.generation = job.generation;
                part.result = std::make_shared<const pipeline::CompileResult>(partial);
                emit ptxReplied(part);
            },
            [&](const pipeline::CompileResult& listed) {
                if (cancel->cancelled()) return;
                emit sassReplied(job.generation, std::make_shared<const pipeline::CompileResult>(listed));
            });
        enginePid_.store(compiler_->enginePid());
        {
            std::lock_guard lock(inFlight_->mutex);
            inFlight_->generation = 0;
            inFlight_->plainSent = false;
            inFlight_->cancel.reset();
            inFlight_->sentGeneration = job.generation;
            inFlight_->sentAt = compiler_->lastSent();
            if (compiler_->stoppedLastRun()) ++inFlight_->stopped;
        }
        if (plainSent) {
            // The plain result is on screen; stopped while making the rest, it stands alone.
            if (pipeline::hasLateOutputs(job))
                emit lateReplied(job.generation, !cancel->cancelled() && r
                                                     ? std::make_shared<const pipeline::CompileResult>(std::move(*r))
                                                     : nullptr);
            return;
        }
        if (cancel->cancelled())
            reply = cancelledReply(job.generation);
        else if (r)
            reply.result = std::make_shared<const pipeline::CompileResult>(std::move(*r));
        else
            reply.error = QString::fromStdString(r.error().message);
        // The far machine's failures (unreachable, refused): the way back to this machine.
        if (!r && settings_.far && r.error().kind == support::ErrorKind::Environment)
            reply.error += tr("; File ▸ Settings… ▸ Engine ▸ On this machine compiles here");
        emit replied(reply);
        if (pipeline::hasLateOutputs(job)) emit lateReplied(job.generation, reply.result);
    }
    void setToolkit(std::shared_ptr<const nvpg::toolkit::Toolkit> toolkit, const QString& whyNone) {
        // libNVVM works in the engine process: input that kills it takes only that process. A far
        // engine needs no toolkit here: the far machine's compiles.
        if (settings_.far) {
            compiler_ = settings_.command.empty()
                            ? nullptr
                            : std::make_unique<engine::Compiler>(nullptr, std::nullopt, settings_.command,
                                                                 settings_.compileTimeoutSeconds);
            if (compiler_) compiler_->setFarEnd(*settings_.far);
        } else {
            compiler_ = toolkit ? std::make_unique<engine::Compiler>(std::move(toolkit), settings_.cudaPath,
                                                                     settings_.command, settings_.compileTimeoutSeconds)
                                : nullptr;
        }
        // The cache outlives Compilers: results of the old libraries miss by their key anyway.
        if (compiler_) compiler_->setCache(cache_);
        enginePid_.store(0);  // the old Compiler took its engine with it
        whyNone_ =
            settings_.far && !settings_.farProblem.empty() ? QString::fromStdString(settings_.farProblem) : whyNone;
        std::lock_guard lock(inFlight_->mutex);
        inFlight_->stopAfterSeconds = settings_.stopAfterSeconds;
    }

public:
    EngineSettings settings_;

signals:
    void replied(const nvpg::gui::EngineReply& reply);
    void ptxReplied(const nvpg::gui::EngineReply& reply);
    void stageStarted(quint64 generation, const nvpg::pipeline::StageEvent& stage);
    void lateReplied(quint64 generation, std::shared_ptr<const nvpg::pipeline::CompileResult> result);
    void sassReplied(quint64 generation, std::shared_ptr<const nvpg::pipeline::CompileResult> result);

private:
    static EngineReply cancelledReply(quint64 generation) {
        EngineReply reply;
        reply.generation = generation;
        reply.cancelled = true;
        reply.error = QStringLiteral("cancelled");
        return reply;
    }

    std::unique_ptr<engine::Compiler> compiler_;
    // Switching tabs, an undo or an option set back answers from memory; a reopened workspace
    // from the files of an earlier session.
    std::shared_ptr<cache::ResultCache> cache_ = cache::ResultCache::openDefault();
    QString whyNone_;
    std::shared_ptr<std::atomic<quint64>> newest_;
    std::shared_ptr<InFlight> inFlight_;
    std::atomic<int>& skipped_;
    std::atomic<int>& enginePid_;
};

// Lives on the run thread; every slot runs there. The Runner keeps its driver session (and the
// CUDA context) between runs, so it stays on this one thread.
class RunWorker : public QObject {
    Q_OBJECT

public:
    EngineSettings settings_;
    void run(const RunRequest& request) {
        RunReply reply;
        reply.id = request.id;
        if (!runner_) {
            reply.error = whyNone_;
            reply.kind = support::ErrorKind::Environment;
        } else if (!request.compiled) {
            reply.error = QStringLiteral("there is no compiled program to run");
            reply.kind = support::ErrorKind::Usage;
        } else {
            auto r = runner_->run(*request.compiled, request.config, request.baseDir);
            if (r) {
                reply.outcome = std::make_shared<const gpu::RunOutcome>(std::move(*r));
            } else {
                reply.error = QString::fromStdString(r.error().message);
                reply.kind = r.error().kind;
            }
        }
        emit replied(reply);
    }
    void probe() {
        // The far machine's GPUs, asked once over this worker's connection to it.
        if (settings_.far && !runner_ && farCompiler_) {
            auto far = farCompiler_->describeFar(/*withGpus=*/true);
            if (far)
                runner_ = std::make_unique<engine::Runner>(*farCompiler_->engineProcess(), *settings_.far,
                                                           std::move(*far), 0);
            else
                whyNone_ = QString::fromStdString(far.error().message);
        }
        if (!runner_) {
            emit probed(false, whyNone_);
            return;
        }
        std::string why;
        const bool ok = runner_->gpuAvailable(&why);
        emit probed(ok, QString::fromStdString(why));
    }
    void setToolkit(std::shared_ptr<const nvpg::toolkit::Toolkit> toolkit, const QString& whyNone) {
        // Kernels run in an engine process, so one that faults or hangs cannot take the window
        // with it. A far engine's runner comes with its GPUs, once probe() has asked for them.
        runner_.reset();
        farCompiler_.reset();
        if (settings_.far) {
            whyNone_ = QString::fromStdString(settings_.farProblem);
            if (settings_.command.empty()) return;
            farCompiler_ = std::make_unique<engine::Compiler>(nullptr, std::nullopt, settings_.command,
                                                              settings_.compileTimeoutSeconds);
            farCompiler_->setFarEnd(*settings_.far);
            return;
        }
        runner_ = toolkit ? std::make_unique<engine::Runner>(std::move(toolkit), 0, settings_.command) : nullptr;
        whyNone_ = whyNone.isEmpty() ? QStringLiteral("libNVVM is not available") : whyNone;
    }

signals:
    void replied(const nvpg::gui::RunReply& reply);
    void probed(bool available, const QString& why);

private:
    // Declared first, so that the runner that borrows its connection goes before it.
    std::unique_ptr<engine::Compiler> farCompiler_;  // the far engine's connection for runs
    std::unique_ptr<engine::Runner> runner_;
    QString whyNone_;
};

EngineSettings EngineSettings::defaults() {
    // The app itself, started with --engine, serves as the engine process.
    return {engine::engineCommand("--engine"), std::nullopt};
}

SupervisedEngine::SupervisedEngine(std::shared_ptr<const toolkit::Toolkit> toolkit, const QString& whyNone,
                                   EngineSettings settings, QObject* parent)
    : Engine(parent) {
    qRegisterMetaType<nvpg::gui::EngineReply>();
    qRegisterMetaType<nvpg::pipeline::Job>("nvpg::pipeline::Job");
    qRegisterMetaType<nvpg::pipeline::StageEvent>("nvpg::pipeline::StageEvent");
    qRegisterMetaType<std::shared_ptr<const nvpg::toolkit::Toolkit>>("std::shared_ptr<const nvpg::toolkit::Toolkit>");
    qRegisterMetaType<std::shared_ptr<const nvpg::inspect::LineMap>>("std::shared_ptr<const nvpg::inspect::LineMap>");
    qRegisterMetaType<std::shared_ptr<const nvpg::pipeline::CompileResult>>(
        "std::shared_ptr<const nvpg::pipeline::CompileResult>");
    qRegisterMetaType<nvpg::gui::RunRequest>();
    qRegisterMetaType<nvpg::gui::RunReply>();
    thread_.setObjectName("nvpg-engine");
    worker_ = new CompileWorker(newest_, inFlight_, skipped_, enginePid_);
    worker_->settings_ = settings;
    worker_->setToolkit(toolkit, whyNone);
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &CompileWorker::replied, this, &Engine::replied, Qt::QueuedConnection);
    connect(worker_, &CompileWorker::stageStarted, this, &Engine::stageStarted, Qt::QueuedConnection);
    connect(worker_, &CompileWorker::lateReplied, this, &Engine::lateReplied, Qt::QueuedConnection);
    connect(worker_, &CompileWorker::ptxReplied, this, &Engine::ptxReplied, Qt::QueuedConnection);
    connect(worker_, &CompileWorker::sassReplied, this, &Engine::sassReplied, Qt::QueuedConnection);
    thread_.start();

    runThread_.setObjectName("nvpg-run");
    runWorker_ = new RunWorker;
    runWorker_->settings_ = settings;
    runWorker_->setToolkit(std::move(toolkit), whyNone);
    runWorker_->moveToThread(&runThread_);
    connect(&runThread_, &QThread::finished, runWorker_, &QObject::deleteLater);
    connect(runWorker_, &RunWorker::replied, this, &Engine::runReplied, Qt::QueuedConnection);
    connect(runWorker_, &RunWorker::probed, this, &SupervisedEngine::setGpuStatus, Qt::QueuedConnection);
    runThread_.start();
    probeGpu();
}

SupervisedEngine::~SupervisedEngine() {
    {
        // Nobody waits for that compile any more: closing the window must not wait for it.
        std::lock_guard lock(inFlight_->mutex);
        if (inFlight_->cancel && inFlight_->stopAfterSeconds >= 0) inFlight_->cancel->cancel();
    }
    thread_.quit();
    runThread_.quit();
    thread_.wait();
    runThread_.wait();
}

void SupervisedEngine::run(const RunRequest& request) {
    QMetaObject::invokeMethod(
        runWorker_, [w = runWorker_, request] { w->run(request); }, Qt::QueuedConnection);
}

void SupervisedEngine::probeGpu() {
    QMetaObject::invokeMethod(
        runWorker_, [w = runWorker_] { w->probe(); }, Qt::QueuedConnection);
}

void SupervisedEngine::submit(const pipeline::Job& job) {
    newest_->store(job.generation);
    QMetaObject::invokeMethod(worker_, "run", Qt::QueuedConnection, Q_ARG(nvpg::pipeline::Job, job));
    // The compile in flight is not wanted any more. A young one is likely to end sooner than a
    // new engine would be ready, so it gets until stopAfterSeconds to do so.
    std::lock_guard lock(inFlight_->mutex);
    const auto& f = *inFlight_;
    if (f.generation == 0 || f.generation >= job.generation || f.stopAfterSeconds < 0 || f.plainSent) return;
    const auto age = std::chrono::duration<double>(std::chrono::steady_clock::now() - f.since).count();
    if (age >= f.stopAfterSeconds) {
        f.cancel->cancel();
    } else {
        const int waitMs = int(std::ceil((f.stopAfterSeconds - age) * 1000));
        QTimer::singleShot(waitMs, this, [this, g = f.generation] { stopIfOld(g); });
    }
}

void SupervisedEngine::stopIfOld(quint64 generation) {
    std::lock_guard lock(inFlight_->mutex);
    if (inFlight_->generation == generation && newest_->load() > generation && !inFlight_->plainSent)
        inFlight_->cancel->cancel();
}

void SupervisedEngine::cancel(quint64 upTo) {
    // The user chose to stop it: at once, however young it is.
    std::lock_guard lock(inFlight_->mutex);
    if (inFlight_->stopAfterSeconds < 0) return;
    inFlight_->cancelledUpTo = std::max(inFlight_->cancelledUpTo, upTo);
    if (inFlight_->generation != 0 && inFlight_->generation <= upTo) inFlight_->cancel->cancel();
}

int SupervisedEngine::stoppedCompiles() const {
    std::lock_guard lock(inFlight_->mutex);
    return inFlight_->stopped;
}

std::chrono::steady_clock::time_point SupervisedEngine::lastRequestSent(quint64* generation) const {
    std::lock_guard lock(inFlight_->mutex);
    if (generation) *generation = inFlight_->sentGeneration;
    return inFlight_->sentAt;
}

void SupervisedEngine::setEngineSettings(const EngineSettings& settings) {
    QMetaObject::invokeMethod(
        worker_, [w = worker_, settings] { w->settings_ = settings; }, Qt::QueuedConnection);
    QMetaObject::invokeMethod(
        runWorker_, [w = runWorker_, settings] { w->settings_ = settings; }, Qt::QueuedConnection);
}

void SupervisedEngine::setToolkit(std::shared_ptr<const toolkit::Toolkit> toolkit, const QString& whyNone) {
    QMetaObject::invokeMethod(worker_, "setToolkit", Qt::QueuedConnection,
                              Q_ARG(std::shared_ptr<const nvpg::toolkit::Toolkit>, toolkit), Q_ARG(QString, whyNone));
    QMetaObject::invokeMethod(
        runWorker_, [w = runWorker_, toolkit, whyNone] { w->setToolkit(toolkit, whyNone); }, Qt::QueuedConnection);
    probeGpu();
}

}  // namespace nvpg::gui

#include "SupervisedEngine.moc"
