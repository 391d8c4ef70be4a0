// Settings ▸ Engine ▸ "On another machine over SSH", through an sshd of the test's own on
// 127.0.0.1 (cli/SshdFixture.h): Test Connection says what it found or what failed; the window
// then compiles there (the PTX a compile here gives) on one connection for the session, names
// the far machine in the status bar, puts an unreachable machine in Problems with the way back,
// and leaves no far engine behind when it closes.
#include <QtTest>

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QStatusBar>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "cli/SshdFixture.h"
#include "gui/compile/CompileController.h"
#include "gui/compile/SupervisedEngine.h"
#include "gui/dialogs/SettingsDialog.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/OutputView.h"
#include "gui/panels/ProblemsPanel.h"
#include "gui/panels/RunPanel.h"
#include "gui/window/MainWindow.h"
#include "gui/window/ToolkitStatus.h"

using namespace nvpg;
using namespace nvpg::gui;

class TestRemote : public QObject {
    Q_OBJECT

    test::Sshd sshd_;
    std::string skip_;
    QTemporaryDir dir_;
    QString farNvpg_;
    QString host_;

    // The far nvpg processes still running (the wrapper's name marks them).
    int farEngines() const {
        int found = 0;
        for (const auto& name : QDir("/proc").entryList(QDir::Dirs)) {
            bool isPid = false;
            const pid_t pid = name.toInt(&isPid);
            if (!isPid || !test::alive(pid)) continue;
            QFile f("/proc/" + name + "/cmdline");
            if (f.open(QIODevice::ReadOnly) && f.readAll().startsWith(farNvpg_.toUtf8() + '\0')) ++found;
        }
        return found;
    }

    void useFarEngine(const std::string& config = "ssh_config") {
        qputenv("NVPG_SSH_COMMAND", QByteArray::fromStdString(sshd_.sshCommand(config)));
        QSettings().setValue("engine/on", "127.0.0.1");
        QSettings().setValue("engine/remoteNvpg", farNvpg_);
    }

    static QLabel* label(MainWindow& w, const char* name) { return w.statusBar()->findChild<QLabel*>(name); }

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_remote");
        skip_ = sshd_.start();
        farNvpg_ = dir_.filePath("far-nvpg.sh");
        QFile f(farNvpg_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        // The far login has sshd's environment: this one's PATH and library path go with it.
        f.write(("#!/bin/bash\nexport PATH='" + qgetenv("PATH").toStdString() + "'\nexport LD_LIBRARY_PATH='" +
                 qgetenv("LD_LIBRARY_PATH").toStdString() + "'\nexec -a " + farNvpg_.toStdString() + " " +
                 test::nvpgPath() + " \"$@\"\n")
                    .c_str());
        f.close();
        f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
        char host[256] = {};
        QVERIFY(::gethostname(host, sizeof host - 1) == 0);
        host_ = QString::fromLocal8Bit(host);
    }

    void init() {
        QSettings().clear();
        qunsetenv("NVPG_SSH_COMMAND");
    }

    void testConnectionSaysWhatItFound() {
        if (!skip_.empty()) QSKIP(skip_.c_str());
        qputenv("NVPG_SSH_COMMAND", QByteArray::fromStdString(sshd_.sshCommand()));
        SettingsDialog d;
        QVERIFY(!d.farDestinationEdit()->isEnabled());
        d.farEngineButton()->setChecked(true);
        QVERIFY(d.farDestinationEdit()->isEnabled());
        d.farDestinationEdit()->setText("127.0.0.1");
        d.farNvpgEdit()->setText(farNvpg_);
        QSignalSpy tested(&d, &SettingsDialog::connectionTested);
        QTest::mouseClick(d.testConnectionButton(), Qt::LeftButton);
        QVERIFY(tested.wait(60000));
        const auto text = d.connectionText();
        QVERIFY2(text.startsWith("Connected."), qPrintable(text));
        QVERIFY2(text.contains("127.0.0.1 (host " + host_ + "), over ssh"), qPrintable(text));
        QVERIFY2(text.contains("libNVVM"), qPrintable(text));
        QVERIFY2(text.contains("GPUs"), qPrintable(text));

        // A key the far sshd does not know: exactly what failed.
        qputenv("NVPG_SSH_COMMAND", QByteArray::fromStdString(sshd_.sshCommand("ssh_config_otherkey")));
        QTest::mouseClick(d.testConnectionButton(), Qt::LeftButton);
        QVERIFY(tested.wait(60000));
        QVERIFY2(d.connectionText().startsWith("Failed: 127.0.0.1 refused the login"), qPrintable(d.connectionText()));

        // OK stores where the engine runs.
        d.accept();
        QCOMPARE(QSettings().value("engine/on").toString(), QString("127.0.0.1"));
        QCOMPARE(QSettings().value("engine/remoteNvpg").toString(), farNvpg_);
    }

    void aDestinationSshWouldMisreadIsNotStored() {
        SettingsDialog d;
        d.farEngineButton()->setChecked(true);
        d.farDestinationEdit()->setText("-oProxyCommand=touch x");
        d.accept();
        QCOMPARE(d.result(), int(QDialog::Rejected));
        QVERIFY2(d.connectionText().contains("cannot start with '-'"), qPrintable(d.connectionText()));
        QVERIFY(!QSettings().contains("engine/on"));
    }

    // The window compiles there: the PTX is what a compile here gives, the status bar names the
    // far machine, and one connection serves every compile of the session.
    void theWindowCompilesThere() {
        if (!skip_.empty()) QSKIP(skip_.c_str());
        useFarEngine();
        {
            // The window's own engine, as it makes it from the settings, held here to read its pid.
            auto owned = std::make_unique<SupervisedEngine>(nullptr, QString(), ToolkitStatus::engineSettings());
            auto* engine = owned.get();
            MainWindow w(std::move(owned));
            w.setSaveQuestion([] { return QMessageBox::Discard; });
            w.resize(1280, 720);
            w.show();
            QSignalSpy replies(w.controller(), &CompileController::replyShown);
            QVERIFY(w.openExample("saxpy"));
            QTRY_VERIFY_WITH_TIMEOUT(w.output()->ptxText().contains(".entry saxpy"), 60000);
            const auto here = test::runTool(QString::fromStdString(test::nvpgPath()), {"compile", "saxpy"},
                                            QProcessEnvironment::systemEnvironment(), 60000);
            QCOMPARE(w.output()->ptxText().trimmed(), here);
            QTRY_VERIFY_WITH_TIMEOUT(label(w, "libsStatus")->text().startsWith("on " + host_ + ": libNVVM"), 60000);
            QTRY_VERIFY_WITH_TIMEOUT(label(w, "gpuStatus")->text().contains(host_), 60000);
            // Once the far engine described itself the window compiles with what it has (SASS
            // too); from then on every compile goes over one connection.
            replies.clear();
            w.controller()->compileNow();
            QVERIFY(replies.wait(60000));
            const int first = engine->enginePid();
            QVERIFY(first > 0);
            for (int edit = 0; edit < 2; ++edit) {
                replies.clear();
                w.editors()->currentEditor()->append(QString("\n; edited %1\n").arg(edit));
                QVERIFY(replies.wait(60000));
                QCOMPARE(engine->enginePid(), first);
            }
            QVERIFY(farEngines() >= 1);
        }
        // Closed: no far engine survives its connection.
        QTRY_COMPARE_WITH_TIMEOUT(farEngines(), 0, 15000);
    }

    // The Run panel runs on the far GPU: the summary names the far machine. Where the far machine
    // has no GPU (this one, in CI) the panel says which machine and why, and the run is skipped.
    void aKernelRunsOnTheFarGpu() {
        if (!skip_.empty()) QSKIP(skip_.c_str());
        useFarEngine();
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(w->openExample("saxpy"));
        QTRY_VERIFY_WITH_TIMEOUT(w->output()->ptxText().contains(".entry saxpy"), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(label(*w, "gpuStatus")->text().contains(host_), 60000);
        auto* panel = w->runPanel();
        if (label(*w, "gpuStatus")->text().startsWith("no GPU")) {
            QTRY_VERIFY2_WITH_TIMEOUT(panel->runBlockers().join(" ").contains("127.0.0.1 (" + host_ +
                                                                              ") has no GPU the engine there can use"),
                                      qPrintable(panel->runBlockers().join("; ")), 60000);
            QSKIP("the far machine (this one) has no GPU: the run itself is checked on the GPU machine");
        }
        QTRY_VERIFY2_WITH_TIMEOUT(panel->runBlockers().isEmpty(), qPrintable(panel->runBlockers().join("; ")), 60000);
        QSignalSpy busy(panel, &RunPanel::busyChanged);
        panel->runNow();
        QTRY_VERIFY_WITH_TIMEOUT(!busy.isEmpty() && !panel->isBusy(), 120000);
        const auto summary = panel->summaryLabel()->text();
        qInfo("%s", qPrintable(summary));
        QVERIFY2(summary.contains(" ms") && summary.contains("(" + host_ + ")") && !summary.contains("failed"),
                 qPrintable(summary));
    }

    // An unreachable machine: Problems names it and says how to compile here.
    void anUnreachableMachineIsAProblem() {
        if (!skip_.empty()) QSKIP(skip_.c_str());
        useFarEngine("ssh_config_closed");
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(w->openExample("saxpy"));
        QTRY_VERIFY_WITH_TIMEOUT(w->problems()->errorCount() > 0, 60000);
        const auto text = QString::fromStdString(w->problems()->diagnostic(0).message);
        QVERIFY2(text.contains("127.0.0.1 cannot be reached"), qPrintable(text));
        QVERIFY2(text.contains("Engine ▸ On this machine compiles here"), qPrintable(text));
        QTRY_VERIFY_WITH_TIMEOUT(label(*w, "libsStatus")->text().contains("engine on 127.0.0.1 unreachable"), 60000);
        QVERIFY(w->output()->ptxText().isEmpty());
        // The way back: Settings ▸ Engine ▸ On this machine, and the window compiles here.
        QSettings().remove("engine/on");
        w->applySettings();
        QTRY_VERIFY_WITH_TIMEOUT(w->output()->ptxText().contains(".entry saxpy"), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(label(*w, "libsStatus")->text().startsWith("libNVVM"), 60000);
    }
};

QTEST_MAIN(TestRemote)
#include "tst_remote.moc"
