#include "core/toolkit/Locator.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <set>

#include <fmt/format.h>

#include "core/support/Process.h"
#include "core/support/Text.h"

namespace fs = std::filesystem;

extern char** environ;

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

bool isDir(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}

}  // namespace

const std::vector<std::string>& wheelTrees() {
    static const std::vector<std::string> trees = {"cu13", "cu12", "cuda_nvcc", "nvjitlink"};
    return trees;
}

std::optional<fs::path> wheelFolderOf(const fs::path& dir) {
    for (const auto& candidate : {dir / "nvidia", dir}) {
        if (isDir(candidate / "lib64") || isDir(candidate / "nvvm")) continue;  // a toolkit root
        for (const auto& tree : wheelTrees())
            if (isDir(candidate / tree)) return candidate;
    }
    return std::nullopt;
}

std::vector<SearchRoot> rootsOf(const fs::path& dir, const std::string& via) {
    const auto wheels = wheelFolderOf(dir);
    if (!wheels) return {{dir, via}};
    std::vector<SearchRoot> roots;
    for (const auto& tree : wheelTrees())
        if (isDir(*wheels / tree)) roots.push_back({*wheels / tree, fmt::format("{} (nvidia/{})", via, tree)});
    return roots;
}

std::vector<fs::path> askPythonForSitePackages(std::string* problem) {
    if (!onPath("python3")) return {};
    // -I -S: no PYTHON* variables, no site import at start-up (the shim and the interpreter
    // are the cost; this keeps the query to tens of milliseconds), then ask for the paths. -S
    // also skips site's reading of pyvenv.cfg, so the script does that step itself: a venv's
    // python3 would otherwise answer for its base interpreter, and miss the venv's wheels.
    const char* script =
        "import site\n"
        "try: site.venv(set())\n"
        "except Exception: pass\n"
        "import sysconfig\n"
        "p=sysconfig.get_paths()\n"
        "for d in [p['purelib'],p['platlib']]+site.getsitepackages()+[site.getusersitepackages()]: "
        "print(d)";
    // A python3 that hangs or prints forever (a broken shim, a network home) must not hang every
    // search; it runs as every tool probe does (support::runProbe).
    const double wait = std::chrono::duration<double>(kPythonWait).count();
    auto ran = support::runProbe({"python3", "-I", "-S", "-c", script}, wait, size_t(1) << 20, /*stderrToo=*/false);
    std::string out = ran.status == 0 ? std::move(ran.output) : std::string();
    if (ran.timedOut && problem)
        *problem = fmt::format("python3 did not answer within {} s, so pip wheels were not searched",
                               std::chrono::duration_cast<std::chrono::seconds>(kPythonWait).count());
    else if (ran.tooLong && problem)
        *problem = "python3 wrote more than 1 MiB for its site-packages, so pip wheels were not searched";
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
    askPython_ = !config_.pythonSitePackages;
}

std::optional<std::string> Locator::env(const char* name) const {
    return config_.env(name);
}

const std::vector<fs::path>& Locator::sitePackages() {
    if (!sites_) sites_ = askPython_ ? askPythonForSitePackages(&pythonProblem_) : config_.pythonSitePackages();
    return *sites_;
}

std::vector<SearchRoot> Locator::pythonRoots() {
    if (!python_) {
        std::vector<SearchRoot> roots;
        const auto& sites = sitePackages();
        for (const auto& tree : wheelTrees())
            for (const auto& site : sites)
                roots.push_back({site / "nvidia" / tree, "via python3 site-packages (nvidia/" + tree + ")"});
        python_ = std::move(roots);
    }
    return *python_;
}

void Locator::forEachRoot(const std::function<bool(const SearchRoot&)>& visit) {
    if (config_.explicitRoot) {
        // A toolkit root, or a pip `nvidia` folder (or the site-packages holding one): each of
        // its component trees.
        for (const auto& root : rootsOf(*config_.explicitRoot, "via --cuda-path"))
            if (!visit(root)) return;
        return;
    }
    for (const char* var : {"CUDA_PATH", "CUDA_HOME", "CONDA_PREFIX"})
        if (auto v = env(var))
            if (!visit({fs::path(*v), std::string("via ") + var})) return;
    for (const auto& r : pythonRoots())
        if (!visit(r)) return;

    // What was found after a python3 that did not answer says so: a pip wheel may have won.
    const auto visitNoting = [&](SearchRoot root) {
        if (!pythonProblem_.empty()) root.via += " (" + pythonProblem_ + ")";
        return visit(root);
    };
    const fs::path usrLocal = config_.systemPrefix / "usr/local";
    if (!visitNoting({usrLocal / "cuda", "via /usr/local/cuda"})) return;
    std::string newest;
    std::error_code ec;
    for (auto it = fs::directory_iterator(usrLocal, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (!support::startsWith(name, "cuda-")) continue;
        const auto ver = name.substr(5);
        long long dummy;
        if (ver.empty() || !support::parseInt(support::split(ver, '.')[0], dummy)) continue;
        if (newest.empty() || olderVersion(newest, ver)) newest = ver;
    }
    if (!newest.empty())
        if (!visitNoting({usrLocal / ("cuda-" + newest), "via the newest /usr/local/cuda-X.Y"})) return;
    visitNoting({config_.systemPrefix / "opt/cuda", "via /opt/cuda"});
}

std::vector<SearchRoot> Locator::toolkitRoots() {
    if (config_.explicitRoot) return {{*config_.explicitRoot, "via --cuda-path"}};
    std::vector<SearchRoot> roots;
    for (const char* var : {"CUDA_PATH", "CUDA_HOME", "CONDA_PREFIX"})
        if (auto v = env(var)) roots.push_back({fs::path(*v), std::string("via ") + var});
    for (const auto& site : sitePackages())
        if (isDir(site / "nvidia")) roots.push_back({site / "nvidia", "via python3 site-packages"});
    const fs::path usrLocal = config_.systemPrefix / "usr/local";
    roots.push_back({usrLocal / "cuda", "via /usr/local/cuda"});
    std::vector<std::string> versions;
    std::error_code ec;
    for (auto it = fs::directory_iterator(usrLocal, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const auto name = it->path().filename().string();
        long long dummy;
        if (support::startsWith(name, "cuda-") && support::parseInt(support::split(name.substr(5), '.')[0], dummy))
            versions.push_back(name.substr(5));
    }
    std::sort(versions.begin(), versions.end(), [](const auto& a, const auto& b) { return olderVersion(b, a); });
    for (const auto& v : versions) roots.push_back({usrLocal / ("cuda-" + v), "via /usr/local/cuda-" + v});
    roots.push_back({config_.systemPrefix / "opt/cuda", "via /opt/cuda"});
    return roots;
}

std::optional<std::pair<fs::path, std::string>> Locator::findFile(const std::vector<std::string>& relPaths,
                                                                  std::vector<Tried>& tried, const Accept& accept) {
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
