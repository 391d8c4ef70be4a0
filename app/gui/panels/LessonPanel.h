#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <QFuture>
#include <QString>
#include <QStringList>
#include <QWidget>

#include "core/lesson/Course.h"
#include "core/lesson/Lesson.h"
#include "core/pipeline/CompileResult.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTextBrowser;
class QListWidget;
class QTimer;

namespace nvpg::gui {

class CompileController;
class Engine;
class WorkspaceDocument;
struct EngineReply;
struct RunReply;

// The Lesson dock: the open lesson's steps, the step's instructions (Markdown), its checks with a
// ✔ / ✘ / ○ each and the learner's message, and Check (Ctrl+Enter), Hint, Show solution (after a
// failed check), Reset step and Next. A check compiles the document as it is (the app's compile)
// and, where a check needs it and a GPU is there, runs the step's run configurations; the
// verdicts are core's (lesson::evaluate). The learner's progress (step, passed steps, hints, their
// own work per step) is kept per lesson in the user's data folder, so nothing they wrote is lost
// when they reset a step, look at a solution or move on.
class LessonPanel : public QWidget {
    Q_OBJECT

public:
    LessonPanel(Engine* engine, WorkspaceDocument* document, CompileController* controller, QWidget* parent = nullptr);
    ~LessonPanel() override;  // waits for a check's evaluation still running (it ends by itself)

    // Editor text into the document before a check.
    void setFlush(std::function<void()> flush) { flush_ = std::move(flush); }
    // Where the lesson came from when the document has no path of its own (a bundled lesson):
    // its check files (.npy) are found beside it. Also asks to go on from the saved progress.
    void setSourceFile(const QString& path, bool resume) {
        sourceFile_ = path;
        resume_ = resume;
    }
    // Where progress is kept (tests point it at a temporary folder).
    static QString progressDir();

    bool hasLesson() const { return lesson_.has_value(); }
    const lesson::Lesson* lesson() const { return lesson_ ? &*lesson_ : nullptr; }
    int step() const { return step_; }  // 1-based
    bool checking() const { return checking_; }
    const std::vector<lesson::CheckOutcome>& outcomes() const { return outcomes_; }
    const lesson::Progress& progress() const { return progress_; }
    QListWidget* checksView() const { return checks_; }
    QTextBrowser* instructionsView() const { return instructions_; }
    QLabel* statusLabel() const { return status_; }
    QPushButton* checkButton() const { return checkButton_; }
    QPushButton* cancelButton() const { return cancelButton_; }
    QPushButton* hintButton() const { return hintButton_; }
    QPushButton* solutionButton() const { return solutionButton_; }
    QPushButton* resetButton() const { return resetButton_; }
    QPushButton* nextButton() const { return nextButton_; }
    QComboBox* stepsBox() const { return steps_; }
    QCheckBox* teacherBox() const { return teacher_; }
    // The course's lesson after this one, once it is looked up (the Next button's at the last step).
    const std::optional<lesson::LessonEntry>& nextLesson() const { return next_; }
    // The width the step's instructions read well at: about 60 characters of text, or their widest
    // table or code block where that is wider (the window may not spare it all: then they scroll
    // sideways).
    int readingWidth() const;
    // How long the typing must pause before a checked step is checked again.
    static constexpr int kRecheckDelayMs = 800;

public slots:
    // The document was (re)loaded: show its lesson, or hide.
    void documentReloaded();
    void check();
    // Stops waiting for the check in flight (its compile, runs or verdicts): what it finds later
    // is dropped, and the dock says the check was cancelled.
    void cancelCheck();
    void showHint();
    void showSolution();
    void resetStep();
    void nextStep();
    void goToStep(int step);

signals:
    // A lesson was opened (true) or the workspace has none (false): the window shows the dock.
    void lessonChanged(bool hasLesson);
    // A check's verdicts are shown (all passed or not).
    void checked(bool allPassed);
    // The lesson could not be read: the window says why (the workspace itself stays open).
    void lessonError(const QString& message);
    // Next at the last step: the window opens this lesson (the course's next).
    void openLessonRequested(const QString& path);
    // The kinds of fix the current step hides (lesson::Step::hiddenFixes); empty without a lesson.
    void hiddenFixesChanged(const QStringList& kinds);
    // The course around the lesson was looked up (its next lesson, the files its checks compare with).
    void courseLookedUp();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void showStep();
    // The checklist as tall as its rows, up to half the dock.
    void fitChecks();
    // The course's next lesson and the output checks' references, off the UI thread.
    void lookUpCourse();
    // The buttons, the step's ✔ and the checks' verdicts, without the instructions (a check's end).
    void showControls();
    void showOutcomes();
    void onReply(const EngineReply& reply);
    void onLate(quint64 generation, std::shared_ptr<const pipeline::CompileResult> result);
    void onRunReplied(const RunReply& reply);
    void compiled(std::shared_ptr<const pipeline::CompileResult> result, const QString& error);
    // The verdicts are evaluated on a pool thread (a pattern over a PTX of megabytes takes a
    // while even in linear time), then shown by shown() if the check is still the one awaited.
    void finish();
    void shown(std::vector<lesson::CheckOutcome> outcomes);
    // The learner's state of the current step into the progress, then the progress to disk.
    void keepWork();
    void saveProgress();
    // Replaces the document's state with `state` (a step's start or solution, or saved work).
    void applyState(const workspace::Workspace& state);
    const lesson::Step& current() const { return lesson_->steps[size_t(step_ - 1)]; }

    Engine* engine_;
    WorkspaceDocument* document_;
    CompileController* controller_;
    std::function<void()> flush_;
    QString sourceFile_;
    bool resume_ = false;
    std::optional<lesson::Lesson> lesson_;
    lesson::Progress progress_;
    int step_ = 1;
    bool failedOnce_ = false;      // a check of this step failed: the solution may be shown
    bool applying_ = false;        // our own state change, not the learner's reload
    bool checkedHere_ = false;     // this step's state was checked: edits check it again
    bool recheckPending_ = false;  // an edit came while a check was in flight
    quint64 loadNumber_ = 0;       // the lesson's load: a look-up for an older one is dropped
    std::optional<lesson::LessonEntry> next_;
    QTimer* recheck_ = nullptr;

    // The check in flight: its number (a cancel or a new check moves on to the next number, so
    // that what an older one finds is dropped), the compile's generation, then the runs' ids.
    bool checking_ = false;
    quint64 checkNumber_ = 0;
    // Evaluations started and maybe still running: the destructor waits for them, as they read
    // their own copies of the step and the state but report to this panel.
    std::vector<QFuture<std::vector<lesson::CheckOutcome>>> evaluations_;
    quint64 awaited_ = 0;
    bool wantsLate_ = false;
    std::shared_ptr<const pipeline::CompileResult> result_;
    QString compileError_;
    std::vector<std::pair<quint64, QString>> runsAwaited_;  // id, run configuration
    lesson::Evidence evidence_;
    std::vector<lesson::CheckOutcome> outcomes_;

    QLabel* title_ = nullptr;
    QComboBox* steps_ = nullptr;
    QTextBrowser* instructions_ = nullptr;
    QListWidget* checks_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* checkButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QPushButton* hintButton_ = nullptr;
    QPushButton* solutionButton_ = nullptr;
    QPushButton* resetButton_ = nullptr;
    QPushButton* nextButton_ = nullptr;
    QCheckBox* teacher_ = nullptr;
};

}  // namespace nvpg::gui
