#include "core/gpu/Devices.h"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>

#include "core/support/Files.h"

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
        return support::makeError(support::ErrorKind::Environment, "the CUDA driver is installed but sees no GPU");
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

constexpr support::SizeLimit kSmallFile{uint64_t(1) << 16, "an NVIDIA driver file"};

// The driver's version: /proc's version file, else the kernel module's in sysfs.
std::string driverVersion(const std::filesystem::path& root, const std::filesystem::path& sysRoot) {
    if (auto v = support::readFile(root / "version", kSmallFile)) return *v;
    if (auto v = support::readFile(sysRoot / "module/nvidia/version", kSmallFile)) return "module " + trimmed(*v);
    return {};
}

// The GPUs: each /proc/driver/nvidia/gpus/*/information, else NVIDIA's PCI display devices
// (0x03xxxx: VGA, 3D; not its bridges or audio functions) in sysfs.
std::vector<std::string> gpuList(const std::filesystem::path& root, const std::filesystem::path& sysRoot) {
    std::vector<std::string> out;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(root / "gpus", ec), end; !ec && it != end; it.increment(ec)) {
        auto info = support::readFile(it->path() / "information", kSmallFile);
        out.push_back("[" + it->path().filename().string() + "]\n" + (info ? *info : std::string("?")));
    }
    if (out.empty())
        for (std::filesystem::directory_iterator it(sysRoot / "bus/pci/devices", ec), end; !ec && it != end;
             it.increment(ec)) {
            auto vendor = support::readFile(it->path() / "vendor", kSmallFile);
            auto cls = support::readFile(it->path() / "class", kSmallFile);
            if (!vendor || trimmed(*vendor) != "0x10de" || !cls || cls->rfind("0x03", 0) != 0) continue;
            auto device = support::readFile(it->path() / "device", kSmallFile);
            out.push_back("[" + it->path().filename().string() + " " + (device ? trimmed(*device) : "?") + "]");
        }
    std::sort(out.begin(), out.end());  // directory order is not stable; slot order is
    return out;
}

}  // namespace

std::string gpuIdentity(const std::filesystem::path& root, const std::filesystem::path& sysRoot) {
    // Either half may be hidden (the H200 machine's /proc/driver/nvidia has gpus/ but no version):
    // what is there identifies the machine; nothing at all means no NVIDIA GPU.
    const auto version = driverVersion(root, sysRoot);
    const auto gpus = gpuList(root, sysRoot);
    if (version.empty() && gpus.empty()) return {};
    std::string out = version.empty() ? std::string("driver version unknown") : version;
    for (const auto& g : gpus) out += "\n" + g;
    return out;
}

}  // namespace nvpg::gpu
