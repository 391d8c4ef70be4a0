#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "core/toolkit/Toolkit.h"

namespace nvpg::engine {

// The engine process: serves compile and run requests on `in`/`out` (a socket the front end
// holds) until the front end closes it. Compiles keep one Pipeline, so a Program is compiled
// again when only options change, as in-process. Before each stage it says which (progress
// messages), so that a library that kills this process is named with its input. After a run
// that left the GPU context unusable it answers and ends, so that the driver frees the context.
// It is the whole process (`nvpg engine`): it ends with its front end (its parent, whose id
// kEngineParentVariable gives, or the socket closing) and a little after each request's deadline
// (SIGALRM), even while a library holds it.
int serveEngine(int in, int out);
// The same in a fork of the front end (EngineProcess's ForkServe) that has `toolkit` loaded
// already, from the search of `cudaPath`: compiles of that toolkit use it as it is. With
// `oneRequest` it ends once it answered its first request, for a front end that sends one
// (nvpg): its exit (unmapping libNVVM and the compile's heap) then overlaps the front end's
// writing of the result, instead of coming after it.
int serveEngine(int in, int out, std::shared_ptr<const toolkit::Toolkit> toolkit,
                std::optional<std::filesystem::path> cudaPath, bool oneRequest = false);

}  // namespace nvpg::engine
