#pragma once

namespace nvpg::engine {

// The engine process: serves compile and run requests on `in`/`out` (a socket the front end
// holds) until the front end closes it. Compiles keep one Pipeline, so a Program is compiled
// again when only options change, as in-process. Before each stage it says which (progress
// messages), so that a library that kills this process is named with its input. After a run
// that left the GPU context unusable it answers and ends, so that the driver frees the context.
int serveEngine(int in, int out);

}  // namespace nvpg::engine
