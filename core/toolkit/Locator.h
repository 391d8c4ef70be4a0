#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace nvpg::toolkit {

// A directory that may hold a CUDA toolkit, and why it is searched ("via CUDA_PATH").
struct SearchRoot {
    std::filesystem::path dir;
    std::string via;
};

// One place a file was looked for, and why it was not taken.
struct Tried {
    std::string place;  // a path, or a soname given to the system loader
    std::string via;
    std::string why;  // "not found", or the loader's message
};

struct SearchConfig {
    // --cuda-path or the GUI setting: when set, the only root searched.
    std::optional<std::filesystem::path> explicitRoot;
    // Environment lookup; tests replace it. Default: std::getenv.
    std::function<std::optional<std::string>(const char*)> env;
    // python3's site-packages directories; tests replace it. Default: asks python3 when it is
    // on PATH, once per Locator.
    std::function<std::vector<std::filesystem::path>()> pythonSitePackages;
    // Where /usr/local/cuda, /usr/local/cuda-X.Y and /opt/cuda are looked for; tests move it.
    std::filesystem::path systemPrefix = "/";
    // The last resort: the dynamic loader's own search (LD_LIBRARY_PATH, ld.so.cache).
    bool useSystemLoader = true;
};

// The toolkit search order, the same for libNVVM, libdevice and nvJitLink:
// explicit root alone; else CUDA_PATH, CUDA_HOME, CONDA_PREFIX, python3's nvidia/cu13, nvidia/cu12,
// nvidia/cuda_nvcc (and nvidia/nvjitlink) trees, /usr/local/cuda, the newest /usr/local/cuda-X.Y,
// /opt/cuda; then the system loader (which the caller handles, since it needs a soname).
class Locator {
public:
    explicit Locator(SearchConfig config);

    // Roots in search order. The python3 query runs at most once, and only when the search
    // gets that far.
    void forEachRoot(const std::function<bool(const SearchRoot&)>& visit);
    bool explicitOnly() const { return config_.explicitRoot.has_value(); }
    bool useSystemLoader() const { return config_.useSystemLoader && !explicitOnly(); }

    // The first existing file among `relPaths` under the roots, in root order then path order,
    // that `accept` takes (it returns an empty string to take the file, else why not). Every
    // miss is appended to `tried`.
    using Accept = std::function<std::string(const std::filesystem::path&)>;
    std::optional<std::pair<std::filesystem::path, std::string>> findFile(const std::vector<std::string>& relPaths,
                                                                          std::vector<Tried>& tried,
                                                                          const Accept& accept = {});

    std::optional<std::string> env(const char* name) const;

    // Every place that may hold a whole toolkit, in search order, for lists of the toolkits on
    // this machine: CUDA_PATH, CUDA_HOME, CONDA_PREFIX, each python3 site-packages' nvidia folder,
    // /usr/local/cuda, every /usr/local/cuda-X.Y (newest first), /opt/cuda. Not expanded into
    // wheel trees (rootsOf does that); the explicit root alone when there is one.
    std::vector<SearchRoot> toolkitRoots();

private:
    std::vector<SearchRoot> pythonRoots();
    const std::vector<std::filesystem::path>& sitePackages();  // asks python3 at most once
    SearchConfig config_;
    bool askPython_ = false;     // no pythonSitePackages given: ask python3 itself
    std::string pythonProblem_;  // why python3 gave no answer, for the roots after it
    std::optional<std::vector<SearchRoot>> python_;
    std::optional<std::vector<std::filesystem::path>> sites_;
};

// The folders pip installs CUDA components into under site-packages/nvidia (the layouts
// cuda-pathfinder knows): CUDA 13's wheels share cu13/ (lib/libnvvm.so.4, lib/libnvJitLink.so.13,
// nvvm/libdevice/, bin/); CUDA 12's keep one folder each (cuda_nvcc/nvvm/lib64/libnvvm.so,
// cuda_nvcc/nvvm/libdevice/, nvjitlink/lib/libnvJitLink.so.12); cu12/ holds some 12.x extras.
const std::vector<std::string>& wheelTrees();
// The pip `nvidia` folder `dir` is, or holds (a site-packages); nothing for a toolkit root.
std::optional<std::filesystem::path> wheelFolderOf(const std::filesystem::path& dir);
// The roots a path given as a toolkit is searched as: itself, or each component tree of the
// pip `nvidia` folder it is or holds, in wheelTrees() order, "via" saying which.
std::vector<SearchRoot> rootsOf(const std::filesystem::path& dir, const std::string& via);

// How long python3 may take to say where its site-packages are.
inline constexpr std::chrono::milliseconds kPythonWait{2000};

// python3's site-packages (purelib, platlib, user site), or nothing when python3 is absent or
// does not answer within kPythonWait (then it is killed and `problem` says so).
std::vector<std::filesystem::path> askPythonForSitePackages(std::string* problem = nullptr);

}  // namespace nvpg::toolkit
