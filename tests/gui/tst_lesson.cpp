// The Lesson dock with the real engine: a lesson opens with its dock, Check compiles and
// shows a verdict and the learner's message per check, hints come one at a time, the solution is
// offered after a failed check, Reset step, Show solution and moving between steps never lose what
// the learner wrote, progress is kept in the data folder, and a lesson that cannot be read still
// opens its workspace.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextTable>

#include <Qsci/qsciscintilla.h>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "core/gpu/Npy.h"
#include "core/lesson/Course.h"
#include "core/support/Files.h"
#include "core/workspace/Workspace.h"
#include "gui/compile/CompileController.h"
#include "gui/compile/SupervisedEngine.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/OutputView.h"
#include "gui/panels/LessonPanel.h"
#include "gui/panels/ProblemsPanel.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {

QString sample() {
    return QString::fromStdString((test::dataDir() / "lessons" / "two-steps.nvpg").string());
}

// A lesson of the bundled course, by its file's name.
QString bundled(const char* name) {
    return QString::fromStdString((lesson::lessonsDir() / (std::string(name) + ".nvpg")).string());
}

// Clicks Check (or triggers it another way) and waits for the verdicts.
bool checkAndWait(LessonPanel* panel, const std::function<void()>& trigger = {}) {
    QSignalSpy done(panel, &LessonPanel::checked);
    if (trigger)
        trigger();
    else
        QTest::mouseClick(panel->checkButton(), Qt::LeftButton);
    return done.wait(120000);
}

int count(const std::vector<lesson::CheckOutcome>& outcomes, lesson::Verdict v) {
    return int(std::count_if(outcomes.begin(), outcomes.end(), [v](const auto& o) { return o.verdict == v; }));
}

const lesson::CheckOutcome* outcomeOf(const LessonPanel* p, lesson::CheckKind kind) {
    for (const auto& o : p->outcomes())
        if (o.check->kind == kind) return &o;
    return nullptr;
}

QString moduleText(MainWindow* w) {
    w->editors()->flush();
    return QString::fromStdString(w->document()->workspace().modules.at(0).bytes);
}

// The bundled lesson 02 on step 3, in the state of its solution with a global of 300,000
// initialised i32s added (a PTX line of megabytes), the step's checks (the tile patterns among
// them) and `extra` checks, written as lesson.nvpg in `dir`.
QString bigLesson(const QTemporaryDir& dir, const nlohmann::ordered_json& extra) {
    const auto bundled = test::sourceDir() / "resources" / "lessons" / "02-reading-ptx.nvpg";
    auto file = lesson::loadLesson(bundled);
    if (!file) qFatal("%s", file.error().message.c_str());
    auto ws = lesson::withState(file->workspace, file->lesson.steps.at(2).reference());
    ws.lesson = lesson::withCurrent(ws.lesson, 3);
    for (const auto& c : extra) ws.lesson["steps"][2]["checks"].push_back(c);
    ws.modules.at(0).bytes += test::bigGlobalIr("lut", 300000);
    const auto path = dir.filePath("lesson.nvpg");
    if (auto st = workspace::saveWorkspace(ws, path.toStdString()); !st) qFatal("%s", st.error().message.c_str());
    return path;
}

// Checks that keep the evaluation busy for a while on that PTX (each pattern followed by many
// threads at once, over megabytes), so that an evaluation on the UI thread would stall it.
nlohmann::ordered_json slowChecks(int n) {
    auto checks = nlohmann::ordered_json::array();
    for (int i = 0; i < n; ++i)
        checks.push_back({{"check", "ptx-lacks"},
                          {"pattern", "[0-9].{" + std::to_string(20 + i) + "}!"},
                          {"message", "no line has a ! after a digit"}});
    return checks;
}

}  // namespace

class TestLesson : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        // The run on a 1280x720 screen (tst_gui_lesson_1280x720) has data of its own.
        static const std::string suite = "tst_gui_lesson" + (qEnvironmentVariableIsSet("NVPG_TEST_SCREEN")
                                                                 ? "_" + qgetenv("NVPG_TEST_SCREEN").toStdString()
                                                                 : std::string());
        test::isolateAppData(suite.c_str());
    }
    void init() { QDir(LessonPanel::progressDir()).removeRecursively(); }

    // Open, Check: the start fails the kernel checks with their messages, the GPU check is "not
    // checked" here (never passed); the solution is offered only then, and it passes.
    void checkShowsEachVerdictWithItsMessage() {
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openWorkspace(sample()));
        auto* panel = w->lessonPanel();
        QVERIFY(panel->hasLesson());
        QTRY_VERIFY(w->lessonDock()->isVisible());
        QCOMPARE(panel->step(), 1);
        QVERIFY(panel->instructionsView()->toPlainText().contains("Step 1 of 2: Make it a kernel"));
        QVERIFY(!panel->solutionButton()->isEnabled());  // not before a check failed
        QCOMPARE(panel->checksView()->count(), 4);

        QVERIFY(checkAndWait(panel));
        const auto& out = panel->outcomes();
        QCOMPARE(int(out.size()), 4);
        QCOMPARE(outcomeOf(panel, lesson::CheckKind::Compiles)->verdict, lesson::Verdict::Passed);
        const auto* kernel = outcomeOf(panel, lesson::CheckKind::KernelExists);
        QCOMPARE(kernel->verdict, lesson::Verdict::Failed);
        QCOMPARE(QString::fromStdString(kernel->message), QStringLiteral("saxpy is not a kernel yet: annotate it."));
        const auto* runs = outcomeOf(panel, lesson::CheckKind::Runs);
        if (runs->verdict == lesson::Verdict::NotChecked)
            QVERIFY2(QString::fromStdString(runs->message).contains("needs a GPU"), runs->message.c_str());
        // What the learner sees: a cross and the message on the failed row, and the tally.
        const auto row = panel->checksView()->item(1)->text();
        QVERIFY2(row.startsWith(QStringLiteral("✘")) && row.contains("annotate it"), qPrintable(row));
        QVERIFY2(panel->statusLabel()->text().contains("2 checks failed"), qPrintable(panel->statusLabel()->text()));
        QVERIFY(panel->solutionButton()->isEnabled());

        QTest::mouseClick(panel->solutionButton(), Qt::LeftButton);
        QVERIFY(moduleText(w.get()).contains("!nvvm.annotations = !{!0}"));
        QVERIFY(checkAndWait(panel));
        QCOMPARE(count(panel->outcomes(), lesson::Verdict::Failed), 0);
        QCOMPARE(outcomeOf(panel, lesson::CheckKind::KernelExists)->verdict, lesson::Verdict::Passed);
    }

    // Ctrl+Enter in the editor checks; hints come one at a time and are remembered.
    void ctrlEnterChecksAndHintsComeOneAtATime() {
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openWorkspace(sample()));
        auto* panel = w->lessonPanel();
        auto* editor = w->editors()->editor(0);
        QVERIFY(editor);
        editor->setFocus();
        QVERIFY(checkAndWait(panel, [&] { QTest::keyClick(editor, Qt::Key_Return, Qt::ControlModifier); }));
        QVERIFY(!panel->outcomes().empty());
        QVERIFY2(!editor->text().contains("\n\n\n\n"), "Ctrl+Enter must not type a line break");

        QCOMPARE(panel->hintButton()->text(), QStringLiteral("Hint (2 left)"));
        QTest::mouseClick(panel->hintButton(), Qt::LeftButton);
        QVERIFY(panel->instructionsView()->toPlainText().contains("Hint 1."));
        QVERIFY(!panel->instructionsView()->toPlainText().contains("Hint 2."));
        QCOMPARE(panel->hintButton()->text(), QStringLiteral("Hint (1 left)"));
        QTest::mouseClick(panel->hintButton(), Qt::LeftButton);
        QVERIFY(panel->instructionsView()->toPlainText().contains("Hint 2."));
        QVERIFY(!panel->hintButton()->isEnabled());
        // Kept in the data folder: the next window shows both.
        auto progress = lesson::readProgress(
            lesson::progressFile(LessonPanel::progressDir().toStdString(), "tests/two-steps"), "tests/two-steps");
        QVERIFY(progress);
        QCOMPARE(progress->hintsShown[1], 2);
    }

    // Reset step, Show solution, Next and going back keep what the learner typed.
    void nothingTheLearnerWroteIsLost() {
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openWorkspace(sample()));
        auto* panel = w->lessonPanel();
        auto* editor = w->editors()->editor(0);
        editor->append("; my own note\n");
        QVERIFY(moduleText(w.get()).contains("; my own note"));

        QTest::mouseClick(panel->resetButton(), Qt::LeftButton);
        QVERIFY(!moduleText(w.get()).contains("; my own note"));
        QVERIFY2(panel->statusLabel()->text().contains("Back to my work"), qPrintable(panel->statusLabel()->text()));
        emit panel->statusLabel()->linkActivated("restore");
        QVERIFY(moduleText(w.get()).contains("; my own note"));

        // Step 2 goes on from the learner's work; back at step 1 it is still there.
        QTest::mouseClick(panel->nextButton(), Qt::LeftButton);
        QCOMPARE(panel->step(), 2);
        QVERIFY(moduleText(w.get()).contains("; my own note"));
        editor = w->editors()->editor(0);
        editor->append("; step two\n");
        panel->goToStep(1);
        QVERIFY(moduleText(w.get()).contains("; my own note"));
        QVERIFY(!moduleText(w.get()).contains("; step two"));
        panel->goToStep(2);
        QVERIFY(moduleText(w.get()).contains("; step two"));
        // A save records the step, and the file opens there again.
        QTemporaryDir dir;
        const auto saved = dir.filePath("mine.nvpg");
        QVERIFY(w->saveAs(saved));
        auto ws = workspace::loadWorkspace(saved.toStdString());
        QVERIFY(ws);
        QCOMPARE(ws->lesson["current"].get<int>(), 2);
        QVERIFY(QString::fromStdString(ws->modules.at(0).bytes).contains("; step two"));
        auto again = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(again->openWorkspace(saved));
        QCOMPARE(again->lessonPanel()->step(), 2);
    }

    // A lesson that cannot be read: the workspace opens with everything in it, the error names the
    // pointer, and the Lesson dock stays hidden.
    void aBrokenLessonStillOpensItsWorkspace() {
        auto ws = workspace::loadWorkspace(sample().toStdString());
        QVERIFY(ws);
        ws->lesson["steps"][0]["checks"][0]["check"] = "ptx-contain";
        ws->modules[0].bytes += "; typed by the learner\n";
        QTemporaryDir dir;
        const auto path = dir.filePath("broken.nvpg");
        QVERIFY(workspace::saveWorkspace(*ws, path.toStdString()));
        QStringList errors;
        auto w = test::makeWindow(&errors, QSize(1280, 720));
        QVERIFY(w->openWorkspace(path));
        QVERIFY(!w->lessonPanel()->hasLesson());
        QVERIFY(!w->lessonDock()->isVisible());
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors[0].contains("/lesson/steps/0/checks/0/check: unknown check \"ptx-contain\""),
                 qPrintable(errors[0]));
        QVERIFY(moduleText(w.get()).contains("; typed by the learner"));
    }

    // The course as a learner meets it: on a fresh profile a learner opens lessons 1 and 6 of the course
    // from File > Lessons and completes every step inside the app: each start fails a check with
    // its message, the learner's edits (typed into the editors, options set as the Options dock
    // sets them: here the reference solution's, as a learner who got it right would type them)
    // pass every check that can be checked here, and Next goes on.
    void aLearnerCompletesLessonsOneAndSix_data() {
        QTest::addColumn<QString>("prefix");
        QTest::newRow("lesson 1") << QStringLiteral("01-");
        QTest::newRow("lesson 6") << QStringLiteral("06-");
    }
    void aLearnerCompletesLessonsOneAndSix() {
        QFETCH(QString, prefix);
        QString path;
        for (const auto& l : lesson::listLessons())
            if (QString::fromStdString(l.path.filename().string()).startsWith(prefix))
                path = QString::fromStdString(l.path.string());
        QVERIFY2(!path.isEmpty(), qPrintable("no bundled lesson " + prefix));
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QAction* open = nullptr;
        for (auto* a : w->findChild<QMenu*>("lessonsMenu")->actions())
            if (a->text().startsWith(prefix)) open = a;
        QVERIFY(open);
        open->trigger();
        auto* panel = w->lessonPanel();
        QTRY_VERIFY(panel->hasLesson());
        const int steps = int(panel->lesson()->steps.size());
        for (int n = 1; n <= steps; ++n) {
            QCOMPARE(panel->step(), n);
            const auto& step = panel->lesson()->steps[size_t(n - 1)];
            QVERIFY(checkAndWait(panel));
            QVERIFY2(count(panel->outcomes(), lesson::Verdict::Failed) >= 1,
                     qPrintable(QStringLiteral("step %1 passes before any edit").arg(n)));
            for (const auto& o : panel->outcomes())
                if (o.verdict == lesson::Verdict::Failed) QVERIFY(!o.message.empty());
            QVERIFY(step.solution);
            const auto& want = *step.solution;
            auto& doc = *w->document();
            QCOMPARE(doc.moduleCount(), int(want.modules.size()));
            for (int m = 0; m < doc.moduleCount(); ++m) {
                QCOMPARE(doc.module(m).name, want.modules[size_t(m)].name);
                if (!want.modules[size_t(m)].isBitcode() && doc.module(m).bytes != want.modules[size_t(m)].bytes)
                    w->editors()->editor(m)->setText(QString::fromStdString(want.modules[size_t(m)].bytes));
            }
            if (!(doc.workspace().options == want.options)) doc.setOptions(want.options);
            if (doc.workspace().libdevice != want.libdevice) doc.setLibdevice(want.libdevice);
            if (doc.workspace().ltoMode != want.ltoMode) doc.setLtoMode(want.ltoMode);
            QVERIFY(checkAndWait(panel));
            for (const auto& o : panel->outcomes())
                QVERIFY2(o.verdict != lesson::Verdict::Failed,
                         qPrintable(QStringLiteral("step %1: %2: %3 (%4)")
                                        .arg(n)
                                        .arg(QString::fromStdString(o.check->pointer),
                                             QString::fromStdString(o.message), QString::fromStdString(o.found))));
            if (n < steps) QTest::mouseClick(panel->nextButton(), Qt::LeftButton);
        }
        // At the last step, Next offers the course's next lesson.
        QTRY_COMPARE(panel->nextButton()->text(), QStringLiteral("Next lesson ▸"));
        QVERIFY(panel->nextButton()->isEnabled());
    }

    // The bundled course under File > Lessons: at least eight lessons; one opens as the course ships
    // it, fails a check at its start, and its progress is kept under its id.
    void theCourseIsInTheFileMenu() {
        const auto lessons = lesson::listLessons();
        QVERIFY2(lessons.size() >= 8, qPrintable(QStringLiteral("%1 bundled lessons").arg(lessons.size())));
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        auto* menu = w->findChild<QMenu*>("lessonsMenu");
        QVERIFY(menu);
        QCOMPARE(int(menu->actions().size()), int(lessons.size()));
        menu->actions().front()->trigger();
        auto* panel = w->lessonPanel();
        QTRY_VERIFY(panel->hasLesson());
        QCOMPARE(QString::fromStdString(panel->lesson()->id), QString::fromStdString(lessons.front().id));
        QVERIFY(w->document()->path().isEmpty());  // the course stays pristine: Save asks where
        QVERIFY(checkAndWait(panel));
        QVERIFY(count(panel->outcomes(), lesson::Verdict::Failed) >= 1);
        QVERIFY(QFileInfo::exists(QString::fromStdString(
            lesson::progressFile(LessonPanel::progressDir().toStdString(), lessons.front().id).string())));
    }

    // The verdicts of a check on the 300,000-element module are worked out off the UI thread: from
    // the compile's reply to the verdicts, a timer firing every 2 ms is never late by more than
    // 16 ms. The tile checks of lesson 02 give the right verdicts on it.
    void aCheckOnABigModuleKeepsTheWindowResponsive() {
        QTemporaryDir dir;
        SupervisedEngine engine(test::realToolkit(), {});
        WorkspaceDocument doc;
        QVERIFY(doc.load(bigLesson(dir, slowChecks(6))));
        CompileController controller(&engine, &doc);
        // Connected before the panel is: it starts measuring before the panel's own slot runs.
        bool measuring = false;
        QElapsedTimer sinceTick, evaluation;
        qint64 longestNs = 0;
        connect(&controller, &CompileController::replyShown, this, [&] {
            measuring = true;
            sinceTick.start();
            evaluation.start();
        });
        QTimer tick;
        tick.setInterval(2);
        tick.setTimerType(Qt::PreciseTimer);
        connect(&tick, &QTimer::timeout, this, [&] {
            if (!measuring) return;
            longestNs = std::max(longestNs, sinceTick.nsecsElapsed());
            sinceTick.start();
        });
        LessonPanel panel(&engine, &doc, &controller);
        panel.resize(400, 700);
        panel.show();
        QVERIFY(panel.hasLesson());
        QCOMPARE(panel.step(), 3);
        tick.start();
        // The best of five checks: an evaluation on the UI thread stalls it in every one (by
        // 60 to 200 ms here), while another process taking the CPU for a moment is chance.
        QStringList rounds;
        double best = 1e9;
        for (int round = 0; round < 5 && best > 16; ++round) {
            longestNs = 0;
            QVERIFY(checkAndWait(&panel));
            const double evaluationMs = evaluation.nsecsElapsed() / 1e6;
            QTest::qWait(50);  // the tick after a stall that ended with the verdicts measures it
            measuring = false;
            const double longestMs = longestNs / 1e6;
            rounds << QString("from the compile's reply to the verdicts %1 ms, longest gap between ticks %2 ms")
                          .arg(evaluationMs, 0, 'f', 1)
                          .arg(longestMs, 0, 'f', 1);
            qInfo("%s", qPrintable(rounds.back()));
            best = std::min(best, longestMs);
            const auto& out = panel.outcomes();
            QCOMPARE(int(out.size()), 11);
            for (const auto& o : out)
                QVERIFY2(
                    o.verdict == lesson::Verdict::Passed,
                    qPrintable(QString::fromStdString(o.check->pointer + ": " + o.message + " (" + o.found + ")")));
            QCOMPARE(out[2].check->pattern, std::string(R"(\.global .*\btile\[)"));
        }
        QVERIFY2(best <= 16, qPrintable("the UI thread stalled: " + rounds.join("; ")));
    }

    // On a projector's 1280x720 screen the Lesson dock is wide enough to read: lesson 1's table of
    // intrinsics fits with each cell on one line (a table wider than the dock would scroll sideways,
    // never wrap a cell), the text around it wraps, the checklist leaves the instructions most of
    // the height, and the editor and the PTX keep a usable width beside it.
    void theLessonDockHasRoomAt1280x720() {
        const QSize screen = QGuiApplication::primaryScreen()->geometry().size();
        if (screen != QSize(1280, 720)) QSKIP("runs on a 1280x720 screen: ctest -R tst_gui_lesson_1280x720");
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openLesson(bundled("01-first-kernel")));
        auto* panel = w->lessonPanel();
        panel->goToStep(2);
        auto* dock = w->lessonDock();
        QTRY_VERIFY(dock->isVisible() && !dock->visibleRegion().isEmpty());
        QTRY_VERIFY2(dock->width() >= 380, qPrintable(QString::number(dock->width())));
        QVERIFY2(w->width() <= 1280, qPrintable(QString::number(w->width())));
        // The editor and the PTX beside it.
        QVERIFY2(w->editors()->width() >= 320, qPrintable(QString::number(w->editors()->width())));
        QVERIFY2(w->output()->width() >= 320, qPrintable(QString::number(w->output()->width())));
        QVERIFY2(dock->geometry().right() < w->editors()->mapTo(w.get(), QPoint(0, 0)).x(),
                 "the dock covers the editor");

        auto* view = panel->instructionsView();
        auto* doc = view->document();
        QTextTable* table = nullptr;
        for (auto* frame : doc->rootFrame()->childFrames())
            if (auto* t = qobject_cast<QTextTable*>(frame)) table = t;
        QVERIFY(table);
        QCOMPARE(table->columns(), 3);
        for (int r = 0; r < table->rows(); ++r)
            for (int c = 0; c < table->columns(); ++c) {
                const auto block = table->cellAt(r, c).firstCursorPosition().block();
                QVERIFY2(block.layout()->lineCount() == 1, qPrintable(QString("cell %1,%2 \"%3\" takes %4 lines")
                                                                          .arg(r)
                                                                          .arg(c)
                                                                          .arg(block.text())
                                                                          .arg(block.layout()->lineCount())));
            }
        // The paragraphs wrap to the dock's width; nothing is wider than the view but the table.
        QVERIFY(view->lineWrapMode() == QTextEdit::WidgetWidth);
        auto paragraph = doc->begin();  // the first long one: "A kernel reads the thread's coordinates ..."
        while (paragraph.isValid() && paragraph.text().size() < 100) paragraph = paragraph.next();
        QVERIFY(paragraph.isValid());
        QVERIFY2(paragraph.layout()->lineCount() > 1, qPrintable(paragraph.text()));
        // At 1280x720 the dock has room for the whole table: nothing to scroll sideways.
        QTRY_COMPARE(view->horizontalScrollBar()->maximum(), 0);
        QVERIFY2(table->frameFormat().width().type() != QTextLength::FixedLength, "the table is not made narrow");
        // Enough of the text to read at once: more than a dozen lines.
        QVERIFY2(view->viewport()->height() >= 12 * view->fontMetrics().lineSpacing(),
                 qPrintable(QString::number(view->viewport()->height())));
    }

    // The checklist says what each check asks in words; the pattern is the teacher's detail, in the
    // row's tooltip.
    void theChecklistReadsAsWords() {
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openLesson(bundled("01-first-kernel")));
        auto* panel = w->lessonPanel();
        panel->goToStep(3);
        auto* list = panel->checksView();
        QCOMPARE(list->count(), 4);
        QCOMPARE(list->item(1)->text(), QStringLiteral("•  The PTX loads the parameter n (scale_param_2)"));
        for (int i = 0; i < list->count(); ++i) {
            const auto text = list->item(i)->text();
            QVERIFY2(!text.contains('\\') && !text.contains('/'), qPrintable(text));
        }
        QVERIFY2(list->item(1)->toolTip().contains("ptx-contains scale /\\[scale_param_2\\]/"),
                 qPrintable(list->item(1)->toolTip()));
        QVERIFY(checkAndWait(panel));
        const auto failed = list->item(1)->text();
        QVERIFY2(
            failed.startsWith(QStringLiteral("✘  The PTX loads the parameter n (scale_param_2) — The kernel never")),
            qPrintable(failed));
        QVERIFY2(!failed.contains("\\["), qPrintable(failed));
    }

    // Another lesson opens without what the dock said of the one before.
    void anotherLessonStartsAfresh() {
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openLesson(bundled("01-first-kernel")));
        auto* panel = w->lessonPanel();
        panel->teacherBox()->setChecked(true);
        QTest::mouseClick(panel->solutionButton(), Qt::LeftButton);
        QVERIFY(checkAndWait(panel));
        QVERIFY2(panel->statusLabel()->text().contains("All 4 checks passed"),
                 qPrintable(panel->statusLabel()->text()));
        panel->teacherBox()->setChecked(false);
        QVERIFY(w->openLesson(bundled("02-reading-ptx")));
        QCOMPARE(QString::fromStdString(panel->lesson()->id), QStringLiteral("nvvm-course/02-reading-ptx"));
        QCOMPARE(panel->statusLabel()->text(), QString());
        QVERIFY(panel->outcomes().empty());
        for (int i = 0; i < panel->checksView()->count(); ++i)
            QVERIFY(panel->checksView()->item(i)->text().startsWith(QStringLiteral("•")));
    }

    // At the last step, Next opens the course's next lesson; the course's last lesson has none.
    void theLastStepOpensTheNextLesson() {
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openLesson(bundled("01-first-kernel")));
        auto* panel = w->lessonPanel();
        panel->goToStep(3);
        QTRY_COMPARE(panel->nextButton()->text(), QStringLiteral("Next lesson ▸"));
        QVERIFY(panel->nextButton()->isEnabled());
        QVERIFY2(panel->nextButton()->toolTip().contains("Reading PTX"), qPrintable(panel->nextButton()->toolTip()));
        QTest::mouseClick(panel->nextButton(), Qt::LeftButton);
        QTRY_COMPARE(QString::fromStdString(panel->lesson()->id), QStringLiteral("nvvm-course/02-reading-ptx"));
        QCOMPARE(panel->step(), 1);
        QCOMPARE(panel->nextButton()->text(), QStringLiteral("Next ▸"));

        // A learner's copy of lesson 1 saved in a folder of their own is still lesson 1 of the course.
        QTemporaryDir dir;
        QVERIFY(w->openLesson(bundled("01-first-kernel")));
        panel->goToStep(3);
        QVERIFY(w->saveAs(dir.filePath("mine.nvpg")));
        QVERIFY(w->openWorkspace(dir.filePath("mine.nvpg")));
        QCOMPARE(panel->step(), 3);
        QTRY_COMPARE(panel->nextButton()->text(), QStringLiteral("Next lesson ▸"));

        QSignalSpy looked(panel, &LessonPanel::courseLookedUp);
        QVERIFY(w->openLesson(bundled("08-registers-and-spills")));
        QVERIFY(looked.wait(20000));
        panel->goToStep(int(panel->lesson()->steps.size()));
        QCOMPARE(panel->nextButton()->text(), QStringLiteral("Last step"));
        QVERIFY(!panel->nextButton()->isEnabled());
    }

    // A teacher's lesson with its .npy beside it: the app puts the file into the lesson, so the
    // learner's file saved anywhere else still compares with it.
    void aSavedLessonCarriesItsData() {
        QTemporaryDir course, elsewhere;
        auto doc = nlohmann::ordered_json::parse(test::readText(test::dataDir() / "lessons" / "two-steps.nvpg"));
        doc["lesson"]["steps"][0]["checks"].push_back(nlohmann::ordered_json::parse(
            R"({"check": "output", "run": "saxpy 4096", "arg": 4, "equals": "data/y.npy", "message": "y"})"));
        QVERIFY(QDir(course.path()).mkdir("data"));
        gpu::NpyArray y;
        y.type = gpu::ElemType::F32;
        y.shape = {2};
        y.data = std::string(8, '\0');
        const auto npy = gpu::writeNpy(y);
        QVERIFY(support::writeFileAtomic(course.filePath("data/y.npy").toStdString(), npy));
        QVERIFY(support::writeFileAtomic(course.filePath("teacher.nvpg").toStdString(), doc.dump(2)));
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        auto* panel = w->lessonPanel();
        QSignalSpy looked(panel, &LessonPanel::courseLookedUp);
        QVERIFY(w->openWorkspace(course.filePath("teacher.nvpg")));
        QVERIFY(looked.wait(20000));
        QVERIFY(!w->document()->isModified());  // nothing the learner did
        const auto saved = elsewhere.filePath("mine.nvpg");
        QVERIFY(w->saveAs(saved));
        const auto file = lesson::loadLesson(saved.toStdString());
        QVERIFY2(file, file ? "" : file.error().message.c_str());
        const auto& check = file->lesson.steps[0].checks.back();
        QVERIFY(check.reference);
        QCOMPARE(*check.reference, npy);
        QVERIFY(!std::filesystem::exists(check.equals));
    }

    // Lesson 1's first step teaches the kernel annotation: the Problems dock and the editor show
    // the warning without the fix that would write it; on step 2 the fix is offered again.
    void aStepHidesTheFixItTeaches() {
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openLesson(bundled("01-first-kernel")));
        auto* problems = w->problems();
        const auto warningRow = [&] {
            for (int r = 0; r < problems->count(); ++r)
                if (QString::fromStdString(problems->diagnostic(r).message).contains("!nvvm.annotations")) return r;
            return -1;
        };
        QTRY_VERIFY_WITH_TIMEOUT(warningRow() >= 0, 60000);
        QVERIFY(problems->fixActions(warningRow()).isEmpty());
        QVERIFY(problems->diagnostic(warningRow()).fixes.empty());
        auto* editor = w->editors()->editor(0);
        const int line = problems->diagnostic(warningRow()).line;
        QVERIFY(editor->fixesAt(line - 1).empty() && editor->fixesAt(line).empty());
        // Step 2 goes on from the same work, and offers the fix.
        w->lessonPanel()->goToStep(2);
        QTRY_VERIFY(warningRow() >= 0 && !problems->fixActions(warningRow()).isEmpty());
        QVERIFY(problems->fixActions(warningRow()).front()->text().contains("Annotate @scale as a kernel"));
    }

    // Once a step has been checked, an edit checks it again when the typing pauses; before the
    // first check, edits check nothing.
    void anEditChecksTheStepAgain() {
        auto w = test::makeWindow(nullptr, QSize(1280, 720));
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openWorkspace(sample()));
        auto* panel = w->lessonPanel();
        QSignalSpy checked(panel, &LessonPanel::checked);
        auto* editor = w->editors()->editor(0);
        editor->append("; a note\n");
        QTest::qWait(LessonPanel::kRecheckDelayMs + 1500);
        QCOMPARE(checked.size(), 0);

        QVERIFY(checkAndWait(panel));
        const int before = int(checked.size());
        QCOMPARE(count(panel->outcomes(), lesson::Verdict::Failed), 2);
        // The learner annotates saxpy, as the solution does; no click.
        editor->setText(QString::fromStdString(panel->lesson()->steps[0].solution->modules[0].bytes));
        QVERIFY2(panel->statusLabel()->text().contains("checking again"), qPrintable(panel->statusLabel()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(checked.size() > before, 120000);
        QCOMPARE(count(panel->outcomes(), lesson::Verdict::Failed), 0);
        QVERIFY(!panel->checking());
    }

    // Cancel stops waiting: during the compile, and while the verdicts are being worked out; the
    // dock says the check was cancelled, what the check finds afterwards is dropped, and the
    // panel can go while an evaluation still runs.
    void cancelEndsTheWait() {
        QTemporaryDir dir;
        SupervisedEngine engine(test::realToolkit(), {});
        WorkspaceDocument doc;
        QVERIFY(doc.load(bigLesson(dir, slowChecks(6))));
        CompileController controller(&engine, &doc);
        auto panel = std::make_unique<LessonPanel>(&engine, &doc, &controller);
        panel->show();
        QSignalSpy checked(panel.get(), &LessonPanel::checked);
        QSignalSpy shown(&controller, &CompileController::replyShown);
        auto cancelled = [&] {
            QVERIFY(!panel->checking());
            QVERIFY2(panel->statusLabel()->text().contains("Check cancelled"),
                     qPrintable(panel->statusLabel()->text()));
            QVERIFY(panel->checkButton()->isEnabled());
            QVERIFY(!panel->cancelButton()->isEnabled());
        };

        // During the compile.
        QVERIFY(!panel->cancelButton()->isEnabled());
        QTest::mouseClick(panel->checkButton(), Qt::LeftButton);
        QVERIFY(panel->checking() && panel->cancelButton()->isEnabled());
        QTest::mouseClick(panel->cancelButton(), Qt::LeftButton);
        cancelled();
        QVERIFY(shown.wait(120000));
        QTest::qWait(2000);
        QCOMPARE(checked.size(), 0);
        QVERIFY(panel->outcomes().empty());
        cancelled();

        // While the verdicts are worked out (connected after the panel: its evaluation has started).
        QString statusWhenCancelled;
        auto connection = connect(&controller, &CompileController::replyShown, this, [&] {
            statusWhenCancelled = panel->statusLabel()->text();
            QTest::mouseClick(panel->cancelButton(), Qt::LeftButton);
        });
        QTest::mouseClick(panel->checkButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!statusWhenCancelled.isEmpty(), 120000);
        disconnect(connection);
        QVERIFY2(statusWhenCancelled.contains("Checking the verdicts"), qPrintable(statusWhenCancelled));
        cancelled();
        QTest::qWait(2000);
        QCOMPARE(checked.size(), 0);
        QVERIFY(panel->outcomes().empty());
        cancelled();

        // A check then goes to the end; another is cancelled mid-evaluation and the panel goes.
        QVERIFY(checkAndWait(panel.get()));
        QCOMPARE(int(panel->outcomes().size()), 11);
        connection = connect(&controller, &CompileController::replyShown, this, [&] { panel.reset(); });
        QTest::mouseClick(panel->checkButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!panel, 120000);
        disconnect(connection);
    }
};

QTEST_MAIN(TestLesson)
#include "tst_lesson.moc"
