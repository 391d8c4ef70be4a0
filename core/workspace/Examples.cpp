#include "core/workspace/Examples.h"

#include <algorithm>
#include <system_error>

#include "core/support/Installed.h"
#include "core/workspace/Workspace.h"

namespace fs = std::filesystem;

namespace nvpg::workspace {

fs::path examplesDir() {
    const auto data = support::dataDir();
    return data.empty() ? fs::path() : data / "examples";
}

namespace {
Example describe(const fs::path& file) {
    Example e{file.stem().string(), file, {}};
    if (auto ws = loadWorkspace(file)) e.description = ws->description;
    return e;
}
}  // namespace

std::vector<Example> listExamples(const fs::path& dir) {
    std::vector<Example> out;
    if (dir.empty()) return out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".nvpg" && it->is_regular_file(ec)) out.push_back(describe(it->path()));
    std::sort(out.begin(), out.end(), [](const Example& a, const Example& b) { return a.name < b.name; });
    return out;
}

std::optional<Example> findExample(std::string_view name, const fs::path& dir) {
    if (dir.empty() || name.empty()) return std::nullopt;
    fs::path file(name);
    if (file.has_parent_path() || file.filename() != file) return std::nullopt;  // a name, not a path
    if (file.extension() != ".nvpg") file += ".nvpg";
    std::error_code ec;
    const auto path = dir / file;
    if (!fs::is_regular_file(path, ec)) return std::nullopt;
    return describe(path);
}

std::optional<fs::path> workspaceArgument(std::string_view argument, const fs::path& dir) {
    std::error_code ec;
    const fs::path given(argument);
    if (fs::exists(given, ec)) return given;
    if (auto e = findExample(argument, dir)) return e->path;
    return std::nullopt;
}

}  // namespace nvpg::workspace
