// nvpg examples: the workspaces the package installs under share/nvvm-playground/examples, which
// compile, run and compare also take by name (nvpg compile saxpy).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/Commands.h"
#include "cli/Output.h"
#include "core/support/Installed.h"
#include "core/support/Text.h"
#include "core/workspace/Examples.h"

namespace fs = std::filesystem;

namespace nvpg::cli {

namespace {

// No examples folder (a broken install, NVPG_DATA_DIR set wrong) or no example of the name
// asked for: 1, as for a word nvpg explain has no entry for. The command line was understood;
// what it asked for is not there.
constexpr int kNoExamples = 1;

// Why there is nothing to list: where nvpg looked, and what to do about it.
std::string noExamples(const fs::path& dir) {
    constexpr const char* kAdvice =
        "reinstall the nvvm-playground package, or set NVPG_DATA_DIR to a folder whose examples/ holds "
        ".nvpg workspaces";
    std::error_code ec;
    if (!dir.empty() && fs::is_directory(dir, ec))
        return fmt::format("no examples: {} holds no .nvpg workspaces; {}", dir.string(), kAdvice);
    std::string where;
    if (const char* env = std::getenv("NVPG_DATA_DIR"); env && *env) {
        where = fmt::format("{} (NVPG_DATA_DIR is {})", (fs::path(env) / "examples").string(), env);
    } else if (const auto prefix = support::installPrefix(); !prefix.empty()) {
        where = fmt::format("{} (share/nvvm-playground/examples under the install prefix of {})",
                            (prefix / "share/nvvm-playground/examples").string(), support::executablePath().string());
        if (support::runsFromBuildTree()) where += ", and the source tree's resources/examples";
    } else {
        where =
            "share/nvvm-playground/examples under the install prefix, which is unknown (/proc/self/exe "
            "cannot be read)";
    }
    return fmt::format("no examples folder: looked for {}; {}", where, kAdvice);
}

int failed(const std::string& message) {
    std::fprintf(stderr, "nvpg examples: %s\n", support::printable(message, true).c_str());
    return kNoExamples;
}

}  // namespace

void addExamplesOptions(CLI::App& cmd, ExamplesOptions& o) {
    auto* json = cmd.add_flag("--json", o.json, "print them as JSON: [{\"name\", \"path\", \"description\"}]");
    cmd.add_option("--path", o.path,
                   "print only the .nvpg file of the example NAME, for scripts: cp \"$(nvpg examples --path "
                   "saxpy)\" .")
        ->type_name("NAME")
        ->excludes(json);
}

int runExamples(const ExamplesOptions& o) {
    const auto dir = workspace::examplesDir();
    const auto examples = workspace::listExamples(dir);
    if (examples.empty()) return failed(noExamples(dir));
    if (o.path) {
        const auto found = workspace::findExample(*o.path, dir);
        if (!found) {
            std::vector<std::string> names;
            for (const auto& e : examples) names.push_back(e.name);
            return failed(fmt::format("no example is called '{}'; the examples are {} (nvpg examples describes them)",
                                      *o.path, support::join(names, ", ")));
        }
        fmt::print("{}\n", fs::absolute(found->path).string());
        return flushStdout(kOk);
    }
    if (o.json) {
        auto j = nlohmann::ordered_json::array();
        for (const auto& e : examples)
            j.push_back({{"name", e.name}, {"path", fs::absolute(e.path).string()}, {"description", e.description}});
        std::puts(j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return flushStdout(kOk);
    }
    // Names and descriptions come from files: escaped, so that each example stays on its line.
    size_t width = 0;
    for (const auto& e : examples) width = std::max(width, support::displayWidth(support::printable(e.name)));
    for (const auto& e : examples) {
        const auto name = support::printable(e.name);
        const auto description = support::printable(e.description);
        if (description.empty())
            fmt::print("{}\n", name);
        else
            fmt::print("{}{:{}}{}\n", name, "", width + 2 - support::displayWidth(name), description);
    }
    fmt::print("\nin {}\n", support::printable(fs::absolute(dir).string()));
    return flushStdout(kOk);
}

}  // namespace nvpg::cli
