#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "gui/common/BackgroundWork.h"

class QLineEdit;
class QTreeWidget;
class QPlainTextEdit;
class QPushButton;

class QCheckBox;
class QRadioButton;
class QSpinBox;

namespace nvpg::toolkit {
struct FoundToolkit;
}

namespace nvpg::engine {
class CallCancel;
struct FarEnd;
}  // namespace nvpg::engine

namespace nvpg::gui {

// Preferences: the CUDA toolkit to use (empty: search as nvpg does), shown with what was found
// there. Stored in QSettings under "toolkit/cudaPath". Also the engine's and the font size's.
class SettingsDialog : public QDialog {
    Q_OBJECT

public:
    explicit SettingsDialog(QWidget* parent = nullptr);
    ~SettingsDialog() override;
    static QString cudaPath();  // the stored setting
    // Toolkit folders the user added for variants (toolkit roots or pip nvidia folders), beside
    // those the search finds; stored under "toolkit/extraPaths".
    static QStringList extraToolkitPaths();
    static void setExtraToolkitPaths(const QStringList& paths);
    // Whether compiles and runs happen in the app's process rather than an engine process.
    static bool inProcessEngine();
    // Where the engine runs: on this machine (none), or on the machine Settings ▸ Engine names,
    // over the user's ssh ("engine/on", "engine/remoteNvpg").
    static std::optional<engine::FarEnd> farEnd();
    // What "Test connection" says of `far`: the far machine, its nvpg, toolkit and GPUs, or
    // exactly what failed. Blocks for the connection (ssh's connect timeout bounds it); a
    // cancelled `cancel` ends it at once.
    static QString testConnection(const engine::FarEnd& far, const engine::CallCancel* cancel = nullptr);
    static double compileTimeoutSeconds();  // default 300
    // Points for the text of every editor and output pane (default: the system's fixed font),
    // e.g. larger for a projector; the window's zoom adds to it.
    static int editorFontSize();

    // The path being edited (not stored until OK).
    QString path() const;
    void setPath(const QString& path);
    // What the preview shows now, and whether a search is still pending or running.
    QString previewText() const;
    bool previewPending() const;

    QLineEdit* pathEdit() const { return path_; }
    // Every toolkit found on this machine (the search's places, and the folders added here), with
    // its release; filled in the background. Added folders can be removed again.
    QTreeWidget* toolkitList() const { return toolkits_; }
    bool toolkitsListed() const { return toolkitsListed_; }
    void addToolkitFolder(const QString& folder);  // as "Add Folder…" does
    QPushButton* browseButton() const { return browse_; }
    // Settings ▸ Engine: "On this machine" / "On another machine over SSH", its destination and
    // far nvpg, and what Test connection found (connectionTested() when it answered).
    QRadioButton* farEngineButton() const { return engineFar_; }
    QLineEdit* farDestinationEdit() const { return farDest_; }
    QLineEdit* farNvpgEdit() const { return farNvpg_; }
    QPushButton* testConnectionButton() const { return testConnection_; }
    QString connectionText() const;

    // The preview's text for a toolkit path (empty: the default search). Loads the libraries it
    // finds, so it can take a moment; safe to call from any thread.
    // `cancel` ends the engine process that opens the libraries (the dialog closing).
    static QString describeToolkit(const QString& path, const engine::CallCancel* cancel = nullptr);

public slots:
    void accept() override;

signals:
    // The preview shows the search for `path`.
    void previewUpdated(const QString& path);
    void toolkitsUpdated();
    void connectionTested();

private:
    void browse();
    void startSearch();
    void searchDone(const QString& path, const QString& text);

    QLineEdit* path_ = nullptr;
    QCheckBox* inProcess_ = nullptr;
    QRadioButton* engineHere_ = nullptr;
    QRadioButton* engineFar_ = nullptr;
    QLineEdit* farDest_ = nullptr;
    QLineEdit* farNvpg_ = nullptr;
    QPushButton* testConnection_ = nullptr;
    QPlainTextEdit* connection_ = nullptr;
    std::shared_ptr<engine::CallCancel> testCancel_;  // ends the test's ssh (the dialog closing)
    void startConnectionTest();
    std::optional<engine::FarEnd> farEndEdited(QString* problem) const;
    QSpinBox* compileTimeout_ = nullptr;
    QSpinBox* fontSize_ = nullptr;
    QPushButton* browse_ = nullptr;
    QPlainTextEdit* preview_ = nullptr;
    QTreeWidget* toolkits_ = nullptr;
    QStringList extraPaths_;  // added here, stored on OK
    bool toolkitsListed_ = false;
    quint64 listings_ = 0;  // the newest listing asked for
    void listToolkits();
    void showToolkits(const std::vector<toolkit::FoundToolkit>& found);
    QTimer debounce_;
    std::shared_ptr<engine::CallCancel> searchCancel_;  // stops the search's engine process
    // The preview's search: the newest path only. Last: joined before the members above go.
    LatestJob<std::pair<QString, QString>> searches_{this};  // path, text
    LatestJob<QString> tests_{this};                         // what Test connection found
};

}  // namespace nvpg::gui
