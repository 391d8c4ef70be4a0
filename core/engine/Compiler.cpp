#include "core/engine/Compiler.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <new>

#include <fmt/format.h>

#include "core/cache/Key.h"
#include "core/engine/Messages.h"
#include "core/engine/Server.h"
#include "core/pipeline/LineMapping.h"
#include "core/support/Process.h"
#include "core/support/Stopwatch.h"
#include "core/support/Text.h"

using nvpg::support::ErrorKind;

namespace nvpg::engine {

Compiler::Compiler(std::shared_ptr<const toolkit::Toolkit> toolkit, std::optional<std::filesystem::path> cudaPath,
                   std::vector<std::string> engineCommand, double timeoutSeconds)
    : toolkit_(std::move(toolkit)), cudaPath_(std::move(cudaPath)), timeoutSeconds_(timeoutSeconds) {
    if (engineCommand.empty())
        inProcess_ = std::make_unique<pipeline::Pipeline>(toolkit_);
    else
        engine_ = std::make_unique<EngineProcess>(std::move(engineCommand));
}

Compiler::Compiler(std::shared_ptr<const toolkit::Toolkit> toolkit, std::optional<std::filesystem::path> cudaPath,
                   Fork fork, double timeoutSeconds)
    : toolkit_(std::move(toolkit)), cudaPath_(std::move(cudaPath)), timeoutSeconds_(timeoutSeconds) {
    engine_ = std::make_unique<EngineProcess>([tk = toolkit_, path = cudaPath_, fork](int in, int out) {
        std::shared_ptr<const toolkit::Toolkit> serving = tk;
        if (!tk->isOpen()) {
            // Toolkit::locate's: libNVVM is opened here, in the engine, and never in the front
            // end. This is the child's own copy of it (a fork), so opening it changes nothing
            // there. One that cannot be opened is searched for again, and the reply says what
            // is wrong.
            auto own = std::const_pointer_cast<toolkit::Toolkit>(tk);
            if (!own->open()) serving = nullptr;
        }
        return serveEngine(in, out, serving, serving ? path : std::nullopt, fork.oneJob);
    });
    // nvpg's one job: its end is not waited for (the engine's exit unmaps libNVVM).
    engine_->setDetachWhenDone(fork.oneJob);
}

namespace {

// The names of the job's modules, in order; only the bitcode ones when asked.
std::vector<std::string> moduleNames(const pipeline::Job& job, bool bitcodeOnly = false) {
    std::vector<std::string> names;
    for (const auto& m : job.modules)
        if (!bitcodeOnly || m.isBitcode()) names.push_back(m.name);
    return names;
}

// The module the engine said it was adding, if that was the stage.
std::string moduleBeingAdded(const std::optional<pipeline::StageEvent>& stage) {
    return stage && stage->id == pipeline::StageId::AddModule ? stage->module : std::string();
}

// The stage, and those running beside it (the PTX and the LTO chains run side by side).
std::string stagesWords(const pipeline::StageEvent& stage) {
    std::string words = pipeline::stageWords(stage);
    for (const auto id : stage.alongside) words += ", and " + pipeline::stageWords({id, {}, {}});
    return words;
}

// "the module a.ll", "the modules a.ll, b.ll and 3 more".
std::string theModules(const pipeline::Job& job) {
    const auto names = moduleNames(job);
    return (names.size() == 1 ? "the module " : "the modules ") + support::joinShort(names);
}

// "while compiling PTX for the module a.ll"; before the first stage the engine was still
// loading the toolkit (libNVVM, libdevice, nvJitLink for the release, the driver for the arch).
std::string whileDoing(const pipeline::Job& job, const std::optional<pipeline::StageEvent>& stage) {
    if (!stage) return "while loading the toolkit, before it began on " + theModules(job);
    return "while " + stagesWords(*stage) + " for " + theModules(job);
}

// Which library the stages that were running belong to; "the engine" for the stages that run
// a tool (ptxas, nvdisasm) or nvpg's own code, and before the first stage.
std::string libraryOf(const std::optional<pipeline::StageEvent>& stage) {
    if (!stage) return "the engine";
    bool link = false, nvvm = false;
    for (const auto id : stage->alongside) (pipeline::isLinkStage(id) ? link : nvvm) = true;
    if (pipeline::isLinkStage(stage->id))
        link = true;
    else if (readsTheInput(stage->id))
        nvvm = true;
    return link && nvvm ? "libNVVM or nvJitLink" : link ? "nvJitLink" : nvvm ? "libNVVM" : "the engine";
}

// The stage, or one beside it, has libNVVM read the user's modules.
bool inputStage(const std::optional<pipeline::StageEvent>& stage) {
    if (!stage) return false;
    if (readsTheInput(stage->id)) return true;
    return std::any_of(stage->alongside.begin(), stage->alongside.end(), readsTheInput);
}

std::string ranOutWhere() {
    const auto limit = support::memoryLimitWords();
    return limit.empty() ? "the machine had no more memory to give: free some (close other programs), or compile "
                           "less at once (fewer modules or kernels, no absurd array or vector sizes)"
                         : limit +
                               ", for the engine too: raise that limit, or compile less at once (fewer modules "
                               "or kernels)";
}

}  // namespace

bool readsTheInput(pipeline::StageId id) {
    using pipeline::StageId;
    switch (id) {
        case StageId::AddModules:
        case StageId::AddModule:
        case StageId::Verify:
        case StageId::CompilePtx:
        case StageId::CompilePtxLibdevice:
        case StageId::CompileLtoIr:
        case StageId::CompileModuleLtoIr:
        case StageId::CompileLtoIrSeparate:
        case StageId::MapLines:
            return true;
        default:
            // Reading the PTX (nvpg's own code), the links (nvJitLink on LTO-IR libNVVM made), ptxas
            // and nvdisasm work on what the toolkit made of the input, never on the input itself.
            return false;
    }
}

CrashCause crashCause(const pipeline::Job& job, const std::optional<pipeline::StageEvent>& stage,
                      const std::string& how) {
    const bool input = inputStage(stage);
    if (support::saysOutOfMemory(how)) {
        // Damaged bitcode makes libNVVM's reader ask for absurd sizes ("LLVM ERROR: out of
        // memory" with memory to spare): while it reads bitcode, the bitcode stays the suspect.
        const bool bitcode = !moduleNames(job, true).empty();
        return input && bitcode ? CrashCause::Input : CrashCause::Memory;
    }
    return input ? CrashCause::Input : CrashCause::Toolkit;
}

std::string describeCrash(const pipeline::Job& job, const std::optional<pipeline::StageEvent>& stage,
                          const std::string& how) {
    const auto where = whileDoing(job, stage);
    switch (crashCause(job, stage, how)) {
        case CrashCause::Memory:
            return fmt::format("{} ran out of memory ({}) {}: {} (the next compile runs in a new engine process).",
                               libraryOf(stage), how, where, ranOutWhere());
        case CrashCause::Toolkit: {
            const bool link = stage && pipeline::isLinkStage(stage->id);
            const auto why = !stage ? std::string(": nothing of the input had been read yet, so")
                             : link ? std::string(". It links the LTO-IR libNVVM made of the input, so")
                                    : std::string(". That step works on what the toolkit made of the input, so");
            return fmt::format(
                "{} crashed ({}) {}{} the toolkit is the likely cause, not the input: check it with `nvpg "
                "info`, choose another with --cuda-path DIR or CUDA_PATH, {}",
                libraryOf(stage), how, where, why, link ? "or compile without LTO (PTX alone)." : "or reinstall it.");
        }
        case CrashCause::Input:
            break;
    }
    const bool linking = stage && pipeline::isLinkStage(stage->id);
    const auto bitcode = moduleNames(job, true);
    std::string cause;
    if (const auto module = moduleBeingAdded(stage); !module.empty()) {
        const bool isBitcode = std::find(bitcode.begin(), bitcode.end(), module) != bitcode.end();
        cause = isBitcode ? fmt::format("; the bitcode of {} is the likely cause", module)
                          : fmt::format("; {} is the likely cause", module);
    } else if (!linking && !bitcode.empty()) {
        cause = fmt::format("; the bitcode of {} is the likely cause", support::joinShort(bitcode, true));
    }
    // Out of memory while reading bitcode: damaged bitcode, or memory that really ran out.
    const auto memory = support::saysOutOfMemory(how)
                            ? fmt::format(" If that bitcode is sound, memory ran out instead: {}.", ranOutWhere())
                            : std::string();
    return fmt::format(
        "{} crashed ({}) {}{}. Change or remove that input and compile again (the compile runs in a new "
        "engine process).{}",
        libraryOf(stage), how, where, cause, memory);
}

std::string describeTimeout(const pipeline::Job& job, const std::optional<pipeline::StageEvent>& stage,
                            double seconds) {
    const auto limit = fmt::format("raise the time limit of {} s (nvpg --engine-timeout, the app's Settings)", seconds);
    const auto check = std::string("check it with `nvpg info`, or choose another with --cuda-path DIR or CUDA_PATH");
    if (!stage)
        return fmt::format(
            "the engine did not finish loading the toolkit within {} s, before it began on {}, and "
            "was stopped: the toolkit is the likely cause, not the input: {}; if it is merely slow, "
            "{}. The next compile starts a new engine.",
            seconds, theModules(job), check, limit);
    const auto what =
        inputStage(stage)
            ? "a large input can take that long: " + limit + ", or compile less at once"
            : fmt::format("if {} hangs, the toolkit is the likely cause, not the input: {}; if it is merely slow, {}",
                          libraryOf(stage) == "the engine" ? pipeline::stageWords(*stage) : libraryOf(stage), check,
                          limit);
    return fmt::format(
        "the engine did not finish {} for {} within {} s and was stopped: {}. The next compile starts "
        "a new engine.",
        stagesWords(*stage), theModules(job), seconds, what);
}

support::Result<pipeline::CompileResult> Compiler::run(const pipeline::Job& job,
                                                       const pipeline::Pipeline::StageListener& onStage,
                                                       const CallCancel* cancel,
                                                       const pipeline::Pipeline::ResultListener& onPlain,
                                                       const pipeline::Pipeline::ResultListener& onPtx,
                                                       const pipeline::Pipeline::ResultListener& onSass) {
    // The copies of the modules for the engine, or its answer, may not fit in memory (ulimit -v).
    try {
        std::string key, cacheWarning;
        if (cache_) {
            if (far_) {
                auto far = describeFar();
                if (!far) return far.error();
                key = cache::keyOf(job, farEnvironment(*far_, *far));
            } else {
                key = cache::keyOf(job, *toolkit_);
            }
            auto found = cache_->find(key);
            if (found.result) {
                stopped_ = false;
                pipeline::CompileResult hit = *found.result;
                hit.generation = job.generation;
                hit.fromCache = true;
                if (onPlain) onPlain(hit);
                return hit;
            }
            cacheWarning = std::move(found.warning);
        }
        auto result = runOrThrow(job, onStage, cancel, onPlain, onPtx, onSass);
        if (cache_ && result && whole_) cache_->store(key, *result);
        if (result && !cacheWarning.empty()) {
            nvvm::Diagnostic d;
            d.severity = nvvm::Severity::Warning;
            d.source = "nvpg";
            d.message = cacheWarning;
            result->diagnostics.push_back(std::move(d));
        }
        return result;
    } catch (const std::bad_alloc&) {
        if (engine_) engine_->kill();  // it may be half-way through a message
        return support::makeError(
            ErrorKind::Environment,
            fmt::format("out of memory while compiling modules {}: this process may not have more (ulimit -v) or "
                        "the machine has no more",
                        support::joinShort(moduleNames(job))));
    }
}

support::Result<pipeline::CompileResult> Compiler::runOrThrow(const pipeline::Job& job,
                                                              const pipeline::Pipeline::StageListener& onStage,
                                                              const CallCancel* cancel,
                                                              const pipeline::Pipeline::ResultListener& onPlain,
                                                              const pipeline::Pipeline::ResultListener& onPtx,
                                                              const pipeline::Pipeline::ResultListener& onSass) {
    stopped_ = false;
    timedOut_ = false;
    whole_ = true;
    if (inProcess_) {
        sentInProcess_ = std::chrono::steady_clock::now();
        return inProcess_->run(job, onStage, onPlain, onPtx, onSass);
    }
    // What the engine protocol cannot carry is refused here, naming the limit, rather than
    // sent to an engine that would refuse it by ending.
    if (job.modules.size() > kMaxModules)
        return support::makeError(
            ErrorKind::Usage,
            fmt::format("{} modules: the engine takes at most {} in one compile; join modules into fewer "
                        "files, or compile fewer at once",
                        support::formatCount(job.modules.size()), support::formatCount(kMaxModules)));
    auto request = makeCompileRequest(job, cudaPath_, bool(onPtx), bool(onSass));
    if (const auto size = request.header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size();
        size > kMaxJsonBytes)
        return support::makeError(
            ErrorKind::Usage,
            fmt::format("the module names and options of this compile come to {}; the engine takes at most {}: "
                        "give the modules shorter names",
                        support::formatBytes(size), support::formatBytes(kMaxJsonBytes)));
    for (const auto& m : job.modules)
        if (m.bytes.size() > kMaxBlobBytes)
            return support::makeError(
                ErrorKind::Usage,
                fmt::format("{} is {}; the engine takes modules of at most {}", support::printable(m.name),
                            support::formatBytes(m.bytes.size()), support::formatBytes(kMaxBlobBytes)));
    support::Stopwatch watch;
    std::optional<pipeline::StageEvent> stage;
    std::optional<support::Error> badProgress;
    const auto deadline =
        std::chrono::steady_clock::now() +
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(timeoutSeconds_));
    const auto progress = [&](const Frame& frame) {
        auto event = readProgress(frame);
        if (!event) {
            badProgress = event.error();
            return;
        }
        stage = *event;
        if (onStage) onStage(*event);
    };
    auto reply = engine_->call(std::move(request), deadline, progress, cancel);
    // The PTX part, when it came, is before the compile reply.
    if (reply && reply->type == kPtxReply) {
        auto partial = readPtxReply(std::move(*reply));
        if (!partial) {
            engine_->kill();
            return partial.error();
        }
        if (onPtx) onPtx(*partial);
        reply = engine_->receive(deadline, progress, cancel);
    }
    if (reply && badProgress) {
        // An engine that speaks another protocol cannot be trusted with the next job either.
        engine_->kill();
        return *badProgress;
    }
    if (reply) {
        auto result = readCompileReply(std::move(*reply));
        if (!pipeline::hasLateOutputs(job)) return result;
        // The late reply follows every compile reply of such a request, so it is read even
        // after an error, or the next request would read it as its answer.
        if (result && result->ok && onPlain) onPlain(*result);
        pipeline::CompileResult ignored;
        receiveLate(job, deadline, onStage, cancel, onSass, result ? *result : ignored);
        return result;
    }

    // The engine died or hung: the job fails with a diagnostic saying so; the next job starts a
    // new engine.
    whole_ = false;
    const auto failure = engine_->lastFailure();
    stopped_ = engine_->stoppedLastCall();
    if (failure == EngineProcess::Failure::Start || failure == EngineProcess::Failure::Cancelled) return reply.error();
    if (auto far = farFailure()) return *far;
    if (failure == EngineProcess::Failure::Protocol) {
        // Not libNVVM crashing on the input: the engine command is not an engine (of this build).
        const char* chosen = std::getenv("NVPG_ENGINE");
        const auto hint =
            chosen && *chosen ? fmt::format("check NVPG_ENGINE (\"{}\")", chosen) : std::string("reinstall nvpg");
        return support::makeError(ErrorKind::Environment, reply.error().message + ": " + hint);
    }
    nvvm::Diagnostic d;
    d.source = "nvpg";
    if (failure == EngineProcess::Failure::Timeout) {
        timedOut_ = true;
        d.message = describeTimeout(job, stage, timeoutSeconds_);
    } else {
        std::string how = engine_->lastSignal() ? signalName(engine_->lastSignal()) : "the engine process ended";
        if (const auto words = engine_->lastWords(); !words.empty()) how += ": " + words;
        // Memory that ran out, or a toolkit that crashed on what it made itself, is the
        // environment's failure (nvpg exits 2), not a verdict on the input.
        if (crashCause(job, stage, how) != CrashCause::Input)
            return support::makeError(ErrorKind::Environment, describeCrash(job, stage, how));
        d.message = describeCrash(job, stage, how);
    }
    // Placed on the module the engine was adding, when it said; else on the one bitcode module
    // (text is parsed with errors, not crashes), so that the Problems row leads to it.
    d.module = moduleBeingAdded(stage);
    if (const auto bitcode = moduleNames(job, true);
        d.module.empty() && bitcode.size() == 1 && failure == EngineProcess::Failure::Died)
        d.module = bitcode.front();
    pipeline::CompileResult failed;
    failed.generation = job.generation;
    failed.ok = false;
    failed.diagnostics.push_back(std::move(d));
    failed.seconds = watch.seconds();
    return failed;
}

std::optional<support::Error> Compiler::farFailure() {
    if (!far_ || !engine_) return std::nullopt;
    const auto dest = support::printable(far_->destination);
    switch (engine_->lastFailure()) {
        case EngineProcess::Failure::Protocol:
            return support::makeError(
                ErrorKind::Environment,
                fmt::format("the nvpg on {} ({}) does not speak this nvpg's engine protocol: {}; install the same "
                            "nvpg version on both machines",
                            dest, support::printable(far_->remoteNvpg), engine_->lastProtocolProblem()));
        case EngineProcess::Failure::Died:
            if (auto words = describeSshFailure(*far_, engine_->lastExitStatus(), engine_->stderrTail()))
                return support::makeError(ErrorKind::Environment, *words);
            return std::nullopt;
        default:
            return std::nullopt;
    }
}

support::Result<FarToolkit> Compiler::describeFar(bool withGpus, const CallCancel* cancel) {
    if (farToolkit_ && (farGpus_ || !withGpus)) return *farToolkit_;
    if (!far_ || !engine_) return support::makeError(ErrorKind::Internal, "no far engine to describe");
    std::optional<std::string> path;
    if (cudaPath_) path = cudaPath_->string();
    const auto deadline =
        std::chrono::steady_clock::now() +
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(timeoutSeconds_));
    auto reply = engine_->call(makeFarRequest(path, withGpus), deadline, {}, cancel);
    if (!reply) {
        if (engine_->lastFailure() == EngineProcess::Failure::Cancelled)
            return support::makeError(ErrorKind::Environment, "stopped");
        if (auto far = farFailure()) return *far;
        if (engine_->lastFailure() == EngineProcess::Failure::Timeout)
            return support::makeError(
                ErrorKind::Environment,
                fmt::format("the engine on {} did not describe its toolkit within {} s and was stopped",
                            support::printable(far_->destination), timeoutSeconds_));
        return support::makeError(
            ErrorKind::Environment,
            fmt::format("the engine on {}: {}", support::printable(far_->destination), reply.error().message));
    }
    auto tk = readFarToolkit(*reply);
    if (!tk)
        return support::makeError(
            ErrorKind::Environment,
            fmt::format("the engine on {}: {}", support::printable(far_->destination), tk.error().message));
    farToolkit_ = *tk;
    farGpus_ = farGpus_ || withGpus;
    return *tk;
}

void Compiler::receiveLate(const pipeline::Job& job, std::chrono::steady_clock::time_point deadline,
                           const pipeline::Pipeline::StageListener& onStage, const CallCancel* cancel,
                           const pipeline::Pipeline::ResultListener& onSass, pipeline::CompileResult& into) {
    std::optional<pipeline::StageEvent> stage;
    const auto receive = [&] {
        return engine_->receive(
            deadline,
            [&](const Frame& progress) {
                // A bad progress frame here costs only the late outputs: the next reply shows
                // whether the engine can still be trusted.
                if (auto event = readProgress(progress)) {
                    stage = *event;
                    if (onStage) onStage(*event);
                }
            },
            cancel);
    };
    auto frame = receive();
    if (frame && frame->type == kSassReply) {
        // The listing, before the rest.
        pipeline::CompileResult listed = into;
        if (auto read = readSassReply(std::move(*frame), listed); read && onSass) onSass(listed);
        frame = receive();
    }
    std::string why;
    if (frame) {
        auto read = readLateReply(std::move(*frame), job.lineMap, into);
        if (read) return;
        engine_->kill();  // it answered out of turn, or in another protocol
        why = "the engine sent a reply that cannot be read: " + read.error().message;
    } else {
        // The SASS (nvdisasm) and the twin (libNVVM, on a thread of its own) are made side by
        // side: either may be what ended the engine.
        const bool twin = job.lineMap && !job.verifyOnly;
        const std::string what = into.sassPending && twin ? "the SASS (nvdisasm) and the line-annotated twin"
                                 : into.sassPending       ? "the SASS (nvdisasm)"
                                                          : "the line-annotated twin";
        switch (engine_->lastFailure()) {
            case EngineProcess::Failure::Cancelled:
                why = "stopped";
                stopped_ = engine_->stoppedLastCall();
                break;
            case EngineProcess::Failure::Timeout:
                timedOut_ = true;
                why = fmt::format(
                    "{} did not finish within {} s and was stopped: raise the time limit (nvpg "
                    "--engine-timeout, the app's Settings){}",
                    what, timeoutSeconds_,
                    into.sassPending ? ", or, if nvdisasm hangs, check it with `nvpg info`" : "");
                break;
            default: {
                std::string how =
                    engine_->lastSignal() ? signalName(engine_->lastSignal()) : "the engine process ended";
                if (const auto words = engine_->lastWords(); !words.empty()) how += ": " + words;
                why = twin ? fmt::format("libNVVM crashed while compiling {}: {}", what, how)
                           : fmt::format("the engine ended while making {}: {}", what, how);
            }
        }
    }
    // The plain result stands; what was still to come says why it is missing.
    whole_ = false;
    if (into.sassPending) {
        into.sassPending = false;
        into.sassUnavailable = why;  // the reason only: each front end says "no SASS" its own way
    }
    if (job.lineMap) into.lineMap = std::make_shared<const inspect::LineMap>(pipeline::unavailableLineMap(job, why));
}

}  // namespace nvpg::engine
