#pragma once

// The GUI's one way to run work off the UI thread. Two shapes:
//
// - LatestJob<R>: a worker thread of its own that runs the newest job only. submit() replaces a
//   job still waiting; a job that is running when a newer one comes finishes (or stops early by
//   looking at its JobToken), and its result is not handed to `done`. Results are delivered on
//   the owner's thread, and never after the owner is gone. The destructor cancels and joins the
//   thread: declare the LatestJob after every member its jobs or callbacks touch (members are
//   destroyed in reverse order), or call cancel() first thing in the owner's destructor.
//
//       // in the panel:   LatestJob<std::shared_ptr<const Layout>> layouts_{this};
//       layouts_.submit([graph](const JobToken& token) { return layOut(graph, token); },
//                       [this](std::shared_ptr<const Layout> l) { show(std::move(l)); });
//
// - runInBackground(owner, work, done): one job on Qt's global thread pool; `done(result)` runs
//   on the owner's thread unless the owner was destroyed first. The job itself is not stopped by
//   the owner going (it finishes on the pool, which the application joins as it exits), so it
//   must own everything it reads: capture values, never `this`.
//
//       runInBackground(this, [paths] { return toolkit::findToolkits({}, paths); },
//                       [this](std::vector<toolkit::FoundToolkit> found) { list(std::move(found)); });
//
// A job that throws delivers nothing; its message goes to the error handler (LatestJob) or to
// `failed` (runInBackground) when one is given. No job ever blocks the UI thread, except a
// LatestJob's destructor waiting for the job that is running.

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include <QFutureWatcher>
#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

namespace nvpg::gui {

namespace detail {
struct JobQueueState;
}

// What a running job may ask: whether its result is still wanted.
class JobToken {
public:
    // A newer job was submitted, or the worker was cancelled: the result will not reach `done`.
    bool stale() const;
    // cancel() was called or the worker is being destroyed: the result goes nowhere at all.
    bool cancelled() const;
    // The job's number (1, 2, ... in the order submitted).
    quint64 generation() const { return generation_; }

private:
    friend class JobQueue;
    template <class>
    friend class LatestJob;
    JobToken(std::shared_ptr<const detail::JobQueueState> state, quint64 generation)
        : state_(std::move(state)), generation_(generation) {}
    std::shared_ptr<const detail::JobQueueState> state_;
    quint64 generation_ = 0;
};

// The untyped core of LatestJob: one thread, at most one job waiting, the newest. Its jobs post
// their own results (see LatestJob); use LatestJob.
class JobQueue {
public:
    JobQueue();
    ~JobQueue();  // cancel(), then joins the thread
    JobQueue(const JobQueue&) = delete;
    JobQueue& operator=(const JobQueue&) = delete;

    // Queues `job` in place of any waiting one; starts the thread on first use. Returns its generation.
    quint64 submit(std::function<void(const JobToken&)> job);
    // Drops the waiting job; the running one's result goes nowhere.
    void cancel();
    // The generation of the newest job submitted (0 before any).
    quint64 newest() const;
    // Whether a job runs or waits on the thread.
    bool busy() const;
    // Where a job's result should go, asked on the owner's thread as it arrives.
    enum class Fate { Deliver, Stale, Cancelled };
    Fate fateOf(quint64 generation) const;
    static Fate fateOf(const detail::JobQueueState& state, quint64 generation);
    std::shared_ptr<const detail::JobQueueState> state() const;

private:
    void loop();
    std::shared_ptr<detail::JobQueueState> state_;
    struct Thread;
    std::unique_ptr<Thread> thread_;
};

template <class Result>
class LatestJob {
public:
    using Work = std::function<Result(const JobToken&)>;
    using Done = std::function<void(Result)>;

    // `owner`: results are delivered on its thread, and not at all once it is destroyed. The
    // LatestJob must not outlive it (make it a member of the owner).
    explicit LatestJob(QObject* owner) : owner_(owner), counts_(std::make_shared<Counts>()) {}

    // Results of jobs overtaken by a newer one go here instead of being dropped (for instance to
    // keep a cache they filled). Not called for cancelled jobs.
    void setStaleHandler(Done stale) { stale_ = std::move(stale); }
    // A job that threw: its exception's message, on the owner's thread (only for the newest job).
    void setErrorHandler(std::function<void(const QString&)> failed) { failed_ = std::move(failed); }

    // Runs `work` on the worker thread once the running job is done, unless a newer submit comes
    // first; `done(result)` runs on the owner's thread if no newer job was submitted meanwhile.
    quint64 submit(Work work, Done done) {
        return queue_.submit([owner = owner_, counts = counts_, stale = stale_, failed = failed_,
                              work = std::move(work), done = std::move(done)](const JobToken& token) {
            auto result = std::make_shared<std::optional<Result>>();
            QString error;
            try {
                result->emplace(work(token));
            } catch (const std::exception& e) {
                error = QString::fromUtf8(e.what());
            } catch (...) {
                error = QStringLiteral("unknown exception");
            }
            // The owner is alive: its LatestJob, destroyed before it, joins this thread first.
            QMetaObject::invokeMethod(
                owner,
                [state = token.state_, generation = token.generation(), counts, stale, failed, done, result, error] {
                    const auto fate = JobQueue::fateOf(*state, generation);
                    if (fate == JobQueue::Fate::Deliver) counts->handed = generation;
                    if (fate == JobQueue::Fate::Deliver && result->has_value()) {
                        ++counts->delivered;
                        done(std::move(**result));
                        return;
                    }
                    ++counts->dropped;
                    if (fate == JobQueue::Fate::Deliver && failed) failed(error);
                    if (fate == JobQueue::Fate::Stale && stale && result->has_value()) stale(std::move(**result));
                },
                Qt::QueuedConnection);
        });
    }

    // Drops the waiting job; the running one's result goes nowhere. The thread stays for the next.
    void cancel() { queue_.cancel(); }
    // The newest job's outcome has not reached the owner yet: it waits, runs, or its result is
    // on its way to the owner's thread (not after cancel()).
    bool busy() const {
        const quint64 newest = queue_.newest();
        return newest > counts_->handed && queue_.fateOf(newest) != JobQueue::Fate::Cancelled;
    }
    quint64 newest() const { return queue_.newest(); }
    // Results handed to `done`, and those that were not (stale, cancelled or failed).
    int delivered() const { return counts_->delivered; }
    int dropped() const { return counts_->dropped; }

private:
    struct Counts {
        std::atomic<int> delivered{0}, dropped{0};
        std::atomic<quint64> handed{0};  // the last newest job whose outcome reached the owner
    };
    QObject* owner_;
    std::shared_ptr<Counts> counts_;
    Done stale_;
    std::function<void(const QString&)> failed_;
    JobQueue queue_;  // last: destroyed (joined) first
};

// One job on Qt's global thread pool; `done(result)` on `owner`'s thread unless `owner` is gone
// by then; `failed(message)` instead when the job threw. See the top of this file.
template <class Work, class Done>
void runInBackground(QObject* owner, Work work, Done done, std::function<void(const QString&)> failed = {}) {
    using Result = std::invoke_result_t<Work>;
    struct Outcome {
        std::optional<Result> value;
        QString error;
    };
    auto* watcher = new QFutureWatcher<Outcome>(owner);
    QObject::connect(watcher, &QFutureWatcherBase::finished, owner,
                     [watcher, done = std::move(done), failed = std::move(failed)]() mutable {
                         watcher->deleteLater();
                         Outcome outcome = watcher->future().takeResult();
                         if (outcome.value)
                             done(std::move(*outcome.value));
                         else if (failed)
                             failed(outcome.error);
                     });
    watcher->setFuture(QtConcurrent::run([work = std::move(work)]() mutable {
        Outcome outcome;
        try {
            outcome.value.emplace(work());
        } catch (const std::exception& e) {
            outcome.error = QString::fromUtf8(e.what());
        } catch (...) {
            outcome.error = QStringLiteral("unknown exception");
        }
        return outcome;
    }));
}

}  // namespace nvpg::gui
