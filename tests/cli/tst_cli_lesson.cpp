// `nvpg check` (a learner's lesson file graded against a step's checks), `nvpg lesson validate` (a
// lesson checked before it is handed out) and `nvpg lesson state` (a step's start or solution
// written out), on the sample lesson, on broken lessons, and on every bundled lesson.
#include <QtTest>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "TestSupport.h"
#include "core/gpu/Devices.h"
#include "core/gpu/Npy.h"
#include "core/lesson/Lesson.h"
#include "core/support/Base64.h"
#include "core/support/Files.h"
#include "core/support/Installed.h"

using namespace nvpg;
namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

// `timeoutMs`: how long it may take; past it, nvpg is killed and the test fails.
Run runNvpg(const QStringList& args, const QString& workDir = {}, int timeoutMs = 120000) {
    auto env = QProcessEnvironment::systemEnvironment();
    if (!support::runsFromBuildTree() && !env.contains("NVPG_DATA_DIR"))
        env.insert("NVPG_DATA_DIR", QString::fromStdString((test::sourceDir() / "resources").string()));
    QProcess p;
    if (!workDir.isEmpty()) p.setWorkingDirectory(workDir);
    p.setProcessEnvironment(env);
    p.start(QString::fromStdString(test::nvpgPath()), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(-1);
        qFatal("nvpg did not finish in %d s: %s", timeoutMs / 1000, qPrintable(args.join(' ')));
    }
    if (p.exitStatus() != QProcess::NormalExit) qFatal("nvpg crashed: %s", qPrintable(args.join(' ')));
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

QString qs(const fs::path& p) {
    return QString::fromStdString(p.string());
}

fs::path twoStepsPath() {
    return test::dataDir() / "lessons" / "two-steps.nvpg";
}

ojson twoStepsJson() {
    return ojson::parse(test::readText(twoStepsPath()));
}

QString writeLesson(const QTemporaryDir& dir, const QString& name, const ojson& doc) {
    const auto path = dir.filePath(name);
    if (auto st = support::writeFileAtomic(path.toStdString(), doc.dump(2) + "\n"); !st)
        qFatal("%s", st.error().message.c_str());
    return path;
}

// Whether the driver sees a GPU here: then the `runs` checks run, else they are "not checked".
bool haveGpu() {
    static const bool have = [] {
        const auto devices = gpu::listDevices(*test::realToolkit());
        return devices && !devices->empty();
    }();
    return have;
}

QByteArray both(const Run& r) {
    return "exit " + QByteArray::number(r.exitCode) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

// The verdicts of `nvpg check --json`'s checks, in order.
QStringList verdictsOf(const nlohmann::json& j) {
    QStringList v;
    for (const auto& c : j["checks"]) v << QString::fromStdString(c["verdict"].get<std::string>());
    return v;
}

fs::path bundledLessonsDir() {
    return test::sourceDir() / "resources" / "lessons";
}

// The two-step sample with step 2's checks replaced by `checks` (step 1 is kept, so that the
// lesson file is on a step the learner's state is checked against).
ojson twoStepsWithChecks(const ojson& checks) {
    auto doc = twoStepsJson();
    doc["lesson"]["steps"][1]["checks"] = checks;
    return doc;
}

// The learner's state of the bundled lesson 02 at step 3's solution, with a global of 300,000
// initialised i32s added to its module: a PTX line of megabytes.
QString step3WithABigGlobal(const QTemporaryDir& dir) {
    const auto state = dir.filePath("step3.nvpg");
    const auto r = runNvpg(
        {"lesson", "state", qs(bundledLessonsDir() / "02-reading-ptx.nvpg"), "--step", "3", "--solution", "-o", state});
    if (r.exitCode != 0) qFatal("%s", both(r).constData());
    auto doc = ojson::parse(test::readText(state.toStdString()));
    doc["modules"][0]["text"] = doc["modules"][0]["text"].get<std::string>() + test::bigGlobalIr("lut", 300000);
    return writeLesson(dir, "step3-big.nvpg", doc);
}

}  // namespace

class TestCliLesson : public QObject {
    Q_OBJECT

private slots:
    // The lesson as handed out is on step 1, whose start the learner has not changed yet: the
    // checks it fails are named with their messages and what was found.
    void checkNamesTheFailingChecks() {
        const auto r = runNvpg({"check", qs(twoStepsPath())});
        QVERIFY2(r.exitCode == 1, both(r));
        const auto out = QString::fromUtf8(r.out);
        QVERIFY2(out.startsWith(qs(twoStepsPath()) + ": lesson \"Two steps\", step 1 of 2: Make it a kernel\n"),
                 both(r));
        QVERIFY2(out.contains("  passed       compiles\n"), both(r));
        QVERIFY2(out.contains("  FAILED       kernel-exists saxpy\n"
                              "               saxpy is not a kernel yet: annotate it.\n"
                              "               (the PTX has no .entry saxpy)\n"),
                 both(r));
        QVERIFY2(out.contains("  FAILED       ptx-contains /^\\.visible \\.entry saxpy/\n"
                              "               The PTX needs a .entry.\n"
                              "               (no line of the PTX matches /^\\.visible \\.entry saxpy/)\n"),
                 both(r));
        if (haveGpu()) {
            // saxpy is no kernel yet, so its run configuration cannot launch it.
            QVERIFY2(out.contains("  FAILED       runs saxpy \"saxpy 4096\"\n"
                                  "               saxpy must run.\n"),
                     both(r));
            QVERIFY2(out.endsWith("3 of 4 checks failed\n"), both(r));
        } else {
            QVERIFY2(out.contains("  not checked  runs saxpy \"saxpy 4096\"\n"
                                  "               not checked: needs a GPU ("),
                     both(r));
            QVERIFY2(out.endsWith("2 of 4 checks failed, 1 not checked (they do not count as passed)\n"), both(r));
        }
        QVERIFY2(r.err.isEmpty(), both(r));
    }

    void checkJsonHasVerdictsAndPointers() {
        const auto r = runNvpg({"check", qs(twoStepsPath()), "--json"});
        QVERIFY2(r.exitCode == 1, both(r));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["file"].get<std::string>(), twoStepsPath().string());
        QCOMPARE(j["lesson"].get<std::string>(), std::string("tests/two-steps"));
        QCOMPARE(j["step"].get<int>(), 1);
        QCOMPARE(j["steps"].get<int>(), 2);
        QCOMPARE(j["title"].get<std::string>(), std::string("Make it a kernel"));
        QCOMPARE(j["passed"].get<bool>(), false);
        QCOMPARE(verdictsOf(j), (QStringList{"passed", "failed", "failed", haveGpu() ? "failed" : "not checked"}));
        const char* kinds[] = {"compiles", "kernel-exists", "ptx-contains", "runs"};
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(j["checks"][i]["check"].get<std::string>(), std::string(kinds[i]));
            QCOMPARE(j["checks"][i]["pointer"].get<std::string>(), "/lesson/steps/0/checks/" + std::to_string(i));
        }
        QCOMPARE(j["checks"][0]["message"].get<std::string>(), std::string());
        QCOMPARE(j["checks"][1]["label"].get<std::string>(), std::string("kernel-exists saxpy"));
        QCOMPARE(j["checks"][1]["message"].get<std::string>(), std::string("saxpy is not a kernel yet: annotate it."));
        QCOMPARE(j["checks"][1]["found"].get<std::string>(), std::string("the PTX has no .entry saxpy"));
        QCOMPARE(j["checks"][2]["message"].get<std::string>(), std::string("The PTX needs a .entry."));
        const auto runMessage = QString::fromStdString(j["checks"][3]["message"].get<std::string>());
        if (haveGpu())
            QCOMPARE(runMessage, QString("saxpy must run."));
        else
            QVERIFY2(runMessage.startsWith("not checked: needs a GPU ("), qPrintable(runMessage));
    }

    // A teacher's reference for step 1: everything passes that can be checked; the run check
    // needs a GPU, so on a machine without one it is "not checked" and the exit is 1.
    void solutionOfStepOne() {
        QTemporaryDir dir;
        const auto s1 = dir.filePath("s1.nvpg");
        auto r = runNvpg({"lesson", "state", qs(twoStepsPath()), "--step", "1", "--solution", "-o", s1});
        QVERIFY2(r.exitCode == 0, both(r));
        r = runNvpg({"check", s1});
        const auto out = QString::fromUtf8(r.out);
        QVERIFY2(!out.contains("FAILED"), both(r));
        QVERIFY2(out.contains("  passed       kernel-exists saxpy\n"), both(r));
        QVERIFY2(out.contains("  passed       ptx-contains /^\\.visible \\.entry saxpy/\n"), both(r));
        if (haveGpu()) {
            QVERIFY2(r.exitCode == 0, both(r));
            QVERIFY2(out.endsWith("all 4 checks passed\n"), both(r));
        } else {
            QVERIFY2(r.exitCode == 1, both(r));
            QVERIFY2(out.contains("  not checked  runs saxpy \"saxpy 4096\"\n"
                                  "               not checked: needs a GPU ("),
                     both(r));
            QVERIFY2(out.endsWith("0 of 4 checks failed, 1 not checked (they do not count as passed)\n"), both(r));
        }
    }

    // Step 2 has no GPU check: its solution passes, exit 0; its start fails, exit 1. The file
    // written is on that step, so `nvpg check` needs no --step.
    void stepTwoSolutionPassesAndStartFails() {
        QTemporaryDir dir;
        const auto s2 = dir.filePath("s2.nvpg");
        auto r = runNvpg({"lesson", "state", qs(twoStepsPath()), "--step", "2", "--solution", "-o", s2});
        QVERIFY2(r.exitCode == 0, both(r));
        r = runNvpg({"check", s2});
        QVERIFY2(r.exitCode == 0, both(r));
        const auto out = QString::fromUtf8(r.out);
        QVERIFY2(out.startsWith(s2 + ": lesson \"Two steps\", step 2 of 2: Split the fma\n"), both(r));
        QVERIFY2(out.contains("  passed       option fma == 0\n"), both(r));
        QVERIFY2(out.endsWith("all 5 checks passed\n"), both(r));
        r = runNvpg({"check", s2, "--json"});
        QVERIFY2(r.exitCode == 0, both(r));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["passed"].get<bool>(), true);
        QCOMPARE(j["step"].get<int>(), 2);
        QCOMPARE(verdictsOf(j), (QStringList{"passed", "passed", "passed", "passed", "passed"}));

        const auto start = dir.filePath("s2-start.nvpg");
        r = runNvpg({"lesson", "state", qs(twoStepsPath()), "--step", "2", "--start", "-o", start});
        QVERIFY2(r.exitCode == 0, both(r));
        r = runNvpg({"check", start});
        QVERIFY2(r.exitCode == 1, both(r));
        const auto failed = QString::fromUtf8(r.out);
        QVERIFY2(failed.contains("  FAILED       option fma == 0\n"
                                 "               Turn fma off.\n"
                                 "               (fma is 1 (libNVVM's default))\n"),
                 both(r));
        QVERIFY2(failed.contains(QRegularExpression(R"(  FAILED       ptx-lacks saxpy /fma\\\.rn\\\.f32/\n)"
                                                    R"(               There is still an fma\.rn\.f32\.\n)"
                                                    R"(               \(found at line \d+: fma\.rn\.f32 )")),
                 both(r));
        QVERIFY2(failed.endsWith("2 of 5 checks failed\n"), both(r));
        // --step grades the same file against another step's checks.
        r = runNvpg({"check", start, "--step", "1", "--json"});
        const auto j1 = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j1["step"].get<int>(), 1);
        QCOMPARE(verdictsOf(j1).mid(0, 3), (QStringList{"passed", "passed", "passed"}));
    }

    // What `lesson state` writes: the lesson, its keys as written and the step it is on, with the
    // workspace at that step's state.
    void stateWritesTheLessonAtTheStep() {
        QTemporaryDir dir;
        const auto out = dir.filePath("s2.nvpg");
        auto r = runNvpg({"lesson", "state", qs(twoStepsPath()), "--step", "2", "--solution", "-o", out});
        QVERIFY2(r.exitCode == 0, both(r));
        QVERIFY2(r.out.isEmpty() && r.err.isEmpty(), both(r));
        const auto written = ojson::parse(test::readText(out.toStdString()));
        QCOMPARE(written["version"].get<int>(), 3);
        QStringList keys;
        for (const auto& [k, v] : written["lesson"].items()) keys << QString::fromStdString(k);
        QCOMPARE(keys, (QStringList{"id", "title", "summary", "steps", "current"}));
        QCOMPARE(written["lesson"]["current"].get<int>(), 2);
        QVERIFY(written["lesson"]["steps"] == twoStepsJson()["lesson"]["steps"]);
        QCOMPARE(written["name"].get<std::string>(), std::string("test lesson"));
        QCOMPARE(written["options"].dump(), std::string(R"({"fma":false})"));
        const auto source = lesson::loadLesson(twoStepsPath());
        const auto read = lesson::loadLesson(out.toStdString());
        QVERIFY2(source && read, read ? "" : read.error().message.c_str());
        QCOMPARE(read->lesson.current, 2);
        QVERIFY(read->workspace.modules[0].bytes == source->lesson.steps[1].solution->modules[0].bytes);
        QVERIFY(read->workspace.options == source->lesson.steps[1].solution->options);

        // Not over the lesson itself, and not a solution a step does not have.
        QTemporaryDir copyDir;
        const auto copy = writeLesson(copyDir, "lesson.nvpg", twoStepsJson());
        r = runNvpg({"lesson", "state", copy, "--step", "1", "-o", copy});
        QVERIFY2(r.exitCode == 2, both(r));
        QVERIFY2(r.err.contains("that is the lesson itself; write another file"), both(r));
        auto doc = twoStepsJson();
        doc["lesson"]["steps"][1].erase("solution");
        const auto noSolution = writeLesson(copyDir, "no-solution.nvpg", doc);
        r = runNvpg({"lesson", "state", noSolution, "--step", "2", "--solution", "-o", dir.filePath("x.nvpg")});
        QVERIFY2(r.exitCode == 2, both(r));
        QVERIFY2(r.err.contains("step 2 (\"Split the fma\") has no solution"), both(r));
    }

    void stepOutOfRangeIsAUsageError() {
        auto r = runNvpg({"check", qs(twoStepsPath()), "--step", "5"});
        QVERIFY2(r.exitCode == 2, both(r));
        QVERIFY2(r.err.contains("--step 5: the lesson has steps 1 to 2"), both(r));
        QVERIFY2(r.out.isEmpty(), both(r));
        r = runNvpg({"check", qs(twoStepsPath()), "--step", "0"});
        QVERIFY2(r.exitCode == 2, both(r));
        r = runNvpg({"lesson", "state", qs(twoStepsPath()), "--step", "3", "-o", "/dev/null"});
        QVERIFY2(r.exitCode == 2, both(r));
        QVERIFY2(r.err.contains("--step 3: the lesson has steps 1 to 2"), both(r));
    }

    // A malformed lesson is the teacher's to fix: `nvpg check` stops with exit 2 and the pointer.
    void malformedLessonIsAUsageError() {
        QTemporaryDir dir;
        auto doc = twoStepsJson();
        doc["lesson"]["steps"][0]["checks"][2]["check"] = "ptx-contain";
        const auto bad = writeLesson(dir, "bad.nvpg", doc);
        auto r = runNvpg({"check", bad});
        QVERIFY2(r.exitCode == 2, both(r));
        QVERIFY2(r.err.contains("bad.nvpg: /lesson/steps/0/checks/2/check: unknown check \"ptx-contain\"; the "
                                "checks are compiles, no-diagnostics, ptx-contains"),
                 both(r));
        QVERIFY2(r.out.isEmpty(), both(r));
        r = runNvpg({"check", bad, "--json"});
        QVERIFY2(r.exitCode == 2, both(r));
        QVERIFY2(r.err.contains("/lesson/steps/0/checks/2/check"), both(r));

        doc = twoStepsJson();
        doc["lesson"]["steps"][1]["checks"][1]["pattern"] = "(unclosed";
        r = runNvpg({"check", writeLesson(dir, "regex.nvpg", doc)});
        QVERIFY2(r.exitCode == 2, both(r));
        QVERIFY2(r.err.contains("regex.nvpg: /lesson/steps/1/checks/1/pattern: \"(unclosed\" is not a valid "
                                "regular expression"),
                 both(r));

        // A plain workspace is not a lesson.
        r = runNvpg({"check", qs(test::examplePath("saxpy"))});
        QVERIFY2(r.exitCode == 2, both(r));
        QVERIFY2(r.err.contains("saxpy.nvpg: this workspace is not a lesson"), both(r));
        r = runNvpg({"check", dir.filePath("missing.nvpg")});
        QVERIFY2(r.exitCode == 2, both(r));
    }

    void validateTwoSteps() {
        auto r = runNvpg({"lesson", "validate", qs(twoStepsPath())});
        QVERIFY2(r.exitCode == 0, both(r));
        const auto out = QString::fromUtf8(r.out);
        QVERIFY2(out.endsWith(qs(twoStepsPath()) +
                              ": valid: 2 steps, each start fails a check and each solution passes all\n"),
                 both(r));
        if (!haveGpu())
            QVERIFY2(out.contains("note: two-steps.nvpg: step 1 (\"Make it a kernel\"): /lesson/steps/0/checks/3 "
                                  "(runs saxpy \"saxpy 4096\") not checked: needs a GPU"),
                     both(r));
        QVERIFY2(r.err.isEmpty(), both(r));

        r = runNvpg({"lesson", "validate", qs(twoStepsPath()), "--json"});
        QVERIFY2(r.exitCode == 0, both(r));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["valid"].get<bool>(), true);
        QVERIFY(j["problems"].empty());
        QCOMPARE(j["steps"].size(), size_t(2));
        QCOMPARE(j["steps"][1]["title"].get<std::string>(), std::string("Split the fma"));
        QStringList start, solution;
        for (const auto& c : j["steps"][1]["start"]) start << QString::fromStdString(c["verdict"].get<std::string>());
        for (const auto& c : j["steps"][1]["solution"])
            solution << QString::fromStdString(c["verdict"].get<std::string>());
        QCOMPARE(start, (QStringList{"failed", "failed", "passed", "passed", "passed"}));
        QCOMPARE(solution, (QStringList{"passed", "passed", "passed", "passed", "passed"}));
    }

    // A start that already passes leaves the learner nothing to do.
    void validateStartThatPassesEverything() {
        QTemporaryDir dir;
        auto doc = twoStepsJson();
        doc["lesson"]["steps"][0]["start"]["modules"] = doc["lesson"]["steps"][0]["solution"]["modules"];
        const auto path = writeLesson(dir, "easy.nvpg", doc);
        auto r = runNvpg({"lesson", "validate", path});
        QVERIFY2(r.exitCode == 1, both(r));
        QVERIFY2(r.err.contains("nvpg: easy.nvpg: step 1 (\"Make it a kernel\"): its start already passes every "
                                "check that could be checked; a learner would have nothing to do"),
                 both(r));
        QVERIFY2(!r.err.contains("step 2"), both(r));
        QVERIFY2(!r.out.contains("valid:"), both(r));
        r = runNvpg({"lesson", "validate", path, "--json"});
        QVERIFY2(r.exitCode == 1, both(r));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["valid"].get<bool>(), false);
        QCOMPARE(j["problems"].size(), size_t(1));
        QVERIFY(QString::fromStdString(j["problems"][0].get<std::string>()).contains("step 1 (\"Make it a kernel\")"));
    }

    // A solution that fails a check: each failing check is named by the step and its pointer,
    // with the learner's message and what was found.
    void validateSolutionThatFails() {
        QTemporaryDir dir;
        auto doc = twoStepsJson();
        doc["lesson"]["steps"][1]["solution"]["options"]["fma"] = true;
        const auto path = writeLesson(dir, "wrong.nvpg", doc);
        const auto r = runNvpg({"lesson", "validate", path});
        QVERIFY2(r.exitCode == 1, both(r));
        QVERIFY2(r.err.contains("nvpg: wrong.nvpg: step 2 (\"Split the fma\"): its solution fails "
                                "/lesson/steps/1/checks/0 (option fma == 0): Turn fma off. (fma is 1)\n"),
                 both(r));
        QVERIFY2(r.err.contains("nvpg: wrong.nvpg: step 2 (\"Split the fma\"): its solution fails "
                                "/lesson/steps/1/checks/1 (ptx-lacks saxpy /fma\\.rn\\.f32/): There is still an "
                                "fma.rn.f32. (found at line "),
                 both(r));
        QVERIFY2(!r.err.contains("step 1"), both(r));
    }

    // Form and kernels are checked before anything is compiled.
    void validateMalformedAndUnknownKernel() {
        QTemporaryDir dir;
        auto doc = twoStepsJson();
        doc["lesson"]["steps"][1]["checks"][2]["kernel"] = "saxpi";
        auto r = runNvpg({"lesson", "validate", writeLesson(dir, "kernel.nvpg", doc)});
        QVERIFY2(r.exitCode == 1, both(r));
        QVERIFY2(r.err.contains("nvpg: kernel.nvpg: /lesson/steps/1/checks/2/kernel: kernel \"saxpi\" is defined in "
                                "neither the start nor the solution of step 2 (\"Split the fma\")"),
                 both(r));

        doc = twoStepsJson();
        doc["lesson"]["steps"][0]["start"] = "continue";
        r = runNvpg({"lesson", "validate", writeLesson(dir, "continue.nvpg", doc)});
        QVERIFY2(r.exitCode == 2, both(r));  // not a readable lesson, as in nvpg check
        QVERIFY2(r.err.contains("continue.nvpg: /lesson/steps/0/start: the first step cannot continue"), both(r));

        doc = twoStepsJson();
        doc["lesson"]["steps"][0]["checks"][3]["run"] = "saxpy 8192";
        r = runNvpg({"lesson", "validate", writeLesson(dir, "run.nvpg", doc), "--json"});
        QVERIFY2(r.exitCode == 2, both(r));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["valid"].get<bool>(), false);
        QCOMPARE(j["problems"].size(), size_t(1));
        QVERIFY2(QString::fromStdString(j["problems"][0].get<std::string>())
                     .contains("run.nvpg: /lesson/steps/0/checks/3/run: there is no run configuration \"saxpy "
                               "8192\" in step 1's start or solution"),
                 both(r));
    }

    // The issue's steps without a GPU: a step's solution written into another folder carries the
    // data its output check compares with, so the check gets as far as the GPU: "not checked:
    // needs a GPU", never "cannot read" and never FAILED. With a GPU it passes (tst_gpu_lesson
    // runs exactly this on the GPU machine).
    void aSolutionWrittenElsewhereCarriesItsReference() {
        QTemporaryDir dir;
        const auto elsewhere = dir.filePath("elsewhere");
        QVERIFY(QDir().mkpath(elsewhere));
        const auto s2 = elsewhere + "/s2.nvpg";
        auto r = runNvpg({"lesson", "state", qs(bundledLessonsDir() / "01-first-kernel.nvpg"), "--step", "2",
                          "--solution", "-o", s2});
        QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), both(r));
        const auto written = ojson::parse(test::readText(s2.toStdString()));
        QVERIFY(written["lesson"]["files"].contains("01-first-kernel/scale-1024.npy"));
        QVERIFY(!QFileInfo::exists(elsewhere + "/01-first-kernel"));
        r = runNvpg({"check", s2});
        const auto out = QString::fromUtf8(r.out);
        QVERIFY2(!out.contains("FAILED") && !out.contains("cannot read"), both(r));
        if (haveGpu()) {
            QVERIFY2(r.exitCode == 0, both(r));
            QVERIFY2(out.contains("  passed       output \"scale 1024\" arg 1 == scale-1024.npy\n"), both(r));
        } else {
            QVERIFY2(r.exitCode == 1, both(r));
            QVERIFY2(out.contains("  not checked  output \"scale 1024\" arg 1 == scale-1024.npy\n"
                                  "               not checked: needs a GPU"),
                     both(r));
        }
        // What the learner reads of each check, beside the teacher's detail.
        r = runNvpg({"check", s2, "--json"});
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["checks"][1]["description"].get<std::string>(),
                 std::string("The kernel reads blockIdx.x (%ctaid.x)"));
        QCOMPARE(j["checks"][1]["label"].get<std::string>(), std::string("ptx-contains scale /%ctaid\\.x/"));
    }

    // A reference that cannot be read is the lesson's problem: its check is not checked and says
    // why, with no learner's message and no FAILED, and `lesson validate` names it. A file of the
    // installed course's lesson that carries none (an older nvpg wrote it) finds the course's.
    void aReferenceThatCannotBeReadIsNotChecked() {
        QTemporaryDir dir;
        auto doc = ojson::parse(test::readText(bundledLessonsDir() / "01-first-kernel.nvpg"));
        doc["lesson"].erase("files");
        doc["lesson"]["current"] = 2;
        doc["modules"] = doc["lesson"]["steps"][1]["solution"]["modules"];
        const auto old = writeLesson(dir, "old.nvpg", doc);
        auto r = runNvpg({"check", old});
        QVERIFY2(!r.out.contains("cannot read") && !r.out.contains("FAILED"), both(r));

        doc["lesson"]["id"] = "someone/first-kernel";
        const auto lost = writeLesson(dir, "lost.nvpg", doc);
        r = runNvpg({"check", lost});
        QVERIFY2(r.exitCode == 1, both(r));
        const auto out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains("  not checked  output \"scale 1024\" arg 1 == scale-1024.npy\n"
                              "               not checked: cannot read reference 01-first-kernel/scale-1024.npy ("),
                 both(r));
        QVERIFY2(!out.contains("FAILED") && !out.contains("After the run"), both(r));
        QVERIFY2(out.endsWith("0 of 4 checks failed, 1 not checked (they do not count as passed)\n"), both(r));
        r = runNvpg({"lesson", "validate", lost});
        QVERIFY2(r.exitCode == 1, both(r));
        QVERIFY2(r.err.contains("nvpg: lost.nvpg: /lesson/steps/1/checks/3/equals: cannot read reference "
                                "01-first-kernel/scale-1024.npy ("),
                 both(r));
    }

    // A teacher's lesson with its .npy beside it: `lesson state` carries the file in the state it
    // writes; one it cannot carry is a note, and the state is still written.
    void stateCarriesTheFilesBesideTheLesson() {
        QTemporaryDir dir, out;
        QVERIFY(QDir().mkpath(dir.filePath("data")));
        const std::vector<float> y(4096, 1.0f);
        gpu::NpyArray a;
        a.type = gpu::ElemType::F32;
        a.shape = {y.size()};
        a.data.assign(reinterpret_cast<const char*>(y.data()), y.size() * sizeof(float));
        const auto npy = gpu::writeNpy(a);
        QVERIFY(support::writeFileAtomic(dir.filePath("data/y.npy").toStdString(), npy));
        auto doc = twoStepsJson();
        doc["lesson"]["steps"][0]["checks"].push_back(ojson::parse(
            R"({"check": "output", "run": "saxpy 4096", "arg": 4, "equals": "data/y.npy", "message": "y"})"));
        doc["lesson"]["steps"][0]["checks"].push_back(ojson::parse(
            R"({"check": "output", "run": "saxpy 4096", "arg": 3, "equals": "data/x.npy", "message": "x"})"));
        const auto lesson = writeLesson(dir, "teacher.nvpg", doc);
        const auto state = out.filePath("s1.nvpg");
        auto r = runNvpg({"lesson", "state", lesson, "--step", "1", "--solution", "-o", state});
        QVERIFY2(r.exitCode == 0, both(r));
        QVERIFY2(r.err.contains("nvpg: note: data/x.npy: not carried in the lesson (cannot read "), both(r));
        const auto written = ojson::parse(test::readText(state.toStdString()));
        QCOMPARE(written["lesson"]["files"].size(), size_t(1));
        QCOMPARE(written["lesson"]["files"]["data/y.npy"].get<std::string>(), support::base64Encode(npy));
        QVERIFY(lesson::loadLesson(state.toStdString()));
    }

    // The bundled course, which ships with the program: each lesson is valid; as shipped it fails its
    // first step; each step's reference solution fails no check (GPU checks may be not checked).
    void bundledLessons_data() {
        QTest::addColumn<QString>("path");
        std::vector<fs::path> lessons;
        if (fs::is_directory(bundledLessonsDir()))
            for (const auto& e : fs::directory_iterator(bundledLessonsDir()))
                if (e.path().extension() == ".nvpg") lessons.push_back(e.path());
        std::sort(lessons.begin(), lessons.end());
        if (lessons.empty()) QTest::newRow("no lessons") << QString();
        for (const auto& l : lessons) QTest::newRow(l.filename().string().c_str()) << qs(l);
    }
    void bundledLessons() {
        QFETCH(QString, path);
        if (path.isEmpty())
            QFAIL(qPrintable("no bundled lessons in " + qs(bundledLessonsDir()) +
                             ": the course (issue 30) is a deliverable"));
        auto r = runNvpg({"lesson", "validate", path});
        QVERIFY2(r.exitCode == 0, both(r));
        r = runNvpg({"check", path});
        QVERIFY2(r.exitCode == 1, both(r));
        QVERIFY2(r.out.contains("FAILED"), both(r));

        const auto file = lesson::loadLesson(path.toStdString());
        QVERIFY2(file, file ? "" : file.error().message.c_str());
        // The states are written away from the course: what their checks compare with travels in
        // the lesson files themselves.
        QTemporaryDir dir;
        const fs::path copy = fs::path(dir.path().toStdString());
        const auto name = fs::path(path.toStdString()).stem().string();
        for (size_t i = 0; i < file->lesson.steps.size(); ++i) {
            if (!file->lesson.steps[i].solution) continue;
            const auto step = QString::number(i + 1);
            const auto out = qs(copy / (name + "-step" + step.toStdString() + ".nvpg"));
            r = runNvpg({"lesson", "state", path, "--step", step, "--solution", "-o", out});
            QVERIFY2(r.exitCode == 0, both(r));
            r = runNvpg({"check", out, "--json"});
            const auto j = nlohmann::json::parse(r.out.toStdString());
            const auto verdicts = verdictsOf(j);
            QVERIFY2(!verdicts.contains("failed"), qPrintable("step " + step + ":\n" + both(r)));
            QVERIFY2(r.exitCode == (verdicts.contains("not checked") ? 1 : 0), both(r));
            r = runNvpg({"check", out});
            QVERIFY2(!r.out.contains("FAILED"), both(r));
        }
    }

    // The bundled lesson 02's step 3 pattern `\.global .*\btile\[` over the PTX of a module with
    // a global of 300,000 initialised i32s (one PTX line of megabytes): std::regex recursed per
    // character and overflowed the stack. The learner's file passes every check of the step.
    void aPatternOverAMegabyteLineDoesNotCrash() {
        QTemporaryDir dir;
        const auto learner = step3WithABigGlobal(dir);
        const auto r = runNvpg({"check", learner});
        QVERIFY2(r.exitCode == 0, both(r));
        QVERIFY2(r.out.contains("  passed       ptx-lacks /\\.global .*\\btile\\[/\n"), both(r));
        QVERIFY2(r.out.endsWith("all 5 checks passed\n"), both(r));
    }

    // Patterns that backtrack exponentially in std::regex (seen running past 120 s) finish at once
    // over a PTX of about a megabyte, with the right verdicts: nvpg is killed and the test fails
    // if it takes 30 s.
    void patternsThatBacktrackFinishAtOnce() {
        QTemporaryDir dir;
        const auto learner = step3WithABigGlobal(dir);
        auto doc = ojson::parse(test::readText(learner.toStdString()));
        auto check = [](const char* kind, const char* pattern, const char* message) {
            return ojson{{"check", kind}, {"pattern", pattern}, {"message", message}};
        };
        doc["lesson"]["steps"][2]["checks"] = ojson::array({
            check("ptx-contains", "(.*)*\\}$", "a line that ends in }"),
            check("ptx-lacks", "(.*)*x$", "no line ends in x"),
            check("ptx-lacks", "^(\\s*.*\\s*)*[%]Z$", "no line ends in %Z"),
            check("ptx-contains", "^(\\s*.*\\s*)*[%]r\\d+;$", "a line ends in a register"),
        });
        const auto file = writeLesson(dir, "slow.nvpg", doc);
        QVERIFY(fs::file_size(file.toStdString()) > 1000000);
        const auto r = runNvpg({"check", file, "--json"}, {}, 30000);
        QVERIFY2(r.exitCode == 0, both(r));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(verdictsOf(j), (QStringList{"passed", "passed", "passed", "passed"}));
    }

    // A pattern RE2 cannot take (a backreference, a lookahead, one too large for its memory) is
    // refused before anything is compiled, naming the step, the check, the pattern and why.
    void patternsRe2CannotTakeAreRefused_data() {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("reason");
        QTest::newRow("backreference") << QString("(fma)\\.rn\\.\\1") << QString("invalid escape sequence: \\1");
        QTest::newRow("lookahead") << QString("fma(?=\\.rn)") << QString("invalid perl operator: (?=");
        QTest::newRow("too large") << QString("\\pL{1000}").repeated(40) << QString("pattern too large");
    }
    void patternsRe2CannotTakeAreRefused() {
        QFETCH(QString, pattern);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const auto file = writeLesson(dir, "re2.nvpg", twoStepsWithChecks(ojson::parse(R"([
                                          {"check": "compiles", "message": "m"},
                                          {"check": "ptx-lacks", "pattern": "", "message": "m"}
                                      ])")));
        auto doc = ojson::parse(test::readText(file.toStdString()));
        doc["lesson"]["steps"][1]["checks"][1]["pattern"] = pattern.toStdString();
        writeLesson(dir, "re2.nvpg", doc);
        for (const auto& args : {QStringList{"lesson", "validate", file}, QStringList{"check", file}}) {
            const auto r = runNvpg(args);
            QVERIFY2(r.exitCode == 2, both(r));
            const auto err = QString::fromUtf8(r.err);
            QVERIFY2(err.contains("re2.nvpg: /lesson/steps/1/checks/1/pattern: \"" + pattern.left(60)), both(r));
            QVERIFY2(err.contains("is not a valid regular expression for step 2, check 2 (" + reason), both(r));
            QVERIFY2(err.contains("patterns are RE2 syntax"), both(r));
            QVERIFY2(r.out.isEmpty(), both(r));
        }
    }

    // A lesson over 64 MiB is refused before it is read, one of 10,001 steps before a step is
    // read: exit 2, saying the bound.
    void lessonsOverTheBoundsAreRefused() {
        QTemporaryDir dir;
        // Sparse: its size is all that is looked at.
        const auto big = dir.filePath("big.nvpg");
        writeLesson(dir, "big.nvpg", twoStepsJson());
        fs::resize_file(big.toStdString(), (uint64_t(64) << 20) + 1);
        auto doc = twoStepsJson();
        auto& steps = doc["lesson"]["steps"];
        auto next = steps[1];
        next["start"] = "continue";
        while (steps.size() < 10001) steps.push_back(next);
        const auto many = writeLesson(dir, "many.nvpg", doc);
        for (const auto& command : {QStringList{"lesson", "validate"}, QStringList{"check"}}) {
            auto r = runNvpg(command + QStringList{big});
            QVERIFY2(r.exitCode == 2, both(r));
            QVERIFY2(r.err.contains("big.nvpg is 64 MiB (67108865 bytes), more than the 64 MiB (67108864 bytes) "
                                    "a lesson may be"),
                     both(r));
            r = runNvpg(command + QStringList{many});
            QVERIFY2(r.exitCode == 2, both(r));
            QVERIFY2(r.err.contains("many.nvpg: /lesson/steps: 10,001 steps, more than the 10,000 a lesson may have"),
                     both(r));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliLesson)
#include "tst_cli_lesson.moc"
