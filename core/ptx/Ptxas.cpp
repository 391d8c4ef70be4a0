#include "core/ptx/Ptxas.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "core/support/Files.h"
#include "core/support/Process.h"
#include "core/support/Stopwatch.h"
#include "core/support/Text.h"

namespace fs = std::filesystem;

namespace nvpg::ptx {

namespace {

// ptxas' output is a few lines per function; more than this is not read.
constexpr size_t kLogLimit = size_t(4) << 20;

uint64_t readLe(std::string_view bytes, size_t at, size_t width) {
    uint64_t v = 0;
    for (size_t i = 0; i < width; ++i) v |= uint64_t(uint8_t(bytes[at + i])) << (8 * i);
    return v;
}

// What ptxas said went wrong: its error and fatal lines, else its whole output.
std::string errorLines(std::string_view log) {
    std::vector<std::string> lines;
    for (auto line : support::splitLines(log)) {
        const auto text = support::trim(line);
        if (text.find("error") != std::string_view::npos || text.find("fatal") != std::string_view::npos)
            lines.emplace_back(text);
    }
    return lines.empty() ? std::string(support::trim(log)) : support::join(lines, "\n");
}

}  // namespace

std::vector<std::pair<std::string, uint64_t>> cubinConstantBytes(std::string_view elf) {
    std::vector<std::pair<std::string, uint64_t>> out;
    // ELF64, little-endian, as every cubin is.
    if (elf.size() < 64 ||
        elf.substr(0, 4) !=
            "\x7f"
            "ELF" ||
        elf[4] != 2 || elf[5] != 1)
        return out;
    const uint64_t shoff = readLe(elf, 0x28, 8);
    const uint64_t shentsize = readLe(elf, 0x3A, 2);
    const uint64_t shnum = readLe(elf, 0x3C, 2);
    const uint64_t shstrndx = readLe(elf, 0x3E, 2);
    if (shentsize < 64 || shstrndx >= shnum || shoff > elf.size() || shnum > (elf.size() - shoff) / shentsize)
        return out;
    auto header = [&](uint64_t i) { return shoff + i * shentsize; };
    const uint64_t strOff = readLe(elf, header(shstrndx) + 24, 8);
    const uint64_t strSize = readLe(elf, header(shstrndx) + 32, 8);
    if (strOff > elf.size() || strSize > elf.size() - strOff) return out;
    const std::string_view strings = elf.substr(strOff, strSize);
    constexpr std::string_view prefix = ".nv.constant";
    for (uint64_t i = 0; i < shnum; ++i) {
        const uint64_t nameAt = readLe(elf, header(i), 4);
        if (nameAt >= strings.size()) continue;
        std::string_view name = strings.substr(nameAt);
        name = name.substr(0, name.find('\0'));
        if (!support::startsWith(name, prefix)) continue;
        // ".nv.constant0.wave": bank digits, a dot, the function; module-wide banks have no function.
        name.remove_prefix(prefix.size());
        const size_t dot = name.find('.');
        if (dot == 0 || dot == std::string_view::npos || dot + 1 == name.size()) continue;
        const std::string function(name.substr(dot + 1));
        const uint64_t size = readLe(elf, header(i) + 32, 8);
        bool added = false;
        for (auto& [f, bytes] : out)
            if (f == function) {
                bytes += size;
                added = true;
            }
        if (!added) out.emplace_back(function, size);
    }
    return out;
}

void setConstantBytes(std::string_view cubin, std::vector<ResourceUsage>& usage) {
    for (const auto& [function, size] : cubinConstantBytes(cubin))
        for (auto& u : usage)
            if (u.function == function) u.constBytes = int(std::min<uint64_t>(size, 2147483647));
}

PtxasRun assembleWholeProgram(const fs::path& ptxas, std::string_view ptx, std::string_view smArch,
                              const std::vector<std::string>& extraArgs) {
    support::Stopwatch watch;
    PtxasRun out;
    out.command = fmt::format("ptxas -arch={} -v", smArch);
    for (const auto& a : extraArgs) out.command += " " + a;
    std::error_code ec;
    std::string pattern = (fs::temp_directory_path(ec) / "nvpg-ptxas-XXXXXX").string();
    if (ec || !::mkdtemp(pattern.data())) {
        out.error = fmt::format("cannot make a temporary folder for ptxas in {}: {}",
                                fs::path(pattern).parent_path().string(), std::strerror(errno));
        out.seconds = watch.seconds();
        return out;
    }
    const fs::path dir = pattern;
    const fs::path input = dir / "program.ptx", cubin = dir / "program.cubin";
    if (auto st = support::writeFileAtomic(input, ptx); !st) {
        out.error = st.error().message;
    } else {
        std::vector<std::string> args{ptxas.string(), fmt::format("-arch={}", smArch), "-v"};
        args.insert(args.end(), extraArgs.begin(), extraArgs.end());
        args.insert(args.end(), {input.string(), "-o", cubin.string()});
        auto ran = support::runProcess(args, kLogLimit);
        const int status = ran.status;
        out.log = std::move(ran.output);
        if (status == 0) {
            out.ok = true;
            out.usage = parsePtxasInfo(out.log);
            if (auto bytes = support::readFile(cubin)) {
                setConstantBytes(*bytes, out.usage);
                out.cubin = std::move(*bytes);
            }
        } else if (status == -1) {
            out.error = out.log;
            out.log.clear();
        } else {
            out.error = status == -2 ? fmt::format("{} was killed: {}", ptxas.string(), errorLines(out.log))
                                     : errorLines(out.log);
        }
    }
    fs::remove_all(dir, ec);
    out.seconds = watch.seconds();
    return out;
}

}  // namespace nvpg::ptx
