#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpu/RunConfig.h"
#include "core/lto/Mode.h"
#include "core/nvvm/Module.h"
#include "core/nvvm/Options.h"
#include "core/support/Files.h"
#include "core/support/Result.h"

// Export to code: the same program as a cuda.core script or a C program (libNVVM, nvJitLink, the
// driver API), for people who leave the playground with what they built. Both front ends call this.
namespace nvpg::exporting {

enum class Target { CudaCore, C };
// "cuda-core" or "c", as nvpg export --as takes them.
std::optional<Target> parseTarget(std::string_view name);
std::string_view targetName(Target target);

struct Input {
    std::string name;  // the workspace's or the first module's: names the script and its outputs
    std::string description;
    std::vector<nvvm::Module> modules;
    // As the compile resolved them: options.arch is the arch nvpg compile used (never unset,
    // also where it chose the GPU's or libNVVM's default: the exported code must not need a GPU
    // to compile), libdevice after the libdevice rule.
    nvvm::Options options;
    bool libdevice = false;
    bool verify = true;
    lto::Mode ltoMode = lto::Mode::Program;
    // LTO-IR, then nvJitLink's link to PTX and to a cubin (what a run from LTO launches). A run
    // configuration that runs from LTO turns it on.
    bool lto = false;
    // The run configuration to launch, when one is exported; its buffer files are read from
    // `baseDir` (the workspace's folder) and written beside the code as inputs/argK.npy.
    std::optional<gpu::RunConfig> run;
    std::filesystem::path baseDir;
    // The files the export was made from (the workspace, or the module files): no output may
    // be one of them. The run's buffer files are added by generate().
    std::vector<std::filesystem::path> sources;
    // The compile's PTX: the run configuration is checked against its kernel's parameters (as
    // nvpg run does) before anything is written. Empty: not checked.
    std::string ptx;
};

struct File {
    std::string path;  // relative to the output folder, '/' separated
    std::string bytes;
};

struct Output {
    std::vector<File> files;
    // What the code cannot do as the playground does (an option cuda.core cannot express): each
    // is in a comment at the top of the code too.
    std::vector<std::string> warnings;
    std::string entry;     // the file to run or build: "saxpy.py", "CMakeLists.txt"
    std::string howToRun;  // the commands, as the code's head comment gives them
    // Every file the export read (Input::sources and the run's buffer files), which writeOutput
    // never writes over.
    std::vector<std::filesystem::path> inputs;
};

// How each typed option reaches cuda.core's ProgramOptions (nvvm backend): its name in
// nvvm::optionTable and the field. Options of the table without one are not carried (a warning).
struct CudaCoreField {
    std::string_view option;  // "prec-div"
    std::string_view field;   // "prec_div"
};
const std::vector<CudaCoreField>& cudaCoreFields();

// The files of the exported program: the code, the modules under modules/ (text and bitcode
// as files), the run's inputs under inputs/. The error says what cannot be exported and why.
support::Result<Output> generate(Target target, const Input& input);
// The files of `out` that exist under `dir` already, in order.
std::vector<std::filesystem::path> existingFiles(const Output& out, const std::filesystem::path& dir);
// Refused (an error that names both files and what to do) when a file of `out` written under
// `dir` would replace one of `out.inputs`: the same file through a symbolic link, a hard link or
// "..". `howToRedirect` says how the user writes elsewhere ("give -o another folder").
support::Status checkInputsKept(const Output& out, const std::filesystem::path& dir,
                                std::string_view howToRedirect = "export to another folder");
// Writes every file under `dir` (made when missing, with the folders the files need), after
// checkInputsKept (--force or not). The files are written into a hidden staging folder inside
// `dir` first and moved into place at the end, so that a failure or a stop signal (see
// support::Temporary) leaves none of them half-written and no temporary file behind.
// `howToRedirect` says how the user writes elsewhere, for that refusal ("give -o another folder").
support::Status writeOutput(const Output& out, const std::filesystem::path& dir, const support::WriteOptions& options,
                            std::string_view howToRedirect = "export to another folder");

}  // namespace nvpg::exporting
