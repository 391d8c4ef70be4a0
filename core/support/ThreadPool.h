#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace nvpg::support {

// Threads kept for tasks and reused from task to task. An idle worker takes the next task; one
// more thread is started when all are busy, so a task never waits behind another. Destruction
// lets every running task finish and joins every thread.
class ThreadPool {
public:
    ThreadPool() = default;
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // The process's pool, never destroyed (its threads live as long as the process). A forked
    // child has none of the parent's threads: it starts with an empty pool of its own.
    static ThreadPool& shared();

    // Runs `task` on an idle worker, or on a new one; false when no thread can be had (a limit
    // on threads), and then `task` is not run.
    bool run(std::function<void()> task);

    // `f` on a worker; its result (or what it throws) comes back through the future. Where no
    // thread can be had, `f` runs here, before submit returns.
    template <class F>
    std::future<std::invoke_result_t<F>> submit(F f) {
        auto task = std::make_shared<std::packaged_task<std::invoke_result_t<F>()>>(std::move(f));
        auto result = task->get_future();
        if (!run([task] { (*task)(); })) (*task)();
        return result;
    }

    // How many threads the pool has started.
    size_t threads() const;

private:
    struct Worker {
        std::mutex m;
        std::condition_variable cv;
        std::function<void()> task;
        bool stop = false;
        std::thread thread;
    };
    void loop(Worker* w);

    mutable std::mutex m_;
    std::vector<std::unique_ptr<Worker>> all_;
    std::vector<Worker*> idle_;
};

// A function run beside the caller on a pool's worker; where no thread can be had, it runs when
// joined instead, one after the other. What it throws is thrown again by join. Destruction waits
// for it (without running it, when it never started).
class Beside {
public:
    explicit Beside(std::function<void()> f, ThreadPool& pool = ThreadPool::shared());
    ~Beside() { wait(); }
    Beside(const Beside&) = delete;
    Beside& operator=(const Beside&) = delete;
    void join();

private:
    void wait();
    std::function<void()> f_;
    std::exception_ptr error_;
    bool started_ = false;
    std::mutex m_;
    std::condition_variable cv_;
    bool done_ = false;
};

}  // namespace nvpg::support
