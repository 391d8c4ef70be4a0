#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/inspect/LineMap.h"
#include "core/nvvm/Options.h"
#include "core/pipeline/CompileResult.h"
#include "core/pipeline/Job.h"
#include "core/toolkit/Toolkit.h"

namespace nvpg::pipeline {

// What the line-annotated twin of a job gave: its outputs with .loc lines (or -lineinfo marks),
// or why each is missing. Made beside the plain job; never read by it.
struct TwinOutputs {
    std::vector<inspect::MappedModule> modules;  // in the job's order
    std::vector<inspect::CallLine> calls;        // the twins' __nv_ call lines
    std::string ptx, linkedPtx, sass;
    // Why an output of the twin is missing, when it is: the map of that output says so.
    std::string ptxProblem, linkedPtxProblem, sassProblem;
    // Not stopped and not cut short by an exception: its map may be kept for the same job.
    bool complete = false;
    double seconds = 0;
};

// Compiles the twin of `job` with `options` (the plain job's, arch resolved) plus
// -generate-line-info, and LTO / SASS as the job wants them. `stop` set: it ends at the next
// stage, its outputs saying why. Never throws.
TwinOutputs compileTwin(const Job& job, const nvvm::Options& options, const toolkit::Toolkit& toolkit,
                        std::shared_ptr<const std::string> libdevice, const std::atomic<bool>& stop);

// The map of the plain result through the twin's outputs.
inspect::LineMap buildLineMap(const Job& job, const nvvm::Options& options, const CompileResult& plain,
                              const TwinOutputs& twin);

// A map of the job's modules whose every output is unavailable for `why`.
inspect::LineMap unavailableLineMap(const Job& job, const std::string& why);

// The twin's compile on a thread of its own, started once the plain result is out, beside the
// plain SASS, at a lower CPU priority so that on a machine of few cores the front end's own
// work (showing that result) comes first.
class TwinCompile {
public:
    TwinCompile(Job job, nvvm::Options options, const toolkit::Toolkit& toolkit,
                std::shared_ptr<const std::string> libdevice);
    ~TwinCompile();  // stops and joins
    TwinCompile(const TwinCompile&) = delete;
    TwinCompile& operator=(const TwinCompile&) = delete;

    // Waits for the twin and returns its outputs.
    const TwinOutputs& join();
    // Asks it to end at its next stage (the plain job failed: its map is not wanted).
    void stop() { stop_ = true; }
    const Job& job() const { return job_; }
    const nvvm::Options& options() const { return options_; }

private:
    Job job_;
    nvvm::Options options_;
    TwinOutputs outputs_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
    std::function<void()> deferred_;  // when no thread could be started
};

// The niceness the twin's thread runs at.
inline constexpr int kTwinNiceness = 10;

}  // namespace nvpg::pipeline
