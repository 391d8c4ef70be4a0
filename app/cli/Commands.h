#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/engine/Compiler.h"
#include "core/pipeline/Job.h"
#include "core/support/Files.h"
#include "core/support/Result.h"
#include "core/support/Symbols.h"
#include "core/toolkit/Toolkit.h"
#include "core/workspace/Workspace.h"

namespace nvpg::cli {

// Exit statuses scripts rely on.
enum Exit : int {
    kOk = 0,
    kCompileError = 1,  // libNVVM or nvJitLink rejected the input, or crashed or timed out on it
    kUsageError = 2,    // bad command line, or the environment lacks something (libNVVM, ...)
    kNoGpu = 3,         // nvpg run: no usable GPU or driver
};

struct CommonOptions {
    std::optional<std::string> cudaPath;
    bool inProcess = false;           // compile and run here, not in an engine process
    double engineTimeout = 300;       // seconds a compile may take before the engine is stopped
    std::optional<std::string> on;    // --on DEST: the engine runs there, over ssh
    std::string remoteNvpg = "nvpg";  // --remote-nvpg PATH: the far nvpg
    // Set by resolveEngine() when the engine runs on another machine: the ssh command for it.
    std::optional<engine::EngineLauncher> far;
};

// Where the engine runs: --on DEST, else NVPG_ON, else this machine. With a far end, the ssh
// launcher (engine::engineLauncher) goes into `common.far`; a bad destination or ssh command, or
// options that cannot go with it, is a Usage error. `command`: the subcommand's name. Commands
// that use no engine there (explain, examples, toolkits, lesson, import) run here: NVPG_ON is
// left for the next command, and --on given to them is a Usage error.
support::Status resolveEngine(CommonOptions& common, std::string_view command);

struct CompileOptions {
    std::vector<std::string> inputs;
    bool libdevice = false;
    bool noLibdevice = false;  // with neither, the modules decide (workspace::libdeviceCallsOf)
    bool noVerify = false;
    // nvvm::optionTable()'s options as given, by name ("opt" -> "3"); checked by Options::set.
    std::map<std::string, std::string> nvvmOptions;
    std::vector<std::string> nvvmFlags;
    std::string emit = "ptx";
    std::string cfgOf = "ptx";  // with --emit cfg: the output the graphs are of
    std::optional<std::string> ltoMode;
    bool verifyOnly = false;
    bool force = false;    // replace read-only output files
    bool noCache = false;  // neither read nor write the result cache
    std::optional<std::string> report;
    std::optional<std::string> lineMap;  // --line-map FILE.json
    bool live = false;                   // --emit sass --live: the live registers beside each instruction
    std::optional<std::string> output;
};

struct RunOptions {
    std::optional<std::string> kernel, grid, block, config, from, saveOutputs;
    unsigned shared = 0;
    std::vector<std::string> args;
    int repeat = 1;
    double timeout = 10;
    int device = 0;
    bool allowOutsideFiles = false;  // a workspace's buffer files may lie outside its folder
};

// INPUT's help, for compile, run and compare alike.
inline constexpr const char* kInputHelp =
    "NVVM IR modules in order (.ll text, .bc bitcode), or one .nvpg workspace, or a bundled "
    "example's name (nvpg examples lists them)";

// What the compile options give, before anything is compiled.
struct JobInputs {
    pipeline::Job job;
    // The input files: the inputs as written, an example's name replaced by its .nvpg.
    std::vector<std::string> files;
    std::vector<std::string> names;  // the inputs, as written or as the workspace names them
    std::filesystem::path baseDir;   // where relative files (buffers) are found
    std::optional<workspace::Workspace> workspace;
    // The libdevice functions that made the libdevice rule link it (no --libdevice,
    // --no-libdevice or saved choice said otherwise); empty when it did not.
    std::vector<std::string> libdeviceRule;
};
// Says on stderr that the libdevice rule linked it, and how not to.
void noteLibdeviceRule(const JobInputs& inputs);

void addCompileOptions(CLI::App& cmd, CompileOptions& o, bool forRun = false);
// The inputs and the options that decide what is compiled (INPUT, addNvvmOptions', --no-cache):
// the part of compile's options that commands which only look at the result (occupancy) take.
void addInputOptions(CLI::App& cmd, CompileOptions& o);
// How a printed table names kernels (--wide, --raw-names): compare's and occupancy's.
void addNameOptions(CLI::App& cmd, support::NameStyle& names);
// The options that make a job's libNVVM flags and program (--libdevice, --no-verify, the option
// table's, --nvvm-flag, --lto-mode): compile's, run's and each side of compare's.
void addNvvmOptions(CLI::App& cmd, CompileOptions& o);
// Those options onto `job`, over what it has (a workspace's, or the other side's common ones).
support::Status applyNvvmOptions(const CompileOptions& o, pipeline::Job& job);
void addRunOptions(CLI::App& cmd, RunOptions& r);
// The workspace's run configuration that --config names (its name or #K; default: its first, which
// stderr names, saying `verb` ("running") when there are several); nothing without a workspace
// or run configurations. Unless `allowOutsideFiles`, one whose buffer files lie outside the
// workspace's folder is refused. `input` names the workspace in the errors.
support::Result<std::optional<gpu::RunConfig>> workspaceRun(const JobInputs& inputs, const std::string& input,
                                                            const std::optional<std::string>& config,
                                                            bool allowOutsideFiles, std::string_view verb);
// The job the inputs and options make. An input that is a bare name (no folder), no file, and a
// bundled example's name stands for that example's .nvpg.
support::Result<JobInputs> jobFromArgs(const CompileOptions& o);
// The toolkit the options name: opened, or with `open` false only located (Toolkit::locate).
// With a far engine (common.far) none: the far machine's toolkit compiles and runs (null).
support::Result<std::shared_ptr<toolkit::Toolkit>> loadToolkit(const CommonOptions& common, bool open = true);
// Whether compiles go to a fork of this process (not in-process, no NVPG_ENGINE command).
bool forkedEngine(const CommonOptions& common);
// One job per Compiler: a forked engine ends once it answered. With `useCache`, results come from
// and go to the result cache (cache::ResultCache::openDefault).
// With a far engine (common.far) `toolkit` may be null: the far engine's toolkit compiles.
engine::Compiler makeCompiler(const CommonOptions& common, std::shared_ptr<const toolkit::Toolkit> toolkit,
                              bool useCache);
void printDiagnostics(const std::vector<nvvm::Diagnostic>& diags);
int usage(const std::string& message);
// The JSON of one library's report (nvpg info, toolkits), and of the toolkit a compile used.
nlohmann::ordered_json libraryJson(const toolkit::LibraryReport& r);
nlohmann::ordered_json toolkitJson(const toolkit::Toolkit& tk);
// The same of a far engine's toolkit, with the machine it is on.
nlohmann::ordered_json farToolkitJson(const engine::FarEnd& far, const engine::FarToolkit& tk);
// "CUDA 13.0.88 (<where it is recorded>)", or that nothing records it.
std::string releaseWords(const std::optional<toolkit::Release>& r);
// How output files are written: --force replaces read-only ones.
support::WriteOptions outputWriting(const CompileOptions& o);
// Prints an error that stopped a compile; its status: 1 for a timeout (as for input libNVVM
// rejected or crashed on), 2 for the rest (usage, environment).
int compileFailed(const support::Error& error);

int runInfo(const CommonOptions& common, bool json);
// nvpg toolkits: every CUDA toolkit found on this machine, with its release and files.
int runToolkits(const CommonOptions& common, bool json);

// nvpg compare: the same modules compiled twice, side A's options and side B's on top of the
// common ones (each side may name its own --cuda-path, and gets its own engine process).
struct CompareOptions {
    CompileOptions common;            // inputs and the options both sides share
    std::optional<std::string> a, b;  // each side's options, as one string ("--ftz 1 --cuda-path DIR")
    // Side B's inputs (--against): two versions of the modules under the same options; then
    // --a and --b may be left out.
    std::vector<std::string> against;
    bool raw = false;  // the byte-for-byte diff, not the one with registers and labels renamed
    std::string emit = "ptx";
    std::optional<std::string> report, output;
    support::NameStyle names;  // how the figures table names kernels
};
void addCompareOptions(CLI::App& cmd, CompareOptions& o);
int runCompare(const CommonOptions& common, const CompareOptions& o);
// Why writing `outputs` (option, file) would replace one of the `inputs` (compared by identity:
// a hard link or symlink of an input is that input) or one another; nothing when it would not.
std::optional<std::string> outputOntoInput(const std::vector<std::pair<std::string, std::string>>& outputs,
                                           const std::vector<std::string>& inputs);
int runCompile(const CommonOptions& common, const CompileOptions& o);
int runRun(const CommonOptions& common, const CompileOptions& o, const RunOptions& r);
// nvpg explain: the built-in doc entries each word names (context "", "ir", "ptx" or "sass"); 1 when a
// word has none.
int runExplain(const std::vector<std::string>& words, const std::string& context);

// nvpg occupancy: each kernel's theoretical occupancy at a block size, from ptxas' figures and the
// arch's limits (resources/occupancy/arch-limits.json).
struct OccupancyOptions {
    std::optional<std::string> block;  // X[,Y[,Z]]; none: the run configurations', else 128 and 256
    unsigned shared = 0;               // dynamic shared memory per block, bytes
    bool json = false;
    support::NameStyle names;  // how the table names kernels
};
void addOccupancyOptions(CLI::App& cmd, CompileOptions& o, OccupancyOptions& occ);
int runOccupancy(const CommonOptions& common, const CompileOptions& o, const OccupancyOptions& occ);

// nvpg examples: the bundled examples (workspace::listExamples), or one's file with --path.
struct ExamplesOptions {
    bool json = false;
    std::optional<std::string> path;  // --path NAME
};
void addExamplesOptions(CLI::App& cmd, ExamplesOptions& o);
int runExamples(const ExamplesOptions& o);

// nvpg check: a lesson's checks on a learner's lesson file; nvpg lesson validate / state: a
// teacher's checks of a lesson itself, and a lesson file at one step's start or solution.
struct CheckOptions {
    std::string file;
    int step = 0;  // 1-based; 0: the step the file is on
    bool json = false;
};
void addCheckOptions(CLI::App& cmd, CheckOptions& o);
int runCheck(const CommonOptions& common, const CheckOptions& o);
struct LessonOptions {
    CLI::App* validate = nullptr;
    CLI::App* state = nullptr;
    std::string file;
    int step = 1;
    bool start = false, solution = false, json = false, force = false;
    std::string output;
};
void addLessonOptions(CLI::App& cmd, LessonOptions& o);
int runLesson(const CommonOptions& common, const LessonOptions& o);

// nvpg import numba FILE.py FUNCTION --sig SIG: a workspace from numba-cuda (core/interop).
struct ImportOptions {
    CLI::App* numba = nullptr;
    std::string file, function, signature;
    std::optional<std::string> args, arch, python, output;
    bool force = false;
    double timeout = 600;
};
void addImportOptions(CLI::App& cmd, ImportOptions& o);
int runImport(const CommonOptions& common, const ImportOptions& o);

// nvpg export --as cuda-core|c INPUT... -o DIR: the same program as a cuda.core script or a C
// program, with the workspace's run configuration (core/export).
struct ExportOptions {
    CompileOptions compile;  // INPUT and the options that decide what is compiled
    std::string as;          // "cuda-core" or "c"
    std::string output;      // the folder
    std::optional<std::string> config;
    bool noRun = false;
    bool lto = false;
    bool force = false;
    bool allowOutsideFiles = false;
};
void addExportOptions(CLI::App& cmd, ExportOptions& o);
int runExport(const CommonOptions& common, const ExportOptions& o);

}  // namespace nvpg::cli
