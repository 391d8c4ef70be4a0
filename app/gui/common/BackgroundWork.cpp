#include "gui/common/BackgroundWork.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace nvpg::gui {

namespace detail {

struct JobQueueState {
    std::mutex lock;
    std::condition_variable wake;
    std::function<void(const JobToken&)> pending;  // the newest job not started yet
    quint64 pendingGeneration = 0;
    bool running = false;
    bool stopping = false;
    std::atomic<quint64> newest{0};
    std::atomic<quint64> cancelledUpTo{0};  // jobs up to this generation deliver nothing
};

}  // namespace detail

struct JobQueue::Thread : std::thread {
    using thread::thread;
};

bool JobToken::stale() const {
    return !state_ || generation_ != state_->newest.load() || cancelled();
}

bool JobToken::cancelled() const {
    return !state_ || generation_ <= state_->cancelledUpTo.load();
}

JobQueue::JobQueue() : state_(std::make_shared<detail::JobQueueState>()) {}

JobQueue::~JobQueue() {
    {
        std::lock_guard lock(state_->lock);
        state_->stopping = true;
        state_->pending = nullptr;
        state_->cancelledUpTo = state_->newest.load();
    }
    state_->wake.notify_all();
    if (thread_ && thread_->joinable()) thread_->join();
}

quint64 JobQueue::submit(std::function<void(const JobToken&)> job) {
    quint64 generation = 0;
    {
        std::lock_guard lock(state_->lock);
        generation = ++state_->newest;
        state_->pending = std::move(job);  // a job still waiting is never run
        state_->pendingGeneration = generation;
        if (!thread_) thread_ = std::make_unique<Thread>([this] { loop(); });
    }
    state_->wake.notify_one();
    return generation;
}

void JobQueue::cancel() {
    std::lock_guard lock(state_->lock);
    state_->pending = nullptr;
    state_->cancelledUpTo = state_->newest.load();
}

quint64 JobQueue::newest() const {
    return state_->newest;
}

bool JobQueue::busy() const {
    std::lock_guard lock(state_->lock);
    return state_->running || state_->pending;
}

JobQueue::Fate JobQueue::fateOf(const detail::JobQueueState& state, quint64 generation) {
    if (generation <= state.cancelledUpTo) return Fate::Cancelled;
    return generation == state.newest ? Fate::Deliver : Fate::Stale;
}

JobQueue::Fate JobQueue::fateOf(quint64 generation) const {
    return fateOf(*state_, generation);
}

std::shared_ptr<const detail::JobQueueState> JobQueue::state() const {
    return state_;
}

void JobQueue::loop() {
    auto& s = *state_;
    for (;;) {
        std::function<void(const JobToken&)> job;
        quint64 generation = 0;
        {
            std::unique_lock lock(s.lock);
            s.running = false;
            s.wake.wait(lock, [&s] { return s.stopping || s.pending; });
            if (s.stopping) return;
            job = std::move(s.pending);
            s.pending = nullptr;
            generation = s.pendingGeneration;
            s.running = true;
        }
        job(JobToken(state_, generation));
    }
}

}  // namespace nvpg::gui
