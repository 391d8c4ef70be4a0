#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/Protocol.h"
#include "core/gpu/RunConfig.h"
#include "core/gpu/RunOutcome.h"
#include "core/pipeline/CompileResult.h"
#include "core/pipeline/Job.h"

namespace nvpg::engine {

// What goes over the engine protocol.
enum MessageType : uint16_t {
    kCompileRequest = 1,
    kCompileReply = 2,
    kRunRequest = 3,
    kRunReply = 4,
    kProgress = kProgressFrame,  // {"stage": "compile PTX", "module": ""}: the engine starts that stage
    // What comes after the plain result (pipeline::hasLateOutputs): the SASS fields as in the
    // compile reply (its text the one blob), all the stages, and with line_map the
    // {"line_map": inspect::toJson(map)}. After the compile reply of such a request always
    // exactly one, whatever the reply (a failed compile's is empty), progress frames between.
    kLateReply = 6,
    // With "ptx_first" in the request: the PTX part (CompileResult::partial) as soon as the PTX
    // exists, encoded as a compile reply; at most one, before the compile reply.
    kPtxReply = 7,
    // Opens the toolkit (from "cuda_path" when given) and says what its libraries are
    // (engine/ToolkitProbe.h): the front ends never open one themselves.
    kToolkitRequest = 8,
    kToolkitReply = 9,
    // With "sass_first" in a request with late outputs: the SASS listing as soon as nvdisasm made
    // it (the SASS fields as in the compile reply, its text the one blob), before the live
    // registers, the graph and the map; at most one, between the compile reply and the late reply.
    kSassReply = 10,
};

// The most modules one compile can have: each module is a blob of the request, and a compile
// with one LTO-IR per module (--lto-mode separate) answers with those beside PTX, linked PTX and
// cubin, so that reply must fit within kMaxBlobs too.
inline constexpr size_t kMaxModules = kMaxBlobs - 3;

// Compiles. The toolkit is searched in the engine as in the front end, from `cudaPath` when set.
// `ptxFirst`: the front end wants the PTX part (kPtxReply) before the compile reply.
// `sassFirst`: it wants the SASS listing (kSassReply) before the late reply.
Frame makeCompileRequest(const pipeline::Job& job, const std::optional<std::filesystem::path>& cudaPath,
                         bool ptxFirst = false, bool sassFirst = false);
struct CompileRequestData {
    pipeline::Job job;
    std::optional<std::filesystem::path> cudaPath;
    bool ptxFirst = false;
    bool sassFirst = false;
};
support::Result<CompileRequestData> parseCompileRequest(Frame frame);
Frame makeCompileReply(const support::Result<pipeline::CompileResult>& result);
support::Result<pipeline::CompileResult> readCompileReply(Frame frame);
Frame makePtxReply(const pipeline::CompileResult& partial);
support::Result<pipeline::CompileResult> readPtxReply(Frame frame);
// `complete`: the result Pipeline::run returned; its map goes when `withMap` (Job::lineMap).
Frame makeLateReply(const pipeline::CompileResult& complete, bool withMap);
// Fills in `into` (the plain result) with what the late reply carries. A map that
// lineMapFromJson refuses is a malformed message.
support::Status readLateReply(Frame frame, bool withMap, pipeline::CompileResult& into);
// The listing of `result` (Pipeline::run's onSass); read into `into`, the plain result, whose
// SASS fields it replaces.
Frame makeSassReply(const pipeline::CompileResult& result);
support::Status readSassReply(Frame frame, pipeline::CompileResult& into);
// Whether a compile request's header asks for a late reply, read before the request is
// parsed: one that cannot be parsed is answered with both replies too.
bool wantsLateReply(const nlohmann::json& request);

// Runs.
Frame makeRunRequest(int device, const std::string& image, bool cubin, const ptx::Function& kernel,
                     const gpu::RunConfig& config, const std::vector<std::string>& initial);
struct RunRequestData {
    int device = 0;
    bool cubin = false;
    std::string image;
    ptx::Function kernel;
    gpu::RunConfig config;  // buffer arguments carry the type and count the front end loaded
    std::vector<std::string> initial;
};
support::Result<RunRequestData> parseRunRequest(Frame frame);
// `fatal`: the engine ends after this reply (its GPU context cannot be used again).
Frame makeRunReply(support::Result<gpu::RunOutcome> outcome, bool fatal);
support::Result<gpu::RunOutcome> readRunReply(const Frame& frame, bool& fatal);

Frame makeProgress(const pipeline::StageEvent& stage);
// A stage of another name than pipeline::stageName gives is a malformed message.
support::Result<pipeline::StageEvent> readProgress(const Frame& frame);
Frame makeErrorReply(uint16_t type, const support::Error& error, bool fatal = false);

}  // namespace nvpg::engine
