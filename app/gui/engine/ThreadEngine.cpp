#include "engine/ThreadEngine.h"

#include "pipeline/Pipeline.h"

namespace nvpg::gui {

// Lives on the engine thread; every slot runs there.
class CompileWorker : public QObject {
    Q_OBJECT

public:
    CompileWorker(std::shared_ptr<std::atomic<quint64>> newest, std::atomic<int>& skipped)
        : newest_(std::move(newest)), skipped_(skipped) {}

public slots:
    void run(const nvpg::pipeline::Job& job) {
        if (job.generation < newest_->load()) {
            ++skipped_;  // a newer request is queued behind this one
            return;
        }
        EngineReply reply;
        reply.generation = job.generation;
        if (!pipeline_) {
            reply.error = whyNone_;
            emit replied(reply);
            return;
        }
        auto r = pipeline_->run(job);
        if (r)
            reply.result = std::make_shared<const pipeline::Result>(std::move(*r));
        else
            reply.error = QString::fromStdString(r.error().message);
        emit replied(reply);
    }
    void setToolkit(std::shared_ptr<const nvpg::toolkit::Toolkit> toolkit, const QString& whyNone) {
        pipeline_ = toolkit ? std::make_unique<pipeline::Pipeline>(std::move(toolkit)) : nullptr;
        whyNone_ = whyNone;
    }

signals:
    void replied(const nvpg::gui::EngineReply& reply);

private:
    std::unique_ptr<pipeline::Pipeline> pipeline_;
    QString whyNone_;
    std::shared_ptr<std::atomic<quint64>> newest_;
    std::atomic<int>& skipped_;
};

ThreadEngine::ThreadEngine(std::shared_ptr<const toolkit::Toolkit> toolkit, const QString& whyNone, QObject* parent)
    : Engine(parent) {
    qRegisterMetaType<nvpg::gui::EngineReply>();
    qRegisterMetaType<nvpg::pipeline::Job>("nvpg::pipeline::Job");
    qRegisterMetaType<std::shared_ptr<const nvpg::toolkit::Toolkit>>("std::shared_ptr<const nvpg::toolkit::Toolkit>");
    thread_.setObjectName("nvpg-engine");
    worker_ = new CompileWorker(newest_, skipped_);
    worker_->setToolkit(std::move(toolkit), whyNone);
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &CompileWorker::replied, this, &Engine::replied, Qt::QueuedConnection);
    thread_.start();
}

ThreadEngine::~ThreadEngine() {
    thread_.quit();
    thread_.wait();
}

void ThreadEngine::submit(const pipeline::Job& job) {
    newest_->store(job.generation);
    QMetaObject::invokeMethod(worker_, "run", Qt::QueuedConnection, Q_ARG(nvpg::pipeline::Job, job));
}

void ThreadEngine::setToolkit(std::shared_ptr<const toolkit::Toolkit> toolkit, const QString& whyNone) {
    QMetaObject::invokeMethod(worker_, "setToolkit", Qt::QueuedConnection,
                              Q_ARG(std::shared_ptr<const nvpg::toolkit::Toolkit>, std::move(toolkit)),
                              Q_ARG(QString, whyNone));
}

}  // namespace nvpg::gui

#include "ThreadEngine.moc"
