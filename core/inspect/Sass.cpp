#include "core/inspect/Sass.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "core/inspect/SassView.h"
#include "core/support/Files.h"
#include "core/support/Process.h"
#include "core/support/Stopwatch.h"
#include "core/support/Text.h"

namespace fs = std::filesystem;

namespace nvpg::inspect {

namespace {

// nvdisasm's listing of a large program is a few MB; more than this is not read.
constexpr size_t kListingLimit = size_t(64) << 20;

// "//## File "m.ll", line 12" (with -g; "inlined at …" may follow: the first place is the
// instruction's own).
bool readMark(std::string_view text, std::string& file, int& line) {
    constexpr std::string_view head = "//## File \"";
    if (!support::startsWith(text, head)) return false;
    text.remove_prefix(head.size());
    const auto quote = text.find('"');
    if (quote == std::string_view::npos) return false;
    file = std::string(text.substr(0, quote));
    text.remove_prefix(quote + 1);
    constexpr std::string_view lineWord = ", line ";
    if (!support::startsWith(text, lineWord)) return false;
    text.remove_prefix(lineWord.size());
    size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    long long n = 0;
    if (digits == 0 || !support::parseInt(text.substr(0, digits), n)) return false;
    line = int(n);
    return true;
}

// "/*0070*/   IMAD R5, R7, R7, RZ ;" -> "IMAD R5, R7, R7, RZ": no offset, control codes or comments.
bool readInstruction(std::string_view text, std::string& code, std::string& offset) {
    auto row = splitSassRow(text);
    if (row.kind != SassRow::Kind::Instruction) return false;
    offset = std::move(row.offset);
    std::string_view c = row.instruction;
    if (!c.empty() && c.back() == ';') c = support::trim(c.substr(0, c.size() - 1));
    if (c.empty()) return false;
    code = std::string(c);
    return true;
}

// "        .type           k,@function" -> "k"
std::optional<std::string> functionType(std::string_view text) {
    if (!support::startsWith(text, ".type")) return std::nullopt;
    text = support::trim(text.substr(5));
    constexpr std::string_view tail = ",@function";
    if (text.size() <= tail.size() || text.substr(text.size() - tail.size()) != tail) return std::nullopt;
    return std::string(support::trim(text.substr(0, text.size() - tail.size())));
}

}  // namespace

namespace {

std::vector<std::string> flagsOf(Listing what) {
    switch (what) {
        case Listing::Plain:
            return {"-c"};
        case Listing::LineInfo:
            return {"-c", "-g"};
        case Listing::LiveRanges:
            return {"-c", "-lrm", "count"};
        case Listing::BasicBlocks:
            return {"-bbcfg"};
    }
    return {"-c"};
}

DisassemblyRun runOn(const fs::path& nvdisasm, const fs::path& input, Listing what,
                     const std::vector<unsigned>& functions = {}) {
    support::Stopwatch watch;
    DisassemblyRun out;
    const auto flags = flagsOf(what);
    out.command = "nvdisasm " + support::join(flags, " ");
    std::vector<std::string> args{nvdisasm.string()};
    args.insert(args.end(), flags.begin(), flags.end());
    if (!functions.empty()) {
        std::vector<std::string> indices;
        for (auto f : functions) indices.push_back(std::to_string(f));
        args.push_back("-fun");
        args.push_back(support::join(indices, ","));
    }
    args.push_back(input.string());
    auto ran = support::runProcess(args, kListingLimit);
    if (ran.status == 0) {
        out.ok = true;
        out.text = std::move(ran.output);
    } else {
        const auto said = support::trim(ran.output);
        out.error = fmt::format("{} failed ({}): {}", out.command,
                                ran.status == -2 ? "ended by a signal" : fmt::format("status {}", ran.status),
                                said.empty() ? "it said nothing" : std::string(said));
    }
    out.seconds = watch.seconds();
    return out;
}

// Below this much code a listing is not split: each nvdisasm run starts in about 0.3 s whatever
// it reads, so a part must have more to do than that.
constexpr unsigned long long kBytesPerPart = 48 << 10;
constexpr size_t kMostParts = 8;

// Little-endian reads that fail instead of reading past the end.
template <typename T>
bool readAt(std::string_view data, unsigned long long at, T& out) {
    if (at > data.size() || data.size() - at < sizeof(T)) return false;
    std::memcpy(&out, data.data() + at, sizeof(T));
    return true;
}

// A live-range or graph run as parts side by side (see disassembleEach).
DisassemblyRun runInParts(const fs::path& nvdisasm, const fs::path& input, Listing what,
                          const std::vector<std::vector<unsigned>>& groups) {
    if (groups.size() < 2) return runOn(nvdisasm, input, what);
    support::Stopwatch watch;
    std::vector<DisassemblyRun> runs(groups.size());
    std::vector<std::thread> others;
    for (size_t i = 1; i < groups.size(); ++i)
        others.emplace_back([&, i] { runs[i] = runOn(nvdisasm, input, what, groups[i]); });
    runs[0] = runOn(nvdisasm, input, what, groups[0]);
    for (auto& t : others) t.join();
    DisassemblyRun out;
    out.command = runs[0].command;
    out.parts = int(groups.size());
    out.ok = true;
    size_t size = 0;
    for (const auto& r : runs) size += r.text.size();
    out.text.reserve(size);
    for (auto& r : runs) {
        if (!r.ok) {
            out.ok = false;
            out.text.clear();
            out.error = r.error;
            break;
        }
        out.text += r.text;
    }
    out.seconds = watch.seconds();
    return out;
}

}  // namespace

std::vector<CodeSection> codeSections(std::string_view cubin) {
    // ELF64, little-endian: the section headers, their names, then .symtab's function symbols.
    if (cubin.size() < 64 ||
        cubin.substr(0, 4) !=
            "\x7f"
            "ELF" ||
        cubin[4] != 2 || cubin[5] != 1)
        return {};
    uint64_t shoff = 0;
    uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
    if (!readAt(cubin, 0x28, shoff) || !readAt(cubin, 0x3a, shentsize) || !readAt(cubin, 0x3c, shnum) ||
        !readAt(cubin, 0x3e, shstrndx) || shentsize < 64 || shstrndx >= shnum)
        return {};
    struct Section {
        uint32_t name = 0, type = 0, link = 0;
        uint64_t offset = 0, size = 0, entsize = 0;
    };
    std::vector<Section> sections(shnum);
    for (unsigned i = 0; i < shnum; ++i) {
        const uint64_t at = shoff + uint64_t(i) * shentsize;
        auto& s = sections[i];
        if (!readAt(cubin, at, s.name) || !readAt(cubin, at + 4, s.type) || !readAt(cubin, at + 0x18, s.offset) ||
            !readAt(cubin, at + 0x20, s.size) || !readAt(cubin, at + 0x28, s.link) ||
            !readAt(cubin, at + 0x38, s.entsize))
            return {};
    }
    auto nameOf = [&](const Section& table, uint32_t at) -> std::string_view {
        if (table.offset > cubin.size() || at >= table.size || table.size > cubin.size() - table.offset) return {};
        const auto text = cubin.substr(table.offset + at, table.size - at);
        return text.substr(0, text.find('\0'));
    };
    std::vector<bool> code(shnum);
    for (unsigned i = 0; i < shnum; ++i)
        code[i] = support::startsWith(nameOf(sections[shstrndx], sections[i].name), ".text.");
    constexpr uint32_t kSymtab = 2;
    constexpr uint8_t kFunc = 2;
    std::vector<CodeSection> out;
    std::vector<bool> seen(shnum);
    for (const auto& table : sections) {
        if (table.type != kSymtab || table.entsize < 24) continue;
        for (uint64_t i = 0; i < table.size / table.entsize; ++i) {
            const uint64_t at = table.offset + i * table.entsize;
            uint8_t info = 0;
            uint16_t shndx = 0;
            if (!readAt(cubin, at + 4, info) || !readAt(cubin, at + 6, shndx)) return {};
            if ((info & 0xf) != kFunc || shndx >= shnum || !code[shndx] || seen[shndx]) continue;
            seen[shndx] = true;
            out.push_back({unsigned(i), sections[shndx].size});
        }
    }
    return out;
}

std::vector<std::vector<unsigned>> splitSections(std::vector<CodeSection> sections, size_t parts) {
    parts = std::max<size_t>(1, std::min(parts, sections.size()));
    std::stable_sort(sections.begin(), sections.end(),
                     [](const CodeSection& a, const CodeSection& b) { return a.bytes > b.bytes; });
    std::vector<std::vector<unsigned>> groups(parts);
    std::vector<unsigned long long> load(parts);
    for (const auto& s : sections) {
        const size_t lightest = size_t(std::min_element(load.begin(), load.end()) - load.begin());
        groups[lightest].push_back(s.symbol);
        load[lightest] += s.bytes;
    }
    for (auto& g : groups) std::sort(g.begin(), g.end());
    groups.erase(std::remove_if(groups.begin(), groups.end(), [](const auto& g) { return g.empty(); }), groups.end());
    return groups;
}

DisassemblyRun disassemble(const fs::path& nvdisasm, std::string_view cubin, Listing what) {
    return std::move(disassembleEach(nvdisasm, cubin, {what}).front());
}

std::vector<DisassemblyRun> disassembleEach(const fs::path& nvdisasm, std::string_view cubin,
                                            const std::vector<Listing>& what) {
    support::Stopwatch watch;
    std::vector<DisassemblyRun> out(what.size());
    for (size_t i = 0; i < what.size(); ++i) out[i].command = "nvdisasm " + support::join(flagsOf(what[i]), " ");
    auto failAll = [&](const std::string& why) {
        for (auto& run : out) {
            run.error = why;
            run.seconds = watch.seconds();
        }
        return out;
    };
    std::error_code ec;
    std::string pattern = (fs::temp_directory_path(ec) / "nvpg-nvdisasm-XXXXXX").string();
    if (ec || !::mkdtemp(pattern.data()))
        return failAll(fmt::format("cannot make a temporary folder for nvdisasm in {}: {}",
                                   fs::path(pattern).parent_path().string(), std::strerror(errno)));
    const fs::path dir = pattern;
    const fs::path input = dir / "program.cubin";
    if (auto st = support::writeFileAtomic(input, cubin); !st) {
        failAll(st.error().message);
    } else {
        // The live ranges and the graph in parts when there is enough code for each and cores
        // free for them.
        auto splits = [](Listing l) { return l == Listing::LiveRanges || l == Listing::BasicBlocks; };
        const size_t split = size_t(std::count_if(what.begin(), what.end(), splits));
        std::vector<std::vector<unsigned>> groups;
        if (split > 0) {
            const auto sections = codeSections(cubin);
            unsigned long long bytes = 0;
            for (const auto& s : sections) bytes += s.bytes;
            const size_t cores = std::max(1u, std::thread::hardware_concurrency());
            const size_t whole = what.size() - split;  // runs of one part each
            const size_t free = cores > whole ? (cores - whole) / split : 1;
            const size_t parts = std::min({free, kMostParts, size_t(bytes / kBytesPerPart)});
            if (parts >= 2) groups = splitSections(sections, parts);
        }
        auto runOne = [&](size_t i) {
            out[i] = splits(what[i]) ? runInParts(nvdisasm, input, what[i], groups) : runOn(nvdisasm, input, what[i]);
        };
        // The first on this thread, the others beside it.
        std::vector<std::thread> others;
        for (size_t i = 1; i < what.size(); ++i) others.emplace_back([&, i] { runOne(i); });
        if (!what.empty()) runOne(0);
        for (auto& t : others) t.join();
    }
    fs::remove_all(dir, ec);
    return out;
}

SassListing readSass(std::string_view text) {
    SassListing out;
    std::string file;
    int sourceLine = 0;
    std::string lastLabel;             // the label on the line just before, when there was one
    size_t padding = 0;                // the current function's trailing run of padding instructions
    size_t current = SIZE_MAX;         // index into out.functions; SIZE_MAX: none
    bool inCode = false;               // inside a .text section
    std::vector<std::string> entries;  // `.other NAME,@"STO_CUDA_ENTRY …"`
    auto closeFunction = [&] {
        // A section ends with padding to its alignment: a branch to itself and NOPs.
        if (current != SIZE_MAX) out.functions[current].instructions -= int(padding);
        padding = 0;
        current = SIZE_MAX;
    };
    int lineNo = 0;
    for (auto raw : support::splitLines(text)) {
        ++lineNo;
        const auto line = support::trim(raw);
        if (line.empty()) continue;
        if (support::startsWith(line, "//---------------------")) {
            closeFunction();
            inCode = line.find(" .text.") != std::string_view::npos;
            file.clear();
            sourceLine = 0;
            lastLabel.clear();
            continue;
        }
        if (!inCode) continue;
        if (auto name = functionType(line)) {
            closeFunction();
            out.functions.push_back({*name, 0, false});
            current = out.functions.size() - 1;
            lastLabel.clear();
            continue;
        }
        if (support::startsWith(line, ".other") && line.find("STO_CUDA_ENTRY") != std::string_view::npos) {
            auto name = support::trim(line.substr(6));
            entries.emplace_back(support::trim(name.substr(0, name.find(','))));
            continue;
        }
        if (std::string f; readMark(line, f, sourceLine)) {
            file = std::move(f);
            continue;
        }
        std::string code, offset;
        if (readInstruction(line, code, offset)) {
            if (current == SIZE_MAX) {  // code before any function header: keep it, under the section
                out.functions.push_back({"", 0, false});
                current = out.functions.size() - 1;
            }
            const bool selfBranch = !lastLabel.empty() && code == "BRA `(" + lastLabel + ")";
            padding = (code == "NOP" || selfBranch) ? padding + 1 : 0;
            ++out.functions[current].instructions;
            out.instructions.push_back(
                {lineNo, out.functions[current].name, std::move(offset), std::move(code), file, sourceLine});
            lastLabel.clear();
            continue;
        }
        if (line.back() == ':' && line.find(' ') == std::string_view::npos) {
            lastLabel = std::string(line.substr(0, line.size() - 1));
            continue;
        }
        lastLabel.clear();
    }
    closeFunction();
    for (auto& f : out.functions)
        for (const auto& e : entries) f.isEntry = f.isEntry || f.name == e;
    return out;
}

}  // namespace nvpg::inspect
