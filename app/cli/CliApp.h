// nvpg's command line as one table: every subcommand and option, with the storage they parse
// into. nvpg parses its arguments with it and nvpg_manpage writes nvpg.1 from it, so --help and
// the man page are made from the same options and cannot say different things.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "Commands.h"

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

    CLI::App* examples = nullptr;
    ExamplesOptions examplesOptions;
};

// The table, on the heap: its options write through pointers into the struct, so it never moves.
std::unique_ptr<CliApp> buildCliApp();

}  // namespace nvpg::cli
