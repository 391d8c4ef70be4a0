#pragma once
// Import from numba-cuda: the NVVM IR modules and libNVVM options numba hands to libNVVM for one
// kernel and signature, made into a workspace whose run configuration passes the arguments as
// numba's kernel ABI does. numba runs in a Python process of its own (the helper script
// resources/python/nvpg_numba_import.py); nothing of Python is linked in.
#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/support/Result.h"
#include "core/toolkit/Toolkit.h"
#include "core/workspace/Workspace.h"

namespace nvpg::interop {

// The arch an import compiles for when none is asked for, and no local GPU says another.
inline constexpr const char* kNumbaDefaultArch = "compute_90";
// The elements of each array argument when no --args gives them (1-d: 1024; 2-d: 32x32; 3-d:
// 16x8x8), and the value of a scalar: as gpu::defaultArgSpec starts a parameter.
inline constexpr size_t kNumbaDefaultElements = 1024;

struct NumbaImportRequest {
    std::filesystem::path file;     // the user's Python file
    std::string function;           // a @cuda.jit kernel or plain function in it
    std::string signature;          // numba's: "void(float32[:], float32[:], float32)"
    std::filesystem::path argsNpz;  // example inputs (.npz), optional
    std::string arch;               // compute_NN[a|f]: the compute capability numba compiles for
    // The Python with numba-cuda: a path, or a name looked up in PATH; empty: python3.
    std::string python;
    // Given to the helper as CUDA_HOME (the toolkit nvpg uses), so that numba uses the same
    // libNVVM; empty: the environment's.
    std::filesystem::path cudaHome;
    std::filesystem::path helper;  // the helper script; empty: numbaHelperScript()
    std::filesystem::path output;  // the .nvpg to write; the .npy files of argsNpz go beside it
    double timeoutSeconds = 600;   // numba's import and compile together
};

// What an import made, beside the workspace file it wrote.
struct NumbaImport {
    workspace::Workspace workspace;
    std::filesystem::path written;           // the .nvpg
    std::vector<std::filesystem::path> npy;  // the buffers written beside it (from argsNpz)
    std::string kernel;                      // the .entry symbol
    std::string python;                      // the interpreter that ran, as found
    std::vector<std::string> warnings;       // entries of argsNpz no argument took, ...
};

// Why writing the workspace (request.output) would replace a file the import reads (the Python
// file, the .npz of --args), as support::inputOverwrittenBy decides; nothing when it would not.
// importNumba asks this too, and the same for each array of --args it writes.
std::optional<std::string> numbaOutputReplacesInput(const NumbaImportRequest& request);

// The helper script: python/nvpg_numba_import.py in support::dataDir(); empty when not there.
std::filesystem::path numbaHelperScript();

// The arch an import compiles for without --arch: the local GPU's (as nvpg compile chooses it,
// from the GPU cache or the driver), else kNumbaDefaultArch; `why` says which.
struct ArchChoice {
    std::string arch;
    std::string why;  // "local GPU NVIDIA H200 (sm_90)", "no GPU here: compute_90"
};
// With `askDriver` false only the GPU cache file answers (the app never opens the driver itself).
ArchChoice numbaDefaultArch(const toolkit::Toolkit* toolkit, bool askDriver = true);

// "compute_90" -> "9.0" (numba's cc), nothing for an arch that is not compute_NN[a|f].
std::optional<std::string> ccOfArch(std::string_view arch);

// Runs numba (the request's Python and helper), builds the workspace and writes it (atomically)
// with the buffers of argsNpz beside it. Errors (support::Error::kind):
//   Environment: no Python, or numba-cuda is not installed for it (the message says the pip
//                command), the helper script is missing, the helper failed on its own;
//   Usage:       no such file, the file failed to import, no such function, a signature numba
//                does not read or that does not fit the function, an .npz that does not fit;
//   Compile:     numba could not type or compile the function for the signature;
//   Timeout:     it ran past timeoutSeconds; Run: `cancel` was set (the process was killed).
// Each names the file, function and signature it is about, and the Python that ran.
support::Result<NumbaImport> importNumba(const NumbaImportRequest& request, const std::atomic<bool>* cancel = nullptr);

// The workspace from the helper's JSON (its "ok" result), without running anything: the part of
// importNumba that tests can give their own JSON. `npyDir` is where the helper wrote the .npy files.
support::Result<workspace::Workspace> numbaWorkspaceFromJson(std::string_view json, const NumbaImportRequest& request);

}  // namespace nvpg::interop
