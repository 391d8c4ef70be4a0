#include "gui/panels/LessonPanel.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include <QAbstractTextDocumentLayout>
#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextTable>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/gpu/Npy.h"
#include "gui/common/BackgroundWork.h"
#include "gui/common/Text.h"
#include "gui/compile/CompileController.h"
#include "gui/compile/Engine.h"
#include "gui/document/WorkspaceDocument.h"

namespace nvpg::gui {

namespace {

// Run ids of the Lesson dock's runs: far from the Runs dock's, which counts up from 1.
constexpr quint64 kRunIdBase = quint64(1) << 48;

// A table's cells keep their lines whole: a table wider than the dock scrolls sideways, as a code
// block does, instead of breaking `@llvm.nvvm.read.ptx.sreg.ctaid.x()` into a column of pieces.
// The text around it still wraps.
void keepTablesWhole(QTextDocument* doc) {
    QTextCursor cursor(doc);
    for (auto* frame : doc->rootFrame()->childFrames()) {
        auto* table = qobject_cast<QTextTable*>(frame);
        if (!table) continue;
        for (int r = 0; r < table->rows(); ++r)
            for (int c = 0; c < table->columns(); ++c) {
                const auto cell = table->cellAt(r, c);
                for (auto block = cell.firstCursorPosition().block();
                     block.isValid() && block.position() <= cell.lastCursorPosition().position();
                     block = block.next()) {
                    cursor.setPosition(block.position());
                    auto format = block.blockFormat();
                    format.setNonBreakableLines(true);
                    cursor.setBlockFormat(format);
                }
            }
    }
}

}  // namespace

LessonPanel::LessonPanel(Engine* engine, WorkspaceDocument* document, CompileController* controller, QWidget* parent)
    : QWidget(parent), engine_(engine), document_(document), controller_(controller) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    title_ = new QLabel(this);
    title_->setObjectName("lessonTitle");
    title_->setWordWrap(true);
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    layout->addWidget(title_);
    auto* row = new QHBoxLayout;
    steps_ = new QComboBox(this);
    steps_->setObjectName("lessonSteps");
    steps_->setToolTip(tr("The lesson's steps (✔: done). Going to another step keeps your work in this one."));
    row->addWidget(steps_, 1);
    teacher_ = new QCheckBox(tr("Teacher"), this);
    teacher_->setObjectName("lessonTeacher");
    teacher_->setToolTip(
        tr("Every step's solution and Next at any time, to step through the reference states at a "
           "projector"));
    teacher_->setChecked(QSettings().value("lesson/teacher", false).toBool());
    row->addWidget(teacher_);
    layout->addLayout(row);
    instructions_ = new QTextBrowser(this);
    instructions_->setObjectName("lessonInstructions");
    instructions_->setOpenExternalLinks(true);
    layout->addWidget(instructions_, 4);
    checks_ = new QListWidget(this);
    checks_->setObjectName("lessonChecks");
    checks_->setWordWrap(true);
    checks_->setResizeMode(QListView::Adjust);
    checks_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    checks_->setSelectionMode(QAbstractItemView::NoSelection);
    // As tall as its rows (fitChecks), up to half the dock: the instructions get the rest.
    layout->addWidget(checks_);
    status_ = new QLabel(this);
    status_->setObjectName("lessonStatus");
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextBrowserInteraction);
    layout->addWidget(status_);
    auto* buttons = new QGridLayout;
    checkButton_ = new QPushButton(tr("Check"), this);
    checkButton_->setObjectName("lessonCheck");
    checkButton_->setToolTip(tr("Compile and check this step (Ctrl+Enter)"));
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setObjectName("lessonCancel");
    cancelButton_->setToolTip(tr("Stop waiting for this check; its verdicts are not shown"));
    cancelButton_->setEnabled(false);
    hintButton_ = new QPushButton(tr("Hint"), this);
    hintButton_->setObjectName("lessonHint");
    solutionButton_ = new QPushButton(tr("Show solution"), this);
    solutionButton_->setObjectName("lessonSolution");
    solutionButton_->setToolTip(
        tr("Replace your work with the step's reference solution (your work is kept: "
           "\"Back to my work\" returns to it)"));
    resetButton_ = new QPushButton(tr("Reset step"), this);
    resetButton_->setObjectName("lessonReset");
    resetButton_->setToolTip(tr("Start the step afresh (your work is kept: \"Back to my work\" returns to it)"));
    nextButton_ = new QPushButton(tr("Next ▸"), this);
    nextButton_->setObjectName("lessonNext");
    buttons->addWidget(checkButton_, 0, 0);
    buttons->addWidget(cancelButton_, 0, 1);
    buttons->addWidget(hintButton_, 0, 2);
    buttons->addWidget(nextButton_, 0, 3);
    buttons->addWidget(solutionButton_, 1, 0, 1, 2);
    buttons->addWidget(resetButton_, 1, 2, 1, 2);
    layout->addLayout(buttons);

    connect(checkButton_, &QPushButton::clicked, this, &LessonPanel::check);
    connect(cancelButton_, &QPushButton::clicked, this, &LessonPanel::cancelCheck);
    connect(hintButton_, &QPushButton::clicked, this, &LessonPanel::showHint);
    connect(solutionButton_, &QPushButton::clicked, this, &LessonPanel::showSolution);
    connect(resetButton_, &QPushButton::clicked, this, &LessonPanel::resetStep);
    connect(nextButton_, &QPushButton::clicked, this, &LessonPanel::nextStep);
    connect(steps_, &QComboBox::activated, this, [this](int index) { goToStep(index + 1); });
    connect(teacher_, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue("lesson/teacher", on);
        if (lesson_) showStep();
    });
    connect(status_, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link != "restore" || !lesson_) return;
        const auto it = progress_.work.find(-step_);
        if (it == progress_.work.end()) return;
        auto state = lesson::stateFromJson(it->second, document_->workspace());
        if (!state) return;
        progress_.work.erase(it);
        applyState(*state);
        status_->setText(tr("Your work is back."));
        saveProgress();
    });
    // Once a step has been checked, an edit checks it again when the typing pauses (the same
    // check as the button's: the compile on the compile thread, the verdicts on a pool thread).
    recheck_ = new QTimer(this);
    recheck_->setSingleShot(true);
    recheck_->setInterval(kRecheckDelayMs);
    connect(recheck_, &QTimer::timeout, this, [this] {
        if (!lesson_) return;
        if (checking_) {
            recheckPending_ = true;  // after the check in flight, which may predate the edit
            return;
        }
        check();
    });
    connect(document_, &WorkspaceDocument::changed, this, [this] {
        if (applying_ || !lesson_ || !checkedHere_) return;
        recheck_->start();
        if (!checking_) status_->setText(tr("Edited since the check: checking again when you pause…"));
    });
    connect(document_, &WorkspaceDocument::reloaded, this, &LessonPanel::documentReloaded);
    connect(controller_, &CompileController::replyShown, this, &LessonPanel::onReply);
    connect(controller_, &CompileController::lateShown, this, &LessonPanel::onLate);
    connect(engine_, &Engine::runReplied, this, &LessonPanel::onRunReplied);
    documentReloaded();
}

LessonPanel::~LessonPanel() {
    // Nothing may report to a panel that is gone; an evaluation is linear in the text and has no
    // way to block, so this wait is short.
    for (auto& f : evaluations_) f.waitForFinished();
}

int LessonPanel::readingWidth() const {
    // The step's widest table where it is wider than the text (its cells stay whole); code blocks
    // scroll sideways as they always did.
    int widest = instructions_->fontMetrics().averageCharWidth() * 60;
    auto* doc = instructions_->document();
    for (auto* frame : doc->rootFrame()->childFrames())
        if (qobject_cast<QTextTable*>(frame))
            widest = std::max(widest, int(std::ceil(doc->documentLayout()->frameBoundingRect(frame).width())));
    return widest + 2 * instructions_->frameWidth() + instructions_->verticalScrollBar()->sizeHint().width() +
           2 * int(doc->documentMargin()) + 12;
}

void LessonPanel::fitChecks() {
    // The rows' wrapped text at the list's width, measured here: the view's own item sizes lag
    // behind a change of its text or width.
    const QFontMetrics metrics = checks_->fontMetrics();
    const int width = std::max(1, checks_->viewport()->width() - 8);
    int height = 2 * checks_->frameWidth() + 4;
    for (int i = 0; i < checks_->count(); ++i)
        height +=
            metrics.boundingRect(QRect(0, 0, width, 1 << 20), Qt::TextWordWrap, checks_->item(i)->text()).height() + 2;
    const int row = metrics.lineSpacing();
    checks_->setFixedHeight(std::clamp(height, 3 * row, std::max(3 * row, this->height() / 2)));
}

void LessonPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // Once the layout has given the list its new width (its rows wrap to it).
    QMetaObject::invokeMethod(this, &LessonPanel::fitChecks, Qt::QueuedConnection);
}

QString LessonPanel::progressDir() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/lessons");
}

void LessonPanel::documentReloaded() {
    if (applying_) return;  // our own step change: the lesson stays
    checking_ = false;
    ++loadNumber_;  // what is still being looked up for the lesson before is dropped
    // Nothing said about the lesson before (its verdicts, "All 4 checks passed") is this one's.
    checkedHere_ = false;
    recheckPending_ = false;
    recheck_->stop();
    next_.reset();
    status_->clear();
    const auto& ws = document_->workspace();
    if (ws.lesson.is_null()) {
        const bool had = lesson_.has_value();
        lesson_.reset();
        sourceFile_.clear();
        outcomes_.clear();
        if (had) {
            emit hiddenFixesChanged({});
            emit lessonChanged(false);
        }
        return;
    }
    const QString file = !document_->path().isEmpty() ? document_->path() : sourceFile_;
    auto read =
        lesson::readLesson(ws, std::filesystem::path(file.isEmpty() ? std::string("lesson.nvpg") : file.toStdString()));
    if (!read) {
        lesson_.reset();
        outcomes_.clear();
        emit hiddenFixesChanged({});
        emit lessonError(qstr(read.error().message));
        emit lessonChanged(false);
        return;
    }
    // A lesson saved elsewhere by a learner still finds the check files of the one it came from.
    if (!sourceFile_.isEmpty() && !document_->path().isEmpty() && QFileInfo(sourceFile_).exists()) {
        read->folder = QFileInfo(sourceFile_).absolutePath().toStdString();
        for (auto& step : read->steps)
            for (auto& c : step.checks)
                if (c.kind == lesson::CheckKind::Output) c.equals = read->folder / c.equalsName;
    }
    lesson_ = std::move(*read);
    lookUpCourse();
    const auto dir = progressDir().toStdString();
    auto progress = lesson::readProgress(lesson::progressFile(dir, lesson_->id), lesson_->id);
    if (progress) {
        progress_ = std::move(*progress);
    } else {
        progress_ = {};
        progress_.id = lesson_->id;
    }
    if (!progress) status_->setText(qstr(progress.error().message));
    step_ = lesson_->current;
    failedOnce_ = false;
    outcomes_.clear();
    if (resume_ && progress_.step >= 1 && progress_.step <= int(lesson_->steps.size())) {
        step_ = progress_.step;
        if (const auto it = progress_.work.find(step_); it != progress_.work.end()) {
            if (auto state = lesson::stateFromJson(it->second, ws)) applyState(*state);
        } else if (step_ != lesson_->current) {
            applyState(current().start);
        }
    }
    resume_ = false;
    progress_.file = file.toStdString();
    progress_.step = step_;
    document_->setLessonStep(step_);
    saveProgress();
    showStep();
    emit lessonChanged(true);
}

void LessonPanel::lookUpCourse() {
    // Off the UI thread: it reads the files the output checks compare with and the course's
    // lessons. The lesson is a copy; what is found is applied if this lesson is still the one open.
    // The installed course first: a learner's copy of its lesson 1 saved in a folder of their own is
    // still lesson 1 of that course. Else the folder the lesson lies in (a teacher's course).
    std::vector<std::filesystem::path> dirs{lesson::lessonsDir()};
    if (!sourceFile_.isEmpty()) dirs.push_back(QFileInfo(sourceFile_).absolutePath().toStdString());
    if (!document_->path().isEmpty()) dirs.push_back(QFileInfo(document_->path()).absolutePath().toStdString());
    struct Found {
        std::optional<lesson::LessonEntry> next;
        nlohmann::ordered_json files;  // the "files" the lesson carries once its references are in
        std::vector<std::pair<std::shared_ptr<const std::string>, std::filesystem::path>> references;
    };
    runInBackground(
        this,
        [l = *lesson_, json = document_->workspace().lesson, dirs]() mutable {
            Found found;
            found.next = lesson::nextLesson(l.id, dirs);
            const auto embedded = lesson::embedReferences(json, l);
            if (embedded.changed) found.files = embedded.lesson["files"];
            lesson::findCourseReferences(l);
            for (const auto& step : l.steps)
                for (const auto& c : step.checks) found.references.emplace_back(c.reference, c.equals);
            return found;
        },
        [this, number = loadNumber_](Found found) {
            if (number != loadNumber_ || !lesson_) return;
            next_ = std::move(found.next);
            size_t i = 0;
            for (auto& step : lesson_->steps)
                for (auto& c : step.checks) {
                    if (i < found.references.size() && c.kind == lesson::CheckKind::Output && !c.reference)
                        std::tie(c.reference, c.equals) = found.references[i];
                    ++i;
                }
            // The files go into the document's lesson, so that a save anywhere carries them.
            if (!found.files.is_null()) {
                auto json = document_->workspace().lesson;
                json["files"] = std::move(found.files);
                document_->setLessonData(std::move(json));
            }
            showControls();
            emit courseLookedUp();
        });
}

void LessonPanel::showStep() {
    if (!lesson_) return;
    const auto& l = *lesson_;
    const auto& s = current();
    title_->setText(qstr(l.title));
    steps_->clear();
    for (size_t i = 0; i < l.steps.size(); ++i)
        steps_->addItem(QStringLiteral("%1%2. %3")
                            .arg(progress_.passed.count(int(i + 1)) ? QStringLiteral("✔ ") : QString())
                            .arg(i + 1)
                            .arg(qstr(l.steps[i].title)));
    steps_->setCurrentIndex(step_ - 1);
    // The author's headings two levels down: in a dock a third of the window wide, a level-1
    // heading would take the room of the text.
    QString body = qstr(s.instructions);
    static const QRegularExpression heading(QStringLiteral("(^|\n)(#{1,4}) "));
    body.replace(heading, QStringLiteral("\\1\\2## "));
    QString text = tr("**Step %1 of %2: %3**\n\n").arg(step_).arg(l.steps.size()).arg(qstr(s.title)) + body;
    const int shown =
        std::min<int>(progress_.hintsShown.count(step_) ? progress_.hintsShown.at(step_) : 0, int(s.hints.size()));
    for (int h = 0; h < shown; ++h) text += tr("\n\n**Hint %1.** ").arg(h + 1) + qstr(s.hints[size_t(h)]);
    instructions_->setMarkdown(text);
    keepTablesWhole(instructions_->document());
    QStringList hidden;
    for (const auto& kind : s.hiddenFixes) hidden << qstr(kind);
    emit hiddenFixesChanged(hidden);
    showControls();
}

void LessonPanel::showControls() {
    const auto& l = *lesson_;
    const auto& s = current();
    steps_->setItemText(step_ - 1, QStringLiteral("%1%2. %3")
                                       .arg(progress_.passed.count(step_) ? QStringLiteral("✔ ") : QString())
                                       .arg(step_)
                                       .arg(qstr(s.title)));
    const int shown =
        std::min<int>(progress_.hintsShown.count(step_) ? progress_.hintsShown.at(step_) : 0, int(s.hints.size()));
    const int left = int(s.hints.size()) - shown;
    hintButton_->setEnabled(left > 0);
    hintButton_->setText(s.hints.empty() ? tr("Hint")
                         : left > 0      ? tr("Hint (%1 left)").arg(left)
                                         : tr("No more hints"));
    const bool teacher = teacher_->isChecked();
    solutionButton_->setEnabled(s.solution && (failedOnce_ || teacher));
    if (!s.solution)
        solutionButton_->setToolTip(tr("This step has no reference solution"));
    else if (!failedOnce_ && !teacher)
        solutionButton_->setToolTip(tr("Check your work first: the solution can be shown after a check fails"));
    else
        solutionButton_->setToolTip(
            tr("Replace your work with the step's reference solution (your work is kept: "
               "\"Back to my work\" returns to it)"));
    const bool last = step_ >= int(l.steps.size());
    nextButton_->setEnabled(!last || next_.has_value());
    nextButton_->setText(!last ? tr("Next ▸") : next_ ? tr("Next lesson ▸") : tr("Last step"));
    nextButton_->setToolTip(!last   ? tr("Go on to step %1").arg(step_ + 1)
                            : next_ ? tr("Open the course's next lesson: %1").arg(qstr(next_->title))
                                    : tr("This is the course's last step"));
    checkButton_->setEnabled(!checking_);
    cancelButton_->setEnabled(checking_);
    showOutcomes();
}

void LessonPanel::showOutcomes() {
    checks_->clear();
    if (!lesson_) return;
    const auto& s = current();
    const bool have = outcomes_.size() == s.checks.size();
    for (size_t i = 0; i < s.checks.size(); ++i) {
        const auto& c = s.checks[i];
        auto* item = new QListWidgetItem(checks_);
        // The learner reads what the check asks; the pattern behind it is the teacher's detail.
        const QString text = qstr(lesson::describeCheck(c));
        QString tip = tr("Checks: %1\nIn the lesson file: %2").arg(qstr(lesson::checkDetail(c)), qstr(c.pointer));
        if (!have) {
            item->setText(QStringLiteral("•  ") + text);
        } else {
            const auto& o = outcomes_[i];
            switch (o.verdict) {
                case lesson::Verdict::Passed:
                    item->setText(QStringLiteral("✔  ") + text);
                    item->setForeground(QColor(0x1b, 0x7f, 0x2a));
                    break;
                case lesson::Verdict::Failed:
                    item->setText(QStringLiteral("✘  ") + text + QStringLiteral(" — ") + qstr(o.message));
                    item->setForeground(QColor(0xb0, 0x1c, 0x1c));
                    break;
                case lesson::Verdict::NotChecked:
                    item->setText(QStringLiteral("○  ") + text + QStringLiteral(" — ") + qstr(o.message));
                    item->setForeground(QColor(0x70, 0x70, 0x70));
                    break;
            }
            if (!o.found.empty()) tip += QStringLiteral("\n") + qstr(o.found);
            item->setData(Qt::UserRole, int(o.verdict));
        }
        item->setToolTip(tip);
    }
    fitChecks();
}

void LessonPanel::check() {
    if (!lesson_ || checking_) return;
    // This check covers every edit so far.
    recheck_->stop();
    recheckPending_ = false;
    if (flush_) flush_();
    checking_ = true;
    ++checkNumber_;
    result_.reset();
    compileError_.clear();
    runsAwaited_.clear();
    evidence_ = {};
    const auto& s = current();
    wantsLate_ = std::any_of(s.checks.begin(), s.checks.end(), [](const auto& c) { return c.needsSass(); });
    checkButton_->setEnabled(false);
    cancelButton_->setEnabled(true);
    status_->setText(tr("Checking…"));
    controller_->compileNow();
    awaited_ = controller_->newestGeneration();
}

void LessonPanel::cancelCheck() {
    if (!checking_) return;
    checking_ = false;
    ++checkNumber_;  // an evaluation still running reports to a check no longer awaited
    runsAwaited_.clear();
    recheck_->stop();
    recheckPending_ = false;
    checkButton_->setEnabled(true);
    cancelButton_->setEnabled(false);
    status_->setText(tr("Check cancelled: no verdicts. Check again when you are ready."));
}

void LessonPanel::onReply(const EngineReply& reply) {
    if (!checking_ || reply.generation != awaited_) return;
    if (!reply.result) {
        compiled(nullptr, reply.error);
        return;
    }
    result_ = reply.result;
    if (wantsLate_ && reply.result->sassPending) return;  // the SASS comes with the late reply
    compiled(reply.result, {});
}

void LessonPanel::onLate(quint64 generation, std::shared_ptr<const pipeline::CompileResult> result) {
    if (!checking_ || generation != awaited_ || !wantsLate_) return;
    compiled(result ? std::move(result) : result_, {});
}

void LessonPanel::compiled(std::shared_ptr<const pipeline::CompileResult> result, const QString& error) {
    result_ = std::move(result);
    compileError_ = error;
    evidence_.compile = result_.get();
    evidence_.compileError = error.toStdString();
    const auto& s = current();
    const auto runs = lesson::runsNeeded(s);
    QString why;
    evidence_.gpuAvailable = engine_->gpuAvailable(&why);
    evidence_.noGpu = why.toStdString();
    if (runs.empty() || !evidence_.gpuAvailable || !result_ || !result_->ok) {
        finish();
        return;
    }
    static quint64 next = kRunIdBase;
    const auto& ws = document_->workspace();
    for (const auto& name : runs) {
        const gpu::RunConfig* config = nullptr;
        for (const auto& rc : ws.runs)
            if (rc.name == name) config = &rc;
        if (!config) continue;
        RunRequest request;
        request.id = ++next;
        request.compiled = result_;
        request.config = *config;
        request.baseDir = lesson_->folder;
        runsAwaited_.emplace_back(request.id, qstr(name));
        status_->setText(tr("Running %1…").arg(qstr(name)));
        engine_->run(request);
    }
    if (runsAwaited_.empty()) finish();
}

void LessonPanel::onRunReplied(const RunReply& reply) {
    if (!checking_) return;
    const auto it =
        std::find_if(runsAwaited_.begin(), runsAwaited_.end(), [&](const auto& p) { return p.first == reply.id; });
    if (it == runsAwaited_.end()) return;
    auto ev = lesson::runEvidence(it->second.toStdString(), reply.outcome.get(), reply.error.toStdString(), reply.kind);
    evidence_.runs.push_back(std::move(ev));
    runsAwaited_.erase(it);
    if (runsAwaited_.empty()) finish();
}

void LessonPanel::finish() {
    // The evaluation gets copies of all it reads (the compile result is shared and immutable),
    // so that a reload, a step change or the panel going away never pulls them from under it.
    status_->setText(tr("Checking the verdicts…"));
    auto step = std::make_shared<const lesson::Step>(current());
    auto state = std::make_shared<const workspace::Workspace>(document_->workspace());
    auto future = QtConcurrent::run([step, state, evidence = evidence_, keep = result_] {
        auto outcomes = lesson::evaluate(*step, *state, evidence);
        for (auto& o : outcomes) o.check = nullptr;  // into the copy: shown() points them at the panel's step
        return outcomes;
    });
    std::erase_if(evaluations_, [](const auto& f) { return f.isFinished(); });
    evaluations_.push_back(future);
    auto* watcher = new QFutureWatcher<std::vector<lesson::CheckOutcome>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, number = checkNumber_, stepNumber = step_] {
        watcher->deleteLater();
        if (!checking_ || number != checkNumber_) return;  // cancelled, or a newer check runs
        if (!lesson_ || step_ != stepNumber) {
            // The learner went elsewhere meanwhile: these verdicts are another step's.
            checking_ = false;
            status_->clear();
            showStep();
            return;
        }
        shown(watcher->result());
    });
    watcher->setFuture(future);
}

void LessonPanel::shown(std::vector<lesson::CheckOutcome> outcomes) {
    checking_ = false;
    checkedHere_ = true;
    if (std::exchange(recheckPending_, false)) recheck_->start();
    const auto& checks = current().checks;
    for (size_t i = 0; i < outcomes.size() && i < checks.size(); ++i) outcomes[i].check = &checks[i];
    outcomes_ = std::move(outcomes);
    const bool ok = lesson::allPassed(outcomes_);
    int failed = 0, unchecked = 0;
    for (const auto& o : outcomes_) {
        failed += o.verdict == lesson::Verdict::Failed;
        unchecked += o.verdict == lesson::Verdict::NotChecked;
    }
    if (failed) failedOnce_ = true;
    bool changed = false;
    if (ok) {
        changed = progress_.passed.insert(step_).second;
        status_->setText(step_ < int(lesson_->steps.size())
                             ? tr("✔ All %1 checks passed. On to the next step.").arg(outcomes_.size())
                             : tr("✔ All %1 checks passed: the lesson is done.").arg(outcomes_.size()));
    } else {
        QString text = failed == 1 ? tr("1 check failed") : tr("%1 checks failed").arg(failed);
        if (unchecked) text += tr("; %1 not checked (they do not count as passed)").arg(unchecked);
        status_->setText(text + QStringLiteral("."));
    }
    // Written (and flushed to the disk) only when a step is newly passed: a check again of the
    // same work changes nothing to keep, and the flush may take the UI thread tens of ms.
    changed |= std::exchange(progress_.step, step_) != step_;
    if (changed) saveProgress();
    showControls();  // the instructions stay as they are
    emit checked(ok);
}

void LessonPanel::showHint() {
    if (!lesson_) return;
    const int n = progress_.hintsShown.count(step_) ? progress_.hintsShown[step_] : 0;
    if (n >= int(current().hints.size())) return;
    progress_.hintsShown[step_] = n + 1;
    saveProgress();
    showStep();
    instructions_->moveCursor(QTextCursor::End);
    instructions_->ensureCursorVisible();
}

void LessonPanel::keepWork() {
    if (!lesson_) return;
    if (flush_) flush_();
    progress_.work[step_] = lesson::stateJson(document_->workspace());
}

void LessonPanel::saveProgress() {
    if (!lesson_) return;
    const auto dir = progressDir().toStdString();
    if (auto st = lesson::writeProgress(lesson::progressFile(dir, lesson_->id), progress_); !st)
        status_->setText(qstr(st.error().message));
}

void LessonPanel::applyState(const workspace::Workspace& state) {
    // Another state: the learner checks it when ready, and edits re-check it from then on.
    checkedHere_ = false;
    recheckPending_ = false;
    recheck_->stop();
    applying_ = true;
    document_->replaceState(state);
    applying_ = false;
    outcomes_.clear();
    controller_->compileNow();
}

void LessonPanel::showSolution() {
    if (!lesson_ || !current().solution) return;
    if (flush_) flush_();
    // Kept under the step's negative number: "Back to my work" restores it.
    progress_.work[-step_] = lesson::stateJson(document_->workspace());
    applyState(*current().solution);
    saveProgress();
    showStep();
    status_->setText(
        tr("This is the reference solution of step %1. <a href=\"restore\">Back to my work</a>").arg(step_));
}

void LessonPanel::resetStep() {
    if (!lesson_) return;
    if (flush_) flush_();
    progress_.work[-step_] = lesson::stateJson(document_->workspace());
    progress_.work.erase(step_);
    applyState(current().start);
    failedOnce_ = false;
    saveProgress();
    showStep();
    status_->setText(tr("Step %1 starts afresh. <a href=\"restore\">Back to my work</a>").arg(step_));
}

void LessonPanel::nextStep() {
    if (!lesson_) return;
    if (step_ < int(lesson_->steps.size()))
        goToStep(step_ + 1);
    else if (next_)
        emit openLessonRequested(QString::fromStdString(next_->path.string()));
}

void LessonPanel::goToStep(int step) {
    if (!lesson_ || step < 1 || step > int(lesson_->steps.size()) || step == step_) return;
    keepWork();
    const int from = step_;
    step_ = step;
    failedOnce_ = false;
    checkedHere_ = false;
    recheckPending_ = false;
    recheck_->stop();
    outcomes_.clear();
    const auto& s = current();
    if (const auto it = progress_.work.find(step); it != progress_.work.end()) {
        if (auto state = lesson::stateFromJson(it->second, document_->workspace())) applyState(*state);
    } else if (!(s.continues && step == from + 1)) {
        applyState(s.start);
    }  // else: the step goes on with what the learner has
    progress_.step = step_;
    document_->setLessonStep(step_);
    saveProgress();
    showStep();
    status_->setText(s.continues && step == from + 1 ? tr("Step %1 goes on from your work.").arg(step_) : QString());
}

}  // namespace nvpg::gui
