// File > Export > As cuda.core script… / As C program…: the compile on screen written as
// standalone code whose PTX is the app's (cuda.core from the python_packages venv, CMake and the
// system's C compiler for the C program; each skips, saying why, without them), the Runs dock's
// configuration in it, no export before a successful compile, and none over the workspace; the
// real app stopped by a signal mid-export leaves nothing in the folder.
#include <QtTest>

#include <signal.h>

#include <nlohmann/json.hpp>

#include <QAbstractButton>
#include <QMenuBar>
#include <QMessageBox>

#include "GuiTestSupport.h"
#include "cli/ExportSupport.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;
using namespace nvpg::test::exporting;

namespace {

EngineReply openAndCompile(MainWindow& w, const QString& example) {
    QSignalSpy spy(w.controller(), &CompileController::replyShown);
    if (!w.openExample(example)) qFatal("cannot open %s", qPrintable(example));
    if (!spy.wait(120000)) qFatal("no compile result for %s", qPrintable(example));
    return spy.last().at(0).value<EngineReply>();
}

QAction* exportAction(QMainWindow& w, const char* objectName) {
    for (auto* top : w.menuBar()->actions())
        if (top->menu() && top->text().remove('&') == "File")
            for (auto* a : top->menu()->actions())
                if (a->menu() && a->text().remove('&') == "Export")
                    for (auto* e : a->menu()->actions())
                        if (e->objectName() == objectName) return e;
    return nullptr;
}

}  // namespace

class TestExport : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_export");
    }

    void fileExportOffersBoth() {
        auto w = test::makeWindow();
        auto* py = exportAction(*w, "exportCudaCoreAction");
        auto* c = exportAction(*w, "exportCAction");
        QVERIFY(py && c);
        QCOMPARE(py->text(), QString("As cuda.core &script…"));
        QCOMPARE(c->text(), QString("As &C program…"));
    }

    void exportedCodeMakesTheAppsPtx_data() {
        QTest::addColumn<QString>("as");
        QTest::addColumn<int>("target");
        QTest::addColumn<QString>("example");
        QTest::newRow("cuda.core script") << "cuda-core" << int(exporting::Target::CudaCore) << "libdevice-math";
        QTest::newRow("C program") << "c" << int(exporting::Target::C) << "two-modules";
    }
    void exportedCodeMakesTheAppsPtx() {
        QFETCH(QString, as);
        QFETCH(int, target);
        QFETCH(QString, example);
        if (const auto why = exportedCannotRun(as)) QSKIP(qPrintable(*why));
        QStringList errors;
        auto w = test::makeWindow(&errors);
        const auto reply = openAndCompile(*w, example);
        QVERIFY2(reply.result && reply.result->ok, qPrintable(reply.error));
        QTemporaryDir dir;
        const auto code = dir.filePath("code");
        QVERIFY2(w->exportCode(exporting::Target(target), code), qPrintable(errors.join('\n')));
        // The report says how to start what was written.
        QVERIFY(w->lastExportReport().contains(as == "c" ? "./build/" + example : example + ".py"));
        if (as == "cuda-core") {
            const auto script = readAll(code + "/" + example + ".py");
            QVERIFY(script.contains(("arch=\"" + reply.result->arch + "\"").c_str()));
            QVERIFY(script.contains("use_libdevice=True"));
            QVERIFY(script.contains("KERNEL = \"wave\""));  // the Runs dock's configuration
        }
        const auto ran = runExported(as, code, dir.filePath("out"));
        QVERIFY2(ran.exitCode == 0 || ran.exitCode == 3, (ran.out + ran.err).constData());
        QCOMPARE(readAll(dir.filePath("out/" + example + ".ptx")), QByteArray::fromStdString(reply.result->ptx));
    }

    // The same check as nvpg export's: a file to write that is the workspace itself (through a
    // link left in the folder) is refused before anything is written, and the workspace stays.
    void neverOverTheWorkspace() {
        QStringList errors;
        auto w = test::makeWindow(&errors);
        QTemporaryDir dir;
        const auto ws = dir.filePath("ws.nvpg");
        QVERIFY(QFile::copy(QString::fromStdString(test::examplePath("saxpy").string()), ws));
        const auto before = readAll(ws);
        QSignalSpy spy(w->controller(), &CompileController::replyShown);
        QVERIFY(w->openWorkspace(ws));
        QVERIFY(spy.wait(120000));
        const auto out = dir.filePath("out");
        QVERIFY(QDir().mkpath(out + "/modules"));
        QVERIFY(QFile::link(ws, out + "/modules/saxpy.ll"));
        // Asked whether to replace the files there, the user says yes.
        QTimer yes;
        QObject::connect(&yes, &QTimer::timeout, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
                if (auto* button = box->button(QMessageBox::Yes)) button->click();
        });
        yes.start(50);
        QVERIFY(!w->exportCode(exporting::Target::C, out));
        QVERIFY2(errors.join('\n').contains("would replace " + ws + ", which the export reads"),
                 qPrintable(errors.join('\n')));
        QVERIFY2(errors.join('\n').contains("choose another folder"), qPrintable(errors.join('\n')));
        QCOMPARE(readAll(ws), before);
        QVERIFY(!QFile::exists(out + "/saxpy.c"));
    }

    // The real app under Xvfb, File > Export > As C program… by its keys, of a 400 MB buffer:
    // SIGTERM or SIGINT while it writes ends the app by that signal, its engines with it, and
    // leaves no hidden staging folder in the chosen folder.
    void aStopSignalLeavesNoStagingFolder_data() {
        QTest::addColumn<int>("sig");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
    }
    void aStopSignalLeavesNoStagingFolder() {
        QFETCH(int, sig);
        const auto xvfb = QStandardPaths::findExecutable("Xvfb"), xdotool = QStandardPaths::findExecutable("xdotool");
        if (xvfb.isEmpty() || xdotool.isEmpty()) QSKIP("needs Xvfb and xdotool (apt-get install xvfb xdotool)");
        QTemporaryDir home;
        auto ws =
            nlohmann::json::parse(readAll(QString::fromStdString(test::examplePath("saxpy").string())).toStdString());
        ws["runs"][0]["args"][2] = "buf:f32:100000000:iota";
        const auto wsPath = home.filePath("ws.nvpg");
        {
            QFile f(wsPath);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(ws.dump(2)));
        }
        test::AppOnXvfb session(xvfb, home.path(), {wsPath});
        QVERIFY2(session.error.isEmpty(), qPrintable(session.error));
        const auto& env = session.env;
        auto& app = session.app;
        const auto window =
            test::runTool(xdotool, {"search", "--sync", "--onlyvisible", "--name", "NVVM Playground"}, env, 60000)
                .section('\n', 0, 0);
        QVERIFY2(!window.isEmpty(), "the app's window did not appear");
        QTest::qWait(5000);  // the first compile: the export needs one
        test::runTool(xdotool, {"windowfocus", "--sync", window}, env);
        for (const char* key : {"alt+f", "x", "c"}) {  // File > Export > As C program…
            test::runTool(xdotool, {"key", key}, env);
            QTest::qWait(700);
        }
        QTest::qWait(1500);  // the folder dialog
        const auto out = home.filePath("out");
        test::runTool(xdotool, {"type", "--delay", "20", out}, env);
        test::runTool(xdotool, {"key", "Return"}, env);
        // The staging folder is there: the export is writing.
        const auto entries = [&] {
            return QDir(out).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        };
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 60000 && app.state() == QProcess::Running && entries().isEmpty()) QThread::usleep(200);
        QVERIFY2(!entries().isEmpty() && entries().first().startsWith(".nvpg-export-"),
                 qPrintable("the export did not start: " + entries().join(", ")));
        QVERIFY2(app.state() == QProcess::Running, "the app ended before the signal");
        const auto engines = test::childrenOf(pid_t(app.processId()));
        ::kill(pid_t(app.processId()), sig);
        QVERIFY(app.waitForFinished(20000));
        QCOMPARE(app.exitStatus(), QProcess::CrashExit);  // ended by the signal, as before
        QCOMPARE(app.exitCode(), sig);
        QVERIFY2(entries().isEmpty(), qPrintable(entries().join(", ")));
        for (const pid_t engine : engines)
            QVERIFY2(test::endsWithin(engine, 3000), qPrintable(QString("engine %1 outlived the app").arg(engine)));
    }

    void nothingBeforeACompile() {
        QStringList errors;
        auto w = test::makeWindow(&errors);
        QTemporaryDir dir;
        QVERIFY(!w->exportCode(exporting::Target::C, dir.filePath("code")));
        QVERIFY2(errors.join('\n').contains("Compile the workspace first"), qPrintable(errors.join('\n')));
        QVERIFY(!QDir(dir.filePath("code")).exists());
    }
};

QTEST_MAIN(TestExport)
#include "tst_export.moc"
