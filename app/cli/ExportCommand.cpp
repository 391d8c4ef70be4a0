// nvpg export: the program a workspace (or modules) makes, as a standalone cuda.core script or C
// program (core/export), compiled first so that the code gets the arch nvpg compile used.
#include <cstdio>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "cli/Commands.h"
#include "cli/Output.h"
#include "core/export/Export.h"
#include "core/nvvm/Options.h"
#include "core/pipeline/Job.h"
#include "core/support/Text.h"

namespace fs = std::filesystem;

namespace nvpg::cli {

void addExportOptions(CLI::App& cmd, ExportOptions& o) {
    addInputOptions(cmd, o.compile);
    cmd.add_option("--as", o.as,
                   "cuda-core: one Python file over cuda.core's Program(..., \"nvvm\"); c: a C11 program with a "
                   "CMakeLists.txt over libNVVM, nvJitLink and the driver API")
        ->required()
        ->check(CLI::IsMember({"cuda-core", "c"}));
    cmd.add_option("-o,--output", o.output,
                   "the folder to write the code, modules/ (the modules as files) and inputs/ (the run's buffers as "
                   ".npy) to")
        ->required()
        ->type_name("DIR");
    cmd.add_option("--config", o.config,
                   "with a workspace: the run configuration the code launches (default: its first)");
    cmd.add_flag("--no-run", o.noRun, "export the compile only, without the workspace's run configuration");
    cmd.add_flag("--lto", o.lto,
                 "also make LTO-IR and link it with nvJitLink (to PTX and a cubin), as a run from LTO does");
    cmd.add_flag("--force", o.force, "replace files that are already in the folder");
    cmd.add_flag("--allow-outside-files", o.allowOutsideFiles,
                 "let the workspace's run configuration read buffer files outside the workspace's folder");
}

int runExport(const CommonOptions& common, const ExportOptions& o) {
    const auto target = exporting::parseTarget(o.as);
    if (!target) return usage(fmt::format("--as {}: expected cuda-core or c", o.as));
    auto inputs = jobFromArgs(o.compile);
    if (!inputs) return usage(inputs.error().message);
    noteLibdeviceRule(*inputs);
    if (std::error_code ec; fs::exists(o.output, ec) && !fs::is_directory(o.output, ec))
        return usage(fmt::format("-o {} is a file; give a folder (it is made when missing)", o.output));
    if (o.noRun && o.config) return usage("--no-run and --config: give one (--config picks the run to export)");
    std::optional<gpu::RunConfig> run;
    if (!o.noRun) {
        auto picked = workspaceRun(*inputs, o.compile.inputs[0], o.config, o.allowOutsideFiles, "exporting");
        if (!picked) return usage(picked.error().message);
        run = std::move(*picked);
    }
    const bool lto = o.lto || (run && run->fromLto);

    // Compiled as nvpg compile would: what does not compile is not exported, and the code gets
    // the arch that was used (the local GPU's, else libNVVM's default, when none is given).
    auto& job = inputs->job;
    job.outputs = pipeline::kPtx | (lto ? pipeline::kLtoPtx : 0u);
    auto tk = loadToolkit(common, /*open=*/!forkedEngine(common));
    if (!tk) return usage(tk.error().message);
    auto compiler = makeCompiler(common, *tk, !o.compile.noCache);
    auto ran = compiler.run(job);
    if (!ran) return compileFailed(ran.error());
    printDiagnostics(ran->diagnostics);
    if (!ran->ok) {
        std::fprintf(stderr, "nvpg: nothing exported: the program does not compile (the errors above)\n");
        return kCompileError;
    }

    exporting::Input in;
    const auto& ws = inputs->workspace;
    in.name = ws && !ws->name.empty() ? ws->name : fs::path(inputs->names.front()).stem().string();
    if (ws) in.description = ws->description;
    in.modules = job.modules;
    in.options = job.options;
    in.options.arch = ran->arch;
    if (!job.options.arch) {
        std::fprintf(stderr, "nvpg: exporting for %s (%s; --arch chooses)\n", ran->arch.c_str(),
                     support::printable(ran->archSource).c_str());
        // PTX runs on any later GPU; a cubin only on its own arch.
        if (lto && run && run->fromLto && ran->archSource.find("local GPU") == std::string::npos)
            std::fprintf(stderr,
                         "nvpg: warning: the run launches the LTO cubin, made for %s here; give --arch compute_NN "
                         "for the GPU it will run on\n",
                         nvvm::smArchFor(ran->arch).c_str());
    }
    in.libdevice = job.libdevice;
    in.verify = job.verify;
    in.ltoMode = job.ltoMode;
    in.lto = lto;
    in.run = run;
    in.baseDir = inputs->baseDir;
    in.ptx = ran->ptx;
    for (const auto& f : inputs->files) in.sources.emplace_back(f);
    auto out = exporting::generate(*target, in);
    if (!out) return usage(out.error().message);

    const fs::path dir(o.output);
    constexpr std::string_view howToRedirect = "give -o another folder";
    if (auto st = exporting::checkInputsKept(*out, dir, howToRedirect); !st) return usage(st.error().message);
    if (!o.force)
        if (const auto existing = exporting::existingFiles(*out, dir); !existing.empty())
            return usage(fmt::format("{} exists; give --force to replace what is there, or -o another folder",
                                     existing.front().string()));
    if (auto st = exporting::writeOutput(*out, dir, {o.force, "give --force to replace it", /*durable=*/false},
                                         howToRedirect);
        !st)
        return usage(st.error().message);
    for (const auto& w : out->warnings)
        std::fprintf(stderr, "nvpg: warning: not carried to cuda.core: %s\n", support::printable(w, true).c_str());
    fmt::print("wrote {} ({} files: the code, {} module{}{})\n", support::printable((dir / out->entry).string()),
               out->files.size(), job.modules.size(), job.modules.size() == 1 ? "" : "s",
               run ? fmt::format(", run configuration '{}'", support::printable(run->name)) : "");
    fmt::print("in {}:\n", support::printable(dir.string()));
    for (const auto& l : support::splitLines(out->howToRun)) fmt::print("  {}\n", l);
    return flushStdout(kOk);
}

}  // namespace nvpg::cli
