#pragma once
// The bundled examples: the .nvpg workspaces the package installs under
// share/nvvm-playground/examples (with the IR sources they were made from, in src/). The app's
// File > Examples and start page, and nvpg's `examples` and example names as inputs, all use these.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nvpg::workspace {

struct Example {
    std::string name;  // the file name without .nvpg: "saxpy"
    std::filesystem::path path;
    std::string description;  // the workspace's own description; empty when it has none or is unreadable
};

// The examples folder: examples/ in support::dataDir(), i.e. share/nvvm-playground/examples
// under the running program's install prefix, or the source tree's resources/examples for a
// program run from its build tree. Empty when neither is there (a broken install).
std::filesystem::path examplesDir();

// Every example in `dir` (default: examplesDir()), sorted by name.
std::vector<Example> listExamples(const std::filesystem::path& dir = examplesDir());

// The example called `name` ("saxpy", or "saxpy.nvpg"); nullopt when there is none.
std::optional<Example> findExample(std::string_view name, const std::filesystem::path& dir = examplesDir());

// A command line's workspace argument: the path itself when it names a file; else the bundled
// example of that name, when it is a bare name (no folder) and there is one; else nullopt.
std::optional<std::filesystem::path> workspaceArgument(std::string_view argument,
                                                       const std::filesystem::path& dir = examplesDir());

}  // namespace nvpg::workspace
