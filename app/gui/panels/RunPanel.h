#pragma once

#include <functional>
#include <memory>

#include <QElapsedTimer>
#include <QHash>
#include <QWidget>

#include "core/nvvm/IrScan.h"
#include "core/pipeline/RunDraft.h"
#include "gui/compile/Engine.h"
#include "gui/panels/ArgTableModel.h"
#include "gui/panels/RunForm.h"
#include "gui/panels/RunHistory.h"

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QTimer;

namespace nvpg::gui {

class WorkspaceDocument;

// The Runs dock: which kernel to launch and how (grid, block, shared bytes, one SPEC per
// parameter, repeats, timeout, PTX or LTO cubin), the workspace's saved configurations, Run
// (Ctrl+R), and the results: kernel time and bandwidth, each copied-back buffer as a paged
// table and a plot, and the session's run history.
//
// It works from the compile replies the window shows (setCompiled) and sends runs through the
// engine, so a launch (or a kernel that hangs until its timeout) never blocks the UI thread.
// Everything that can be checked without a GPU is checked as the user types, with the same
// messages core gives, and Run stays disabled, saying why, until the launch can happen.
class RunPanel : public QWidget {
    Q_OBJECT

public:
    RunPanel(Engine* engine, WorkspaceDocument* document, QWidget* parent = nullptr);
    ~RunPanel() override;

    // Each compile reply the window shows. The kernels and their parameters come from the last
    // successful one; a failed one keeps them but disables Run until the next success.
    void setCompiled(const EngineReply& reply);
    void setGpuStatus(bool available, const QString& why);

    // The editors' configuration (arguments that do not parse are left out).
    gpu::RunConfig currentConfig() const;
    void loadConfig(const gpu::RunConfig& config);
    // What stops Run, one line each; empty when it can run.
    QStringList runBlockers() const { return blockers_; }
    // The configuration's own problems (shown under the table).
    QStringList problems() const { return problems_; }
    bool isBusy() const { return busy_; }
    double busySeconds() const;
    std::filesystem::path baseDir() const;

    QAction* runAction() const { return runAction_; }
    QComboBox* kernelCombo() const { return ui_.kernel; }
    QComboBox* fromCombo() const { return ui_.from; }
    QComboBox* savedCombo() const { return ui_.saved; }
    QLineEdit* nameEdit() const { return ui_.name; }
    QLineEdit* gridEdit() const { return ui_.grid; }
    QLineEdit* blockEdit() const { return ui_.block; }
    QSpinBox* sharedSpin() const { return ui_.shared; }
    QSpinBox* repeatSpin() const { return ui_.repeat; }
    QDoubleSpinBox* timeoutSpin() const { return ui_.timeout; }
    ArgTableModel* argModel() const { return args_; }
    QTableView* argView() const { return ui_.argView; }
    QLabel* messageLabel() const { return ui_.message; }
    QLabel* noteLabel() const { return ui_.note; }
    QPushButton* runButton() const { return ui_.run; }
    QPushButton* saveButton() const { return ui_.save; }
    QPushButton* deleteButton() const { return ui_.remove; }
    QLabel* summaryLabel() const { return ui_.summary; }
    QTabWidget* bufferTabs() const { return ui_.buffers; }
    RunHistory* history() const { return ui_.history; }

    // Asked before a run reads buffer files outside the workspace's folder (absolute paths, or
    // ones that climb out of it): true to read them. The answer holds for that workspace for the
    // rest of the session. A message box (Read / Don't Read) unless a test answers.
    void setOutsideFilesQuestion(std::function<bool(const QString& text)> ask) { askOutside_ = std::move(ask); }

    // "saxpy on NVIDIA H200: 0.0123 ms (median of 5), 32 KiB in, 32 KiB out, 5.2 GB/s"
    static QString summarize(const gpu::RunOutcome& outcome);
    static QString bytesText(size_t bytes);

public slots:
    void runNow();
    // Adds the editors' configuration to the workspace under the name field's name (the
    // kernel's when empty), replacing one of that name.
    bool saveConfig();
    void deleteConfig();  // the one the saved-configurations combo shows

signals:
    void busyChanged(bool busy);

private:
    // What the form's widgets do.
    void connectForm();
    void documentReloaded();
    void reloadSaved(const QString& select);
    bool loadSaved(int index);
    void chooseKernel(const QString& name);
    void rebuildKernelCombo();
    void rebuildRows(const QStringList& specs);
    ArgTableModel::Row prefill(const ptx::Param& param, const std::string& irType) const;
    // The kernel's define in the text modules (its parameters' IR types and names), if found.
    std::optional<nvvm::IrFunction> irDefinition(const std::string& kernel) const;
    const ptx::Function* currentKernel() const;
    pipeline::RunDraft draft() const;  // the editors' fields as typed
    void validate();
    void updateRunState();
    void onRunReplied(const RunReply& reply);
    void showRecord(const RunRecord& record);
    void clearResults();
    void setBusy(bool busy);
    // False (saying why) when `config` reads files outside the workspace's folder and the user
    // does not want them read.
    bool mayReadOutsideFiles(const gpu::RunConfig& config);

    Engine* engine_;
    WorkspaceDocument* document_;
    std::shared_ptr<const pipeline::CompileResult> compiled_;  // the last successful compile
    bool compileOk_ = false;                                   // the newest compile reply was a success
    QString compileProblem_;
    bool gpuOk_ = false;
    QString gpuWhy_;
    QString kernelName_;
    QHash<QString, QStringList> specsByKernel_;  // so that switching kernels back keeps edits
    QStringList problems_, blockers_;
    bool parses_ = false;  // every field parses: the configuration can be saved
    bool loading_ = false;

    bool busy_ = false;
    quint64 nextId_ = 0, inFlight_ = 0;
    gpu::RunConfig inFlightConfig_;
    QElapsedTimer clock_;
    QTimer* ticker_;

    QAction* runAction_;
    ArgTableModel* args_;
    RunForm ui_;
    std::function<bool(const QString&)> askOutside_;
};

}  // namespace nvpg::gui
