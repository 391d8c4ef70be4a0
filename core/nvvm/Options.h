#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/Result.h"

namespace nvpg::nvvm {

// libNVVM's compile options, typed. Unset fields are not passed, so libNVVM's own defaults apply
// (and the PTX matches what a plain call with the same flags gives).
struct Options {
    std::optional<std::string> arch;       // -arch=compute_NN[a|f]
    std::optional<int> opt;                // -opt=0|3
    std::optional<bool> ftz;               // -ftz=0|1
    std::optional<bool> precDiv;           // -prec-div=0|1
    std::optional<bool> precSqrt;          // -prec-sqrt=0|1
    std::optional<bool> fma;               // -fma=0|1
    bool debug = false;                    // -g
    std::optional<int> jumpTableDensity;   // -jump-table-density=0..101
    bool genLto = false;                   // -gen-lto
    std::vector<std::string> extraFlags;   // passed as written, after the typed ones

    // Sets one option by the name the CLI and workspace files use: "arch", "opt", "ftz",
    // "prec-div", "prec-sqrt", "fma", "g", "jump-table-density", "gen-lto". The error names the
    // option and its allowed values.
    support::Status set(std::string_view name, std::string_view value);
    // Checks every field against the option table and the arch list of `cudaMajor`.
    support::Status validate(int cudaMajor = 13) const;
    // The flags for libNVVM, in the option table's order, then the extra flags.
    std::vector<std::string> flags() const;
    // The value of an option as `set` takes it, or nothing when unset.
    std::optional<std::string> get(std::string_view name) const;

    bool operator==(const Options&) const = default;
};

struct OptionInfo {
    std::string_view name;   // "prec-div"
    std::string_view flag;   // "-prec-div="
    std::string_view allowed;  // "0 or 1"
    std::string_view help;
};
// Every typed option, in the order flags() emits them.
const std::vector<OptionInfo>& optionTable();

// The -arch values libNVVM documents for a CUDA major release (nvvm.h), plus those it was seen
// to accept beyond its list (compute_86, compute_88 in 13.0).
const std::vector<std::string>& supportedArchs(int cudaMajor);
// The best arch for a GPU of compute capability major.minor: the highest plain compute_NN not
// above it (PTX runs on any later GPU); nothing when the GPU is older than every arch.
std::optional<std::string> archForComputeCapability(int major, int minor, int cudaMajor);
// "compute_90a" -> "sm_90a", for nvJitLink's -arch.
std::string smArchFor(std::string_view computeArch);

}  // namespace nvpg::nvvm
