#pragma once

#include <memory>

#include <QFuture>
#include <QList>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include "core/engine/Remote.h"
#include "core/toolkit/Toolkit.h"
#include "gui/compile/SupervisedEngine.h"

class QLabel;
class QStatusBar;

namespace nvpg::engine {
class CallCancel;
}

namespace nvpg::gui {

// The CUDA toolkit the window compiles with, and the local GPU: located here (no library is
// mapped on the UI thread), probed in an engine process off it, named in the status bar's
// libraries and GPU labels. The probe and the GPU query run on this object's own threads, which
// end (cancelled, then waited for) when it goes.
class ToolkitStatus : public QObject {
    Q_OBJECT

public:
    explicit ToolkitStatus(QObject* parent = nullptr);
    ~ToolkitStatus() override;

    // What the engine is asked to be and where the toolkit is looked for: from the settings.
    static EngineSettings engineSettings();
    static toolkit::SearchConfig searchConfig();
    // What a compile is asked for with this toolkit: PTX only without nvJitLink. SASS is always
    // asked for: an engine without nvdisasm says why in the result, and the outputs, part of the
    // result cache's key, stay the same before and after the probe answers.
    static unsigned outputsFor(const toolkit::Toolkit* toolkit);
    // The same for an engine on another machine, as it described itself.
    static unsigned outputsFor(const engine::FarToolkit& far);
    // Why the SASS pane stays empty with this toolkit; empty when nvdisasm is there or not known yet.
    static QString sassMissing(const toolkit::Toolkit* toolkit);
    // The CUDA major release for the arch list, without opening nvJitLink here: the probe's
    // answer, else the release recorded beside libNVVM, else 13 until the probe says.
    static int knownCudaMajor(const toolkit::Toolkit& toolkit);

    std::shared_ptr<const toolkit::Toolkit> toolkit() const { return toolkit_; }
    // With an engine on another machine (Settings ▸ Engine): what it said of itself once it
    // answered (null before, and when it could not be reached: problem() says why).
    const engine::FarToolkit* farToolkit() const { return far_ ? &*far_ : nullptr; }
    bool farEngine() const { return farEnd_.has_value(); }
    // Why there is no toolkit (not found, or its libNVVM unusable); empty when there is one.
    QString problem() const { return problem_; }

    // Locates the toolkit the settings name and starts its probe (probed() tells the answer).
    void load();
    // Asks the driver for the local GPU off the UI thread (gpuKnown() tells the answer).
    void queryGpu();
    // The libraries and GPU labels, added to `bar`'s permanent widgets.
    void addLabels(QStatusBar* bar);
    // The libraries label as the toolkit stands now.
    void showLibraries();

signals:
    // The probe answered: the toolkit() is probed, or there is none and problem() says why.
    void probed();
    // The local GPU: `archLabel` names its arch as the default, when it has one.
    void gpuKnown(bool gpu, const QString& archLabel);

private:
    void probe();
    void probeAnswered(quint64 probe, std::shared_ptr<const toolkit::Toolkit> answer, const QString& problem);

    void probeFar();

    std::shared_ptr<const toolkit::Toolkit> toolkit_;
    std::optional<engine::FarEnd> farEnd_;
    std::optional<engine::FarToolkit> far_;
    QString problem_;
    quint64 probe_ = 0;                                // the probe whose answer is awaited
    bool probedToolkit_ = false;                       // toolkit_ carries what the engine said of it
    std::shared_ptr<engine::CallCancel> probeCancel_;  // ends the probe's engine with this object
    QLabel* libsLabel_ = nullptr;
    QLabel* gpuLabel_ = nullptr;
    // Waited for when this object goes, so that a probe (nvdisasm --version, 2 s at most) ends its
    // processes, all of its group, before the app does: at the app's exit only its direct child
    // would be killed, and what that started would be left behind. Declared last: it goes first.
    QThreadPool threads_;
};

}  // namespace nvpg::gui
