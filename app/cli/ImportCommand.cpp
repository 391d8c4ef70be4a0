// nvpg import numba: a workspace from what numba-cuda hands libNVVM for one kernel and
// signature (core/interop/NumbaImport).
#include <cstdio>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "cli/Commands.h"
#include "cli/Output.h"
#include "core/interop/NumbaImport.h"
#include "core/support/Symbols.h"
#include "core/support/Text.h"

namespace fs = std::filesystem;

namespace nvpg::cli {

void addImportOptions(CLI::App& cmd, ImportOptions& o) {
    cmd.require_subcommand(1);
    auto* numba = cmd.add_subcommand(
        "numba",
        "run FILE.py with numba-cuda and write a workspace of the NVVM IR modules and libNVVM options numba "
        "hands to libNVVM for FUNCTION and --sig, with a run configuration in numba's kernel ABI");
    o.numba = numba;
    numba
        ->add_option("FILE", o.file,
                     "the Python file (.py) that defines the kernel, imported as a module named after it")
        ->required();
    numba->add_option("FUNCTION", o.function, "the kernel: a @cuda.jit function, or a plain one, in FILE.py")
        ->required();
    numba
        ->add_option("--sig", o.signature,
                     "numba's signature for the kernel: \"void(float32[::1], float32, float32[::1])\"")
        ->required()
        ->type_name("SIGNATURE");
    numba
        ->add_option("--args", o.args,
                     "example inputs: a NumPy .npz with an entry per argument (its name, or arr_K as np.savez(*a) "
                     "writes); arrays are written beside the workspace as .npy and passed from there")
        ->type_name("FILE.npz");
    numba
        ->add_option("--arch", o.arch,
                     "the arch numba compiles for, compute_NN (default: the local GPU's, else compute_90)")
        ->type_name("compute_NN");
    numba->add_option("--python", o.python, "the Python with numba-cuda that runs FILE.py (default: python3 on PATH)")
        ->type_name("PATH");
    numba->add_option("-o,--output", o.output, "the workspace to write (default: FUNCTION.nvpg)")
        ->type_name("FILE.nvpg");
    numba->add_flag("--force", o.force, "replace the workspace file if it exists");
    numba->add_option("--timeout", o.timeout, "seconds numba may take to import FILE.py and compile (default 600)")
        ->type_name("SECONDS")
        ->check(CLI::PositiveNumber);
}

int runImport(const CommonOptions& common, const ImportOptions& o) {
    interop::NumbaImportRequest r;
    r.file = o.file;
    r.function = o.function;
    r.signature = o.signature;
    if (o.args) r.argsNpz = *o.args;
    r.python = o.python.value_or("");
    if (common.cudaPath) r.cudaHome = *common.cudaPath;
    r.timeoutSeconds = o.timeout;
    r.output = o.output ? fs::path(*o.output) : fs::path(o.function + ".nvpg");
    if (auto why = interop::numbaOutputReplacesInput(r)) return usage(*why);
    std::error_code ec;
    if (fs::exists(r.output, ec) && !o.force)
        return usage(fmt::format("{} exists; give --force to replace it, or -o another file", r.output.string()));
    if (o.arch) {
        r.arch = *o.arch;
    } else {
        auto tk = loadToolkit(common, /*open=*/false);
        const auto choice = interop::numbaDefaultArch(tk ? tk->get() : nullptr);
        r.arch = choice.arch;
        std::fprintf(stderr, "nvpg: compiling for %s (%s; --arch chooses)\n", r.arch.c_str(),
                     support::printable(choice.why).c_str());
    }
    auto imported = interop::importNumba(r);
    if (!imported) {
        const auto kind = imported.error().kind;
        std::fprintf(stderr, "nvpg import numba: %s\n", support::printable(imported.error().message, true).c_str());
        return kind == support::ErrorKind::Compile || kind == support::ErrorKind::Timeout ? kCompileError : kUsageError;
    }
    for (const auto& w : imported->warnings)
        std::fprintf(stderr, "nvpg: warning: %s\n", support::printable(w, true).c_str());
    const auto& ws = imported->workspace;
    const auto& run = ws.runs.front();
    fmt::print("wrote {}: {} ({} module{}, libNVVM options {}{})\n", support::printable(imported->written.string()),
               support::readableName(imported->kernel), ws.modules.size(), ws.modules.size() == 1 ? "" : "s",
               support::join(ws.options.flags(), " "), ws.libdevice ? ", libdevice" : "");
    fmt::print("run configuration '{}': grid {},{},{} block {},{},{}, {} kernel parameters\n", run.name, run.grid.x,
               run.grid.y, run.grid.z, run.block.x, run.block.y, run.block.z, run.args.size());
    for (const auto& f : imported->npy) fmt::print("wrote {}\n", support::printable(f.string()));
    return flushStdout(kOk);
}

}  // namespace nvpg::cli
