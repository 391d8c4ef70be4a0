// Shared by the desktop app's suites: the main window as they all make one.
#pragma once

#include <QSize>
#include <QStringList>

#include <memory>

#include "window/MainWindow.h"

namespace nvpg::test {

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

}  // namespace nvpg::test
