// Shared by the Qt Test suites: where the fixtures are, and the real toolkit.
#pragma once

#include <QtTest>

#include <filesystem>
#include <memory>
#include <string>

#include "support/Files.h"
#include "toolkit/Toolkit.h"

namespace nvpg::test {

inline std::filesystem::path sourceDir() { return NVPG_SOURCE_DIR; }
inline std::filesystem::path binaryDir() { return NVPG_BINARY_DIR; }
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
