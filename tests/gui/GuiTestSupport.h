// Shared by the desktop app's suites: the main window as they all make one.
#pragma once

#include <QApplication>
#include <QFileDialog>
#include <QLineEdit>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSize>
#include <QStringList>
#include <QTimer>

#include <functional>
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

// Runs `trigger`, which opens a file dialog (Qt's own, as the offscreen platform has it), and
// answers it as a person does: in folder `dir`, the names typed into its name field (several are
// quoted, as the dialog takes them), then Open. No names: Cancel. `filters` gets the dialog's
// file type filters. False when no dialog came up.
inline bool answerFileDialog(const std::function<void()>& trigger, const QString& dir, const QStringList& names,
                             QStringList* filters = nullptr) {
    bool shown = false;
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, [&] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog) return;
        poll.stop();
        shown = true;
        if (filters) *filters = dialog->nameFilters();
        if (names.isEmpty()) {
            dialog->reject();
            return;
        }
        dialog->setDirectory(dir);
        const QString typed = names.size() == 1 ? names.front() : '"' + names.join(QStringLiteral("\" \"")) + '"';
        if (auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")))
            name->setText(typed);
        else
            dialog->selectFile(typed);
        static_cast<QDialog*>(dialog)->accept();  // QFileDialog makes its override protected
    });
    poll.start();
    trigger();
    return shown;
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
