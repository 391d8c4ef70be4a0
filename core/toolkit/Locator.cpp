#include "toolkit/Locator.h"

#include <cstdio>
#include <cstdlib>
#include <set>

#include "support/Text.h"

namespace fs = std::filesystem;

namespace nvpg::toolkit {

namespace {

bool onPath(const char* program) {
    const char* path = std::getenv("PATH");
    if (!path) return false;
    for (auto dir : support::split(path, ':')) {
        if (dir.empty()) continue;
        std::error_code ec;
        if (fs::exists(fs::path(dir) / program, ec)) return true;
    }
    return false;
}

// Orders "12.4" < "12.10" < "13.0".
bool olderVersion(const std::string& a, const std::string& b) {
    auto pa = support::split(a, '.');
    auto pb = support::split(b, '.');
    for (size_t i = 0; i < std::max(pa.size(), pb.size()); ++i) {
        long long x = 0, y = 0;
        if (i < pa.size()) support::parseInt(pa[i], x);
        if (i < pb.size()) support::parseInt(pb[i], y);
        if (x != y) return x < y;
    }
    return false;
}

}  // namespace

std::vector<fs::path> askPythonForSitePackages() {
    if (!onPath("python3")) return {};
    // -I -S: no PYTHON* variables, no site import at start-up (the shim and the interpreter
    // are the cost; this keeps the query to tens of milliseconds), then ask for the paths.
    FILE* p = ::popen(
        "python3 -I -S -c \"import sysconfig,site\n"
        "p=sysconfig.get_paths()\n"
        "for d in [p['purelib'],p['platlib']]+site.getsitepackages()+[site.getusersitepackages()]: print(d)\" "
        "2>/dev/null",
        "r");
    if (!p) return {};
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    ::pclose(p);
    std::vector<fs::path> dirs;
    std::set<std::string> seen;
    for (auto line : support::splitLines(out)) {
        auto d = std::string(support::trim(line));
        if (!d.empty() && seen.insert(d).second) dirs.emplace_back(d);
    }
    return dirs;
}

Locator::Locator(SearchConfig config) : config_(std::move(config)) {
    if (!config_.env)
        config_.env = [](const char* name) -> std::optional<std::string> {
            const char* v = std::getenv(name);
            if (!v || !*v) return std::nullopt;
            return std::string(v);
        };
    if (!config_.pythonSitePackages) config_.pythonSitePackages = askPythonForSitePackages;
}

std::optional<std::string> Locator::env(const char* name) const { return config_.env(name); }

std::vector<SearchRoot> Locator::pythonRoots() {
    if (!python_) {
        std::vector<SearchRoot> roots;
        const auto sites = config_.pythonSitePackages();
        for (const char* tree : {"nvidia/cu13", "nvidia/cu12", "nvidia/cuda_nvcc", "nvidia/nvjitlink"})
            for (const auto& site : sites)
                roots.push_back({site / tree, std::string("via python3 site-packages (") + tree + ")"});
        python_ = std::move(roots);
    }
    return *python_;
}

void Locator::forEachRoot(const std::function<bool(const SearchRoot&)>& visit) {
    if (config_.explicitRoot) {
        visit({*config_.explicitRoot, "via --cuda-path"});
        return;
    }
    for (const char* var : {"CUDA_PATH", "CUDA_HOME", "CONDA_PREFIX"})
        if (auto v = env(var))
            if (!visit({fs::path(*v), std::string("via ") + var})) return;
    for (const auto& r : pythonRoots())
        if (!visit(r)) return;

    const fs::path usrLocal = config_.systemPrefix / "usr/local";
    if (!visit({usrLocal / "cuda", "via /usr/local/cuda"})) return;
    std::string newest;
    std::error_code ec;
    for (auto it = fs::directory_iterator(usrLocal, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (!support::startsWith(name, "cuda-")) continue;
        const auto ver = name.substr(5);
        long long dummy;
        if (ver.empty() || !support::parseInt(support::split(ver, '.')[0], dummy)) continue;
        if (newest.empty() || olderVersion(newest, ver)) newest = ver;
    }
    if (!newest.empty())
        if (!visit({usrLocal / ("cuda-" + newest), "via the newest /usr/local/cuda-X.Y"})) return;
    visit({config_.systemPrefix / "opt/cuda", "via /opt/cuda"});
}

std::optional<std::pair<fs::path, std::string>> Locator::findFile(
    const std::vector<std::string>& relPaths, std::vector<Tried>& tried, const Accept& accept) {
    std::optional<std::pair<fs::path, std::string>> found;
    forEachRoot([&](const SearchRoot& root) {
        for (const auto& rel : relPaths) {
            const auto candidate = root.dir / rel;
            std::error_code ec;
            if (!fs::is_regular_file(candidate, ec)) {
                tried.push_back({candidate.string(), root.via, "not found"});
                continue;
            }
            if (accept) {
                if (auto why = accept(candidate); !why.empty()) {
                    tried.push_back({candidate.string(), root.via, why});
                    continue;
                }
            }
            found = {candidate, root.via};
            return false;
        }
        return true;
    });
    return found;
}

}  // namespace nvpg::toolkit
