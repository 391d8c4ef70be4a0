// nvpg: NVVM Playground's command line. Compiles NVVM IR modules or .nvpg workspaces through
// the same pipeline as the desktop app.
#include <new>
#include <system_error>

#include <fmt/format.h>

#include "cli/CliApp.h"
#include "cli/Output.h"
#include "core/engine/EngineProcess.h"
#include "core/engine/Server.h"
#include "core/engine/ToolkitProbe.h"
#include "core/toolkit/Toolkit.h"

int main(int argc, char** argv) {
    using namespace nvpg::cli;
    nvpg::toolkit::bypassDriverComputeCache();  // before any thread, for its engines too
    // The engine process (started by nvpg itself for compiles and runs): requests on stdin,
    // replies on stdout. Not for people, so not in --help.
    if (argc == 2 && std::string_view(argv[1]) == "engine") {
        nvpg::engine::setServedVersion(NVPG_VERSION);
        return nvpg::engine::serveEngine(0, 1);
    }
    checkStdoutAtExit();
    // The named subcommand's table first (most runs of nvpg are one compile, and the whole table
    // costs about 0.2-0.4 ms); anything it does not parse as the whole table would, the whole one.
    std::unique_ptr<CliApp> cli;
    if (const auto only = subcommandNamed(argc, argv); !only.empty()) {
        auto named = buildCliApp(only);
        try {
            named->app.parse(argc, argv);
            const auto chosen = named->app.get_subcommands();
            if (chosen.size() == 1 && chosen.front()->get_name() == only) cli = std::move(named);
        } catch (const CLI::Error&) {
        }
    }
    const bool parsed = cli != nullptr;
    if (!parsed) cli = buildCliApp();
    auto& app = cli->app;

    try {
        if (!parsed) app.parse(argc, argv);
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
    if (const auto chosen = app.get_subcommands(); !chosen.empty())
        if (auto st = resolveEngine(cli->common, chosen.front()->get_name()); !st) return usage(st.error().message);
    nvpg::engine::endEnginesOnStopSignals();
    nvpg::engine::reapEnginesAtExit();
    // Core turns what runs out into errors where it can; this is for the rest.
    try {
        const auto& common = cli->common;
        if (*cli->info) return runInfo(common, cli->infoJson);
        if (*cli->run) return runRun(common, cli->runCompileOptions, cli->runOptions);
        if (*cli->explain) return runExplain(explainWordsInOrder(*cli, argc, argv), cli->explainContext);
        if (*cli->compare) return runCompare(common, cli->compareOptions);
        if (*cli->toolkits) return runToolkits(common, cli->toolkitsJson);
        if (*cli->examples) return runExamples(cli->examplesOptions);
        if (*cli->occupancy) return runOccupancy(common, cli->occupancyCompileOptions, cli->occupancyOptions);
        if (*cli->check) return runCheck(common, cli->checkOptions);
        if (*cli->lesson) return runLesson(common, cli->lessonOptions);
        if (*cli->importer) return runImport(common, cli->importOptions);
        if (*cli->exporter) return runExport(common, cli->exportOptions);
        return runCompile(common, cli->compileOptions);
    } catch (const std::bad_alloc&) {
        return usage("out of memory: nvpg may not have more (ulimit -v) or the machine has no more");
    } catch (const std::system_error& e) {
        return usage(fmt::format("{}: a limit on threads, processes or memory (ulimit -u, -v) was reached", e.what()));
    }
}
