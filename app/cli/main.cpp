// nvpg: NVVM Playground's command line. Compiles NVVM IR modules or .nvpg workspaces through
// the same pipeline as the desktop app.
#include <charconv>
#include <cmath>
#include <new>
#include <system_error>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "Commands.h"
#include "Output.h"
#include "engine/EngineProcess.h"
#include "engine/Server.h"

int main(int argc, char** argv) {
    using namespace nvpg::cli;
    // The engine process (started by nvpg itself for compiles and runs): requests on stdin,
    // replies on stdout. Not for people, so not in --help.
    if (argc == 2 && std::string_view(argv[1]) == "engine") return nvpg::engine::serveEngine(0, 1);
    checkStdoutAtExit();
    CLI::App app{"nvpg: compile NVVM IR with libNVVM and nvJitLink, headless"};
    app.require_subcommand(1);
    app.fallthrough();  // --cuda-path may follow the subcommand
    app.set_version_flag("--version", NVPG_VERSION);
    CommonOptions common;
    app.add_option("--cuda-path", common.cudaPath,
                   "use only this CUDA toolkit: a folder holding nvvm/lib64/libnvvm.so.4 or "
                   "lib64/libnvvm.so.4, or a "
                   "pip site-packages/nvidia folder (nvidia-cuda-nvcc-cu12, nvidia-nvvm)")
        ->check(CLI::ExistingDirectory);
    app.add_flag("--in-process", common.inProcess,
                 "compile and run in this process instead of an engine process (for debugging: input that "
                 "crashes libNVVM then takes nvpg down with it)");
    app.add_option("--engine-timeout", common.engineTimeout,
                   fmt::format("seconds a compile may take before the engine is stopped (default 300, at most {})",
                               nvpg::engine::kMaxTimeoutSeconds))
        ->check(CLI::Validator(
            [](const std::string& text) {
                double s = 0;
                const auto end = text.data() + text.size();
                const auto r = std::from_chars(text.data(), end, s);
                if (r.ec == std::errc() && r.ptr == end && std::isfinite(s) && s > 0 &&
                    s <= nvpg::engine::kMaxTimeoutSeconds)
                    return std::string();
                return fmt::format("'{}' is not a number of seconds above 0 and at most {} (a day)", text,
                                   nvpg::engine::kMaxTimeoutSeconds);
            },
            "SECONDS"));

    auto* info = app.add_subcommand("info", "libraries, versions, paths and how each was found; archs; GPUs");
    bool json = false;
    info->add_flag("--json", json, "print the same as JSON");

    auto* compile = app.add_subcommand("compile", "compile NVVM IR modules (.ll, .bc) or one .nvpg workspace");
    CompileOptions co;
    addCompileOptions(*compile, co);

    auto* run = app.add_subcommand("run", "compile, then launch a kernel on the local GPU");
    CompileOptions runCompileOptions;
    RunOptions ro;
    addCompileOptions(*run, runCompileOptions, /*forRun=*/true);
    addRunOptions(*run, ro);

    auto* compare = app.add_subcommand(
        "compare",
        "compile the same modules under two option sets, arches or toolkits, and diff the results");
    CompareOptions cmp;
    addCompareOptions(*compare, cmp);

    auto* toolkits = app.add_subcommand(
        "toolkits", "every CUDA toolkit found on this machine, with its release");
    bool toolkitsJson = false;
    toolkits->add_flag("--json", toolkitsJson, "print the same as JSON");

    auto* explain =
        app.add_subcommand("explain", "what PTX, NVVM IR, libdevice and SASS words mean, from the built-in docs");
    std::vector<std::string> explainWords;
    std::string explainContext;
    explain->add_option("words", explainWords, "words as written: fma.rn.f32 %tid.x __nv_sinf addrspace(1) FFMA")
        ->required();
    explain->add_option("--context", explainContext, "read the words as IR, PTX or SASS (default: any)")
        ->check(CLI::IsMember({"ir", "ptx", "sass"}));

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kUsageError;
    }
    nvpg::engine::endEnginesOnStopSignals();
    // Core turns what runs out into errors where it can; this is for the rest.
    try {
        if (*info) return runInfo(common, json);
        if (*run) return runRun(common, runCompileOptions, ro);
        if (*explain) return runExplain(explainWords, explainContext);
        if (*compare) return runCompare(common, cmp);
        if (*toolkits) return runToolkits(common, toolkitsJson);
        return runCompile(common, co);
    } catch (const std::bad_alloc&) {
        return usage("out of memory: nvpg may not have more (ulimit -v) or the machine has no more");
    } catch (const std::system_error& e) {
        return usage(fmt::format("{}: a limit on threads, processes or memory (ulimit -u, -v) was reached", e.what()));
    }
}
