// nvpg's command line as one table: every subcommand and option, with the storage they parse
// into. nvpg parses its arguments with it and nvpg_manpage writes nvpg.1 from it, so --help and
// the man page are made from the same options and cannot say different things.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/Commands.h"

namespace nvpg::cli {

struct CliApp {
    CLI::App app{"nvpg: compile NVVM IR with libNVVM and nvJitLink, headless"};
    CommonOptions common;

    CLI::App* info = nullptr;
    bool infoJson = false;

    CLI::App* compile = nullptr;
    CompileOptions compileOptions;

    CLI::App* run = nullptr;
    CompileOptions runCompileOptions;
    RunOptions runOptions;

    CLI::App* compare = nullptr;
    CompareOptions compareOptions;

    CLI::App* toolkits = nullptr;
    bool toolkitsJson = false;

    CLI::App* explain = nullptr;
    std::vector<std::string> explainWords;
    std::string explainContext;

    CLI::App* occupancy = nullptr;
    CompileOptions occupancyCompileOptions;
    OccupancyOptions occupancyOptions;

    CLI::App* examples = nullptr;
    ExamplesOptions examplesOptions;

    CLI::App* check = nullptr;
    CheckOptions checkOptions;

    CLI::App* lesson = nullptr;
    LessonOptions lessonOptions;

    CLI::App* importer = nullptr;
    ImportOptions importOptions;

    CLI::App* exporter = nullptr;
    ExportOptions exportOptions;
};

// The table, on the heap: its options write through pointers into the struct, so it never moves.
// With `only` (a subcommand's name), every subcommand is there but only that one has its
// options: a third of the cost of the whole table, which is paid before every compile.
std::unique_ptr<CliApp> buildCliApp(std::string_view only = {});

// The words of `nvpg explain` in the order argv gives them: the positional words and the libNVVM
// options ("-ftz=1") that CLI11 kept aside as extras.
std::vector<std::string> explainWordsInOrder(const CliApp& cli, int argc, const char* const* argv);

// The subcommand that `args` (argv) name, where the smaller table of buildCliApp(only) parses
// them as the whole one would: the first argument that is a subcommand's name, and no help asked
// for. Empty otherwise (then the whole table is needed). A parse of the smaller table that fails
// or picks another subcommand is done again with the whole one, which then gives the errors.
std::string_view subcommandNamed(int argc, const char* const* argv);

}  // namespace nvpg::cli
