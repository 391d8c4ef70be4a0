#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/support/Result.h"

namespace nvpg::nvvm {

struct OptionInfo;
// Where a front end sets a typed option, in its own words, for the advice on an extra flag that
// sets one: nvpg gives "its own option, --opt", the app "its own field above". Empty: core's
// words, which name neither.
using OptionPlace = std::function<std::string(const OptionInfo&)>;

// libNVVM's compile options, typed. Unset fields are not passed, so libNVVM's own defaults apply
// (and the PTX matches what a plain call with the same flags gives).
struct Options {
    std::optional<std::string> arch;      // -arch=compute_NN[a|f]
    std::optional<int> opt;               // -opt=0|3
    std::optional<bool> ftz;              // -ftz=0|1
    std::optional<bool> precDiv;          // -prec-div=0|1
    std::optional<bool> precSqrt;         // -prec-sqrt=0|1
    std::optional<bool> fma;              // -fma=0|1
    bool debug = false;                   // -g
    std::optional<int> jumpTableDensity;  // -jump-table-density=0..101
    bool genLto = false;                  // -gen-lto
    std::vector<std::string> extraFlags;  // passed as written, after the typed ones

    // Sets one option by its name in optionTable() ("arch", "prec-div", ...), which the CLI
    // and workspace files use too. The error names the option and its allowed values.
    support::Status set(std::string_view name, std::string_view value);
    // Checks every field against the option table and the arch list of `cudaMajor`, and the
    // extra flags as checkExtraFlags does.
    support::Status validate(int cudaMajor = 13, const OptionPlace& place = {}) const;
    // The same, asking for the release only when the arch is not one every release accepts.
    support::Status validate(const std::function<int()>& cudaMajor, const OptionPlace& place = {}) const;
    // Checks the extra flags for a libNVVM flag's shape. A flag that names a typed option, with
    // one dash or two, with a value or without ("-opt=3", "--opt=3", "-ftz"), is refused with
    // one answer: the option is set where `place` says, not as an extra flag.
    support::Status checkExtraFlags(const OptionPlace& place = {}) const;
    // The flags for libNVVM, in the option table's order, then the extra flags.
    std::vector<std::string> flags() const;
    // The value of an option as `set` takes it, or nothing when unset.
    std::optional<std::string> get(std::string_view name) const;
    // Unsets an option, so libNVVM's own default applies (a Switch is off).
    void clear(std::string_view name);

    bool operator==(const Options&) const = default;
};

// How an option's value is written and checked. The kind fixes the field's type in Options:
// Arch is a std::optional<std::string>, Enum and IntRange a std::optional<int>, Bool a
// std::optional<bool> (unset, 0 or 1), Switch a plain bool (a flag without a value, off unless set).
enum class OptionKind { Arch, Enum, IntRange, Bool, Switch };

struct OptionValue {
    std::string_view value;    // "0", as set() takes it and the flag carries it
    std::string_view meaning;  // "no optimisation", or empty
};

// One libNVVM option: everything the flags, the checks, the workspace file, nvpg's command
// line and the Options dock need to know about it, so that adding an option is one entry.
struct OptionInfo {
    using Field = std::variant<std::optional<std::string> Options::*, std::optional<int> Options::*,
                               std::optional<bool> Options::*, bool Options::*>;

    std::string_view name;  // "prec-div": set()/get(), the workspace key, nvpg's --prec-div
    std::string_view flag;  // "-prec-div=" (a value follows), or "-g" (a Switch)
    OptionKind kind;
    Field field;
    std::vector<OptionValue> values = {};  // Enum: the allowed values, in the order offered
    int min = 0, max = 0;                  // IntRange: the allowed values, both included
    // libNVVM's own value when the flag is not passed (libNVVM API docs); empty when it
    // depends on the release (arch).
    std::string_view libnvvmDefault = {};
    std::string_view label = {};  // the Options dock's text for it
    std::string_view help = {};
    // Chosen by the outputs a compile wants (gen-lto), never by the person: not stored in a
    // workspace, not an nvpg option, not in the Options dock.
    bool outputChoice = false;
};
// Options from libNVVM flags as another tool passed them ("-opt=3", "-arch=compute_90", "-g"),
// the inverse of Options::flags(): each flag the table knows sets its option (through set(), so
// its value is checked), the rest are kept as extra flags in their order. An output choice
// (-gen-lto) is not an option: the error names it, as it does a bad value.
support::Result<Options> optionsFromFlags(const std::vector<std::string>& flags);

// Every typed option, in the order flags() emits them, the workspace writes them and the
// Options dock shows them.
const std::vector<OptionInfo>& optionTable();
// The table's entry named `name`, or nullptr.
const OptionInfo* findOption(std::string_view name);
// What a value may be, as messages and help say it: "0 or 3", "0 to 101", "compute_NN[a|f]".
std::string allowedValues(const OptionInfo& info);

// The options with one option changed the way "Show effect" compares them with the current
// ones: a Bool or Switch toggled, an Enum to its other value, an IntRange to its other end, from
// the value set or else libNVVM's default; the arch (or any option, when `value` is given) to
// `value`. Nothing for an unknown option, an arch without a value, or a value that set() refuses
// (an arch libNVVM lacks is left to the compile to say).
// `label` gets what changed: "ftz 0 → 1", "arch compute_75 → compute_90".
struct FlippedOption {
    Options options;
    std::string label;
    std::string value;  // the option's new value
};
std::optional<FlippedOption> withOptionChanged(const Options& o, std::string_view name, std::string_view value = {});

// The -arch values libNVVM documents for a CUDA major release (nvvm.h), plus those it was seen
// to accept beyond its list (compute_86, compute_88 in 13.0).
const std::vector<std::string>& supportedArchs(int cudaMajor);
// The best arch for a GPU of compute capability major.minor: the highest plain compute_NN not
// above it (PTX runs on any later GPU); nothing when the GPU is older than every arch.
std::optional<std::string> archForComputeCapability(int major, int minor, int cudaMajor);
// The CUDA major release, asked for only where the answer depends on it: learning it can cost
// (toolkit::Toolkit::cudaMajor opens nvJitLink).
using CudaMajorSource = std::function<int()>;
// The same, asking `cudaMajor` only when the releases disagree about the GPU.
std::optional<std::string> archForComputeCapability(int major, int minor, const CudaMajorSource& cudaMajor);
// Whether every release of supportedArchs accepts `arch`.
bool archInEveryRelease(std::string_view arch);
// "compute_90a" -> "sm_90a", for nvJitLink's -arch.
std::string smArchFor(std::string_view computeArch);

}  // namespace nvpg::nvvm
