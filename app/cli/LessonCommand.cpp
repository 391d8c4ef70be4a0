// nvpg check / nvpg lesson: lessons' checks from the command line, for a teacher grading a class's
// files in a loop or in CI, and for checking a lesson before handing it out.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/Commands.h"
#include "cli/Output.h"
#include "core/engine/EngineProcess.h"
#include "core/engine/Runner.h"
#include "core/gpu/Devices.h"
#include "core/gpu/Npy.h"
#include "core/lesson/Course.h"
#include "core/lesson/Lesson.h"
#include "core/support/Files.h"
#include "core/support/Text.h"

namespace nvpg::cli {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

void addCheckOptions(CLI::App& cmd, CheckOptions& o) {
    cmd.add_option("FILE", o.file, "the learner's lesson file (.nvpg)")->required();
    cmd.add_option("--step", o.step, "the step whose checks to run (1-based; default: the step the file is on)")
        ->check(CLI::Range(1, 1000));
    cmd.add_flag("--json", o.json, "print each check's verdict and message as JSON");
}

void addLessonOptions(CLI::App& cmd, LessonOptions& o) {
    cmd.require_subcommand(1);
    o.validate = cmd.add_subcommand(
        "validate", "check a lesson: its form, and that each step's start fails a check and its solution passes all");
    o.validate->add_option("FILE", o.file, "the lesson file (.nvpg)")->required();
    o.validate->add_flag("--json", o.json, "print the findings as JSON");
    o.state = cmd.add_subcommand("state", "write the lesson with its workspace at one step's start or solution");
    o.state->add_option("FILE", o.file, "the lesson file (.nvpg)")->required();
    o.state->add_option("--step", o.step, "the step (1-based; default 1)")->check(CLI::Range(1, 1000));
    auto* start = o.state->add_flag("--start", o.start, "the step's starting state (the default)");
    auto* solution = o.state->add_flag("--solution", o.solution, "the step's reference solution");
    start->excludes(solution);
    o.state->add_option("-o,--output", o.output, "the lesson file to write")->required();
    o.state->add_flag("--force", o.force, "replace a read-only output file");
}

namespace {

struct Graded {
    std::vector<lesson::CheckOutcome> outcomes;
};

// The step's compile of `state`, and its runs where a check needs them, then its checks.
std::vector<lesson::CheckOutcome> grade(const CommonOptions& common, std::shared_ptr<toolkit::Toolkit> tk,
                                        const lesson::Lesson& l, const lesson::Step& step,
                                        const workspace::Workspace& state) {
    auto compiler = makeCompiler(common, tk, /*useCache=*/true);
    // A far engine says whether its toolkit has nvJitLink.
    support::Result<engine::FarToolkit> far = support::makeError(support::ErrorKind::Internal, "here");
    if (common.far) far = compiler.describeFar();
    auto job = lesson::checkJob(step, state, common.far ? far && far->hasNvJitLink : tk->nvJitLink() != nullptr);
    auto compiled = common.far && !far ? support::Result<pipeline::CompileResult>(far.error()) : compiler.run(job);
    lesson::Evidence ev;
    if (compiled)
        ev.compile = &*compiled;
    else
        ev.compileError = compiled.error().message;
    const auto runs = lesson::runsNeeded(step);
    // Without a GPU the run checks are not checked, whatever else is wrong. A far engine's GPUs
    // are the far machine's.
    support::Result<engine::FarToolkit> farGpus = support::makeError(support::ErrorKind::Internal, "here");
    if (!runs.empty() && common.far) {
        farGpus = compiler.describeFar(/*withGpus=*/true);
        ev.gpuAvailable = farGpus && !farGpus->gpus.empty();
        if (!farGpus)
            ev.noGpu = farGpus.error().message;
        else if (!ev.gpuAvailable)
            ev.noGpu = engine::describeNoFarGpu(*common.far->far, *farGpus);
    } else if (!runs.empty()) {
        auto devices = gpu::listDevices(*tk);
        ev.gpuAvailable = devices && !devices->empty();
        if (!ev.gpuAvailable) ev.noGpu = devices ? "the driver sees no GPU" : devices.error().message;
    }
    if (compiled && compiled->ok && ev.gpuAvailable) {
        std::optional<engine::Runner> runner;
        if (common.far)
            runner.emplace(*compiler.engineProcess(), *common.far->far, *farGpus, 0);
        else
            runner.emplace(tk, 0, common.inProcess ? std::vector<std::string>{} : engine::engineCommand("engine"));
        for (const auto& name : runs) {
            lesson::RunEvidence re;
            re.run = name;
            const gpu::RunConfig* config = nullptr;
            for (const auto& rc : state.runs)
                if (rc.name == name) config = &rc;
            if (!config) {
                ev.runs.push_back(std::move(re));
                continue;
            }
            const auto ran = runner->run(*compiled, *config, l.folder);
            re = ran ? lesson::runEvidence(name, &*ran, {}, {})
                     : lesson::runEvidence(name, nullptr, ran.error().message, ran.error().kind);
            ev.runs.push_back(std::move(re));
        }
    }
    return lesson::evaluate(step, state, ev);
}

const char* mark(lesson::Verdict v) {
    switch (v) {
        case lesson::Verdict::Passed:
            return "passed     ";
        case lesson::Verdict::Failed:
            return "FAILED     ";
        case lesson::Verdict::NotChecked:
            return "not checked";
    }
    return "";
}

std::string checkLabel(const lesson::Check& c) {
    return lesson::checkDetail(c);
}

ojson outcomesJson(const std::vector<lesson::CheckOutcome>& outcomes) {
    ojson a = ojson::array();
    for (const auto& o : outcomes) {
        ojson c = ojson::object();
        c["check"] = std::string(lesson::checkKindName(o.check->kind));
        c["pointer"] = o.check->pointer;
        c["label"] = checkLabel(*o.check);
        c["description"] = lesson::describeCheck(*o.check);
        c["verdict"] = std::string(lesson::verdictName(o.verdict));
        c["message"] = o.message;
        c["found"] = o.found;
        a.push_back(std::move(c));
    }
    return a;
}

void printOutcomes(const std::vector<lesson::CheckOutcome>& outcomes) {
    for (const auto& o : outcomes) {
        fmt::print("  {}  {}\n", mark(o.verdict), support::printable(checkLabel(*o.check)));
        if (!o.message.empty()) fmt::print("               {}\n", support::printable(o.message));
        if (!o.found.empty() && o.verdict != lesson::Verdict::Passed)
            fmt::print("               ({})\n", support::printable(o.found));
    }
}

int countOf(const std::vector<lesson::CheckOutcome>& outcomes, lesson::Verdict v) {
    int n = 0;
    for (const auto& o : outcomes) n += o.verdict == v;
    return n;
}

constexpr auto kReplace = nlohmann::json::error_handler_t::replace;

}  // namespace

int runCheck(const CommonOptions& common, const CheckOptions& o) {
    auto file = lesson::loadLesson(o.file);
    if (!file) return usage(file.error().message);
    // A learner's file that carries no reference data and lies away from it still finds it in
    // the installed course, by the lesson's id.
    lesson::findCourseReferences(file->lesson);
    const auto& l = file->lesson;
    const int n = o.step ? o.step : l.current;
    if (n < 1 || n > int(l.steps.size()))
        return usage(fmt::format("--step {}: the lesson has steps 1 to {}", n, l.steps.size()));
    const auto& step = l.steps[size_t(n - 1)];
    auto tk = loadToolkit(common, /*open=*/!forkedEngine(common));
    if (!tk) return usage(tk.error().message);
    const auto outcomes = grade(common, *tk, l, step, file->workspace);
    const bool ok = lesson::allPassed(outcomes);
    if (o.json) {
        ojson j = ojson::object();
        j["file"] = o.file;
        j["lesson"] = l.id;
        j["step"] = n;
        j["steps"] = l.steps.size();
        j["title"] = step.title;
        j["passed"] = ok;
        j["checks"] = outcomesJson(outcomes);
        fmt::print("{}\n", j.dump(2, ' ', false, kReplace));
    } else {
        fmt::print("{}: lesson \"{}\", step {} of {}: {}\n", support::printable(o.file), support::printable(l.title), n,
                   l.steps.size(), support::printable(step.title));
        printOutcomes(outcomes);
        const int failed = countOf(outcomes, lesson::Verdict::Failed);
        const int unchecked = countOf(outcomes, lesson::Verdict::NotChecked);
        if (ok)
            fmt::print("all {} checks passed\n", outcomes.size());
        else
            fmt::print("{} of {} checks failed{}\n", failed, outcomes.size(),
                       unchecked ? fmt::format(", {} not checked (they do not count as passed)", unchecked) : "");
    }
    return flushStdout(ok ? kOk : kCompileError);
}

int runLesson(const CommonOptions& common, const LessonOptions& o) {
    if (o.state && *o.state) {
        auto file = lesson::loadLesson(o.file);
        if (!file) return usage(file.error().message);
        const auto& l = file->lesson;
        if (o.step < 1 || o.step > int(l.steps.size()))
            return usage(fmt::format("--step {}: the lesson has steps 1 to {}", o.step, l.steps.size()));
        const auto& step = l.steps[size_t(o.step - 1)];
        if (o.solution && !step.solution)
            return usage(fmt::format("step {} (\"{}\") has no solution", o.step, step.title));
        auto ws = lesson::withState(file->workspace, o.solution ? *step.solution : step.start);
        // The files the output checks compare with go into the lesson, so that it checks
        // wherever it is written.
        const auto embedded = lesson::embedReferences(file->workspace.lesson, l);
        ws.lesson = lesson::withCurrent(embedded.lesson, o.step);
        if (support::inputOverwrittenBy(o.output, {o.file}))
            return usage(fmt::format("-o {}: that is the lesson itself; write another file", o.output));
        auto bytes = workspace::workspaceFileBytes(ws, o.output);
        if (!bytes) return usage(bytes.error().message);
        support::WriteOptions w;
        w.replaceReadOnly = o.force;
        w.howToReplaceReadOnly = "give --force to replace it";
        if (auto st = support::writeFileAtomic(o.output, *bytes, w); !st) return usage(st.error().message);
        for (const auto& note : embedded.notes) fmt::print(stderr, "nvpg: note: {}\n", support::printable(note));
        return kOk;
    }
    // validate
    std::vector<std::string> problems, notes;
    ojson steps = ojson::array();
    auto file = lesson::loadLesson(o.file);
    if (!file) {
        problems.push_back(file.error().message);
    } else {
        const auto& l = file->lesson;
        for (auto& p : lesson::kernelProblems(l)) problems.push_back(fs::path(o.file).filename().string() + ": " + p);
        // A check whose reference cannot be read would never be checked: the teacher's to mend.
        for (size_t i = 0; i < l.steps.size(); ++i)
            for (const auto& c : l.steps[i].checks)
                if (c.kind == lesson::CheckKind::Output)
                    if (auto ref = lesson::readReference(c); !ref)
                        problems.push_back(fmt::format("{}: {}/equals: {}", fs::path(o.file).filename().string(),
                                                       c.pointer, ref.error().message));
        if (problems.empty()) {
            auto tk = loadToolkit(common, /*open=*/!forkedEngine(common));
            if (!tk) return usage(tk.error().message);
            for (size_t i = 0; i < l.steps.size(); ++i) {
                const auto& step = l.steps[i];
                const auto where =
                    fmt::format("{}: step {} (\"{}\")", fs::path(o.file).filename().string(), i + 1, step.title);
                ojson sj = ojson::object();
                sj["step"] = i + 1;
                sj["title"] = step.title;
                const auto atStart = grade(common, *tk, l, step, lesson::withState(file->workspace, step.start));
                sj["start"] = outcomesJson(atStart);
                if (countOf(atStart, lesson::Verdict::Failed) == 0)
                    problems.push_back(
                        fmt::format("{}: its start already passes every check that could be checked; "
                                    "a learner would have nothing to do (change the start or add a "
                                    "check it fails)",
                                    where));
                if (step.solution) {
                    const auto atEnd = grade(common, *tk, l, step, lesson::withState(file->workspace, *step.solution));
                    sj["solution"] = outcomesJson(atEnd);
                    for (const auto& out : atEnd) {
                        if (out.verdict == lesson::Verdict::Failed)
                            problems.push_back(fmt::format("{}: its solution fails {} ({}): {}{}", where,
                                                           out.check->pointer, checkLabel(*out.check), out.message,
                                                           out.found.empty() ? "" : " (" + out.found + ")"));
                        else if (out.verdict == lesson::Verdict::NotChecked)
                            notes.push_back(fmt::format("{}: {} ({}) {}", where, out.check->pointer,
                                                        checkLabel(*out.check), out.message));
                    }
                } else {
                    notes.push_back(where + ": no solution to check");
                }
                steps.push_back(std::move(sj));
            }
        }
    }
    if (o.json) {
        ojson j = ojson::object();
        j["file"] = o.file;
        j["valid"] = problems.empty();
        j["problems"] = problems;
        j["notes"] = notes;
        j["steps"] = std::move(steps);
        fmt::print("{}\n", j.dump(2, ' ', false, kReplace));
    } else {
        for (const auto& p : problems) fmt::print(stderr, "nvpg: {}\n", support::printable(p));
        for (const auto& n : notes) fmt::print("note: {}\n", support::printable(n));
        if (problems.empty())
            fmt::print("{}: valid: {} steps, each start fails a check and each solution passes all\n",
                       support::printable(o.file), file->lesson.steps.size());
    }
    // A file that is not a readable lesson (malformed, over the bounds, a pattern RE2 cannot take)
    // exits 2, as in `nvpg check`; a lesson whose steps have problems, 1.
    return flushStdout(problems.empty() ? kOk : !file ? kUsageError : kCompileError);
}

}  // namespace nvpg::cli
