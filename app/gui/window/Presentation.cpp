#include "gui/window/Presentation.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QFontDatabase>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>

#include <Qsci/qsciscintilla.h>

#include "gui/dialogs/SettingsDialog.h"
#include "gui/editor/EditorArea.h"
#include "gui/output/OutputView.h"
#include "gui/panels/CfgPanel.h"
#include "gui/panels/ComparePanel.h"
#include "gui/window/DockLayout.h"

namespace nvpg::gui {

namespace {
// Presenter mode's zoom: points added to every text, on top of the window's zoom.
constexpr int kPresenterZoom = 4;
}  // namespace

Presentation::Presentation(QMainWindow* window, QSplitter* central, EditorArea* editors, OutputView* output,
                           ComparePanel* compare, CfgPanel* cfg, DockLayout* docks)
    : QObject(window),
      window_(window),
      central_(central),
      editors_(editors),
      output_(output),
      compare_(compare),
      cfg_(cfg),
      docks_(docks) {
    central_->installEventFilter(this);
    // F11: the key of full screen in browsers and editors, which presenter mode is.
    presenterAction_ = new QAction(tr("&Presenter"), this);
    presenterAction_->setShortcut(QKeySequence(Qt::Key_F11));
    presenterAction_->setObjectName("presenterAction");
    presenterAction_->setCheckable(true);
    presenterAction_->setStatusTip(tr("For a projector: the IR and one output full screen, docks hidden, larger text"));
    connect(presenterAction_, &QAction::triggered, this, &Presentation::setPresenterMode);
    presenterOutput_ = inspect::MappedOutput(std::clamp(QSettings().value("view/presenterOutput", 0).toInt(), 0, 2));
}

void Presentation::addViewActions(QMenu* view) {
    // One zoom for every editor and output pane, for a projector (File > Settings sets the base).
    auto* zoomIn = view->addAction(tr("Zoom &In"), this, [this] { zoomBy(1); });
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(tr("Ctrl+="))});
    view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, this, [this] { zoomBy(-1); });
    view->addAction(tr("&Reset Zoom"), QKeySequence(tr("Ctrl+0")), this, &Presentation::resetZoom);
    view->addSeparator();
    view->addAction(presenterAction_);
    auto* outputs = view->addMenu(tr("Presenter O&utput"));
    auto* group = new QActionGroup(this);
    for (const auto& [output, text] :
         std::vector<std::pair<inspect::MappedOutput, QString>>{{inspect::MappedOutput::Ptx, tr("&PTX")},
                                                                {inspect::MappedOutput::LtoPtx, tr("&LTO PTX")},
                                                                {inspect::MappedOutput::Sass, tr("&SASS")}}) {
        auto* a = outputs->addAction(text, this, [this, output = output] { setPresenterOutput(output); });
        a->setCheckable(true);
        a->setActionGroup(group);
        a->setChecked(output == presenterOutput_);
        presenterOutputActions_ << a;
    }
}

void Presentation::zoomBy(int points) {
    zoom_ += points;
    applyZoom();
}

void Presentation::resetZoom() {
    zoom_ = 0;
    applyZoom();
}

bool Presentation::eventFilter(QObject* watched, QEvent* event) {
    // In presenter mode the IR and the output share the width equally, whatever size full screen
    // gives the window.
    if (watched == central_ && event->type() == QEvent::Resize && saved_) {
        const int half = std::max(1, central_->width() / 2);
        central_->setSizes({half, half});
    }
    return QObject::eventFilter(watched, event);
}

void Presentation::setPresenterOutput(inspect::MappedOutput output) {
    presenterOutput_ = output;
    QSettings().setValue("view/presenterOutput", int(output));
    for (int i = 0; i < presenterOutputActions_.size(); ++i) presenterOutputActions_[i]->setChecked(i == int(output));
    if (saved_) output_->showOnly(output);
}

void Presentation::setPresenterMode(bool on) {
    if (on == presenterMode()) return;
    if (on) {
        saved_ = std::make_unique<Saved>();
        saved_->state = window_->saveState();
        saved_->geometry = window_->geometry();
        saved_->windowState = window_->windowState();
        saved_->zoom = zoom_;
        saved_->central = central_->sizes();
        saved_->sassTab = output_->sassTabShown();
        docks_->setPaused(true);
        for (auto* dock : window_->findChildren<QDockWidget*>()) dock->hide();
        output_->setDiffMode(false);
        output_->showOnly(presenterOutput_);
        window_->setWindowState(window_->windowState() | Qt::WindowFullScreen);
        zoom_ += kPresenterZoom;
        applyZoom();
        // The IR and the output halves of the screen.
        const int half = std::max(1, central_->width() / 2);
        central_->setSizes({half, half});
    } else {
        const auto saved = std::move(saved_);
        docks_->setPaused(false);
        output_->showOnly(std::nullopt);
        output_->showSassTab(saved->sassTab);
        zoom_ = saved->zoom;
        applyZoom();
        window_->setWindowState(saved->windowState);
        if (!(saved->windowState & (Qt::WindowMaximized | Qt::WindowFullScreen))) window_->setGeometry(saved->geometry);
        window_->restoreState(saved->state);
        central_->setSizes(saved->central);
    }
    const QSignalBlocker block(presenterAction_);
    presenterAction_->setChecked(on);
}

void Presentation::applyZoom() {
    const int base = SettingsDialog::editorFontSize() - QFontDatabase::systemFont(QFontDatabase::FixedFont).pointSize();
    // Scintilla ignores a zoom outside -10..20 points.
    zoom_ = std::clamp(zoom_, -10 - base, 20 - base);
    const int zoom = std::clamp(base + zoom_, -10, 20);
    editors_->setZoom(zoom);
    for (auto* pane : output_->findChildren<QsciScintilla*>())
        pane->SendScintilla(QsciScintillaBase::SCI_SETZOOM, zoom);
    for (auto* pane : compare_->findChildren<QsciScintilla*>())
        pane->SendScintilla(QsciScintillaBase::SCI_SETZOOM, zoom);
    cfg_->setZoom(zoom_);

    // Every other text by the window's zoom alone (the font-size setting is the editors'): pane
    // headers, kernel tables, the docks, the status bar; hover popups take their pane's.
    const double appSize = QApplication::font().pointSizeF();
    const double size = std::max(6.0, appSize + zoom_);
    const double before = uiPointSize_ > 0 ? uiPointSize_ : appSize;
    QList<QWidget*> roots{window_->centralWidget(), window_->statusBar()};
    for (auto* dock : window_->findChildren<QDockWidget*>()) roots << dock;
    // The texts that set a font of their own: those whose size does not follow their parent's
    // (a smaller caption) keep their ratio to the others.
    std::vector<std::pair<QWidget*, double>> own;
    for (auto* root : roots)
        for (auto* w : root->findChildren<QWidget*>())
            if (w->testAttribute(Qt::WA_SetFont) && !qobject_cast<QsciScintilla*>(w) &&
                !qobject_cast<QsciScintilla*>(w->parentWidget()))  // its viewport, its popups
                own.emplace_back(w, w->font().pointSizeF());
    for (auto* root : roots) {
        QFont f = root->font();
        f.setPointSizeF(size);
        root->setFont(f);
    }
    for (const auto& [w, was] : own) {
        if (size == before || w->font().pointSizeF() != was || was <= 0) continue;  // it followed
        QVariant ratio = w->property("nvpgFontRatio");
        if (!ratio.isValid()) {
            ratio = was / before;
            w->setProperty("nvpgFontRatio", ratio);
        }
        QFont f = w->font();
        f.setPointSizeF(std::max(4.0, ratio.toDouble() * size));
        w->setFont(f);
    }
    uiPointSize_ = size;
}

}  // namespace nvpg::gui
