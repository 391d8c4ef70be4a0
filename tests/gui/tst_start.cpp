// A new user's first steps, on the real widgets: the start page of an empty workspace (examples,
// recent files, New module), the New Module template that compiles and survives LTO as it is,
// Split View in libNVVM's module order, and a bitcode module that offers Convert to text when
// typed into instead of ignoring the keys.
#include <QtTest>

#include <QAbstractButton>
#include <QApplication>
#include <QCommandLinkButton>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>

#include "TestSupport.h"
#include "compile/CompileController.h"
#include "document/WorkspaceDocument.h"
#include "editor/EditorArea.h"
#include "editor/ModuleEditor.h"
#include "output/OutputView.h"
#include "panels/ProblemsPanel.h"
#include "window/MainWindow.h"

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

}  // namespace

class TestStart : public QObject {
    Q_OBJECT

    QStringList errors_;
    std::unique_ptr<MainWindow> makeWindow() {
        auto w = std::make_unique<MainWindow>();
        w->setErrorSink([this](const QString& title, const QString& message) { errors_ << title + ": " + message; });
        w->setSaveQuestion([] { return QMessageBox::Discard; });
        w->resize(1400, 900);
        w->show();
        return w;
    }

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_start");
    }
    void init() {
        errors_.clear();
        ModuleEditor::setDisassemblerOverride(std::nullopt);
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

};

QTEST_MAIN(TestStart)
#include "tst_start.moc"
