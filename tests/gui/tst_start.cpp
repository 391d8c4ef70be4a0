// A new user's first steps, on the real widgets: the start page of an empty workspace (examples,
// recent files, New module, Open for the user's own IR), the New Module template that compiles
// and survives LTO as it is, Split View in libNVVM's module order, and a bitcode module that
// offers Convert to text when typed into instead of ignoring the keys.
#include <QtTest>

#include <QAbstractButton>
#include <QApplication>
#include <QCommandLinkButton>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/OutputView.h"
#include "gui/panels/ProblemsPanel.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {

EngineReply waitForReply(MainWindow& w, int timeoutMs = 120000) {
    QSignalSpy spy(w.controller(), &CompileController::replyShown);
    if (!spy.wait(timeoutMs)) qFatal("no compile result within %d ms", timeoutMs);
    return spy.last().at(0).value<EngineReply>();
}

QAction* menuAction(MainWindow& w, const QString& menu, const QString& text) {
    for (auto* top : w.menuBar()->actions()) {
        if (top->text().remove('&') != menu || !top->menu()) continue;
        for (auto* a : top->menu()->actions())
            if (a->text().remove('&') == text) return a;
    }
    return nullptr;
}

QWidget* startPage(MainWindow& w) {
    return w.findChild<QWidget*>("startPage");
}

// The module names of a pane's tabs, in tab order.
QStringList tabModules(QTabWidget* pane) {
    QStringList out;
    for (int i = 0; i < pane->count(); ++i) out << pane->tabText(i).section("  [", 0, 0);
    return out;
}

// The editor area's two panes, left first (by where they are on screen).
std::pair<QTabWidget*, QTabWidget*> panes(MainWindow& w) {
    auto list = w.editors()->findChildren<QTabWidget*>();
    if (list.size() != 2) qFatal("expected two panes");
    std::sort(list.begin(), list.end(), [](auto* a, auto* b) {
        return a->mapTo(a->window(), QPoint()).x() < b->mapTo(b->window(), QPoint()).x();
    });
    return {list[0], list[1]};
}

// Answers the next message box with `button` once it is up.
void answerNextQuestion(QMessageBox::StandardButton button) {
    QTimer::singleShot(0, qApp, [button] {
        QTRY_VERIFY(qobject_cast<QMessageBox*>(QApplication::activeModalWidget()));
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        box->button(button)->click();
    });
}

}  // namespace

class TestStart : public QObject {
    Q_OBJECT

    QStringList errors_;
    std::unique_ptr<MainWindow> makeWindow() { return test::makeWindow(&errors_, QSize(1400, 900)); }

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_start");
    }
    void init() {
        errors_.clear();
        ModuleEditor::setDisassemblerOverride(std::nullopt);
    }

    void emptyStartShowsExamplesRecentAndNewModule() {
        // A workspace saved once is in the recent list of the File menu and of the start page.
        QTemporaryDir dir;
        const QString saved = dir.filePath("mine.nvpg");
        {
            auto w = makeWindow();
            QVERIFY(w->openExample("saxpy"));
            waitForReply(*w);
            QVERIFY(w->saveAs(saved));
        }
        auto w = makeWindow();
        auto* page = startPage(*w);
        QVERIFY(page);
        QVERIFY(page->isVisible());
        QCOMPARE(page->geometry(), w->editors()->geometry());  // in the editors' place

        QStringList shown;
        for (auto* b : page->findChildren<QCommandLinkButton*>("startExample"))
            shown << b->property("example").toString();
        QCOMPARE(shown, MainWindow::exampleNames());  // the File > Examples list

        QStringList recent;
        for (auto* b : page->findChildren<QCommandLinkButton*>("startRecent")) recent << b->property("path").toString();
        QStringList menuRecent;
        for (auto* top : w->menuBar()->actions())
            if (top->menu())
                for (auto* a : top->menu()->actions())
                    if (a->text().remove('&') == "Open Recent")
                        for (auto* r : a->menu()->actions()) menuRecent << r->text();
        QCOMPARE(recent, menuRecent);
        QCOMPARE(recent.value(0), QFileInfo(saved).absoluteFilePath());

        // An example button opens it; New Workspace brings the page back.
        QAbstractButton* twoModules = nullptr;
        for (auto* b : page->findChildren<QCommandLinkButton*>("startExample"))
            if (b->property("example") == "two-modules") twoModules = b;
        QVERIFY(twoModules);
        QTest::mouseClick(twoModules, Qt::LeftButton);
        QCOMPARE(w->document()->moduleCount(), 2);
        QVERIFY(!page->isVisible());
        QVERIFY(w->editors()->editor(0)->isVisible());
        waitForReply(*w);
        menuAction(*w, "File", "New Workspace")->trigger();
        QVERIFY(page->isVisible());

        // A recent file opens from there too.
        for (auto* b : page->findChildren<QCommandLinkButton*>("startRecent"))
            if (b->property("path") == QFileInfo(saved).absoluteFilePath()) QTest::mouseClick(b, Qt::LeftButton);
        QCOMPARE(w->document()->path(), QFileInfo(saved).absoluteFilePath());
        QVERIFY(!page->isVisible());
    }

    void newModuleMenuInsertsACompleteKernel() {
        // What Module > New Module inserts compiles to a kernel that LTO keeps, with no warning.
        auto w = makeWindow();
        QVERIFY(w->openExample("saxpy"));
        waitForReply(*w);
        auto* action = menuAction(*w, "Module", "New Module");
        QVERIFY(action);
        QSignalSpy replies(w->controller(), &CompileController::replyShown);
        action->trigger();
        QCOMPARE(w->document()->moduleCount(), 2);
        const auto& ir = w->document()->module(1).bytes;
        QVERIFY2(ir.find("!\"kernel\", i32 1}") != std::string::npos, ir.c_str());
        QVERIFY(ir.find("@llvm.used = ") != std::string::npos);
        QVERIFY(ir.find("-i128:128:128-") != std::string::npos);
        QVERIFY(replies.wait(120000));
        QTRY_VERIFY(!w->controller()->busy());
        const auto reply = w->lastReply();
        QVERIFY2(reply.result, qPrintable(reply.error));
        QVERIFY(reply.result->ok);
        QVERIFY(reply.result->diagnostics.empty());
        QVERIFY(w->output()->ltoText().contains(".entry scale"));
        QVERIFY(w->output()->ltoText().contains(".entry saxpy"));
    }

    void newModuleButtonGivesAKernelThatCompilesAndSurvivesLto() {
        auto w = makeWindow();
        QVERIFY(startPage(*w));
        auto* button = startPage(*w)->findChild<QPushButton*>("startNewModule");
        QVERIFY(button);
        QSignalSpy replies(w->controller(), &CompileController::replyShown);
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(w->document()->moduleCount(), 1);
        QVERIFY(!startPage(*w)->isVisible());
        const auto& ir = w->document()->module(0).bytes;
        QVERIFY(ir.find("!\"kernel\", i32 1}") != std::string::npos);
        QVERIFY(ir.find("@llvm.used = appending global [1 x i8*]") != std::string::npos);
        QVERIFY(ir.find("!nvvmir.version") != std::string::npos);
        QVERIFY(replies.wait(120000));
        const auto reply = replies.last().at(0).value<EngineReply>();
        QVERIFY2(reply.result, qPrintable(reply.error));
        QVERIFY(reply.result->ok);
        QVERIFY(reply.result->diagnostics.empty());  // nothing dropped, nothing to say
        QVERIFY(w->output()->ptxText().contains(".entry scale"));
        QVERIFY(w->output()->ltoText().contains(".entry scale"));
        // With the run configuration that launches it.
        const auto& runs = w->document()->workspace().runs;
        QCOMPARE(int(runs.size()), 1);
        QCOMPARE(runs[0].kernel, std::string("scale"));

        // Module > New Module adds a second one, with a kernel name of its own.
        menuAction(*w, "Module", "New Module")->trigger();
        QTRY_VERIFY(!w->controller()->busy());
        QCOMPARE(w->document()->moduleCount(), 2);
        QVERIFY(w->document()->module(1).bytes.find("define void @scale_2(") != std::string::npos);
        QVERIFY(replies.wait(120000));
        QTRY_VERIFY(!w->controller()->busy());
        const auto second = w->lastReply();
        QVERIFY(second.result && second.result->ok);
        QVERIFY(w->output()->ltoText().contains(".entry scale_2"));
        QCOMPARE(int(w->document()->workspace().runs.size()), 2);
    }

    // The start page's Open… is File > Open: a workspace, or the user's own IR files (here two of
    // them), which become the modules of a new workspace.
    void startPageOpensIrFiles() {
        QTemporaryDir dir;
        for (const char* name : {"caller.ll", "callee.ll"}) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(test::readText(test::dataDir() / "ir" / name)));
        }
        auto w = makeWindow();
        auto* page = startPage(*w);
        QVERIFY(page && page->isVisible());
        auto* open = page->findChild<QPushButton*>("startOpen");
        QVERIFY(open);
        QVERIFY(open->isVisible());
        QVERIFY2(open->toolTip().contains(".ll (text) or .bc (bitcode)"), qPrintable(open->toolTip()));
        QStringList filters;
        QVERIFY(test::answerFileDialog([open] { QTest::mouseClick(open, Qt::LeftButton); }, dir.path(),
                                       {"caller.ll", "callee.ll"}, &filters));
        QVERIFY2(errors_.isEmpty(), qPrintable(errors_.join('\n')));
        QVERIFY2(filters.value(0).contains("*.nvpg *.ll *.bc"), qPrintable(filters.join(";;")));
        QCOMPARE(w->document()->moduleCount(), 2);
        QVERIFY(w->document()->indexOf("caller.ll") >= 0 && w->document()->indexOf("callee.ll") >= 0);
        QVERIFY(!w->document()->isModified());
        QVERIFY(!page->isVisible());
        const auto reply = waitForReply(*w);
        QVERIFY2(reply.result && reply.result->ok, qPrintable(reply.error));
        // Cancel in the dialog changes nothing.
        menuAction(*w, "File", "New Workspace")->trigger();
        QVERIFY(page->isVisible());
        QVERIFY(test::answerFileDialog([open] { QTest::mouseClick(open, Qt::LeftButton); }, dir.path(), {}));
        QCOMPARE(w->document()->moduleCount(), 0);
        QVERIFY(page->isVisible());
    }

    void splitViewKeepsModuleOrderLeftToRight() {
        auto w = makeWindow();
        QVERIFY(w->openExample("two-modules"));
        waitForReply(*w);
        const auto first = QString::fromStdString(w->document()->module(0).name);
        const auto second = QString::fromStdString(w->document()->module(1).name);
        for (int current : {0, 1}) {
            auto* e = w->editors()->editor(current);
            w->editors()->showLocation(QString::fromStdString(w->document()->module(current).name), 1, 1);
            e->setFocus();
            QTest::keyClick(e, Qt::Key_Backslash, Qt::ControlModifier);
            QVERIFY(w->editors()->isSplit());
            const auto [left, right] = panes(*w);
            QVERIFY(left->isVisible() && right->isVisible());
            QCOMPARE(tabModules(left), QStringList{first});
            QCOMPARE(tabModules(right), QStringList{second});
            QVERIFY(w->editors()->editor(0)->isVisible());
            QVERIFY(w->editors()->editor(1)->isVisible());
            QTest::keyClick(w->editors()->editor(0), Qt::Key_Backslash, Qt::ControlModifier);
            QVERIFY(!w->editors()->isSplit());
        }
    }

    void typingIntoBitcodeOffersConvertToText() {
        if (QStandardPaths::findExecutable("llvm-dis-14").isEmpty()) QSKIP("llvm-dis-14 is not installed (llvm-14)");
        auto w = makeWindow();
        QVERIFY(w->openExample("bitcode"));
        waitForReply(*w);
        QCOMPARE(w->document()->module(1).name, std::string("mathlib.bc"));
        const auto bitcode = w->document()->module(1).bytes;
        w->editors()->showLocation("mathlib.bc", 1, 1);
        auto* e = w->editors()->editor(1);
        QVERIFY(e->isBitcodeView());
        QTRY_VERIFY_WITH_TIMEOUT(!e->isDisassembling(), 15000);  // llvm-dis-14 runs beside the window
        QTest::keyClicks(e, "x");
        QCOMPARE(w->document()->module(1).bytes, bitcode);  // nothing typed
        auto* bar = w->editors()->findChild<QWidget*>("bitcodeBar");
        QVERIFY(bar);
        QVERIFY(bar->isVisible());
        QVERIFY(bar->findChild<QLabel*>("bitcodeBarText")->text().startsWith("Bitcode is read-only"));
        auto* convert = bar->findChild<QPushButton*>("convertToTextButton");
        QVERIFY(convert);
        QCOMPARE(convert->text(), QString("Convert to text"));
        QVERIFY(menuAction(*w, "Module", "Convert to Text"));
        QVERIFY(menuAction(*w, "Module", "Convert to Text")->isEnabled());

        // It asks first; "No" leaves the bitcode as it is.
        answerNextQuestion(QMessageBox::No);
        QTest::mouseClick(convert, Qt::LeftButton);
        QCOMPARE(w->document()->module(1).bytes, bitcode);

        QSignalSpy replies(w->controller(), &CompileController::replyShown);
        answerNextQuestion(QMessageBox::Yes);
        QTest::mouseClick(convert, Qt::LeftButton);
        QCOMPARE(w->document()->module(1).name, std::string("mathlib.ll"));
        QVERIFY(!w->document()->module(1).isBitcode());
        QVERIFY(!w->document()->module(1).lazy);  // libNVVM loads only bitcode lazily
        QVERIFY(w->document()->module(1).bytes.find("define") != std::string::npos);
        e = w->editors()->editor(1);
        QVERIFY(!e->isBitcodeView());
        QVERIFY(!e->isReadOnly());
        QVERIFY(!menuAction(*w, "Module", "Convert to Text")->isEnabled());
        QTRY_VERIFY(!w->editors()->findChild<QWidget*>("bitcodeBar"));
        QVERIFY(replies.wait(120000));
        QTRY_VERIFY(!w->controller()->busy());
        const auto reply = w->lastReply();
        QVERIFY2(reply.result, qPrintable(reply.error));
        QVERIFY2(reply.result->ok,
                 reply.result->diagnostics.empty() ? "" : reply.result->diagnostics[0].message.c_str());
        QVERIFY(errors_.isEmpty());
        // Typing now edits it.
        const auto text = w->document()->module(1).bytes;
        e->setFocus();
        QTest::keyClicks(e, "xy");
        w->editors()->flush();
        QCOMPARE(w->document()->module(1).bytes.size(), text.size() + 2);
    }

    void withoutLlvmDisTheBarSaysWhatIsNeeded() {
        ModuleEditor::setDisassemblerOverride(QString());
        auto w = makeWindow();
        QVERIFY(w->openExample("bitcode"));
        waitForReply(*w);
        w->editors()->showLocation("mathlib.bc", 1, 1);
        auto* e = w->editors()->editor(1);
        QTest::keyClicks(e, "x");
        auto* bar = w->editors()->findChild<QWidget*>("bitcodeBar");
        QVERIFY(bar && bar->isVisible());
        QVERIFY(bar->findChild<QLabel*>("bitcodeBarText")->text().contains("install llvm-14"));
        QVERIFY(!bar->findChild<QPushButton*>("convertToTextButton"));
        ModuleEditor::setDisassemblerOverride(std::nullopt);
    }
};

QTEST_MAIN(TestStart)
#include "tst_start.moc"
