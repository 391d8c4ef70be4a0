#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

#include "gui/compile/Engine.h"

class QDockWidget;
class QLabel;
class QStatusBar;
class QTimer;
class QToolButton;

namespace nvpg::gui {

class ComparePanel;
class CompileController;
class EditorArea;
class HistoryDialog;
class LineMapLinks;
class OutputView;
class ProblemsPanel;
class RunPanel;

// What the compile says, where a person looks for it: the status bar's progress, Cancel and
// History (N) (the session's compiles, and the timeline it opens), the outputs, Problems and the
// editors' marks. Each reply the controller shows is fanned out here.
class CompileStatus : public QObject {
    Q_OBJECT

public:
    struct Views {
        OutputView* output;
        LineMapLinks* links;
        RunPanel* runs;
        ProblemsPanel* problems;
        QDockWidget* problemsDock;
        EditorArea* editors;
        ComparePanel* compare;
        QDockWidget* compareDock;
    };
    CompileStatus(QStatusBar* bar, CompileController* controller, const Views& views);

    // The last reply shown.
    const EngineReply& lastReply() const { return lastReply_; }
    QToolButton* historyButton() const { return historyButton_; }
    HistoryDialog* historyDialog() const { return historyDialog_; }
    void showHistory();
    // A new workspace: what the status bar and the marks said was of the one before.
    void clear(bool statusToo);
    // Fixes of these kinds are not offered (a lesson's step teaches that mend): Problems and the
    // editors show the diagnostics without them, from the reply on screen on.
    void setHiddenFixes(const QStringList& kinds);

private:
    void showReply(const EngineReply& reply);
    void showPtx(const EngineReply& reply);
    void showVerified(const EngineReply& reply);
    // Problems and the editors show the reply's diagnostics, counted into errors and warnings;
    // without a result its error is shown instead (the status bar: notDone with it) and false.
    bool showDiagnostics(const EngineReply& reply, const QString& notDone, int& errors, int& warnings);
    void showProgress();

    CompileController* controller_;
    Views views_;
    QLabel* busyLabel_;
    QToolButton* cancelButton_;
    QToolButton* historyButton_;
    HistoryDialog* historyDialog_ = nullptr;
    QTimer* busyTicker_;
    EngineReply lastReply_;
    std::vector<std::string> hiddenFixes_;
    quint64 diagnosticsTurn_ = 0;  // the editors' marks of a large reply come a turn later: only the newest
};

}  // namespace nvpg::gui
