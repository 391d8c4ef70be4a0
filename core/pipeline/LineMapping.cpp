#include "core/pipeline/LineMapping.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <exception>
#include <system_error>

#include <fmt/format.h>

#include "core/inspect/Sass.h"
#include "core/inspect/Twin.h"
#include "core/lto/Linker.h"
#include "core/nvvm/IrVersion.h"
#include "core/nvvm/Program.h"
#include "core/ptx/Ptx.h"
#include "core/ptx/Ptxas.h"
#include "core/support/Stopwatch.h"
#include "core/support/Text.h"

namespace nvpg::pipeline {

namespace {

constexpr const char* kStopped = "stopped";

// What libNVVM or nvJitLink said first, for a one-line reason.
std::string firstProblem(const std::vector<nvvm::Diagnostic>& diagnostics, const std::string& log) {
    for (const auto& d : diagnostics)
        if (d.severity == nvvm::Severity::Error)
            return d.module.empty() ? d.message : fmt::format("{}:{}: {}", d.module, d.line, d.message);
    const auto trimmed = support::trim(log);
    return trimmed.empty() ? std::string("no message") : std::string(trimmed.substr(0, trimmed.find('\n')));
}

std::unique_ptr<nvvm::Program> twinProgram(const toolkit::Toolkit& tk, const std::vector<nvvm::Module>& modules,
                                           const std::shared_ptr<const std::string>& libdevice, std::string& problem) {
    auto created = nvvm::Program::create(tk.nvvm());
    if (!created) {
        problem = created.error().message;
        return nullptr;
    }
    for (const auto& m : modules)
        if (auto st = (*created)->addModule(m); !st) {
            problem = fmt::format("libNVVM did not take the line-annotated twin of {}: {}", m.name, st.error().message);
            return nullptr;
        }
    if (libdevice) (*created)->useLibdevice(libdevice);
    return std::move(*created);
}

void compileTwinOrThrow(const Job& job, const nvvm::Options& options, const toolkit::Toolkit& tk,
                        const std::shared_ptr<const std::string>& libdevice, const std::atomic<bool>& stop,
                        TwinOutputs& out) {
    const auto version = nvvm::irVersionOf(tk);
    const auto tools = inspect::findBitcodeTools();
    std::vector<nvvm::Module> twins;
    for (const auto& m : job.modules) {
        inspect::MappedModule mapped{m.name, {}, {}};
        if (auto twin = inspect::makeTwin(m, version, tools)) {
            mapped.instructionLines = twin->instructionLines;
            for (const auto& [line, callee] : twin->calls)
                if (support::startsWith(callee, "__nv_")) out.calls.push_back({m.name, line, callee});
            twins.push_back(std::move(twin->module));
        } else {
            // Left plain: it still compiles with the others, its lines just have no locations.
            mapped.unmapped = twin.error().message;
            twins.push_back(m);
        }
        out.modules.push_back(std::move(mapped));
    }

    auto failAll = [&](const std::string& why) {
        if (out.ptxProblem.empty()) out.ptxProblem = why;
        if (out.linkedPtxProblem.empty()) out.linkedPtxProblem = why;
        if (out.sassProblem.empty()) out.sassProblem = why;
    };
    if (stop) return failAll(kStopped);
    nvvm::Options twinOptions = options;
    twinOptions.genLto = false;
    twinOptions.extraFlags.push_back("-generate-line-info");
    std::string problem;
    auto program = twinProgram(tk, twins, libdevice, problem);
    if (!program) return failAll(problem);
    auto c = program->compile(twinOptions);
    if (!c.ok) return failAll("libNVVM refused the line-annotated twin: " + firstProblem(c.diagnostics, c.log));
    out.ptx = std::move(c.result);

    std::string arch = options.arch.value_or("");
    if (arch.empty()) {
        const auto target = ptx::readPtx(out.ptx).target;
        if (support::startsWith(target, "sm_")) arch = "compute_" + target.substr(3);
    }
    const std::string smArch = nvvm::smArchFor(arch);
    const bool wantsLink = job.outputs & (kLtoPtx | kCubin);
    const bool wantsSass = job.outputs & kSass;

    std::string cubin;
    if (wantsLink && (job.outputs & (kLtoPtx | kSass))) {
        if (stop) return failAll(kStopped);
        nvvm::Options ltoOptions = twinOptions;
        ltoOptions.genLto = true;
        std::vector<std::pair<std::string, std::string>> blobs;
        if (job.ltoMode == lto::Mode::Program) {
            auto l = program->compile(ltoOptions);
            if (!l.ok)
                return failAll("libNVVM refused the line-annotated twin (-gen-lto): " +
                               firstProblem(l.diagnostics, l.log));
            blobs.emplace_back("program", std::move(l.result));
        } else {
            for (const auto& m : twins) {
                if (stop) return failAll(kStopped);
                nvvm::Module eager = m;
                eager.lazy = false;
                auto p = twinProgram(tk, {eager}, libdevice, problem);
                if (!p) return failAll(problem);
                auto l = p->compile(ltoOptions);
                if (!l.ok)
                    return failAll(fmt::format("libNVVM refused the line-annotated twin of {} (-gen-lto): {}", m.name,
                                               firstProblem(l.diagnostics, l.log)));
                blobs.emplace_back(m.name, std::move(l.result));
            }
        }
        std::vector<lto::LinkInput> inputs;
        for (const auto& [name, bytes] : blobs) inputs.push_back({name, bytes, NVJITLINK_INPUT_LTOIR});
        auto linkOptions = lto::linkOptionsFor(options);
        linkOptions.push_back("-lineinfo");
        if (job.outputs & kLtoPtx) {
            if (stop) return failAll(kStopped);
            auto l = lto::link(*tk.nvJitLink(), smArch, inputs, lto::LinkTarget::Ptx, linkOptions);
            if (l.ok)
                out.linkedPtx = std::move(l.ptx);
            else
                out.linkedPtxProblem =
                    "nvJitLink could not link the line-annotated twin: " + firstProblem(l.diagnostics, l.errorLog);
        }
        if (wantsSass) {
            if (stop) return failAll(kStopped);
            auto l = lto::link(*tk.nvJitLink(), smArch, inputs, lto::LinkTarget::Cubin, linkOptions);
            if (l.ok)
                cubin = std::move(l.cubin);
            else
                out.sassProblem = "nvJitLink could not link the line-annotated twin's cubin: " +
                                  firstProblem(l.diagnostics, l.errorLog);
        }
    } else if (wantsSass) {
        if (stop) return failAll(kStopped);
        if (const auto* ptxas = tk.ptxas()) {
            auto a = ptx::assembleWholeProgram(*ptxas, out.ptx, smArch, {"-lineinfo"});
            if (a.ok)
                cubin = std::move(a.cubin);
            else
                out.sassProblem =
                    "ptxas could not assemble the line-annotated twin's PTX: " + std::string(support::trim(a.error));
        } else {
            out.sassProblem = "no SASS: " + tk.ptxasReport().problem;
        }
    }
    if (wantsSass && out.sassProblem.empty()) {
        if (stop) return failAll(kStopped);
        if (const auto* nvdisasm = tk.nvdisasm()) {
            auto d = inspect::disassemble(*nvdisasm, cubin, inspect::Listing::LineInfo);
            if (d.ok)
                out.sass = std::move(d.text);
            else
                out.sassProblem = "nvdisasm could not disassemble the line-annotated twin's cubin: " + d.error;
        } else {
            out.sassProblem = tk.nvdisasmReport().problem;  // one sentence that says it all
        }
    }
}

}  // namespace

TwinOutputs compileTwin(const Job& job, const nvvm::Options& options, const toolkit::Toolkit& toolkit,
                        std::shared_ptr<const std::string> libdevice, const std::atomic<bool>& stop) {
    support::Stopwatch watch;
    TwinOutputs out;
    try {
        compileTwinOrThrow(job, options, toolkit, libdevice, stop, out);
        out.complete = !stop;
    } catch (const std::exception& e) {
        // Out of memory, most likely: the plain result stands, the map says so.
        const std::string why = fmt::format("the line-annotated compile failed: {}", e.what());
        out.ptxProblem = out.linkedPtxProblem = out.sassProblem = why;
    }
    out.seconds = watch.seconds();
    return out;
}

inspect::LineMap buildLineMap(const Job& job, const nvvm::Options& options, const CompileResult& plain,
                              const TwinOutputs& twin) {
    support::Stopwatch watch;
    inspect::LineMap map;
    map.modules = twin.modules;
    // The twin gives the plain instructions only where libNVVM optimises both alike: at -opt=0
    // (and with -g's debug sections) the two may differ, and the map's message says why.
    std::string hint;
    if (options.opt && *options.opt == 0) hint = " at -opt=0";
    if (options.debug) hint += " with -g";

    if (plain.ptx.empty())
        map.ptx.unavailable = "no PTX in this job";
    else if (!twin.ptxProblem.empty())
        map.ptx.unavailable = twin.ptxProblem;
    else
        map.ptx = inspect::mapPtx(plain.ptx, twin.ptx, map.modules, "PTX", hint);

    if (!(job.outputs & kLtoPtx))
        map.ltoPtx.unavailable = "no LTO link in this job";
    else if (plain.linkedPtx.empty())
        map.ltoPtx.unavailable = "the plain LTO link gave no PTX";
    else if (!twin.linkedPtxProblem.empty())
        map.ltoPtx.unavailable = twin.linkedPtxProblem;
    else
        map.ltoPtx = inspect::mapPtx(plain.linkedPtx, twin.linkedPtx, map.modules, "LTO PTX", hint);

    if (!(job.outputs & kSass))
        map.sass.unavailable = "no SASS in this job";
    else if (plain.sass.empty())
        map.sass.unavailable = plain.sassUnavailable.empty() ? std::string("no SASS in the plain result")
                                                             : "no SASS: " + plain.sassUnavailable;
    else if (!twin.sassProblem.empty())
        map.sass.unavailable = twin.sassProblem;
    else
        map.sass = inspect::mapSass(plain.sass, twin.sass, map.modules);

    inspect::addLibdeviceExpansions(map, twin.calls);
    map.seconds = twin.seconds + watch.seconds();
    return map;
}

inspect::LineMap unavailableLineMap(const Job& job, const std::string& why) {
    inspect::LineMap map;
    for (const auto& m : job.modules) map.modules.push_back({m.name, {}, {}});
    for (const auto which : inspect::kMappedOutputs) map.output(which).unavailable = why;
    return map;
}

TwinCompile::TwinCompile(Job job, nvvm::Options options, const toolkit::Toolkit& toolkit,
                         std::shared_ptr<const std::string> libdevice)
    : job_(std::move(job)), options_(std::move(options)) {
    auto work = [this, &toolkit, libdevice] {
        // Linux gives each thread its own nice value: this one yields the CPU to the plain job.
        ::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), kTwinNiceness);
        outputs_ = compileTwin(job_, options_, toolkit, libdevice, stop_);
    };
    try {
        thread_ = std::thread(work);
    } catch (const std::system_error&) {
        // No thread to be had (a limit on threads): the twin compiles in join(), after the plain job.
        deferred_ = [this, &toolkit, libdevice] { outputs_ = compileTwin(job_, options_, toolkit, libdevice, stop_); };
    }
}

TwinCompile::~TwinCompile() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
}

const TwinOutputs& TwinCompile::join() {
    if (thread_.joinable()) thread_.join();
    if (deferred_) {
        auto run = std::move(deferred_);
        deferred_ = nullptr;
        run();
    }
    return outputs_;
}

}  // namespace nvpg::pipeline
