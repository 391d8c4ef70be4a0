// Shared by the desktop app's suites: the main window as they all make one.
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QSize>
#include <QStringList>

#include <memory>
#include <vector>

#include <Qsci/qsciscintilla.h>

#include "BuildPaths.h"
#include "core/inspect/LineMap.h"

#include "gui/window/MainWindow.h"

namespace nvpg::test {

// Runs a program and waits; its standard output.
inline QString runTool(const QString& program, const QStringList& args, const QProcessEnvironment& env,
                       int timeoutMs = 20000) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

// Starts `xvfb` as `server` (a real X server for the real app, driven by xdotool) and returns
// its display (":N"); empty when it did not start.
inline QString startXvfb(QProcess& server, const QString& xvfb, const QProcessEnvironment& env) {
    server.setProcessEnvironment(env);
    server.start(xvfb, {"-displayfd", "1", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"});
    if (!server.waitForReadyRead(20000)) return {};
    return ":" + QString::fromUtf8(server.readLine()).trimmed();
}

// The real app on a display of its own, as a person starts it: a fresh profile (the XDG folders
// under `home`), an Xvfb server, then the app on `args`. `error` says why, when it could not.
// Ends the app and the server when it goes.
struct AppOnXvfb {
    QProcessEnvironment env;
    QProcess server, app;
    QString error;

    AppOnXvfb(const QString& xvfb, const QString& home, const QStringList& args) {
        env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", home + "/data");
        env.insert("XDG_CONFIG_HOME", home + "/config");
        env.insert("XDG_RUNTIME_DIR", home);
        env.remove("QT_QPA_PLATFORM");
        const auto display = startXvfb(server, xvfb, env);
        if (display.isEmpty()) {
            error = "Xvfb did not start";
            return;
        }
        env.insert("DISPLAY", display);
        app.setProcessEnvironment(env);
        app.start(QString(built::app), args);
        if (!app.waitForStarted()) error = "the app did not start: " + app.errorString();
    }
    ~AppOnXvfb() {
        for (QProcess* p : {&app, &server}) {
            p->kill();
            p->waitForFinished();
        }
    }
};

// A shown main window whose error dialogs go to `errors` (to the test log when null, so that an
// unexpected one is still seen) and whose "save changes?" is answered Discard, so that closing it
// never waits for a person. `size` is set before it is shown, when given.
inline std::unique_ptr<gui::MainWindow> makeWindow(QStringList* errors = nullptr, QSize size = {}) {
    auto w = std::make_unique<gui::MainWindow>();
    w->setErrorSink([errors](const QString& title, const QString& message) {
        if (errors)
            *errors << title + ": " + message;
        else
            qWarning("%s: %s", qPrintable(title), qPrintable(message));
    });
    w->setSaveQuestion([] { return QMessageBox::Discard; });
    if (size.isValid()) w->resize(size);
    w->show();
    return w;
}

// The 0-based line of the editor's first line containing `text`; -1 when none does.
inline int lineContaining(QsciScintilla* e, const QString& text) {
    for (int l = 0; l < e->lines(); ++l)
        if (e->text(l).contains(text)) return l;
    return -1;
}

// Every line of the map's ranges, in order.
inline std::vector<int> expand(const std::vector<inspect::LineRange>& ranges) {
    std::vector<int> lines;
    for (const auto& r : ranges)
        for (int l = r.first; l <= r.last; ++l) lines.push_back(l);
    return lines;
}

}  // namespace nvpg::test
