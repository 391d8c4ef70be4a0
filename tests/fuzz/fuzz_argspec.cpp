// Argument SPECs and run configurations on arbitrary text. Each input is tried as one SPEC
// (`nvpg run --arg`) and as the JSON of one run configuration (a workspace's "runs" entry).
// What parses must format back to text that parses to the same argument, and a configuration
// must survive being written to JSON text and read again (what saving a workspace does).
#include <bit>
#include <cmath>

#include <nlohmann/json.hpp>

#include "FuzzSupport.h"
#include "core/gpu/RunConfig.h"

using namespace nvpg;
using fuzz::require;

namespace {

bool sameValue(double a, double b) {
    return a == b ? std::signbit(a) == std::signbit(b) : std::isnan(a) && std::isnan(b);
}

bool sameArg(const gpu::ArgSpec& a, const gpu::ArgSpec& b) {
    if (a.kind != b.kind) return false;
    if (a.kind == gpu::ArgSpec::NullPointer) return true;
    if (a.type != b.type) return false;
    if (a.kind == gpu::ArgSpec::Scalar) {
        if (a.bits == b.bits) return true;
        // NaN payloads are not written out; a NaN stays a NaN of the same sign.
        char x[8], y[8];
        const auto& info = gpu::elemInfo(a.type);
        for (size_t i = 0; i < 8; ++i) {
            x[i] = char(a.bits >> (8 * i));
            y[i] = char(b.bits >> (8 * i));
        }
        return info.isFloat && gpu::formatElement(a.type, x) == gpu::formatElement(b.type, y) &&
               gpu::formatElement(a.type, x).ends_with("nan");
    }
    return a.count == b.count && a.init.kind == b.init.kind && sameValue(a.init.constant, b.init.constant) &&
           a.init.seed == b.init.seed && a.init.file == b.init.file;
}

void checkSpec(std::string_view text) {
    auto arg = gpu::parseArgSpec(text);
    if (!arg) {
        require(arg.error().kind == support::ErrorKind::Usage, "a bad SPEC is a usage error", arg.error().message);
        return;
    }
    require(arg->text == text, "the SPEC keeps its text");
    require(arg->kind != gpu::ArgSpec::Buffer || arg->count > 0 || arg->init.kind >= gpu::BufferInit::NpyFile,
            "a buffer has elements", text);
    const auto formatted = gpu::formatArgSpec(*arg);
    auto again = gpu::parseArgSpec(formatted);
    require(again.ok(), "a formatted SPEC parses", again ? formatted : again.error().message);
    require(sameArg(*arg, *again), "a formatted SPEC gives the same argument", formatted);
    require(gpu::formatArgSpec(*again) == formatted, "formatting is stable", formatted);

    // Small generated buffers: their bytes are count × element size, and the same every time.
    if (arg->kind == gpu::ArgSpec::Buffer && arg->init.kind < gpu::BufferInit::NpyFile && arg->count <= 4096) {
        auto first = gpu::loadBuffer(*arg, ".");
        require(first.ok(), "a generated buffer loads", first ? "" : first.error().message);
        require(first->size() == arg->count * gpu::elemInfo(arg->type).size, "a buffer holds count elements", text);
        auto second = gpu::loadBuffer(*arg, ".");
        require(second.ok() && *second == *first, "a generated buffer is the same every time", text);
    }
}

void checkRunConfig(std::string_view text) {
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded()) return;
    auto config = gpu::runConfigFromJson(j, "/runs/0");
    if (!config) {
        require(config.error().message.starts_with("/runs/0"), "the error says where", config.error().message);
        return;
    }
    const auto saved = gpu::runConfigToJson(*config).dump();
    auto again = gpu::runConfigFromJson(nlohmann::json::parse(saved, nullptr, false), "/runs/0");
    require(again.ok(), "a saved run configuration reads back",
            [&] { return again ? saved : again.error().message + "\n" + saved; });
    const auto& a = *config;
    const auto& b = *again;
    require(a.name == b.name && a.kernel == b.kernel && a.grid == b.grid && a.block == b.block &&
                a.sharedBytes == b.sharedBytes && a.repeat == b.repeat && a.fromLto == b.fromLto &&
                std::bit_cast<uint64_t>(a.timeoutSeconds) == std::bit_cast<uint64_t>(b.timeoutSeconds),
            "a run configuration survives", saved);
    require(a.args.size() == b.args.size(), "every argument survives", saved);
    for (size_t i = 0; i < a.args.size(); ++i)
        require(a.args[i].text == b.args[i].text && sameArg(a.args[i], b.args[i]), "an argument survives", saved);
    require(gpu::runConfigToJson(b).dump() == saved, "saving again writes the same text", saved);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto text = fuzz::bytesOf(data, size);
    checkSpec(text);
    checkRunConfig(text);
    return 0;
}
