#include "core/toolkit/Release.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "core/support/Files.h"
#include "core/support/Json.h"
#include "core/support/Text.h"

namespace fs = std::filesystem;

namespace nvpg::toolkit {

namespace {

// The pip distributions that carry libNVVM: CUDA 13's (into nvidia/cu13), then CUDA 12's and
// 11's (into nvidia/cuda_nvcc).
constexpr std::string_view kWheels[] = {"nvidia_nvvm-", "nvidia_cuda_nvcc-", "nvidia_cuda_nvcc_cu12-",
                                        "nvidia_cuda_nvcc_cu11-"};
// The conda packages that do.
constexpr std::string_view kCondaPackages[] = {"cuda-nvvm-", "cuda-nvcc-", "cuda-version-"};

bool versionLike(std::string_view v) {
    return !v.empty() && std::isdigit(static_cast<unsigned char>(v.front()));
}

std::optional<Release> fromVersionJson(const fs::path& file) {
    auto text = support::readFile(file, {uint64_t(1) << 20, "a version.json"});
    if (!text) return std::nullopt;
    const auto parsed = support::parseJson(*text);
    if (parsed.problem) return std::nullopt;
    for (const char* key : {"cuda", "cuda_nvcc", "libnvvm"}) {
        const auto it = parsed.doc.is_object() ? parsed.doc.find(key) : parsed.doc.end();
        if (it == parsed.doc.end()) continue;
        const auto v = support::field(*it, "version", "");
        if (versionLike(v)) return Release{v, file.string()};
    }
    return std::nullopt;
}

// A `<prefix><version>.dist-info` folder (or conda's `<prefix><version>-<build>.json`) in `dir`.
std::optional<Release> fromNames(const fs::path& dir, const std::string_view* prefixes, size_t count,
                                 std::string_view suffix) {
    std::error_code ec;
    std::vector<std::string> names;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    for (size_t p = 0; p < count; ++p)
        for (const auto& name : names) {
            if (!support::startsWith(name, prefixes[p]) || name.size() < suffix.size() ||
                name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
                continue;
            std::string_view v(name);
            v.remove_prefix(prefixes[p].size());
            v.remove_suffix(suffix.size());
            if (suffix == ".json") v = v.substr(0, v.find('-'));  // conda: "12.4.131-0"
            if (versionLike(v)) return Release{std::string(v), (dir / name).string()};
        }
    return std::nullopt;
}

// The .dist-info folder in `dir` whose RECORD lists `file` (pip's own list of what it installed):
// exact even where wheels of two releases share a site-packages.
std::optional<Release> fromRecord(const fs::path& dir, const fs::path& file) {
    std::error_code ec;
    const auto rel = file.lexically_relative(dir).generic_string();
    if (rel.empty() || support::startsWith(rel, "..")) return std::nullopt;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (name.size() < 11 || name.compare(name.size() - 10, 10, ".dist-info") != 0) continue;
        auto record = support::readFile(it->path() / "RECORD", {uint64_t(4) << 20, "a wheel's RECORD"});
        if (!record) continue;
        for (auto line : support::splitLines(*record))
            if (support::startsWith(line, rel + ",")) {
                const auto dash = name.find('-');
                std::string v =
                    dash == std::string::npos ? std::string() : name.substr(dash + 1, name.size() - 10 - dash - 1);
                if (versionLike(v)) return Release{v, it->path().string()};
            }
    }
    return std::nullopt;
}

}  // namespace

int Release::major() const {
    long long n = 0;
    return support::parseInt(support::split(version, '.').front(), n) ? int(n) : 0;
}

std::optional<Release> releaseOf(const fs::path& libnvvm) {
    // A wheel's folder says which release's wheels to believe where no RECORD names the file.
    const auto path = libnvvm.generic_string();
    const bool cu13 = path.find("/nvidia/cu13/") != std::string::npos;
    const bool cu12 = path.find("/nvidia/cuda_nvcc/") != std::string::npos;
    const std::string_view* wheels = cu12 ? kWheels + 2 : kWheels;
    const size_t wheelCount = cu13 || cu12 ? 2 : std::size(kWheels);
    fs::path dir = libnvvm.parent_path();
    for (int up = 0; up < 5 && !dir.empty(); ++up, dir = dir.parent_path()) {
        if (auto r = fromVersionJson(dir / "version.json")) return r;
        if (auto r = fromRecord(dir, libnvvm)) return r;
        for (const auto& where : {dir, dir / "dist-info"})
            if (auto r = fromNames(where, wheels, wheelCount, ".dist-info")) return r;
        if (auto r = fromNames(dir / "conda-meta", kCondaPackages, std::size(kCondaPackages), ".json")) return r;
        if (dir == dir.root_path()) break;
    }
    return std::nullopt;
}

}  // namespace nvpg::toolkit
