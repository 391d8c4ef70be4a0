// The GUI's background work (gui/common/BackgroundWork.h): the newest job wins, stale results
// never reach `done`, results arrive on the owner's thread, an owner destroyed mid-job neither
// crashes nor leaves a thread behind, and exceptions and cancels deliver nothing.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include <QThread>
#include <QThreadPool>

#include "gui/common/BackgroundWork.h"

using namespace nvpg::gui;
using namespace std::chrono_literals;

namespace {

// A gate the test opens: a job waits at it, so that the test decides when it ends.
struct Gate {
    std::atomic<bool> open{false};
    std::atomic<bool> reached{false};
    void pass() {
        reached = true;
        while (!open) std::this_thread::sleep_for(1ms);
    }
};

// An owner that counts how many of its objects are alive, to see it gone.
class Owner : public QObject {
public:
    explicit Owner(std::atomic<int>* alive) : alive_(alive) { ++*alive_; }
    ~Owner() override { --*alive_; }
    std::vector<int> got;
    LatestJob<int> jobs{this};  // last: joined before the rest goes

private:
    std::atomic<int>* alive_;
};

}  // namespace

class TestBackground : public QObject {
    Q_OBJECT

private slots:
    void theNewestJobWinsAndAWaitingOneIsNeverRun() {
        QObject owner;
        LatestJob<int> jobs(&owner);
        Gate gate;
        std::atomic<int> ran{0};
        std::vector<int> got;
        std::vector<int> stale;
        jobs.setStaleHandler([&](int v) { stale.push_back(v); });
        // The first job runs and waits at the gate; the second waits behind it and is replaced
        // by the third before it starts.
        jobs.submit(
            [&](const JobToken&) {
                gate.pass();
                ++ran;
                return 1;
            },
            [&](int v) { got.push_back(v); });
        QTRY_VERIFY(gate.reached);
        jobs.submit(
            [&](const JobToken&) {
                ++ran;
                return 2;
            },
            [&](int v) { got.push_back(v); });
        jobs.submit(
            [&](const JobToken&) {
                ++ran;
                return 3;
            },
            [&](int v) { got.push_back(v); });
        QVERIFY(jobs.busy());
        gate.open = true;
        QTRY_COMPARE(got, std::vector<int>{3});
        QVERIFY(!jobs.busy());                 // busy until the newest result was handed over
        QCOMPARE(ran.load(), 2);               // the second never ran
        QCOMPARE(stale, std::vector<int>{1});  // the overtaken one went to the stale handler
        QCOMPARE(jobs.delivered(), 1);
        QCOMPARE(jobs.dropped(), 1);
    }

    void aStaleResultIsDroppedWithoutAStaleHandler() {
        QObject owner;
        LatestJob<int> jobs(&owner);
        Gate gate;
        std::vector<int> got;
        bool sawStale = false;
        jobs.submit(
            [&](const JobToken& token) {
                gate.pass();
                sawStale = token.stale();  // the newer job came while this one waited
                return 1;
            },
            [&](int v) { got.push_back(v); });
        QTRY_VERIFY(gate.reached);
        jobs.submit([](const JobToken&) { return 2; }, [&](int v) { got.push_back(v); });
        gate.open = true;
        QTRY_COMPARE(got, std::vector<int>{2});
        QVERIFY(sawStale);
        QTest::qWait(50);
        QCOMPARE(got, std::vector<int>{2});
        QCOMPARE(jobs.dropped(), 1);
    }

    void resultsArriveOnTheOwnersThreadAndJobsRunOffIt() {
        QObject owner;
        LatestJob<Qt::HANDLE> jobs(&owner);
        Qt::HANDLE ranOn = nullptr, deliveredOn = nullptr;
        jobs.submit([](const JobToken&) { return QThread::currentThreadId(); },
                    [&](Qt::HANDLE worker) {
                        ranOn = worker;
                        deliveredOn = QThread::currentThreadId();
                    });
        QTRY_VERIFY(deliveredOn);
        QCOMPARE(deliveredOn, QThread::currentThreadId());
        QVERIFY(ranOn != QThread::currentThreadId());
    }

    void anOwnerDestroyedMidJobDoesNotCrashAndJoinsTheThread() {
        std::atomic<int> alive{0};
        Gate gate;
        std::atomic<bool> finished{false};
        bool delivered = false;
        auto* owner = new Owner(&alive);
        owner->jobs.submit(
            [&](const JobToken& token) {
                gate.pass();
                // Runs on after the owner started going: the destructor waits for it.
                std::this_thread::sleep_for(100ms);
                finished = token.cancelled();
                return 7;
            },
            [&delivered](int) { delivered = true; });
        QTRY_VERIFY(gate.reached);
        // The owner goes while the job waits at the gate; another thread opens it meanwhile.
        std::thread opener([&] {
            std::this_thread::sleep_for(20ms);
            gate.open = true;
        });
        delete owner;  // cancels, then joins: returns only once the job is over
        opener.join();
        QVERIFY(finished);  // the job saw the cancel, and had ended before delete returned
        QCOMPARE(alive.load(), 0);
        QTest::qWait(100);  // a result posted to the dead owner would arrive now
        QVERIFY(!delivered);
    }

    void aDestroyedWorkerJoinsItsThread() {
        QObject owner;
        std::atomic<bool> ended{false};
        {
            LatestJob<int> jobs(&owner);
            jobs.submit(
                [&](const JobToken&) {
                    std::this_thread::sleep_for(100ms);
                    ended = true;
                    return 1;
                },
                [](int) {});
            std::this_thread::sleep_for(10ms);
        }
        QVERIFY(ended);  // joined, not detached
    }

    void cancelDeliversNothingAndTheWorkerGoesOn() {
        QObject owner;
        LatestJob<int> jobs(&owner);
        Gate gate;
        std::vector<int> got, stale;
        jobs.setStaleHandler([&](int v) { stale.push_back(v); });
        std::atomic<bool> sawCancel{false}, ended{false};
        jobs.submit(
            [&](const JobToken& token) {
                gate.pass();
                sawCancel = token.cancelled() && token.stale();
                ended = true;
                return 1;
            },
            [&](int v) { got.push_back(v); });
        QTRY_VERIFY(gate.reached);
        QVERIFY(jobs.busy());
        jobs.cancel();
        QVERIFY(!jobs.busy());  // nothing will reach the owner
        gate.open = true;
        QTRY_VERIFY(ended);
        QTest::qWait(50);
        QVERIFY(sawCancel);
        QVERIFY(got.empty());
        QVERIFY(stale.empty());  // cancelled is not stale: nothing at all
        // The next job runs as usual.
        jobs.submit([](const JobToken&) { return 5; }, [&](int v) { got.push_back(v); });
        QTRY_COMPARE(got, std::vector<int>{5});
    }

    void aJobThatThrowsDeliversItsMessageAndNothingElse() {
        QObject owner;
        LatestJob<int> jobs(&owner);
        QString error;
        bool delivered = false;
        jobs.setErrorHandler([&](const QString& e) { error = e; });
        jobs.submit([](const JobToken&) -> int { throw std::runtime_error("no graph here"); },
                    [&](int) { delivered = true; });
        QTRY_COMPARE(error, QStringLiteral("no graph here"));
        QVERIFY(!delivered);
        // The thread survives it.
        int got = 0;
        jobs.submit([](const JobToken&) { return 3; }, [&](int v) { got = v; });
        QTRY_COMPARE(got, 3);
    }

    void runInBackgroundCallsBackOnTheOwnersThread() {
        QObject owner;
        Qt::HANDLE ranOn = nullptr, deliveredOn = nullptr;
        runInBackground(
            &owner, [] { return QThread::currentThreadId(); },
            [&](Qt::HANDLE worker) {
                ranOn = worker;
                deliveredOn = QThread::currentThreadId();
            });
        QTRY_VERIFY(deliveredOn);
        QCOMPARE(deliveredOn, QThread::currentThreadId());
        QVERIFY(ranOn != QThread::currentThreadId());
    }

    void runInBackgroundDropsTheResultOfAnOwnerGone() {
        auto* owner = new QObject;
        std::atomic<bool> release{false}, ended{false};
        bool delivered = false;
        runInBackground(
            owner,
            [&] {
                while (!release) std::this_thread::sleep_for(1ms);
                ended = true;
                return 1;
            },
            [&](int) { delivered = true; });
        delete owner;
        release = true;
        // The job ends on the pool, which is joined (as the application does when it exits).
        QVERIFY(QThreadPool::globalInstance()->waitForDone(10000));
        QVERIFY(ended);
        QTest::qWait(50);
        QVERIFY(!delivered);
    }

    void runInBackgroundReportsAnException() {
        QObject owner;
        QString error;
        bool delivered = false;
        runInBackground(
            &owner, []() -> int { throw std::runtime_error("python3 did not answer"); }, [&](int) { delivered = true; },
            [&](const QString& e) { error = e; });
        QTRY_COMPARE(error, QStringLiteral("python3 did not answer"));
        QVERIFY(!delivered);
    }
};

QTEST_MAIN(TestBackground)
#include "tst_background.moc"
