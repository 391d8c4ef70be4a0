#include "gui/window/ToolkitStatus.h"

#include <QApplication>
#include <QLabel>
#include <QPointer>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

#include "core/engine/Compiler.h"
#include "core/engine/ToolkitProbe.h"
#include "core/gpu/Devices.h"
#include "core/nvvm/Options.h"
#include "core/pipeline/Pipeline.h"
#include "gui/dialogs/SettingsDialog.h"

namespace nvpg::gui {

ToolkitStatus::ToolkitStatus(QObject* parent) : QObject(parent) {
    // A probe, a GPU query and the probe of a toolkit chosen meanwhile may all be on their way.
    threads_.setMaxThreadCount(4);
}

ToolkitStatus::~ToolkitStatus() {
    if (probeCancel_) probeCancel_->cancel();  // the probe's engine ends with the window
    threads_.waitForDone();
}

EngineSettings ToolkitStatus::engineSettings() {
    // The engine process is this app (--engine), unless the settings ask for in-process work.
    EngineSettings s = EngineSettings::defaults();
    if (SettingsDialog::inProcessEngine()) s.command.clear();
    s.compileTimeoutSeconds = SettingsDialog::compileTimeoutSeconds();
    const auto path = SettingsDialog::cudaPath();
    if (!path.isEmpty()) s.cudaPath = path.toStdString();
    if (auto far = SettingsDialog::farEnd()) {
        // The far nvpg's own toolkit search decides there; nothing runs in this process.
        s.cudaPath.reset();
        s.command.clear();
        if (auto launcher = engine::engineLauncher("engine", *far))
            s.command = std::move(launcher->argv);
        else
            s.farProblem = launcher.error().message;
        s.far = std::move(far);
    }
    return s;
}

toolkit::SearchConfig ToolkitStatus::searchConfig() {
    toolkit::SearchConfig config;
    const auto path = SettingsDialog::cudaPath();
    if (!path.isEmpty()) config.explicitRoot = path.toStdString();
    return config;
}

unsigned ToolkitStatus::outputsFor(const toolkit::Toolkit* toolkit) {
    // Nothing is opened or run here: until the probe answered, nvJitLink is taken as there when
    // its file is.
    unsigned outputs = pipeline::kPtx | pipeline::kFigures;
    if (!toolkit || toolkit->hasNvJitLink()) outputs |= pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin;
    if (toolkit) outputs |= pipeline::kSass | pipeline::kLiveRegisters | pipeline::kSassGraph;
    return outputs;
}

unsigned ToolkitStatus::outputsFor(const engine::FarToolkit& far) {
    unsigned outputs =
        pipeline::kPtx | pipeline::kFigures | pipeline::kSass | pipeline::kLiveRegisters | pipeline::kSassGraph;
    if (far.hasNvJitLink) outputs |= pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin;
    return outputs;
}

QString ToolkitStatus::sassMissing(const toolkit::Toolkit* toolkit) {
    if (!toolkit || !toolkit->probed() || toolkit->nvdisasm()) return {};
    // Core's one sentence says what is missing and how to get it.
    return QString::fromStdString(toolkit->nvdisasmReport().problem);
}

int ToolkitStatus::knownCudaMajor(const toolkit::Toolkit& toolkit) {
    if (toolkit.probed()) return toolkit.cudaMajor();
    const auto& release = toolkit.release();
    return release && release->major() > 0 ? release->major() : 13;
}

void ToolkitStatus::load() {
    // Only located: the files are named, no library is mapped here (a libNVVM that crashes or
    // hangs as it loads would take the app down). Compiles open it in their engine process, and
    // probe() asks one for the versions. Compiling in the app's own process (Settings, for
    // debugging) maps them here, as asked, for the compile thread.
    probedToolkit_ = false;
    farEnd_ = SettingsDialog::farEnd();
    far_.reset();
    if (farEnd_) {
        // No toolkit here: the far engine describes its own.
        toolkit_.reset();
        problem_.clear();
        probeFar();
        return;
    }
    auto tk = SettingsDialog::inProcessEngine() ? toolkit::Toolkit::load(searchConfig())
                                                : toolkit::Toolkit::locate(searchConfig());
    if (tk) {
        toolkit_ = *tk;
        problem_.clear();
        probe();
    } else {
        toolkit_.reset();
        problem_ = QString::fromStdString(tk.error().message);
        if (probeCancel_) probeCancel_->cancel();
        probeCancel_.reset();
        ++probe_;  // an answer still to come is for another toolkit
    }
}

void ToolkitStatus::probe() {
    if (probeCancel_) probeCancel_->cancel();  // the toolkit before Settings changed it
    probeCancel_ = std::make_shared<engine::CallCancel>();
    const quint64 probe = ++probe_;
    QPointer<ToolkitStatus> self(this);
    (void)QtConcurrent::run(
        &threads_, [self, probe, cancel = probeCancel_, config = searchConfig(), settings = engineSettings()] {
            // A toolkit object of its own: what the probe adopts is never written while another
            // thread reads it.
            const bool here = settings.command.empty();
            auto tk = here ? toolkit::Toolkit::load(config) : toolkit::Toolkit::locate(config);
            std::shared_ptr<toolkit::Toolkit> probed;
            QString problem;
            if (!tk) {
                problem = QString::fromStdString(tk.error().message);
            } else {
                probed = *tk;
                if (here) {
                    probed->adoptProbe(probed->nvvmReport(), probed->nvJitLinkReport(), probed->cudaMajor());
                } else if (auto st = engine::probeToolkit(*probed, settings.cudaPath, settings.command,
                                                          settings.compileTimeoutSeconds, cancel.get());
                           !st) {
                    problem = QString::fromStdString(st.error().message);
                }
                // nvdisasm --version (support::runProbe, bounded) and the release files, asked here.
                if (problem.isEmpty()) {
                    (void)probed->nvdisasmReport();
                    (void)probed->release();
                }
            }
            if (cancel->cancelled()) return;
            QMetaObject::invokeMethod(qApp, [self, probe, probed, problem] {
                if (self) self->probeAnswered(probe, probed, problem);
            });
        });
}

void ToolkitStatus::probeFar() {
    if (probeCancel_) probeCancel_->cancel();
    probeCancel_ = std::make_shared<engine::CallCancel>();
    const quint64 probe = ++probe_;
    QPointer<ToolkitStatus> self(this);
    (void)QtConcurrent::run(&threads_, [self, probe, cancel = probeCancel_, settings = engineSettings()] {
        // A connection of its own, ended once the far engine described itself.
        support::Result<engine::FarToolkit> far =
            support::makeError(support::ErrorKind::Environment, settings.farProblem);
        if (!settings.command.empty()) {
            engine::Compiler compiler(nullptr, std::nullopt, settings.command, settings.compileTimeoutSeconds);
            compiler.setFarEnd(*settings.far);
            far = compiler.describeFar(/*withGpus=*/true, cancel.get());
        }
        if (cancel->cancelled()) return;
        QMetaObject::invokeMethod(qApp, [self, probe, far] {
            if (!self || probe != self->probe_) return;
            self->probeCancel_.reset();
            if (far) {
                self->far_ = *far;
                self->problem_.clear();
            } else {
                self->problem_ = tr("The engine on %1: %2. File ▸ Settings… ▸ Engine ▸ On this machine compiles here.")
                                     .arg(QString::fromStdString(self->farEnd_->destination),
                                          QString::fromStdString(far.error().message));
            }
            self->showLibraries();
            emit self->probed();
        });
    });
}

void ToolkitStatus::probeAnswered(quint64 probe, std::shared_ptr<const toolkit::Toolkit> answer,
                                  const QString& problem) {
    if (probe != probe_) return;  // Settings chose another toolkit meanwhile
    probeCancel_.reset();
    if (!problem.isEmpty()) {
        // Its libNVVM cannot be loaded, so no compile can use it.
        toolkit_.reset();
        problem_ = problem;
    } else {
        toolkit_ = std::move(answer);
        probedToolkit_ = true;
    }
    showLibraries();
    emit probed();
}

void ToolkitStatus::queryGpu() {
    if (!gpuLabel_) return;
    if (farEnd_) {
        // The far machine's GPUs, as its engine described them.
        const auto host = far_ ? QString::fromStdString(far_->host) : QString::fromStdString(farEnd_->destination);
        if (far_ && !far_->gpus.empty()) {
            const auto& d = far_->gpus.front();
            gpuLabel_->setText(tr("%1 on %2").arg(QString::fromStdString(d.name), host));
            gpuLabel_->setToolTip(tr("compute capability %1.%2, %3 GiB, on %4 over ssh")
                                      .arg(d.ccMajor)
                                      .arg(d.ccMinor)
                                      .arg(d.totalMemory / double(1 << 30), 0, 'f', 1)
                                      .arg(host));
            emit gpuKnown(true, tr("default: %1").arg(QString::fromStdString(engine::farDefaultArch(*far_))));
        } else {
            gpuLabel_->setText(tr("no GPU on %1").arg(host));
            gpuLabel_->setToolTip(far_ ? QString::fromStdString(far_->noGpuReason) : problem_);
            emit gpuKnown(false, {});
        }
        return;
    }
    gpuLabel_->setText(tr("GPU: looking…"));
    if (!toolkit_) {
        gpuLabel_->setText(tr("no GPU"));
        emit gpuKnown(false, {});
        return;
    }
    // cuInit can take a while: ask off the UI thread.
    QPointer<ToolkitStatus> self(this);
    (void)QtConcurrent::run(&threads_, [self, tk = toolkit_] {
        auto devices = gpu::listDevices(*tk);
        QString label, tip, archLabel;
        if (devices && !devices->empty()) {
            const auto& d = devices->front();
            label = QString::fromStdString(d.name);
            tip = tr("compute capability %1.%2, %3 GiB")
                      .arg(d.ccMajor)
                      .arg(d.ccMinor)
                      .arg(d.totalMemory / double(1 << 30), 0, 'f', 1);
            if (auto a = nvvm::archForComputeCapability(d.ccMajor, d.ccMinor, tk->cudaMajor()))
                archLabel = tr("default: %1 (the local GPU's)").arg(QString::fromStdString(*a));
        } else {
            label = tr("no GPU");
            tip = QString::fromStdString(devices ? std::string("the driver sees no GPU") : devices.error().message);
        }
        const bool gpu = devices && !devices->empty();
        QMetaObject::invokeMethod(qApp, [self, label, tip, archLabel, gpu] {
            if (!self) return;
            self->gpuLabel_->setText(label);
            self->gpuLabel_->setToolTip(tip);
            emit self->gpuKnown(gpu, archLabel);
        });
    });
}

void ToolkitStatus::addLabels(QStatusBar* bar) {
    libsLabel_ = new QLabel(bar);
    libsLabel_->setObjectName("libsStatus");
    gpuLabel_ = new QLabel(bar);
    gpuLabel_->setObjectName("gpuStatus");
    bar->addPermanentWidget(libsLabel_);
    bar->addPermanentWidget(gpuLabel_);
    showLibraries();
}

void ToolkitStatus::showLibraries() {
    if (!libsLabel_) return;
    if (farEnd_) {
        const auto dest = QString::fromStdString(farEnd_->destination);
        if (!far_) {
            libsLabel_->setText(problem_.isEmpty() ? tr("connecting to %1…").arg(dest)
                                                   : tr("engine on %1 unreachable — see Problems").arg(dest));
            libsLabel_->setToolTip(problem_);
            libsLabel_->setStyleSheet(problem_.isEmpty() ? QString() : QStringLiteral("color: #b00020;"));
            return;
        }
        QStringList parts;
        for (const auto& r : far_->libraries) {
            if (r.name == "CUDA driver") continue;
            parts << (r.found ? QStringLiteral("%1 %2").arg(QString::fromStdString(r.name),
                                                            r.name == "libdevice"
                                                                ? QStringLiteral("✓")
                                                                : QString::fromStdString(r.version).section(' ', 0, 0))
                              : tr("%1 missing").arg(QString::fromStdString(r.name)));
        }
        libsLabel_->setText(tr("on %1: %2").arg(QString::fromStdString(far_->host), parts.join(" · ")));
        libsLabel_->setToolTip(QString::fromStdString(engine::describeFarMachine(*farEnd_, *far_)));
        libsLabel_->setStyleSheet({});
        return;
    }
    if (!toolkit_) {
        // Not found, or found and unusable (the probe's words: crashed, exited, hung as it loaded).
        libsLabel_->setText(problem_.startsWith("libNVVM (libnvvm.so.4) not found")
                                ? tr("libNVVM not found — File ▸ Settings… to point at a CUDA toolkit")
                                : tr("libNVVM unusable — File ▸ Settings… to point at a working CUDA toolkit"));
        libsLabel_->setToolTip(problem_);
        libsLabel_->setStyleSheet("color: #b00020;");
        return;
    }
    if (!probedToolkit_) {
        // Its versions come from the probe's engine; reports() would open them here.
        libsLabel_->setText(tr("libNVVM: loading…"));
        libsLabel_->setToolTip(QString::fromStdString(toolkit_->nvvmReport().path.string()));
        libsLabel_->setStyleSheet({});
        return;
    }
    QStringList parts, tips;
    for (const auto& r : toolkit_->reports()) {
        if (r.name == "CUDA driver") continue;
        parts << (r.found ? QStringLiteral("%1 %2").arg(
                                QString::fromStdString(r.name),
                                r.name == "libdevice" ? "✓" : QString::fromStdString(r.version).section(' ', 0, 0))
                          : QStringLiteral("%1 missing").arg(QString::fromStdString(r.name)));
        tips << (r.found
                     ? QStringLiteral("%1: %2 (%3) %4")
                           .arg(QString::fromStdString(r.name), QString::fromStdString(r.path.string()),
                                QString::fromStdString(r.via), QString::fromStdString(r.version))
                     : QStringLiteral("%1: %2").arg(QString::fromStdString(r.name), QString::fromStdString(r.problem)));
    }
    libsLabel_->setText(parts.join(" · "));
    libsLabel_->setToolTip(tips.join("\n"));
    libsLabel_->setStyleSheet({});
}

}  // namespace nvpg::gui
