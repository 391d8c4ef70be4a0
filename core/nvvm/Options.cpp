#include "core/nvvm/Options.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/support/Text.h"

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::nvvm {

const std::vector<OptionInfo>& optionTable() {
    // libNVVM's defaults are those of the libNVVM API documentation (nvvmCompileProgram).
    static const std::vector<OptionInfo> table = {
        {.name = "arch",
         .flag = "-arch=",
         .kind = OptionKind::Arch,
         .field = &Options::arch,
         .label = "arch",
         .help = "target architecture"},
        {.name = "opt",
         .flag = "-opt=",
         .kind = OptionKind::Enum,
         .field = &Options::opt,
         .values = {{"0", "no optimisation"}, {"3", ""}},
         .libnvvmDefault = "3",
         .label = "opt",
         .help = "optimisation level"},
        {.name = "ftz",
         .flag = "-ftz=",
         .kind = OptionKind::Bool,
         .field = &Options::ftz,
         .libnvvmDefault = "0",
         .label = "ftz",
         .help = "flush single-precision denormals to zero"},
        {.name = "prec-div",
         .flag = "-prec-div=",
         .kind = OptionKind::Bool,
         .field = &Options::precDiv,
         .libnvvmDefault = "1",
         .label = "prec-div",
         .help = "IEEE single-precision division, not the fast approximation"},
        {.name = "prec-sqrt",
         .flag = "-prec-sqrt=",
         .kind = OptionKind::Bool,
         .field = &Options::precSqrt,
         .libnvvmDefault = "1",
         .label = "prec-sqrt",
         .help = "IEEE single-precision square root, not the fast approximation"},
        {.name = "fma",
         .flag = "-fma=",
         .kind = OptionKind::Bool,
         .field = &Options::fma,
         .libnvvmDefault = "1",
         .label = "fma",
         .help = "contract multiply-adds into FMA"},
        {.name = "g",
         .flag = "-g",
         .kind = OptionKind::Switch,
         .field = &Options::debug,
         .libnvvmDefault = "off",
         .label = "debug info (-g, needs opt 0)",
         .help = "full debug information (needs opt 0 and debug metadata in the IR)"},
        {.name = "jump-table-density",
         .flag = "-jump-table-density=",
         .kind = OptionKind::IntRange,
         .field = &Options::jumpTableDensity,
         .min = 0,
         .max = 101,
         .libnvvmDefault = "101",
         .label = "jump-table density",
         .help = "case density (%) from which a switch becomes a jump table"},
        {.name = "gen-lto",
         .flag = "-gen-lto",
         .kind = OptionKind::Switch,
         .field = &Options::genLto,
         .libnvvmDefault = "off",
         .label = "gen-lto",
         .help = "emit LTO-IR instead of PTX",
         .outputChoice = true},
    };
    return table;
}

const OptionInfo* findOption(std::string_view name) {
    for (const auto& o : optionTable())
        if (o.name == name) return &o;
    return nullptr;
}

support::Result<Options> optionsFromFlags(const std::vector<std::string>& flags) {
    Options out;
    for (const auto& flag : flags) {
        const OptionInfo* match = nullptr;
        std::string_view value;
        for (const auto& info : optionTable()) {
            const bool takesValue = !info.flag.empty() && info.flag.back() == '=';
            if (takesValue && support::startsWith(flag, info.flag)) {
                value = std::string_view(flag).substr(info.flag.size());
            } else if (!takesValue && flag == info.flag) {
                value = {};
            } else {
                continue;
            }
            match = &info;
            break;
        }
        if (!match) {
            out.extraFlags.push_back(flag);
            continue;
        }
        if (match->outputChoice)
            return makeError(ErrorKind::Usage,
                             fmt::format("{} chooses an output, not an option; it is not kept with the options", flag));
        if (auto st = out.set(match->name, value); !st)
            return makeError(ErrorKind::Usage, fmt::format("flag {}: {}", flag, st.error().message));
    }
    return out;
}

std::string allowedValues(const OptionInfo& info) {
    switch (info.kind) {
        case OptionKind::Arch:
            return "compute_NN[a|f]";
        case OptionKind::Enum: {
            std::vector<std::string> values;
            for (const auto& v : info.values) values.emplace_back(v.value);
            return support::joinOr(values);
        }
        case OptionKind::IntRange:
            return fmt::format("{} to {}", info.min, info.max);
        case OptionKind::Bool:
            return "0 or 1";
        case OptionKind::Switch:
            return "on or off";
    }
    return {};
}

const std::vector<std::string>& supportedArchs(int cudaMajor) {
    static const std::vector<std::string> cuda13 = {
        "compute_75",   "compute_80",   "compute_86",  "compute_87",   "compute_88",   "compute_89",
        "compute_90",   "compute_90a",  "compute_100", "compute_100a", "compute_100f", "compute_103",
        "compute_103a", "compute_103f", "compute_110", "compute_110a", "compute_110f", "compute_120",
        "compute_120a", "compute_120f", "compute_121", "compute_121a", "compute_121f"};
    static const std::vector<std::string> cuda12 = {
        "compute_50",  "compute_52",  "compute_53",   "compute_60",  "compute_61",   "compute_62",  "compute_70",
        "compute_72",  "compute_75",  "compute_80",   "compute_86",  "compute_87",   "compute_89",  "compute_90",
        "compute_90a", "compute_100", "compute_100a", "compute_101", "compute_101a", "compute_120", "compute_120a"};
    return cudaMajor <= 12 ? cuda12 : cuda13;
}

namespace {

int archNumber(std::string_view arch) {
    long long n = 0;
    auto digits = arch.substr(std::string_view("compute_").size());
    while (!digits.empty() && !std::isdigit(static_cast<unsigned char>(digits.back()))) digits.remove_suffix(1);
    support::parseInt(digits, n);
    return static_cast<int>(n);
}

support::Error bad(std::string_view name, std::string_view value, std::string_view allowed) {
    return makeError(ErrorKind::Usage, fmt::format("option {}: '{}' is not allowed; use {}", name, value, allowed));
}

std::optional<bool> parseBool01(std::string_view v) {
    if (v == "0" || v == "false" || v == "off") return false;
    if (v == "1" || v == "true" || v == "on") return true;
    return std::nullopt;
}

}  // namespace

std::optional<std::string> archForComputeCapability(int major, int minor, int cudaMajor) {
    const int cc = major * 10 + minor;
    std::optional<std::string> best;
    int bestNum = 0;
    for (const auto& a : supportedArchs(cudaMajor)) {
        if (!std::isdigit(static_cast<unsigned char>(a.back()))) continue;  // skip a/f variants
        const int n = archNumber(a);
        if (n <= cc && n > bestNum) {
            best = a;
            bestNum = n;
        }
    }
    return best;
}

std::optional<std::string> archForComputeCapability(int major, int minor, const CudaMajorSource& cudaMajor) {
    auto in12 = archForComputeCapability(major, minor, 12), in13 = archForComputeCapability(major, minor, 13);
    if (in12 == in13) return in13;
    return archForComputeCapability(major, minor, cudaMajor());
}

bool archInEveryRelease(std::string_view arch) {
    for (const int release : {12, 13}) {
        const auto& archs = supportedArchs(release);
        if (std::find(archs.begin(), archs.end(), arch) == archs.end()) return false;
    }
    return true;
}

std::string smArchFor(std::string_view computeArch) {
    std::string s(computeArch);
    if (support::startsWith(s, "compute_")) s = "sm_" + s.substr(8);
    return s;
}

namespace {

// The field an entry stands for, typed; the kind decides which of these it is (see OptionKind).
template <typename T>
T* fieldOf(const OptionInfo& info, Options& o) {
    auto* member = std::get_if<T Options::*>(&info.field);
    return member ? &(o.**member) : nullptr;
}
template <typename T>
const T* fieldOf(const OptionInfo& info, const Options& o) {
    auto* member = std::get_if<T Options::*>(&info.field);
    return member ? &(o.**member) : nullptr;
}

// The message's words for what may be given: a range reads better as "a number from".
std::string allowedInMessage(const OptionInfo& info) {
    return info.kind == OptionKind::IntRange ? "a number from " + allowedValues(info) : allowedValues(info);
}

bool isEnumValue(const OptionInfo& info, std::string_view v) {
    return std::any_of(info.values.begin(), info.values.end(), [&](const OptionValue& x) { return x.value == v; });
}

}  // namespace

support::Status Options::set(std::string_view name, std::string_view value) {
    const auto* info = findOption(name);
    if (!info) {
        std::vector<std::string> names;
        for (const auto& o : optionTable()) names.emplace_back(o.name);
        return makeError(ErrorKind::Usage,
                         fmt::format("unknown option '{}'; the options are {}", name, support::joinOr(names)));
    }
    const auto v = support::trim(value);
    switch (info->kind) {
        case OptionKind::Arch:
            // Checked by validate(), against the arch list of the libNVVM that compiles.
            *fieldOf<std::optional<std::string>>(*info, *this) = std::string(v);
            return {};
        case OptionKind::Enum:
        case OptionKind::IntRange: {
            long long n = 0;
            const bool ok = info->kind == OptionKind::Enum
                                ? isEnumValue(*info, v) && support::parseInt(v, n)
                                : support::parseInt(v, n) && n >= info->min && n <= info->max;
            if (!ok) return bad(name, value, allowedInMessage(*info));
            *fieldOf<std::optional<int>>(*info, *this) = static_cast<int>(n);
            return {};
        }
        case OptionKind::Bool: {
            auto b = parseBool01(v);
            if (!b) return bad(name, value, allowedInMessage(*info));
            *fieldOf<std::optional<bool>>(*info, *this) = *b;
            return {};
        }
        case OptionKind::Switch: {
            // A switch given without a value is on, as on a command line.
            auto b = parseBool01(v.empty() ? "1" : v);
            if (!b) return bad(name, value, allowedInMessage(*info));
            *fieldOf<bool>(*info, *this) = *b;
            return {};
        }
    }
    return {};
}

std::optional<std::string> Options::get(std::string_view name) const {
    const auto* info = findOption(name);
    if (!info) return std::nullopt;
    switch (info->kind) {
        case OptionKind::Arch:
            return *fieldOf<std::optional<std::string>>(*info, *this);
        case OptionKind::Enum:
        case OptionKind::IntRange: {
            const auto& n = *fieldOf<std::optional<int>>(*info, *this);
            return n ? std::optional(std::to_string(*n)) : std::nullopt;
        }
        case OptionKind::Bool: {
            const auto& b = *fieldOf<std::optional<bool>>(*info, *this);
            return b ? std::optional<std::string>(*b ? "1" : "0") : std::nullopt;
        }
        case OptionKind::Switch:
            return *fieldOf<bool>(*info, *this) ? std::optional<std::string>("on") : std::nullopt;
    }
    return std::nullopt;
}

void Options::clear(std::string_view name) {
    const auto* info = findOption(name);
    if (!info) return;
    std::visit([this](auto member) { this->*member = {}; }, info->field);
}

support::Status Options::validate(const std::function<int()>& cudaMajor, const OptionPlace& place) const {
    return validate(!arch || archInEveryRelease(*arch) ? 13 : cudaMajor(), place);
}

support::Status Options::validate(int cudaMajor, const OptionPlace& place) const {
    for (const auto& info : optionTable()) {
        switch (info.kind) {
            case OptionKind::Arch: {
                const auto& arch = *fieldOf<std::optional<std::string>>(info, *this);
                if (!arch) break;
                const auto& archs = supportedArchs(cudaMajor);
                if (std::find(archs.begin(), archs.end(), *arch) != archs.end()) break;
                std::string hint;
                if (support::startsWith(*arch, "sm_"))
                    hint = fmt::format(" (libNVVM takes virtual archs: compute_{}, not {})", arch->substr(3), *arch);
                return makeError(ErrorKind::Usage,
                                 fmt::format("option {}: '{}' is not an arch libNVVM {}.x accepts{}; "
                                             "use one of {}",
                                             info.name, *arch, cudaMajor, hint, support::join(archs, ", ")));
            }
            case OptionKind::Enum:
            case OptionKind::IntRange: {
                // The fields can be written directly, past set()'s checks.
                const auto& n = *fieldOf<std::optional<int>>(info, *this);
                if (!n) break;
                const auto text = std::to_string(*n);
                const bool ok =
                    info.kind == OptionKind::Enum ? isEnumValue(info, text) : *n >= info.min && *n <= info.max;
                if (!ok) return bad(info.name, text, allowedInMessage(info));
                break;
            }
            case OptionKind::Bool:
            case OptionKind::Switch:
                break;  // every value is allowed
        }
    }
    return checkExtraFlags(place);
}

support::Status Options::checkExtraFlags(const OptionPlace& place) const {
    for (const auto& f : extraFlags) {
        if (!support::startsWith(f, "-") || f.size() < 2)
            return makeError(ErrorKind::Usage,
                             fmt::format("extra flag '{}': a libNVVM flag starts with '-', e.g. -opt=3", f));
        // The option a flag names, however it is dashed and whether or not it has its value yet:
        // "-ftz" is a half-typed "-ftz=1", and libNVVM knows neither as an extra flag.
        std::string_view named(f);
        named.remove_prefix(support::startsWith(named, "--") ? 2 : 1);
        named = named.substr(0, named.find('='));
        if (const auto* o = findOption(named)) {
            if (o->outputChoice)
                return makeError(ErrorKind::Usage,
                                 fmt::format("extra flag '{}': {} is chosen through the wanted outputs (LTO-IR), "
                                             "not as a flag; leave it out",
                                             f, o->name));
            return makeError(ErrorKind::Usage,
                             fmt::format("extra flag '{}' sets the option {}, which has {}: use that, not an "
                                         "extra flag",
                                         f, o->name, place ? place(*o) : std::string("its own setting")));
        }
        if (support::startsWith(f, "--"))
            return makeError(ErrorKind::Usage,
                             fmt::format("extra flag '{}': libNVVM flags take a single dash: '{}'", f, f.substr(1)));
    }
    return {};
}

std::vector<std::string> Options::flags() const {
    std::vector<std::string> out;
    for (const auto& info : optionTable()) {
        const auto value = get(info.name);
        if (!value) continue;
        // A Switch is the flag alone; every other option carries its value (get()'s text is
        // the flag's: "1"/"0" for a Bool).
        out.push_back(info.kind == OptionKind::Switch ? std::string(info.flag) : std::string(info.flag) + *value);
    }
    out.insert(out.end(), extraFlags.begin(), extraFlags.end());
    return out;
}

std::optional<FlippedOption> withOptionChanged(const Options& o, std::string_view name, std::string_view value) {
    const auto* info = findOption(name);
    if (!info || info->outputChoice) return std::nullopt;
    const auto set = o.get(name);
    const std::string before = set                                ? *set
                               : info->kind == OptionKind::Switch ? std::string("off")
                                                                  : std::string(info->libnvvmDefault);
    std::string after(value);
    if (after.empty()) {
        switch (info->kind) {
            case OptionKind::Arch:
                return std::nullopt;
            case OptionKind::Bool:
                after = before == "1" ? "0" : "1";
                break;
            case OptionKind::Switch:
                after = set ? "off" : "on";
                break;
            case OptionKind::Enum:
                for (const auto& v : info->values)
                    if (v.value != before) {
                        after = v.value;
                        break;
                    }
                break;
            case OptionKind::IntRange:
                after = std::to_string(before == std::to_string(info->max) ? info->min : info->max);
                break;
        }
    }
    FlippedOption out{o, {}, after};
    if (info->kind == OptionKind::Switch) {
        if (after == "off")
            out.options.clear(name);
        else if (!out.options.set(name, "1"))
            return std::nullopt;
    } else if (!out.options.set(name, after)) {
        return std::nullopt;
    }
    out.label = fmt::format("{} {} → {}", name, before.empty() ? "default" : before, after);
    return out;
}

}  // namespace nvpg::nvvm
