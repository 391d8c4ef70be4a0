#include "core/gpu/DeviceCache.h"

#include <system_error>

#include <fmt/format.h>

#include "core/support/Files.h"
#include "core/support/Json.h"

namespace nvpg::gpu {

namespace {

// Bumped when the file's fields change: a file of another format is a miss, not an error.
constexpr int kFormat = 1;
constexpr support::SizeLimit kCacheFileLimit{uint64_t(1) << 20, "the GPU cache file"};

std::optional<LocalGpus> readCache(const std::filesystem::path& file, const std::string& identity) {
    auto text = support::readFile(file, kCacheFileLimit);
    if (!text) return std::nullopt;
    auto parsed = support::parseJson(*text);
    if (parsed.problem) return std::nullopt;
    const auto& j = parsed.doc;
    try {
        if (!j.is_object() || j.value("format", 0) != kFormat || j.at("identity").get<std::string>() != identity)
            return std::nullopt;
        LocalGpus out;
        out.fromCache = true;
        const auto& d = j.at("driver");
        out.driver.name = "CUDA driver";
        out.driver.found = true;
        out.driver.path = d.at("path").get<std::string>();
        out.driver.via = d.at("via").get<std::string>();
        out.driver.version = d.at("version").get<std::string>();
        for (const auto& g : j.at("gpus")) {
            DeviceInfo info;
            info.ordinal = g.at("ordinal").get<int>();
            info.name = g.at("name").get<std::string>();
            info.ccMajor = g.at("cc_major").get<int>();
            info.ccMinor = g.at("cc_minor").get<int>();
            info.totalMemory = g.at("memory_bytes").get<size_t>();
            out.devices.push_back(std::move(info));
        }
        if (out.devices.empty()) return std::nullopt;
        return out;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;  // a field missing or of the wrong type: damaged, so asked again
    }
}

void writeCache(const std::filesystem::path& file, const std::string& identity, const LocalGpus& gpus) {
    nlohmann::ordered_json j;
    j["format"] = kFormat;
    j["identity"] = identity;
    j["driver"] = {{"path", gpus.driver.path.string()}, {"via", gpus.driver.via}, {"version", gpus.driver.version}};
    j["gpus"] = nlohmann::ordered_json::array();
    for (const auto& d : gpus.devices)
        j["gpus"].push_back({{"ordinal", d.ordinal},
                             {"name", d.name},
                             {"cc_major", d.ccMajor},
                             {"cc_minor", d.ccMinor},
                             {"memory_bytes", d.totalMemory}});
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    // A cache: a file that cannot be written only means the driver is asked again next time.
    (void)support::writeFileAtomic(file, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

support::Result<LocalGpus> askToolkitDriver(const toolkit::Toolkit& toolkit) {
    auto devices = listDevices(toolkit);
    if (!devices) return devices.error();
    LocalGpus out;
    out.devices = std::move(*devices);
    for (const auto& r : toolkit.reports())
        if (r.name == "CUDA driver") out.driver = r;
    return out;
}

}  // namespace

std::filesystem::path deviceCacheFile() {
    const auto dir = support::userCacheDir();
    return dir.empty() ? dir : dir / "gpus.json";
}

support::Result<LocalGpus> localGpus(const toolkit::Toolkit& toolkit, const LocalGpuSource& source) {
    const auto identity = gpuIdentity(source.procRoot, source.sysRoot);
    if (identity.empty())
        return support::makeError(
            support::ErrorKind::Environment,
            fmt::format("no NVIDIA driver: neither {} nor an NVIDIA PCI device in {} is "
                        "there, so there is no GPU to use",
                        (source.procRoot / "version").string(), (source.sysRoot / "bus/pci/devices").string()));
    const auto file = source.cacheFile.empty()  ? deviceCacheFile()
                      : source.cacheFile == "-" ? std::filesystem::path()
                                                : source.cacheFile;
    if (!file.empty())
        if (auto cached = readCache(file, identity)) return std::move(*cached);
    auto asked = source.askDriver ? source.askDriver() : askToolkitDriver(toolkit);
    if (!asked || asked->devices.empty()) return asked;
    if (!file.empty()) writeCache(file, identity, *asked);
    return asked;
}

}  // namespace nvpg::gpu
