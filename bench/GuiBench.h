#pragma once
// What the app's benches (nvpg_bench_large, nvpg_bench_cfg_view) share: a fresh profile, a probe of
// the UI thread's stalls, and running the event loop until something is done.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <QApplication>
#include <QCoreApplication>
#include <QEvent>
#include <QObject>

namespace nvpg::bench {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point t0, Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(t - t0).count();
}

// HOME and XDG_* under a new directory /tmp/PREFIX-XXXXXX (the app then reads no settings,
// journals, recent files or caches of the user's), Qt's offscreen platform unless QT_QPA_PLATFORM
// is set. Call before the QApplication is made. Empty on failure.
std::filesystem::path freshProfile(const std::string& prefix);

// The probe: one event in flight at a time, posted from its own thread; the UI thread's delay in
// handling each is a sample.
class Probe : public QObject {
public:
    static constexpr QEvent::Type kType = QEvent::Type(QEvent::User + 77);
    struct Ping : QEvent {
        explicit Ping(Clock::time_point t) : QEvent(kType), posted(t) {}
        Clock::time_point posted;
    };

    void start() {
        running_ = true;
        thread_ = std::thread([this] {
            while (running_) {
                {
                    std::unique_lock lock(m_);
                    answered_ = false;
                }
                QCoreApplication::postEvent(this, new Ping(Clock::now()));
                std::unique_lock lock(m_);
                cv_.wait(lock, [this] { return answered_ || !running_; });
                lock.unlock();
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
    }
    void stop() {
        {
            std::lock_guard lock(m_);
            running_ = false;
        }
        cv_.notify_all();
        if (thread_.joinable()) thread_.join();
    }
    ~Probe() override { stop(); }

    // Samples from `from` on (ms of delay, and when the ping was posted).
    struct Sample {
        double ms;
        Clock::time_point posted;
        int phase;
    };
    std::vector<Sample> samples;

protected:
    void customEvent(QEvent* e) override {
        if (e->type() != kType) return;
        const auto posted = static_cast<Ping*>(e)->posted;
        if (recording) samples.push_back({msSince(posted, Clock::now()), posted, phase});
        {
            std::lock_guard lock(m_);
            answered_ = true;
        }
        cv_.notify_all();
    }

public:
    bool recording = false;
    int phase = 0;  // 1 while moving (a jump and the styling it starts), 2 while typing and after

private:
    std::thread thread_;
    std::mutex m_;
    std::condition_variable cv_;
    bool answered_ = false;
    std::atomic<bool> running_{false};
};

// Times every top-level event delivery on the UI thread, so that a long stall can be put down to
// what ran in it (the receiver's class, its parent's, the event type).
class TimedApp : public QApplication {
public:
    using QApplication::QApplication;

    struct Delivery {
        Clock::time_point start, end;
        std::string what;
    };
    bool recording = false;
    std::vector<Delivery> slow;                                 // top-level deliveries of 4 ms or more while recording
    std::vector<Delivery> inner;                                // paints of 1 ms or more inside them
    std::map<std::string, std::pair<int, double>> paintTotals;  // every widget paint: count, ms in all
    QObject* paintWatch = nullptr;
    Clock::time_point paintedAt{};

    bool notify(QObject* receiver, QEvent* event) override;

private:
    static std::string describe(const char* className, const QString& objectName, const char* parentClass,
                                QEvent::Type type);
    int depth_ = 0;
};

// Runs the event loop until `done` or `ms` have passed; false on the time-out.
bool spinUntil(const std::function<bool()>& done, int ms);

// The longest, 99th-percentile and median of `v` (ms).
struct StallStats {
    double worst = 0, p99 = 0, p50 = 0;
    size_t n = 0;
};
StallStats stallStats(std::vector<double> v);

}  // namespace nvpg::bench
