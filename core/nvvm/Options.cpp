#include "nvvm/Options.h"

#include <algorithm>

#include <fmt/format.h>

#include "support/Text.h"

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::nvvm {

const std::vector<OptionInfo>& optionTable() {
    static const std::vector<OptionInfo> table = {
        {"arch", "-arch=", "compute_NN", "target architecture"},
        {"opt", "-opt=", "0 or 3", "optimisation level"},
        {"ftz", "-ftz=", "0 or 1", "flush single-precision denormals to zero"},
        {"prec-div", "-prec-div=", "0 or 1", "IEEE single-precision division (1) or fast (0)"},
        {"prec-sqrt", "-prec-sqrt=", "0 or 1", "IEEE single-precision square root (1) or fast (0)"},
        {"fma", "-fma=", "0 or 1", "contract multiply-adds into FMA"},
        {"g", "-g", "on or off", "full debug information (needs -opt=0 and debug metadata)"},
        {"jump-table-density", "-jump-table-density=", "0 to 101",
         "case density (%) from which a switch becomes a jump table"},
        {"gen-lto", "-gen-lto", "on or off", "emit LTO-IR instead of PTX"},
    };
    return table;
}

const std::vector<std::string>& supportedArchs(int cudaMajor) {
    static const std::vector<std::string> cuda13 = {
        "compute_75",  "compute_80",   "compute_86",   "compute_87",  "compute_88",
        "compute_89",  "compute_90",   "compute_90a",  "compute_100", "compute_100a",
        "compute_100f", "compute_103", "compute_103a", "compute_103f", "compute_110",
        "compute_110a", "compute_110f", "compute_120", "compute_120a", "compute_120f",
        "compute_121", "compute_121a", "compute_121f"};
    static const std::vector<std::string> cuda12 = {
        "compute_50", "compute_52", "compute_53", "compute_60",  "compute_61",   "compute_62",
        "compute_70", "compute_72", "compute_75", "compute_80",  "compute_86",   "compute_87",
        "compute_89", "compute_90", "compute_90a", "compute_100", "compute_100a", "compute_101",
        "compute_101a", "compute_120", "compute_120a"};
    return cudaMajor <= 12 ? cuda12 : cuda13;
}

namespace {

int archNumber(std::string_view arch) {
    long long n = 0;
    auto digits = arch.substr(std::string_view("compute_").size());
    while (!digits.empty() && !std::isdigit(static_cast<unsigned char>(digits.back())))
        digits.remove_suffix(1);
    support::parseInt(digits, n);
    return static_cast<int>(n);
}

support::Error bad(std::string_view name, std::string_view value, std::string_view allowed) {
    return makeError(ErrorKind::Usage, fmt::format("option {}: '{}' is not allowed; use {}", name,
                                                   value, allowed));
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

std::string smArchFor(std::string_view computeArch) {
    std::string s(computeArch);
    if (support::startsWith(s, "compute_")) s = "sm_" + s.substr(8);
    return s;
}

support::Status Options::set(std::string_view name, std::string_view value) {
    const auto v = support::trim(value);
    auto setBool = [&](std::optional<bool>& field) -> support::Status {
        auto b = parseBool01(v);
        if (!b) return bad(name, value, "0 or 1");
        field = *b;
        return {};
    };
    if (name == "arch") {
        arch = std::string(v);
        return {};
    }
    if (name == "opt") {
        if (v != "0" && v != "3") return bad(name, value, "0 or 3");
        opt = v == "0" ? 0 : 3;
        return {};
    }
    if (name == "ftz") return setBool(ftz);
    if (name == "prec-div") return setBool(precDiv);
    if (name == "prec-sqrt") return setBool(precSqrt);
    if (name == "fma") return setBool(fma);
    if (name == "g" || name == "gen-lto") {
        auto b = parseBool01(v.empty() ? "1" : v);
        if (!b) return bad(name, value, "on or off");
        (name == "g" ? debug : genLto) = *b;
        return {};
    }
    if (name == "jump-table-density") {
        long long n = -1;
        if (!support::parseInt(v, n) || n < 0 || n > 101) return bad(name, value, "a number from 0 to 101");
        jumpTableDensity = static_cast<int>(n);
        return {};
    }
    std::vector<std::string> names;
    for (const auto& o : optionTable()) names.emplace_back(o.name);
    return makeError(ErrorKind::Usage, fmt::format("unknown option '{}'; the options are {}", name,
                                                   support::joinOr(names)));
}

std::optional<std::string> Options::get(std::string_view name) const {
    auto b = [](const std::optional<bool>& x) -> std::optional<std::string> {
        if (!x) return std::nullopt;
        return std::string(*x ? "1" : "0");
    };
    if (name == "arch") return arch;
    if (name == "opt") return opt ? std::optional(std::to_string(*opt)) : std::nullopt;
    if (name == "ftz") return b(ftz);
    if (name == "prec-div") return b(precDiv);
    if (name == "prec-sqrt") return b(precSqrt);
    if (name == "fma") return b(fma);
    if (name == "g") return debug ? std::optional<std::string>("on") : std::nullopt;
    if (name == "gen-lto") return genLto ? std::optional<std::string>("on") : std::nullopt;
    if (name == "jump-table-density")
        return jumpTableDensity ? std::optional(std::to_string(*jumpTableDensity)) : std::nullopt;
    return std::nullopt;
}

support::Status Options::validate(int cudaMajor) const {
    if (arch) {
        const auto& archs = supportedArchs(cudaMajor);
        if (std::find(archs.begin(), archs.end(), *arch) == archs.end()) {
            std::string hint;
            if (support::startsWith(*arch, "sm_"))
                hint = fmt::format(" (libNVVM takes virtual archs: compute_{}, not {})",
                                   arch->substr(3), *arch);
            return makeError(ErrorKind::Usage,
                             fmt::format("option arch: '{}' is not an arch libNVVM {}.x accepts{}; "
                                         "use one of {}",
                                         *arch, cudaMajor, hint, support::join(archs, ", ")));
        }
    }
    if (opt && *opt != 0 && *opt != 3) return bad("opt", std::to_string(*opt), "0 or 3");
    if (jumpTableDensity && (*jumpTableDensity < 0 || *jumpTableDensity > 101))
        return bad("jump-table-density", std::to_string(*jumpTableDensity), "a number from 0 to 101");
    for (const auto& f : extraFlags) {
        if (support::startsWith(f, "--"))
            return makeError(ErrorKind::Usage,
                             fmt::format("extra flag '{}': libNVVM flags take a single dash: '{}'",
                                         f, f.substr(1)));
        if (!support::startsWith(f, "-") || f.size() < 2)
            return makeError(ErrorKind::Usage,
                             fmt::format("extra flag '{}': a libNVVM flag starts with '-', e.g. -opt=3", f));
        for (const auto& o : optionTable()) {
            const std::string_view flag = o.flag;
            const bool same = flag.back() == '=' ? support::startsWith(f, flag) : f == flag;
            if (same)
                return makeError(ErrorKind::Usage,
                                 fmt::format("extra flag '{}' sets the option {}, which has its own "
                                             "field: set {} there instead",
                                             f, o.name, o.name));
        }
    }
    return {};
}

std::vector<std::string> Options::flags() const {
    std::vector<std::string> out;
    auto b = [](bool v) { return v ? "1" : "0"; };
    if (arch) out.push_back("-arch=" + *arch);
    if (opt) out.push_back(fmt::format("-opt={}", *opt));
    if (ftz) out.push_back(fmt::format("-ftz={}", b(*ftz)));
    if (precDiv) out.push_back(fmt::format("-prec-div={}", b(*precDiv)));
    if (precSqrt) out.push_back(fmt::format("-prec-sqrt={}", b(*precSqrt)));
    if (fma) out.push_back(fmt::format("-fma={}", b(*fma)));
    if (debug) out.push_back("-g");
    if (jumpTableDensity) out.push_back(fmt::format("-jump-table-density={}", *jumpTableDensity));
    if (genLto) out.push_back("-gen-lto");
    out.insert(out.end(), extraFlags.begin(), extraFlags.end());
    return out;
}

}  // namespace nvpg::nvvm
