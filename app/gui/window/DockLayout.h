#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

class QDockWidget;
class QMainWindow;
class QScreen;
class QSplitter;
class QWidget;

namespace nvpg::gui {

// The window's docks as a table: each added with its place, its tab group and the height it
// takes in front of the bottom area; and the window's geometry, kept per screen and fitted to it.
class DockLayout : public QObject {
    Q_OBJECT

public:
    // What a bottom dock's height follows when it comes to the front.
    enum class Height {
        Content,  // its content's size hint (Problems: a line for "No problems", a few rows)
        Rows,     // a few rows: the height it last had, else the Runs dock's table and buttons
        Tall,     // a graph or two sides: the height it last had, else two fifths of the window
    };
    struct Dock {
        QWidget* content = nullptr;
        QString title;
        QString name;                    // the object name, which the saved window state knows it by
        bool bottom = true;              // else left of the editors
        QDockWidget* tabWith = nullptr;  // a tab beside this dock
        bool closed = false;             // until asked for
        Height height = Height::Rows;
    };

    explicit DockLayout(QMainWindow* window);

    QDockWidget* add(const Dock& dock);
    QList<QDockWidget*> bottomDocks() const { return bottom_; }
    // Shown and in front of its tabs.
    static void bringForward(QDockWidget* dock);
    // The bottom dock in front takes its height: Problems its content's, the others the height
    // they last had (a default at first). Nothing while paused (presenter mode hides them).
    void fit(QDockWidget* dock);
    void setPaused(bool paused) { paused_ = paused; }
    // A side dock that is read (the Lesson dock) comes forward at least `wanted` pixels wide, or
    // narrower where the window cannot spare that: the editors and outputs keep kCentralRoom.
    // One the user made wider keeps its width.
    void widen(QDockWidget* dock, int wanted);
    static constexpr int kCentralRoom = 760;

    // The settings key of the window's geometry on `screen`: each screen (by name and size) has
    // its own, so a laptop's size is not a projector's.
    static QString geometryKey(const QScreen* screen);
    // First start: the available part of the screen the mouse is on, the editors and outputs
    // sharing the width, the docks small; then the size and layout saved for that screen,
    // maximised if it was closed maximised there.
    void restore(QSplitter* central, QDockWidget* leftDock, QDockWidget* bottomDock);
    void save();
    // No larger than the available part of the screen the window is on, and on it.
    void fitToScreen();
    // Once the window is shown: its frame is known, and a move to another screen fits that one.
    void shown();
    // The local GPU is known: on a first start, `runs` comes forward only where kernels can run.
    void placeRuns(QDockWidget* runs, bool gpu);
    // Before the window goes: hiding the docks then would ask for their layout, half gone.
    void detach();

private:
    QMainWindow* window_;
    QList<QDockWidget*> bottom_;
    QHash<QDockWidget*, Height> heights_;
    QHash<QDockWidget*, int> lastHeights_;  // each bottom dock's height when it was last in front
    bool paused_ = false;
    bool firstLayout_ = false;  // no window layout saved: the docks are placed for this machine
    bool shown_ = false;
};

}  // namespace nvpg::gui
