#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace nvpg::support {

// How kernel and function names are shown to people, the one rule for every table, header and
// message of both front ends. The symbol itself (what the PTX, the IR and nvJitLink use) is never
// changed: these are labels beside it.

// The Itanium-demangled form of `symbol` ("_ZN8__main__5saxpy...E5ArrayIfLi1E..." ->
// "__main__::saxpy[abi:v1](Array<float, 1, C, mutable, aligned>)"); nothing when it is not a
// mangled C++ name (a C name such as "saxpy", or text that fails to demangle).
std::optional<std::string> demangle(std::string_view symbol);

// The name people read: demangled where the symbol is mangled, without ABI tags ("[abi:v1]";
// numba puts a ~100-character hash in one), else the symbol as it is; a function ptxas keeps
// local to a kernel ("$<kernel>$<function>") reads "<function> (in <kernel>)". With raw, the symbol.
std::string readableName(std::string_view symbol, bool raw = false);

// `s` cut in the middle to at most `columns` terminal columns, with "…" where the cut is: the
// start (namespace, kernel) and the end (last parameters) stay readable. Unchanged when it fits;
// columns below 3 are taken as 3.
std::string elideMiddle(std::string_view s, size_t columns);

}  // namespace nvpg::support
