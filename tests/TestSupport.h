// Shared by the Qt Test suites: where the fixtures are, and the real toolkit.
#pragma once

#include <QtTest>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "nvvm/Module.h"
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

#ifdef NVPG_CLI
// GPU runs from the app's engine go to nvpg's engine process: a test binary cannot serve as one.
inline void useNvpgAsGpuEngine() {
    const char* moved = std::getenv("NVPG_CLI");  // the GPU machine runs a copy elsewhere
    qputenv("NVPG_GPU_ENGINE", QByteArray(moved && *moved ? moved : NVPG_CLI) + " gpu-worker");
}
#endif

// A module from tests/data/<folder>/<name>, named by its file name.
inline nvvm::Module irFixture(const std::string& name, bool lazy = false, const char* folder = "ir") {
    return {name, readText(dataDir() / folder / name), lazy};
}

// A text module with `kernels` small looping kernels (k0, k1, ...), optionally calling libdevice's
// __nv_expf: big enough that compiling it takes a while, for tests about concurrency.
inline nvvm::Module manyKernelsModule(int kernels, bool libdevice = false) {
    std::string ir =
        "target datalayout = \"e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-"
        "f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64\"\ntarget triple = \"nvptx64-nvidia-cuda\"\n";
    if (libdevice) ir += "declare float @__nv_expf(float)\n";
    std::string annotations;
    for (int k = 0; k < kernels; ++k) {
        const auto n = std::to_string(k);
        ir += "define void @k" + n + "(float* %p, i32 %n) {\nentry:\n  br label %loop\nloop:\n"
              "  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]\n  %q = getelementptr float, float* %p, i32 %i\n"
              "  %v = load float, float* %q\n";
        ir += libdevice ? "  %e = call float @__nv_expf(float %v)\n" : "  %e = fadd float %v, 3.0\n";
        // Whole-number float constants are exact, as LLVM IR text requires.
        ir += "  %w = fmul float %e, " + n + ".0\n  store float %w, float* %q\n  %i1 = add i32 %i, 1\n"
              "  %c = icmp slt i32 %i1, %n\n  br i1 %c, label %loop, label %done\ndone:\n  ret void\n}\n";
        annotations += (k ? ", !" : "!") + std::to_string(k + 1);
    }
    ir += "!nvvm.annotations = !{" + annotations + "}\n";
    for (int k = 0; k < kernels; ++k)
        ir += "!" + std::to_string(k + 1) + " = !{void (float*, i32)* @k" + std::to_string(k) + ", !\"kernel\", i32 1}\n";
    ir += "!nvvmir.version = !{!0}\n!0 = !{i32 2, i32 0}\n";
    return {"big.ll", ir, false};
}

}  // namespace nvpg::test
