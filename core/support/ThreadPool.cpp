#include "core/support/ThreadPool.h"

#include <pthread.h>

#include <system_error>

namespace nvpg::support {

namespace {

ThreadPool*& sharedPool() {
    static ThreadPool* pool = nullptr;
    return pool;
}

}  // namespace

ThreadPool& ThreadPool::shared() {
    static const bool registered = [] {
        // The parent's pool stays as it is in the child (its threads are not there to join).
        ::pthread_atfork(nullptr, nullptr, [] { sharedPool() = new ThreadPool; });
        return true;
    }();
    (void)registered;
    if (!sharedPool()) sharedPool() = new ThreadPool;
    return *sharedPool();
}

ThreadPool::~ThreadPool() {
    std::vector<Worker*> workers;
    {
        std::lock_guard lock(m_);
        for (const auto& w : all_) workers.push_back(w.get());
    }
    for (auto* w : workers) {
        {
            std::lock_guard wl(w->m);
            w->stop = true;
        }
        w->cv.notify_one();
    }
    for (auto* w : workers) w->thread.join();
}

bool ThreadPool::run(std::function<void()> task) {
    std::unique_lock lock(m_);
    if (idle_.empty()) {
        auto w = std::make_unique<Worker>();
        try {
            w->thread = std::thread([this, p = w.get()] { loop(p); });
        } catch (const std::system_error&) {
            return false;
        }
        idle_.push_back(w.get());
        all_.push_back(std::move(w));
    }
    Worker* w = idle_.back();
    idle_.pop_back();
    lock.unlock();
    {
        std::lock_guard wl(w->m);
        w->task = std::move(task);
    }
    w->cv.notify_one();
    return true;
}

size_t ThreadPool::threads() const {
    std::lock_guard lock(m_);
    return all_.size();
}

void ThreadPool::loop(Worker* w) {
    while (true) {
        std::function<void()> task;
        {
            std::unique_lock wl(w->m);
            w->cv.wait(wl, [w] { return bool(w->task) || w->stop; });
            if (!w->task) return;  // stopped, with nothing left to run
            task = std::move(w->task);
            w->task = nullptr;
        }
        task();
        std::lock_guard lock(m_);
        idle_.push_back(w);
    }
}

Beside::Beside(std::function<void()> f, ThreadPool& pool) : f_(std::move(f)) {
    started_ = pool.run([this] {
        try {
            f_();
        } catch (...) {
            error_ = std::current_exception();
        }
        std::lock_guard lock(m_);
        done_ = true;
        cv_.notify_all();
    });
}

void Beside::join() {
    if (started_)
        wait();
    else if (f_)
        f_();
    f_ = nullptr;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void Beside::wait() {
    if (!started_) return;
    std::unique_lock lock(m_);
    cv_.wait(lock, [this] { return done_; });
}

}  // namespace nvpg::support
