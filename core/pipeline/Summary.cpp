#include "core/pipeline/Summary.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/lto/DroppedKernels.h"
#include "core/lto/Linker.h"
#include "core/support/Symbols.h"
#include "core/support/Text.h"

namespace nvpg::pipeline {

namespace {

constexpr std::string_view kSep = " · ";

std::string bytes(uint64_t n) {
    return support::formatBytes(n);
}

std::string firstLine(std::string_view s) {
    return std::string(s.substr(0, s.find('\n')));
}

// A kernel's name in a header: readable (support::readableName) and cut as every name is
// (support::elideName), short enough that a header line never needs more width than a pane has;
// numba's symbols are 200-300 characters.
constexpr size_t kHeaderNameColumns = 48;
std::string headerName(std::string_view symbol, bool raw) {
    return support::elideName(support::readableName(symbol, raw), kHeaderNameColumns);
}

// A tooltip's lines for a kernel: its readable name whole, then the symbol where they differ.
std::string tipName(std::string_view symbol) {
    const auto readable = support::readableName(symbol);
    return readable == symbol ? readable : fmt::format("{}\n  symbol: {}", readable, symbol);
}

std::string shortFigures(const ptx::ResourceUsage& u) {
    std::string s = fmt::format("{} regs", u.registers);
    if (u.spillStores == 0 && u.spillLoads == 0) return s + ", 0 spill";
    return s + fmt::format(", spill {} st / {} ld", bytes(uint64_t(u.spillStores)), bytes(uint64_t(u.spillLoads)));
}

std::string longFigures(const std::string& kernel, const ptx::ResourceUsage& u) {
    return fmt::format(
        "{}: {} registers, {} spill stores, {} spill loads, {} stack, {} shared, {} local, {} "
        "constant, {} barriers",
        kernel, u.registers, bytes(uint64_t(u.spillStores)), bytes(uint64_t(u.spillLoads)),
        bytes(uint64_t(u.stackFrame)), bytes(uint64_t(u.sharedBytes)), bytes(uint64_t(u.localBytes)),
        bytes(uint64_t(u.constBytes)), u.barriers);
}

// The kernels of a result that have figures in one output, with them.
using KernelFigures = std::vector<std::pair<std::string, ptx::ResourceUsage>>;

KernelFigures ptxKernelFigures(const CompileResult& r) {
    KernelFigures out;
    for (const auto& k : r.kernels)
        if (const auto* u = r.ptxFigures.find(k.name)) out.emplace_back(k.name, *u);
    return out;
}

KernelFigures ltoKernelFigures(const CompileResult& r) {
    KernelFigures out;
    for (const auto& k : r.kernels)
        if (k.usage) out.emplace_back(k.name, *k.usage);
    return out;
}

// A few kernels are listed in the header; with many it would wrap over several lines, so the
// header says the worst of them and the tooltip lists all.
std::string figuresSummary(const KernelFigures& withUsage, bool raw) {
    if (withUsage.empty()) return {};
    if (withUsage.size() <= 3) {
        std::vector<std::string> parts;
        for (const auto& [name, u] : withUsage)
            parts.push_back(fmt::format("{}: {}", headerName(name, raw), shortFigures(u)));
        return support::join(parts, "; ");
    }
    const auto most = std::max_element(withUsage.begin(), withUsage.end(), [](const auto& a, const auto& b) {
        return a.second.registers < b.second.registers;
    });
    const auto spilling = std::count_if(withUsage.begin(), withUsage.end(), [](const auto& k) {
        return k.second.spillStores > 0 || k.second.spillLoads > 0;
    });
    return fmt::format("{} kernels: up to {} regs ({}), {}", withUsage.size(), most->second.registers,
                       headerName(most->first, raw),
                       spilling == 0 ? std::string("none spilling") : fmt::format("{} spilling", spilling));
}

void appendFigures(const KernelFigures& figures, std::vector<std::string>& lines) {
    for (const auto& [name, u] : figures) lines.push_back(longFigures(tipName(name), u));
}

// The pane's table: every kernel of the output that ptxas measured, and where the figures are from.
FiguresTable figuresTable(const Figures& f, const KernelFigures& kernels) {
    FiguresTable t;
    if (f.source.empty() && f.unavailable.empty()) return t;
    t.caption = f.unavailable.empty() ? "Figures: " + f.source : "No figures: " + f.unavailable;
    t.columns = {"kernel", "regs", "spill st", "spill ld", "stack", "shared", "local", "const"};
    for (const auto& [name, u] : kernels)
        t.rows.push_back({name, std::to_string(u.registers), bytes(uint64_t(u.spillStores)),
                          bytes(uint64_t(u.spillLoads)), bytes(uint64_t(u.stackFrame)), bytes(uint64_t(u.sharedBytes)),
                          bytes(uint64_t(u.localBytes)), bytes(uint64_t(u.constBytes))});
    return t;
}

// nvJitLink optimises and generates code again when it links: what it was given, for the header.
std::string linkOptimisation(const CompileResult& r) {
    const auto shown = [](const std::string& f) { return !support::startsWith(f, "-arch=") && f != "-lto"; };
    const bool level = std::any_of(r.linkFlags.begin(), r.linkFlags.end(),
                                   [&](const std::string& f) { return shown(f) && support::startsWith(f, "-O"); });
    std::vector<std::string> given;
    if (!level) given.emplace_back("-O3 (its default)");
    for (const auto& f : r.linkFlags)
        if (shown(f)) given.push_back(f);
    return "nvJitLink optimises at link time: " + support::join(given, " ");
}

std::string linkOptionsExplained(const CompileResult& r) {
    std::vector<std::string> reaching;
    for (const auto& o : lto::linkOptions()) {
        std::string flag(o.flag);
        if (!flag.empty() && flag.back() == '=') flag.pop_back();
        reaching.push_back(flag == "-" + std::string(o.option) ? std::string(o.option)
                                                               : fmt::format("{} (as {})", o.option, flag));
    }
    return fmt::format(
        "nvJitLink optimises and generates code again when it links: the LTO output is not decided by the "
        "-gen-lto compile alone.\nThe options that reach nvJitLink: {}; the others act on -gen-lto only.\n"
        "-g and -lineinfo change the cubin (debug code, line tables), not the linked PTX, which carries the IR's "
        "own debug metadata.\nnvJitLink was given: {}",
        support::join(reaching, ", "), support::join(r.linkFlags, " "));
}

PaneSummary ptxPane(const CompileResult& r, bool rawNames) {
    PaneSummary pane;
    std::vector<std::string> head{"PTX"};
    std::vector<std::string> tip;
    if (!r.ptx.empty()) {
        head.push_back(bytes(r.ptx.size()));
        head.push_back(support::plural(r.kernels.size(), "kernel", "kernels"));
    }
    if (const auto* s = r.findStage(StageId::CompilePtx)) {
        std::string t = "libNVVM " + formatSeconds(s->seconds);
        // A cached result's times are those of the compile that made it, not of this request.
        if (r.fromCache)
            t += " (from cache)";
        else if (r.reusedProgram)
            t += " (program reused)";
        head.push_back(std::move(t));
    } else if (const auto* v = r.findStage(StageId::Verify)) {
        head.push_back("verify " + formatSeconds(v->seconds));
    }
    if (!r.arch.empty()) head.push_back(r.archSource.empty() ? r.arch : fmt::format("{} ({})", r.arch, r.archSource));
    if (!r.libdeviceFunctions.empty()) {
        head.push_back("libdevice: " + support::plural(r.libdeviceFunctions.size(), "function", "functions"));
        tip.push_back(fmt::format("libdevice functions linked ({}):", r.libdeviceFunctions.size()));
        for (size_t i = 0; i < r.libdeviceFunctions.size(); i += 4) {
            const auto end = std::min(r.libdeviceFunctions.size(), i + 4);
            tip.push_back(support::join(
                {r.libdeviceFunctions.begin() + long(i), r.libdeviceFunctions.begin() + long(end)}, ", "));
        }
    }
    // The PTX's own figures: ptxas' whole-program assembly of it, as the driver loads it.
    const auto figures = ptxKernelFigures(r);
    if (const auto fig = figuresSummary(figures, rawNames); !fig.empty()) {
        head.push_back(fig);
        tip.push_back(fmt::format("ptxas figures ({}, {}):", r.ptxFigures.source,
                                  formatSeconds(r.stageSeconds(StageId::AssembleCubin))));
        appendFigures(figures, tip);
    }
    pane.figures = figuresTable(r.ptxFigures, figures);
    pane.header = support::join(head, kSep);
    pane.toolTip = tip.empty() ? "libNVVM's PTX of the whole program" : support::join(tip, "\n");
    if (r.ptx.empty())
        pane.notice = !r.findStage(StageId::Verify) ? "No PTX: this compile did not ask for it."
                      : r.hasErrors() ? "No PTX: libNVVM's verifier found errors, so the IR was not compiled."
                                      : "Verify only: libNVVM's verifier ran; no PTX was generated.";
    return pane;
}

std::string ltoNotice(const CompileResult& r, std::string_view ltoUnavailable) {
    if (!r.linkedPtx.empty()) return {};
    const auto* linkPtx = r.findStage(StageId::LinkLtoPtx);
    const auto* linkCubin = r.findStage(StageId::LinkLtoCubin);
    const bool compiledLto = r.findStage(StageId::CompileLtoIr) || r.findStage(StageId::CompileLtoIrSeparate);
    auto firstError = [&](const char* source) -> std::string {
        for (const auto& d : r.diagnostics)
            if (d.severity == nvvm::Severity::Error && (!source || d.source == source))
                return ": " + firstLine(d.message);
        return {};
    };
    if (linkPtx)
        return fmt::format("nvJitLink could not link the LTO-IR to PTX{}. See Problems.", firstError("nvJitLink"));
    if (compiledLto && r.ltoIr.empty())
        return fmt::format("libNVVM could not compile the program to LTO-IR (-gen-lto){}. See Problems.",
                           firstError(nullptr));
    if (linkCubin)
        return fmt::format("The LTO link made a cubin ({}) but no linked PTX: it was not asked for.",
                           bytes(r.cubin.size()));
    if (!r.ltoIr.empty()) {
        uint64_t total = 0;
        for (const auto& b : r.ltoIr) total += b.bytes.size();
        return fmt::format(
            "LTO-IR only ({}): it was not linked. Export it with Export LTO-IR…, or ask for linked "
            "PTX, which "
            "needs nvJitLink.",
            bytes(total));
    }
    if (!ltoUnavailable.empty()) return std::string(ltoUnavailable);
    return "No LTO output: this compile made PTX only. The LTO-linked PTX and the cubin (with "
           "registers and "
           "spills per kernel) come from nvJitLink (libnvJitLink.so), which was not found. Install "
           "it, or point "
           "the CUDA path in Settings at a toolkit that has it.";
}

PaneSummary ltoPane(const CompileResult& r, const std::vector<std::string>& dropped, std::string_view ltoUnavailable,
                    bool rawNames) {
    PaneSummary pane;
    std::vector<std::string> head{"LTO"};
    std::vector<std::string> tip;
    const auto* linkPtx = r.findStage(StageId::LinkLtoPtx);
    const auto* linkCubin = r.findStage(StageId::LinkLtoCubin);
    const auto* compileLto = r.findStage(StageId::CompileLtoIr);
    if (!compileLto) compileLto = r.findStage(StageId::CompileLtoIrSeparate);
    if (!r.linkedPtx.empty()) head.push_back("linked PTX " + bytes(r.linkedPtx.size()));
    if (!r.cubin.empty()) head.push_back("cubin " + bytes(r.cubin.size()));
    if (compileLto)
        head.push_back(r.ltoIr.size() > 1
                           ? fmt::format("LTO-IR ({} modules) {}", r.ltoIr.size(), formatSeconds(compileLto->seconds))
                           : "LTO-IR " + formatSeconds(compileLto->seconds));
    if (linkPtx) head.push_back("link→PTX " + formatSeconds(linkPtx->seconds));
    if (linkCubin) head.push_back("link→cubin " + formatSeconds(linkCubin->seconds));
    if (linkCubin) {
        const auto figures = ltoKernelFigures(r);
        if (const auto fig = figuresSummary(figures, rawNames); !fig.empty()) {
            head.push_back(fig);
            tip.push_back("ptxas figures of the LTO cubin:");
            appendFigures(figures, tip);
        }
    }
    KernelFigures linked;
    for (const auto& u : r.ltoFigures.functions)
        if (u.isEntry) linked.emplace_back(u.function, u);
    pane.figures = figuresTable(r.ltoFigures, linked);
    if (!dropped.empty()) {
        std::vector<std::string> shortNames, tipNames;
        for (const auto& k : dropped) {
            shortNames.push_back(headerName(k, rawNames));
            tipNames.push_back(tipName(k));
        }
        // The header is a line of the pane: a few names (the tooltip has them all).
        head.push_back("dropped by LTO: " + support::joinShort(shortNames));
        tip.push_back("Not in the linked PTX (nvJitLink keeps only kernels named in @llvm.used): " +
                      support::join(tipNames, ", "));
    }
    if (!r.ltoIr.empty()) {
        tip.push_back("LTO-IR:");
        for (const auto& blob : r.ltoIr) tip.push_back(fmt::format("  {}: {}", blob.name, bytes(blob.bytes.size())));
    }
    if (!r.linkFlags.empty()) {
        head.push_back(linkOptimisation(r));
        tip.push_back(linkOptionsExplained(r));
    }
    if (head.size() == 1) head.push_back("not linked");
    pane.header = support::join(head, kSep);
    pane.toolTip = tip.empty() ? "nvJitLink's LTO link of the program's LTO-IR" : support::join(tip, "\n");
    pane.notice = ltoNotice(r, ltoUnavailable);
    return pane;
}

}  // namespace

std::string formatSeconds(double s) {
    if (s < 1) return fmt::format("{:.{}f} ms", s * 1000, s < 0.01 ? 2 : 1);
    return fmt::format("{:.2f} s", s);
}

ResultSummary summarizeResult(const CompileResult& r, std::string_view ltoUnavailable, bool rawNames) {
    ResultSummary out;
    out.droppedKernels = lto::droppedKernels(r.diagnostics);
    out.ptx = ptxPane(r, rawNames);
    out.lto = ltoPane(r, out.droppedKernels, ltoUnavailable, rawNames);
    return out;
}

namespace {

// libNVVM's verify and compile each parse the modules, link them into one, then verify or
// compile: which of those stopped, read from its first error ("parse expected type", "Linking
// globals named 'f': symbol multiply defined!"). Empty when it was the stage's own work.
std::string libnvvmStep(const CompileResult& r, StageId stage) {
    switch (stage) {
        case StageId::AddModules:
        case StageId::Verify:
        case StageId::CompilePtx:
        case StageId::CompileLtoIr:
        case StageId::CompileModuleLtoIr:
        case StageId::CompileLtoIrSeparate:
            break;
        default:
            return {};
    }
    for (const auto& d : r.diagnostics) {
        if (d.severity != nvvm::Severity::Error) continue;
        if (support::startsWith(d.message, "parse ")) return "parse IR";
        if (d.message.find("symbol multiply defined") != std::string::npos ||
            support::startsWith(d.message, "Linking ") || d.message.find("linking module") != std::string::npos)
            return "link modules";
        return {};
    }
    return {};
}

}  // namespace

std::optional<Failure> failureOf(const CompileResult& r) {
    if (r.ok || r.stages.empty()) return std::nullopt;
    Failure f;
    f.stage = r.stages.back().id;
    switch (f.stage) {
        case StageId::CompileLtoIr:
        case StageId::CompileModuleLtoIr:
        case StageId::CompileLtoIrSeparate:
        case StageId::LinkLtoPtx:
        case StageId::LinkLtoCubin:
            f.ltoPane = true;
            break;
        default:
            break;
    }
    // Parse and duplicate-symbol errors come from the verify (or compile) stage, but are not
    // the verifier's: the mark names the step that stopped.
    const auto step = libnvvmStep(r, f.stage);
    f.mark = fmt::format("{} failed", step.empty() ? stageName(f.stage) : std::string_view(step));
    return f;
}

std::string failureSummary(const CompileResult& r, bool pointAtProblems) {
    size_t errors = 0;
    const nvvm::Diagnostic* first = nullptr;
    for (const auto& d : r.diagnostics) {
        if (d.severity != nvvm::Severity::Error) continue;
        if (!first) first = &d;
        ++errors;
    }
    if (!first) return {};
    // libNVVM's compile of the PTX is "the compile"; a later stage is named.
    std::string what = "Compile";
    if (const auto f = failureOf(r); f && (f->ltoPane || isLinkStage(f->stage)))
        what = std::string(stageName(f->stage));
    if (const auto f = failureOf(r); f && !libnvvmStep(r, f->stage).empty()) what = libnvvmStep(r, f->stage);
    what[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(what[0])));
    return fmt::format("{} failed with {}{}: {}", what, support::plural(errors, "error", "errors"),
                       pointAtProblems ? " (see Problems)" : "", firstLine(nvvm::formatDiagnostic(*first)));
}

}  // namespace nvpg::pipeline
