#include "core/lto/DroppedKernels.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/nvvm/IrScan.h"
#include "core/support/Text.h"

namespace nvpg::lto {

namespace {

std::string symbol(const std::string& name) {
    const bool plain = std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
    });
    return plain && !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) ? "@" + name
                                                                                        : "@\"" + name + "\"";
}

// The start and end of the warning's first words around the kernel's name: droppedKernels reads
// them back.
constexpr std::string_view kDroppedBefore = "kernel '";
constexpr std::string_view kDroppedAfter = "' is in the PTX but not in the LTO-linked PTX: ";

}  // namespace

std::string llvmUsedEntry(const std::string& kernel, const std::vector<std::string>& paramTypes, bool opaquePointers) {
    if (opaquePointers) return "ptr " + symbol(kernel);
    return fmt::format("i8* bitcast (void ({})* {} to i8*)", support::join(paramTypes, ", "), symbol(kernel));
}

std::string llvmUsedLine(const std::vector<UsedKernel>& kernels, bool opaquePointers) {
    std::vector<std::string> entries;
    for (const auto& k : kernels) entries.push_back(llvmUsedEntry(k.name, k.paramTypes, opaquePointers));
    return fmt::format("@llvm.used = appending global [{} x {}] [{}], section \"llvm.metadata\"", entries.size(),
                       opaquePointers ? "ptr" : "i8*", support::join(entries, ", "));
}

std::string llvmUsedLine(const std::string& kernel, const std::vector<std::string>& paramTypes, bool opaquePointers) {
    return llvmUsedLine(std::vector<UsedKernel>{{kernel, paramTypes}}, opaquePointers);
}

std::optional<std::string> withLlvmUsedEntries(std::string_view line, const std::vector<std::string>& entries) {
    // `[N x T] [init]`: N is the first bracket's count, init the bracket group after it.
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    const auto open = line.find('[', eq);
    if (open == std::string_view::npos) return std::nullopt;
    size_t digitsEnd = open + 1;
    while (digitsEnd < line.size() && std::isdigit(static_cast<unsigned char>(line[digitsEnd]))) ++digitsEnd;
    if (digitsEnd == open + 1 || line.substr(digitsEnd, 3) != " x ") return std::nullopt;
    const auto typeEnd = line.find(']', digitsEnd);
    if (typeEnd == std::string_view::npos) return std::nullopt;
    const auto init = line.find('[', typeEnd);
    if (init == std::string_view::npos) return std::nullopt;
    int depth = 0;
    size_t close = init;
    for (; close < line.size(); ++close) {
        if (line[close] == '[') ++depth;
        if (line[close] == ']' && --depth == 0) break;
    }
    if (close == line.size()) return std::nullopt;
    const auto count = std::stoul(std::string(line.substr(open + 1, digitsEnd - open - 1)));
    const bool empty = line.find_first_not_of(' ', init + 1) == close;
    return std::string(line.substr(0, open + 1)) + std::to_string(count + entries.size()) +
           std::string(line.substr(digitsEnd, close - digitsEnd)) + (empty ? "" : ", ") + support::join(entries, ", ") +
           std::string(line.substr(close));
}

namespace {

// The fix for every kernel LTO dropped from text module `m`, in words; `edit` gets it as a Fix
// where one can be made.
std::string moduleFix(const nvvm::Module& m, const std::vector<UsedKernel>& kernels, std::optional<nvvm::Fix>& edit) {
    // A title is one line on a button: a few kernels by name, then a count (a module of 423
    // kernels made 423 buttons of 8 KB titles; the message lists every one).
    std::vector<std::string> at;
    for (const auto& k : kernels) at.push_back("@" + k.name);
    const std::string title = fmt::format("Add {} to @llvm.used", support::joinShort(at));
    const int count = int(support::splitLines(m.bytes).size());
    const bool opaque = nvvm::usesOpaquePointers(m.bytes);
    std::string names;
    for (const auto& k : kernels) names += (names.empty() ? "'" : ", '") + k.name + "'";
    const std::string all =
        kernels.size() > 1
            ? fmt::format("LTO dropped {} kernels of {} ({}) and one @llvm.used lists them all: ", kernels.size(),
                          m.name, names)
            : "";
    if (const auto usedAt = nvvm::llvmUsedLine(m.bytes)) {
        std::vector<std::string> entries;
        for (const auto& k : kernels) entries.push_back(llvmUsedEntry(k.name, k.paramTypes, opaque));
        std::string quoted;
        for (const auto& e : entries) quoted += (quoted.empty() ? "`" : ", `") + e + "`";
        const auto lines = support::splitLines(m.bytes);
        const auto corrected = size_t(*usedAt) <= lines.size()
                                   ? withLlvmUsedEntries(support::trim(lines[*usedAt - 1]), entries)
                                   : std::nullopt;
        if (corrected) {
            edit = nvvm::Fix{title, {{m.name, *usedAt, *usedAt + 1, *corrected + "\n"}}};
            edit->kind = std::string(nvvm::fixkind::kAddToLlvmUsed);
            return fmt::format("{}add {} to the @llvm.used array on line {} of {}, that is, replace that line by: {}",
                               all, quoted, *usedAt, m.name, *corrected);
        }
        return fmt::format("{}add {} to the @llvm.used array on line {} of {} and raise the array's length by {}", all,
                           quoted, *usedAt, m.name, entries.size());
    }
    edit = nvvm::Fix{title, {{m.name, count + 1, count + 1, llvmUsedLine(kernels, opaque) + "\n"}}};
    edit->kind = std::string(nvvm::fixkind::kAddToLlvmUsed);
    return fmt::format("{}add this line to {}: {}", all, m.name, llvmUsedLine(kernels, opaque));
}

}  // namespace

std::vector<nvvm::Diagnostic> droppedKernelWarnings(const std::vector<std::string>& ptxEntries,
                                                    const std::vector<std::string>& linkedEntries,
                                                    const std::vector<nvvm::Module>& modules) {
    // First place each dropped kernel on its definition, then give each module one fix.
    struct Dropped {
        std::string kernel;
        const nvvm::Module* module = nullptr;
        int line = 0;
        std::vector<std::string> paramTypes;
    };
    std::vector<Dropped> dropped;
    for (const auto& kernel : ptxEntries) {
        if (std::find(linkedEntries.begin(), linkedEntries.end(), kernel) != linkedEntries.end()) continue;
        Dropped d;
        d.kernel = kernel;
        for (const auto& m : modules) {
            if (m.isBitcode()) continue;
            for (const auto& f : nvvm::scanFunctions(m.bytes)) {
                if (!f.isDefinition || f.name != kernel) continue;
                d.module = &m;
                d.line = f.line;
                d.paramTypes = f.paramTypes;
                break;
            }
            if (d.module) break;
        }
        dropped.push_back(std::move(d));
    }
    std::vector<nvvm::Diagnostic> out;
    for (const auto& k : dropped) {
        nvvm::Diagnostic d;
        d.severity = nvvm::Severity::Warning;
        d.source = "nvpg";
        std::string fix;
        if (k.module) {
            d.module = k.module->name;
            d.line = k.line;
            d.column = 1;
            std::vector<UsedKernel> same;
            for (const auto& o : dropped)
                if (o.module == k.module) same.push_back({o.kernel, o.paramTypes});
            std::optional<nvvm::Fix> edit;
            fix = moduleFix(*k.module, same, edit);
            if (edit) d.fixes.push_back(std::move(*edit));
        } else {
            fix = fmt::format("add the kernel to @llvm.used, e.g. {}",
                              llvmUsedLine(k.kernel, {"<the kernel's parameter types>"}, false));
        }
        d.message = fmt::format(
            "{}{}{}nvJitLink's LTO keeps only "
            "kernels listed in @llvm.used, and libNVVM and nvJitLink both report success while "
            "dropping the rest; {}",
            kDroppedBefore, k.kernel, kDroppedAfter, fix);
        out.push_back(std::move(d));
    }
    return out;
}

std::vector<std::string> droppedKernels(const std::vector<nvvm::Diagnostic>& diagnostics) {
    std::vector<std::string> out;
    for (const auto& d : diagnostics) {
        if (d.source != "nvpg" || d.severity != nvvm::Severity::Warning) continue;
        const std::string_view m = d.message;
        if (!support::startsWith(m, kDroppedBefore)) continue;
        const auto end = m.find(kDroppedAfter, kDroppedBefore.size());
        if (end == std::string_view::npos) continue;
        out.emplace_back(m.substr(kDroppedBefore.size(), end - kDroppedBefore.size()));
    }
    return out;
}

}  // namespace nvpg::lto
