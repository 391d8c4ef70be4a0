#pragma once
// Where the files a package installs beside the binaries are found at run time (examples,
// README and docs), wherever the package was installed or unpacked, and in a build tree.
#include <filesystem>
#include <string_view>

namespace nvpg::support {

// The running program's own file (/proc/self/exe, links resolved); empty when unknown.
std::filesystem::path executablePath();

// The install prefix the running program belongs to: the folder above the one holding it
// (/usr for /usr/bin/nvpg, ROOT/usr for a .deb unpacked into ROOT). Empty when unknown.
std::filesystem::path installPrefix();

// The file CMake writes at the top of a build folder, holding the source tree's path.
inline constexpr const char* kBuildTreeMarker = "nvvm-playground-build-tree.txt";

// True when the running program lies in a build folder (below its kBuildTreeMarker) whose source
// tree is on this machine: a program built and not installed.
bool runsFromBuildTree();

// A file or folder the package installs, named as under the install prefix
// ("share/nvvm-playground/examples"): that path under installPrefix() when it exists; else, only
// for a program that runs from its build tree, `inSourceTree` under the source tree it was built
// from ("resources/examples"). An installed program never looks into a source or build tree.
// Empty when neither exists.
std::filesystem::path packageFile(std::string_view underPrefix, std::string_view inSourceTree);

// The package's data folder, which holds examples/ (and docs/): $NVPG_DATA_DIR when set (a
// build moved elsewhere, or a test); else packageFile("share/nvvm-playground", "resources"), the
// source tree's resources/ having the same layout. Empty when none is there.
std::filesystem::path dataDir();

}  // namespace nvpg::support
