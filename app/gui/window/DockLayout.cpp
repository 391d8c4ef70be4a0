#include "gui/window/DockLayout.h"

#include <algorithm>

#include <QCursor>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLayout>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QWindow>

namespace nvpg::gui {

namespace {

// The bottom docks' height on a first start: a few Problems rows; with a GPU, the Runs dock's
// table and buttons (about a third of the window).
constexpr int kSmallBottomDocks = 170;
constexpr int kRunsDockHeight = 300;
// The window's first size where the screen has room for it.
constexpr QSize kFirstSize(1500, 920);

}  // namespace

DockLayout::DockLayout(QMainWindow* window) : QObject(window), window_(window) {}

QDockWidget* DockLayout::add(const Dock& spec) {
    auto* dock = new QDockWidget(spec.title, window_);
    dock->setObjectName(spec.name);
    dock->setWidget(spec.content);
    window_->addDockWidget(spec.bottom ? Qt::BottomDockWidgetArea : Qt::LeftDockWidgetArea, dock);
    if (spec.tabWith) window_->tabifyDockWidget(spec.tabWith, dock);
    if (spec.closed) dock->hide();
    if (!spec.bottom) return dock;
    bottom_ << dock;
    heights_[dock] = spec.height;
    // The bottom docks share one height: the one in front sets it. What a dock holds may be
    // squeezed below its own minimum while another is in front.
    spec.content->setMinimumHeight(1);
    connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
        if (visible) {
            QMetaObject::invokeMethod(
                this, [this, dock] { fit(dock); }, Qt::QueuedConnection);
            return;
        }
        // Going behind another tab: the height it had (the user's, or the one it was given) is
        // the one it comes back with.
        if (heights_.value(dock) != Height::Content && !paused_ && !dock->isFloating() &&
            window_->dockWidgetArea(dock) == Qt::BottomDockWidgetArea &&
            dock->widget()->height() >= 3 * window_->fontMetrics().height())
            lastHeights_[dock] = dock->widget()->height();
    });
    return dock;
}

void DockLayout::bringForward(QDockWidget* dock) {
    dock->show();
    dock->raise();
}

void DockLayout::fit(QDockWidget* dock) {
    // Only the dock in front of the bottom area, and not while presenter mode has them hidden.
    if (!dock || paused_ || dock->isFloating() || !dock->isVisible() || dock->visibleRegion().isEmpty() ||
        window_->dockWidgetArea(dock) != Qt::BottomDockWidgetArea)
        return;
    const auto height = heights_.value(dock, Height::Rows);
    int wanted = 0;
    if (height == Height::Content) {
        wanted = dock->widget()->sizeHint().height();
    } else {
        const int room = window_->height() * 2 / 5;
        wanted = lastHeights_.value(dock, height == Height::Tall ? room : std::min(kRunsDockHeight, room));
    }
    // What resizeDocks sizes is the whole bottom area: the dock's title bar and the tab bar under
    // it come on top of what it holds.
    auto* bar = window_->statusBar();
    const int areaBottom = bar->isVisible() ? bar->geometry().top() : window_->height();
    wanted += dock->height() - dock->widget()->height() + std::max(0, areaBottom - 1 - dock->geometry().bottom());
    window_->resizeDocks({dock}, {wanted}, Qt::Vertical);
}

void DockLayout::widen(QDockWidget* dock, int wanted) {
    if (!dock || paused_ || dock->isFloating() || window_->dockWidgetArea(dock) != Qt::LeftDockWidgetArea) return;
    const int room = window_->width() - kCentralRoom;
    const int width = std::min(wanted, room);
    if (dock->width() >= width) return;
    window_->resizeDocks({dock}, {width}, Qt::Horizontal);
}

QString DockLayout::geometryKey(const QScreen* screen) {
    if (!screen) return QStringLiteral("window/geometry");
    const QSize size = screen->geometry().size();
    QString name = screen->name();
    name.replace(QLatin1Char('/'), QLatin1Char('_'));  // a settings group separator
    return QStringLiteral("window/geometry/%1 %2x%3").arg(name).arg(size.width()).arg(size.height());
}

void DockLayout::restore(QSplitter* central, QDockWidget* leftDock, QDockWidget* bottomDock) {
    QScreen* screen = QGuiApplication::screenAt(QCursor::pos());
    if (!screen) screen = QGuiApplication::primaryScreen();
    if (screen) window_->setScreen(screen);
    const QRect room = screen ? screen->availableGeometry() : QRect(QPoint(), kFirstSize);
    window_->resize(kFirstSize.boundedTo(room.size()));
    central->setSizes({640, 860});
    window_->resizeDocks({leftDock}, {room.width() < kFirstSize.width() ? 220 : 270}, Qt::Horizontal);
    // Small until the GPU is known: on a machine without one the Runs dock has nothing to run.
    window_->resizeDocks({bottomDock}, {kSmallBottomDocks}, Qt::Vertical);
    QSettings settings;
    firstLayout_ = !settings.contains("window/state");
    // The size it had on this screen, if it was ever closed there. The layout's minimum is still
    // the one from before the hidden docks (the Lesson dock's 300 px) were hidden: bring it up to
    // date first, or a short window it cuts to comes back taller than it was closed.
    if (window_->layout()) window_->layout()->activate();
    // A window closed maximised comes back maximised, with the size it had before as the one
    // un-maximising gives back (saveGeometry keeps both).
    window_->restoreGeometry(settings.value(geometryKey(screen)).toByteArray());
    window_->restoreState(settings.value("window/state").toByteArray());
    fitToScreen();
}

void DockLayout::save() {
    QSettings settings;
    settings.setValue(geometryKey(window_->screen()), window_->saveGeometry());
    settings.setValue("window/state", window_->saveState());
}

void DockLayout::fitToScreen() {
    const QScreen* s = window_->screen();
    if (!s || window_->isFullScreen() || window_->isMaximized()) return;
    const QRect room = s->availableGeometry();
    // The window manager's frame, once it is known (after the window is shown).
    const QRect frame = window_->frameGeometry(), inner = window_->geometry();
    const QMargins margins(inner.left() - frame.left(), inner.top() - frame.top(), frame.right() - inner.right(),
                           frame.bottom() - inner.bottom());
    const QSize most = room.size().shrunkBy(margins);
    if (window_->width() > most.width() || window_->height() > most.height())
        window_->resize(window_->size().boundedTo(most));
    const QSize outer = window_->size().grownBy(margins);
    const QRect now = window_->frameGeometry();
    const int x = std::clamp(now.left(), room.left(), std::max(room.left(), room.right() + 1 - outer.width()));
    const int y = std::clamp(now.top(), room.top(), std::max(room.top(), room.bottom() + 1 - outer.height()));
    if (QPoint(x, y) != now.topLeft()) window_->move(x, y);
}

void DockLayout::shown() {
    if (shown_) return;
    shown_ = true;
    QMetaObject::invokeMethod(this, &DockLayout::fitToScreen, Qt::QueuedConnection);
    if (auto* handle = window_->windowHandle())
        connect(handle, &QWindow::screenChanged, this,
                [this] { QMetaObject::invokeMethod(this, &DockLayout::fitToScreen, Qt::QueuedConnection); });
}

void DockLayout::placeRuns(QDockWidget* runs, bool gpu) {
    // Once, and only where no layout was saved: after that the docks stay where the user put them.
    if (!firstLayout_) return;
    firstLayout_ = false;
    if (!gpu) return;  // Problems in front, the docks small
    runs->raise();
    window_->resizeDocks({runs}, {kRunsDockHeight}, Qt::Vertical);
}

void DockLayout::detach() {
    for (auto* dock : bottom_) dock->disconnect(this);
}

}  // namespace nvpg::gui
