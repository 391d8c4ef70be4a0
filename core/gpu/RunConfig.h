#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/gpu/ArchLimits.h"
#include "core/gpu/ArgSpec.h"
#include "core/ptx/Ptx.h"
#include "core/support/Result.h"

namespace nvpg::gpu {

struct Dim3 {
    unsigned x = 1, y = 1, z = 1;
    bool operator==(const Dim3&) const = default;
};

// Everything one launch needs apart from the compiled program.
struct RunConfig {
    std::string name;    // as saved in the workspace; "" for an unnamed one
    std::string kernel;  // the .entry name
    Dim3 grid, block;
    unsigned sharedBytes = 0;  // dynamic shared memory
    std::vector<ArgSpec> args;
    int repeat = 1;              // the kernel time is the median of this many launches
    double timeoutSeconds = 10;  // a launch that has not finished by then is stopped
    bool fromLto = false;        // run the LTO cubin instead of the PTX
    bool operator==(const RunConfig&) const = default;
};

// "256" or "16,16" or "8,8,4"; zeros are refused.
support::Result<Dim3> parseDim3(std::string_view text, std::string_view what);

// Why a block of this shape cannot be launched, naming the limit it breaks (threads along x, y
// and z, and in all), as "block (...)..."; nothing when it can. The limits are `limits`' arch's,
// else those every arch of the built-in table shares (the arch is not known before a launch).
std::optional<std::string> blockShapeProblem(const Dim3& block, const ArchLimits* limits = nullptr);

// Checks a configuration against the kernel's PTX parameters before any GPU work: the number
// of arguments, each size (a pointer or buffer needs an 8-byte parameter), integer vs float,
// and the launch shape (blockShapeProblem). The error names the argument (0-based, with its
// SPEC) and the parameter (name, type, size).
support::Status checkRunConfig(const RunConfig& config, const ptx::Function& kernel);

// The parameter buffer as cuLaunchKernel's CU_LAUNCH_PARAM_BUFFER_POINTER takes it: each
// parameter at an offset aligned to its PTX alignment. `pointers` holds one device address per
// argument (used for buffers; 0 for null pointers; ignored for scalars).
struct ParamLayout {
    std::vector<size_t> offsets;
    size_t size = 0;
};
ParamLayout layoutParams(const ptx::Function& kernel);
std::string packParams(const ptx::Function& kernel, const std::vector<ArgSpec>& args,
                       const std::vector<uint64_t>& pointers);

// The SPEC a kernel parameter starts with in the Runs panel: a zeroed buffer of 1024 elements
// for a pointer (its element type from the IR's pointer type when it says one), 1 for floats,
// 1024 for 32- and 64-bit integers (most often a count). `irType` is the parameter's type in
// the kernel's IR definition, "" when that is not known (bitcode). `hint` says why the SPEC is
// a guess, when it is.
struct DefaultArg {
    std::string spec;
    std::string hint;
};
DefaultArg defaultArgSpec(const ptx::Param& param, std::string_view irType);

// The "runs" entries of a workspace.
nlohmann::json runConfigToJson(const RunConfig& config);
// `where` is the JSON pointer of the entry, for messages.
support::Result<RunConfig> runConfigFromJson(const nlohmann::json& j, const std::string& where);

}  // namespace nvpg::gpu
