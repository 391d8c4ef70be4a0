// Files that are not what they seem, and files that are large: a FIFO, /dev/zero or a link to it
// is refused by name instead of freezing the window or filling memory (opening, adding a module,
// saving over the workspace's own file that was replaced); a workspace of 4,097 modules opens
// with the window answering all along, every module there.
#include <QtTest>

#include <QLineEdit>

#include <sys/resource.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include <nlohmann/json.hpp>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "core/gpu/ArgSpec.h"
#include "core/gpu/RunConfig.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/OutputView.h"
#include "gui/window/MainWindow.h"

#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>

using namespace nvpg;
using namespace nvpg::gui;

namespace {

// Lets a test that would block on a FIFO end: after `ms` it opens the FIFO's other end and closes
// it (EOF for a reader, and a reader gone for a writer), so the test fails instead of hanging.
class FifoUnblocker {
public:
    FifoUnblocker(QString fifo, int ms) : fifo_(std::move(fifo)) {
        thread_ = std::thread([this, ms] {
            for (int waited = 0; waited < ms && !stop_; waited += 10)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            if (stop_) return;
            const auto name = QFile::encodeName(fifo_);
            int fd = ::open(name.constData(), O_WRONLY | O_NONBLOCK);          // unblocks a reader
            if (fd < 0) fd = ::open(name.constData(), O_RDONLY | O_NONBLOCK);  // or a writer
            if (fd >= 0) ::close(fd);
        });
    }
    ~FifoUnblocker() {
        stop_ = true;
        thread_.join();
    }

private:
    QString fifo_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

// Caps this process's address space at what it uses now plus `headroomMb` (NVPG_TEST_HEADROOM_MB
// overrides), so a read that never ends fails in a moment instead of filling the machine.
class AddressSpaceCap {
public:
    explicit AddressSpaceCap(long headroomMb = 1024) {
        if (const auto env = qEnvironmentVariableIntValue("NVPG_TEST_HEADROOM_MB")) headroomMb = env;
        ::getrlimit(RLIMIT_AS, &saved_);
        long pages = 0;
        if (FILE* f = std::fopen("/proc/self/statm", "r")) {
            if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
            std::fclose(f);
        }
        rlimit cap = saved_;
        cap.rlim_cur = rlim_t(pages) * rlim_t(::sysconf(_SC_PAGESIZE)) + (rlim_t(headroomMb) << 20);
        ::setrlimit(RLIMIT_AS, &cap);
    }
    ~AddressSpaceCap() { ::setrlimit(RLIMIT_AS, &saved_); }

private:
    rlimit saved_{};
};

// A workspace of `count` small text modules, each with its own kernel.
QByteArray manyModulesWorkspace(int count) {
    nlohmann::json modules = nlohmann::json::array();
    for (int i = 0; i < count; ++i)
        modules.push_back(
            {{"name", "m" + std::to_string(i) + ".ll"},
             {"text", "; module " + std::to_string(i) + "\ntarget triple = \"nvptx64-nvidia-cuda\"\n\ndefine void @k" +
                          std::to_string(i) + "() {\n  ret void\n}\n\n!nvvmir.version = !{!0}\n!0 = !{i32 2, i32 0}\n"},
             {"lazy", false}});
    const nlohmann::json ws = {
        {"format", "nvvm-playground-workspace"}, {"version", 1}, {"name", "many"}, {"modules", modules}};
    return QByteArray::fromStdString(ws.dump(1));
}

// A menu's action by its path of texts without the '&' ("File", "Export", "PTX…").
QAction* menuAction(QMainWindow& w, const QStringList& path) {
    QList<QAction*> actions = w.menuBar()->actions();
    QAction* found = nullptr;
    for (const auto& text : path) {
        found = nullptr;
        for (auto* a : actions)
            if (a->text().remove('&') == text) found = a;
        if (!found) return nullptr;
        if (found->menu()) actions = found->menu()->actions();
    }
    return found;
}

// Triggers `action`, which opens a file dialog: returns the file the dialog proposed, and answers
// it with `answer` (empty: Cancel).
QString answerFileDialog(QAction* action, const QString& answer) {
    QString proposed;
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, [&] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog) return;
        poll.stop();
        proposed = dialog->selectedFiles().value(0);
        if (answer.isEmpty()) {
            dialog->reject();
        } else {
            // selectFile leaves the name field alone once that field has the focus, which the
            // dialog gives it a moment after it shows (a race: 4 runs in 5 kept the proposed
            // name on a 2-core VM). The field is what a person types into.
            if (auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")))
                name->setText(answer);
            else
                dialog->selectFile(answer);
            static_cast<QDialog*>(dialog)->accept();  // QFileDialog makes its override protected
        }
    });
    poll.start();
    action->trigger();  // returns once the dialog was answered
    return proposed;
}

// Sets $HOME for the test's span: the user's documents are $HOME/Documents (no XDG user-dirs).
class HomeFor {
public:
    explicit HomeFor(const QString& home) : saved_(qgetenv("HOME")) { qputenv("HOME", QFile::encodeName(home)); }
    ~HomeFor() { qputenv("HOME", saved_); }

private:
    QByteArray saved_;
};

bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// The module names of the document, sorted.
QStringList moduleNames(const WorkspaceDocument& d) {
    QStringList names;
    for (int i = 0; i < d.moduleCount(); ++i) names << QString::fromStdString(d.module(i).name);
    names.sort();
    return names;
}

// What a person does to look at a workspace: each module's tab clicked, the editors split and
// joined again, each checkable View menu entry (docks, diff, line map, raw names, raw SASS) on
// and off again, and the bitcode modules' disassembly waited for.
void lookAtEverything(MainWindow& w) {
    const auto clickEveryTab = [&w] {
        for (auto* pane : w.editors()->findChildren<QTabWidget*>()) {
            auto* bar = pane->tabBar();
            for (int i = 0; i < bar->count(); ++i) {
                QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(i).center());
                QTest::qWait(10);
            }
        }
    };
    clickEveryTab();
    if (w.document()->moduleCount() > 1) {
        auto* split = menuAction(w, {"Module", "Split View"});
        split->trigger();
        clickEveryTab();
        split->trigger();
    }
    QList<QAction*> view;
    for (auto* top : w.menuBar()->actions())
        if (top->text().remove('&') == "View" && top->menu()) view = top->menu()->actions();
    for (auto* a : view)
        if (a->isCheckable() && a->isEnabled() && !a->text().remove('&').startsWith("Presenter")) {
            a->trigger();
            QTest::qWait(10);
            a->trigger();
        }
    for (int i = 0; i < w.document()->moduleCount(); ++i)
        if (auto* e = w.editors()->madeEditor(i); e && e->isBitcodeView())
            QTRY_VERIFY_WITH_TIMEOUT(!e->isDisassembling(), 15000);
    QTest::qWait(50);  // what was queued by all that
}

}  // namespace

class TestFiles : public QObject {
    Q_OBJECT

    QStringList errors_;
    std::unique_ptr<MainWindow> makeWindow() {
        auto w = std::make_unique<MainWindow>();
        w->setErrorSink([this](const QString& title, const QString& message) { errors_ << title + ": " + message; });
        w->setSaveQuestion([] { return QMessageBox::Discard; });
        w->setDiskConflictQuestion([](const QString&) { return MainWindow::DiskConflict::Overwrite; });
        w->controller()->setAutoCompile(false);
        w->show();
        return w;
    }

private slots:
    void initTestCase() {
        ::signal(SIGPIPE, SIG_IGN);  // a FIFO's reader going away must not end the test
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_files");
    }
    void init() { errors_.clear(); }

    void aFifoIsRefusedByNameNotWaitedOn() {
        QTemporaryDir dir;
        const auto workspace = dir.filePath("pipe.nvpg"), module = dir.filePath("pipe.ll");
        QCOMPARE(::mkfifo(QFile::encodeName(workspace).constData(), 0600), 0);
        QCOMPARE(::mkfifo(QFile::encodeName(module).constData(), 0600), 0);
        auto w = makeWindow();
        QElapsedTimer clock;
        {
            FifoUnblocker unblock(workspace, 3000);
            clock.start();
            QVERIFY(!w->openWorkspace(workspace));
            QVERIFY2(clock.elapsed() < 2000, qPrintable(QString("waited %1 ms on the FIFO").arg(clock.elapsed())));
        }
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_[0].contains(workspace + " is a FIFO (named pipe), not a regular file"),
                 qPrintable(errors_[0]));
        {
            FifoUnblocker unblock(module, 3000);
            clock.start();
            w->addModuleFiles({module});
            QVERIFY2(clock.elapsed() < 2000, qPrintable(QString("waited %1 ms on the FIFO").arg(clock.elapsed())));
        }
        QCOMPARE(errors_.size(), 2);
        QVERIFY2(errors_[1].contains(module + " is a FIFO (named pipe), not a regular file"), qPrintable(errors_[1]));
        QCOMPARE(w->document()->moduleCount(), 0);
    }

    // The workspace's own file replaced by a FIFO, or by a link to /dev/zero, since it was opened:
    // Save says so at once. Before, it read the file back to see whether it changed (waiting for
    // a writer; reading /dev/zero until memory ran out, 5.3 GB).
    void saveOntoAFifoOrALinkToDevZeroIsRefused_data() {
        QTest::addColumn<QString>("replacement");
        QTest::newRow("FIFO") << "fifo";
        QTest::newRow("link to /dev/zero") << "zero";
    }
    void saveOntoAFifoOrALinkToDevZeroIsRefused() {
        QFETCH(QString, replacement);
        QTemporaryDir dir;
        const auto path = dir.filePath("ws.nvpg");
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        QVERIFY(w->saveAs(path));
        QVERIFY(QFile::remove(path));
        if (replacement == "fifo")
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        else
            QVERIFY(QFile::link("/dev/zero", path));
        w->editors()->editor(0)->append("; unsaved\n");
        QElapsedTimer clock;
        bool saved = true;
        {
            FifoUnblocker unblock(path, 3000);
            AddressSpaceCap cap;
            clock.start();
            saved = w->save();
        }
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString("Save took %1 ms").arg(clock.elapsed())));
        QVERIFY(!saved);
        QCOMPARE(errors_.size(), 1);
        const auto expected = replacement == "fifo"
                                  ? path + " is a FIFO (named pipe), not a regular file"
                                  : path + " is a link to /dev/zero, a character device, not a regular file";
        QVERIFY2(errors_[0].contains(expected), qPrintable(errors_[0]));
        QVERIFY(w->document()->isModified());  // still unsaved, still here
        QVERIFY(w->editors()->editor(0)->text().contains("; unsaved"));
        QFileInfo still(path);
        QVERIFY(replacement == "fifo" ? !still.isFile() : still.isSymLink());  // left as it was
    }

    // /dev/zero never ends: opening it (as a workspace, or through a link named like a module)
    // is refused by name, without reading a byte.
    void devZeroIsRefusedWithoutReadingIt() {
        QTemporaryDir dir;
        const auto link = dir.filePath("zero.ll");
        QVERIFY(QFile::link("/dev/zero", link));
        auto w = makeWindow();
        AddressSpaceCap cap;
        QVERIFY(!w->openWorkspace("/dev/zero"));
        w->addModuleFiles({link});
        QCOMPARE(errors_.size(), 2);
        QVERIFY2(errors_[0].contains("/dev/zero is a character device, not a regular file"), qPrintable(errors_[0]));
        QVERIFY2(errors_[1].contains(link + " is a link to /dev/zero, a character device, not a regular file"),
                 qPrintable(errors_[1]));
        QCOMPARE(w->document()->moduleCount(), 0);
    }

    // 4,097 modules: the file is read and parsed on a worker thread and each module gets its tab
    // at once, its editor only when shown, so the window keeps answering (a 5 ms timer keeps
    // firing) and every module is there afterwards.
    void aLargeWorkspaceOpensWithoutFreezingTheWindow() {
        constexpr int kModules = 4097;
        QTemporaryDir dir;
        const auto path = dir.filePath("many.nvpg");
        QVERIFY(writeBytes(path, manyModulesWorkspace(kModules)));
        auto w = makeWindow();
        bool opening = true;
        test::EventLoopProbe probe([&] { return opening; });
        QElapsedTimer clock;
        clock.start();
        QVERIFY(w->openWorkspace(path));
        const auto openMs = clock.elapsed();
        QTest::qWait(50);  // the probe's next tick measures any stall at the end of the open
        opening = false;
        probe.stop();
        qInfo("opened %d modules in %lld ms; %d timer ticks during it; longest event-loop gap %lld ms", kModules,
              openMs, probe.ticks(), probe.worstGapMs());
        QCOMPARE(w->document()->moduleCount(), kModules);
        QCOMPARE(w->document()->module(kModules - 1).name, std::string("m4096.ll"));
        QVERIFY2(w->editors()->editorCount() <= 2, qPrintable(QString::number(w->editors()->editorCount())));
        // Every module is in the list above the tabs; going to one opens its tab and its editor.
        auto* list = w->editors()->findChild<QComboBox*>("moduleBox");
        QVERIFY(list && list->isVisible());
        QCOMPARE(list->count(), kModules);
        QCOMPARE(list->itemText(kModules - 1), QString("m4096.ll"));
        QVERIFY(!w->editors()->hasTab(kModules - 1));
        w->editors()->showLocation("m4096.ll", 5, 1);
        QCOMPARE(w->editors()->currentModule(), kModules - 1);
        QVERIFY(w->editors()->hasTab(kModules - 1));
        QVERIFY(w->editors()->currentEditor()->text().contains("define void @k4096()"));
        QCOMPARE(list->currentIndex(), kModules - 1);
        if (openMs > 200) QVERIFY2(probe.ticks() > 0, "the timer never fired while the workspace was read");
        QVERIFY2(probe.worstGapMs() < 1000, qPrintable(QString("the window froze for %1 ms").arg(probe.worstGapMs())));
    }

    // Save As has its key; for an example's copy it proposes the user's documents folder (not the
    // shipped examples), and after it the title names the file saved.
    void saveAsOfAnExampleProposesTheDocumentsFolder() {
        QTemporaryDir home;
        QVERIFY(QDir(home.path()).mkpath("Documents"));
        HomeFor homeFor(home.path());
        QCOMPARE(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation), home.filePath("Documents"));
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        auto* saveAs = menuAction(*w, {"File", "Save As…"});
        QVERIFY(saveAs);
        QVERIFY2(saveAs->shortcuts().contains(QKeySequence("Ctrl+Shift+S")), qPrintable(saveAs->shortcut().toString()));
        const auto saved = home.filePath("Documents/mine.nvpg");
        QCOMPARE(answerFileDialog(saveAs, saved), home.filePath("Documents/saxpy.nvpg"));
        QCOMPARE(w->document()->path(), saved);
        QVERIFY(QFile::exists(saved));
        QVERIFY2(w->windowTitle().startsWith("mine[*] — "), qPrintable(w->windowTitle()));
        // A saved workspace's Save As starts from its own file.
        QCOMPARE(answerFileDialog(saveAs, QString()), saved);
        QVERIFY(errors_.isEmpty());
    }

    // Export proposes the workspace's folder and name, and the status bar says where it went.
    void exportProposesTheWorkspacesPlaceAndSaysWhereItWent() {
        QTemporaryDir dir;
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        const auto workspace = dir.filePath("kernels/axpy.nvpg");
        QVERIFY(QDir(dir.path()).mkpath("kernels"));
        QVERIFY(w->saveAs(workspace));
        QSignalSpy replies(w->controller(), &CompileController::replyShown);
        w->controller()->compileNow();
        QVERIFY(replies.wait(120000));
        auto* exportPtx = menuAction(*w, {"File", "Export", "PTX…"});
        QVERIFY(exportPtx);
        QVERIFY(exportPtx->isEnabled());
        const auto target = dir.filePath("kernels/axpy.ptx");
        QCOMPARE(answerFileDialog(exportPtx, target), target);
        QVERIFY(QFile::exists(target));
        const auto message = w->statusBar()->currentMessage();
        QVERIFY2(message.contains(QDir::toNativeSeparators(target)), qPrintable(message));
        // A workspace without a file: its name in the documents folder.
        QTemporaryDir home;
        QVERIFY(QDir(home.path()).mkpath("Documents"));
        HomeFor homeFor(home.path());
        QVERIFY(w->openExample("saxpy"));
        QVERIFY(replies.wait(120000));
        QCOMPARE(answerFileDialog(exportPtx, QString()), home.filePath("Documents/saxpy.ptx"));
        QVERIFY(errors_.isEmpty());
    }

    // Save As never replaces what the workspace reads: a module file it was made from (here
    // through a link named like a workspace) or a buffer file of a run configuration. Each is
    // refused, naming the file, and stays as it was; the workspace stays open, unsaved.
    void saveAsNeverReplacesAnInput() {
        QTemporaryDir dir;
        const auto module = dir.filePath("k.ll");
        const QByteArray text = "define void @k() {\n  ret void\n}\n";
        QVERIFY(writeBytes(module, text));
        QVERIFY(QFile::link(module, dir.filePath("ws.nvpg")));
        auto w = makeWindow();
        w->addModuleFiles({module});
        QCOMPARE(w->document()->moduleCount(), 1);
        QVERIFY(!w->saveAs(dir.filePath("ws.nvpg")));
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_[0].contains("the module file " + module) && errors_[0].contains("would replace"),
                 qPrintable(errors_[0]));
        QFile m(module);
        QVERIFY(m.open(QIODevice::ReadOnly));
        QCOMPARE(m.readAll(), text);

        QVERIFY(w->openExample("saxpy"));
        QVERIFY(w->saveAs(dir.filePath("saxpy.nvpg")));
        const QByteArray npy = "\x93NUMPY not really";
        QVERIFY(QDir(dir.path()).mkpath("inputs") && QDir(dir.path()).mkpath("sub"));
        QVERIFY(writeBytes(dir.filePath("inputs/x.npy"), npy));
        auto runs = w->document()->workspace().runs;
        if (runs.empty()) {
            runs.emplace_back();
            runs.back().name = "r";
            runs.back().kernel = "saxpy";
        }
        runs.front().args.push_back(*gpu::parseArgSpec("buf:@inputs/x.npy"));
        w->document()->setRuns(runs);
        errors_.clear();
        QVERIFY(!w->saveAs(dir.filePath("sub/../inputs/x.npy")));
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_[0].contains("the buffer file") && errors_[0].contains("inputs/x.npy"), qPrintable(errors_[0]));
        QFile b(dir.filePath("inputs/x.npy"));
        QVERIFY(b.open(QIODevice::ReadOnly));
        QCOMPARE(b.readAll(), npy);
        QVERIFY(w->document()->isModified());
    }

    // File > Open takes a workspace or IR: a .ll, a .bc, several IR files at once (one new
    // workspace with all of them, unmodified, as the command line makes it); a file that is
    // neither is named with what Open takes, and a .bc that is not bitcode is refused, neither
    // replacing what is open. It asks "save changes?" first; Cancel keeps the work.
    void openTakesIrFiles() {
        QTemporaryDir dir;
        const auto ir = [](const char* name) {
            return QByteArray::fromStdString(test::readText(test::dataDir() / "ir" / name));
        };
        QVERIFY(writeBytes(dir.filePath("caller.ll"), ir("caller.ll")));
        QVERIFY(writeBytes(dir.filePath("callee.ll"), ir("callee.ll")));
        QByteArray bitcode;
        for (const auto& m : test::loadExample("bitcode").modules)
            if (m.isBitcode()) bitcode = QByteArray::fromStdString(m.bytes);
        QVERIFY(!bitcode.isEmpty());
        QVERIFY(writeBytes(dir.filePath("mathlib.bc"), bitcode));
        QVERIFY(writeBytes(dir.filePath("notes.txt"), "not IR\n"));
        QVERIFY(writeBytes(dir.filePath("text.bc"), ir("callee.ll")));

        auto w = makeWindow();
        int asked = 0;
        auto answer = QMessageBox::Cancel;
        w->setSaveQuestion([&] {
            ++asked;
            return answer;
        });
        auto* open = menuAction(*w, {"File", "Open…"});
        QVERIFY(open);
        QCOMPARE(open->shortcut(), QKeySequence(QKeySequence::Open));
        const auto openChoosing = [&](const QStringList& names, QStringList* filters = nullptr) {
            return test::answerFileDialog([open] { open->trigger(); }, dir.path(), names, filters);
        };

        // Unsaved work: Open asks first, and Cancel leaves it as it is, without a dialog.
        QVERIFY(w->openExample("saxpy"));
        w->editors()->editor(0)->append("; mine\n");
        QTRY_VERIFY(w->document()->isModified());
        QVERIFY(!openChoosing({"caller.ll"}));
        QCOMPARE(asked, 1);
        QVERIFY(w->document()->isModified());
        QVERIFY(w->editors()->editor(0)->text().contains("; mine"));

        // Discard: the dialog offers workspaces and IR together, first; a .ll opens as the module
        // of a new workspace named after it.
        answer = QMessageBox::Discard;
        QStringList filters;
        QVERIFY(openChoosing({"caller.ll"}, &filters));
        QCOMPARE(asked, 2);
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        for (const char* pattern : {"*.nvpg", "*.ll", "*.bc"})
            QVERIFY2(filters.value(0).contains(pattern), qPrintable(filters.join(";;")));
        QCOMPARE(moduleNames(*w->document()), QStringList{"caller.ll"});
        QCOMPARE(QByteArray::fromStdString(w->document()->module(0).bytes), ir("caller.ll"));
        QVERIFY(w->document()->path().isEmpty());
        QVERIFY(!w->document()->isModified());
        QVERIFY2(w->windowTitle().startsWith("caller[*] — "), qPrintable(w->windowTitle()));

        // A .bc alone: a bitcode module.
        QVERIFY(openChoosing({"mathlib.bc"}));
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        QCOMPARE(moduleNames(*w->document()), QStringList{"mathlib.bc"});
        QVERIFY(w->document()->module(0).isBitcode());
        QCOMPARE(QByteArray::fromStdString(w->document()->module(0).bytes), bitcode);

        // Several at once: one workspace with all of them, which compiles as one program (the
        // kernel in caller.ll calls scale() from callee.ll).
        QVERIFY(openChoosing({"caller.ll", "callee.ll", "mathlib.bc"}));
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        QCOMPARE(moduleNames(*w->document()), (QStringList{"callee.ll", "caller.ll", "mathlib.bc"}));
        QVERIFY(!w->document()->isModified());
        QSignalSpy replies(w->controller(), &CompileController::replyShown);
        w->controller()->compileNow();
        QVERIFY(replies.wait(120000));
        const auto reply = w->lastReply();
        QVERIFY2(reply.result && reply.result->ok, qPrintable(reply.error));
        QVERIFY(w->output()->ptxText().contains(".entry caller"));
        QCOMPARE(asked, 2);  // nothing was changed, so nothing was asked

        // A file that is neither: named, with what Open takes; nothing replaced.
        QVERIFY(openChoosing({"notes.txt"}));
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_[0].contains(dir.filePath("notes.txt") + " was not opened") &&
                     errors_[0].contains("Open takes a workspace (.nvpg) or NVVM IR modules, .ll (text) or .bc "
                                         "(bitcode), which become the modules of a new workspace"),
                 qPrintable(errors_[0]));
        QVERIFY2(!errors_[0].contains("JSON"), qPrintable(errors_[0]));
        QCOMPARE(w->document()->moduleCount(), 3);
        // A .bc that holds text: refused, saying why; nothing replaced either.
        errors_.clear();
        QVERIFY(openChoosing({"text.bc"}));
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_[0].contains(dir.filePath("text.bc") + " is named .bc but is not bitcode"),
                 qPrintable(errors_[0]));
        QCOMPARE(w->document()->moduleCount(), 3);

        // A workspace still opens through it.
        errors_.clear();
        QVERIFY(w->saveAs(dir.filePath("three.nvpg")));
        QVERIFY(w->openExample("saxpy"));
        QVERIFY(openChoosing({"three.nvpg"}));
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        QCOMPARE(w->document()->path(), dir.filePath("three.nvpg"));
        QCOMPARE(w->document()->moduleCount(), 3);
    }

    // Opening is no edit: each numba-cuda fixture (as IR files, the way numba's IR is opened) and
    // each example, compiled and looked at (every module's tab, split view, the View menu's
    // toggles, bitcode's disassembly), closes without asking to save; one keystroke then does
    // make the document modified, and closing asks.
    void openingAndLookingIsNoEdit_data() {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QString>("example");
        const auto numba = test::dataDir() / "numba";
        for (const auto& e : std::filesystem::directory_iterator(numba)) {
            if (e.path().extension() != ".ll" || e.path().stem().string().starts_with("call_device")) continue;
            QTest::newRow(("numba " + e.path().filename().string()).c_str())
                << QStringList{QString::fromStdString(e.path().string())} << QString();
        }
        QTest::newRow("numba call_device.1.ll + call_device.2.ll")
            << QStringList{QString::fromStdString((numba / "call_device.1.ll").string()),
                           QString::fromStdString((numba / "call_device.2.ll").string())}
            << QString();
        for (const auto& name : MainWindow::exampleNames())
            QTest::newRow(qPrintable("example " + name)) << QStringList() << name;
    }
    void openingAndLookingIsNoEdit() {
        QFETCH(QStringList, files);
        QFETCH(QString, example);
        auto w = makeWindow();
        w->controller()->setAutoCompile(true);
        int asked = 0;
        w->setSaveQuestion([&] {
            ++asked;
            return QMessageBox::Discard;
        });
        QSignalSpy replies(w->controller(), &CompileController::replyShown);
        QVERIFY(example.isEmpty() ? w->openPaths(files) : w->openExample(example));
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        QVERIFY(!w->document()->isModified());
        QVERIFY(replies.wait(120000));
        QTRY_VERIFY(!w->controller()->busy());
        lookAtEverything(*w);
        QTRY_VERIFY(!w->controller()->busy());
        QVERIFY2(!w->document()->isModified(), "looking made the document modified");
        QVERIFY(!w->isWindowModified());
        QVERIFY(w->close());
        QCOMPARE(asked, 0);
        w.reset();

        // One keystroke in a text module is an edit.
        auto again = makeWindow();
        again->setSaveQuestion([&] {
            ++asked;
            return QMessageBox::Discard;
        });
        QVERIFY(example.isEmpty() ? again->openPaths(files) : again->openExample(example));
        int text = 0;
        while (again->document()->module(text).isBitcode()) ++text;
        again->editors()->showLocation(QString::fromStdString(again->document()->module(text).name), 1, 1);
        auto* editor = again->editors()->editor(text);
        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_Space);
        QTRY_VERIFY(again->document()->isModified());
        QVERIFY(again->isWindowModified());
        QVERIFY(again->close());
        QCOMPARE(asked, 1);
    }

    // A module's name goes into libNVVM's log and onto terminals: a file whose name holds an ESC
    // sequence is not added, and a rename to a name with a newline is refused, both saying why.
    void controlCharactersInModuleNamesAreRefused() {
        QTemporaryDir dir;
        const auto hostile = dir.filePath(QString::fromUtf8("k\x1b]0;pwned\x07.ll"));
        QVERIFY(writeBytes(hostile, "define void @k() {\n  ret void\n}\n"));
        auto w = makeWindow();
        w->addModuleFiles({hostile});
        QCOMPARE(errors_.size(), 1);
        QVERIFY2(errors_[0].contains("has a control character"), qPrintable(errors_[0]));
        QVERIFY2(!errors_[0].contains(QChar(0x1b)), "the name was shown raw");
        QCOMPARE(w->document()->moduleCount(), 0);

        const auto plain = dir.filePath("k.ll");
        QVERIFY(writeBytes(plain, "define void @k() {\n  ret void\n}\n"));
        w->addModuleFiles({plain});
        QCOMPARE(w->document()->moduleCount(), 1);
        const auto renamed = w->document()->renameModule(0, QStringLiteral("k\nerror: forged.ll"));
        QVERIFY(!renamed);
        QVERIFY2(renamed.error().message.find("control character") != std::string::npos,
                 renamed.error().message.c_str());
        QCOMPARE(w->document()->module(0).name, std::string("k.ll"));
    }
};

QTEST_MAIN(TestFiles)
#include "tst_files.moc"
