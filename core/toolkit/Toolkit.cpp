#include "core/toolkit/Toolkit.h"

#include <unistd.h>
#include <cstdlib>

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include "core/support/Files.h"
#include "core/support/Process.h"
#include "core/support/Text.h"

namespace fs = std::filesystem;
using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::toolkit {

namespace {

// Which wheel fits which toolkit (PyPI, checked December 2026): nvidia-cuda-nvdisasm starts at
// 13.2, with no 13.0, 13.1 or CUDA 12 release; 13.2.51's nvdisasm read CUDA 13.0's cubins here
// (the SASS suites run on it).
constexpr std::string_view kNvdisasmWheelReleases =
    "(its releases start at 13.2, with none for 13.0, 13.1 or CUDA 12; 13.2's reads a CUDA 13.0 toolkit's "
    "cubins: `pip install \"nvidia-cuda-nvdisasm==13.2.*\"`; with CUDA 12, use that toolkit's own nvdisasm)";

// The last is CUDA 12's pip wheel (nvidia/cuda_nvcc), which has no soname link.
const std::vector<std::string> kNvvmPaths = {"nvvm/lib64/libnvvm.so.4", "lib64/libnvvm.so.4", "lib/libnvvm.so.4",
                                             "nvvm/lib64/libnvvm.so"};
const std::vector<std::string> kJitPaths = {"lib64/libnvJitLink.so.13", "lib/libnvJitLink.so.13",
                                            "lib64/libnvJitLink.so.12", "lib/libnvJitLink.so.12"};
const std::vector<std::string> kLibdevicePaths = {"nvvm/libdevice/libdevice.10.bc"};

std::string resolveNvvm(const Library& lib, NvvmApi& api) {
    struct Entry {
        void* target;
        const char* name;
        bool required;
    };
    const Entry entries[] = {
        {&api.version, "nvvmVersion", true},
        {&api.irVersion, "nvvmIRVersion", true},
        {&api.getErrorString, "nvvmGetErrorString", true},
        {&api.createProgram, "nvvmCreateProgram", true},
        {&api.destroyProgram, "nvvmDestroyProgram", true},
        {&api.addModuleToProgram, "nvvmAddModuleToProgram", true},
        {&api.lazyAddModuleToProgram, "nvvmLazyAddModuleToProgram", false},
        {&api.compileProgram, "nvvmCompileProgram", true},
        {&api.verifyProgram, "nvvmVerifyProgram", true},
        {&api.getCompiledResultSize, "nvvmGetCompiledResultSize", true},
        {&api.getCompiledResult, "nvvmGetCompiledResult", true},
        {&api.getProgramLogSize, "nvvmGetProgramLogSize", true},
        {&api.getProgramLog, "nvvmGetProgramLog", true},
    };
    for (const auto& e : entries) {
        void* sym = lib.symbol(e.name);
        if (!sym && e.required) return fmt::format("{} lacks {}: not a usable libNVVM", lib.path().string(), e.name);
        *static_cast<void**>(e.target) = sym;
    }
    return {};
}

std::string resolveJit(const Library& lib, NvJitLinkApi& api) {
    struct Entry {
        void* target;
        const char* name;
        bool required;
    };
    const Entry entries[] = {
        {&api.create, "Create", true},
        {&api.destroy, "Destroy", true},
        {&api.addData, "AddData", true},
        {&api.complete, "Complete", true},
        {&api.getLinkedCubinSize, "GetLinkedCubinSize", true},
        {&api.getLinkedCubin, "GetLinkedCubin", true},
        {&api.getLinkedPtxSize, "GetLinkedPtxSize", true},
        {&api.getLinkedPtx, "GetLinkedPtx", true},
        {&api.getErrorLogSize, "GetErrorLogSize", true},
        {&api.getErrorLog, "GetErrorLog", true},
        {&api.getInfoLogSize, "GetInfoLogSize", true},
        {&api.getInfoLog, "GetInfoLog", true},
        {&api.version, "Version", false},
    };
    for (const auto& e : entries) {
        void* sym = nullptr;
        for (const char* pattern : {"nvJitLink{}", "__nvJitLink{}_13_0", "__nvJitLink{}_12_0"}) {
            sym = lib.symbol(fmt::format(fmt::runtime(pattern), e.name).c_str());
            if (sym) break;
        }
        if (!sym && e.required)
            return fmt::format("{} lacks nvJitLink{}: not a usable nvJitLink", lib.path().string(), e.name);
        *static_cast<void**>(e.target) = sym;
    }
    return {};
}

// Why `file` cannot be a shared library for this process, read from its ELF header without
// opening it as one (empty when it can be): what Toolkit::locate checks in place of dlopen.
std::string notALibraryHere(const fs::path& file) {
    unsigned char h[20] = {};
    std::ifstream in(file, std::ios::binary);
    if (!in.read(reinterpret_cast<char*>(h), sizeof h)) return "not an ELF shared library (too short)";
    if (h[0] != 0x7f || h[1] != 'E' || h[2] != 'L' || h[3] != 'F') return "not an ELF shared library";
    if (h[4] != (sizeof(void*) == 8 ? 2 : 1)) return "an ELF file of another word size";
    const unsigned machine =
        h[5] == 1 ? unsigned(h[18]) | unsigned(h[19]) << 8 : unsigned(h[19]) | unsigned(h[18]) << 8;
#if defined(__x86_64__)
    if (machine != 62) return "an ELF file for another machine (not x86-64)";
#elif defined(__aarch64__)
    if (machine != 183) return "an ELF file for another machine (not aarch64)";
#else
    (void)machine;
#endif
    return {};
}

// Finds a library under the roots, then through the system loader. `resolve` fills the function
// table and returns why the library is unusable (empty when it is fine). With `open` false a
// file under the roots is taken as found without being opened, when its ELF header fits this
// process (Toolkit::locate); one only the system loader knows is opened all the same, since only
// opening it says where it is.
template <class Api, class Resolve>
std::shared_ptr<Library> findLibrary(Locator& locator, const std::vector<std::string>& relPaths,
                                     const std::vector<std::string>& sonames, Api& api, Resolve resolve,
                                     LibraryReport& report, bool open = true) {
    std::shared_ptr<Library> lib;
    auto accept = [&](const fs::path& file) -> std::string {
        auto opened = Library::open(file.string());
        if (!opened) return opened.error().message;
        if (auto why = resolve(**opened, api); !why.empty()) return why;
        lib = *opened;
        return {};
    };
    if (auto hit = locator.findFile(relPaths, report.tried,
                                    open ? Locator::Accept(accept) : Locator::Accept(notALibraryHere))) {
        report.found = true;
        report.path = hit->first;  // as found: the loader may name an earlier path to the same file
        report.via = hit->second;
        return lib;
    }
    if (!locator.useSystemLoader()) return nullptr;
    for (const auto& soname : sonames) {
        auto opened = Library::open(soname);
        if (!opened) {
            report.tried.push_back({soname, "via the system loader", opened.error().message});
            continue;
        }
        if (auto why = resolve(**opened, api); !why.empty()) {
            report.tried.push_back({soname, "via the system loader", why});
            continue;
        }
        report.found = true;
        report.path = (*opened)->path();
        report.via = "via the system loader";
        return *opened;
    }
    return nullptr;
}

// A tool of libNVVM's own toolkit: <root>/bin/<tool>, where libNVVM is <root>/nvvm/lib64/ (a
// standard toolkit) or <root>/lib64/ or <root>/lib/ (pip-wheel trees). One of another release
// would give other code and figures. Only that place is "beside libNVVM": the folder above the
// root (/usr/local/bin for /usr/local/cuda) is another toolkit's, or none.
std::optional<fs::path> besideNvvm(const fs::path& nvvm, const std::string& tool, const Locator::Accept& accept,
                                   std::vector<Tried>& tried) {
    const auto libDir = nvvm.parent_path();
    auto root = libDir.parent_path();
    if (root.filename() == "nvvm") root = root.parent_path();
    const auto beside = root / "bin" / tool;
    std::error_code ec;
    std::string why = fs::is_regular_file(beside, ec) ? accept(beside) : "not found";
    if (why.empty()) return beside;
    tried.push_back({beside.string(), "beside libNVVM", std::move(why)});
    return std::nullopt;
}

std::string runnable(const fs::path& file) {
    return ::access(file.c_str(), X_OK) == 0 ? std::string() : "not executable";
}

// The first place where the loader found the library but had no memory to map it (a low ulimit
// -v, a machine out of memory): the library is there, so "not found" would send people astray.
const Tried* lackOfMemory(const std::vector<Tried>& tried) {
    for (const auto& t : tried)
        if (support::saysOutOfMemory(t.why)) return &t;
    return nullptr;
}

// "could not be loaded for lack of memory: PATH: failed to map segment from shared object (the
// address space is limited to 48.8 MiB (ulimit -v)). Raise that limit, or free memory."
std::string lackOfMemoryWords(const std::string& why) {
    const auto limit = support::memoryLimitWords();
    return fmt::format("could not be loaded for lack of memory: {}{}. {}", why,
                       limit.empty() ? std::string() : " (" + limit + ")",
                       limit.empty() ? "Free memory (close other programs) and try again."
                                     : "Raise that limit, or free memory, and try again.");
}

}  // namespace

std::string formatTried(const std::vector<Tried>& tried) {
    std::string out;
    for (const auto& t : tried) out += fmt::format("  {} ({}): {}\n", t.place, t.via, t.why);
    return out;
}

std::string Driver::errorName(CUresult r) const {
    const char* name = nullptr;
    if (api.getErrorName && api.getErrorName(r, &name) == CUDA_SUCCESS && name) return name;
    return fmt::format("CUresult {}", static_cast<int>(r));
}

void bypassDriverComputeCache() {
    ::setenv("CUDA_CACHE_DISABLE", "1", 0);
}

support::Result<std::shared_ptr<Toolkit>> Toolkit::load(SearchConfig config) {
    return find(std::move(config), true);
}

support::Result<std::shared_ptr<Toolkit>> Toolkit::locate(SearchConfig config) {
    return find(std::move(config), false);
}

std::string Toolkit::notFoundMessage() const {
    if (const auto* t = lackOfMemory(nvvmReport_.tried))
        return fmt::format("libNVVM (libnvvm.so.4) {} Places tried:\n{}", lackOfMemoryWords(t->why),
                           formatTried(nvvmReport_.tried));
    return fmt::format(
        "libNVVM (libnvvm.so.4) not found. Places tried:\n{}"
        "Install the CUDA toolkit, or point at one with {}.",
        formatTried(nvvmReport_.tried),
        locator_->explicitOnly() ? "a --cuda-path that is a toolkit (holding "
                                   "nvvm/lib64/libnvvm.so.4 or lib64/libnvvm.so.4) or a pip "
                                   "site-packages/nvidia folder (holding cu13/ or cuda_nvcc/)"
                                 : "--cuda-path DIR or the CUDA_PATH environment variable");
}

void Toolkit::opened(std::shared_ptr<Library> nvvmLib) {
    libs_.push_back(std::move(nvvmLib));
    int major = 0, minor = 0, irMajor = 0, irMinor = 0, dbgMajor = 0, dbgMinor = 0;
    nvvm_.version(&major, &minor);
    nvvm_.irVersion(&irMajor, &irMinor, &dbgMajor, &dbgMinor);
    nvvmReport_.version =
        fmt::format("{}.{} (NVVM IR {}.{}, debug metadata {}.{})", major, minor, irMajor, irMinor, dbgMajor, dbgMinor);
}

support::Status Toolkit::open() {
    if (isOpen()) return {};
    auto lib = Library::open(nvvmReport_.path.string());
    std::string why = lib ? resolveNvvm(**lib, nvvm_) : lib.error().message;
    if (!why.empty()) {
        nvvm_ = {};
        if (support::saysOutOfMemory(why))
            return makeError(ErrorKind::Environment, fmt::format("libNVVM {} ({}) {}", nvvmReport_.path.string(),
                                                                 nvvmReport_.via, lackOfMemoryWords(why)));
        return makeError(ErrorKind::Environment,
                         fmt::format("libNVVM {} ({}) could not be used: {}. Reinstall that toolkit, or point at "
                                     "another with --cuda-path DIR or CUDA_PATH.",
                                     nvvmReport_.path.string(), nvvmReport_.via, why));
    }
    opened(*lib);
    return {};
}

support::Result<std::shared_ptr<Toolkit>> Toolkit::find(SearchConfig config, bool open) {
    auto tk = std::shared_ptr<Toolkit>(new Toolkit());
    tk->locator_ = std::make_unique<Locator>(std::move(config));
    Locator& locator = *tk->locator_;

    tk->nvvmReport_.name = "libNVVM";
    auto nvvmLib = findLibrary(locator, kNvvmPaths, {"libnvvm.so.4"}, tk->nvvm_, resolveNvvm, tk->nvvmReport_, open);
    if (!tk->nvvmReport_.found) return makeError(ErrorKind::Environment, tk->notFoundMessage());
    if (nvvmLib) tk->opened(nvvmLib);

    // nvJitLink is opened when it is first used (a link, or the CUDA release): a compile to PTX
    // does without it, and opening it costs about as much as opening libNVVM.
    tk->jitReport_.name = "nvJitLink";
    NvJitLinkApi unused;
    findLibrary(locator, kJitPaths, {}, unused, resolveJit, tk->jitReport_, /*open=*/false);
    if (tk->jitReport_.found) tk->jitFile_ = tk->jitReport_.path;
    tk->jitSearched_ = !locator.useSystemLoader();

    tk->libdeviceReport_.name = "libdevice";
    auto ld = locator.findFile(kLibdevicePaths, tk->libdeviceReport_.tried);
    if (!ld) {
        // A libNVVM found through the system loader still brings its toolkit's libdevice.
        const auto beside = tk->nvvmReport_.path.parent_path().parent_path() / "libdevice/libdevice.10.bc";
        std::error_code ec;
        if (fs::is_regular_file(beside, ec))
            ld = {beside, "beside libNVVM"};
        else
            tk->libdeviceReport_.tried.push_back({beside.string(), "beside libNVVM", "not found"});
    }
    if (ld) {
        tk->libdeviceReport_.found = true;
        tk->libdeviceReport_.path = ld->first;
        tk->libdeviceReport_.via = ld->second;
        std::error_code ec;
        tk->libdeviceReport_.version = fmt::format("{} bytes", fs::file_size(ld->first, ec));
    } else {
        tk->libdeviceReport_.problem =
            "libdevice.10.bc not found: --libdevice cannot be used. Point at a toolkit that has "
            "nvvm/libdevice/libdevice.10.bc.";
    }

    tk->ptxasReport_.name = "ptxas";
    // Searching every root would ask python3 on every start (see Locator).
    const auto px = besideNvvm(tk->nvvmReport_.path, "ptxas", runnable, tk->ptxasReport_.tried);
    if (px) {
        tk->ptxasReport_.found = true;
        tk->ptxasReport_.path = *px;
        tk->ptxasReport_.via = "beside libNVVM";
    } else {
        tk->ptxasReport_.problem =
            "ptxas not found: the PTX's registers and spills (its whole-program assembly, as the driver "
            "loads PTX) cannot be shown. Point at a toolkit that has bin/ptxas (pip: nvidia-cuda-nvcc).";
    }
    return tk;
}

void Toolkit::openJit() const {
    std::call_once(jitOnce_, [this] {
        NvJitLinkApi jit;
        std::shared_ptr<Library> lib;
        if (jitReport_.found) {
            auto opened = Library::open(jitReport_.path.string());
            std::string why = opened ? resolveJit(**opened, jit) : opened.error().message;
            if (why.empty()) {
                lib = *opened;
            } else {
                jitReport_.found = false;
                jitReport_.tried.push_back({jitReport_.path.string(), jitReport_.via, why});
            }
        }
        if (!lib && !jitSearched_) {
            // Not under the roots: the system loader may know it.
            for (const char* soname : {"libnvJitLink.so.13", "libnvJitLink.so.12"}) {
                auto opened = Library::open(soname);
                std::string why = opened ? resolveJit(**opened, jit) : opened.error().message;
                if (!why.empty()) {
                    jitReport_.tried.push_back({soname, "via the system loader", why});
                    continue;
                }
                lib = *opened;
                jitReport_.found = true;
                jitReport_.path = lib->path();
                jitReport_.via = "via the system loader";
                break;
            }
        }
        if (!lib) {
            jitReport_.found = false;
            const auto* memory = lackOfMemory(jitReport_.tried);
            jitReport_.problem =
                memory ? "nvJitLink " + lackOfMemoryWords(memory->why) +
                             " Until then LTO linking (--emit lto-ptx, "
                             "cubin) is off."
                       : "nvJitLink not found: LTO linking (--emit lto-ptx, cubin) is off. Install the CUDA "
                         "toolkit's nvJitLink, or point at a toolkit that has it.";
            return;
        }
        {
            std::lock_guard lock(mu_);
            libs_.push_back(lib);
        }
        jit_ = jit;
        unsigned jmaj = 0, jmin = 0;
        if (jit.version && jit.version(&jmaj, &jmin) == NVJITLINK_SUCCESS) {
            jitReport_.version = fmt::format("{}.{}", jmaj, jmin);
            cudaMajor_ = static_cast<int>(jmaj);
        } else {
            jitReport_.version = "12.x before 12.3 (no nvJitLinkVersion)";
            cudaMajor_ = 12;
        }
    });
}

void Toolkit::adoptProbe(const LibraryReport& nvvm, const LibraryReport& nvJitLink, int cudaMajor) {
    nvvmReport_.version = nvvm.version;
    if (!nvvm.problem.empty()) nvvmReport_.problem = nvvm.problem;
    // As if opened: nvJitLink's report and the release it gave, with no library mapped here.
    std::call_once(jitOnce_, [&] {
        jitReport_ = nvJitLink;
        jitReport_.name = "nvJitLink";
        if (cudaMajor > 0) cudaMajor_ = cudaMajor;
    });
    probed_ = true;
}

bool Toolkit::hasNvJitLink() const {
    if (probed_) return jitReport_.found;
    return !jitFile_.empty() || !jitSearched_;
}

const NvJitLinkApi* Toolkit::nvJitLink() const {
    openJit();
    return jit_ ? &*jit_ : nullptr;
}

const LibraryReport& Toolkit::nvJitLinkReport() const {
    openJit();
    return jitReport_;
}

std::filesystem::path Toolkit::nvJitLinkFile() const {
    // A file under the roots is named without opening it; one only the system loader knows is
    // named once opened.
    if (!jitFile_.empty()) return jitFile_;
    const auto& report = nvJitLinkReport();
    return report.found ? report.path : fs::path();
}

const std::optional<Release>& Toolkit::release() const {
    std::call_once(releaseOnce_, [this] { release_ = releaseOf(nvvmReport_.path); });
    return release_;
}

std::string Toolkit::releaseLabel() const {
    if (const auto& r = release()) return "CUDA " + r->version;
    openJit();
    return jit_ ? fmt::format("CUDA {}.x", cudaMajor_) : std::string("CUDA (release unknown)");
}

namespace {

// Why `root` holds no libNVVM, in the words of the search itself (Toolkit::locate's checks).
std::string whyNoToolkit(const SearchConfig& config, const fs::path& root) {
    std::error_code ec;
    if (!fs::exists(root, ec)) return "does not exist";
    if (!fs::is_directory(root, ec)) return "not a directory";
    SearchConfig one = config;
    one.explicitRoot = root;
    one.useSystemLoader = false;
    Locator locator(std::move(one));
    LibraryReport report;
    NvvmApi unused;
    findLibrary(locator, kNvvmPaths, {}, unused, resolveNvvm, report, /*open=*/false);
    std::vector<std::string> unusable;
    for (const auto& t : report.tried)
        if (t.why != "not found") unusable.push_back(fmt::format("{}: {}", t.place, t.why));
    if (!unusable.empty()) return "no usable libNVVM: " + support::join(unusable, "; ");
    return "no libNVVM: none of " + support::join(kNvvmPaths, ", ") +
           " (nor a pip nvidia folder's cu13/ or cuda_nvcc/)";
}

}  // namespace

std::vector<FoundToolkit> findToolkits(SearchConfig config, const std::vector<fs::path>& extra,
                                       std::vector<Tried>* rejected) {
    std::vector<SearchRoot> roots = Locator(config).toolkitRoots();
    for (const auto& e : extra) roots.push_back({e, "added in Settings"});
    std::vector<FoundToolkit> found;
    std::vector<fs::path> seen;
    for (const auto& root : roots) {
        SearchConfig one = config;
        one.explicitRoot = root.dir;
        one.useSystemLoader = false;
        auto tk = Toolkit::locate(one);
        if (!tk) {
            if (rejected) rejected->push_back({root.dir.string(), root.via, whyNoToolkit(config, root.dir)});
            continue;
        }
        // The same toolkit through a linked folder (/usr/local/cuda -> cuda-13.0) is listed once;
        // the folder's links are followed, not the file's (a toolkit may link its files elsewhere).
        const auto& file = (*tk)->nvvmReport().path;
        std::error_code ec;
        auto canonical = fs::canonical(file.parent_path(), ec) / file.filename();
        if (ec) canonical = file;
        if (std::find(seen.begin(), seen.end(), canonical) != seen.end()) continue;
        seen.push_back(canonical);
        FoundToolkit t;
        t.root = root.dir;
        t.via = root.via;
        t.nvvm = (*tk)->nvvmReport();
        t.libdevice = (*tk)->libdeviceReport();
        // Found as an explicit root: say why that root was looked at ("via /usr/local/cuda-12.9
        // (nvidia/cuda_nvcc)"), not "via --cuda-path".
        for (auto* r : {&t.nvvm, &t.libdevice})
            if (support::startsWith(r->via, "via --cuda-path")) r->via = root.via + r->via.substr(15);
        t.nvJitLink.name = "nvJitLink";
        t.nvJitLink.path = (*tk)->nvJitLinkFile();
        t.nvJitLink.found = !t.nvJitLink.path.empty();
        t.release = (*tk)->release();
        found.push_back(std::move(t));
    }
    return found;
}

int Toolkit::cudaMajor() const {
    // libNVVM's own install record first (no library opened), else nvJitLink's version.
    if (const auto& r = release(); r && r->major() > 0) return r->major();
    openJit();
    return cudaMajor_;
}

support::Result<std::shared_ptr<const std::string>> Toolkit::libdevice() const {
    std::lock_guard lock(mu_);
    if (libdeviceBytes_) return libdeviceBytes_;
    if (!libdeviceReport_.found)
        return makeError(ErrorKind::Environment, fmt::format("{} Places tried:\n{}", libdeviceReport_.problem,
                                                             formatTried(libdeviceReport_.tried)));
    auto bytes = support::readFile(libdeviceReport_.path, support::kModuleFileLimit);
    if (!bytes) return makeError(ErrorKind::Environment, bytes.error().message);
    libdeviceBytes_ = std::make_shared<const std::string>(std::move(*bytes));
    return libdeviceBytes_;
}

support::Result<std::shared_ptr<const Driver>> openDriver(LibraryReport& report) {
    report = {};
    report.name = "CUDA driver";
    auto fail = [&](std::string why) -> support::Result<std::shared_ptr<const Driver>> {
        report.problem = why;
        return makeError(ErrorKind::Environment, std::move(why));
    };
    auto lib = Library::open("libcuda.so.1");
    if (!lib) {
        report.tried.push_back({"libcuda.so.1", "via the system loader", lib.error().message});
        return fail("no CUDA driver: libcuda.so.1 could not be opened (" + lib.error().message +
                    "). Running kernels needs an NVIDIA GPU with its driver installed.");
    }
    auto drv = std::make_shared<Driver>();
    DriverApi& api = drv->api;
    // Versioned entry points first: the unversioned names keep their old (32-bit) signatures.
    auto resolve = [&](auto& fn, std::initializer_list<const char*> names) {
        for (const char* n : names)
            if ((*lib)->resolve(fn, n)) return true;
        return false;
    };
    std::string missing;
    auto need = [&](auto& fn, std::initializer_list<const char*> names) {
        if (!resolve(fn, names) && missing.empty()) missing = *names.begin();
    };
    need(api.init, {"cuInit"});
    need(api.driverGetVersion, {"cuDriverGetVersion"});
    need(api.getErrorName, {"cuGetErrorName"});
    need(api.getErrorString, {"cuGetErrorString"});
    need(api.deviceGetCount, {"cuDeviceGetCount"});
    need(api.deviceGet, {"cuDeviceGet"});
    need(api.deviceGetName, {"cuDeviceGetName"});
    need(api.deviceGetAttribute, {"cuDeviceGetAttribute"});
    need(api.deviceTotalMem, {"cuDeviceTotalMem_v2"});
    need(api.primaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
    need(api.primaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"});
    need(api.primaryCtxReset, {"cuDevicePrimaryCtxReset_v2", "cuDevicePrimaryCtxReset"});
    need(api.ctxSetCurrent, {"cuCtxSetCurrent"});
    need(api.ctxSynchronize, {"cuCtxSynchronize"});
    need(api.moduleLoadDataEx, {"cuModuleLoadDataEx"});
    need(api.moduleUnload, {"cuModuleUnload"});
    need(api.moduleGetFunction, {"cuModuleGetFunction"});
    need(api.memAlloc, {"cuMemAlloc_v2"});
    need(api.memFree, {"cuMemFree_v2"});
    need(api.memcpyHtoD, {"cuMemcpyHtoD_v2"});
    need(api.memcpyDtoH, {"cuMemcpyDtoH_v2"});
    need(api.launchKernel, {"cuLaunchKernel"});
    need(api.streamCreate, {"cuStreamCreate"});
    need(api.streamDestroy, {"cuStreamDestroy_v2", "cuStreamDestroy"});
    need(api.eventCreate, {"cuEventCreate"});
    need(api.eventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"});
    need(api.eventRecord, {"cuEventRecord"});
    need(api.eventQuery, {"cuEventQuery"});
    need(api.eventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
    need(api.funcGetAttribute, {"cuFuncGetAttribute"});
    need(api.occupancyMaxActiveBlocksPerMultiprocessor, {"cuOccupancyMaxActiveBlocksPerMultiprocessor"});
    const bool ok = missing.empty();
    report.found = true;
    report.path = (*lib)->path();
    report.via = "via the system loader";
    if (!ok)
        return fail(fmt::format("{} lacks {}: not a usable CUDA driver (too old?)", (*lib)->path().string(), missing));
    if (CUresult r = api.init(0); r != CUDA_SUCCESS)
        return fail(
            fmt::format("the CUDA driver failed to start: cuInit returned {}. Check that "
                        "the GPU is visible (nvidia-smi).",
                        drv->errorName(r)));
    api.driverGetVersion(&drv->version);
    report.version = fmt::format("{}.{}", drv->version / 1000, (drv->version % 1000) / 10);
    drv->library = *lib;
    return std::shared_ptr<const Driver>(drv);
}

support::Result<std::shared_ptr<const Driver>> Toolkit::driver() const {
    std::lock_guard lock(mu_);
    if (!driver_) driver_ = openDriver(driverReport_);
    return *driver_;
}

const fs::path* Toolkit::nvdisasm() const {
    const auto& report = nvdisasmReport();
    return report.found ? &report.path : nullptr;
}

const LibraryReport& Toolkit::nvdisasmReport() const {
    std::call_once(nvdisasmOnce_, [this] {
        auto& report = nvdisasmReport_;
        report.name = "nvdisasm";
        // It must run: a wheel unpacked without its modes, or one for another machine, is skipped.
        const auto accept = [&](const fs::path& file) -> std::string {
            if (auto why = runnable(file); !why.empty()) return why;
            auto ran = support::runProbe({file.string(), "--version"}, support::kProbeSeconds, size_t(1) << 16);
            if (ran.timedOut)
                return fmt::format("`{} --version` did not answer within {} s", file.filename().string(),
                                   support::kProbeSeconds);
            if (ran.tooLong) return fmt::format("`{} --version` wrote more than 64 KiB", file.filename().string());
            if (ran.status != 0)
                return fmt::format("`{} --version` failed: {}", file.filename().string(),
                                   support::trim(ran.output).empty() ? fmt::format("status {}", ran.status)
                                                                     : std::string(support::trim(ran.output)));
            // "Cuda compilation tools, release 13.2, V13.2.51"
            std::string_view said = ran.output;
            if (const auto v = said.find(", V"); v != std::string_view::npos) said.remove_prefix(v + 3);
            const auto lines = support::splitLines(said);
            report.version = lines.empty() ? std::string() : std::string(support::trim(lines.front()));
            return {};
        };
        std::optional<std::pair<fs::path, std::string>> hit;
        if (auto beside = besideNvvm(nvvmReport_.path, "nvdisasm", accept, report.tried))
            hit = {*beside, "beside libNVVM"};
        if (!hit) hit = locator_->findFile({"bin/nvdisasm"}, report.tried, accept);
        // With an explicit root, that toolkit alone, as for the libraries.
        if (!hit && !locator_->explicitOnly()) {
            if (const auto onPath = support::findInPath("nvdisasm"); onPath.empty())
                report.tried.push_back({"nvdisasm", "via PATH", "not on PATH"});
            else if (auto why = accept(onPath); !why.empty())
                report.tried.push_back({onPath, "via PATH", why});
            else
                hit = {onPath, "via PATH"};
        }
        if (hit) {
            report.found = true;
            report.path = hit->first;
            report.via = hit->second;
        } else {
            report.version.clear();
            // One sentence, which front ends show as it is.
            report.problem =
                locator_->explicitOnly()
                    ? "nvdisasm not found in the chosen toolkit (only it is searched), so there is no SASS: install "
                      "that toolkit's nvdisasm (bin/nvdisasm), or choose a toolkit that has it."
                    : std::string(
                          "nvdisasm not found, so there is no SASS: install the CUDA toolkit's nvdisasm "
                          "(bin/nvdisasm), put one on PATH, or `pip install nvidia-cuda-nvdisasm` ") +
                          std::string(kNvdisasmWheelReleases) + ".";
        }
    });
    return nvdisasmReport_;
}

std::vector<LibraryReport> Toolkit::reports() const {
    const auto& disassembler = nvdisasmReport();
    const auto& jit = nvJitLinkReport();
    std::lock_guard lock(mu_);
    std::vector<LibraryReport> out = {nvvmReport_, libdeviceReport_, jit, disassembler};
    if (driver_) out.push_back(driverReport_);
    return out;
}

}  // namespace nvpg::toolkit

namespace nvpg::toolkit {

std::string nvJitLinkResultName(nvJitLinkResult r) {
    switch (r) {
        case NVJITLINK_SUCCESS:
            return "NVJITLINK_SUCCESS";
        case NVJITLINK_ERROR_UNRECOGNIZED_OPTION:
            return "NVJITLINK_ERROR_UNRECOGNIZED_OPTION";
        case NVJITLINK_ERROR_MISSING_ARCH:
            return "NVJITLINK_ERROR_MISSING_ARCH";
        case NVJITLINK_ERROR_INVALID_INPUT:
            return "NVJITLINK_ERROR_INVALID_INPUT";
        case NVJITLINK_ERROR_PTX_COMPILE:
            return "NVJITLINK_ERROR_PTX_COMPILE";
        case NVJITLINK_ERROR_NVVM_COMPILE:
            return "NVJITLINK_ERROR_NVVM_COMPILE";
        case NVJITLINK_ERROR_INTERNAL:
            return "NVJITLINK_ERROR_INTERNAL";
        default:
            return fmt::format("nvJitLink error {}", static_cast<int>(r));
    }
}

}  // namespace nvpg::toolkit
