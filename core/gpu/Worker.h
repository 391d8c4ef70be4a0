#pragma once

#include <string>
#include <vector>

#include "gpu/Protocol.h"
#include "gpu/Session.h"

namespace nvpg::gpu {

// The engine process's side of GPU runs. A front end starts it (`nvpg gpu-worker`, or the app
// with --gpu-worker) with a socket on its stdin and stdout, and sends run requests; it answers
// each, and ends after a run that left the GPU context unusable (an illegal address, a hung
// kernel), so that the driver frees everything and the next run gets a fresh process.
int serveRuns(int in, int out);

enum MessageType : uint16_t { kRunRequest = 1, kRunReply = 2 };

Frame makeRunRequest(int device, const std::string& image, bool cubin, const ptx::Function& kernel,
                     const RunConfig& config, const std::vector<std::string>& initial);

// What the engine reads from a run request.
struct RunRequestData {
    int device = 0;
    bool cubin = false;
    std::string image;
    ptx::Function kernel;
    RunConfig config;  // buffer arguments carry the type and count the front end loaded
    std::vector<std::string> initial;
};
support::Result<RunRequestData> parseRunRequest(Frame frame);
// The outcome, or the error the engine sent (its kind kept). `fatal`: the engine ends after it.
support::Result<RunOutcome> readRunReply(const Frame& frame, bool& fatal);

}  // namespace nvpg::gpu
