#include "cli/CliApp.h"

#include <charconv>
#include <cmath>
#include <system_error>

#include <fmt/format.h>

#include "core/engine/Compiler.h"

namespace nvpg::cli {

namespace {

constexpr std::string_view kSubcommands[] = {"info",     "compile",   "run",   "compare", "toolkits", "explain",
                                             "examples", "occupancy", "check", "lesson",  "import",   "export"};

}  // namespace

std::string_view subcommandNamed(int argc, const char* const* argv) {
    std::string_view named;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "-h" || a == "--help" || a == "--help-all" || a == "--version") return {};
        if (named.empty())
            for (auto sub : kSubcommands)
                if (a == sub) named = sub;
    }
    return named;
}

std::vector<std::string> explainWordsInOrder(const CliApp& cli, int argc, const char* const* argv) {
    // Both lists are in argv's order: merge them back into it.
    const auto& words = cli.explainWords;
    // CLI11 keeps the "--" that ends options among the extras: it is no word.
    auto extras = cli.explain->remaining();
    std::erase(extras, "--");
    std::vector<std::string> out;
    size_t w = 0, x = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (w < words.size() && a == words[w])
            out.push_back(words[w++]);
        else if (x < extras.size() && a == extras[x])
            out.push_back(extras[x++]);
    }
    out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(w), words.end());
    out.insert(out.end(), extras.begin() + static_cast<std::ptrdiff_t>(x), extras.end());
    return out;
}

std::unique_ptr<CliApp> buildCliApp(std::string_view only) {
    auto t = std::make_unique<CliApp>();
    const auto with = [only](std::string_view sub) { return only.empty() || only == sub; };
    auto& app = t->app;
    app.require_subcommand(1);
    app.fallthrough();  // --cuda-path may follow the subcommand
    app.set_version_flag("--version", NVPG_VERSION);
    app.add_option("--cuda-path", t->common.cudaPath,
                   "use only this CUDA toolkit: a folder holding nvvm/lib64/libnvvm.so.4 or "
                   "lib64/libnvvm.so.4, or a "
                   "pip site-packages/nvidia folder (nvidia-cuda-nvcc-cu12, nvidia-nvvm)")
        ->check(CLI::ExistingDirectory);
    app.add_flag("--in-process", t->common.inProcess,
                 "compile and run in this process instead of an engine process (for debugging: input that "
                 "crashes libNVVM then takes nvpg down with it)");
    app.add_option("--engine-timeout", t->common.engineTimeout,
                   fmt::format("seconds a compile may take before the engine is stopped (default 300, at most {})",
                               engine::kMaxTimeoutSeconds))
        ->check(CLI::Validator(
            [](const std::string& text) {
                double s = 0;
                const auto end = text.data() + text.size();
                const auto r = std::from_chars(text.data(), end, s);
                if (r.ec == std::errc() && r.ptr == end && std::isfinite(s) && s > 0 && s <= engine::kMaxTimeoutSeconds)
                    return std::string();
                return fmt::format("'{}' is not a number of seconds above 0 and at most {} (a day)", text,
                                   engine::kMaxTimeoutSeconds);
            },
            "SECONDS"));

    app.add_option("--on", t->common.on,
                   "compile and run on another machine over SSH: DEST as ssh takes it (host, user@host, a Host alias, "
                   "ssh://user@host:port); default: NVPG_ON, else this machine; the ssh command is NVPG_SSH_COMMAND, "
                   "else ssh")
        ->type_name("DEST");
    app.add_option("--remote-nvpg", t->common.remoteNvpg,
                   "with --on: the far nvpg, a path or a name on the far PATH (default nvpg)")
        ->type_name("PATH");

    t->info = app.add_subcommand("info", "libraries, versions, paths and how each was found; archs; GPUs");
    if (with("info")) t->info->add_flag("--json", t->infoJson, "print the same as JSON");

    t->compile = app.add_subcommand("compile", "compile NVVM IR modules (.ll, .bc) or one .nvpg workspace");
    if (with("compile")) addCompileOptions(*t->compile, t->compileOptions);

    t->run = app.add_subcommand("run", "compile, then launch a kernel on the GPU (here, or --on's)");
    if (with("run")) {
        addCompileOptions(*t->run, t->runCompileOptions, /*forRun=*/true);
        addRunOptions(*t->run, t->runOptions);
    }

    t->compare = app.add_subcommand(
        "compare",
        "compile the same modules under two option sets, arches or toolkits, or two versions of the modules "
        "(--against), and diff the results");
    if (with("compare")) addCompareOptions(*t->compare, t->compareOptions);

    t->toolkits = app.add_subcommand("toolkits", "every CUDA toolkit found on this machine, with its release");
    if (with("toolkits")) t->toolkits->add_flag("--json", t->toolkitsJson, "print the same as JSON");

    t->explain =
        app.add_subcommand("explain",
                           "what PTX, NVVM IR, libdevice and SASS words, archs and libNVVM options mean, from the "
                           "built-in docs");
    if (with("explain")) {
        t->explain->add_option(
            "words", t->explainWords,
            "words as written: fma.rn.f32 %tid.x __nv_sinf addrspace(1) FFMA compute_90a sm_90 -ftz=1 prec-div");
        // A libNVVM option is a word here ("-ftz", "-opt=0"), not one of nvpg's: what CLI11 does
        // not know stays with explain (in argv order, see explainWordsInOrder) instead of failing.
        t->explain->allow_extras();
        t->explain->fallthrough(false);
        t->explain->add_option("--context", t->explainContext, "read the words as IR, PTX or SASS (default: any)")
            ->check(CLI::IsMember({"ir", "ptx", "sass"}));
    }

    t->occupancy = app.add_subcommand(
        "occupancy", "compile, then each kernel's theoretical occupancy per SM at a block size, and what limits it");
    if (with("occupancy")) addOccupancyOptions(*t->occupancy, t->occupancyCompileOptions, t->occupancyOptions);

    t->examples =
        app.add_subcommand("examples", "the bundled example workspaces, which compile, run and compare take by name");
    if (with("examples")) addExamplesOptions(*t->examples, t->examplesOptions);

    t->check = app.add_subcommand(
        "check", "grade a learner's lesson file: run a step's checks on its compile (and run); exit 0 when all pass");
    if (with("check")) addCheckOptions(*t->check, t->checkOptions);

    t->lesson =
        app.add_subcommand("lesson", "for teachers: validate a lesson, or write it at a step's start or solution");
    if (with("lesson")) addLessonOptions(*t->lesson, t->lessonOptions);

    t->importer = app.add_subcommand(
        "import", "make a workspace from another tool's NVVM IR: numba (numba-cuda kernels, run with Python)");
    if (with("import")) addImportOptions(*t->importer, t->importOptions);

    t->exporter = app.add_subcommand(
        "export",
        "write the program as a standalone cuda.core script or C program (libNVVM, nvJitLink, the driver API)");
    if (with("export")) addExportOptions(*t->exporter, t->exportOptions);
    return t;
}

}  // namespace nvpg::cli
