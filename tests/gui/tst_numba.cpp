// File > Import from numba…: the dialog, an import that opens the workspace it wrote
// (numba-cuda from the python_packages venv; skips without it), and a Cancel that kills the Python
// process and reaps it while the window stays responsive.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QProgressDialog>
#include <QTemporaryDir>

#include <fstream>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "gui/compile/CompileController.h"
#include "gui/dialogs/NumbaImportDialog.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;
namespace fs = std::filesystem;

namespace {

fs::path venvDir() {
    return test::binaryDir() / "test-python-packages";
}

std::string venvMissing() {
    std::ifstream in(venvDir() / "status");
    std::string status;
    std::getline(in, status);
    if (status.rfind("ok:", 0) == 0) return {};
    return status.empty() ? "the python_packages set-up (tests/FetchPythonPackages.sh) did not run" : status;
}

std::string importFile(const char* name) {
    return (test::dataDir() / "numba/import" / name).string();
}

// A "Python" that runs for a minute whatever it is asked: an import that only Cancel ends.
QString sleepingPython(const QTemporaryDir& dir) {
    const QString path = dir.filePath("slow-python");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    f.write("#!/bin/sh\nexec sleep 60\n");
    f.close();
    f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
    return path;
}

// The child of this process running `program`, or -1.
pid_t childRunning(const QString& program) {
    for (const pid_t pid : test::childrenOf(::getpid())) {
        QFile cmdline(QString("/proc/%1/cmdline").arg(pid));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains("sleep")) return pid;
        QFile exe(QString("/proc/%1/comm").arg(pid));
        if (exe.open(QIODevice::ReadOnly) && exe.readAll().contains(QFileInfo(program).fileName().left(15).toUtf8()))
            return pid;
    }
    return -1;
}

}  // namespace

class TestNumba : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_numba");
        // numba compiles with the toolkit the tests use.
        fs::path root = test::realToolkit()->nvvmReport().path.parent_path().parent_path();
        if (root.filename() == "nvvm") root = root.parent_path();
        qputenv("CUDA_HOME", QByteArray::fromStdString(root.string()));
    }

    // The workspace numba's kernel makes opens in the window: its module, options and the run
    // configuration in numba's ABI, unmodified.
    void importOpensTheWorkspace() {
        if (const auto why = venvMissing(); !why.empty()) QSKIP(("numba-cuda from PyPI: " + why).c_str());
        QStringList errors;
        auto w = test::makeWindow(&errors, QSize(1280, 720));
        QTemporaryDir dir;
        interop::NumbaImportRequest r;
        r.file = importFile("axpy.py");
        r.function = "axpy";
        r.signature = "void(float32[::1], float32, float32[::1], float32[::1])";
        r.python = (venvDir() / "bin/python").string();
        r.arch = "compute_90";
        r.output = dir.filePath("axpy.nvpg").toStdString();
        QVERIFY2(w->importNumba(r), qPrintable(errors.join('\n')));
        const auto& ws = w->document()->workspace();
        QCOMPARE(ws.modules.size(), size_t(1));
        QCOMPARE(ws.modules.front().name, std::string("axpy.ll"));
        QCOMPARE(ws.options.flags(), (std::vector<std::string>{"-arch=compute_90", "-opt=3"}));
        QVERIFY(ws.libdevice);
        QCOMPARE(ws.runs.size(), size_t(1));
        QCOMPARE(ws.runs.front().args.size(), size_t(22));
        QVERIFY2(
            ws.description.find("Kernel: axpy::axpy(Array<float, 1, C, mutable, aligned>, float,") != std::string::npos,
            ws.description.c_str());
        QCOMPARE(w->document()->path(), dir.filePath("axpy.nvpg"));
        // What an import wrote is no edit of the user's: compiled and looked at, nothing to save.
        QTRY_VERIFY_WITH_TIMEOUT(w->lastReply().result && !w->controller()->busy(), 120000);
        w->editors()->showLocation("axpy.ll", 1, 1);
        QVERIFY(!w->document()->isModified());
        QVERIFY(!w->isWindowModified());
    }

    // Cancel ends the Python process (and reaps it) at once; the window went on handling events
    // meanwhile, and nothing is opened or written.
    void cancelKillsPython() {
        QStringList errors;
        auto w = test::makeWindow(&errors, QSize(1280, 720));
        QTemporaryDir dir;
        const QString python = sleepingPython(dir);
        interop::NumbaImportRequest r;
        r.file = importFile("axpy.py");
        r.function = "axpy";
        r.signature = "void(float32[::1])";
        r.python = python.toStdString();
        r.arch = "compute_90";
        r.output = dir.filePath("x.nvpg").toStdString();
        pid_t child = -1;
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&] {
            ++ticks;
            if (child < 0) child = childRunning(python);
            if (child > 0 && ticks > 5)
                if (auto* p = w->findChild<QProgressDialog*>("numbaImportProgress"))  // its Cancel button
                    emit p->canceled();
        });
        ticker.start(50);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!w->importNumba(r));
        ticker.stop();
        QVERIFY2(clock.elapsed() < 20000, "Cancel did not end the import");
        QVERIFY2(child > 0, "the Python process was not seen");
        QVERIFY(ticks > 5);  // the event loop ran while numba did
        QVERIFY2(test::statFields(child).empty(), "the Python process is still there (running or a zombie)");
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));  // a cancel is no error
        QVERIFY(!QFile::exists(dir.filePath("x.nvpg")));
    }

    // File > Import from numba… asks for the file, kernel and signature, then imports; what went
    // wrong is shown (here: a Python without numba-cuda, or one that is not there).
    void dialogImports() {
        QStringList errors;
        auto w = test::makeWindow(&errors, QSize(1280, 720));
        QTemporaryDir dir;
        auto* action = w->findChild<QAction*>("importNumbaAction");
        QVERIFY(action);
        bool filled = false;
        QTimer::singleShot(0, this, [&] {
            auto* d = qobject_cast<NumbaImportDialog*>(QApplication::activeModalWidget());
            if (!d) return;
            d->findChild<QLineEdit*>("numbaFile")->setText(QString::fromStdString(importFile("axpy.py")));
            d->findChild<QLineEdit*>("numbaFunction")->setText("axpy");
            d->findChild<QLineEdit*>("numbaSignature")->setText("void(float32[::1])");
            d->findChild<QLineEdit*>("numbaPython")->setText(dir.filePath("no-python-here"));
            d->findChild<QLineEdit*>("numbaArch")->setText("compute_90");
            // The workspace is proposed beside the file, named after the kernel.
            filled = d->findChild<QLineEdit*>("numbaOutput")->text().endsWith("/axpy.nvpg");
            d->findChild<QLineEdit*>("numbaOutput")->setText(dir.filePath("x.nvpg"));
            d->accept();
        });
        action->trigger();
        QVERIFY(filled);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.front().contains("no-python-here"), qPrintable(errors.front()));
    }
};

QTEST_MAIN(TestNumba)
#include "tst_numba.moc"
