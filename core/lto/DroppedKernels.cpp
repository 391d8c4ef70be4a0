#include "lto/DroppedKernels.h"

#include <algorithm>

#include <fmt/format.h>

#include "nvvm/IrScan.h"
#include "support/Text.h"

namespace nvpg::lto {

namespace {

std::string symbol(const std::string& name) {
    const bool plain = std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
    });
    return plain && !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]))
               ? "@" + name
               : "@\"" + name + "\"";
}

// The start and end of the warning's first words around the kernel's name: droppedKernels reads
// them back.
constexpr std::string_view kDroppedBefore = "kernel '";
constexpr std::string_view kDroppedAfter = "' is in the PTX but not in the LTO-linked PTX: ";

}  // namespace

std::string llvmUsedEntry(const std::string& kernel, const std::vector<std::string>& paramTypes,
                          bool opaquePointers) {
    if (opaquePointers) return "ptr " + symbol(kernel);
    return fmt::format("i8* bitcast (void ({})* {} to i8*)", support::join(paramTypes, ", "), symbol(kernel));
}

std::string llvmUsedLine(const std::string& kernel, const std::vector<std::string>& paramTypes,
                         bool opaquePointers) {
    return fmt::format("@llvm.used = appending global [1 x {}] [{}], section \"llvm.metadata\"",
                       opaquePointers ? "ptr" : "i8*", llvmUsedEntry(kernel, paramTypes, opaquePointers));
}

std::vector<nvvm::Diagnostic> droppedKernelWarnings(const std::vector<std::string>& ptxEntries,
                                                    const std::vector<std::string>& linkedEntries,
                                                    const std::vector<nvvm::Module>& modules) {
    std::vector<nvvm::Diagnostic> out;
    for (const auto& kernel : ptxEntries) {
        if (std::find(linkedEntries.begin(), linkedEntries.end(), kernel) != linkedEntries.end())
            continue;
        nvvm::Diagnostic d;
        d.severity = nvvm::Severity::Warning;
        d.source = "nvpg";
        std::string fix;
        for (const auto& m : modules) {
            if (m.isBitcode()) continue;
            for (const auto& f : nvvm::scanFunctions(m.bytes)) {
                if (!f.isDefinition || f.name != kernel) continue;
                d.module = m.name;
                d.line = f.line;
                d.column = 1;
                const auto usedAt = nvvm::llvmUsedLine(m.bytes);
                const bool opaque = nvvm::usesOpaquePointers(m.bytes);
                if (usedAt)
                    fix = fmt::format(
                        "add `{}` to the @llvm.used array on line {} of {} and raise the array's "
                        "length by one",
                        llvmUsedEntry(kernel, f.paramTypes, opaque), *usedAt, m.name);
                else
                    fix = fmt::format("add this line to {}: {}", m.name,
                                      llvmUsedLine(kernel, f.paramTypes, opaque));
                break;
            }
            if (!d.module.empty()) break;
        }
        if (fix.empty())
            fix = fmt::format("add the kernel to @llvm.used, e.g. {}",
                              llvmUsedLine(kernel, {"<the kernel's parameter types>"}, false));
        d.message = fmt::format(
            "{}{}{}nvJitLink's LTO keeps only "
            "kernels listed in @llvm.used, and libNVVM and nvJitLink both report success while "
            "dropping the rest; {}",
            kDroppedBefore, kernel, kDroppedAfter, fix);
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
