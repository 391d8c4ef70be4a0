#include "core/support/Installed.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <system_error>

namespace fs = std::filesystem;

namespace nvpg::support {

fs::path executablePath() {
    std::error_code ec;
    auto self = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    return self;
}

fs::path installPrefix() {
    const auto self = executablePath();
    if (self.empty()) return {};
    return self.parent_path().parent_path();
}

namespace {
// The source tree a build-tree program was built from: the build folder's marker file
// (kBuildTreeMarker, written by CMake) in a folder above the program names it. No path is
// compiled in, so an installed program holds none of the build machine's paths; it finds no
// marker above /usr/bin.
fs::path sourceTreeOfBuild() {
    const auto self = executablePath();
    if (self.empty()) return {};
    std::error_code ec;
    for (auto dir = self.parent_path(); !dir.empty(); dir = dir.parent_path()) {
        if (std::ifstream marker(dir / kBuildTreeMarker); marker) {
            std::string source;
            std::getline(marker, source);
            if (!source.empty() && fs::is_directory(source, ec)) return source;
            return {};  // a build carried to another machine: its source tree is not here
        }
        if (dir == dir.root_path()) break;
    }
    return {};
}
}  // namespace

bool runsFromBuildTree() {
    return !sourceTreeOfBuild().empty();
}

fs::path packageFile(std::string_view underPrefix, std::string_view inSourceTree) {
    std::error_code ec;
    if (const auto prefix = installPrefix(); !prefix.empty()) {
        const auto installed = prefix / underPrefix;
        if (fs::exists(installed, ec)) return installed;
    }
    if (inSourceTree.empty()) return {};
    if (const auto source = sourceTreeOfBuild(); !source.empty())
        if (auto inSource = source / inSourceTree; fs::exists(inSource, ec)) return inSource;
    return {};
}

fs::path dataDir() {
    if (const char* env = std::getenv("NVPG_DATA_DIR"); env && *env) return env;
    return packageFile("share/nvvm-playground", "resources");
}

}  // namespace nvpg::support
