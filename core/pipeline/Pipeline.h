#pragma once

#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/nvvm/Program.h"
#include "core/pipeline/CompileResult.h"
#include "core/pipeline/Job.h"
#include "core/support/Result.h"
#include "core/toolkit/Toolkit.h"

namespace nvpg::pipeline {

// The one compile path of both front ends: a Job in, a CompileResult out. A Pipeline keeps the Program
// of its last job: when the next job has the same modules and libdevice choice, that Program is
// compiled again (libdevice is not added again); any change to a module makes a new Program.
// One Pipeline is used by one thread at a time; separate Pipelines run in parallel.
class Pipeline {
public:
    explicit Pipeline(std::shared_ptr<const toolkit::Toolkit> toolkit);

    // An Error for what stops the job before libNVVM runs: an invalid option (Usage), libdevice
    // or nvJitLink missing when wanted (Environment). What libNVVM and nvJitLink say about the
    // input comes back as diagnostics in the Result.
    // `onStage` hears each stage as it starts (adding module b.bc, compiling PTX): the engine
    // process reports it, so that a library that crashes the process is named with the input it
    // was working on, and front ends can say what is going on.
    using StageListener = std::function<void(const StageEvent& stage)>;
    // `onPlain` hears the plain result as soon as it is complete, before what comes after it:
    // the SASS (nvdisasm takes half a second; sassPending says it follows) and, with
    // job.lineMap, the line-annotated twin's compile, so that neither delays the PTX. run
    // returns the result with both. The map of an unchanged job is kept, and not computed again.
    using ResultListener = std::function<void(const CompileResult& plain)>;
    // `onPtx` hears the PTX part (CompileResult::partial) as soon as the PTX exists, while the
    // LTO-IR and its links, which run beside it, are still at work: the PTX, its kernels and
    // libNVVM's diagnostics. A job whose PTX compile fails has no PTX part.
    // The PTX and LTO chains run on threads of their own; the listeners are called one at a
    // time, and each stage event names the stages running beside it (StageEvent::alongside).
    // The result is the same, byte for byte and in the same order, as one stage after the other.
    // `onSass` hears the result with its SASS listing as soon as nvdisasm has made it, before the
    // live registers and the graph (kLiveRegisters, kSassGraph), which are made beside it, and the
    // line map: so that neither delays the listing. Not called when there is no listing.
    support::Result<CompileResult> run(const Job& job, const StageListener& onStage = {},
                                       const ResultListener& onPlain = {}, const ResultListener& onPtx = {},
                                       const ResultListener& onSass = {});

    // Forget the kept Program (the next job starts a new one).
    void reset();
    const toolkit::Toolkit& toolkit() const { return *toolkit_; }

private:
    struct ArchChoice {
        std::optional<std::string> arch;
        std::string source;
    };
    ArchChoice chooseArch(const Job& job);
    // The cubin whose SASS the plain result is waiting for, and what made it.
    struct PendingSass {
        std::string cubin, of;
    };
    // The plain job, all but its SASS (left in `sass`); `onOptions` hears its options once the
    // arch is chosen (the twin's, later).
    using OptionsListener =
        std::function<void(const nvvm::Options& resolved, std::shared_ptr<const std::string> libdevice)>;
    support::Result<CompileResult> runPlain(const Job& job, const StageListener& onStage, PendingSass* sass,
                                            const OptionsListener& onOptions, const ResultListener& onPtx);
    // runPlain's steps, and what they share.
    struct PlainRun;
    class Announcer;
    struct LtoChain;
    // The LTO-IR compile, then its links to PTX and to cubin side by side once `smArch` says the
    // arch (none: the PTX failed, and nothing is linked). The LTO-IR is compiled on `onThis`
    // when given (a job that wants no PTX has program_ free), else on a Program of its own.
    void runLtoChain(const Job& job, const nvvm::Options& ltoOptions, const std::vector<std::string>& linkOptions,
                     std::shared_ptr<const std::string> libdevice,
                     std::shared_future<std::optional<std::string>> smArch, bool cubinLink, Announcer& announce,
                     LtoChain& out, nvvm::Program* onThis);

    std::shared_ptr<const toolkit::Toolkit> toolkit_;
    std::unique_ptr<nvvm::Program> program_;
    std::string programKey_;
    // The LTO-IR's Program, beside program_ (one Program compiles one thing at a time), kept by
    // the same key.
    std::unique_ptr<nvvm::Program> ltoProgram_;
    std::string ltoProgramKey_;
    std::optional<ArchChoice> gpuArch_;
    // The maps of the last few jobs, newest last, by lineMapKey: an unchanged job (a rerun, an
    // undo back to it) gets its map without a second compile.
    std::vector<std::pair<std::string, std::shared_ptr<const inspect::LineMap>>> lineMaps_;
};

// How many maps a Pipeline keeps.
inline constexpr size_t kKeptLineMaps = 8;

// The key under which a Program is reused: a hash of module names, bytes, lazy flags and order,
// and the libdevice choice.
std::string programKey(const Job& job);

}  // namespace nvpg::pipeline
