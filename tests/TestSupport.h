// Shared by the Qt Test suites: where the fixtures are, and the real toolkit.
#pragma once

#include <QtTest>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "support/Files.h"
#include "toolkit/Toolkit.h"

namespace nvpg::test {

// The tree as built; NVPG_SOURCE_DIR / NVPG_BINARY_DIR in the environment move them (the GPU
// test machine runs the binaries from a copy of the project at another path).
inline std::filesystem::path sourceDir() {
    const char* env = std::getenv("NVPG_SOURCE_DIR");
    return env && *env ? env : NVPG_SOURCE_DIR;
}
inline std::filesystem::path binaryDir() {
    const char* env = std::getenv("NVPG_BINARY_DIR");
    return env && *env ? env : NVPG_BINARY_DIR;
}
inline std::filesystem::path dataDir() { return sourceDir() / "tests/data"; }
inline std::filesystem::path examplesDir() { return sourceDir() / "resources/examples"; }

// The real libNVVM, libdevice and nvJitLink, found the way the product finds them; loaded once
// per test binary. The tests that prove features need them, so a missing toolkit fails the test.
inline std::shared_ptr<toolkit::Toolkit> realToolkit() {
    static std::shared_ptr<toolkit::Toolkit> tk = [] {
        auto loaded = toolkit::Toolkit::load();
        if (!loaded) qFatal("%s", loaded.error().message.c_str());
        return *loaded;
    }();
    return tk;
}

inline std::string readText(const std::filesystem::path& p) {
    auto r = support::readFile(p);
    if (!r) qFatal("%s", r.error().message.c_str());
    return *r;
}

}  // namespace nvpg::test
