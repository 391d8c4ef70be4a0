#pragma once

#include <string>

namespace nvpg::bench {

// A large NVVM IR text module (CUDA 13.0's LLVM 7 typed-pointer dialect) of `kernels` small,
// realistic kernels: global thread index from tid/ctaid/ntid, a bounds check, float arithmetic
// and a loop. The shapes rotate through four kinds so libNVVM's optimiser sees varied code.
// With `libdevice`, every kernel also calls one libdevice function (__nv_expf, __nv_sinf, ...),
// so the module needs libdevice linked (lazily) to compile.
std::string generateModule(int kernels, bool libdevice);

// The fewest kernels for which generateModule's text has at least `lines` lines.
int kernelsForLines(int lines, bool libdevice);

// One kernel, @large, of about `instructions` instructions in blocks of about `perBlock`: a chain
// of small loops, each an if/else diamond whose join branches back to the loop's head, so its
// control-flow graph has back edges, branches and fallthroughs as compiled code does (5 a block
// gives ~2,000 blocks for 10,000 instructions). Compiles as it is.
std::string generateBranchyKernel(int instructions, int perBlock);

}  // namespace nvpg::bench
