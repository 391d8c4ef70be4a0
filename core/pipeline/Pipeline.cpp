#include "core/pipeline/Pipeline.h"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <exception>
#include <future>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "core/gpu/DeviceCache.h"
#include "core/gpu/Devices.h"
#include "core/inspect/Pitfalls.h"
#include "core/inspect/Sass.h"
#include "core/inspect/Twin.h"
#include "core/lto/DroppedKernels.h"
#include "core/lto/Linker.h"
#include "core/nvvm/IrVersion.h"
#include "core/nvvm/Libdevice.h"
#include "core/pipeline/LineMapping.h"
#include "core/ptx/Ptxas.h"
#include "core/support/Stopwatch.h"
#include "core/support/Text.h"
#include "core/support/ThreadPool.h"

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::pipeline {

std::string programKey(const Job& job) {
    XXH3_state_t* st = XXH3_createState();
    XXH3_128bits_reset(st);
    auto feed = [&](std::string_view s) {
        const uint64_t n = s.size();
        XXH3_128bits_update(st, &n, sizeof n);
        XXH3_128bits_update(st, s.data(), s.size());
    };
    for (const auto& m : job.modules) {
        feed(m.name);
        feed(m.bytes);
        feed(m.lazy ? "lazy" : "eager");
    }
    feed(job.libdevice ? "libdevice" : "-");
    const XXH128_hash_t h = XXH3_128bits_digest(st);
    XXH3_freeState(st);
    return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

Pipeline::Pipeline(std::shared_ptr<const toolkit::Toolkit> toolkit) : toolkit_(std::move(toolkit)) {}

void Pipeline::reset() {
    program_.reset();
    programKey_.clear();
    ltoProgram_.reset();
    ltoProgramKey_.clear();
}

Pipeline::ArchChoice Pipeline::chooseArch(const Job& job) {
    if (job.options.arch) return {job.options.arch, "options"};
    if (!job.archFromGpu) return {std::nullopt, "libNVVM default"};
    // Asking the driver costs a cuInit (about 220 ms on an H200 machine): its answer is kept in
    // the GPU cache file for every later process, and once per Pipeline is enough in this one.
    if (!gpuArch_) {
        gpuArch_ = ArchChoice{std::nullopt, "libNVVM default (no GPU)"};
        if (auto gpus = gpu::localGpus(*toolkit_); gpus) {
            const auto& d = gpus->devices.front();
            if (auto a = nvvm::archForComputeCapability(d.ccMajor, d.ccMinor, [this] { return toolkit_->cudaMajor(); }))
                gpuArch_ = ArchChoice{a, fmt::format("local GPU {} (sm_{}{})", d.name, d.ccMajor, d.ccMinor)};
        }
    }
    return *gpuArch_;
}

namespace {

// Adds the job's modules to a new Program; failures become diagnostics.
std::unique_ptr<nvvm::Program> buildProgram(const toolkit::NvvmApi& api, const std::vector<nvvm::Module>& modules,
                                            std::shared_ptr<const std::string> libdevice,
                                            std::vector<nvvm::Diagnostic>& diags,
                                            const Pipeline::StageListener& stage) {
    auto created = nvvm::Program::create(api);
    if (!created) {
        diags.push_back({"", 0, 0, nvvm::Severity::Error, created.error().message});
        return nullptr;
    }
    auto program = std::move(*created);
    bool ok = true;
    for (const auto& m : modules) {
        stage({StageId::AddModule, m.name});
        if (auto st = program->addModule(m); !st) {
            diags.push_back({m.name, 0, 0, nvvm::Severity::Error, st.error().message});
            ok = false;
        }
    }
    if (libdevice) program->useLibdevice(std::move(libdevice));
    return ok ? std::move(program) : nullptr;
}

void append(std::vector<nvvm::Diagnostic>& to, const std::vector<nvvm::Diagnostic>& from) {
    to.insert(to.end(), from.begin(), from.end());
}

// A warning the verifier gave and the compile gives again is shown once.
void appendNew(std::vector<nvvm::Diagnostic>& to, const std::vector<nvvm::Diagnostic>& from) {
    const auto known = to.size();
    for (const auto& d : from) {
        const auto same = [&](const nvvm::Diagnostic& e) {
            return e.module == d.module && e.line == d.line && e.column == d.column && e.severity == d.severity &&
                   e.message == d.message && e.source == d.source;
        };
        if (std::none_of(to.begin(), to.begin() + long(known), same)) to.push_back(d);
    }
}

// `functions` in the order of `kernels`; the others (device functions, kernels only the LTO
// link has) after them, as they were.
void orderLikeKernels(std::vector<ptx::ResourceUsage>& functions, const std::vector<Kernel>& kernels) {
    const auto rank = [&](const ptx::ResourceUsage& u) {
        for (size_t i = 0; i < kernels.size(); ++i)
            if (kernels[i].name == u.function) return i;
        return kernels.size();
    };
    std::stable_sort(functions.begin(), functions.end(),
                     [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
}

// `unresolved` (one error per function nothing defines) replaces what ptxas and nvJitLink said
// about those functions: one row per cause, on its call, and the result fails.
void failUnresolved(CompileResult& r, std::vector<nvvm::Diagnostic> unresolved) {
    if (unresolved.empty()) return;
    std::vector<std::string> names;
    for (const auto& d : unresolved)
        if (auto fn = lto::undefinedFunction(d.message)) names.push_back(*fn);
    const auto isConsequence = [&](const nvvm::Diagnostic& d) {
        const auto fn = lto::undefinedFunction(d.message);
        return fn && std::find(names.begin(), names.end(), *fn) != names.end();
    };
    bool linkSaidMore = false;
    for (const auto& d : r.diagnostics)
        if (d.source == "nvJitLink" && d.severity == nvvm::Severity::Error && !isConsequence(d) &&
            !support::startsWith(d.message, "ERROR NVJITLINK_ERROR_"))
            linkSaidMore = true;
    std::erase_if(r.diagnostics, [&](const nvvm::Diagnostic& d) {
        // nvJitLink's closing "ERROR NVJITLINK_ERROR_PTX_COMPILE: JIT the PTX" sums up the rows above it.
        return isConsequence(d) ||
               (!linkSaidMore && d.source == "nvJitLink" && support::startsWith(d.message, "ERROR NVJITLINK_ERROR_"));
    });
    // First: the cause of what follows.
    r.diagnostics.insert(r.diagnostics.begin(), unresolved.begin(), unresolved.end());
    r.ok = false;
}

}  // namespace

// The chains of a job that run side by side; each announces its stages on its lane.
enum class Lane { Ptx, Lto, Cubin };

// Hands the stage listener and the PTX listener one event at a time, whichever thread it comes
// from, and names with each stage the stages still running on the other lanes: a crash report
// then says everything the process was doing.
class Pipeline::Announcer {
public:
    explicit Announcer(const StageListener& to) : to_(to) {}
    void start(Lane lane, StageEvent event) {
        std::lock_guard lock(mu_);
        running_[size_t(lane)] = event.id;
        for (size_t i = 0; i < running_.size(); ++i)
            if (i != size_t(lane) && running_[i]) event.alongside.push_back(*running_[i]);
        if (to_) to_(event);
    }
    void end(Lane lane) {
        std::lock_guard lock(mu_);
        running_[size_t(lane)].reset();
    }
    void deliver(const std::function<void()>& f) {
        std::lock_guard lock(mu_);
        f();
    }

private:
    const StageListener& to_;
    std::mutex mu_;
    std::array<std::optional<StageId>, 3> running_;
};

// What the LTO chain made, for the PTX chain's thread to put into the result in stage order.
struct Pipeline::LtoChain {
    bool ok = false;  // the LTO-IR was made
    std::vector<nvvm::Diagnostic> diagnostics;
    Stage compileStage;
    std::vector<LtoIr> ltoIr;
    lto::LinkOutput ptxLink, cubinLink;
};

void Pipeline::runLtoChain(const Job& job, const nvvm::Options& ltoOptions, const std::vector<std::string>& linkOptions,
                           std::shared_ptr<const std::string> libdevice,
                           std::shared_future<std::optional<std::string>> smArch, bool cubinLink, Announcer& announce,
                           LtoChain& out, nvvm::Program* onThis) {
    const auto& tk = *toolkit_;
    const StageListener stage = [&](const StageEvent& event) { announce.start(Lane::Lto, event); };
    struct EndLane {
        Announcer& a;
        ~EndLane() { a.end(Lane::Lto); }
    } endLane{announce};
    if (job.ltoMode == lto::Mode::Program) {
        // A Program of its own, kept across jobs as the PTX's is: an options-only change adds
        // no module again, and its libdevice is added once, lazily, under its own lock.
        const auto key = programKey(job);
        if (!onThis && (!ltoProgram_ || key != ltoProgramKey_)) {
            ltoProgram_ = buildProgram(tk.nvvm(), job.modules, libdevice, out.diagnostics, stage);
            ltoProgramKey_ = ltoProgram_ ? key : std::string();
        }
        auto* program = onThis ? onThis : ltoProgram_.get();
        out.compileStage = {StageId::CompileLtoIr, 0};
        if (!program) return;
        stage({StageId::CompileLtoIr, {}});
        auto c = program->compile(ltoOptions);
        if (!c.ok) nvvm::nameModulesOfErrors(c, job.modules, tk.nvvm());
        out.compileStage.seconds = c.seconds;
        append(out.diagnostics, c.diagnostics);
        if (!c.ok) return;
        out.ltoIr.push_back({"program", std::move(c.result)});
    } else {
        support::Stopwatch watch;
        bool ok = true;
        for (const auto& m : job.modules) {
            // Alone in its Program a module has nothing to be lazy for, so it is added eagerly.
            nvvm::Module eager = m;
            eager.lazy = false;
            auto p = buildProgram(tk.nvvm(), {eager}, libdevice, out.diagnostics, stage);
            stage({StageId::CompileModuleLtoIr, m.name});
            if (!p) {
                ok = false;
                continue;
            }
            auto c = p->compile(ltoOptions);
            if (!c.ok) nvvm::nameModulesOfErrors(c, {eager}, tk.nvvm());
            append(out.diagnostics, c.diagnostics);
            if (!c.ok) {
                ok = false;
                continue;
            }
            out.ltoIr.push_back({m.name, std::move(c.result)});
        }
        out.compileStage = {StageId::CompileLtoIrSeparate, watch.seconds()};
        if (!ok) return;
    }
    out.ok = true;
    const bool ptxLink = job.outputs & kLtoPtx;
    if (!ptxLink && !cubinLink) return;
    const auto arch = smArch.get();
    if (!arch) return;  // the PTX failed: the job ends there
    std::vector<lto::LinkInput> inputs;
    for (const auto& blob : out.ltoIr) inputs.push_back({blob.name, blob.bytes, NVJITLINK_INPUT_LTOIR});
    // Two nvJitLink handles, side by side.
    std::optional<support::Beside> cubin;
    if (cubinLink)
        cubin.emplace([&] {
            announce.start(Lane::Cubin, {StageId::LinkLtoCubin, {}});
            out.cubinLink = lto::link(*tk.nvJitLink(), *arch, inputs, lto::LinkTarget::Cubin, linkOptions);
            announce.end(Lane::Cubin);
        });
    if (ptxLink) {
        stage({StageId::LinkLtoPtx, {}});
        out.ptxLink = lto::link(*tk.nvJitLink(), *arch, inputs, lto::LinkTarget::Ptx, linkOptions);
    }
    if (cubin) cubin->join();
}

namespace {

// Everything a job's map depends on beyond its Program: the flags, the outputs and how they are
// linked, and the tools that made them (one Pipeline has one toolkit, but the LLVM tools on
// PATH and what they can annotate may change).
std::string lineMapKey(const Job& job, const nvvm::Options& resolved, const toolkit::Toolkit& tk) {
    std::string key = programKey(job);
    for (const auto& f : resolved.flags()) key += '\0' + f;
    key += fmt::format("\1{}\1{}\1{}\1{}", job.outputs, lto::modeName(job.ltoMode), job.verify, tk.cudaMajor());
    const auto tools = inspect::findBitcodeTools();
    for (const auto* report : {&tk.nvvmReport(), &tk.nvJitLinkReport(), &tk.ptxasReport(), &tk.nvdisasmReport()})
        key += '\1' + report->path.string() + '\1' + report->version;
    return key + '\1' + tools.llvmDis + '\1' + tools.llvmAs;
}

}  // namespace

support::Result<CompileResult> Pipeline::run(const Job& job, const StageListener& onStage,
                                             const ResultListener& onPlain, const ResultListener& onPtx,
                                             const ResultListener& onSass) {
    PendingSass sass;
    std::optional<nvvm::Options> resolved;
    std::shared_ptr<const std::string> libdevice;
    // The PTX part's libNVVM messages are explained as the whole result's are.
    ResultListener ptxPart;
    if (onPtx)
        ptxPart = [&](const CompileResult& partial) {
            CompileResult explained = partial;
            inspect::explainPitfalls(explained.diagnostics, {job.modules, resolved ? *resolved : job.options,
                                                             job.libdevice, nvvm::irVersionOf(*toolkit_)});
            if (!job.verifyOnly)
                failUnresolved(explained,
                               inspect::unresolvedLibdeviceCalls(job.modules, explained.ptxModule, job.libdevice));
            onPtx(explained);
        };
    auto result = runPlain(
        job, onStage, &sass,
        [&](const nvvm::Options& options, std::shared_ptr<const std::string> ld) {
            resolved = options;
            libdevice = std::move(ld);
        },
        ptxPart);
    if (!result) return result;
    auto& plain = *result;
    // Known pitfalls, explained with a fix, for both front ends: this is their one compile path.
    inspect::explainPitfalls(plain.diagnostics, {job.modules, resolved ? *resolved : job.options, job.libdevice,
                                                 nvvm::irVersionOf(*toolkit_)});
    if (plain.ok && !plain.ptx.empty())
        append(plain.diagnostics, inspect::unannotatedKernels(job.modules, !plain.kernels.empty()));
    // One verdict for one input, whatever outputs a front end asked for: a libdevice function
    // nothing defines fails the program even where no link ran (the PTX alone cannot be loaded).
    if (!job.verifyOnly && (!plain.ptx.empty() || !plain.ltoIr.empty()))
        failUnresolved(plain, inspect::unresolvedLibdeviceCalls(job.modules, plain.ptxModule, job.libdevice));
    if (!plain.ok) {
        if (job.lineMap)
            plain.lineMap =
                std::make_shared<const inspect::LineMap>(unavailableLineMap(job, "the plain compile failed"));
        return result;
    }
    if (onPlain) onPlain(plain);

    // What comes after the plain result, side by side: the twin on a thread of its own (unless
    // its map is kept), the plain SASS on this one.
    std::unique_ptr<TwinCompile> twin;
    std::shared_ptr<const inspect::LineMap> kept;
    std::string key;
    if (job.lineMap && !job.verifyOnly && resolved) {
        key = lineMapKey(job, *resolved, *toolkit_);
        for (const auto& [k, map] : lineMaps_)
            if (k == key) kept = map;
        if (!kept) twin = std::make_unique<TwinCompile>(job, *resolved, *toolkit_, std::move(libdevice));
    }
    if (plain.sassPending) {
        if (onStage) onStage({StageId::Disassemble, {}});
        // The live registers and the graph come from runs of their own, beside the listing's and
        // on a thread of their own: the listing is told (onSass) as soon as it is read, and the
        // SASS pane does not wait for them.
        std::vector<inspect::Listing> analyses;
        if (job.outputs & kLiveRegisters) analyses.push_back(inspect::Listing::LiveRanges);
        if (job.outputs & kSassGraph) analyses.push_back(inspect::Listing::BasicBlocks);
        std::vector<inspect::DisassemblyRun> analysed;
        std::thread analysing;
        if (!analyses.empty())
            analysing =
                std::thread([&] { analysed = inspect::disassembleEach(*toolkit_->nvdisasm(), sass.cubin, analyses); });
        auto d =
            std::move(inspect::disassembleEach(*toolkit_->nvdisasm(), sass.cubin, {inspect::Listing::Plain}).front());
        plain.stages.push_back({StageId::Disassemble, d.seconds});
        inspect::SassListing listing;
        if (d.ok) {
            plain.sass = std::move(d.text);
            listing = inspect::readSass(plain.sass);
            plain.sassFunctions = listing.functions;
            plain.sassSource = d.command + " of " + sass.of;
        } else {
            plain.sassUnavailable = d.error;
        }
        plain.sassPending = false;
        if (d.ok && onSass) onSass(plain);
        if (analysing.joinable()) {
            if (d.ok && onStage) onStage({StageId::AnalyseSass, {}});
            analysing.join();
            double longest = 0;
            for (const auto& r : analysed) longest = std::max(longest, r.seconds);
            plain.stages.push_back({StageId::AnalyseSass, longest});
        }
        for (size_t i = 0; d.ok && i < analysed.size(); ++i) {
            auto& r = analysed[i];
            if (analyses[i] == inspect::Listing::LiveRanges) {
                auto live = r.ok ? inspect::readLiveRanges(r.text, listing)
                                 : support::Result<std::vector<inspect::LiveCount>>(
                                       support::makeError(support::ErrorKind::Internal, r.error));
                if (live)
                    plain.sassLive = std::move(*live);
                else
                    plain.sassLiveUnavailable = live.error().message;
            } else if (r.ok) {
                plain.sassGraph = std::move(r.text);
            } else {
                plain.sassGraphUnavailable = r.error;
            }
        }
    }
    if (!job.lineMap) return result;
    if (!kept && !twin) {
        kept = std::make_shared<const inspect::LineMap>(unavailableLineMap(job, "the job made no output to map"));
    } else if (!kept) {
        if (onStage) onStage({StageId::MapLines, {}});
        support::Stopwatch watch;
        const auto& outputs = twin->join();
        auto map = std::make_shared<const inspect::LineMap>(buildLineMap(job, twin->options(), plain, outputs));
        plain.stages.push_back({StageId::MapLines, watch.seconds()});
        // A twin that ran out of memory may do better next time.
        if (outputs.complete) {
            lineMaps_.emplace_back(key, map);
            if (lineMaps_.size() > kKeptLineMaps) lineMaps_.erase(lineMaps_.begin());
        }
        kept = std::move(map);
    }
    plain.lineMap = std::move(kept);
    return result;
}

// One plain job (Pipeline::runPlain) as its steps, one after the other, and what they share.
// Members go in reverse order: the LTO chain's thread (ltoThread) is waited for before what it
// writes (lto) and reads (options, libdevice, announce) goes, and the arch promise goes before
// that wait, so that a chain still waiting for the arch hears that none comes.
struct Pipeline::PlainRun {
    PlainRun(Pipeline& pipeline, const Job& job, const StageListener& onStage, PendingSass* sass,
             const OptionsListener& onOptions, const ResultListener& onPtx)
        : p(pipeline),
          job(job),
          tk(*pipeline.toolkit_),
          sass(sass),
          onOptions(onOptions),
          onPtx(onPtx),
          announce(onStage) {
        out.generation = job.generation;
    }
    PlainRun(const PlainRun&) = delete;
    PlainRun& operator=(const PlainRun&) = delete;

    support::Status check();
    void resolveOptions();
    bool prepareProgram();
    bool verify();
    void startLtoChain();
    bool compilePtx();
    void assemblePtx();
    void joinLtoChain();
    void warnNoPtxFigures();
    bool takeLtoIr();
    bool takePtxLink();
    bool takeCubinLink();
    void placeFigures();
    void pendSass();
    CompileResult done();

    void tellArch(std::optional<std::string> arch) {
        if (archTold) return;
        archTold = true;
        smArchOf.set_value(std::move(arch));
    }

    Pipeline& p;
    const Job& job;
    const toolkit::Toolkit& tk;
    PendingSass* sass;
    const OptionsListener& onOptions;
    const ResultListener& onPtx;
    Announcer announce;
    const StageListener stage = [this](const StageEvent& event) { announce.start(Lane::Ptx, event); };
    support::Stopwatch total;
    CompileResult out;
    std::shared_ptr<const std::string> libdevice;
    bool wantsPtx = false, wantsLto = false, wantsLink = false, wantsSass = false, wantsFigures = false,
         wantsCubinLink = false;
    nvvm::Options options;
    std::string smArch;  // the arch the PTX is for, and the links link for
    // The cubin the SASS is read from, what made it, and why there is none.
    std::string sassCubin, sassOf, sassWhy;
    std::vector<std::string> linkedEntries;
    bool linkedEntriesKnown = false;
    LtoChain lto;
    std::optional<support::Beside> ltoThread;
    // The link arch for the LTO chain: set once, empty when the PTX failed (then no link).
    std::promise<std::optional<std::string>> smArchOf;
    bool archTold = false;
};

// What stops the job before libNVVM runs, and what it wants made.
support::Status Pipeline::PlainRun::check() {
    // The release is asked for (opening nvJitLink) only when the arch is not one every release
    // takes.
    if (auto st = job.options.validate([this] { return tk.cudaMajor(); }); !st) return st.error();
    // Whatever front end named them: libNVVM's log and every message carry the names.
    for (size_t i = 0; i < job.modules.size(); ++i)
        if (auto problem = nvvm::moduleNameProblem(job.modules[i].name))
            return makeError(ErrorKind::Usage, fmt::format("module {}: {}; rename the module ({})", i + 1, *problem,
                                                           nvvm::kModuleNameAdvice));
    if (job.options.genLto)
        return makeError(ErrorKind::Usage, "gen-lto is chosen through the wanted outputs (LTO-IR), not as an option");
    if (job.libdevice) {
        auto ld = tk.libdevice();
        if (!ld) return ld.error();
        libdevice = *ld;
    }
    wantsPtx = job.outputs & (kPtx | kLtoPtx | kCubin | kFigures | kSass);
    wantsLto = job.outputs & (kLtoIr | kLtoPtx | kCubin);
    wantsLink = job.outputs & (kLtoPtx | kCubin);
    // The SASS is that of the cubin the job ends with: the LTO link's, else ptxas' of the PTX.
    wantsSass = (job.outputs & kSass) && tk.nvdisasm();
    wantsFigures = job.outputs & kFigures;
    wantsCubinLink = (job.outputs & kCubin) || ((wantsFigures || wantsSass) && wantsLink);
    if (wantsLink && !tk.nvJitLink())
        return makeError(ErrorKind::Environment, fmt::format("{} Places tried:\n{}", tk.nvJitLinkReport().problem,
                                                             toolkit::formatTried(tk.nvJitLinkReport().tried)));
    return {};
}

// The arch, and the options the job compiles with.
void Pipeline::PlainRun::resolveOptions() {
    const auto arch = p.chooseArch(job);
    options = job.options;
    options.arch = arch.arch;
    out.archSource = arch.source;
    out.flags = options.flags();
    if (onOptions) onOptions(options, libdevice);
}

// The Program: the kept one when nothing it was built from changed. False when a module could
// not be added (the diagnostics say why).
bool Pipeline::PlainRun::prepareProgram() {
    const auto key = programKey(job);
    if (p.program_ && key == p.programKey_) {
        out.reusedProgram = true;
    } else {
        p.reset();
        support::Stopwatch watch;
        p.program_ = buildProgram(tk.nvvm(), job.modules, libdevice, out.diagnostics, stage);
        out.stages.push_back({StageId::AddModules, watch.seconds()});
        if (!p.program_) return false;
        p.programKey_ = key;
    }
    if (job.libdevice) out.libdeviceFunctions = nvvm::libdeviceFunctionsUsedBy(job.modules);
    return true;
}

// Verify, then libdevice, then compile, as cuda.core does: the verifier sees the modules as
// written, and the first compile adds libdevice. False when the job ends here (verify only, or
// the verifier refused).
bool Pipeline::PlainRun::verify() {
    if (!job.verify && !job.verifyOnly) return true;
    stage({StageId::Verify, {}});
    auto v = p.program_->verify(options);
    if (!v.ok) nvvm::nameModulesOfErrors(v, job.modules, tk.nvvm(), /*verifier=*/true);
    out.stages.push_back({StageId::Verify, v.seconds});
    out.nvvmLog = v.log;
    append(out.diagnostics, v.diagnostics);
    if (job.verifyOnly || !v.ok) {
        out.ok = v.ok && !out.hasErrors();
        out.arch = options.arch.value_or("");
        return false;
    }
    return true;
}

// Two chains side by side (libNVVM is thread-safe across Programs): the PTX on the kept Program
// (compilePtx), then ptxas for its figures (assemblePtx); the LTO-IR on a Program of its own on
// another thread, then its two links on two. The arch is chosen before either; only without one
// (libNVVM's default) do the links wait for the PTX to say it. The chains run on the process's
// ThreadPool, whose threads are reused: a new thread per compile makes a long-lived engine grow
// (libNVVM keeps state per thread that it does not give back when the thread ends: 10 MB over
// 1400 compiles in tst_gui_stress).
void Pipeline::PlainRun::startLtoChain() {
    if (wantsLto) {
        nvvm::Options ltoOptions = options;
        ltoOptions.genLto = true;
        auto chain = [this, ltoOptions, smArch = smArchOf.get_future().share()] {
            p.runLtoChain(job, ltoOptions, lto::linkOptionsFor(options), libdevice, smArch, wantsCubinLink, announce,
                          lto, wantsPtx ? nullptr : p.program_.get());
        };
        // With no PTX to make beside it (so no link either), the LTO-IR is compiled here, on
        // the verified Program: one Program, as numba's LTO compile makes it.
        if (wantsPtx)
            ltoThread.emplace(std::move(chain));
        else
            chain();
    }
    if (options.arch) tellArch(nvvm::smArchFor(*options.arch));
}

// What returns after the LTO chain started waits for it first: it writes into `lto` and reads
// `job`.
void Pipeline::PlainRun::joinLtoChain() {
    tellArch(std::nullopt);
    if (ltoThread) ltoThread->join();
}

// The PTX, its kernels and the arch it is for; onPtx hears it. False when the compile failed.
bool Pipeline::PlainRun::compilePtx() {
    if (wantsPtx) {
        stage(
            {job.libdevice && !p.program_->libdeviceAdded() ? StageId::CompilePtxLibdevice : StageId::CompilePtx, {}});
        auto c = p.program_->compile(options);
        if (!c.ok) nvvm::nameModulesOfErrors(c, job.modules, tk.nvvm());
        out.stages.push_back({StageId::CompilePtx, c.seconds});
        out.nvvmLog = c.log;
        appendNew(out.diagnostics, c.diagnostics);
        if (!c.ok) return false;
        out.ptx = std::move(c.result);
        support::Stopwatch watch;
        out.ptxModule = ptx::readPtx(out.ptx);
        for (const auto* e : out.ptxModule.entries()) out.kernels.push_back({e->name, e->params, {}});
        out.stages.push_back({StageId::ReadPtx, watch.seconds()});
    }
    if (options.arch)
        out.arch = *options.arch;
    else if (support::startsWith(out.ptxModule.target, "sm_"))
        out.arch = "compute_" + out.ptxModule.target.substr(3);
    smArch = nvvm::smArchFor(out.arch);
    tellArch(smArch);
    if (onPtx && !out.ptx.empty()) {
        CompileResult partial = out;
        partial.partial = true;
        announce.deliver([&] { onPtx(partial); });
    }
    return true;
}

// The PTX's figures are those of the code the driver makes of it when it loads it: a
// whole-program assembly by ptxas. nvJitLink would assemble it relocatably, into other code.
void Pipeline::PlainRun::assemblePtx() {
    const bool sassOfPtx = wantsSass && !wantsLink;
    if ((!wantsFigures && !sassOfPtx) || out.ptx.empty()) return;
    if (const auto* ptxas = tk.ptxas()) {
        stage({StageId::AssembleCubin, {}});
        auto a = ptx::assembleWholeProgram(*ptxas, out.ptx, smArch);
        out.stages.push_back({StageId::AssembleCubin, a.seconds});
        out.ptxFigures.source = a.command + " of the PTX (whole program, as the driver loads PTX)";
        if (a.ok) {
            out.ptxFigures.functions = std::move(a.usage);
            // ptxas lists functions last defined first; every table lists kernels in one
            // order, the PTX's (the modules', then their definitions').
            orderLikeKernels(out.ptxFigures.functions, out.kernels);
        } else {
            out.ptxFigures.unavailable =
                fmt::format("ptxas could not assemble the PTX as the driver would load it: {}{}",
                            support::trim(a.error), lto::libdeviceHint(a.error));
        }
        sassCubin = std::move(a.cubin);
        sassOf = fmt::format("the PTX's whole-program cubin ({}, as the driver loads PTX)", a.command);
    } else {
        out.ptxFigures.unavailable = tk.ptxasReport().problem;
    }
    sassWhy = out.ptxFigures.unavailable;
    if (!wantsFigures) out.ptxFigures = {};
}

void Pipeline::PlainRun::warnNoPtxFigures() {
    if (!wantsFigures || out.ptx.empty()) return;
    if (!out.ptxFigures.unavailable.empty())
        out.diagnostics.push_back({"", 0, 0, nvvm::Severity::Warning,
                                   "no register or spill figures for the PTX: " + out.ptxFigures.unavailable, "ptxas"});
    // An unresolved __nv_ function is the call's doing: the warning goes on that line too.
    lto::placeUndefinedFunctions(out.diagnostics, job.modules);
}

// The LTO chain's compile. False when it made no LTO-IR.
bool Pipeline::PlainRun::takeLtoIr() {
    if (!wantsLto) return true;
    append(out.diagnostics, lto.diagnostics);
    out.stages.push_back(lto.compileStage);
    out.ltoIr = std::move(lto.ltoIr);
    return lto.ok;
}

// The link flags, and the link to PTX. False when that link failed.
bool Pipeline::PlainRun::takePtxLink() {
    const auto linkOptions = lto::linkOptionsFor(options);
    if (wantsLink) {
        out.linkFlags = {"-arch=" + smArch, "-lto"};
        out.linkFlags.insert(out.linkFlags.end(), linkOptions.begin(), linkOptions.end());
    }
    if (!(job.outputs & kLtoPtx)) return true;
    auto& l = lto.ptxLink;
    out.stages.push_back({StageId::LinkLtoPtx, l.seconds});
    lto::placeUndefinedFunctions(l.diagnostics, job.modules);
    append(out.diagnostics, l.diagnostics);
    if (!l.ok) return false;
    out.linkedPtx = std::move(l.ptx);
    out.linkedPtxModule = ptx::readPtx(out.linkedPtx);
    for (const auto* e : out.linkedPtxModule.entries()) linkedEntries.push_back(e->name);
    linkedEntriesKnown = true;
    return true;
}

// The LTO output's figures are those of its cubin, which nvJitLink's ptxas reports. False when
// the cubin link failed.
bool Pipeline::PlainRun::takeCubinLink() {
    if (!wantsCubinLink) return true;
    auto& l = lto.cubinLink;
    out.stages.push_back({StageId::LinkLtoCubin, l.seconds});
    lto::placeUndefinedFunctions(l.diagnostics, job.modules);
    append(out.diagnostics, l.diagnostics);
    out.ltoFigures.source =
        fmt::format("nvJitLink {} -verbose: its ptxas on the LTO-linked cubin", support::join(out.linkFlags, " "));
    if (!l.ok) {
        out.ltoFigures.unavailable = "nvJitLink could not link the cubin (see Problems)";
        if (wantsSass) out.sassUnavailable = out.ltoFigures.unavailable;
        return false;
    }
    out.linkInfoLog = l.infoLog;
    out.ltoFigures.functions = ptx::parsePtxasInfo(l.infoLog);
    // Its ptxas says at least "0 bytes gmem" even when the link kept no function.
    if (out.ltoFigures.functions.empty() && l.infoLog.find("ptxas") == std::string::npos)
        out.ltoFigures.unavailable =
            "nvJitLink's -verbose log named no function's figures (it prints none when it takes the cubin "
            "from the CUDA compute cache, ~/.nv/ComputeCache: CUDA_CACHE_DISABLE=1 prevents that)";
    orderLikeKernels(out.ltoFigures.functions, out.kernels);
    // nvJitLink prints constant bytes only for PTX input; the cubin has them for every link.
    ptx::setConstantBytes(l.cubin, out.ltoFigures.functions);
    if (wantsSass) {
        sassCubin = l.cubin;
        sassOf = fmt::format("the LTO-linked cubin (nvJitLink {})", support::join(out.linkFlags, " "));
    }
    if (job.outputs & kCubin) out.cubin = std::move(l.cubin);
    if (!linkedEntriesKnown && out.ltoFigures.unavailable.empty()) {
        for (const auto& u : out.ltoFigures.functions)
            if (u.isEntry) linkedEntries.push_back(u.function);
        linkedEntriesKnown = true;
    }
    return true;
}

// Each kernel's figures where the job ends: the LTO cubin when it was linked, else the PTX; and
// the kernels the link dropped.
void Pipeline::PlainRun::placeFigures() {
    const Figures& last = out.ltoFigures.source.empty() ? out.ptxFigures : out.ltoFigures;
    for (auto& k : out.kernels)
        if (const auto* u = last.find(k.name)) k.usage = *u;
    if (wantsLink && linkedEntriesKnown && wantsPtx) {
        std::vector<std::string> ptxEntries;
        for (const auto& k : out.kernels) ptxEntries.push_back(k.name);
        append(out.diagnostics, lto::droppedKernelWarnings(ptxEntries, linkedEntries, job.modules));
    }
}

// The cubin to disassemble, left for Pipeline::run, or why there is no SASS.
void Pipeline::PlainRun::pendSass() {
    if (!(job.outputs & kSass)) return;
    if (!wantsSass) {
        out.sassUnavailable = tk.nvdisasmReport().problem;
    } else if (sassCubin.empty()) {
        out.sassUnavailable = "no cubin to disassemble: " + (sassWhy.empty() ? std::string("no PTX") : sassWhy);
    } else if (sass) {
        // nvdisasm takes half a second, mostly starting up: Pipeline::run disassembles after
        // the plain result is out.
        sass->cubin = std::move(sassCubin);
        sass->of = std::move(sassOf);
        out.sassPending = true;
    }
}

CompileResult Pipeline::PlainRun::done() {
    out.seconds = total.seconds();
    return std::move(out);
}

support::Result<CompileResult> Pipeline::runPlain(const Job& job, const StageListener& onStage, PendingSass* sass,
                                                  const OptionsListener& onOptions, const ResultListener& onPtx) {
    PlainRun run(*this, job, onStage, sass, onOptions, onPtx);
    if (auto st = run.check(); !st) return st.error();
    run.resolveOptions();
    if (!run.prepareProgram() || !run.verify()) return run.done();
    run.startLtoChain();
    if (!run.compilePtx()) {
        run.joinLtoChain();
        return run.done();
    }
    run.assemblePtx();
    run.announce.end(Lane::Ptx);
    run.joinLtoChain();
    // From here on, in the order of the stages (not of their finishing): what each said, as one
    // compile after the other would have said it.
    run.warnNoPtxFigures();
    if (!run.takeLtoIr() || !run.takePtxLink() || !run.takeCubinLink()) return run.done();
    run.placeFigures();
    run.pendSass();
    run.out.ok = !run.out.hasErrors();
    return run.done();
}

}  // namespace nvpg::pipeline
