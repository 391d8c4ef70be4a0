#include <charconv>
#include <optional>
#include <string_view>
#include <vector>

#include "core/ptx/Ptx.h"

// nvJitLink -verbose (CUDA 13.0) prints two kinds of blocks; see tests/data/ptx/ptxas-info-*.txt.
// ptxas, per function:
//   ptxas info    : Compiling entry function 'k' for 'sm_90'
//   ptxas info    : Function properties for k
//   ptxas         .     104 bytes stack frame, 220 bytes spill stores, 216 bytes spill loads
//   ptxas info    : Used 24 registers, used 0 barriers, 1024 bytes smem, 64 bytes lmem
// and, when it linked PTX input, the linker's summary of each kernel in the cubin:
//   info    : Function properties for 'k':
//   info    : used 12 registers, used 1 barriers, 0 stack, 2048 bytes smem, 540 bytes cmem[0], 0
//   bytes lmem

namespace nvpg::ptx {

namespace {

bool startsWith(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// The text after the tool's tag: "ptxas info    : ", "info    : ", or the "ptxas         ."
// that nvJitLink puts before ptxas' indented continuation lines (standalone ptxas indents only).
std::string_view message(std::string_view line) {
    line = trim(line);
    const size_t colon = line.find(" : ");
    if (colon != std::string_view::npos) {
        const std::string_view tag = line.substr(0, colon);
        if (tag.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ") == std::string_view::npos)
            return trim(line.substr(colon + 3));
    }
    if (startsWith(line, "ptxas")) {
        std::string_view rest = trim(line.substr(5));
        if (startsWith(rest, ".")) return trim(rest.substr(1));
    }
    return line;
}

int clampInt(long long v) {
    constexpr long long hi = 2147483647;
    return static_cast<int>(v < 0 ? 0 : (v > hi ? hi : v));
}

// One comma-separated list of "N unit" figures, as in the "Used" and "stack frame" lines.
struct Figures {
    std::optional<int> registers, barriers, stack, smem, lmem, cmem, spillStores, spillLoads;
};

Figures readFigures(std::string_view text) {
    Figures f;
    while (!text.empty()) {
        const size_t comma = text.find(',');
        std::string_view item = trim(text.substr(0, comma));
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
        if (startsWith(item, "Used ") || startsWith(item, "used ")) item = trim(item.substr(5));
        long long n = 0;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), n);
        if (ec != std::errc{}) continue;
        const std::string_view unit = trim(item.substr(end - item.data()));
        const int v = clampInt(n);
        if (unit == "registers") {
            f.registers = v;
        } else if (unit == "barriers") {
            f.barriers = v;
        } else if (unit == "bytes stack frame" || unit == "stack") {
            f.stack = v;
        } else if (unit == "bytes smem") {
            f.smem = v;
        } else if (unit == "bytes lmem") {
            f.lmem = v;
        } else if (startsWith(unit, "bytes cmem[")) {
            // A sum of clamped figures can still overflow an int.
            f.cmem = clampInt(1LL * f.cmem.value_or(0) + v);
        } else if (unit == "bytes spill stores") {
            f.spillStores = v;
        } else if (unit == "bytes spill loads") {
            f.spillLoads = v;
        }
    }
    return f;
}

// "'name'" at the start of `s`; the rest after the closing quote in `rest`.
std::optional<std::string_view> quoted(std::string_view s, std::string_view& rest) {
    if (!startsWith(s, "'")) return std::nullopt;
    const size_t close = s.find('\'', 1);
    if (close == std::string_view::npos) return std::nullopt;
    rest = s.substr(close + 1);
    return s.substr(1, close - 1);
}

}  // namespace

std::vector<ResourceUsage> parsePtxasInfo(std::string_view log) {
    std::vector<ResourceUsage> out;
    constexpr size_t none = static_cast<size_t>(-1);
    size_t current = none;  // index into out
    // Set while reading the linker's summary of a function ptxas already reported.
    bool linkerOverPtxas = false;
    std::string arch;

    const auto findOrAdd = [&](std::string_view name, bool isEntry) -> size_t {
        for (size_t k = out.size(); k-- > 0;)
            if (out[k].function == name) return k;
        ResourceUsage u;
        u.function = std::string(name);
        u.arch = arch;
        u.isEntry = isEntry;
        out.push_back(std::move(u));
        return out.size() - 1;
    };

    while (!log.empty()) {
        const size_t nl = log.find('\n');
        const std::string_view line = log.substr(0, nl);
        log = nl == std::string_view::npos ? std::string_view{} : log.substr(nl + 1);
        const std::string_view msg = message(line);
        std::string_view rest;

        if (startsWith(msg, "Compiling entry function ")) {
            const auto name = quoted(msg.substr(25), rest);
            if (!name) continue;
            rest = trim(rest);
            if (startsWith(rest, "for ")) {
                std::string_view ignored;
                if (const auto a = quoted(trim(rest.substr(4)), ignored)) arch = std::string(*a);
            }
            ResourceUsage u;
            u.function = std::string(*name);
            u.arch = arch;
            u.isEntry = true;
            out.push_back(std::move(u));
            current = out.size() - 1;
            linkerOverPtxas = false;
        } else if (startsWith(msg, "Function properties for ")) {
            const std::string_view what = trim(msg.substr(24));
            if (const auto name = quoted(what, rest)) {
                // The linker lists only the kernels of the cubin it wrote.
                const size_t before = out.size();
                current = findOrAdd(*name, true);
                linkerOverPtxas = out.size() == before;
            } else {
                // ptxas names a function it did not announce with "Compiling entry function"
                // only for non-kernel functions.
                if (current == none || out[current].function != what) current = findOrAdd(what, false);
                linkerOverPtxas = false;
            }
        } else if (current != none && (msg.find("bytes stack frame") != std::string_view::npos ||
                                       startsWith(msg, "Used ") || startsWith(msg, "used "))) {
            const Figures f = readFigures(msg);
            ResourceUsage& u = out[current];
            // ptxas' figures stand; the linker adds what ptxas leaves out in CUDA 13 (cmem, and
            // lmem), and its smem differs: 2048 for a kernel whose ptxas line says 1024 on sm_90.
            if (f.cmem) u.constBytes = *f.cmem;
            if (f.lmem) u.localBytes = *f.lmem;
            if (linkerOverPtxas) continue;
            if (f.registers) u.registers = *f.registers;
            if (f.barriers) u.barriers = *f.barriers;
            if (f.stack) u.stackFrame = *f.stack;
            if (f.smem) u.sharedBytes = *f.smem;
            if (f.spillStores) u.spillStores = *f.spillStores;
            if (f.spillLoads) u.spillLoads = *f.spillLoads;
        }
    }
    return out;
}

}  // namespace nvpg::ptx
