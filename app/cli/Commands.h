#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace nvpg::cli {

// Exit statuses scripts rely on.
enum Exit : int {
    kOk = 0,
    kCompileError = 1,  // libNVVM or nvJitLink rejected the input
    kUsageError = 2,    // bad command line, or the environment lacks something (libNVVM, ...)
};

struct CommonOptions {
    std::optional<std::string> cudaPath;
};

struct CompileOptions {
    std::vector<std::string> inputs;
    bool libdevice = false;
    std::optional<std::string> arch;
    std::optional<std::string> opt, ftz, precDiv, precSqrt, fma, jumpTableDensity;
    bool debug = false;
    std::vector<std::string> nvvmFlags;
    std::string emit = "ptx";
    std::optional<std::string> ltoMode;
    bool verifyOnly = false;
    std::optional<std::string> report;
    std::optional<std::string> output;
};

void addCompileOptions(CLI::App& cmd, CompileOptions& o);
int runInfo(const CommonOptions& common, bool json);
int runCompile(const CommonOptions& common, const CompileOptions& o);

}  // namespace nvpg::cli
