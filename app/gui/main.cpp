// nvvm-playground [FILE...]: opens a workspace (.nvpg), or module files (.ll, .bc) as the modules
// of a new one.
#include <QApplication>
#include <QCommandLineParser>

#include "core/engine/EngineProcess.h"
#include "core/engine/Server.h"
#include "core/nvvm/Module.h"
#include "gui/window/MainWindow.h"

int main(int argc, char** argv) {
    nvpg::toolkit::bypassDriverComputeCache();  // before any thread, for its engines too
    // The engine process for compiles and runs, started by the app itself (see SupervisedEngine).
    if (argc == 2 && QByteArray(argv[1]) == "--engine") return nvpg::engine::serveEngine(0, 1);
    // As nvpg does: SIGINT, SIGTERM and SIGHUP still end the app at once (Qt has no handler of
    // its own for them), but first remove the hidden staging folder of a File > Export under way
    // and kill the engines. A quit from the app itself goes through Qt as before.
    nvpg::engine::endEnginesOnStopSignals();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("nvvm-playground");
    QApplication::setApplicationName("nvvm-playground");
    QApplication::setApplicationDisplayName("NVVM Playground");
    QApplication::setApplicationVersion(NVPG_VERSION);
    // Its desktop entry (share/applications/<id>.desktop): the Wayland app id and the icon docks show.
    QGuiApplication::setDesktopFileName(NVPG_APP_ID);

    QCommandLineParser parser;
    parser.setApplicationDescription("An IR playground for NVIDIA's libNVVM");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        "FILE", QString::fromStdString("a workspace (.nvpg), or NVVM IR modules, " + nvpg::nvvm::moduleFileKindsText()),
        "[FILE...]");
    parser.process(app);

    nvpg::gui::MainWindow window;
    window.show();
    // Work a crashed or killed window left unsaved comes first; files named on the command line
    // would replace it, so they wait for the next start when it is restored.
    if (window.offerRestore()) {
        if (!parser.positionalArguments().isEmpty())
            qWarning("restored unsaved work; not opening %s", qPrintable(parser.positionalArguments().join(' ')));
    } else if (!parser.positionalArguments().isEmpty()) {
        window.openPaths(parser.positionalArguments());
    }
    return app.exec();
}
