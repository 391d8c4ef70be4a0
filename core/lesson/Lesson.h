#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/gpu/Npy.h"
#include "core/gpu/RunOutcome.h"
#include "core/nvvm/Diagnostic.h"
#include "core/pipeline/CompileResult.h"
#include "core/pipeline/Job.h"
#include "core/support/Files.h"
#include "core/support/Pattern.h"
#include "core/support/Result.h"
#include "core/workspace/Workspace.h"

namespace nvpg::lesson {

// What a check looks at (docs/user/lessons.md, "For teachers", lists them with their fields).
enum class CheckKind {
    Compiles,
    NoDiagnostics,
    PtxContains,
    PtxLacks,
    SassContains,
    SassLacks,
    KernelExists,
    Registers,
    Spills,
    LibdeviceUses,
    LibdeviceUnused,
    Option,
    Runs,
    Output,
};

// The kind's name in a lesson file ("ptx-contains"), and every name, as errors list them.
std::string_view checkKindName(CheckKind kind);
std::optional<CheckKind> parseCheckKind(std::string_view name);
std::string checkKindNames();

// Where a check looks for a kernel: the PTX, the LTO-linked PTX, or both (kernel-exists).
enum class Where { Ptx, LtoPtx, Both };

// One check of a step: data, evaluated in core on the step's compile (and run) result.
struct Check {
    CheckKind kind = CheckKind::Compiles;
    std::string pointer;       // "/lesson/steps/1/checks/0": where it is in the file
    std::string message;       // what the learner reads when it fails
    std::string description;   // what it asks, in the learner's words; optional (see describeCheck)
    std::string pattern;       // ptx-/sass-contains/-lacks: a regular expression in RE2's syntax
    support::Pattern matcher;  // the pattern compiled (readLesson compiles every one)
    std::string kernel;        // optional for the regexes; runs: optional (the run's kernel)
    Where where = Where::Ptx;
    int max = 0;                   // registers
    std::string function;          // libdevice-uses
    std::string option, value;     // option: its name and value as Options::set takes it
    std::string run;               // runs, output: a run configuration of the state, by name
    int arg = 0;                   // output: 1-based argument
    std::string equalsName;        // output: the .npy as the file names it ("01-first-kernel/scale-1024.npy")
    std::filesystem::path equals;  // output: that file, resolved against the lesson's folder
    // output: the .npy's bytes when the lesson file carries them ("files"); then `equals` is not read.
    std::shared_ptr<const std::string> reference;
    double tolerance = 0;  // output: absolute
    // Whether the check needs a GPU (runs, output) or nvdisasm (sass-*).
    bool needsGpu() const { return kind == CheckKind::Runs || kind == CheckKind::Output; }
    bool needsSass() const { return kind == CheckKind::SassContains || kind == CheckKind::SassLacks; }
};

struct Step {
    std::string title;
    std::string instructions;  // Markdown
    bool continues = false;    // its start is what the learner had at the end of the step before
    // The starting state (for a continuing step: the state the step before's reference ends
    // with), and the reference solution, as whole workspaces (their lesson is null).
    workspace::Workspace start;
    std::optional<workspace::Workspace> solution;
    std::vector<std::string> hints;
    std::vector<Check> checks;
    // The kinds of fix (nvvm::fixKinds()) not offered while the learner is on this step: the
    // mend the step teaches, which a one-click fix would do for them.
    std::vector<std::string> hiddenFixes;
    // The state the step's reference ends in: its solution, else its start.
    const workspace::Workspace& reference() const { return solution ? *solution : start; }
};

struct Lesson {
    std::string id;  // stable: a learner's progress is kept under it
    std::string title;
    std::string summary;
    std::vector<Step> steps;
    int current = 1;               // the step the file is on (1-based), as the app saved it
    std::filesystem::path folder;  // where the lesson file lies: check files are found from it
};

// The most a lesson may hold, so that a file someone handed over cannot take the machine's time
// and memory: the file's bytes (checked before it is read) and its steps (checked once the JSON
// is parsed, before the steps are read). The bundled lessons have at most 4 steps and 100 KiB.
inline constexpr support::SizeLimit kLessonFileLimit{uint64_t(64) << 20, "a lesson"};
inline constexpr size_t kMaxLessonSteps = 10'000;
// The most one file a lesson carries ("files": an output check's .npy, base64) may hold once
// decoded, checked before it is decoded; all of them together stay within kLessonFileLimit. They
// are data only: read as .npy and compared with a run's buffer, never written anywhere or run.
inline constexpr support::SizeLimit kEmbeddedFileLimit{uint64_t(16) << 20, "a file a lesson carries"};

// Reads `ws.lesson` (the file's "lesson" object). Errors name the file, the step and the JSON
// pointer ("intro.nvpg: /lesson/steps/2/checks/1/check: unknown check \"ptx-contain\"; …") and
// what to do. Checks are checked for form here (fields, regexes); a kernel a check names is
// checked against the states by validateKernels.
support::Result<Lesson> readLesson(const workspace::Workspace& ws, const std::filesystem::path& file);
// A lesson file: the workspace and its lesson. A file without a lesson is an error saying so.
struct LessonFile {
    workspace::Workspace workspace;
    Lesson lesson;
};
support::Result<LessonFile> loadLesson(const std::filesystem::path& file);

// An output check's expected buffer: the bytes the lesson carries, else its file beside the
// lesson. The error says why not: "cannot read reference X (why)"; the check is then not checked.
support::Result<gpu::NpyArray> readReference(const Check& check);

// What the check asks, as the learner reads it in the list: its "description", else words made
// from the check ("The PTX of scale has “ld.global.f32”", "scale uses at most 64 registers"). A
// pattern is quoted only when it is plain text; otherwise the words say that a line is looked for.
std::string describeCheck(const Check& check);
// The check as its author wrote it, for a teacher: "ptx-contains scale /\[scale_param_2\]/".
std::string checkDetail(const Check& check);

// The lesson object `lesson` (as the file has it) with the files its output checks compare with
// carried in its "files", read from beside the lesson where they are not carried yet, so that the
// lesson saved anywhere still has them. `notes` says which could not be carried and why (a file
// missing or over kEmbeddedFileLimit); those checks go on looking beside the file.
struct Embedded {
    nlohmann::ordered_json lesson;
    bool changed = false;
    std::vector<std::string> notes;
};
Embedded embedReferences(const nlohmann::ordered_json& lesson, const Lesson& read);

// `diagnostics` without the fixes of the kinds in `hidden` (a step's hiddenFixes).
std::vector<nvvm::Diagnostic> withoutFixes(const std::vector<nvvm::Diagnostic>& diagnostics,
                                           const std::vector<std::string>& hidden);
// Whether any of `diagnostics` offers a fix of a kind in `hidden`.
bool offersFix(const std::vector<nvvm::Diagnostic>& diagnostics, const std::vector<std::string>& hidden);

// The checks naming a kernel that neither the step's start nor its solution defines (a
// `define` annotated as a kernel, or any define of that name): "/lesson/steps/1/checks/2: kernel
// \"saxpi\" is in neither the start nor the solution of step 2 ("…"); …". Empty when all are.
std::vector<std::string> kernelProblems(const Lesson& lesson);

// `ws` with its state (modules, options, libdevice, verify, LTO mode, runs) set to `state`'s,
// the rest (name, pins, lesson) kept.
workspace::Workspace withState(const workspace::Workspace& ws, const workspace::Workspace& state);
// The lesson object of `lesson` with its current step set to `step` (1-based).
nlohmann::ordered_json withCurrent(const nlohmann::ordered_json& lesson, int step);

// The compile a step's checks are evaluated on: the app's (PTX, figures, the LTO link beside
// it where the toolkit has nvJitLink, SASS when a check looks at it) for the given state.
pipeline::Job checkJob(const Step& step, const workspace::Workspace& state, bool haveNvJitLink,
                       const std::string& arch = {});

enum class Verdict { Passed, Failed, NotChecked };
std::string_view verdictName(Verdict v);  // "passed", "failed", "not checked"

struct CheckOutcome {
    const Check* check = nullptr;
    Verdict verdict = Verdict::Failed;
    std::string message;  // the check's message when it failed; why when not checked; else empty
    std::string found;    // what was found: "uses 40 registers", "matched line 31: fma.rn.f32 ..."
};

// What a run gave, for the runs and output checks: by run configuration name.
struct RunEvidence {
    std::string run;
    bool ran = false;                                        // it was tried: a GPU was there
    std::string error;                                       // why it failed, when it was tried
    std::vector<std::pair<size_t, std::string>> npyOutputs;  // 0-based arg -> the buffer as .npy bytes
};
// A run's evidence from what it gave: its buffers as .npy when `outcome` is there, else `error`;
// an error of kind Environment (no GPU or driver after all) leaves the run untried, not failed.
RunEvidence runEvidence(std::string run, const gpu::RunOutcome* outcome, std::string error, support::ErrorKind kind);

struct Evidence {
    const pipeline::CompileResult* compile = nullptr;  // null: the compile failed to run (see compileError)
    std::string compileError;
    std::vector<RunEvidence> runs;
    bool gpuAvailable = false;  // false: runs/output are "not checked: needs a GPU"
    std::string noGpu;          // why there is none, as the driver said
};

// Every check of `step` on the state and what it made, in order.
std::vector<CheckOutcome> evaluate(const Step& step, const workspace::Workspace& state, const Evidence& evidence);
// Whether every outcome passed (a check not checked is not passed).
bool allPassed(const std::vector<CheckOutcome>& outcomes);

// The run configurations the step's runs/output checks name, in order of first mention.
std::vector<std::string> runsNeeded(const Step& step);

}  // namespace nvpg::lesson
