#include "GuiBench.h"

#include <stdlib.h>

#include <algorithm>
#include <cstdlib>

#include <QElapsedTimer>
#include <QEventLoop>
#include <QThread>
#include <QTimer>

namespace nvpg::bench {

std::filesystem::path freshProfile(const std::string& prefix) {
    std::string tmpl = "/tmp/" + prefix + "-XXXXXX";
    if (!mkdtemp(tmpl.data())) return {};
    const std::filesystem::path home = tmpl;
    for (const char* sub : {"config", "data", "cache", "state", "runtime"})
        std::filesystem::create_directories(home / sub);
    std::filesystem::permissions(home / "runtime", std::filesystem::perms::owner_all);
    setenv("HOME", home.c_str(), 1);
    setenv("XDG_CONFIG_HOME", (home / "config").c_str(), 1);
    setenv("XDG_DATA_HOME", (home / "data").c_str(), 1);
    setenv("XDG_CACHE_HOME", (home / "cache").c_str(), 1);
    setenv("XDG_STATE_HOME", (home / "state").c_str(), 1);
    setenv("XDG_RUNTIME_DIR", (home / "runtime").c_str(), 1);
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    return home;
}

bool spinUntil(const std::function<bool()>& done, int ms) {
    QElapsedTimer t;
    t.start();
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(5);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done() || t.elapsed() > ms) loop.quit();
    });
    poll.start();
    if (!done()) loop.exec();
    return done();
}

bool TimedApp::notify(QObject* receiver, QEvent* event) {
    // The compile and run threads deliver their own events through here too: only the UI
    // thread's count.
    if (QThread::currentThread() != thread()) return QApplication::notify(receiver, event);
    if (depth_++ > 0 || !recording) {
        const bool nestedPaint = recording && depth_ > 1 && event->type() == QEvent::Paint;
        const char* nestedClass = nestedPaint ? receiver->metaObject()->className() : nullptr;
        QString nestedName = nestedPaint ? receiver->objectName() : QString();
        // A scroll area's viewport is named by its view ("qt_scrollarea_viewport in problemsView").
        if (nestedPaint && receiver->parent() && nestedName.startsWith(QLatin1String("qt_scrollarea")))
            nestedName += QStringLiteral(" in %1 %2")
                              .arg(QString::fromLatin1(receiver->parent()->metaObject()->className()),
                                   receiver->parent()->objectName());
        const auto nestedStart = Clock::now();
        const bool r = QApplication::notify(receiver, event);
        --depth_;
        if (nestedPaint) {
            auto& [n, total] = paintTotals[std::string(nestedClass) + "(" + nestedName.toStdString() + ")"];
            ++n;
            total += msSince(nestedStart, Clock::now());
        }
        if (nestedPaint && msSince(nestedStart, Clock::now()) >= 1)
            inner.push_back(
                {nestedStart, Clock::now(), std::string(nestedClass) + "(" + nestedName.toStdString() + ") paint"});
        if (receiver == paintWatch && event->type() == QEvent::Paint && paintedAt == Clock::time_point{})
            paintedAt = Clock::now();
        return r;
    }
    const auto type = event->type();
    // Read before the delivery: it may delete the receiver (a deferred delete, a closed view).
    const char* className = receiver->metaObject()->className();
    const QString objectName = receiver->objectName();
    const char* parentClass = receiver->parent() ? receiver->parent()->metaObject()->className() : nullptr;
    const auto start = Clock::now();
    const bool r = QApplication::notify(receiver, event);
    const auto end = Clock::now();
    --depth_;
    if (receiver == paintWatch && type == QEvent::Paint && paintedAt == Clock::time_point{}) paintedAt = end;
    if (msSince(start, end) >= 4) slow.push_back({start, end, describe(className, objectName, parentClass, type)});
    return r;
}

std::string TimedApp::describe(const char* className, const QString& objectName, const char* parentClass,
                               QEvent::Type type) {
    std::string s = className;
    if (!objectName.isEmpty()) s += "(" + objectName.toStdString() + ")";
    if (parentClass) s += std::string(" in ") + parentClass;
    s += " event " + std::to_string(int(type));
    if (type == QEvent::Timer) s += " (timer)";
    if (type == QEvent::MetaCall) s += " (queued call)";
    if (type == QEvent::Paint || type == QEvent::UpdateRequest) s += " (paint)";
    if (type == QEvent::KeyPress) s += " (key press)";
    return s;
}

StallStats stallStats(std::vector<double> v) {
    StallStats s;
    s.n = v.size();
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    s.worst = v.back();
    s.p99 = v[std::min(v.size() - 1, size_t(double(v.size()) * 0.99))];
    s.p50 = v[v.size() / 2];
    return s;
}

}  // namespace nvpg::bench
