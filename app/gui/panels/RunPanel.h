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
    QComboBox* kernelCombo() const { return kernel_; }
    QComboBox* fromCombo() const { return from_; }
    QComboBox* savedCombo() const { return saved_; }
    QLineEdit* nameEdit() const { return name_; }
    QLineEdit* gridEdit() const { return grid_; }
    QLineEdit* blockEdit() const { return block_; }
    QSpinBox* sharedSpin() const { return shared_; }
    QSpinBox* repeatSpin() const { return repeat_; }
    QDoubleSpinBox* timeoutSpin() const { return timeout_; }
    ArgTableModel* argModel() const { return args_; }
    QTableView* argView() const { return argView_; }
    QLabel* messageLabel() const { return message_; }
    QLabel* noteLabel() const { return note_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* saveButton() const { return save_; }
    QPushButton* deleteButton() const { return delete_; }
    QLabel* summaryLabel() const { return summary_; }
    QTabWidget* bufferTabs() const { return buffers_; }
    RunHistory* history() const { return history_; }

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
    void buildUi();
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
    QComboBox* saved_;
    QLineEdit* name_;
    QPushButton* save_;
    QPushButton* delete_;
    QComboBox* kernel_;
    QComboBox* from_;
    QLineEdit* grid_;
    QLineEdit* block_;
    QSpinBox* shared_;
    QSpinBox* repeat_;
    QDoubleSpinBox* timeout_;
    ArgTableModel* args_;
    QTableView* argView_;
    QLabel* message_;
    QLabel* note_;
    QPushButton* run_;
    QLabel* summary_;
    QTabWidget* buffers_;
    RunHistory* history_;
    std::function<bool(const QString&)> askOutside_;
};

}  // namespace nvpg::gui
