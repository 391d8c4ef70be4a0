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
    std::optional<std::pair<std::filesystem::path, std::string>> findFile(
        const std::vector<std::string>& relPaths, std::vector<Tried>& tried,
        const Accept& accept = {});

    std::optional<std::string> env(const char* name) const;

private:
    std::vector<SearchRoot> pythonRoots();
    SearchConfig config_;
    bool askPython_ = false;    // no pythonSitePackages given: ask python3 itself
    std::string pythonProblem_;  // why python3 gave no answer, for the roots after it
    std::optional<std::vector<SearchRoot>> python_;
};

// How long python3 may take to say where its site-packages are.
inline constexpr std::chrono::milliseconds kPythonWait{2000};

// python3's site-packages (purelib, platlib, user site), or nothing when python3 is absent or
// does not answer within kPythonWait (then it is killed and `problem` says so).
std::vector<std::filesystem::path> askPythonForSitePackages(std::string* problem = nullptr);

}  // namespace nvpg::toolkit
