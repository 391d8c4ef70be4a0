#include "engine/Compiler.h"

#include <chrono>

#include <fmt/format.h>

#include "engine/Messages.h"
#include "support/Stopwatch.h"
#include "support/Text.h"

namespace nvpg::engine {

Compiler::Compiler(std::shared_ptr<const toolkit::Toolkit> toolkit, std::optional<std::filesystem::path> cudaPath,
                   std::vector<std::string> engineCommand, double timeoutSeconds)
    : toolkit_(std::move(toolkit)), cudaPath_(std::move(cudaPath)), timeoutSeconds_(timeoutSeconds) {
    if (engineCommand.empty())
        inProcess_ = std::make_unique<pipeline::Pipeline>(toolkit_);
    else
        engine_ = std::make_unique<EngineProcess>(std::move(engineCommand));
}

std::string describeCrash(const pipeline::Job& job, const std::string& stage, const std::string& how) {
    std::vector<std::string> names, bitcode;
    for (const auto& m : job.modules) {
        names.push_back(m.name);
        if (m.isBitcode()) bitcode.push_back(m.name);
    }
    const bool linking = support::startsWith(stage, "linking") || support::startsWith(stage, "assembling");
    const std::string who = linking ? "nvJitLink" : "libNVVM";
    std::string cause;
    const std::string prefix = "adding module ";
    if (support::startsWith(stage, prefix)) {
        const auto module = stage.substr(prefix.size());
        bool isBitcode = false;
        for (const auto& m : job.modules)
            if (m.name == module) isBitcode = m.isBitcode();
        cause = isBitcode ? fmt::format("; the bitcode of {} is the likely cause", module)
                          : fmt::format("; {} is the likely cause", module);
    } else if (!linking && !bitcode.empty()) {
        cause = fmt::format("; the bitcode of {} is the likely cause", support::joinOr(bitcode));
    }
    return fmt::format("{} crashed ({}) while {} of modules {}{}. Change or remove that input and compile again "
                       "(the compile runs in a new engine process).",
                       who, how, stage.empty() ? std::string("compiling") : stage, support::join(names, ", "), cause);
}

support::Result<pipeline::Result> Compiler::run(const pipeline::Job& job) {
    if (inProcess_) return inProcess_->run(job);
    support::Stopwatch watch;
    std::string stage;
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(timeoutSeconds_));
    auto reply = engine_->call(makeCompileRequest(job, cudaPath_), deadline, [&](const Frame& progress) {
        if (progress.header.is_object() && progress.header.contains("stage") && progress.header["stage"].is_string())
            stage = progress.header["stage"].get<std::string>();
    });
    if (reply) return readCompileReply(std::move(*reply));

    // The engine died or hung: the job fails with a diagnostic saying so; the next job starts a
    // new engine.
    if (engine_->lastFailure() == EngineProcess::Failure::Start) return reply.error();
    pipeline::Result failed;
    failed.generation = job.generation;
    failed.ok = false;
    nvvm::Diagnostic d;
    d.source = "nvpg";
    if (engine_->lastFailure() == EngineProcess::Failure::Timeout) {
        d.message = fmt::format("the engine did not finish {} of modules {} within {} s and was stopped; the next "
                                "compile starts a new one",
                                stage.empty() ? std::string("compiling") : stage,
                                support::join([&] {
                                    std::vector<std::string> n;
                                    for (const auto& m : job.modules) n.push_back(m.name);
                                    return n;
                                }(),
                                              ", "),
                                timeoutSeconds_);
    } else {
        const int sig = engine_->lastSignal();
        std::string how = sig ? signalName(sig) : "the engine process ended";
        const auto& msg = reply.error().message;
        if (const auto words = msg.find("its last words: \""); words != std::string::npos)
            how += ": " + msg.substr(words + 17, msg.find('"', words + 17) - words - 17);
        d.message = describeCrash(job, stage, how);
    }
    // Placed on the module the engine was adding, when it said; else on the one bitcode module
    // (text is parsed with errors, not crashes), so that the Problems row leads to it.
    const std::string prefix = "adding module ";
    std::vector<std::string> bitcode;
    for (const auto& m : job.modules)
        if (m.isBitcode()) bitcode.push_back(m.name);
    if (support::startsWith(stage, prefix))
        d.module = stage.substr(prefix.size());
    else if (bitcode.size() == 1 && engine_->lastFailure() == EngineProcess::Failure::Died)
        d.module = bitcode.front();
    failed.diagnostics.push_back(std::move(d));
    failed.seconds = watch.seconds();
    return failed;
}

}  // namespace nvpg::engine
