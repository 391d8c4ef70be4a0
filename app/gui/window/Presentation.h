#pragma once

#include <memory>
#include <optional>

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QRect>

#include "core/inspect/LineMap.h"

class QAction;
class QMainWindow;
class QMenu;
class QSplitter;

namespace nvpg::gui {

class CfgPanel;
class ComparePanel;
class DockLayout;
class EditorArea;
class OutputView;

// How big the window's texts are and what it shows on a projector: the zoom (View > Zoom In,
// Out, Reset: points added to every text, the editors' and panes', headers, tables, docks,
// popups) and presenter mode (View > Presenter, F11: the IR and one output side by side, full
// screen, docks hidden, every text larger; leaving it puts back what it changed).
class Presentation : public QObject {
    Q_OBJECT

public:
    Presentation(QMainWindow* window, QSplitter* central, EditorArea* editors, OutputView* output,
                 ComparePanel* compare, CfgPanel* cfg, DockLayout* docks);

    int zoom() const { return zoom_; }
    void zoomBy(int points);
    void resetZoom();
    // The font-size setting plus the window's zoom, on every editor and output pane; the zoom on
    // every other text of the window.
    void applyZoom();

    void setPresenterMode(bool on);
    bool presenterMode() const { return saved_ != nullptr; }
    QAction* presenterAction() const { return presenterAction_; }
    // The output presenter mode shows beside the IR, kept in the settings.
    void setPresenterOutput(inspect::MappedOutput output);
    inspect::MappedOutput presenterOutput() const { return presenterOutput_; }

    // View menu entries: Zoom In, Zoom Out, Reset Zoom, then Presenter and its output's submenu.
    void addViewActions(QMenu* view);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QMainWindow* window_;
    QSplitter* central_;
    EditorArea* editors_;
    OutputView* output_;
    ComparePanel* compare_;
    CfgPanel* cfg_;
    DockLayout* docks_;
    int zoom_ = 0;
    double uiPointSize_ = 0;  // the size applyZoom last gave the window's texts
    // What presenter mode changed, to put back; null outside it.
    struct Saved {
        QByteArray state;
        QRect geometry;
        Qt::WindowStates windowState;
        int zoom = 0;
        QList<int> central;
        bool sassTab = false;
    };
    std::unique_ptr<Saved> saved_;
    inspect::MappedOutput presenterOutput_ = inspect::MappedOutput::Ptx;
    QAction* presenterAction_ = nullptr;
    QList<QAction*> presenterOutputActions_;
};

}  // namespace nvpg::gui
