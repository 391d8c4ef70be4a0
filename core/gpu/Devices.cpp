#include "gpu/Devices.h"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>

#include "support/Files.h"

namespace nvpg::gpu {

support::Result<std::vector<DeviceInfo>> listDevices(const toolkit::Toolkit& toolkit) {
    auto drv = toolkit.driver();
    if (!drv) return drv.error();
    return listDevices(**drv);
}

support::Result<std::vector<DeviceInfo>> listDevices(const toolkit::Driver& driver) {
    const auto* drv = &driver;
    const auto& api = driver.api;
    int count = 0;
    if (CUresult r = api.deviceGetCount(&count); r != CUDA_SUCCESS)
        return support::makeError(support::ErrorKind::Environment,
                                  fmt::format("the CUDA driver cannot count GPUs: {}", drv->errorName(r)));
    if (count == 0)
        return support::makeError(support::ErrorKind::Environment,
                                  "the CUDA driver is installed but sees no GPU");
    std::vector<DeviceInfo> out;
    for (int i = 0; i < count; ++i) {
        CUdevice dev = 0;
        if (api.deviceGet(&dev, i) != CUDA_SUCCESS) continue;
        DeviceInfo d;
        d.ordinal = i;
        char name[256] = {};
        api.deviceGetName(name, sizeof name - 1, dev);
        d.name = name;
        api.deviceGetAttribute(&d.ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
        api.deviceGetAttribute(&d.ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
        api.deviceTotalMem(&d.totalMemory, dev);
        out.push_back(std::move(d));
    }
    return out;
}

namespace {

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

// The sysfs form of gpuIdentity, for where /proc/driver/nvidia is hidden.
std::string sysfsIdentity(const std::filesystem::path& sysRoot) {
    constexpr support::SizeLimit kSmall{uint64_t(1) << 12, "a sysfs attribute"};
    std::vector<std::string> gpus;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(sysRoot / "bus/pci/devices", ec), end; !ec && it != end;
         it.increment(ec)) {
        auto vendor = support::readFile(it->path() / "vendor", kSmall);
        auto cls = support::readFile(it->path() / "class", kSmall);
        // NVIDIA's vendor id; display controllers only (0x03xxxx: VGA, 3D), not its bridges or audio.
        if (!vendor || trimmed(*vendor) != "0x10de" || !cls || cls->rfind("0x03", 0) != 0) continue;
        auto device = support::readFile(it->path() / "device", kSmall);
        gpus.push_back(it->path().filename().string() + " " + (device ? trimmed(*device) : "?"));
    }
    if (gpus.empty()) return {};
    std::sort(gpus.begin(), gpus.end());
    auto module = support::readFile(sysRoot / "module/nvidia/version", kSmall);
    std::string out = "sysfs; nvidia module " + (module ? trimmed(*module) : std::string("?"));
    for (const auto& g : gpus) out += "\n[" + g + "]";
    return out;
}

}  // namespace

std::string gpuIdentity(const std::filesystem::path& root, const std::filesystem::path& sysRoot) {
    auto version = support::readFile(root / "version", {uint64_t(1) << 16, "the NVIDIA driver's version file"});
    if (!version) return sysfsIdentity(sysRoot);
    std::string out = *version;
    std::vector<std::filesystem::path> gpus;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(root / "gpus", ec), end; !ec && it != end; it.increment(ec))
        gpus.push_back(it->path());
    std::sort(gpus.begin(), gpus.end());  // directory order is not stable; slot order is
    for (const auto& gpu : gpus) {
        auto info = support::readFile(gpu / "information", {uint64_t(1) << 16, "a GPU's information file"});
        out += "\n[" + gpu.filename().string() + "]\n" + (info ? *info : std::string("?"));
    }
    return out;
}

}  // namespace nvpg::gpu
