#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/Commands.h"
#include "cli/Output.h"
#include "core/engine/EngineProcess.h"
#include "core/engine/ToolkitProbe.h"
#include "core/gpu/DeviceCache.h"
#include "core/gpu/Devices.h"
#include "core/nvvm/Options.h"
#include "core/support/Text.h"
#include "core/toolkit/Toolkit.h"

namespace nvpg::cli {

nlohmann::ordered_json libraryJson(const toolkit::LibraryReport& r) {
    nlohmann::ordered_json j;
    j["name"] = r.name;
    j["found"] = r.found;
    if (r.found) {
        j["path"] = r.path.string();
        j["via"] = r.via;
        j["version"] = r.version;
    }
    if (!r.problem.empty()) j["problem"] = r.problem;
    return j;
}

nlohmann::ordered_json toolkitJson(const toolkit::Toolkit& tk) {
    nlohmann::ordered_json j;
    if (const auto& r = tk.release()) j["release"] = {{"version", r->version}, {"source", r->source}};
    j["libnvvm"] = libraryJson(tk.nvvmReport());
    j["libdevice"] = libraryJson(tk.libdeviceReport());
    j["nvjitlink"] = {{"path", tk.nvJitLinkFile().string()}};
    return j;
}

nlohmann::ordered_json farToolkitJson(const engine::FarEnd& far, const engine::FarToolkit& tk) {
    nlohmann::ordered_json j;
    j["on"] = far.destination;
    j["host"] = tk.host;
    j["nvpg_version"] = tk.nvpgVersion;
    j["release"] = tk.release;
    for (const auto& r : tk.libraries)
        if (r.name == "libNVVM" || r.name == "libdevice")
            j[r.name == "libNVVM" ? "libnvvm" : "libdevice"] = libraryJson(r);
    return j;
}

std::string releaseWords(const std::optional<toolkit::Release>& r) {
    return r ? fmt::format("CUDA {} ({})", r->version, r->source) : std::string("CUDA release not recorded beside it");
}

namespace {

// libNVVM and nvJitLink are opened in an engine process, as for a compile, never here: a library
// that aborts, segfaults, exits or hangs as it is loaded ends that process and is named. With
// --in-process (or NVPG_ENGINE=inprocess) they are opened here.
support::Status openAside(const CommonOptions& common, toolkit::Toolkit& tk,
                          const std::optional<std::filesystem::path>& root) {
    if (forkedEngine(common)) return engine::probeToolkit(tk, root, std::nullopt, common.engineTimeout);
    const auto command = common.inProcess ? std::vector<std::string>{} : engine::engineCommand("engine");
    if (command.empty()) return tk.open();
    return engine::probeToolkit(tk, root, command, common.engineTimeout);
}

}  // namespace

namespace {

// nvpg info --on: what the far engine says of its machine, toolkit and GPUs.
int farInfo(const CommonOptions& common, bool json) {
    auto compiler = makeCompiler(common, nullptr, /*useCache=*/false);
    auto far = compiler.describeFar(/*withGpus=*/true);
    if (!far) return usage(far.error().message);
    const auto& tk = *far;
    const auto& archs = nvvm::supportedArchs(tk.cudaMajor);
    const auto defaultArch = engine::farDefaultArch(tk);
    if (json) {
        nlohmann::ordered_json j;
        j["version"] = NVPG_VERSION;
        j["on"] = common.far->far->destination;
        j["host"] = tk.host;
        j["far_nvpg_version"] = tk.nvpgVersion;
        j["cuda_release"] = tk.release;
        j["libraries"] = nlohmann::ordered_json::array();
        for (const auto& r : tk.libraries) j["libraries"].push_back(libraryJson(r));
        j["archs"] = archs;
        j["default_arch"] = defaultArch;
        j["gpus"] = nlohmann::ordered_json::array();
        for (const auto& d : tk.gpus)
            j["gpus"].push_back({{"ordinal", d.ordinal},
                                 {"name", d.name},
                                 {"compute_capability", fmt::format("{}.{}", d.ccMajor, d.ccMinor)},
                                 {"memory_bytes", d.totalMemory}});
        if (tk.gpus.empty()) j["no_gpu_reason"] = tk.noGpuReason;
        std::puts(j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return flushStdout(kOk);
    }
    fmt::print("NVVM Playground {}\n\n{}", NVPG_VERSION, engine::describeFarMachine(*common.far->far, tk));
    return flushStdout(kOk);
}

}  // namespace

int runInfo(const CommonOptions& common, bool json) {
    if (common.far) return farInfo(common, json);
    toolkit::SearchConfig search;
    if (common.cudaPath) search.explicitRoot = *common.cudaPath;
    auto tk = toolkit::Toolkit::locate(search);
    if (!tk) {
        std::fprintf(stderr, "nvpg: %s\n", tk.error().message.c_str());
        return kUsageError;
    }
    if (auto opened = openAside(common, **tk, search.explicitRoot); !opened) {
        std::fprintf(stderr, "nvpg: %s\n", opened.error().message.c_str());
        return kUsageError;
    }
    // The GPUs as the driver described them when last asked on this machine (no cuInit, which
    // takes most of the time of `nvpg info` on a GPU machine); without an NVIDIA kernel driver,
    // the CUDA driver itself says why there is no GPU, as it always did.
    auto gpus = gpu::localGpus(**tk);
    using Devices = support::Result<std::vector<gpu::DeviceInfo>>;
    Devices devices = gpus ? Devices(gpus->devices) : gpu::listDevices(**tk);
    auto reports = (*tk)->reports();  // the driver's report is there once the driver was asked
    if (gpus && gpus->fromCache) reports.push_back(gpus->driver);
    const auto& archs = nvvm::supportedArchs((*tk)->cudaMajor());
    std::string defaultArch = "libNVVM's default";
    if (devices && !devices->empty())
        if (auto a =
                nvvm::archForComputeCapability(devices->front().ccMajor, devices->front().ccMinor, (*tk)->cudaMajor()))
            defaultArch = *a + " (the local GPU's)";

    if (json) {
        nlohmann::ordered_json j;
        j["version"] = NVPG_VERSION;
        if (const auto& r = (*tk)->release()) j["cuda_release"] = {{"version", r->version}, {"source", r->source}};
        j["libraries"] = nlohmann::ordered_json::array();
        for (const auto& r : reports) j["libraries"].push_back(libraryJson(r));
        j["archs"] = archs;
        j["default_arch"] = defaultArch;
        j["gpus"] = nlohmann::ordered_json::array();
        if (devices) {
            for (const auto& d : *devices)
                j["gpus"].push_back({{"ordinal", d.ordinal},
                                     {"name", d.name},
                                     {"compute_capability", fmt::format("{}.{}", d.ccMajor, d.ccMinor)},
                                     {"memory_bytes", d.totalMemory}});
        } else {
            j["no_gpu_reason"] = devices.error().message;
        }
        std::puts(j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return flushStdout(kOk);
    }

    fmt::print("NVVM Playground {}\n\n", NVPG_VERSION);
    fmt::print("{:<12}{}\n", "toolkit", releaseWords((*tk)->release()));
    for (const auto& r : reports) {
        if (r.found) {
            fmt::print("{:<12}{}\n{:<12}{} ({})\n", r.name, r.version, "", r.path.string(), r.via);
            if (!r.problem.empty()) fmt::print("{:<12}{}\n", "", r.problem);
        } else if (r.name == "CUDA driver") {
            fmt::print("{:<12}not available: {}\n", r.name, r.problem);
        } else {
            fmt::print("{:<12}not found: {}\n", r.name, r.problem);
            for (const auto& t : r.tried) fmt::print("{:<12}  tried {} ({}): {}\n", "", t.place, t.via, t.why);
        }
    }
    fmt::print("\n{:<12}{}\n{:<12}default: {}\n", "archs", support::join(archs, " "), "", defaultArch);
    if (devices) {
        for (const auto& d : *devices)
            fmt::print("{:<12}{}: {}, compute capability {}.{}, {:.1f} GiB\n", d.ordinal == 0 ? "GPUs" : "", d.ordinal,
                       d.name, d.ccMajor, d.ccMinor, d.totalMemory / double(1 << 30));
    } else {
        const bool noDriver = !reports.empty() && reports.back().name == "CUDA driver" && !reports.back().found;
        fmt::print("{:<12}none: {}\n", "GPUs", noDriver ? "no CUDA driver (above)" : devices.error().message);
    }
    return flushStdout(kOk);
}

int runToolkits(const CommonOptions& common, bool json) {
    toolkit::SearchConfig search;
    if (common.cudaPath) search.explicitRoot = *common.cudaPath;
    std::vector<toolkit::Tried> rejected;
    auto found = toolkit::findToolkits(search, {}, &rejected);
    // Each libNVVM's version, asked of an engine process; one that cannot be loaded says why.
    for (auto& t : found) {
        toolkit::SearchConfig one;
        one.explicitRoot = t.root;
        one.useSystemLoader = false;
        auto tk = toolkit::Toolkit::locate(one);
        if (!tk) continue;
        if (auto opened = openAside(common, **tk, t.root); opened)
            t.nvvm.version = (*tk)->nvvmReport().version;
        else
            t.nvvm.problem = opened.error().message;
    }
    if (json) {
        auto j = nlohmann::ordered_json::array();
        for (const auto& t : found) {
            nlohmann::ordered_json e;
            e["root"] = t.root.string();
            e["via"] = t.via;
            if (t.release) e["release"] = {{"version", t.release->version}, {"source", t.release->source}};
            e["libnvvm"] = libraryJson(t.nvvm);
            e["libdevice"] = libraryJson(t.libdevice);
            e["nvjitlink"] = libraryJson(t.nvJitLink);
            j.push_back(std::move(e));
        }
        std::puts(j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return flushStdout(kOk);
    }
    if (found.empty()) {
        // What was searched, and why each was not a toolkit: --cuda-path alone when given (it
        // overrides CUDA_PATH and the rest), else the places of the search that exist or are set.
        std::string searched;
        for (const auto& r : rejected)
            searched += fmt::format("  {} ({}): {}\n", support::printable(r.place), r.via, support::printable(r.why));
        if (searched.empty())
            searched =
                "  (no CUDA_PATH, CUDA_HOME or CONDA_PREFIX set, no python3 pip wheels, no "
                "/usr/local/cuda, /usr/local/cuda-X.Y or /opt/cuda)\n";
        std::fprintf(stderr, "nvpg: no CUDA toolkit found. Searched:\n%s", searched.c_str());
        std::fputs(common.cudaPath ? "Point --cuda-path at a toolkit (holding nvvm/lib64/libnvvm.so.4 or "
                                     "lib64/libnvvm.so.4) or a pip site-packages/nvidia folder (holding cu13/ or "
                                     "cuda_nvcc/).\n"
                                   : "Install the CUDA toolkit, or point at one with --cuda-path DIR or CUDA_PATH.\n",
                   stderr);
        return kUsageError;
    }
    for (const auto& t : found) {
        fmt::print("{}  {}\n", support::printable(t.root.string()),
                   t.release ? "CUDA " + t.release->version : "CUDA ?");
        fmt::print("  {:<10}{} ({}){}\n", "libNVVM", support::printable(t.nvvm.path.string()), t.nvvm.via,
                   t.nvvm.version.empty() ? std::string() : ", " + t.nvvm.version);
        if (!t.nvvm.problem.empty()) fmt::print("  {:<10}unusable: {}\n", "", t.nvvm.problem);
        fmt::print("  {:<10}{}\n", "libdevice",
                   t.libdevice.found ? support::printable(t.libdevice.path.string()) : "not found");
        fmt::print("  {:<10}{}\n", "nvJitLink",
                   t.nvJitLink.found ? support::printable(t.nvJitLink.path.string()) : "not found");
        fmt::print("  {:<10}{}\n", "release", releaseWords(t.release));
    }
    return flushStdout(kOk);
}

}  // namespace nvpg::cli
