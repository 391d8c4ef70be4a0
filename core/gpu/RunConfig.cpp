#include "core/gpu/RunConfig.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/support/Text.h"

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::gpu {

support::Result<Dim3> parseDim3(std::string_view text, std::string_view what) {
    const auto parts = support::split(support::trim(text), ',');
    if (parts.empty() || parts.size() > 3)
        return makeError(ErrorKind::Usage, fmt::format("{} '{}': give X, X,Y or X,Y,Z", what, text));
    unsigned v[3] = {1, 1, 1};
    for (size_t i = 0; i < parts.size(); ++i) {
        long long n = 0;
        if (!support::parseInt(support::trim(parts[i]), n) || n < 1 || n > 0x7fffffffLL)
            return makeError(ErrorKind::Usage, fmt::format("{} '{}': each size is a whole number from 1 "
                                                           "to 2147483647",
                                                           what, text));
        v[i] = static_cast<unsigned>(n);
    }
    return Dim3{v[0], v[1], v[2]};
}

std::optional<std::string> blockShapeProblem(const Dim3& b, const ArchLimits* limits) {
    // Without an arch: the smallest of each limit over the table's rows.
    std::array<unsigned long long, 3> most{~0ULL, ~0ULL, ~0ULL};
    unsigned long long mostThreads = ~0ULL;
    const auto take = [&](const ArchLimits& a) {
        for (size_t d = 0; d < 3; ++d) most[d] = std::min<unsigned long long>(most[d], a.maxBlockDims[d]);
        mostThreads = std::min<unsigned long long>(mostThreads, a.maxThreadsPerBlock);
    };
    if (limits)
        take(*limits);
    else
        for (const auto& a : ArchLimits::builtIn()) take(a);
    const std::string on = limits ? fmt::format(" on {}", limits->arch) : std::string();
    const std::string shape = fmt::format("block ({},{},{})", b.x, b.y, b.z);
    const unsigned values[3] = {b.x, b.y, b.z};
    for (size_t d = 0; d < 3; ++d)
        if (values[d] > most[d])
            return fmt::format(
                "{}: {} is {}, and a block has at most {} threads along {}{} (x {}, y {}, z {}; {} "
                "in all)",
                shape, "xyz"[d], values[d], most[d], "xyz"[d], on, most[0], most[1], most[2], mostThreads);
    const unsigned long long threads = 1ULL * b.x * b.y * b.z;
    if (threads > mostThreads)
        return fmt::format("{} has {} threads; a block has at most {} in all{}", shape, threads, mostThreads, on);
    return std::nullopt;
}

namespace {

std::string describe(const ptx::Param& p) {
    return p.arrayCount ? fmt::format("{} (.align {} {}[{}], {} bytes)", p.name, p.align, p.type, p.arrayCount, p.size)
                        : fmt::format("{} ({}, {} bytes)", p.name, p.type, p.size);
}

std::string paramList(const ptx::Function& k) {
    std::vector<std::string> parts;
    for (const auto& p : k.params) parts.push_back(p.type + (p.arrayCount ? fmt::format("[{}]", p.arrayCount) : ""));
    return support::join(parts, ", ");
}

bool isFloatParam(const ptx::Param& p) {
    return support::startsWith(p.type, ".f");
}
bool isIntParam(const ptx::Param& p) {
    return support::startsWith(p.type, ".u") || support::startsWith(p.type, ".s");
}

}  // namespace

support::Status checkRunConfig(const RunConfig& c, const ptx::Function& k) {
    auto bad = [](std::string msg) { return makeError(ErrorKind::Usage, std::move(msg)); };
    if (c.args.size() != k.params.size())
        return bad(fmt::format("kernel {} takes {} parameter{} ({}), but {} argument{} given", k.name, k.params.size(),
                               k.params.size() == 1 ? "" : "s", paramList(k), c.args.size(),
                               c.args.size() == 1 ? " was" : "s were"));
    for (size_t i = 0; i < k.params.size(); ++i) {
        const auto& p = k.params[i];
        const auto& a = c.args[i];
        const auto where = fmt::format("argument {} ({}) for parameter {}", i, a.text, describe(p));
        if (p.arrayCount)
            return bad(
                fmt::format("{}: the parameter is an aggregate passed by value; nvpg passes scalars "
                            "and pointers only",
                            where));
        if (a.kind != ArgSpec::Scalar) {
            if (p.size != 8 || isFloatParam(p))
                return bad(fmt::format("{}: a {} needs a 64-bit integer parameter (.u64, .b64) to hold its address",
                                       where, a.kind == ArgSpec::Buffer ? "buffer" : "pointer"));
            continue;
        }
        const auto& info = elemInfo(a.type);
        if (info.size != size_t(p.size))
            return bad(fmt::format("{}: the value is {} bytes but the parameter is {}", where, info.size, p.size));
        if (info.isFloat && isIntParam(p))
            return bad(fmt::format("{}: a floating-point value for an integer parameter", where));
        if (!info.isFloat && isFloatParam(p))
            return bad(
                fmt::format("{}: an integer value for a floating-point parameter (write f{}:…)", where, p.size * 8));
    }
    if (auto problem = blockShapeProblem(c.block)) return bad(*problem);
    if (c.grid.y > 65535 || c.grid.z > 65535)
        return bad(fmt::format("grid ({},{},{}): y and z are at most 65535", c.grid.x, c.grid.y, c.grid.z));
    if (c.repeat < 1) return bad(fmt::format("repeat {}: run at least once", c.repeat));
    if (!(c.timeoutSeconds > 0)) return bad("the timeout must be more than 0 seconds");
    return {};
}

ParamLayout layoutParams(const ptx::Function& kernel) {
    ParamLayout l;
    size_t offset = 0;
    for (const auto& p : kernel.params) {
        const size_t align = std::max(1, p.align);
        offset = (offset + align - 1) / align * align;
        l.offsets.push_back(offset);
        offset += size_t(p.size);
    }
    l.size = offset;
    return l;
}

std::string packParams(const ptx::Function& kernel, const std::vector<ArgSpec>& args,
                       const std::vector<uint64_t>& pointers) {
    const auto layout = layoutParams(kernel);
    std::string buffer(layout.size, '\0');
    for (size_t i = 0; i < kernel.params.size() && i < args.size(); ++i) {
        uint64_t bits = args[i].kind == ArgSpec::Scalar ? args[i].bits : (i < pointers.size() ? pointers[i] : 0);
        const size_t n = std::min<size_t>(size_t(kernel.params[i].size), sizeof bits);
        for (size_t b = 0; b < n; ++b) buffer[layout.offsets[i] + b] = static_cast<char>((bits >> (8 * b)) & 0xff);
    }
    return buffer;
}

namespace {

bool isIrPointer(std::string_view t) {
    t = support::trim(t);
    return !t.empty() && (t.back() == '*' || t == "ptr" || support::startsWith(t, "ptr "));
}

}  // namespace

DefaultArg defaultArgSpec(const ptx::Param& p, std::string_view irType) {
    constexpr int kCount = 1024;
    DefaultArg r;
    const bool irKnown = !irType.empty();
    const std::string_view type = p.type;
    const bool floatParam = support::startsWith(type, ".f");
    const bool unsignedParam = support::startsWith(type, ".u");
    if (p.arrayCount) {
        r.spec = "i32:0";  // a by-value aggregate: checkRunConfig explains
        return r;
    }
    const bool pointer = p.size == 8 && !floatParam && (irKnown ? isIrPointer(irType) : true);
    if (pointer) {
        if (auto t = elemTypeOfIrPointer(irType)) {
            r.spec = fmt::format("buf:{}:{}:zeros", elemInfo(*t).name, kCount);
        } else {
            r.spec = fmt::format("buf:f32:{}:zeros", kCount);
            r.hint = !irKnown ? "A guess: the IR of this kernel was not found (a bitcode module?), so the element "
                                "type is not known. Edit the SPEC to match what the kernel reads."
                              : fmt::format(
                                    "A guess: the IR type {} does not say what the kernel reads. Edit the "
                                    "SPEC to match.",
                                    irType);
        }
        return r;
    }
    const std::string_view ir = support::trim(irType);
    switch (p.size) {
        case 1:
            r.spec = ir == "i1" || unsignedParam ? "u8:1" : "i8:1";
            break;
        case 2:
            if (ir == "half" || type == ".f16" || (!irKnown && type == ".b16"))
                r.spec = "f16:1";
            else
                r.spec = unsignedParam ? "u16:1" : "i16:1";
            break;
        case 4:
            r.spec =
                floatParam || ir == "float" ? "f32:1" : fmt::format("{}:{}", unsignedParam ? "u32" : "i32", kCount);
            break;
        case 8:
            r.spec =
                floatParam || ir == "double" ? "f64:1" : fmt::format("{}:{}", unsignedParam ? "u64" : "i64", kCount);
            break;
        default:
            r.spec = "i32:0";
    }
    return r;
}

nlohmann::json runConfigToJson(const RunConfig& c) {
    nlohmann::ordered_json j;
    j["name"] = c.name;
    j["kernel"] = c.kernel;
    j["grid"] = {c.grid.x, c.grid.y, c.grid.z};
    j["block"] = {c.block.x, c.block.y, c.block.z};
    j["shared"] = c.sharedBytes;
    nlohmann::ordered_json args = nlohmann::ordered_json::array();
    for (const auto& a : c.args) args.push_back(a.text.empty() ? formatArgSpec(a) : a.text);
    j["args"] = std::move(args);
    j["repeat"] = c.repeat;
    // 10, not 10.0: a whole number of seconds is written as one, as people write it.
    if (c.timeoutSeconds == std::floor(c.timeoutSeconds) && std::abs(c.timeoutSeconds) < 1e15)
        j["timeout"] = static_cast<long long>(c.timeoutSeconds);
    else
        j["timeout"] = c.timeoutSeconds;
    j["from"] = c.fromLto ? "lto" : "ptx";
    return nlohmann::json(j);
}

support::Result<RunConfig> runConfigFromJson(const nlohmann::json& j, const std::string& where) {
    auto bad = [&](const std::string& key, const std::string& what) {
        return makeError(ErrorKind::Input, fmt::format("{}/{}: {}", where, key, what));
    };
    if (!j.is_object()) return makeError(ErrorKind::Input, where + ": expected a run configuration (an object)");
    RunConfig c;
    if (j.contains("name")) {
        if (!j["name"].is_string()) return bad("name", "expected a string");
        c.name = j["name"].get<std::string>();
    }
    if (!j.contains("kernel") || !j["kernel"].is_string()) return bad("kernel", "expected the kernel's name");
    c.kernel = j["kernel"].get<std::string>();
    for (const char* key : {"grid", "block"}) {
        Dim3 d;
        if (j.contains(key)) {
            const auto& v = j[key];
            if (!v.is_array() || v.empty() || v.size() > 3) return bad(key, "expected [x], [x, y] or [x, y, z]");
            unsigned xyz[3] = {1, 1, 1};
            for (size_t i = 0; i < v.size(); ++i) {
                if (!v[i].is_number_integer() || v[i].get<long long>() < 1 || v[i].get<long long>() > 0x7fffffffLL)
                    return bad(std::string(key) + "/" + std::to_string(i), "expected a whole number above 0");
                xyz[i] = static_cast<unsigned>(v[i].get<long long>());
            }
            d = {xyz[0], xyz[1], xyz[2]};
        }
        (std::string(key) == "grid" ? c.grid : c.block) = d;
    }
    if (j.contains("shared")) {
        if (!j["shared"].is_number_integer() || j["shared"].get<long long>() < 0 ||
            j["shared"].get<long long>() > 0x7fffffffLL)
            return bad("shared", "expected bytes of dynamic shared memory (0 or more)");
        c.sharedBytes = static_cast<unsigned>(j["shared"].get<long long>());
    }
    if (j.contains("args")) {
        if (!j["args"].is_array()) return bad("args", "expected an array of SPEC strings");
        for (size_t i = 0; i < j["args"].size(); ++i) {
            const auto& s = j["args"][i];
            if (!s.is_string()) return bad("args/" + std::to_string(i), "expected a SPEC string such as \"f32:2.5\"");
            auto spec = parseArgSpec(s.get<std::string>());
            if (!spec) return bad("args/" + std::to_string(i), spec.error().message);
            c.args.push_back(std::move(*spec));
        }
    }
    if (j.contains("repeat")) {
        if (!j["repeat"].is_number_integer() || j["repeat"].get<long long>() < 1 ||
            j["repeat"].get<long long>() > 1000000)
            return bad("repeat", "expected a whole number from 1 to 1000000");
        c.repeat = static_cast<int>(j["repeat"].get<long long>());
    }
    if (j.contains("timeout")) {
        if (!j["timeout"].is_number() || !(j["timeout"].get<double>() > 0))
            return bad("timeout", "expected seconds above 0");
        c.timeoutSeconds = j["timeout"].get<double>();
    }
    if (j.contains("from")) {
        const auto from = j["from"].is_string() ? j["from"].get<std::string>() : "";
        if (from != "ptx" && from != "lto") return bad("from", "expected \"ptx\" or \"lto\"");
        c.fromLto = from == "lto";
    }
    return c;
}

}  // namespace nvpg::gpu
