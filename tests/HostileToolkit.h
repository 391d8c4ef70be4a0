#pragma once

// Toolkits whose libnvvm.so.4 aborts, segfaults, _exit(0)s or sleeps for ever as it is loaded
// (tests/HostileNvvm.c, built by tests/CMakeLists.txt: nvpg_test_uses_hostile_nvvm), beside the
// real toolkit's libdevice and nvJitLink.
#include <filesystem>
#include <string>

#include <QtTest>

#include "BuildPaths.h"
#include "core/toolkit/Toolkit.h"

namespace nvpg::test {

// What each stand-in does, and the words a front end must use for it.
struct HostileNvvm {
    const char* action;  // the folder under NVPG_HOSTILE_NVVM
    const char* said;    // what the message says happened
};
inline constexpr HostileNvvm kHostileNvvms[] = {
    {"abort", "libNVVM crashed (SIGABRT"},
    {"segv", "libNVVM crashed (SIGSEGV"},
    {"exit0", "exited with status 0"},
    {"sleep", "did not finish loading within"},
};

// Lays out <dir>/<action> as a toolkit (lib64/libnvvm.so.4 the stand-in, nvvm/libdevice and
// lib64/libnvJitLink.so.13 the real ones, found without mapping them) and returns its root.
// `nvvm`: the libnvvm.so.4 to link there (the real one, for a toolkit that differs in another
// file), else the stand-in.
inline std::filesystem::path hostileToolkit(const std::filesystem::path& dir, const std::string& action,
                                            const std::filesystem::path& nvvm = {}) {
    namespace fs = std::filesystem;
    const fs::path root = dir / action;
    fs::create_directories(root / "lib64");
    fs::create_directories(root / "nvvm/libdevice");
    fs::create_symlink(nvvm.empty() ? fs::path(test::built::hostileNvvm) / action / "lib64/libnvvm.so.4" : nvvm,
                       root / "lib64/libnvvm.so.4");
    auto real = toolkit::Toolkit::locate();
    if (!real) qFatal("%s", real.error().message.c_str());
    if ((*real)->libdeviceReport().found)
        fs::create_symlink((*real)->libdeviceReport().path, root / "nvvm/libdevice/libdevice.10.bc");
    if (const auto jit = (*real)->nvJitLinkFile(); !jit.empty())
        fs::create_symlink(jit, root / "lib64" / jit.filename());
    return root;
}

}  // namespace nvpg::test
