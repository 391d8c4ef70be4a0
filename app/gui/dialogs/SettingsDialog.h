#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <utility>
#include <vector>

#include "gui/common/BackgroundWork.h"

class QLineEdit;
class QTreeWidget;
class QPlainTextEdit;
class QPushButton;

class QCheckBox;
class QSpinBox;

namespace nvpg::toolkit {
struct FoundToolkit;
}

namespace nvpg::engine {
class CallCancel;
}

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

private:
    void browse();
    void startSearch();
    void searchDone(const QString& path, const QString& text);

    QLineEdit* path_ = nullptr;
    QCheckBox* inProcess_ = nullptr;
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
};

}  // namespace nvpg::gui
