// Nothing typed is lost: unsaved edits reach the journal within a second and at each compile;
// a window that dies leaves them to be offered back at the next start (the real app killed with
// kill -9 after real keystrokes, under Xvfb); saves are atomic and never overwrite a file that
// changed on disk without asking.
#include <QtTest>

#include <signal.h>

#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "gui/compile/CompileController.h"
#include "gui/document/Journal.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/panels/OptionsPanel.h"
#include "gui/panels/RunPanel.h"
#include "gui/window/MainWindow.h"

#include <sys/stat.h>

using namespace nvpg;
using namespace nvpg::gui;

namespace {

QString readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The workspace a journal file holds, as text (module texts are JSON-escaped inside it).
std::string journaledWorkspace(const QString& file) {
    const auto j = nlohmann::json::parse(readAll(file).toStdString(), nullptr, false);
    if (!j.is_object() || !j.contains("workspace")) return {};
    auto ws = workspace::parseWorkspace(j["workspace"].get<std::string>(), "journal");
    if (!ws) return {};
    std::string all;
    for (const auto& m : ws->modules) all += m.bytes;
    return all;
}

// The whole workspace a journal file holds; nullopt when there is none (yet).
std::optional<workspace::Workspace> journaledWs(const QString& file) {
    const auto j = nlohmann::json::parse(readAll(file).toStdString(), nullptr, false);
    if (!j.is_object() || !j.contains("workspace")) return std::nullopt;
    auto ws = workspace::parseWorkspace(j["workspace"].get<std::string>(), "journal");
    if (!ws) return std::nullopt;
    return std::move(*ws);
}

int modeOf(const QString& path) {
    struct stat st {};
    return ::stat(path.toLocal8Bit().constData(), &st) == 0 ? int(st.st_mode & 07777) : -1;
}

}  // namespace

class TestJournal : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> makeWindow() {
        auto w = std::make_unique<MainWindow>();
        w->setErrorSink([this](const QString& title, const QString& message) { errors_ << title + ": " + message; });
        w->setSaveQuestion([] { return QMessageBox::Discard; });
        w->controller()->setAutoCompile(false);
        w->show();
        return w;
    }
    QStringList errors_;

    void clearJournals() {
        for (const auto& e : Journal::orphans()) Journal::discard(e.file);
    }

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_journal");
        QDir(Journal::folder()).removeRecursively();
    }
    void init() {
        errors_.clear();
        clearJournals();
    }

    void editsReachTheJournalWithinASecond() {
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        const auto file = w->journalFile();
        QVERIFY(file.startsWith(Journal::folder()));
        QVERIFY(!QFile::exists(file));  // nothing unsaved yet
        auto* editor = w->editors()->editor(0);
        QElapsedTimer t;
        t.start();
        editor->append("\n; first words\n");
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(file), 3000);
        QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(journaledWorkspace(file).find("; first words") != std::string::npos);
        // A compile writes it at once, without waiting for the timer.
        editor->append("; just before a compile\n");
        w->controller()->compileNow();
        QVERIFY(journaledWorkspace(file).find("; just before a compile") != std::string::npos);
    }

    void savingAndClosingRemoveTheJournal() {
        QTemporaryDir dir;
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        w->editors()->editor(0)->append("; edit\n");
        w->writeJournal();
        const auto file = w->journalFile();
        QVERIFY(QFile::exists(file));
        QVERIFY(w->saveAs(dir.filePath("mine.nvpg")));
        QVERIFY(!QFile::exists(file));  // all of it is in mine.nvpg now
        w->editors()->editor(0)->append("; another\n");
        w->writeJournal();
        QVERIFY(QFile::exists(file));
        QVERIFY(w->close());  // the save question answers Discard: a clean end
        QVERIFY(!QFile::exists(file));
        QVERIFY(Journal::orphans().isEmpty());
    }

    void aLiveWindowsJournalIsNotOffered() {
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        w->editors()->editor(0)->append("; mine\n");
        w->writeJournal();
        auto other = makeWindow();
        bool asked = false;
        other->setRestoreQuestion([&](const QString&) {
            asked = true;
            return MainWindow::RestoreChoice::Restore;
        });
        QVERIFY(!other->offerRestore());
        QVERIFY(!asked);
    }

    void orphanedJournalIsOfferedAndRestored() {
        QTemporaryDir dir;
        const auto path = dir.filePath("ws.nvpg");
        QString orphan;
        {
            auto w = makeWindow();
            QVERIFY(w->openExample("two-modules"));
            QVERIFY(w->saveAs(path));
            w->editors()->editor(0)->append("; typed, never saved\n");
            w->writeJournal();
            // What a killed process leaves: the journal without a live lock.
            orphan = Journal::folder() + "/journal-99999999-1.json";
            QVERIFY(QFile::copy(w->journalFile(), orphan));
        }
        QVERIFY(QFile::exists(orphan));
        auto w = makeWindow();
        QString offer;
        w->setRestoreQuestion([&](const QString& text) {
            offer = text;
            return MainWindow::RestoreChoice::Restore;
        });
        QVERIFY(w->offerRestore());
        QVERIFY2(offer.contains("\"two-modules\"") && offer.contains("main.ll, helper.ll") && offer.contains(path),
                 qPrintable(offer));
        QVERIFY(w->editors()->editor(0)->text().contains("; typed, never saved"));
        QVERIFY(w->document()->isModified());
        QCOMPARE(w->document()->path(), path);  // Save goes back where it came from
        QVERIFY2(w->windowTitle().startsWith("ws[*]"), qPrintable(w->windowTitle()));  // the file's name, as saved
        QVERIFY(!QFile::exists(orphan));  // adopted: this window's journal holds it now
        QVERIFY(journaledWorkspace(w->journalFile()).find("; typed, never saved") != std::string::npos);
        QVERIFY(w->save());
        QVERIFY(readAll(path).contains("; typed, never saved"));
    }

    void restoreCanWaitOrBeDiscarded() {
        {
            auto w = makeWindow();
            QVERIFY(w->openExample("saxpy"));
            w->editors()->editor(0)->append("; later\n");
            w->writeJournal();
            QVERIFY(QFile::copy(w->journalFile(), Journal::folder() + "/journal-99999998-1.json"));
        }
        auto w = makeWindow();
        w->setRestoreQuestion([](const QString&) { return MainWindow::RestoreChoice::Later; });
        QVERIFY(!w->offerRestore());
        QCOMPARE(Journal::orphans().size(), 1);  // still there for the next start
        w->setRestoreQuestion([](const QString&) { return MainWindow::RestoreChoice::Discard; });
        QVERIFY(!w->offerRestore());
        QVERIFY(Journal::orphans().isEmpty());
    }

    void fileChangedOnDiskIsNotOverwrittenWithoutAsking() {
        QTemporaryDir dir;
        const auto path = dir.filePath("ws.nvpg");
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        QVERIFY(w->saveAs(path));
        // Another program writes the file.
        const auto theirs = readAll(path).replace("saxpy", "theirs");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(theirs.toUtf8());
        }
        w->editors()->editor(0)->append("; ours\n");
        QString question;
        w->setDiskConflictQuestion([&](const QString& text) {
            question = text;
            return MainWindow::DiskConflict::Cancel;
        });
        QVERIFY(!w->save());
        QVERIFY2(question.contains(path) && question.contains("changed on disk"), qPrintable(question));
        QCOMPARE(readAll(path), theirs);  // untouched
        QVERIFY(w->document()->isModified());
        // Overwrite, when the user says so; then the next save does not ask again.
        w->setDiskConflictQuestion([](const QString&) { return MainWindow::DiskConflict::Overwrite; });
        QVERIFY(w->save());
        QVERIFY(readAll(path).contains("; ours"));
        w->setDiskConflictQuestion([](const QString&) -> MainWindow::DiskConflict { qFatal("asked again"); });
        w->editors()->editor(0)->append("; more\n");
        QVERIFY(w->save());
        // Two windows on one file: whoever saves second is asked.
        auto second = makeWindow();
        QVERIFY(second->openWorkspace(path));
        second->setDiskConflictQuestion([](const QString&) -> MainWindow::DiskConflict { qFatal("asked wrongly"); });
        second->editors()->editor(0)->append("; from the second window\n");
        QVERIFY(second->save());  // the file is as `second` read it
        w->editors()->editor(0)->append("; w again\n");
        bool asked = false;
        w->setDiskConflictQuestion([&](const QString&) {
            asked = true;
            return MainWindow::DiskConflict::Cancel;
        });
        QVERIFY(!w->save());
        QVERIFY(asked);
        QVERIFY(readAll(path).contains("; from the second window"));
    }

    void aFailedSaveLosesNothing() {
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        w->editors()->editor(0)->append("; precious\n");
        QVERIFY(!w->saveAs("/nonexistent-folder/ws.nvpg"));
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_[0].contains("/nonexistent-folder/ws.nvpg"), qPrintable(errors_[0]));
        QVERIFY(w->document()->isModified());
        QVERIFY(w->editors()->editor(0)->text().contains("; precious"));
        QVERIFY(!QFile::exists("/nonexistent-folder/ws.nvpg"));
    }

    // Every change that sets the title's * is journaled, whichever control made it: the
    // libdevice check box, an option (ftz), a run configuration saved in the Runs dock. The
    // window compiles after each option change, as the app does by default (Auto-compile on).
    void everyChangeThatSetsTheStarIsJournaled_data() {
        QTest::addColumn<QString>("change");
        QTest::newRow("libdevice") << "libdevice";
        QTest::newRow("ftz") << "ftz";
        QTest::newRow("saved run configuration") << "run";
    }
    void everyChangeThatSetsTheStarIsJournaled() {
        QFETCH(QString, change);
        QString orphan;
        bool libdeviceBefore = false;
        {
            auto w = makeWindow();
            w->controller()->setAutoCompile(true);
            QVERIFY(w->openExample("saxpy"));
            QTRY_VERIFY_WITH_TIMEOUT(!w->controller()->busy(), 20000);
            QVERIFY(!w->isWindowModified());
            const auto file = w->journalFile();
            if (change == "libdevice") {
                libdeviceBefore = w->document()->workspace().libdevice;
                w->optionsPanel()->libdeviceCheck()->click();
            } else if (change == "ftz") {
                auto* ftz = qobject_cast<QComboBox*>(w->optionsPanel()->optionControl("ftz"));
                QVERIFY(ftz);
                ftz->setCurrentIndex(ftz->findData(1));
            } else {
                w->runPanel()->nameEdit()->setText("mine");
                QVERIFY(w->runPanel()->saveConfig());
            }
            QVERIFY(w->isWindowModified());
            const auto holdsIt = [&](const workspace::Workspace& ws) {
                if (change == "libdevice") return ws.libdevice != libdeviceBefore;
                if (change == "ftz") return ws.options.ftz == std::optional<bool>(true);
                return std::any_of(ws.runs.begin(), ws.runs.end(), [](const auto& r) { return r.name == "mine"; });
            };
            QTRY_VERIFY_WITH_TIMEOUT(journaledWs(file) && holdsIt(*journaledWs(file)), 3000);
            // What kill -9 leaves: that journal, with no live lock beside it.
            orphan = Journal::folder() + "/journal-99999997-1.json";
            QVERIFY(QFile::copy(file, orphan));
        }
        auto w = makeWindow();
        w->setRestoreQuestion([](const QString&) { return MainWindow::RestoreChoice::Restore; });
        QVERIFY(w->offerRestore());
        QVERIFY(w->isWindowModified());
        const auto& ws = w->document()->workspace();
        if (change == "libdevice") {
            QCOMPARE(ws.libdevice, !libdeviceBefore);
            QCOMPARE(w->optionsPanel()->libdeviceCheck()->isChecked(), !libdeviceBefore);
        } else if (change == "ftz") {
            QCOMPARE(ws.options.ftz, std::optional<bool>(true));
        } else {
            QVERIFY(w->runPanel()->savedCombo()->findText("mine", Qt::MatchContains) >= 0);
        }
    }

    // The journal holds what the workspace holds: it is as private as the workspace file (a
    // 0600 workspace gives a 0600 journal), and private (0600) for a workspace not saved yet.
    void theJournalIsAsPrivateAsTheWorkspace() {
        QTemporaryDir dir;
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        w->editors()->editor(0)->append("; unsaved\n");
        w->writeJournal();
        QCOMPARE(modeOf(w->journalFile()), 0600);  // a new workspace
        const auto path = dir.filePath("secret.nvpg");
        QVERIFY(w->saveAs(path));
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        w->editors()->editor(0)->append("; more\n");
        w->writeJournal();
        QCOMPARE(modeOf(w->journalFile()), 0600);
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup));
        w->editors()->editor(0)->append("; and more\n");
        w->writeJournal();
        QCOMPARE(modeOf(w->journalFile()), 0640);
    }

    // A window killed with nothing unsaved leaves only its lock; a start removes such locks of
    // processes that are gone, and keeps those of live windows.
    void staleLockFilesAreRemoved() {
        auto live = makeWindow();
        QVERIFY(live->openExample("saxpy"));
        const auto liveLock = live->journalFile() + ".lock";
        QVERIFY(QFile::exists(liveLock));
        // A lock as QLockFile writes it, for a process that has ended.
        QProcess gone;
        gone.start("true");
        QVERIFY(gone.waitForStarted());
        const qint64 deadPid = gone.processId();
        QVERIFY(gone.waitForFinished());
        QStringList lines = readAll(liveLock).split('\n');
        QVERIFY2(lines.size() >= 3, qPrintable(readAll(liveLock)));
        lines[0] = QString::number(deadPid);
        const auto stale = Journal::folder() + QStringLiteral("/journal-%1-1.json.lock").arg(deadPid);
        {
            QFile f(stale);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(lines.join('\n').toUtf8());
        }
        QVERIFY(Journal::orphans().isEmpty());  // what a start does
        QVERIFY2(!QFile::exists(stale), "the lock of a process that is gone stayed");
        QVERIFY(QFile::exists(liveLock));
    }

    void killMinus9AfterTypingOffersItBack() {
        // The real app, real keystrokes (xdotool) on a real X server (Xvfb), a real kill -9.
        const auto xvfb = QStandardPaths::findExecutable("Xvfb"), xdotool = QStandardPaths::findExecutable("xdotool");
        if (xvfb.isEmpty() || xdotool.isEmpty()) QSKIP("needs Xvfb and xdotool (apt-get install xvfb xdotool)");
        QTemporaryDir home;
        test::AppOnXvfb session(xvfb, home.path(), {QString::fromStdString((test::dataDir() / "ir/sinf.ll").string())});
        QVERIFY2(session.error.isEmpty(), qPrintable(session.error));
        const auto& env = session.env;
        auto& app = session.app;
        const auto window =
            test::runTool(xdotool, {"search", "--sync", "--onlyvisible", "--name", "NVVM Playground"}, env, 60000)
                .section('\n', 0, 0);
        QVERIFY2(!window.isEmpty(), "the app's window did not appear");
        QTest::qWait(1500);  // the first compile and layout settle
        test::runTool(xdotool, {"windowfocus", "--sync", window}, env);
        // Into the editor (left of the output panes, right of the Options dock), to its end.
        test::runTool(xdotool, {"mousemove", "--window", window, "560", "300", "click", "1"}, env);
        test::runTool(xdotool, {"key", "ctrl+End", "Return"}, env);
        test::runTool(xdotool, {"type", "--delay", "30", "; typed by a person, kept"}, env);
        QTest::qWait(2500);  // more than 2 s before the kill
        test::runTool(xdotool, {"key", "Return"}, env);
        test::runTool(xdotool, {"type", "--delay", "30", "; typed at the last moment"}, env);
        // Its engine processes (the compile engine at least: the module was compiled) end with it.
        const auto engines = test::childrenOf(pid_t(app.processId()));
        QVERIFY2(!engines.empty(), "the app has no engine process");
        ::kill(pid_t(app.processId()), SIGKILL);
        QVERIFY(app.waitForFinished(10000));
        QCOMPARE(app.exitStatus(), QProcess::CrashExit);
        for (const pid_t engine : engines)
            QVERIFY2(test::endsWithin(engine, 3000), qPrintable(QString("engine %1 outlived the app").arg(engine)));

        // The next start, as the app: same data folder, same application names.
        qputenv("XDG_DATA_HOME", env.value("XDG_DATA_HOME").toUtf8());
        QStandardPaths::setTestModeEnabled(false);
        QCoreApplication::setOrganizationName("nvvm-playground");
        QCoreApplication::setApplicationName("nvvm-playground");
        auto restoreNames = qScopeGuard([] {
            qunsetenv("XDG_DATA_HOME");
            QStandardPaths::setTestModeEnabled(true);
            QCoreApplication::setOrganizationName("nvpg-test");
            QCoreApplication::setApplicationName("tst_gui_journal");
        });
        QVERIFY(Journal::folder().startsWith(home.path()));
        auto w = makeWindow();
        QString offer;
        w->setRestoreQuestion([&](const QString& text) {
            offer = text;
            return MainWindow::RestoreChoice::Restore;
        });
        QVERIFY2(w->offerRestore(), "no unsaved work was offered after kill -9");
        QVERIFY2(offer.contains("sinf.ll"), qPrintable(offer));
        const auto text = w->editors()->editor(0)->text();
        QVERIFY2(text.contains("; typed by a person, kept"), qPrintable(text.right(300)));
        QVERIFY(text.contains("define void @sin_kernel"));  // and the rest of the module
    }
};

QTEST_MAIN(TestJournal)
#include "tst_journal.moc"
