// The window on the screens people have: it opens within the screen it is on (1280x720 and
// 1600x1000 here, registered once each), remembers its size per screen and whether it was
// maximised, keeps the editor and the output panes usable after a pin, an empty Problems dock takes one line; presenter
// mode hides the docks, enlarges the text and gives the layout back; the zoom reaches every text, and a hover popup
// stays on the screen; Compare shows enough of its diff to read, and Find leaves the panes their widths.
#include <QtTest>

#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScreen>
#include <QTabBar>
#include <QTableWidget>
#include <QToolButton>
#include <QTreeWidget>

#include <Qsci/qsciscintilla.h>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "gui/compile/CompileController.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/FindBar.h"
#include "gui/editor/HoverDocs.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/OutputView.h"
#include "gui/panels/ComparePanel.h"
#include "gui/panels/OptionsPanel.h"
#include "gui/panels/ProblemsPanel.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using gui::MainWindow;

namespace {

// What a person needs to read IR and PTX: the editor at least this wide (about 50 columns of IR at
// the default font), each output pane at least this wide (about 35 columns of PTX).
constexpr int kUsableEditor = 400;
constexpr int kUsableOutput = 280;

bool compileAndWait(MainWindow& w) {
    QSignalSpy shown(w.controller(), &gui::CompileController::replyShown);
    w.controller()->compileNow();
    return shown.wait(120000);
}

std::unique_ptr<MainWindow> shownWindow() {
    auto w = test::makeWindow();
    if (!QTest::qWaitForWindowExposed(w.get())) return nullptr;
    QTest::qWait(100);  // the queued fit to the screen and the docks' heights
    return w;
}

QRect screenRoom(const QWidget& w) {
    return w.screen()->availableGeometry();
}

// Every part of `w` within the available part of its screen, and no minimum larger than it.
QString offScreen(const MainWindow& w) {
    const QRect room = screenRoom(w);
    if (!room.contains(w.frameGeometry()))
        return QString("window %1,%2 %3x%4 on a screen of %5x%6")
            .arg(w.frameGeometry().x())
            .arg(w.frameGeometry().y())
            .arg(w.frameGeometry().width())
            .arg(w.frameGeometry().height())
            .arg(room.width())
            .arg(room.height());
    const QSize least = w.minimumSizeHint().expandedTo(w.minimumSize());
    if (least.width() > room.width() || least.height() > room.height())
        return QString("the window asks for at least %1x%2").arg(least.width()).arg(least.height());
    return {};
}

// The widths a person reads in: the editor's, the PTX pane's and the LTO pane's.
QString tooNarrow(const MainWindow& w) {
    const int editor = w.editors()->currentEditor()->width();
    const int ptx = w.output()->ptxEditor()->isVisible() ? w.output()->ptxEditor()->width() : 0;
    const int lto = w.output()->ltoEditor()->isVisible() ? w.output()->ltoEditor()->width() : 0;
    if (editor >= kUsableEditor && ptx >= kUsableOutput && lto >= kUsableOutput) return {};
    return QString("editor %1 px, PTX %2 px, LTO %3 px in a window %4 px wide")
        .arg(editor)
        .arg(ptx)
        .arg(lto)
        .arg(w.width());
}

// Each font's size in points, as drawn.
double pointsOf(const QWidget* w) {
    return QFontInfo(w->font()).pointSizeF();
}

// The one line "No problems" needs, with the panel's margins.
int oneLine(const QWidget* w) {
    return w->fontMetrics().lineSpacing() + 8;
}

}  // namespace

class TestLayout : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        // The suite is registered once per screen (tests/gui/CMakeLists.txt), and both runs may go
        // at once: each has its own settings (a run that starts clears its settings, which would
        // drop the other's remembered geometry).
        const QByteArray wanted = qgetenv("NVPG_TEST_SCREEN");
        static const std::string suite = "tst_gui_layout_" + wanted.toStdString();
        test::isolateAppData(suite.c_str());
        // Make sure the screen is the one the offscreen platform was given, not its 800x600 default.
        const QSize size = QGuiApplication::primaryScreen()->geometry().size();
        if (!wanted.isEmpty())
            QCOMPARE(QString("%1x%2").arg(size.width()).arg(size.height()), QString::fromLatin1(wanted));
        qInfo("screen %dx%d", size.width(), size.height());
    }
    void init() { QSettings().clear(); }

    // A first start opens within the screen, whatever its size, and stays there through a compile.
    void opensWithinTheScreen() {
        auto w = shownWindow();
        QVERIFY(w);
        QVERIFY2(offScreen(*w).isEmpty(), qPrintable(offScreen(*w)));
        QVERIFY(w->openExample("libdevice-math"));
        QVERIFY(compileAndWait(*w));
        QTest::qWait(100);
        QVERIFY2(offScreen(*w).isEmpty(), qPrintable(offScreen(*w)));
        QVERIFY2(tooNarrow(*w).isEmpty(), qPrintable(tooNarrow(*w)));
        // The Options dock keeps room for its fields.
        QVERIFY2(w->optionsPanel()->width() >= 180, qPrintable(QString::number(w->optionsPanel()->width())));
    }

    // The size a window was closed at on a screen is the size it opens at there; a size kept from
    // a larger screen (or one larger than this screen) is cut to this one.
    void theSizeIsRememberedPerScreen() {
        const QRect room = QGuiApplication::primaryScreen()->availableGeometry();
        const QSize chosen(room.width() * 4 / 5, room.height() * 4 / 5);
        {
            auto w = shownWindow();
            QVERIFY(w);
            w->resize(chosen);
            QTRY_COMPARE(w->size(), chosen);
            QVERIFY(w->close());
            QVERIFY(QSettings().contains(MainWindow::geometryKey(w->screen())));
        }
        {
            auto w = shownWindow();
            QVERIFY(w);
            QCOMPARE(w->size(), chosen);
        }
        // Another screen's size is not this one's.
        QVERIFY(MainWindow::geometryKey(QGuiApplication::primaryScreen())
                    .contains(QString("%1x%2")
                                  .arg(QGuiApplication::primaryScreen()->geometry().width())
                                  .arg(QGuiApplication::primaryScreen()->geometry().height())));
        {
            // A geometry larger than the screen, as a window stretched by a long name left it.
            QWidget big;
            big.resize(room.width() * 2, room.height() * 2);
            QSettings().setValue(MainWindow::geometryKey(QGuiApplication::primaryScreen()), big.saveGeometry());
            auto w = shownWindow();
            QVERIFY(w);
            QTRY_VERIFY2(offScreen(*w).isEmpty(), qPrintable(offScreen(*w)));
        }
    }

    // A window closed maximised opens maximised at the next start, on that screen; un-maximised
    // it takes back the size it had before it was maximised. Closed un-maximised, it opens so.
    void aMaximisedWindowIsRemembered() {
        QScreen* screen = QGuiApplication::primaryScreen();
        const QRect room = screen->availableGeometry();
        const QSize normal(room.width() * 3 / 4, room.height() * 3 / 4);
        const auto fills = [&room](const MainWindow& w) {
            return w.width() >= room.width() * 9 / 10 && w.height() >= room.height() * 9 / 10;
        };
        {
            auto w = shownWindow();
            QVERIFY(w);
            w->resize(normal);
            QTRY_COMPARE(w->size(), normal);
            w->showMaximized();
            QTRY_VERIFY(w->isMaximized());
            QTRY_VERIFY(fills(*w));
            QVERIFY(w->close());
        }
        {
            auto w = shownWindow();  // as the next start makes it, with the same settings
            QVERIFY(w);
            QVERIFY(w->isMaximized());
            QCOMPARE(w->screen(), screen);
            QTRY_VERIFY2(fills(*w), qPrintable(QString("%1x%2").arg(w->width()).arg(w->height())));
            QVERIFY2(offScreen(*w).isEmpty(), qPrintable(offScreen(*w)));
            w->showNormal();
            QTRY_VERIFY(!w->isMaximized());
            QTRY_COMPARE(w->size(), normal);
            QVERIFY2(offScreen(*w).isEmpty(), qPrintable(offScreen(*w)));
            // Maximised and back within one run too.
            w->showMaximized();
            QTRY_VERIFY(fills(*w));
            w->showNormal();
            QTRY_COMPARE(w->size(), normal);
            QVERIFY(w->close());
        }
        {
            auto w = shownWindow();
            QVERIFY(w);
            QVERIFY(!w->isMaximized());
            QCOMPARE(w->size(), normal);
        }
    }

    // A pin opens the Compare dock where it costs the editor and the outputs nothing of their width.
    void aPinLeavesThePanesTheirWidth() {
        auto w = shownWindow();
        QVERIFY(w);
        QVERIFY(w->openExample("saxpy"));
        QVERIFY(compileAndWait(*w));
        QTest::qWait(100);
        QVERIFY2(tooNarrow(*w).isEmpty(), qPrintable(tooNarrow(*w)));
        QVERIFY(w->pinResult("first"));
        QTRY_VERIFY(w->compareDock()->isVisible() && !w->compareDock()->visibleRegion().isEmpty());
        QTest::qWait(200);
        QVERIFY2(tooNarrow(*w).isEmpty(), qPrintable("after the pin: " + tooNarrow(*w)));
        QVERIFY2(offScreen(*w).isEmpty(), qPrintable(offScreen(*w)));
        // The Compare dock's two sides are readable too, and the editor keeps some height.
        QVERIFY2(w->compare()->width() >= 2 * kUsableOutput, qPrintable(QString::number(w->compare()->width())));
        QVERIFY2(w->compare()->height() >= 150, qPrintable(QString::number(w->compare()->height())));
        QVERIFY2(w->editors()->currentEditor()->height() >= 150,
                 qPrintable(QString::number(w->editors()->currentEditor()->height())));
    }

    // What an option does, in one click (Δ beside ftz): the Compare dock opens with at least 15
    // lines of the diff in view, the docs' paragraph folded under one line until asked for, and
    // the editor and the output panes keep their width.
    void compareShowsFifteenLinesOfItsDiff() {
        auto w = shownWindow();
        QVERIFY(w);
        QVERIFY(w->openExample("libdevice-math"));
        QVERIFY(compileAndWait(*w));
        auto* c = w->compare();
        w->optionsPanel()->effectButton("ftz")->click();
        QTRY_VERIFY_WITH_TIMEOUT(c->comparison() && !c->compiling(), 120000);
        QTRY_VERIFY(w->compareDock()->isVisible() && !w->compareDock()->visibleRegion().isEmpty());
        QTest::qWait(200);
        auto* diff = c->diffPane();
        QVERIFY(diff->isVisible());
        QVERIFY2(diff->lines() >= 30, qPrintable(diff->text()));  // enough diff to fill the pane
        const auto onScreen = [&] { return int(diff->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN)); };
        QVERIFY2(onScreen() >= 15, qPrintable(QString("%1 diff lines in view, the pane %2 px high, the dock %3 px")
                                                  .arg(onScreen())
                                                  .arg(diff->height())
                                                  .arg(c->height())));
        // Beside the views, the verdict is whole.
        QVERIFY(c->besideViews());
        auto* verdict = c->findChild<QLabel*>("compareVerdict");
        QVERIFY(verdict && verdict->isVisible());
        QVERIFY2(
            verdict->height() >= verdict->heightForWidth(verdict->width()),
            qPrintable(
                QString("verdict %1 px of %2").arg(verdict->height()).arg(verdict->heightForWidth(verdict->width()))));
        auto* paragraph = c->findChild<QLabel*>("compareEffect");
        QVERIFY(c->effectToggle()->isVisible() && !paragraph->isVisible());
        // Unfolded, the paragraph lies over the diff, as wide as it, a few lines high; the diff
        // keeps most of its lines.
        c->effectToggle()->click();
        QVERIFY(paragraph->isVisible());
        QTest::qWait(100);
        QVERIFY2(paragraph->width() >= diff->width() - 10,
                 qPrintable(QString("paragraph %1 px wide, diff %2").arg(paragraph->width()).arg(diff->width())));
        QVERIFY2(onScreen() >= 8, qPrintable(QString("unfolded: %1 diff lines in view").arg(onScreen())));
        c->effectToggle()->click();
        QVERIFY(!paragraph->isVisible());
        QTest::qWait(100);
        QVERIFY2(onScreen() >= 15, qPrintable(QString("folded again: %1 diff lines in view").arg(onScreen())));
        QVERIFY2(tooNarrow(*w).isEmpty(), qPrintable(tooNarrow(*w)));
        QVERIFY2(offScreen(*w).isEmpty(), qPrintable(offScreen(*w)));
        // Every tab of the views is a click away.
        QCOMPARE(c->viewBar()->count(), 3);
        QVERIFY(c->viewBar()->isVisible());

        // A narrow dock (floated here) puts the column over the views, the tabs right above them.
        w->compareDock()->setFloating(true);
        w->compareDock()->resize(520, 640);
        QTRY_VERIFY(!c->besideViews());
        QTest::qWait(100);
        const QPoint bar = c->viewBar()->mapTo(c, QPoint(0, c->viewBar()->height()));
        const QPoint top = diff->mapTo(c, QPoint(0, 0));
        QVERIFY2(bar.y() <= top.y() && top.y() - bar.y() < 20,
                 qPrintable(QString("tabs end at y=%1, the diff starts at y=%2").arg(bar.y()).arg(top.y())));
        QVERIFY2(onScreen() >= 15, qPrintable(QString("narrow: %1 diff lines in view").arg(onScreen())));
        w->compareDock()->setFloating(false);
    }

    // Find opens under the side it searches without taking width from the other: the PTX pane,
    // the LTO pane and the editor keep theirs, whether Find searches the IR or the PTX.
    void findLeavesThePanesTheirWidths() {
        auto w = shownWindow();
        QVERIFY(w);
        QVERIFY(w->openExample("libdevice-math"));
        QVERIFY(compileAndWait(*w));
        QTest::qWait(100);
        auto* ptx = w->output()->ptxEditor();
        auto* lto = w->output()->ltoEditor();
        auto* editor = w->editors()->currentEditor();
        const auto widths = [&] {
            return QString("editor %1, PTX %2, LTO %3").arg(editor->width()).arg(ptx->width()).arg(lto->width());
        };
        const int ptxBefore = ptx->width(), ltoBefore = lto->width(), editorBefore = editor->width();
        const auto kept = [&] {
            return std::abs(ptx->width() - ptxBefore) <= 3 && std::abs(lto->width() - ltoBefore) <= 3 &&
                   std::abs(editor->width() - editorBefore) <= 3;
        };
        auto* bar = w->findChild<gui::FindBar*>();
        QVERIFY(bar);
        for (QWidget* pane : {static_cast<QWidget*>(editor), static_cast<QWidget*>(ptx)}) {
            pane->setFocus();
            QTest::keyClick(pane, Qt::Key_F, Qt::ControlModifier);
            QTRY_VERIFY(bar->isVisible());
            QCOMPARE(static_cast<QWidget*>(bar->editor()), pane);
            QTest::qWait(100);
            QVERIFY2(kept(), qPrintable(QString("Find in %1: %2, before editor %3, PTX %4, LTO %5")
                                            .arg(pane->objectName(), widths())
                                            .arg(editorBefore)
                                            .arg(ptxBefore)
                                            .arg(ltoBefore)));
            // Its field and its buttons are on the screen, the field wide enough to read.
            auto* field = bar->findChild<QLineEdit*>();
            QVERIFY2(field->width() >= field->fontMetrics().averageCharWidth() * 24,
                     qPrintable(QString::number(field->width())));
            for (auto* b : bar->findChildren<QToolButton*>())
                QVERIFY2(bar->rect().contains(QRect(b->mapTo(bar, QPoint(0, 0)), b->size())), qPrintable(b->toolTip()));
            QTest::keyClick(field, Qt::Key_Escape);
            QVERIFY(!bar->isVisible());
            QTest::qWait(50);
            QVERIFY2(kept(), qPrintable("closed: " + widths()));
        }
    }

    // "No problems" takes one line; problems make the dock as tall as their rows (up to a few).
    void theProblemsDockFollowsItsContent() {
        auto w = shownWindow();
        QVERIFY(w);
        auto* dock = w->findChild<QDockWidget*>("problemsDock");
        QVERIFY(dock);
        QVERIFY(w->openExample("saxpy"));
        QVERIFY(compileAndWait(*w));
        QCOMPARE(w->problems()->count(), 0);
        const int title = dock->height() - dock->widget()->height();
        QTRY_VERIFY2(w->problems()->height() <= oneLine(w->problems()),
                     qPrintable(QString("%1 px for no problems (a line is %2)")
                                    .arg(w->problems()->height())
                                    .arg(oneLine(w->problems()))));
        QVERIFY(w->problems()->height() >= w->problems()->fontMetrics().height());  // and the line is there
        QVERIFY(dock->height() <= title + oneLine(w->problems()));

        // Three problems: three rows show.
        auto* editor = w->editors()->editor(0);
        const auto text = QString::fromStdString(editor->moduleText());
        editor->setText(QString(text).replace("fadd float", "fad float"));
        QVERIFY(compileAndWait(*w));
        QVERIFY(w->problems()->count() > 0);
        const int rows = std::min(w->problems()->count(), gui::ProblemsPanel::kMaxShownRows);
        QTRY_VERIFY2(
            w->problems()->view()->viewport()->height() >= rows * w->problems()->fontMetrics().height(),
            qPrintable(QString("%1 px for %2 rows").arg(w->problems()->view()->viewport()->height()).arg(rows)));
        QVERIFY2(tooNarrow(*w).isEmpty(), qPrintable(tooNarrow(*w)));
        // And back to one line.
        editor->setText(text);
        QVERIFY(compileAndWait(*w));
        QTRY_VERIFY(w->problems()->height() <= oneLine(w->problems()));
    }

    // Presenter mode: full screen, the docks hidden, the IR and one output, larger text. Leaving it
    // gives back the docks, the zoom and the panes as they were.
    void presenterModeAndBack() {
        auto w = shownWindow();
        QVERIFY(w);
        QVERIFY(w->openExample("saxpy"));
        QVERIFY(compileAndWait(*w));
        w->pinResult("p");
        QTRY_VERIFY(w->compareDock()->isVisible());
        QTest::qWait(100);
        auto* action = w->presenterAction();
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::Key_F11));
        const QByteArray state = w->saveState();
        const int zoom = w->zoom();
        const QRect geometry = w->geometry();
        auto* header = w->output()->findChild<QLabel*>("ptxHeader");
        QVERIFY(header);
        const double headerPoints = pointsOf(header);
        const long editorZoom = w->editors()->currentEditor()->SendScintilla(QsciScintillaBase::SCI_GETZOOM);
        // Open docks (in front or behind another's tab), and the ones in front.
        const auto docksOpen = [&] {
            QStringList open;
            for (auto* dock : w->findChildren<QDockWidget*>())
                if (dock->toggleViewAction()->isChecked())
                    open << dock->objectName() + (dock->visibleRegion().isEmpty() ? "" : " (front)");
            open.sort();
            return open;
        };
        const QStringList docksShown = docksOpen();
        QVERIFY2(docksShown.contains("compareDock (front)") && docksShown.contains("optionsDock (front)"),
                 qPrintable(docksShown.join(", ")));

        w->setPresenterOutput(inspect::MappedOutput::LtoPtx);
        QTest::keyClick(w.get(), Qt::Key_F11);
        QVERIFY(w->presenterMode());
        QVERIFY(action->isChecked());
        for (auto* dock : w->findChildren<QDockWidget*>())
            QVERIFY2(!dock->isVisible() && !dock->toggleViewAction()->isChecked(), qPrintable(dock->objectName()));
        QTRY_VERIFY(w->isFullScreen());
        QVERIFY(w->zoom() > zoom);
        QVERIFY(w->editors()->currentEditor()->SendScintilla(QsciScintillaBase::SCI_GETZOOM) > editorZoom);
        QVERIFY(pointsOf(header) > headerPoints);
        // The IR and the chosen output, side by side, each about half the screen.
        QVERIFY(!w->output()->ptxEditor()->isVisible());
        QVERIFY(w->output()->ltoEditor()->isVisible());
        QTRY_VERIFY(w->output()->ltoEditor()->width() > w->width() / 3);
        QVERIFY(w->editors()->currentEditor()->width() > w->width() / 3);
        QVERIFY(w->frameGeometry().width() <= screenRoom(*w).width() + 1 || w->isFullScreen());
        // The chosen output can change while presenting.
        w->setPresenterOutput(inspect::MappedOutput::Ptx);
        QVERIFY(w->output()->ptxEditor()->isVisible() && !w->output()->ltoEditor()->isVisible());

        QTest::keyClick(w.get(), Qt::Key_F11);
        QVERIFY(!w->presenterMode());
        QTRY_VERIFY(!w->isFullScreen());
        QCOMPARE(w->zoom(), zoom);
        QCOMPARE(w->editors()->currentEditor()->SendScintilla(QsciScintillaBase::SCI_GETZOOM), editorZoom);
        QCOMPARE(pointsOf(header), headerPoints);
        QTRY_COMPARE(docksOpen().join(", "), docksShown.join(", "));
        QTRY_COMPARE(w->geometry(), geometry);
        // The kernel tables fit their rows again.
        auto* table = w->output()->ptxFiguresTable();
        QTRY_VERIFY2(
            table->viewport()->height() >= table->rowHeight(0),
            qPrintable(QString("%1 px for a row of %2").arg(table->viewport()->height()).arg(table->rowHeight(0))));
        QCOMPARE(w->saveState(), state);
        QVERIFY(w->output()->ptxEditor()->isVisible() && w->output()->ltoEditor()->isVisible());
    }

    // Ctrl+= reaches a pane header, a kernel table, a dock, a hover popup and the lightbulb's margin.
    void zoomReachesEveryText() {
        auto w = shownWindow();
        QVERIFY(w);
        QVERIFY(w->openExample("saxpy"));
        QVERIFY(compileAndWait(*w));
        auto* header = w->output()->findChild<QLabel*>("ptxHeader");
        auto* caption = w->output()->findChild<QLabel*>("ptxFiguresCaption");
        auto* table = w->output()->ptxFiguresTable();
        auto* dock = w->optionsPanel();
        auto* problems = w->problems();
        auto* editor = static_cast<QsciScintilla*>(w->editors()->currentEditor());
        QVERIFY(header && caption && table);
        auto* ptx = w->output()->ptxEditor();
        auto* hover = gui::HoverDocs::of(ptx);
        QVERIFY(hover);
        const int word = int(ptx->text().toUtf8().indexOf("ld.param")) + 2;
        QVERIFY(word > 2);
        hover->showAt(word);
        QVERIFY(hover->popup());
        const double popupBefore = pointsOf(hover->popup());
        hover->hide();
        const double before[] = {pointsOf(header), pointsOf(caption),
                                 pointsOf(table),  pointsOf(table->horizontalHeader()),
                                 pointsOf(dock),   pointsOf(problems)};
        const int rowBefore = table->rowHeight(0);
        const int marginBefore = editor->marginWidth(1);

        for (int i = 0; i < 3; ++i) QTest::keyClick(editor, Qt::Key_Equal, Qt::ControlModifier);
        const double after[] = {pointsOf(header), pointsOf(caption),
                                pointsOf(table),  pointsOf(table->horizontalHeader()),
                                pointsOf(dock),   pointsOf(problems)};
        const char* names[] = {"pane header", "figures caption", "kernel table",
                               "its header",  "Options dock",    "Problems dock"};
        for (int i = 0; i < 6; ++i)
            QVERIFY2(after[i] >= before[i] + 2,
                     qPrintable(QString("%1: %2 -> %3 pt").arg(names[i]).arg(before[i]).arg(after[i])));
        QVERIFY2(pointsOf(caption) < pointsOf(header), "the caption is no longer smaller than the header");
        QTRY_VERIFY2(table->rowHeight(0) > rowBefore, "the table's rows did not grow with their text");
        hover->showAt(word);
        QVERIFY(hover->popup());
        QVERIFY2(pointsOf(hover->popup()) >= popupBefore + 2,
                 qPrintable(QString("hover popup %1 -> %2 pt").arg(popupBefore).arg(pointsOf(hover->popup()))));
        hover->hide();
        QVERIFY2(editor->marginWidth(1) > marginBefore, "the lightbulb's margin did not grow");

        QTest::keyClick(editor, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(pointsOf(header), before[0]);
        QCOMPARE(pointsOf(caption), before[1]);
        QCOMPARE(pointsOf(dock), before[4]);
        QCOMPARE(editor->marginWidth(1), marginBefore);
    }

    // A hover popup, zoomed, near the screen's bottom right, is whole and on the screen.
    void aHoverPopupStaysOnTheScreen() {
        auto w = shownWindow();
        QVERIFY(w);
        QVERIFY(w->openExample("libdevice-math"));
        QVERIFY(compileAndWait(*w));
        auto* editor = w->editors()->currentEditor();
        for (int i = 0; i < 6; ++i) QTest::keyClick(editor, Qt::Key_Equal, Qt::ControlModifier);
        const QRect room = screenRoom(*w);
        for (auto* pane : {w->output()->ptxEditor(), w->output()->ltoEditor(), static_cast<QsciScintilla*>(editor)}) {
            auto* hover = gui::HoverDocs::of(pane);
            QVERIFY(hover);
            // The last words that have docs: at the bottom of the text, the pane scrolled to them.
            const QByteArray text = pane->text().toUtf8();
            int shown = 0;
            for (const QByteArray word : {"ld.global", "st.global", "call", "mad", "fma", "ret", "define", "declare"}) {
                const int at = int(text.lastIndexOf(word));
                if (at < 0) continue;
                pane->ensureLineVisible(int(pane->SendScintilla(QsciScintillaBase::SCI_LINEFROMPOSITION, long(at))));
                hover->showAt(at + 1);
                auto* popup = hover->popup();
                if (!popup) continue;
                ++shown;
                QVERIFY2(room.contains(popup->frameGeometry()), qPrintable(QString("%1: popup at %2,%3 %4x%5")
                                                                               .arg(QString::fromLatin1(word))
                                                                               .arg(popup->x())
                                                                               .arg(popup->y())
                                                                               .arg(popup->width())
                                                                               .arg(popup->height())));
                // Its whole text fits: not cut mid-sentence.
                QVERIFY2(popup->heightForWidth(popup->width()) <= popup->height(),
                         qPrintable(QString("%1: text %2 px in %3 px")
                                        .arg(QString::fromLatin1(word))
                                        .arg(popup->heightForWidth(popup->width()))
                                        .arg(popup->height())));
                QVERIFY(popup->width() <= room.width());
                hover->hide();
            }
            QVERIFY2(shown > 0, qPrintable(pane->objectName()));
        }
    }
};

QTEST_MAIN(TestLayout)
#include "tst_layout.moc"
