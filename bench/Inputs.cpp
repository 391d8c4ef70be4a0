#include "Inputs.h"

#include <cstdio>
#include <cstdlib>

#include "core/support/Files.h"
#include "core/support/Text.h"
#include "core/workspace/Workspace.h"

namespace fs = std::filesystem;

namespace nvpg::bench {

namespace {

// numba's name of a fixture made of several modules: NAME.1.ll, NAME.2.ll, ... -> NAME.
std::string fixtureStem(const fs::path& path) {
    std::string stem = path.stem().string();
    const auto dot = stem.rfind('.');
    if (dot != std::string::npos && stem.find_first_not_of("0123456789", dot + 1) == std::string::npos)
        stem.resize(dot);
    return stem;
}

bool readOptions(const fs::path& options, nvvm::Options& into) {
    auto text = support::readFile(options);
    if (!text) {
        std::fprintf(stderr, "%s: %s\n", options.c_str(), text.error().message.c_str());
        return false;
    }
    for (const auto& line : support::splitLines(*text)) {
        const auto eq = line.find('=');
        if (line.empty()) continue;
        if (line.size() < 2 || line[0] != '-') {
            std::fprintf(stderr, "%s: \"%s\" is not -name=value\n", options.c_str(), std::string(line).c_str());
            return false;
        }
        // A bare flag (numba's -gen-lto) is name=1.
        const std::string name(line.substr(1, eq == std::string::npos ? std::string::npos : eq - 1));
        const std::string value(eq == std::string::npos ? std::string("1") : std::string(line.substr(eq + 1)));
        if (auto st = into.set(name, value); !st) {
            std::fprintf(stderr, "%s: %s\n", options.c_str(), st.error().message.c_str());
            return false;
        }
    }
    return true;
}

}  // namespace

std::optional<Input> loadInput(const fs::path& path, const std::string& arch) {
    Input in;
    if (path.extension() == ".nvpg") {
        in.name = path.filename().string();
        auto w = workspace::loadWorkspace(path);
        if (!w) {
            std::fprintf(stderr, "%s: %s\n", path.c_str(), w.error().message.c_str());
            return std::nullopt;
        }
        in.job.modules = w->modules;
        in.job.options = w->options;
        in.job.libdevice = w->libdevice;
        in.job.ltoMode = w->ltoMode;
    } else {
        const std::string stem = fixtureStem(path);
        in.name = stem;
        std::vector<fs::path> parts{path};
        if (stem != path.stem().string()) {  // NAME.1.ll: take NAME.2.ll, ... along, in order
            parts.clear();
            for (int i = 1;
                 fs::exists(path.parent_path() / (stem + "." + std::to_string(i) + path.extension().string())); ++i)
                parts.push_back(path.parent_path() / (stem + "." + std::to_string(i) + path.extension().string()));
        }
        for (const auto& part : parts) {
            auto bytes = support::readFile(part);
            if (!bytes) {
                std::fprintf(stderr, "%s: %s\n", part.c_str(), bytes.error().message.c_str());
                return std::nullopt;
            }
            // Calls of libdevice (numba quotes the names: @"__nv_sinf"), as numba links it.
            in.job.libdevice = in.job.libdevice || bytes->find("__nv_") != std::string::npos;
            in.job.modules.push_back({part.filename().string(), *bytes, false});
        }
        const auto options = path.parent_path() / (stem + ".options");
        if (fs::exists(options) && !readOptions(options, in.job.options)) return std::nullopt;
    }
    if (!in.job.options.arch) in.job.options.arch = arch;
    in.job.archFromGpu = false;
    return in;
}

std::vector<fs::path> numbaFixtures() {
    const auto dir = sourceDir() / "tests/data/numba";
    std::vector<fs::path> out;
    for (const char* name : {"axpy.ll", "math_kernel.ll", "math_kernel_fastmath.ll", "call_device.1.ll", "axpy_lto.ll",
                             "math_kernel_lto.ll"})
        out.push_back(dir / name);
    return out;
}

}  // namespace nvpg::bench
