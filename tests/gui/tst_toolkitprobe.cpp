// The app's toolkit at start, from a fresh profile: its libraries are opened in an engine process
// and nvdisasm is asked for its version off the UI thread. A libnvvm.so.4
// that aborts, segfaults, _exit(0)s or sleeps as it loads leaves the window up, saying what that
// library did in the status bar; an nvdisasm that never answers --version holds nothing up; and no
// process of either is left once the window is gone.
#include <QtTest>

#include <QLabel>
#include <QStatusBar>

#include <sys/prctl.h>
#include <sys/wait.h>

#include "GuiTestSupport.h"
#include "HostileToolkit.h"
#include "TestSupport.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;

namespace {

// The status bar's label that names libNVVM.
// The status bar's libraries label, by name: the compile status beside it may name libNVVM too
// ("Not compiled: libNVVM crashed …"), and once a compile answered before the probe, it was taken.
QLabel* libsLabel(QMainWindow& w) {
    return w.statusBar()->findChild<QLabel*>("libsStatus");
}

// Running processes whose command line holds `marker`.
QStringList running(const QByteArray& marker) {
    QStringList found;
    for (const auto& name : QDir("/proc").entryList(QDir::Dirs)) {
        QFile cmdline("/proc/" + name + "/cmdline");
        if (!name.toInt() || !cmdline.open(QIODevice::ReadOnly)) continue;
        if (cmdline.readAll().contains(marker) && test::alive(name.toInt())) found << name;
    }
    return found;
}

}  // namespace

class TestToolkitProbe : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_toolkitprobe");
    }

    // Each hostile library in a copy of this suite of its own (the one it names in
    // NVPG_HOSTILE_CASE): on a front end that maps it, the copy dies, exits or hangs, which this
    // process sees.
    void aHostileLibnvvmLeavesTheAppUp_data() {
        QTest::addColumn<QString>("action");
        for (const auto& h : test::kHostileNvvms) QTest::newRow(h.action) << h.action;
    }
    void aHostileLibnvvmLeavesTheAppUp() {
        QFETCH(QString, action);
        QVERIFY(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
        auto unreaper = qScopeGuard([] {
            ::prctl(PR_SET_CHILD_SUBREAPER, 0);
            while (::waitpid(-1, nullptr, WNOHANG) > 0) {
            }
        });
        QProcess copy;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("NVPG_HOSTILE_CASE", action);
        copy.setProcessEnvironment(env);
        copy.setProcessChannelMode(QProcess::MergedChannels);
        copy.start(QCoreApplication::applicationFilePath(), {"theAppSaysWhatItsLibnvvmDid"});
        const bool finished = copy.waitForFinished(60000);
        if (!finished) {
            copy.kill();
            copy.waitForFinished(5000);
        }
        const QString log = QString::fromUtf8(copy.readAll());
        QVERIFY2(finished, qPrintable("the app hung:\n" + log));
        QVERIFY2(copy.exitStatus() == QProcess::NormalExit, qPrintable("the app crashed:\n" + log));
        QVERIFY2(log.contains("PASS   : TestToolkitProbe::theAppSaysWhatItsLibnvvmDid()"),
                 qPrintable("the app ended before its window said anything:\n" + log));
        QCOMPARE(copy.exitCode(), 0);
        QTest::qWait(200);
        const auto left = test::childrenOf(::getpid());
        for (const pid_t pid : left) ::kill(pid, SIGKILL);
        QVERIFY2(left.empty(), qPrintable(QString("%1 processes left running").arg(left.size())));
    }

    // The copy's part (skipped in a plain run).
    void theAppSaysWhatItsLibnvvmDid() {
        const QString action = qEnvironmentVariable("NVPG_HOSTILE_CASE");
        if (action.isEmpty()) QSKIP("run by aHostileLibnvvmLeavesTheAppUp in a process of its own");
        QString said;
        for (const auto& h : test::kHostileNvvms)
            if (action == h.action) said = h.said;
        QTemporaryDir dir;
        const auto root = test::hostileToolkit(dir.path().toStdString(), action.toStdString());
        qputenv("CUDA_PATH", QByteArray::fromStdString(root.string()));
        QSettings().setValue("engine/compileTimeout", 3);  // the sleeping one is stopped after that
        QElapsedTimer clock;
        clock.start();
        auto w = test::makeWindow();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString("shown after %1 ms").arg(clock.elapsed())));
        auto* label = libsLabel(*w);
        QVERIFY(label);
        QTRY_VERIFY_WITH_TIMEOUT(label->text().contains("unusable"), 20000);
        const QString file = QString::fromStdString((root / "lib64/libnvvm.so.4").string());
        QVERIFY2(label->toolTip().contains(said) && label->toolTip().contains(file), qPrintable(label->toolTip()));
        QVERIFY2(w->statusBar()->currentMessage().contains(said), qPrintable(w->statusBar()->currentMessage()));
        QVERIFY(w->statusBar()->currentMessage().contains("CUDA_PATH"));
        // The window still answers.
        QElapsedTimer ping;
        ping.start();
        QTest::qWait(50);
        QVERIFY(ping.elapsed() < 1000);
        w.reset();
        QTRY_VERIFY_WITH_TIMEOUT(test::childrenOf(::getpid()).empty(), 5000);
    }

    // An nvdisasm that sleeps on --version, first on PATH and, so that it is the one found
    // wherever a toolkit brings its own (the GPU machine's), beside libNVVM of a toolkit (CUDA_PATH)
    // of the real libraries: the window is shown at once, its event loop never waits on the probe,
    // and the probe's processes end with it.
    void aHangingNvdisasmHoldsNothingUp() {
        QTemporaryDir dir;
        const auto env = test::withHangingTool(dir, "nvdisasm", "sleep 765.432 &\nsleep 765.432");
        auto real = toolkit::Toolkit::locate();
        QVERIFY2(real, real ? "" : real.error().message.c_str());
        const auto root =
            test::hostileToolkit(dir.path().toStdString(), "hanging-nvdisasm", (*real)->nvvmReport().path);
        std::filesystem::create_directories(root / "bin");
        std::filesystem::create_symlink(dir.filePath("nvdisasm").toStdString(), root / "bin/nvdisasm");
        const QByteArray savedPath = qgetenv("PATH"), savedCuda = qgetenv("CUDA_PATH");
        qputenv("PATH", env.value("PATH").toUtf8());
        qputenv("CUDA_PATH", QByteArray::fromStdString(root.string()));
        auto restore = qScopeGuard([&] {
            qputenv("PATH", savedPath);
            if (savedCuda.isNull())
                qunsetenv("CUDA_PATH");
            else
                qputenv("CUDA_PATH", savedCuda);
        });
        QElapsedTimer clock;
        clock.start();
        auto w = test::makeWindow();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        const auto shownMs = clock.elapsed();
        // The probe gives that nvdisasm 2 s; meanwhile the event loop turns as ever.
        bool probing = true;
        test::EventLoopProbe probe([&] { return probing; });
        auto* label = libsLabel(*w);
        QVERIFY(label);
        QTRY_VERIFY_WITH_TIMEOUT(!running("765.432").isEmpty(), 10000);  // the stand-in is being asked
        // Answered: the stand-in skipped after 2 s (nvdisasm missing, or another one found after it).
        QTRY_VERIFY_WITH_TIMEOUT(!label->text().contains("loading") && label->text().contains("nvdisasm"), 15000);
        probing = false;
        probe.stop();
        qInfo("window shown after %lld ms; longest event-loop gap while nvdisasm was probed: %lld ms", shownMs,
              probe.worstGapMs());
        QVERIFY2(shownMs < 1500, qPrintable(QString("the window was shown after %1 ms").arg(shownMs)));
        QVERIFY2(probe.worstGapMs() < 500, qPrintable(QString("the UI thread stalled %1 ms").arg(probe.worstGapMs())));
        w.reset();
        QTRY_VERIFY_WITH_TIMEOUT(running("765.432").isEmpty(), 5000);
    }

    // The app quitting while that nvdisasm is being asked (in a copy of this suite, which ends
    // there): nothing of the probe is left once it has ended.
    void theAppQuittingLeavesNoProbeBehind() {
        QTemporaryDir dir;
        QProcess copy;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("NVPG_HANGING_NVDISASM_CASE", dir.path());
        copy.setProcessEnvironment(env);
        copy.setProcessChannelMode(QProcess::MergedChannels);
        copy.start(QCoreApplication::applicationFilePath(), {"theAppQuitsWhileNvdisasmHangs"});
        QVERIFY(copy.waitForFinished(60000));
        const QString log = QString::fromUtf8(copy.readAll());
        QVERIFY2(log.contains("PASS   : TestToolkitProbe::theAppQuitsWhileNvdisasmHangs()"), qPrintable(log));
        QTest::qWait(300);
        const auto left = running("543.21");
        for (const auto& pid : left) ::kill(pid.toInt(), SIGKILL);
        QVERIFY2(left.isEmpty(), qPrintable(QString("left running: %1").arg(left.join(' '))));
    }
    void theAppQuitsWhileNvdisasmHangs() {
        const QString base = qEnvironmentVariable("NVPG_HANGING_NVDISASM_CASE");
        if (base.isEmpty()) QSKIP("run by theAppQuittingLeavesNoProbeBehind in a process of its own");
        QTemporaryDir dir(base + "/XXXXXX");
        test::withHangingTool(dir, "nvdisasm", "sleep 543.21 &\nsleep 543.21");
        auto real = toolkit::Toolkit::locate();
        QVERIFY(real);
        const auto root = test::hostileToolkit(dir.path().toStdString(), "tk", (*real)->nvvmReport().path);
        std::filesystem::create_directories(root / "bin");
        std::filesystem::create_symlink(dir.filePath("nvdisasm").toStdString(), root / "bin/nvdisasm");
        qputenv("CUDA_PATH", QByteArray::fromStdString(root.string()));
        auto w = test::makeWindow();
        QTRY_VERIFY_WITH_TIMEOUT(!running("543.21").isEmpty(), 10000);
        QElapsedTimer clock;
        clock.start();
        w.reset();  // then the copy ends
        // It waits for the probe in flight, which gives each nvdisasm it tries 2 s: here one file,
        // tried beside libNVVM and again under CUDA_PATH.
        QVERIFY2(clock.elapsed() < 7000, qPrintable(QString("the window took %1 ms to go").arg(clock.elapsed())));
    }

    // The real toolkit: its versions come from the probe's engine, and nothing is left of it.
    void theRealToolkitsVersionsAreShown() {
        auto w = test::makeWindow();
        auto* label = libsLabel(*w);
        QVERIFY(label);
        QTRY_VERIFY_WITH_TIMEOUT(QRegularExpression("libNVVM \\d+\\.\\d+").match(label->text()).hasMatch(), 20000);
        w.reset();
        QTRY_VERIFY_WITH_TIMEOUT(test::childrenOf(::getpid()).empty(), 5000);
    }
};

QTEST_MAIN(TestToolkitProbe)
#include "tst_toolkitprobe.moc"
