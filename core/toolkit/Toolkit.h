#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/support/Result.h"
#include "core/toolkit/DriverApi.h"
#include "core/toolkit/Library.h"
#include "core/toolkit/Locator.h"
#include "core/toolkit/NvJitLinkApi.h"
#include "core/toolkit/NvvmApi.h"
#include "core/toolkit/Release.h"

namespace nvpg::toolkit {

// What `nvpg info` and the status bar show for one library.
struct LibraryReport {
    std::string name;  // "libNVVM", "libdevice", "nvJitLink", "CUDA driver"
    bool found = false;
    std::filesystem::path path;
    std::string via;      // "via CUDA_PATH"
    std::string version;  // "2.0 (NVVM IR 2.0, debug metadata 3.2)"
    std::string problem;  // when not usable: what is wrong and what to do
    std::vector<Tried> tried;
};

// The CUDA driver, when libcuda.so.1 could be opened and initialised.
struct Driver {
    DriverApi api;
    int version = 0;  // cuDriverGetVersion: 13000 for 13.0
    std::shared_ptr<Library> library;
    std::string errorName(CUresult r) const;
};

// Opens and initialises libcuda.so.1 from the system loader; `report` says what happened. The
// engine process uses this alone: running kernels needs the driver, not libNVVM.
support::Result<std::shared_ptr<const Driver>> openDriver(LibraryReport& report);

// The CUDA libraries this process uses, found once and shared (read-only) by every thread.
class Toolkit {
public:
    // Fails only when libNVVM is missing; the error lists every place tried. nvJitLink and
    // libdevice may be missing: the features that need them then say so. libNVVM is opened
    // here, nvJitLink when it is first used.
    static support::Result<std::shared_ptr<Toolkit>> load(SearchConfig config = {});
    // The same search, with no library opened (a file found under the roots is taken as it is):
    // for a front end that only names the files (the result cache's key) and leaves the compile
    // to an engine process, which calls open() on its own copy.
    static support::Result<std::shared_ptr<Toolkit>> locate(SearchConfig config = {});
    // Opens the libNVVM that locate() found; a file that cannot be used says so.
    support::Status open();
    bool isOpen() const { return nvvm_.createProgram != nullptr; }
    // What an engine process said when it opened this located toolkit's libraries
    // (engine::probeToolkit), taken instead of opening them here: a libNVVM that crashes, exits or
    // hangs as it loads then takes only that process. After it, the reports carry the versions,
    // and nvJitLinkReport(), hasNvJitLink() and cudaMajor() open nothing.
    void adoptProbe(const LibraryReport& nvvm, const LibraryReport& nvJitLink, int cudaMajor);
    bool probed() const { return probed_; }
    // Whether there is an nvJitLink, without opening it here: what a probe said, else whether a
    // file was found under the roots (one only the system loader knows counts as there).
    bool hasNvJitLink() const;

    // Only on an open toolkit.
    const NvvmApi& nvvm() const { return nvvm_; }
    // Opened on the first call; null when nvJitLink is missing (nvJitLinkReport() says why).
    const NvJitLinkApi* nvJitLink() const;
    // The nvJitLink file, found without opening it when it lies under the roots.
    std::filesystem::path nvJitLinkFile() const;
    // The CUDA release the libraries come from, as the installer recorded it (toolkit::releaseOf,
    // read on the first call); nothing when nothing beside them says.
    const std::optional<Release>& release() const;
    // "CUDA 13.0.88", else "CUDA 13.x" from nvJitLink's version (which opens it), for labels.
    std::string releaseLabel() const;
    // The CUDA major release the libraries come from (12, 13), which decides the arch list: the
    // release recorded beside libNVVM (release()), else nvJitLink's version, which opens it
    // (libNVVM says 2.0 in 12.9 and 13.0 alike); where both releases agree about an arch
    // (nvvm::archInEveryRelease), do without it.
    int cudaMajor() const;

    // libdevice's bitcode, read from disk on the first call only.
    support::Result<std::shared_ptr<const std::string>> libdevice() const;

    // The driver, opened from the system loader on the first call only.
    support::Result<std::shared_ptr<const Driver>> driver() const;

    // libNVVM, libdevice, nvJitLink, nvdisasm; the driver is added once driver() was called.
    std::vector<LibraryReport> reports() const;
    const LibraryReport& nvvmReport() const { return nvvmReport_; }
    const LibraryReport& nvJitLinkReport() const;  // opens nvJitLink
    const LibraryReport& libdeviceReport() const { return libdeviceReport_; }
    // ptxas (bin/ptxas), which assembles PTX as the driver does for the PTX's figures; null
    // when not found (the report says where it was looked for).
    const std::filesystem::path* ptxas() const { return ptxasReport_.found ? &ptxasReport_.path : nullptr; }
    const LibraryReport& ptxasReport() const { return ptxasReport_; }
    // nvdisasm, which gives a cubin's SASS; null when not found (the report says where it was
    // looked for and how to get it). Looked for on the first call only, so that a start that
    // needs no SASS never asks python3 for its pip wheels (see Locator): beside libNVVM (as
    // ptxas), then the toolkit roots (CUDA_PATH, ..., the nvidia-cuda-nvdisasm wheel's
    // nvidia/cu13/bin), then PATH; with an explicit root, that root alone.
    const std::filesystem::path* nvdisasm() const;
    const LibraryReport& nvdisasmReport() const;

private:
    static support::Result<std::shared_ptr<Toolkit>> find(SearchConfig config, bool open);
    std::string notFoundMessage() const;
    void opened(std::shared_ptr<Library> nvvmLib);
    void openJit() const;

    NvvmApi nvvm_;
    mutable std::vector<std::shared_ptr<Library>> libs_;
    LibraryReport nvvmReport_, libdeviceReport_, ptxasReport_;
    // nvJitLink, opened once on first use (openJit).
    std::filesystem::path jitFile_;  // found under the roots, not yet opened
    bool jitSearched_ = false;       // no system loader to ask when it is not under the roots
    mutable std::once_flag jitOnce_;
    mutable std::optional<NvJitLinkApi> jit_;
    mutable LibraryReport jitReport_;
    mutable int cudaMajor_ = 13;
    bool probed_ = false;
    // The search that found libNVVM, kept for nvdisasm's (python3 is asked at most once).
    std::unique_ptr<Locator> locator_;
    mutable std::once_flag nvdisasmOnce_;
    mutable std::once_flag releaseOnce_;
    mutable std::optional<Release> release_;
    mutable LibraryReport nvdisasmReport_;

    mutable std::mutex mu_;
    mutable std::shared_ptr<const std::string> libdeviceBytes_;
    mutable std::optional<support::Result<std::shared_ptr<const Driver>>> driver_;
    mutable LibraryReport driverReport_;
};

// A toolkit on this machine, for lists to choose one from (Settings, nvpg toolkits): located, not
// opened, so that toolkits whose libNVVMs share a soname can be listed from one process.
struct FoundToolkit {
    std::filesystem::path root;  // what --cuda-path (or a variant) names it by
    std::string via;             // why it was looked at: "via /usr/local/cuda-12.9", "added in Settings"
    LibraryReport nvvm, libdevice, nvJitLink;
    std::optional<Release> release;
};
// Every toolkit the search looks at (Locator::toolkitRoots), not only the first, then `extra`
// (paths the user added, each searched as --cuda-path would), each libNVVM file once. Each root
// looked at that holds no toolkit goes to `rejected`, with why ("not a directory", "no libNVVM:
// none of nvvm/lib64/libnvvm.so.4, ...", a file that is no library for this machine).
std::vector<FoundToolkit> findToolkits(SearchConfig config, const std::vector<std::filesystem::path>& extra = {},
                                       std::vector<Tried>* rejected = nullptr);

// Shown wherever a report lists the places tried.
std::string formatTried(const std::vector<Tried>& tried);

// Where a CUDA driver is installed, nvJitLink answers a link it made before from the driver's
// compute cache (~/.nv/ComputeCache) without running its ptxas, so `-verbose` prints no figures:
// the LTO output's registers and spills, and which kernels the link kept, would be missing from
// the second compile on (seen on the H200 machine: figures on the first compile of a fresh HOME
// only). This sets CUDA_CACHE_DISABLE=1 unless the person set it. It changes the environment, so
// it is for a process's main before it starts any thread (the front ends and the engine call it).
void bypassDriverComputeCache();

}  // namespace nvpg::toolkit
