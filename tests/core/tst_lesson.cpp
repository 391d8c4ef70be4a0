// Lessons: a workspace's "lesson" read into steps, states and checks; malformed lessons
// refused with the file, the JSON pointer and what to do; and each check's verdict, message and
// what was found on real compiles (libNVVM, libdevice, nvJitLink, ptxas), as the learner sees them.
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "TestSupport.h"
#include "core/gpu/Npy.h"
#include "core/lesson/Course.h"
#include "core/lesson/Lesson.h"
#include "core/nvvm/Options.h"
#include "core/pipeline/Pipeline.h"
#include "core/support/Base64.h"
#include "core/support/Files.h"
#include "core/support/Text.h"
#include "core/workspace/Workspace.h"

using namespace nvpg;
namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;
using lesson::CheckKind;
using lesson::Verdict;

namespace {

QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), int(s.size()));
}

fs::path twoStepsPath() {
    return test::dataDir() / "lessons" / "two-steps.nvpg";
}

lesson::LessonFile loadOrDie(const fs::path& path) {
    auto f = lesson::loadLesson(path);
    if (!f) qFatal("%s", f.error().message.c_str());
    return std::move(*f);
}

void writeOrDie(const fs::path& path, const std::string& bytes) {
    if (auto st = support::writeFileAtomic(path, bytes); !st) qFatal("%s", st.error().message.c_str());
}

// A module defining the kernel `scale` (data[i] *= k) and declaring, not defining, @helper: for
// the lessons the tests write.
const char* const kScaleIr =
    "target datalayout = "
    "\"e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:"
    "32-v64:64:64-v128:128:128-n16:32:64\"\n"
    "target triple = \"nvptx64-nvidia-cuda\"\n\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare void @helper(float*)\n\n"
    "define void @scale(float* %data, float %k) {\n"
    "  %i = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %idx = sext i32 %i to i64\n"
    "  %p = getelementptr inbounds float, float* %data, i64 %idx\n"
    "  %v = load float, float* %p, align 4\n"
    "  %r = fmul float %v, %k\n"
    "  store float %r, float* %p, align 4\n"
    "  ret void\n"
    "}\n\n"
    "!nvvm.annotations = !{!0}\n"
    "!0 = !{void (float*, float)* @scale, !\"kernel\", i32 1}\n"
    "!nvvmir.version = !{!1}\n"
    "!1 = !{i32 2, i32 0}\n";

ojson scaleModule() {
    return {{"name", "k.ll"}, {"text", kScaleIr}};
}

ojson scaleRun() {
    return ojson::parse(R"({"args": ["buf:f32:256:iota", "f32:2"], "block": [256, 1, 1], "from": "ptx",
                            "grid": [1, 1, 1], "kernel": "scale", "name": "scale 256", "repeat": 1,
                            "shared": 0, "timeout": 10})");
}

// A valid two-step lesson file (as JSON) that the malformed rows each break in one place.
ojson testLesson() {
    ojson doc = ojson::object();
    doc["format"] = "nvvm-playground-workspace";
    doc["version"] = 3;
    doc["name"] = "bad";
    doc["modules"] = ojson::array({scaleModule()});
    doc["lesson"] = ojson::parse(R"({
      "id": "tests/bad",
      "title": "Bad",
      "steps": [
        {"title": "First", "instructions": "Do it.", "start": {},
         "checks": [
           {"check": "compiles", "message": "It must compile."},
           {"check": "ptx-contains", "pattern": "mul\\.f32", "kernel": "scale", "message": "Multiply."},
           {"check": "registers", "kernel": "scale", "max": 32, "message": "Use fewer registers."},
           {"check": "option", "name": "fma", "value": false, "message": "Turn fma off."},
           {"check": "runs", "run": "scale 256", "message": "It must run."}]},
        {"title": "Second", "instructions": "More.", "start": "continue",
         "checks": [{"check": "compiles", "message": "It must still compile."}]}
      ]})");
    auto& start = doc["lesson"]["steps"][0]["start"];
    start["modules"] = ojson::array({scaleModule()});
    start["runs"] = ojson::array({scaleRun()});
    return doc;
}

ojson& at(ojson& doc, const char* pointer) {
    return doc[ojson::json_pointer(pointer)];
}

template <class Change>
QString testLessonWith(Change change) {
    auto doc = testLesson();
    change(doc);
    return qs(doc.dump(2));
}

// A one-step lesson on `ws`'s state (its modules, options, libdevice, LTO mode, runs) with
// `checks`, written as `file` and read back the way nvpg reads a teacher's file: the checks go
// through the lesson reader, and a check's .npy is found beside `file`.
lesson::LessonFile lessonOn(const workspace::Workspace& ws, const ojson& checks, const fs::path& file) {
    auto doc = ojson::parse(workspace::serializeWorkspace(ws));
    doc["version"] = 3;
    ojson start = ojson::object();
    for (const char* key : {"modules", "options", "libdevice", "verify", "lto", "runs"})
        if (doc.contains(key)) start[key] = doc[key];
    ojson step = ojson::object();
    step["title"] = "The step";
    step["instructions"] = "Do it.";
    step["start"] = start;
    step["checks"] = checks;
    ojson l = ojson::object();
    l["id"] = "tests/on-a-state";
    l["title"] = "On a state";
    l["steps"] = ojson::array({step});
    doc["lesson"] = l;
    writeOrDie(file, doc.dump(2));
    return loadOrDie(file);
}

// The compile a step's checks are evaluated on, as nvpg check makes it: checkJob's outputs on the
// real toolkit.
pipeline::CompileResult compileFor(const lesson::Step& step, const workspace::Workspace& state) {
    const auto tk = test::realToolkit();
    pipeline::Pipeline p(tk);
    auto r = p.run(lesson::checkJob(step, state, tk->nvJitLink() != nullptr));
    if (!r) qFatal("%s", r.error().message.c_str());
    return std::move(*r);
}

// Evidence of a compile on a machine without a GPU (this one, and CI).
lesson::Evidence noGpu(const pipeline::CompileResult& r) {
    lesson::Evidence ev;
    ev.compile = &r;
    ev.gpuAvailable = false;
    return ev;
}

// "passed, failed, not checked": the verdicts in order, for comparing and for messages.
QString verdicts(const std::vector<lesson::CheckOutcome>& outcomes) {
    QStringList v;
    for (const auto& o : outcomes) v << qs(lesson::verdictName(o.verdict));
    return v.join(", ");
}

// Everything a learner sees of the outcomes, for failure messages.
QByteArray shown(const std::vector<lesson::CheckOutcome>& outcomes) {
    QString s;
    for (const auto& o : outcomes)
        s += QString("\n  %1 %2 [%3] message: %4 | found: %5")
                 .arg(qs(lesson::verdictName(o.verdict)), qs(o.check->pointer),
                      qs(lesson::checkKindName(o.check->kind)), qs(o.message), qs(o.found));
    return s.toUtf8();
}

// The 1-based line range of `name`'s .entry in `ptx`, read here independently of core: from its
// `.entry name(` line to the first line that is only "}".
std::pair<int, int> entryLines(const std::string& ptx, const std::string& name) {
    int n = 0, first = 0;
    for (auto line : support::splitLines(ptx)) {
        ++n;
        if (!first && line.find(".entry " + name + "(") != std::string_view::npos) first = n;
        if (first && support::trim(line) == "}") return {first, n};
    }
    return {first, 0};
}

int lineNumberOf(const std::string& found) {
    // "line 31: mul.f32 ..." or "found at line 31: ..."
    const auto at = found.find("line ");
    return at == std::string::npos ? 0 : std::atoi(found.c_str() + at + 5);
}

std::string npyOf(const std::vector<float>& values) {
    gpu::NpyArray a;
    a.type = gpu::ElemType::F32;
    a.shape = {values.size()};
    a.data.assign(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
    return gpu::writeNpy(a);
}

}  // namespace

class TestLesson : public QObject {
    Q_OBJECT

private slots:
    // Reading.
    void readsTwoSteps();
    void aLaterStartInheritsThePreviousStart();
    void aFirstStartLeavingKeysOutHasANewWorkspacesDefaults();
    void checkKindsAndVerdictsHaveTheirNames();
    void theTestLessonIsValid();
    void malformedLessons_data();
    void malformedLessons();
    void checksNamingAKernelNoStateDefines();
    void plainWorkspaceIsNotALesson();
    void savedAsVersion3WithTheLessonAsWritten();
    void versionOneWithoutLessonStaysVersionOne();
    void withStateAndWithCurrent();
    void checkJobAsksForWhatTheChecksNeed();

    // Evaluating, on real compiles.
    void twoStepsStepOneStartFailsSolutionPasses();
    void twoStepsStepTwo();
    void runChecksWithoutAGpuAreNeverPassed();
    void ptxPatternWithinOneKernel();
    void patternsAreSearchedOneLineAtATime();
    void registersFoundNamesTheCount();
    void optionUnsetIsLibnvvmsDefault();
    void libdeviceUsesAndUnused();
    void kernelExistsAfterLto();
    void compileFailureFailsTheChecksThatNeedIt();
    void sassChecksNeedNvdisasm();
    void outputWithinTolerance();
    void theBundledTilePatternOverAMegabyteLine();
    void patternsThatBacktrackFinishAtOnce();
    void lessonsOverTheBoundsAreRefused();

    // What the learner reads, and what a lesson carries.
    void checksAreDescribedInPlainWords();
    void theBundledChecklistsShowNoPatterns();
    void aCarriedReferenceNeedsNoFileBeside();
    void aReferenceThatCannotBeReadIsNotChecked();
    void embeddingCarriesTheFilesBeside();
    void theCourseSuppliesReferencesByTheLessonsId();
    void theNextLessonOfTheCourse();
    void aStepHidesTheFixesItTeaches();
};

void TestLesson::readsTwoSteps() {
    const auto f = loadOrDie(twoStepsPath());
    const auto& l = f.lesson;
    QCOMPARE(l.id, std::string("tests/two-steps"));
    QCOMPARE(l.title, std::string("Two steps"));
    QCOMPARE(l.summary, std::string("For the tests."));
    QCOMPARE(l.current, 1);  // the file has no "current": step 1
    QCOMPARE(l.folder, twoStepsPath().parent_path());
    QCOMPARE(l.steps.size(), size_t(2));

    const auto& s1 = l.steps[0];
    QCOMPARE(s1.title, std::string("Make it a kernel"));
    QCOMPARE(s1.instructions, std::string("Add the **kernel** annotation."));
    QCOMPARE(s1.hints,
             (std::vector<std::string>{"Look at the end of the module.", "Add `!nvvm.annotations = !{!0}`."}));
    QVERIFY(!s1.continues);
    QCOMPARE(s1.checks.size(), size_t(4));
    const std::vector<CheckKind> kinds1{CheckKind::Compiles, CheckKind::KernelExists, CheckKind::PtxContains,
                                        CheckKind::Runs};
    for (size_t i = 0; i < s1.checks.size(); ++i) {
        QVERIFY(s1.checks[i].kind == kinds1[i]);
        QCOMPARE(s1.checks[i].pointer, "/lesson/steps/0/checks/" + std::to_string(i));
    }
    QCOMPARE(s1.checks[0].message, std::string("It must compile."));
    QCOMPARE(s1.checks[1].kernel, std::string("saxpy"));
    QVERIFY(s1.checks[1].where == lesson::Where::Both);  // kernel-exists: the PTX and after LTO
    QCOMPARE(s1.checks[1].message, std::string("saxpy is not a kernel yet: annotate it."));
    QCOMPARE(s1.checks[2].pattern, std::string("^\\.visible \\.entry saxpy"));
    QVERIFY(s1.checks[2].where == lesson::Where::Ptx);
    QVERIFY(s1.checks[2].kernel.empty());
    QCOMPARE(s1.checks[3].run, std::string("saxpy 4096"));
    QCOMPARE(s1.checks[3].kernel, std::string("saxpy"));
    QVERIFY(s1.checks[3].needsGpu());
    QVERIFY(!s1.checks[2].needsGpu());

    const auto& s2 = l.steps[1];
    QCOMPARE(s2.title, std::string("Split the fma"));
    QCOMPARE(s2.instructions, std::string("Turn fma off."));
    QCOMPARE(s2.hints, std::vector<std::string>{"The Options dock has fma."});
    QVERIFY(s2.continues);
    QCOMPARE(s2.checks.size(), size_t(5));
    const std::vector<CheckKind> kinds2{CheckKind::Option, CheckKind::PtxLacks, CheckKind::Registers, CheckKind::Spills,
                                        CheckKind::LibdeviceUnused};
    for (size_t i = 0; i < s2.checks.size(); ++i) {
        QVERIFY(s2.checks[i].kind == kinds2[i]);
        QCOMPARE(s2.checks[i].pointer, "/lesson/steps/1/checks/" + std::to_string(i));
    }
    QCOMPARE(s2.checks[0].option, std::string("fma"));
    QCOMPARE(s2.checks[0].value, std::string("0"));  // JSON false, as the options write it
    QCOMPARE(s2.checks[1].kernel, std::string("saxpy"));
    QCOMPARE(s2.checks[2].max, 64);

    // Step 1's start is the state the learner is handed: the module without the annotation, the
    // run, a new workspace's options.
    QCOMPARE(s1.start.modules.size(), size_t(1));
    QCOMPARE(s1.start.modules[0].name, std::string("saxpy.ll"));
    QVERIFY(s1.start.modules[0].bytes.find("!nvvm.annotations = !{!0}") == std::string::npos);
    QCOMPARE(s1.start.runs.size(), size_t(1));
    QCOMPARE(s1.start.runs[0].name, std::string("saxpy 4096"));
    QVERIFY(s1.start.options == nvvm::Options{});
    QVERIFY(!s1.start.libdevice);
    QVERIFY(s1.start.lesson.is_null());
    // The file's own workspace state is that start (a bundled lesson as handed out).
    QCOMPARE(f.workspace.modules.size(), size_t(1));
    QVERIFY(f.workspace.modules[0].bytes == s1.start.modules[0].bytes);

    // The solution gives only modules: the rest is the start's.
    QVERIFY(s1.solution);
    QCOMPARE(s1.solution->modules.size(), size_t(1));
    QVERIFY(s1.solution->modules[0].bytes.find("!nvvm.annotations = !{!0}") != std::string::npos);
    QVERIFY(s1.solution->runs == s1.start.runs);
    QVERIFY(s1.solution->options == s1.start.options);
    QCOMPARE(s1.solution->libdevice, s1.start.libdevice);
    QCOMPARE(s1.solution->verify, s1.start.verify);
    QVERIFY(s1.solution->ltoMode == s1.start.ltoMode);
    QCOMPARE(&s1.reference(), &*s1.solution);

    // "continue": step 2 starts where step 1's solution ends.
    QCOMPARE(s2.start.modules.size(), size_t(1));
    QVERIFY(s2.start.modules[0].bytes == s1.solution->modules[0].bytes);
    QVERIFY(s2.start.runs == s1.solution->runs);
    QVERIFY(s2.start.options == s1.solution->options);
    // Step 2's solution sets fma only; its modules and runs are its start's.
    QVERIFY(s2.solution);
    QCOMPARE(s2.solution->options.get("fma").value_or("unset"), std::string("0"));
    QVERIFY(!s2.start.options.get("fma"));
    QVERIFY(s2.solution->modules[0].bytes == s2.start.modules[0].bytes);
    QVERIFY(s2.solution->runs == s2.start.runs);
}

// A later start given as an object takes the keys it leaves out from the previous step's start
// (not from its solution); a solution's from its own start.
void TestLesson::aLaterStartInheritsThePreviousStart() {
    auto doc = testLesson();
    at(doc, "/lesson/steps/0/solution") = ojson::parse(R"({"options": {"opt": 0}})");
    at(doc, "/lesson/steps/1/start") = ojson::parse(R"({"options": {"ftz": true}})");
    at(doc, "/lesson/steps/1/solution") = ojson::parse(R"({"libdevice": true})");
    const auto path = test::scratchDir() / "later-start.nvpg";
    writeOrDie(path, doc.dump());
    const auto f = loadOrDie(path);
    const auto& s1 = f.lesson.steps[0];
    const auto& s2 = f.lesson.steps[1];
    QVERIFY(!s2.continues);
    QVERIFY(s2.start.modules[0].bytes == s1.start.modules[0].bytes);
    QVERIFY(s2.start.runs == s1.start.runs);
    QCOMPARE(s2.start.options.get("ftz").value_or("unset"), std::string("1"));
    QVERIFY(!s2.start.options.get("opt"));  // step 1's solution's opt=0 is not step 2's start
    QVERIFY(s2.solution);
    QVERIFY(s2.solution->libdevice);
    QCOMPARE(s2.solution->options.get("ftz").value_or("unset"), std::string("1"));
    QVERIFY(s2.solution->modules[0].bytes == s2.start.modules[0].bytes);
}

// Step 1's start takes a new workspace's defaults for the keys it leaves out, modules included:
// a lesson may start from an empty workspace ("write your first kernel").
void TestLesson::aFirstStartLeavingKeysOutHasANewWorkspacesDefaults() {
    auto doc = testLesson();
    at(doc, "/lesson/steps/0/start") = ojson::parse(R"({"options": {"ftz": true}})");
    at(doc, "/lesson/steps/0/solution") =
        ojson{{"modules", ojson::array({scaleModule()})}, {"runs", ojson::array({scaleRun()})}};
    const auto path = test::scratchDir() / "empty-start.nvpg";
    writeOrDie(path, doc.dump());
    const auto f = lesson::loadLesson(path);
    QVERIFY2(f, f ? "" : f.error().message.c_str());
    const auto& start = f->lesson.steps[0].start;
    const workspace::Workspace fresh;
    QVERIFY(start.modules.empty());
    QVERIFY(start.runs.empty());
    QCOMPARE(start.libdevice, fresh.libdevice);
    QCOMPARE(start.verify, fresh.verify);
    QVERIFY(start.ltoMode == fresh.ltoMode);
    QCOMPARE(start.options.get("ftz").value_or("unset"), std::string("1"));
    QCOMPARE(f->lesson.steps[0].solution->modules.size(), size_t(1));
    QCOMPARE(f->lesson.steps[0].solution->options.get("ftz").value_or("unset"), std::string("1"));
    // The step's checks name what the solution defines: no problem with them.
    QVERIFY(lesson::kernelProblems(f->lesson).empty());
}

void TestLesson::checkKindsAndVerdictsHaveTheirNames() {
    QCOMPARE(qs(lesson::checkKindNames()),
             QString("compiles, no-diagnostics, ptx-contains, ptx-lacks, sass-contains, sass-lacks, kernel-exists, "
                     "registers, spills, libdevice-uses, libdevice-unused, option, runs, output"));
    for (const auto& name : qs(lesson::checkKindNames()).split(", ")) {
        const auto kind = lesson::parseCheckKind(name.toStdString());
        QVERIFY2(kind, qPrintable(name));
        QCOMPARE(qs(lesson::checkKindName(*kind)), name);
    }
    QVERIFY(!lesson::parseCheckKind("ptx-contain"));
    QCOMPARE(qs(lesson::verdictName(Verdict::Passed)), QString("passed"));
    QCOMPARE(qs(lesson::verdictName(Verdict::Failed)), QString("failed"));
    QCOMPARE(qs(lesson::verdictName(Verdict::NotChecked)), QString("not checked"));
}

// The lesson the malformed rows break, unbroken: each row fails for its own reason.
void TestLesson::theTestLessonIsValid() {
    const auto path = test::scratchDir() / "bad.nvpg";
    writeOrDie(path, testLesson().dump(2));
    const auto f = loadOrDie(path);
    QCOMPARE(f.lesson.steps.size(), size_t(2));
    QCOMPARE(f.lesson.steps[0].checks.size(), size_t(5));
    QVERIFY(lesson::kernelProblems(f.lesson).empty());
}

void TestLesson::malformedLessons_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QStringList>("says");
    // The test lesson with one change; the error's pointer; what it says after the pointer.
    auto row = [](const char* name, auto change, const char* pointer, const QStringList& says) {
        QTest::newRow(name) << testLessonWith(change) << QString(pointer) << says;
    };
    row("unknown check", [](ojson& d) { at(d, "/lesson/steps/0/checks/1/check") = "ptx-contain"; },
        "/lesson/steps/0/checks/1/check",
        {"unknown check \"ptx-contain\"; the checks are compiles, no-diagnostics, ptx-contains, ptx-lacks, "
         "sass-contains, sass-lacks, kernel-exists, registers, spills, libdevice-uses, libdevice-unused, option, "
         "runs, output"});
    row("unknown check in step 2", [](ojson& d) { at(d, "/lesson/steps/1/checks/0/check") = "compile"; },
        "/lesson/steps/1/checks/0/check", {"unknown check \"compile\"; the checks are compiles, "});
    row("bad regex", [](ojson& d) { at(d, "/lesson/steps/0/checks/1/pattern") = "(unclosed"; },
        "/lesson/steps/0/checks/1/pattern",
        {"\"(unclosed\" is not a valid regular expression for step 1, check 2 (missing ): (unclosed); patterns are "
         "RE2 syntax"});
    // What RE2 does not take: std::regex took them, and backtracked.
    row("backreference",
        [](ojson& d) {
            at(d, "/lesson/steps/1/checks/0") =
                ojson::parse(R"({"check": "ptx-lacks", "pattern": "(fma)\\.rn.*\\1", "message": "m"})");
        },
        "/lesson/steps/1/checks/0/pattern",
        {"\"(fma)\\.rn.*\\1\" is not a valid regular expression for step 2, check 1 (invalid escape sequence: \\1)"});
    row("lookahead", [](ojson& d) { at(d, "/lesson/steps/0/checks/1/pattern") = "fma(?!\\.rz)"; },
        "/lesson/steps/0/checks/1/pattern",
        {"\"fma(?!\\.rz)\" is not a valid regular expression for step 1, check 2 (invalid perl operator: (?!)"});
    // Over RE2's memory budget: refused, and quoted only in part.
    row("huge pattern",
        [](ojson& d) {
            std::string p;
            for (int i = 0; i < 40; ++i) p += "\\pL{1000}";
            at(d, "/lesson/steps/0/checks/1/pattern") = p;
        },
        "/lesson/steps/0/checks/1/pattern",
        {"\"\\pL{1000}\\pL{1000}", "…\" (360 bytes) is not a valid", "(pattern too large"});
    row("too many steps",
        [](ojson& d) {
            auto& steps = at(d, "/lesson/steps");
            auto next = steps[1];
            next["start"] = "continue";
            while (steps.size() < 10001) steps.push_back(next);
        },
        "/lesson/steps", {"10,001 steps, more than the 10,000 a lesson may have; split it"});
    row("no steps", [](ojson& d) { at(d, "/lesson").erase("steps"); }, "/lesson/steps",
        {"missing; a lesson has at least one step"});
    row("empty steps", [](ojson& d) { at(d, "/lesson/steps") = ojson::array(); }, "/lesson/steps",
        {"expected a non-empty array of steps, found an array"});
    row("first step continues", [](ojson& d) { at(d, "/lesson/steps/0/start") = "continue"; }, "/lesson/steps/0/start",
        {"the first step cannot continue: there is no step before it; give its starting state"});
    row("start neither a state nor continue", [](ojson& d) { at(d, "/lesson/steps/1/start") = "continued"; },
        "/lesson/steps/1/start", {"\"continued\" is not a start; use a state object or \"continue\""});
    row("step without start", [](ojson& d) { at(d, "/lesson/steps/1").erase("start"); }, "/lesson/steps/1/start",
        {"missing (step 2); give a state or \"continue\""});
    row("step without checks", [](ojson& d) { at(d, "/lesson/steps/1/checks") = ojson::array(); },
        "/lesson/steps/1/checks", {"expected a non-empty array (step 2); a step needs at least one check"});
    row("misspelt step key", [](ojson& d) { at(d, "/lesson/steps/1/hint") = ojson::array({"h"}); },
        "/lesson/steps/1/hint",
        {"not a key of a step (step 2); a step has title, instructions, start, hints, solution, checks and "
         "hide-fixes"});
    row("registers without kernel", [](ojson& d) { at(d, "/lesson/steps/0/checks/2").erase("kernel"); },
        "/lesson/steps/0/checks/2/kernel", {"missing; a registers check needs it"});
    row("registers max negative", [](ojson& d) { at(d, "/lesson/steps/0/checks/2/max") = -1; },
        "/lesson/steps/0/checks/2/max", {"expected a whole number from 0, found -1"});
    row("misspelt field",
        [](ojson& d) {
            auto& c = at(d, "/lesson/steps/0/checks/1");
            c["patern"] = c["pattern"];
            c.erase("pattern");
        },
        "/lesson/steps/0/checks/1/patern",
        {"\"patern\" is not a field of a ptx-contains check; it takes pattern, kernel (optional), output "
         "(optional), message and description"});
    row("field of a check that takes none", [](ojson& d) { at(d, "/lesson/steps/0/checks/0/kernel") = "scale"; },
        "/lesson/steps/0/checks/0/kernel",
        {"\"kernel\" is not a field of a compiles check; it takes only \"message\" and \"description\""});
    row("message missing", [](ojson& d) { at(d, "/lesson/steps/0/checks/0").erase("message"); },
        "/lesson/steps/0/checks/0/message", {"missing; add it (a string)"});
    row("message empty", [](ojson& d) { at(d, "/lesson/steps/0/checks/0/message") = ""; },
        "/lesson/steps/0/checks/0/message", {"empty; say what the learner should look at or change"});
    row("unknown option name", [](ojson& d) { at(d, "/lesson/steps/0/checks/3/name") = "fmad"; },
        "/lesson/steps/0/checks/3/name", {"\"fmad\" is not an option; the options are ", "fma", "ftz"});
    row("option value of another type", [](ojson& d) { at(d, "/lesson/steps/0/checks/3/value") = ojson::array(); },
        "/lesson/steps/0/checks/3/value", {"expected a boolean, a number or a string, found an array"});
    row("bad output place", [](ojson& d) { at(d, "/lesson/steps/0/checks/1/output") = "sass"; },
        "/lesson/steps/0/checks/1/output", {"\"sass\" is not an output; use \"ptx\" or \"lto-ptx\""});
    row("output check without .npy",
        [](ojson& d) {
            at(d, "/lesson/steps/0/checks/5") = ojson::parse(
                R"({"check": "output", "run": "scale 256", "arg": 1, "equals": "out.bin", "message": "m"})");
        },
        "/lesson/steps/0/checks/5/equals", {"\"out.bin\" is not a .npy file"});
    // A bad module in a state: the workspace reader's own message, after the step's pointer.
    row("bad module in a start",
        [](ojson& d) {
            at(d, "/lesson/steps/0/start/modules/0") = ojson{{"name", "k.ll"}};
        },
        "/lesson/steps/0/start",
        {"bad.nvpg: /lesson/steps/0/start: /modules/0: the module has neither \"text\" nor \"bitcode\""});
    row("bad module in a solution",
        [](ojson& d) {
            at(d, "/lesson/steps/0/solution") =
                ojson{{"modules", ojson::array({ojson{{"name", "k.ll"}, {"text", 5}}})}};
        },
        "/lesson/steps/0/solution", {"bad.nvpg: /lesson/steps/0/solution: /modules/0/text: "});
    row("not a key of a state", [](ojson& d) { at(d, "/lesson/steps/0/start/modulez") = ojson::array(); },
        "/lesson/steps/0/start/modulez",
        {"not a key of a state; a state sets modules, options, libdevice, verify, lto or runs"});
    row("run configuration no state has", [](ojson& d) { at(d, "/lesson/steps/0/checks/4/run") = "scale 512"; },
        "/lesson/steps/0/checks/4/run",
        {"there is no run configuration \"scale 512\" in step 1's start or solution; add it to the state's "
         "\"runs\""});
    row("current past the last step", [](ojson& d) { at(d, "/lesson/current") = 3; }, "/lesson/current",
        {"expected a step number from 1 to 2, found 3"});
    row("lesson without id", [](ojson& d) { at(d, "/lesson").erase("id"); }, "/lesson/id",
        {"missing; add it (a string)"});
    row("empty description", [](ojson& d) { at(d, "/lesson/steps/0/checks/1/description") = "  "; },
        "/lesson/steps/0/checks/1/description", {"empty; say in plain words what the check asks"});
    row("hidden fixes not a list", [](ojson& d) { at(d, "/lesson/steps/0/hide-fixes") = "annotate-kernel"; },
        "/lesson/steps/0/hide-fixes", {"expected an array of fix kinds (add-ir-version, ", "annotate-kernel"});
    row("unknown kind of fix", [](ojson& d) { at(d, "/lesson/steps/1/hide-fixes") = ojson::array({"annotate"}); },
        "/lesson/steps/1/hide-fixes/0",
        {"the string \"annotate\" is not a kind of fix; the kinds are add-ir-version, ", "link-libdevice"});
    // The files a lesson carries: data the reader checks before a check may use them.
    const auto withOutputCheck = [](ojson& d, const std::string& name, const std::string& base64) {
        at(d, "/lesson/steps/0/checks/5") =
            ojson{{"check", "output"}, {"run", "scale 256"}, {"arg", 1}, {"equals", name}, {"message", "m"}};
        at(d, "/lesson/files") = ojson{{name, base64}};
    };
    const auto validNpy = support::base64Encode(npyOf({1, 2, 3}));
    row("files not an object", [](ojson& d) { at(d, "/lesson/files") = ojson::array(); }, "/lesson/files",
        {"expected an object (a .npy file's name: its bytes in base64), found an array"});
    row("carried file outside the lesson's folder", [&](ojson& d) { withOutputCheck(d, "../out.npy", validNpy); },
        "/lesson/files/..~1out.npy", {"\"../out.npy\" is not the name of a .npy file below the lesson's folder"});
    row("carried file not base64", [&](ojson& d) { withOutputCheck(d, "out.npy", "@@@@"); }, "/lesson/files/out.npy",
        {"'@'"});
    row("carried file not a .npy",
        [&](ojson& d) { withOutputCheck(d, "out.npy", support::base64Encode("not a numpy file")); },
        "/lesson/files/out.npy", {"carry the file as numpy.save writes it"});
    row("carried file no check names",
        [&](ojson& d) {
            at(d, "/lesson/files") = ojson{{"unused.npy", validNpy}};
        },
        "/lesson/files/unused.npy", {"no output check compares with \"unused.npy\"; remove it"});
    row("carried file over its bound",
        [&](ojson& d) {
            withOutputCheck(d, "out.npy", std::string(size_t(lesson::kEmbeddedFileLimit.bytes) / 3 * 4 + 8, 'A'));
        },
        "/lesson/files/out.npy", {"more than the 16 MiB a file a lesson carries may hold"});
}

void TestLesson::malformedLessons() {
    QFETCH(QString, json);
    QFETCH(QString, pointer);
    QFETCH(QStringList, says);
    const auto path = test::scratchDir() / "bad.nvpg";
    writeOrDie(path, json.toStdString());
    const auto l = lesson::loadLesson(path);
    QVERIFY2(!l, "the malformed lesson loaded");
    const auto m = qs(l.error().message);
    // The file, then the pointer, then what is wrong.
    QVERIFY2(m.startsWith("bad.nvpg: " + pointer + ": "), qPrintable(m));
    for (const auto& s : says) QVERIFY2(m.contains(s), qPrintable(m + "\n  does not say: " + s));
}

void TestLesson::checksNamingAKernelNoStateDefines() {
    auto doc = testLesson();
    at(doc, "/lesson/steps/0/checks/1/kernel") = "scal";
    // @helper is declared, not defined: a check cannot be about it.
    at(doc, "/lesson/steps/1/checks/1") = ojson::parse(R"({"check": "spills", "kernel": "helper", "message": "m"})");
    // A kernel only the solution defines is fine: the learner writes it.
    at(doc, "/lesson/steps/1/checks/2") =
        ojson::parse(R"({"check": "kernel-exists", "kernel": "twice", "message": "m"})");
    std::string withTwice = kScaleIr;
    withTwice += "define void @twice(float* %p) {\n  ret void\n}\n";
    at(doc, "/lesson/steps/1/solution") =
        ojson{{"modules", ojson::array({ojson{{"name", "k.ll"}, {"text", withTwice}}})}};
    const auto path = test::scratchDir() / "kernels.nvpg";
    writeOrDie(path, doc.dump());
    const auto f = loadOrDie(path);  // the form is fine: kernels are checked against the states apart
    const auto problems = lesson::kernelProblems(f.lesson);
    QCOMPARE(problems.size(), size_t(2));
    QCOMPARE(problems[0],
             std::string("/lesson/steps/0/checks/1/kernel: kernel \"scal\" is defined in neither the start "
                         "nor the solution of step 1 (\"First\"); name a kernel the step's modules "
                         "define"));
    QCOMPARE(problems[1], std::string("/lesson/steps/1/checks/1/kernel: kernel \"helper\" is defined in neither the "
                                      "start nor the solution of step 2 (\"Second\"); name a kernel the step's "
                                      "modules define"));
    QVERIFY(lesson::kernelProblems(loadOrDie(twoStepsPath()).lesson).empty());
}

void TestLesson::plainWorkspaceIsNotALesson() {
    const auto path = test::examplePath("saxpy");
    const auto ws = workspace::loadWorkspace(path);
    QVERIFY2(ws, ws ? "" : ws.error().message.c_str());
    QVERIFY(ws->lesson.is_null());
    QVERIFY(!ws->modules.empty());
    const QString says =
        "saxpy.nvpg: this workspace is not a lesson (it has no \"lesson\" object); open a lesson file, e.g. one from "
        "File > Lessons";
    const auto l = lesson::readLesson(*ws, path);
    QVERIFY(!l);
    QCOMPARE(qs(l.error().message), says);
    const auto f = lesson::loadLesson(path);
    QVERIFY(!f);
    QCOMPARE(qs(f.error().message), says);
    // A "lesson" that is not an object is the workspace reader's error.
    auto bad = workspace::parseWorkspace(testLessonWith([](ojson& d) { d["lesson"] = "x"; }).toStdString(), "b.nvpg");
    QVERIFY(!bad);
    QVERIFY2(qs(bad.error().message).startsWith("b.nvpg: /lesson: expected an object"), bad.error().message.c_str());
}

void TestLesson::savedAsVersion3WithTheLessonAsWritten() {
    // The sample lesson saves with its lesson as it was, keys in the same order (ordered_json
    // compares them in order), and saves again to the same bytes.
    const auto bytes = test::readText(twoStepsPath());
    const auto ws = workspace::parseWorkspace(bytes, "two-steps.nvpg");
    QVERIFY2(ws, ws ? "" : ws.error().message.c_str());
    const auto saved = workspace::serializeWorkspace(*ws);
    QCOMPARE(ojson::parse(saved)["version"].get<int>(), 3);
    QVERIFY(ojson::parse(saved)["lesson"] == ojson::parse(bytes)["lesson"]);
    QCOMPARE(ojson::parse(saved)["lesson"].dump(), ojson::parse(bytes)["lesson"].dump());
    const auto reread = workspace::parseWorkspace(saved, "two-steps.nvpg");
    QVERIFY(reread);
    QCOMPARE(workspace::serializeWorkspace(*reread), saved);

    // Keys in an order no sorting gives: they come back in the order written, at every level.
    auto doc = testLesson();
    doc["version"] = 1;  // a lesson makes the file version 3 whatever it said
    ojson l = ojson::object();
    l["title"] = "Out of order";
    l["steps"] = ojson::parse(R"([{"checks": [{"message": "Compile it.", "check": "compiles"}],
                                   "start": {"runs": [], "modules": []}, "title": "S", "instructions": "I",
                                   "hints": ["b", "a"]}])");
    l["id"] = "tests/order";
    l["summary"] = "z";
    l["steps"][0]["start"]["modules"] = ojson::array({scaleModule()});
    doc["lesson"] = l;
    const auto in = workspace::parseWorkspace(doc.dump(), "order.nvpg");
    QVERIFY2(in, in ? "" : in.error().message.c_str());
    const auto out = ojson::parse(workspace::serializeWorkspace(*in));
    QCOMPARE(out["version"].get<int>(), 3);
    auto keys = [](const ojson& o) {
        QStringList k;
        for (const auto& [key, value] : o.items()) k << qs(key);
        return k;
    };
    QCOMPARE(keys(out["lesson"]), (QStringList{"title", "steps", "id", "summary"}));
    QCOMPARE(keys(out["lesson"]["steps"][0]), (QStringList{"checks", "start", "title", "instructions", "hints"}));
    QCOMPARE(keys(out["lesson"]["steps"][0]["checks"][0]), (QStringList{"message", "check"}));
    QCOMPARE(keys(out["lesson"]["steps"][0]["start"]), (QStringList{"runs", "modules"}));
    QVERIFY(out["lesson"] == l);
    // And the lesson still reads from what was saved.
    const auto again = workspace::parseWorkspace(out.dump(), "order.nvpg");
    QVERIFY(again);
    const auto read = lesson::readLesson(*again, "order.nvpg");
    QVERIFY2(read, read ? "" : read.error().message.c_str());
    QCOMPARE(read->steps[0].hints, (std::vector<std::string>{"b", "a"}));
}

void TestLesson::versionOneWithoutLessonStaysVersionOne() {
    const auto bytes = test::readText(test::examplePath("saxpy"));
    QCOMPARE(nlohmann::json::parse(bytes)["version"].get<int>(), 1);
    const auto ws = workspace::parseWorkspace(bytes, "saxpy.nvpg");
    QVERIFY(ws);
    const auto out = nlohmann::json::parse(workspace::serializeWorkspace(*ws));
    QCOMPARE(out["version"].get<int>(), 1);
    QVERIFY(!out.contains("lesson"));
}

void TestLesson::withStateAndWithCurrent() {
    const auto f = loadOrDie(twoStepsPath());
    const auto& s1 = f.lesson.steps[0];
    auto learner = f.workspace;
    learner.libdeviceSaved = false;
    const auto ws = lesson::withState(learner, *s1.solution);
    // The state is the solution's ...
    QCOMPARE(ws.modules.size(), size_t(1));
    QVERIFY(ws.modules[0].bytes == s1.solution->modules[0].bytes);
    QVERIFY(ws.runs == s1.solution->runs);
    QVERIFY(ws.options == s1.solution->options);
    QCOMPARE(ws.libdevice, s1.solution->libdevice);
    QVERIFY(ws.libdeviceSaved);  // a lesson's state says libdevice: the libdevice rule does not change it
    // ... the rest is the file's: its name, description and lesson.
    QCOMPARE(ws.name, std::string("test lesson"));
    QCOMPARE(ws.description, std::string("A two-step lesson for the tests."));
    QVERIFY(ws.lesson == f.workspace.lesson);

    // withCurrent sets the step the file is on, after the lesson's keys as written.
    const auto second = lesson::withCurrent(f.workspace.lesson, 2);
    QStringList keys;
    for (const auto& [k, v] : second.items()) keys << qs(k);
    QCOMPARE(keys, (QStringList{"id", "title", "summary", "steps", "current"}));
    QCOMPARE(second["current"].get<int>(), 2);
    QVERIFY(second["steps"] == f.workspace.lesson["steps"]);
    auto onTwo = f.workspace;
    onTwo.lesson = second;
    const auto read = lesson::readLesson(onTwo, twoStepsPath());
    QVERIFY2(read, read ? "" : read.error().message.c_str());
    QCOMPARE(read->current, 2);
    // Set again, it stays where it was.
    const auto first = lesson::withCurrent(second, 1);
    QCOMPARE(first["current"].get<int>(), 1);
    QCOMPARE(std::prev(first.end()).key(), std::string("current"));
    QCOMPARE(first.size(), second.size());
}

void TestLesson::checkJobAsksForWhatTheChecksNeed() {
    const auto f = loadOrDie(twoStepsPath());
    const auto& step = f.lesson.steps[0];
    auto state = *step.solution;
    state.libdevice = true;
    state.ltoMode = lto::Mode::Separate;
    const auto job = lesson::checkJob(step, state, true, "compute_90");
    QCOMPARE(job.outputs,
             unsigned(pipeline::kPtx | pipeline::kFigures | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin));
    QCOMPARE(job.modules.size(), size_t(1));
    QVERIFY(job.modules[0].bytes == state.modules[0].bytes);
    QVERIFY(job.libdevice);
    QVERIFY(job.ltoMode == lto::Mode::Separate);
    QCOMPARE(job.options.arch.value_or("unset"), std::string("compute_90"));
    // Without nvJitLink: the PTX and its figures only.
    QCOMPARE(lesson::checkJob(step, state, false).outputs, unsigned(pipeline::kPtx | pipeline::kFigures));
    QVERIFY(!lesson::checkJob(step, state, false).options.arch);
    // The state's own arch wins over the one asked for.
    QVERIFY(state.options.set("arch", "compute_80").ok());
    QCOMPARE(lesson::checkJob(step, state, true, "compute_90").options.arch.value_or("unset"),
             std::string("compute_80"));
    // A SASS check asks for the SASS.
    auto withSass = step;
    lesson::Check sass;
    sass.kind = CheckKind::SassContains;
    sass.pattern = "EXIT";
    withSass.checks.push_back(sass);
    QVERIFY(lesson::checkJob(withSass, state, true).outputs & pipeline::kSass);
    QVERIFY(!(lesson::checkJob(step, state, true).outputs & pipeline::kSass));
}

void TestLesson::twoStepsStepOneStartFailsSolutionPasses() {
    const auto f = loadOrDie(twoStepsPath());
    const auto& step = f.lesson.steps[0];

    // The start: saxpy is a device function, not a kernel yet.
    const auto atStart = compileFor(step, step.start);
    const auto start = lesson::evaluate(step, step.start, noGpu(atStart));
    QCOMPARE(start.size(), size_t(4));
    QVERIFY2(verdicts(start) == "passed, failed, failed, not checked", shown(start));
    for (size_t i = 0; i < start.size(); ++i) QCOMPARE(start[i].check, &step.checks[i]);
    QVERIFY(start[0].message.empty());  // a passed check says nothing to the learner
    QCOMPARE(start[1].message, std::string("saxpy is not a kernel yet: annotate it."));
    QCOMPARE(start[1].found, std::string("the PTX has no .entry saxpy"));
    QCOMPARE(start[2].message, std::string("The PTX needs a .entry."));
    QCOMPARE(start[2].found, std::string("no line of the PTX matches /^\\.visible \\.entry saxpy/"));
    QCOMPARE(start[3].message, std::string("not checked: needs a GPU"));
    QVERIFY(!lesson::allPassed(start));

    // The solution passes all that can be checked here; the run is not checked, so the step is
    // not done.
    const auto atEnd = compileFor(step, *step.solution);
    const auto end = lesson::evaluate(step, *step.solution, noGpu(atEnd));
    QVERIFY2(verdicts(end) == "passed, passed, passed, not checked", shown(end));
    QCOMPARE(end[1].found, std::string(".entry saxpy found"));
    QVERIFY2(qs(end[2].found).contains(QRegularExpression(R"(^line \d+: \.visible \.entry saxpy\()")),
             end[2].found.c_str());
    QCOMPARE(end[3].message, std::string("not checked: needs a GPU"));
    QVERIFY(!lesson::allPassed(end));
    // Only the run keeps it from being done.
    auto noRun = step;
    noRun.checks.pop_back();
    QVERIFY(lesson::allPassed(lesson::evaluate(noRun, *step.solution, noGpu(atEnd))));
}

void TestLesson::twoStepsStepTwo() {
    const auto f = loadOrDie(twoStepsPath());
    const auto& step = f.lesson.steps[1];
    const auto atStart = compileFor(step, step.start);
    const auto start = lesson::evaluate(step, step.start, noGpu(atStart));
    QVERIFY2(verdicts(start) == "failed, failed, passed, passed, passed", shown(start));
    QCOMPARE(start[0].message, std::string("Turn fma off."));
    QCOMPARE(start[0].found, std::string("fma is 1 (libNVVM's default)"));
    QCOMPARE(start[1].message, std::string("There is still an fma.rn.f32."));
    QVERIFY2(qs(start[1].found).contains(QRegularExpression(R"(^found at line \d+: fma\.rn\.f32 )")),
             start[1].found.c_str());
    QVERIFY2(qs(start[4].found) == "no libdevice function was linked", start[4].found.c_str());

    const auto atEnd = compileFor(step, *step.solution);
    const auto end = lesson::evaluate(step, *step.solution, noGpu(atEnd));
    QVERIFY2(verdicts(end) == "passed, passed, passed, passed, passed", shown(end));
    QVERIFY(lesson::allPassed(end));
    QCOMPARE(end[0].found, std::string("fma is 0"));
    QCOMPARE(end[3].found, std::string("saxpy spills 0 bytes to local memory and loads 0 back"));
    for (const auto& o : end) QVERIFY(o.message.empty());
}

// runs (and output) need a GPU: without one they are "not checked", whatever the evidence says,
// and a step with one is never done. With a GPU, what the run gave decides.
void TestLesson::runChecksWithoutAGpuAreNeverPassed() {
    const auto f = loadOrDie(twoStepsPath());
    const auto& step = f.lesson.steps[0];
    const auto& state = *step.solution;
    const auto r = compileFor(step, state);
    const auto& runs = step.checks[3];
    QCOMPARE(lesson::runsNeeded(step), std::vector<std::string>{"saxpy 4096"});
    QVERIFY(lesson::runsNeeded(f.lesson.steps[1]).empty());
    auto outcome = [&](const lesson::Evidence& ev) { return lesson::evaluate(step, state, ev)[3]; };

    auto ev = noGpu(r);
    ev.noGpu = "the driver sees no GPU";
    auto o = outcome(ev);
    QVERIFY(o.verdict == Verdict::NotChecked);
    QCOMPARE(o.message, std::string("not checked: needs a GPU (the driver sees no GPU)"));
    QVERIFY(o.found.empty());
    // Evidence of a run that went well does not make it pass without a GPU.
    ev.runs.push_back({"saxpy 4096", true, "", {}});
    QVERIFY(outcome(ev).verdict == Verdict::NotChecked);

    // The stand-ins below say a GPU is there; no kernel runs in this test.
    lesson::Evidence gpu;
    gpu.compile = &r;
    gpu.gpuAvailable = true;
    o = outcome(gpu);
    QVERIFY(o.verdict == Verdict::NotChecked);
    QCOMPARE(o.message, std::string("not checked: the run was not made"));
    gpu.runs = {lesson::runEvidence("saxpy 4096", nullptr, "CUDA driver: no CUDA-capable device",
                                    support::ErrorKind::Environment)};
    QVERIFY(!gpu.runs[0].ran);
    o = outcome(gpu);
    QVERIFY(o.verdict == Verdict::NotChecked);
    QCOMPARE(o.message, std::string("not checked: needs a GPU (CUDA driver: no CUDA-capable device)"));
    gpu.runs = {lesson::runEvidence("saxpy 4096", nullptr, "the kernel failed: an illegal memory access",
                                    support::ErrorKind::Run)};
    QVERIFY(gpu.runs[0].ran);
    o = outcome(gpu);
    QVERIFY(o.verdict == Verdict::Failed);
    QCOMPARE(o.message, runs.message);
    QCOMPARE(o.found, std::string("the kernel failed: an illegal memory access"));
    gpu.runs = {{"saxpy 4096", true, "", {}}};
    o = outcome(gpu);
    QVERIFY(o.verdict == Verdict::Passed);
    QCOMPARE(o.found, std::string("saxpy ran"));

    // A learner who removed or renamed the run configuration fails, GPU or not.
    auto renamed = state;
    renamed.runs[0].name = "mine";
    o = lesson::evaluate(step, renamed, noGpu(r))[3];
    QVERIFY(o.verdict == Verdict::Failed);
    QCOMPARE(o.message, runs.message);
    QCOMPARE(o.found, std::string("there is no run configuration \"saxpy 4096\" (it was removed or renamed)"));
    auto otherKernel = state;
    otherKernel.runs[0].kernel = "saxpy2";
    o = lesson::evaluate(step, otherKernel, noGpu(r))[3];
    QVERIFY(o.verdict == Verdict::Failed);
    QCOMPARE(o.found, std::string("run configuration \"saxpy 4096\" launches saxpy2, not saxpy"));
}

// With a kernel, ptx-contains and ptx-lacks look only inside that kernel's .entry: lto-dropped's
// scale multiplies and its shift adds.
void TestLesson::ptxPatternWithinOneKernel() {
    const auto ws = test::loadExample("lto-dropped");
    const auto f = lessonOn(ws, ojson::parse(R"([
        {"check": "ptx-contains", "pattern": "mul(\\.rn)?\\.f32", "kernel": "scale", "message": "scale multiplies"},
        {"check": "ptx-contains", "pattern": "mul(\\.rn)?\\.f32", "kernel": "shift", "message": "shift multiplies"},
        {"check": "ptx-contains", "pattern": "mul(\\.rn)?\\.f32", "message": "something multiplies"},
        {"check": "ptx-lacks", "pattern": "add(\\.rn)?\\.f32", "kernel": "scale", "message": "scale adds"},
        {"check": "ptx-lacks", "pattern": "add(\\.rn)?\\.f32", "kernel": "shift", "message": "shift adds"},
        {"check": "ptx-lacks", "pattern": "add(\\.rn)?\\.f32", "message": "something adds"},
        {"check": "ptx-contains", "pattern": "ret;", "kernel": "nosuch", "message": "no such kernel"}
    ])"),
                            test::scratchDir() / "within.nvpg");
    const auto& step = f.lesson.steps[0];
    const auto r = compileFor(step, step.start);
    QVERIFY(r.ok);
    const auto out = lesson::evaluate(step, step.start, noGpu(r));
    QVERIFY2(verdicts(out) == "passed, failed, passed, passed, failed, failed, failed", shown(out));
    // The line found for scale is inside scale's .entry, as read here from the PTX.
    const auto scale = entryLines(r.ptx, "scale");
    QVERIFY(scale.first > 0 && scale.second > scale.first);
    const int hit = lineNumberOf(out[0].found);
    QVERIFY2(hit > scale.first && hit < scale.second, out[0].found.c_str());
    QCOMPARE(out[1].message, std::string("shift multiplies"));
    QCOMPARE(out[1].found, std::string("no line of the PTX of shift matches /mul(\\.rn)?\\.f32/"));
    const auto shift = entryLines(r.ptx, "shift");
    const int add = lineNumberOf(out[4].found);
    QVERIFY2(qs(out[4].found).startsWith("found at line ") && add > shift.first && add < shift.second,
             out[4].found.c_str());
    QCOMPARE(out[6].found, std::string("there is no kernel nosuch in the PTX"));
}

// Each line is searched on its own: ^ and $ are a line's ends, and nothing matches across lines.
void TestLesson::patternsAreSearchedOneLineAtATime() {
    const auto ws = test::loadExample("lto-dropped");
    const auto f = lessonOn(ws, ojson::parse(R"([
        {"check": "ptx-contains", "pattern": "^\\s+ret;$", "kernel": "scale", "message": "a line that is ret;"},
        {"check": "ptx-contains", "pattern": "^\\}$", "kernel": "shift", "message": "a closing brace"},
        {"check": "ptx-contains", "pattern": "ret;\\s*\\}", "message": "across two lines"},
        {"check": "ptx-contains", "pattern": "ret;\\n", "message": "a newline"},
        {"check": "ptx-contains", "pattern": "^\\.visible \\.entry shift", "message": "shift's entry"},
        {"check": "ptx-contains", "pattern": "\\.entry scale", "output": "lto-ptx", "message": "after LTO"}
    ])"),
                            test::scratchDir() / "lines.nvpg");
    const auto& step = f.lesson.steps[0];
    const auto r = compileFor(step, step.start);
    // The PTX as a whole has it, across lines.
    QVERIFY(std::regex_search(r.ptx, std::regex("ret;\\s*\\}", std::regex::ECMAScript)));
    const auto out = lesson::evaluate(step, step.start, noGpu(r));
    QVERIFY2(verdicts(out) == "passed, passed, failed, failed, passed, failed", shown(out));
    QCOMPARE(out[2].found, std::string("no line of the PTX matches /ret;\\s*\\}/"));
    // lto-ptx: LTO dropped scale, which the LTO-linked PTX says.
    QCOMPARE(out[5].found, std::string("no line of the LTO-linked PTX matches /\\.entry scale/"));
}

void TestLesson::registersFoundNamesTheCount() {
    const auto f = lessonOn(loadOrDie(twoStepsPath()).lesson.steps[0].reference(), ojson::parse(R"([
        {"check": "registers", "kernel": "saxpy", "max": 1, "message": "Fit saxpy in one register."},
        {"check": "registers", "kernel": "nosuch", "max": 255, "message": "m"},
        {"check": "spills", "kernel": "saxpy", "message": "It spills."}
    ])"),
                            test::scratchDir() / "registers.nvpg");
    const auto& step = f.lesson.steps[0];
    const auto r = compileFor(step, step.start);
    const auto* usage = r.ptxFigures.find("saxpy");
    QVERIFY2(usage, r.ptxFigures.unavailable.c_str());
    const int n = usage->registers;
    QVERIFY(n > 1);
    auto out = lesson::evaluate(step, step.start, noGpu(r));
    QVERIFY2(verdicts(out) == "failed, failed, passed", shown(out));
    QCOMPARE(out[0].message, std::string("Fit saxpy in one register."));
    QCOMPARE(qs(out[0].found), QString("saxpy uses %1 registers per thread (at most 1 asked)").arg(n));
    QCOMPARE(out[1].found, std::string("ptxas reports no kernel nosuch"));
    QCOMPARE(out[2].found, std::string("saxpy spills 0 bytes to local memory and loads 0 back"));
    // At exactly the count it passes.
    auto exact = step;
    exact.checks[0].max = n;
    out = lesson::evaluate(exact, step.start, noGpu(r));
    QVERIFY(out[0].verdict == Verdict::Passed);
    QCOMPARE(qs(out[0].found), QString("saxpy uses %1 registers per thread (at most %1 asked)").arg(n));
}

// An option the state does not set has libNVVM's default, and the learner is told so.
void TestLesson::optionUnsetIsLibnvvmsDefault() {
    auto state = loadOrDie(twoStepsPath()).lesson.steps[0].reference();
    QVERIFY(state.options == nvvm::Options{});
    const auto f = lessonOn(state, ojson::parse(R"([
        {"check": "option", "name": "fma", "value": true, "message": "fma on"},
        {"check": "option", "name": "ftz", "value": true, "message": "Turn ftz on."},
        {"check": "option", "name": "opt", "value": 3, "message": "opt 3"},
        {"check": "option", "name": "prec-div", "value": false, "message": "Turn prec-div off."}
    ])"),
                            test::scratchDir() / "options.nvpg");
    const auto& step = f.lesson.steps[0];
    const auto r = compileFor(step, step.start);
    auto out = lesson::evaluate(step, step.start, noGpu(r));
    QVERIFY2(verdicts(out) == "passed, failed, passed, failed", shown(out));
    QCOMPARE(out[0].found, std::string("fma is 1 (libNVVM's default)"));
    QCOMPARE(out[1].message, std::string("Turn ftz on."));
    QCOMPARE(out[1].found, std::string("ftz is 0 (libNVVM's default)"));
    QCOMPARE(out[2].found, std::string("opt is 3 (libNVVM's default)"));
    QCOMPARE(out[3].found, std::string("prec-div is 1 (libNVVM's default)"));
    // Set, the state's value is what counts.
    QVERIFY(state.options.set("fma", "0").ok());
    QVERIFY(state.options.set("prec-div", "0").ok());
    out = lesson::evaluate(step, state, noGpu(r));
    QVERIFY2(verdicts(out) == "failed, failed, passed, passed", shown(out));
    QCOMPARE(out[0].found, std::string("fma is 0"));
    QCOMPARE(out[3].found, std::string("prec-div is 0"));
}

void TestLesson::libdeviceUsesAndUnused() {
    auto ws = test::loadExample("libdevice-math");
    QVERIFY(ws.libdevice);
    const auto f = lessonOn(ws, ojson::parse(R"([
        {"check": "libdevice-uses", "function": "__nv_sinf", "message": "Call sinf from libdevice."},
        {"check": "libdevice-uses", "function": "__nv_cosf", "message": "Call cosf from libdevice."},
        {"check": "libdevice-unused", "message": "Use no libdevice."}
    ])"),
                            test::scratchDir() / "libdevice.nvpg");
    const auto& step = f.lesson.steps[0];
    QVERIFY(step.start.libdevice);
    const auto r = compileFor(step, step.start);
    QVERIFY(r.ok);
    for (const char* fn : {"__nv_sinf", "__nv_expf", "__nv_powf"})
        QVERIFY2(std::find(r.libdeviceFunctions.begin(), r.libdeviceFunctions.end(), fn) != r.libdeviceFunctions.end(),
                 fn);
    const auto supplied = "libdevice supplied " + support::join(r.libdeviceFunctions, ", ");
    auto out = lesson::evaluate(step, step.start, noGpu(r));
    QVERIFY2(verdicts(out) == "passed, failed, failed", shown(out));
    QCOMPARE(out[0].found, std::string("libdevice supplied __nv_sinf"));
    QCOMPARE(out[1].message, std::string("Call cosf from libdevice."));
    QCOMPARE(out[1].found, supplied);
    QCOMPARE(out[2].message, std::string("Use no libdevice."));
    QCOMPARE(out[2].found, supplied);

    // libdevice off: sinf is not supplied, and the learner is told what is wrong.
    auto off = step.start;
    off.libdevice = false;
    const auto r2 = compileFor(step, off);
    QVERIFY(r2.libdeviceFunctions.empty());
    out = lesson::evaluate(step, off, noGpu(r2));
    QVERIFY(out[0].verdict == Verdict::Failed);
    QCOMPARE(out[0].message, std::string("Call sinf from libdevice."));
    QVERIFY2(out[0].found == (r2.ok ? "libdevice is off" : "the compile failed, so nothing was linked"), shown(out));
}

// kernel-exists looks in the PTX and after LTO by default: lto-dropped's kernels are in the PTX,
// and nvJitLink drops them (no @llvm.used), while both report success.
void TestLesson::kernelExistsAfterLto() {
    QVERIFY2(test::realToolkit()->nvJitLink(), "the tests need the toolkit's nvJitLink");
    const auto f = lessonOn(test::loadExample("lto-dropped"), ojson::parse(R"([
        {"check": "kernel-exists", "kernel": "scale", "message": "Keep scale through LTO."},
        {"check": "kernel-exists", "kernel": "scale", "in": "ptx", "message": "scale in the PTX"},
        {"check": "kernel-exists", "kernel": "scale", "in": "lto-ptx", "message": "scale after LTO"},
        {"check": "kernel-exists", "kernel": "shift", "in": "both", "message": "Keep shift through LTO."},
        {"check": "compiles", "message": "It must compile."},
        {"check": "no-diagnostics", "message": "No warnings."}
    ])"),
                            test::scratchDir() / "lto.nvpg");
    const auto& step = f.lesson.steps[0];
    QVERIFY(step.checks[0].where == lesson::Where::Both);
    QVERIFY(step.checks[1].where == lesson::Where::Ptx);
    QVERIFY(step.checks[2].where == lesson::Where::LtoPtx);
    const auto r = compileFor(step, step.start);
    QVERIFY(!r.linkedPtx.empty());
    const auto out = lesson::evaluate(step, step.start, noGpu(r));
    QVERIFY2(verdicts(out) == "failed, passed, failed, failed, passed, failed", shown(out));
    QCOMPARE(out[0].message, std::string("Keep scale through LTO."));
    QCOMPARE(out[0].found, std::string("the LTO-linked PTX has no .entry scale: nvJitLink dropped it"));
    QCOMPARE(out[1].found, std::string(".entry scale found"));
    QCOMPARE(out[2].found, std::string("the LTO-linked PTX has no .entry scale: nvJitLink dropped it"));
    QCOMPARE(out[3].found, std::string("the LTO-linked PTX has no .entry shift: nvJitLink dropped it"));
    // The warning about the dropped kernels is a diagnostic.
    QVERIFY2(qs(out[5].found).contains("warning") && qs(out[5].found).contains("scale"), out[5].found.c_str());

    // With @llvm.used (libdevice-math's wave) the kernel is there after LTO too.
    const auto kept = lessonOn(test::loadExample("libdevice-math"), ojson::parse(R"([
        {"check": "kernel-exists", "kernel": "wave", "message": "Keep wave."},
        {"check": "no-diagnostics", "message": "No warnings."}])"),
                               test::scratchDir() / "kept.nvpg");
    const auto& keptStep = kept.lesson.steps[0];
    const auto r2 = compileFor(keptStep, keptStep.start);
    const auto out2 = lesson::evaluate(keptStep, keptStep.start, noGpu(r2));
    QVERIFY2(verdicts(out2) == "passed, passed", shown(out2));
    QCOMPARE(out2[0].found, std::string(".entry wave found"));
}

// A learner's module that does not parse: the compile check says libNVVM's error; the checks that
// read the PTX or the figures fail saying why; the option check still answers.
void TestLesson::compileFailureFailsTheChecksThatNeedIt() {
    const auto f = lessonOn(loadOrDie(twoStepsPath()).lesson.steps[0].reference(), ojson::parse(R"([
        {"check": "compiles", "message": "It must compile."},
        {"check": "kernel-exists", "kernel": "saxpy", "in": "ptx", "message": "m1"},
        {"check": "ptx-contains", "pattern": "fma", "message": "m2"},
        {"check": "registers", "kernel": "saxpy", "max": 64, "message": "m3"},
        {"check": "libdevice-unused", "message": "m4"},
        {"check": "option", "name": "fma", "value": true, "message": "m5"},
        {"check": "runs", "run": "saxpy 4096", "message": "m6"}
    ])"),
                            test::scratchDir() / "broken.nvpg");
    const auto& step = f.lesson.steps[0];
    auto broken = step.start;
    broken.modules[0].bytes += "\ndefine void @oops( {\n";
    const auto r = compileFor(step, broken);
    QVERIFY(!r.ok);
    auto out = lesson::evaluate(step, broken, noGpu(r));
    QVERIFY2(verdicts(out) == "failed, failed, failed, failed, failed, passed, not checked", shown(out));
    QCOMPARE(out[0].message, std::string("It must compile."));
    QVERIFY2(qs(out[0].found).contains("saxpy.ll:") && qs(out[0].found).contains("error"), out[0].found.c_str());
    QCOMPARE(out[1].found, std::string("the PTX has no .entry saxpy"));
    QCOMPARE(out[2].found, std::string("there is no PTX (the compile failed)"));
    QCOMPARE(out[3].found, std::string("there are no figures (the compile failed)"));
    QCOMPARE(out[4].found, std::string("the compile failed, so nothing was linked"));

    // A compile that did not run at all (the engine died): each check that needs it says why.
    lesson::Evidence none;
    none.compileError = "the engine process ended (signal 11)";
    out = lesson::evaluate(step, broken, none);
    QVERIFY2(verdicts(out) == "failed, failed, failed, failed, failed, passed, not checked", shown(out));
    for (int i = 0; i < 5; ++i)
        QCOMPARE(out[i].found, std::string("the compile did not run: the engine process ended (signal 11)"));
}

// sass-contains and sass-lacks read nvdisasm's SASS; without nvdisasm they are not checked (this
// suite does not set up the nvdisasm wheel, so here that depends on the toolkit).
void TestLesson::sassChecksNeedNvdisasm() {
    const auto f = lessonOn(loadOrDie(twoStepsPath()).lesson.steps[0].reference(), ojson::parse(R"([
        {"check": "sass-contains", "pattern": "EXIT", "kernel": "saxpy", "message": "m1"},
        {"check": "sass-lacks", "pattern": "NOSUCHOP", "message": "m2"}
    ])"),
                            test::scratchDir() / "sass.nvpg");
    const auto& step = f.lesson.steps[0];
    const auto r = compileFor(step, step.start);
    const auto out = lesson::evaluate(step, step.start, noGpu(r));
    if (test::realToolkit()->nvdisasm()) {
        QVERIFY2(verdicts(out) == "passed, passed", shown(out));
    } else {
        QVERIFY2(verdicts(out) == "not checked, not checked", shown(out));
        QVERIFY2(qs(out[0].message).startsWith("not checked: needs nvdisasm ("), out[0].message.c_str());
    }
}

// The output check compares a buffer the run copied back with a .npy beside the lesson. No GPU
// runs here: the run's outputs are made with gpu::writeNpy as the engine would return them, so
// this tests the comparison (within and beyond the tolerance) on a machine without a GPU.
void TestLesson::outputWithinTolerance() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const fs::path folder = dir.path().toStdString();
    // saxpy 4096: y = 2 * iota + 1, y is argument 4.
    std::vector<float> want(4096);
    for (size_t i = 0; i < want.size(); ++i) want[i] = 2.0f * float(i) + 1.0f;
    writeOrDie(folder / "expected.npy", npyOf(want));
    const auto f = lessonOn(loadOrDie(twoStepsPath()).lesson.steps[0].reference(), ojson::parse(R"([
        {"check": "output", "run": "saxpy 4096", "arg": 4, "equals": "expected.npy", "tolerance": 0.5,
         "message": "y should be 2x + 1."}
    ])"),
                            folder / "lesson.nvpg");
    const auto& step = f.lesson.steps[0];
    const auto& c = step.checks[0];
    QCOMPARE(c.equals, folder / "expected.npy");  // found beside the lesson file
    QCOMPARE(c.arg, 4);
    QCOMPARE(c.tolerance, 0.5);
    QVERIFY(c.needsGpu());
    const auto r = compileFor(step, step.start);
    QVERIFY(r.ok);

    auto got = want;
    got[100] += 0.25f;
    lesson::Evidence ev;
    ev.compile = &r;
    ev.gpuAvailable = true;
    // What a run gives back (0-based arguments: x, y), made evidence as both front ends make it.
    gpu::RunOutcome ran;
    const std::vector<float> x(4096, 0.0f);
    ran.buffers = {{2, gpu::ElemType::F32, x.size(), std::string((const char*)x.data(), x.size() * 4)},
                   {3, gpu::ElemType::F32, got.size(), std::string((const char*)got.data(), got.size() * 4)}};
    ev.runs = {lesson::runEvidence("saxpy 4096", &ran, {}, {})};
    QVERIFY(ev.runs[0].ran);
    QCOMPARE(ev.runs[0].npyOutputs.size(), size_t(2));
    QCOMPARE(ev.runs[0].npyOutputs[1], (std::pair<size_t, std::string>{3, npyOf(got)}));
    auto o = lesson::evaluate(step, step.start, ev)[0];
    QVERIFY2(o.verdict == Verdict::Passed, o.found.c_str());
    QCOMPARE(o.found, std::string("all 4096 elements of argument 4 match"));

    // Beyond the tolerance: the first element off is named.
    auto strict = step;
    strict.checks[0].tolerance = 0.1;
    o = lesson::evaluate(strict, step.start, ev)[0];
    QVERIFY(o.verdict == Verdict::Failed);
    QCOMPARE(o.message, std::string("y should be 2x + 1."));
    QCOMPARE(o.found, std::string("element 100 is 201.25, expected 201 (tolerance 0.1)"));
    strict.checks[0].tolerance = 0;
    QVERIFY(lesson::evaluate(strict, step.start, ev)[0].verdict == Verdict::Failed);
    ev.runs[0].npyOutputs[1].second = npyOf(want);
    QVERIFY(lesson::evaluate(strict, step.start, ev)[0].verdict == Verdict::Passed);

    // NaN where NaN is expected matches.
    auto nanWant = want, nanGot = want;
    nanWant[7] = nanGot[7] = std::nanf("");
    writeOrDie(folder / "nan.npy", npyOf(nanWant));
    strict.checks[0].equals = folder / "nan.npy";
    ev.runs[0].npyOutputs[1].second = npyOf(nanGot);
    QVERIFY(lesson::evaluate(strict, step.start, ev)[0].verdict == Verdict::Passed);
    strict.checks[0].equals = folder / "expected.npy";

    // A buffer of another length, an argument the run does not copy back, a missing .npy.
    ev.runs[0].npyOutputs[1].second = npyOf(std::vector<float>(want.begin(), want.end() - 1));
    o = lesson::evaluate(strict, step.start, ev)[0];
    QVERIFY(o.verdict == Verdict::Failed);
    QCOMPARE(o.found, std::string("argument 4 has 4095 elements, expected.npy has 4096"));
    auto third = strict;
    third.checks[0].arg = 2;
    o = lesson::evaluate(third, step.start, ev)[0];
    QVERIFY(o.verdict == Verdict::Failed);
    QCOMPARE(o.found, std::string("argument 2 is not a buffer the run copies back"));
    auto missing = strict;
    missing.checks[0].equals = folder / "nope.npy";
    o = lesson::evaluate(missing, step.start, ev)[0];
    // The lesson's file is gone: not the learner's failure.
    QVERIFY(o.verdict == Verdict::NotChecked);
    QVERIFY2(qs(o.message).startsWith("not checked: cannot read reference expected.npy (") &&
                 qs(o.message).contains("nope.npy"),
             o.message.c_str());

    // Without a GPU it is not checked, even with outputs in the evidence.
    ev.gpuAvailable = false;
    o = lesson::evaluate(step, step.start, ev)[0];
    QVERIFY(o.verdict == Verdict::NotChecked);
    QCOMPARE(o.message, std::string("not checked: needs a GPU"));
}

// A PTX as libNVVM writes a module with a global of `elements` initialised i32s named `name`:
// the global on one line of megabytes, then a kernel.
std::string ptxWithABigGlobal(const std::string& name, int elements) {
    std::string ptx = "//\n.version 8.8\n.target sm_75\n.address_size 64\n\n";
    ptx += ".global .align 4 .b8 " + name + "[" + std::to_string(elements * 4) + "] = {";
    for (int i = 0; i < elements; ++i) {
        const int v = (i * 7) % 1000;
        ptx += (i ? ", " : "") + std::to_string(v & 0xFF) + ", " + std::to_string(v >> 8) + ", 0, 0";
    }
    ptx += "};\n.shared .align 4 .b8 tile[1024];\n\n.visible .entry reverse(\n)\n{\n\tret;\n}\n";
    return ptx;
}

// The bundled lesson 02's step 3 check `\.global .*\btile\[` over a PTX line of megabytes (a
// global of 300,000 i32s): std::regex recursed per character there and overflowed the stack.
void TestLesson::theBundledTilePatternOverAMegabyteLine() {
    const auto f = loadOrDie(test::sourceDir() / "resources" / "lessons" / "02-reading-ptx.nvpg");
    const auto& bundled = f.lesson.steps.at(2);
    lesson::Step step;
    for (const auto& c : bundled.checks)
        if (c.pattern == "\\.global .*\\btile\\[" || c.pattern == "\\.shared .*\\btile\\[") step.checks.push_back(c);
    QCOMPARE(int(step.checks.size()), 2);
    pipeline::CompileResult r;
    r.ok = true;
    // The learner's global is another array: tile is shared, as the step asks.
    r.ptx = ptxWithABigGlobal("lut", 300000);
    QVERIFY(r.ptx.size() > 4000000);
    auto out = lesson::evaluate(step, bundled.start, noGpu(r));
    QVERIFY2(verdicts(out) == "passed, passed", shown(out));
    QCOMPARE(out[0].found, std::string("line 7: .shared .align 4 .b8 tile[1024];"));
    QCOMPARE(out[1].found, std::string("no line of the PTX matches"));
    // The global is tile itself: found, and the line quoted only in part.
    r.ptx = ptxWithABigGlobal("tile", 300000);
    out = lesson::evaluate(step, bundled.start, noGpu(r));
    QVERIFY2(verdicts(out) == "passed, failed", shown(out));
    const auto found = qs(out[1].found);
    QVERIFY2(found.startsWith("found at line 6: .global .align 4 .b8 tile[1200000] = {0, 0, 0, 0, 7, 0, 0, 0, "),
             qPrintable(found));
    QVERIFY2(found.endsWith(QString("… (%1 bytes)").arg(support::splitLines(r.ptx)[5].size())), qPrintable(found));
    QVERIFY2(found.size() < 300, qPrintable(found));
}

// Patterns that backtrack exponentially in std::regex (past 120 s on a PTX) give their verdicts at
// once over a text of about a megabyte (without the fix, this hangs until ctest's timeout).
void TestLesson::patternsThatBacktrackFinishAtOnce() {
    const auto f = lessonOn(test::loadExample("saxpy"), ojson::parse(R"([
        {"check": "ptx-lacks", "pattern": "(.*)*x$", "message": "no line ends in x"},
        {"check": "ptx-lacks", "pattern": "^(\\s*.*\\s*)*[%]Z$", "message": "no line ends in %Z"},
        {"check": "ptx-contains", "pattern": "(.*)*\\];$", "message": "a line ends in ];"},
        {"check": "ptx-contains", "pattern": "^(\\s*.*\\s*)*[%]r\\d+;$", "message": "a line ends in %r1;"}
    ])"),
                            test::scratchDir() / "slow.nvpg");
    pipeline::CompileResult r;
    r.ok = true;
    // Lines of PTX, about a megabyte of them; the last line of all ends in %r1;.
    for (int i = 0; r.ptx.size() < 1000000; ++i)
        r.ptx += "\tld.global.f32 \t%f" + std::to_string(i) + ", [%rd" + std::to_string(i) + "+4];\n";
    r.ptx += "\tadd.s32 \t%r2, %r1, %r1;\n";
    const auto out = lesson::evaluate(f.lesson.steps[0], f.lesson.steps[0].start, noGpu(r));
    QVERIFY2(verdicts(out) == "passed, passed, passed, passed", shown(out));
    QVERIFY2(qs(out[3].found).startsWith("line "), out[3].found.c_str());
    QVERIFY2(qs(out[3].found).endsWith(": add.s32 \t%r2, %r1, %r1;"), out[3].found.c_str());
}

// A lesson file over 64 MiB is refused before a byte is read.
void TestLesson::lessonsOverTheBoundsAreRefused() {
    const auto path = test::scratchDir() / "huge.nvpg";
    writeOrDie(path, testLesson().dump(2));
    fs::resize_file(path, (uint64_t(64) << 20) + 1);  // sparse: only its size counts
    const auto l = lesson::loadLesson(path);
    QVERIFY(!l);
    QCOMPARE(l.error().kind, support::ErrorKind::Input);
    QVERIFY2(qs(l.error().message)
                 .contains("huge.nvpg is 64 MiB (67108865 bytes), more than the 64 MiB "
                           "(67108864 bytes) a lesson may be"),
             l.error().message.c_str());
    fs::resize_file(path, uint64_t(64) << 20);  // at the bound: read (what follows the JSON is NULs)
    const auto at = lesson::loadLesson(path);
    QVERIFY2(at || !qs(at.error().message).contains("a lesson may be"), at ? "" : at.error().message.c_str());
    fs::remove(path);
}

// The learner reads the check's description, else words made from it; a pattern shows only as
// quoted text when it is plain text, never as a regular expression; the teacher's detail keeps it.
void TestLesson::checksAreDescribedInPlainWords() {
    const auto f = lessonOn(loadOrDie(twoStepsPath()).lesson.steps[0].reference(), ojson::parse(R"([
        {"check": "ptx-contains", "kernel": "saxpy", "pattern": "\\[saxpy_param_2\\]",
         "description": "the PTX loads the third parameter", "message": "m"},
        {"check": "ptx-contains", "kernel": "saxpy", "pattern": "ld\\.global\\.f32", "message": "m"},
        {"check": "ptx-lacks", "pattern": "^\\.extern \\.func$", "message": "m"},
        {"check": "ptx-contains", "kernel": "saxpy", "pattern": "setp\\.\\w+\\.[su]32", "message": "m"},
        {"check": "ptx-lacks", "output": "lto-ptx", "pattern": "(ld|st)\\.f32", "message": "m"},
        {"check": "registers", "kernel": "saxpy", "max": 32, "message": "m"},
        {"check": "output", "run": "saxpy 4096", "arg": 4, "equals": "expected.npy", "tolerance": 0.5,
         "message": "m"}
    ])"),
                            test::scratchDir() / "described.nvpg");
    const auto& c = f.lesson.steps[0].checks;
    QCOMPARE(c[0].description, std::string("the PTX loads the third parameter"));
    QCOMPARE(lesson::describeCheck(c[0]), std::string("the PTX loads the third parameter"));
    QCOMPARE(lesson::describeCheck(c[1]), std::string("The PTX of saxpy has \u201cld.global.f32\u201d"));
    QCOMPARE(lesson::describeCheck(c[2]), std::string("The PTX has no \u201c.extern .func\u201d"));
    QCOMPARE(lesson::describeCheck(c[3]), std::string("The PTX of saxpy has the line this step asks for"));
    QCOMPARE(lesson::describeCheck(c[4]), std::string("The LTO-linked PTX has none of the lines this step rules out"));
    QCOMPARE(lesson::describeCheck(c[5]), std::string("saxpy uses at most 32 registers per thread"));
    QCOMPARE(lesson::describeCheck(c[6]),
             std::string("After run \u201csaxpy 4096\u201d, argument 4 holds the expected values"));
    // The teacher's detail: the check as written.
    QCOMPARE(lesson::checkDetail(c[0]), std::string("ptx-contains saxpy /\\[saxpy_param_2\\]/"));
    QCOMPARE(lesson::checkDetail(c[4]), std::string("ptx-lacks (lto-ptx) /(ld|st)\\.f32/"));
    QCOMPARE(lesson::checkDetail(c[6]), std::string("output \"saxpy 4096\" arg 4 == expected.npy (tolerance 0.5)"));
}

// Every check of the bundled course reads as words: no regular expression, no escape, in any
// learner-facing description.
void TestLesson::theBundledChecklistsShowNoPatterns() {
    const auto course = lesson::listLessons(test::sourceDir() / "resources" / "lessons");
    QCOMPARE(course.size(), size_t(8));
    int patterns = 0;
    for (const auto& entry : course) {
        const auto f = loadOrDie(entry.path);
        for (size_t i = 0; i < f.lesson.steps.size(); ++i)
            for (const auto& c : f.lesson.steps[i].checks) {
                const auto words = lesson::describeCheck(c);
                const auto where = QString("%1 step %2 %3: %4")
                                       .arg(qs(entry.path.filename().string()))
                                       .arg(i + 1)
                                       .arg(qs(c.pointer), qs(words))
                                       .toUtf8();
                QVERIFY2(!words.empty(), where.constData());
                QVERIFY2(words.find('\\') == std::string::npos, where.constData());
                if (c.pattern.empty()) continue;
                ++patterns;
                // A pattern shows only where it is plain text ("__local_depot").
                if (c.pattern.find_first_of("\\[](){}*+?|^$") != std::string::npos)
                    QVERIFY2(words.find(c.pattern) == std::string::npos, where.constData());
                QVERIFY2(words.find("this step") == std::string::npos, where.constData());  // not the fallback
            }
    }
    QVERIFY(patterns > 30);
}

// A lesson that carries its reference (the lesson's "files") compares with it wherever it lies:
// the comparison on a synthetic buffer, as a run gives it back, with no file beside the lesson.
void TestLesson::aCarriedReferenceNeedsNoFileBeside() {
    std::vector<float> want(4096);
    for (size_t i = 0; i < want.size(); ++i) want[i] = 2.0f * float(i) + 1.0f;
    QTemporaryDir dir;
    const fs::path folder = dir.path().toStdString();
    auto doc = ojson::parse(test::readText(twoStepsPath()));
    doc["lesson"]["steps"][0]["checks"].push_back(ojson::parse(
        R"({"check": "output", "run": "saxpy 4096", "arg": 4, "equals": "data/expected.npy", "message": "y = 2x + 1"})"));
    doc["lesson"]["files"] = ojson{{"data/expected.npy", support::base64Encode(npyOf(want))}};
    writeOrDie(folder / "carried.nvpg", doc.dump(2));
    const auto f = loadOrDie(folder / "carried.nvpg");
    const auto& step = f.lesson.steps[0];
    const auto& c = step.checks.back();
    QVERIFY(c.reference);
    QCOMPARE(c.equalsName, std::string("data/expected.npy"));
    QVERIFY(!fs::exists(c.equals));  // nothing beside the lesson
    QVERIFY(lesson::readReference(c));

    pipeline::CompileResult r;
    r.ok = true;
    lesson::Evidence ev;
    ev.compile = &r;
    ev.gpuAvailable = true;
    gpu::RunOutcome ran;
    auto got = want;
    ran.buffers = {{3, gpu::ElemType::F32, got.size(), std::string((const char*)got.data(), got.size() * 4)}};
    ev.runs = {lesson::runEvidence("saxpy 4096", &ran, {}, {})};
    auto o = lesson::evaluate(step, step.reference(), ev).back();
    QVERIFY2(o.verdict == Verdict::Passed, o.found.c_str());
    QCOMPARE(o.found, std::string("all 4096 elements of argument 4 match"));
    got[9] = 0;
    ran.buffers[0].bytes = std::string((const char*)got.data(), got.size() * 4);
    ev.runs = {lesson::runEvidence("saxpy 4096", &ran, {}, {})};
    o = lesson::evaluate(step, step.reference(), ev).back();
    QVERIFY(o.verdict == Verdict::Failed);
    QCOMPARE(o.message, std::string("y = 2x + 1"));
    QCOMPARE(o.found, std::string("element 9 is 0, expected 19 (tolerance 0)"));
}

// A reference that cannot be read blames no kernel: the check is not checked and says why, with
// a GPU and without, before a run and after one.
void TestLesson::aReferenceThatCannotBeReadIsNotChecked() {
    QTemporaryDir dir;
    const fs::path folder = dir.path().toStdString();
    const auto f = lessonOn(loadOrDie(twoStepsPath()).lesson.steps[0].reference(), ojson::parse(R"([
        {"check": "output", "run": "saxpy 4096", "arg": 4, "equals": "gone/expected.npy",
         "message": "After the run, y is not 2x + 1."}
    ])"),
                            folder / "lesson.nvpg");
    const auto& step = f.lesson.steps[0];
    const auto ref = lesson::readReference(step.checks[0]);
    QVERIFY(!ref);
    QVERIFY2(qs(ref.error().message).startsWith("cannot read reference gone/expected.npy ("),
             ref.error().message.c_str());
    pipeline::CompileResult r;
    r.ok = true;
    // No GPU: the reference is what the check could not read.
    auto o = lesson::evaluate(step, step.start, noGpu(r))[0];
    QVERIFY(o.verdict == Verdict::NotChecked);
    QVERIFY2(qs(o.message).startsWith("not checked: cannot read reference gone/expected.npy ("), o.message.c_str());
    QVERIFY2(qs(o.message).contains("No such file or directory"), o.message.c_str());
    // A GPU and a run: still not checked, never the learner's message.
    lesson::Evidence ev;
    ev.compile = &r;
    ev.gpuAvailable = true;
    gpu::RunOutcome ran;
    const std::vector<float> y(4096, 1.0f);
    ran.buffers = {{3, gpu::ElemType::F32, y.size(), std::string((const char*)y.data(), y.size() * 4)}};
    ev.runs = {lesson::runEvidence("saxpy 4096", &ran, {}, {})};
    o = lesson::evaluate(step, step.start, ev)[0];
    QVERIFY(o.verdict == Verdict::NotChecked);
    QVERIFY2(o.message.find("After the run") == std::string::npos, o.message.c_str());
    QVERIFY(!lesson::allPassed({o}));
    // A file there that is no .npy is the lesson's problem too.
    fs::create_directories(folder / "gone");
    writeOrDie(folder / "gone" / "expected.npy", "not numpy");
    o = lesson::evaluate(step, step.start, ev)[0];
    QVERIFY(o.verdict == Verdict::NotChecked);
    QVERIFY2(qs(o.message).startsWith("not checked: cannot read reference gone/expected.npy ("), o.message.c_str());
}

// embedReferences puts the files beside a lesson into its "files": read from anywhere, the
// lesson then compares with them; a file it cannot carry is a note, and nothing is lost.
void TestLesson::embeddingCarriesTheFilesBeside() {
    QTemporaryDir dir, elsewhere;
    const fs::path folder = dir.path().toStdString();
    fs::create_directories(folder / "data");
    const std::vector<float> want{1, 2, 3, 4};
    writeOrDie(folder / "data" / "want.npy", npyOf(want));
    auto f = lessonOn(loadOrDie(twoStepsPath()).lesson.steps[0].reference(), ojson::parse(R"([
        {"check": "output", "run": "saxpy 4096", "arg": 4, "equals": "data/want.npy", "message": "m"},
        {"check": "output", "run": "saxpy 4096", "arg": 3, "equals": "data/missing.npy", "message": "m"}
    ])"),
                      folder / "lesson.nvpg");
    QVERIFY(!f.lesson.steps[0].checks[0].reference);
    const auto e = lesson::embedReferences(f.workspace.lesson, f.lesson);
    QVERIFY(e.changed);
    QCOMPARE(e.lesson["files"].size(), size_t(1));
    QCOMPARE(e.lesson["files"]["data/want.npy"].get<std::string>(), support::base64Encode(npyOf(want)));
    QCOMPARE(e.notes.size(), size_t(1));
    QVERIFY2(qs(e.notes[0]).startsWith("data/missing.npy: not carried in the lesson ("), e.notes[0].c_str());
    // The keys the author wrote stay as they were, the files after them.
    QCOMPARE(e.lesson["steps"], f.workspace.lesson["steps"]);

    // Carried, the lesson checks from another folder; again, nothing more to carry.
    auto ws = f.workspace;
    ws.lesson = e.lesson;
    ws.lesson["steps"][0]["checks"].erase(1);
    const fs::path moved = fs::path(elsewhere.path().toStdString()) / "moved.nvpg";
    if (auto st = workspace::saveWorkspace(ws, moved); !st) QFAIL(st.error().message.c_str());
    const auto m = loadOrDie(moved);
    QVERIFY(m.lesson.steps[0].checks[0].reference);
    QVERIFY(lesson::readReference(m.lesson.steps[0].checks[0]));
    QVERIFY(!lesson::embedReferences(m.workspace.lesson, m.lesson).changed);
}

// A learner's file with no reference data, away from the course (written by an older nvpg):
// the installed course's lesson of the same id supplies it.
void TestLesson::theCourseSuppliesReferencesByTheLessonsId() {
    const auto courseDir = test::sourceDir() / "resources" / "lessons";
    auto doc = ojson::parse(test::readText(courseDir / "01-first-kernel.nvpg"));
    doc["lesson"].erase("files");
    QTemporaryDir dir;
    const fs::path file = fs::path(dir.path().toStdString()) / "old.nvpg";
    writeOrDie(file, doc.dump(2));
    auto f = loadOrDie(file);
    const auto& output = f.lesson.steps[1].checks[3];
    QCOMPARE(output.kind, CheckKind::Output);
    QVERIFY(!lesson::readReference(output));
    lesson::findCourseReferences(f.lesson, courseDir);
    QVERIFY(output.reference);
    const auto ref = lesson::readReference(output);
    QVERIFY2(ref, ref ? "" : ref.error().message.c_str());
    QCOMPARE(ref->count(), size_t(1024));
    // Another id: nothing to take.
    doc["lesson"]["id"] = "someone/else";
    writeOrDie(file, doc.dump(2));
    auto other = loadOrDie(file);
    lesson::findCourseReferences(other.lesson, courseDir);
    QVERIFY(!other.lesson.steps[1].checks[3].reference);
}

void TestLesson::theNextLessonOfTheCourse() {
    const auto courseDir = test::sourceDir() / "resources" / "lessons";
    const auto next = lesson::nextLesson("nvvm-course/01-first-kernel", {courseDir});
    QVERIFY(next);
    QCOMPARE(next->id, std::string("nvvm-course/02-reading-ptx"));
    QCOMPARE(next->path, courseDir / "02-reading-ptx.nvpg");
    QVERIFY(!lesson::nextLesson("nvvm-course/08-registers-and-spills", {courseDir}));  // the last
    QVERIFY(!lesson::nextLesson("tests/two-steps", {courseDir}));                      // not in it
    // The first folder that has the lesson is its course.
    const auto inTests = lesson::nextLesson("tests/two-steps", {twoStepsPath().parent_path(), courseDir});
    QVERIFY(!inTests);
}

// Lesson 1's first step is the kernel annotation, which the pitfall hint's fix would make in one
// click: the step hides fixes of that kind, and only those.
void TestLesson::aStepHidesTheFixesItTeaches() {
    const auto f = loadOrDie(test::sourceDir() / "resources" / "lessons" / "01-first-kernel.nvpg");
    const auto& step = f.lesson.steps[0];
    QCOMPARE(step.hiddenFixes, (std::vector<std::string>{"annotate-kernel"}));
    QVERIFY(f.lesson.steps[1].hiddenFixes.empty());
    const auto r = compileFor(step, step.start);
    int offered = 0;
    for (const auto& d : r.diagnostics)
        for (const auto& fix : d.fixes) offered += fix.kind == "annotate-kernel";
    QCOMPARE(offered, 1);
    QVERIFY(lesson::offersFix(r.diagnostics, step.hiddenFixes));
    const auto shown = lesson::withoutFixes(r.diagnostics, step.hiddenFixes);
    QCOMPARE(shown.size(), r.diagnostics.size());  // the warning stays, its fix goes
    QVERIFY(!lesson::offersFix(shown, step.hiddenFixes));
    for (size_t i = 0; i < shown.size(); ++i) QCOMPARE(shown[i].message, r.diagnostics[i].message);
    nvvm::Diagnostic other;
    other.fixes = {{"Link libdevice", {}, {}, true, {}, std::string(nvvm::fixkind::kLinkLibdevice)}};
    QCOMPARE(lesson::withoutFixes({other}, step.hiddenFixes)[0].fixes.size(), size_t(1));
    // Every kind is one a lesson may name, and the lesson docs list it.
    const auto docs = test::readText(test::sourceDir() / "docs/user/lessons.md");
    for (auto k : nvvm::fixKinds()) {
        const std::string quoted = "`" + std::string(k) + "`";
        QVERIFY2(docs.find(quoted) != std::string::npos, quoted.c_str());
    }
}

QTEST_GUILESS_MAIN(TestLesson)
#include "tst_lesson.moc"
