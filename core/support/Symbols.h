#pragma once

#include <cstddef>
#include <functional>
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

// `text` (a PTX instruction, a name) with each `symbol` in it written "…" when the symbol is
// mangled: PTX names a kernel's parameters after it, and "[…_param_0]" is what tells them apart.
// Unchanged for a symbol that is not mangled.
std::string elideSymbolIn(std::string_view text, std::string_view symbol);

// How wide a text is, in the caller's unit: terminal columns (displayWidth), a font's pixels.
using TextWidth = std::function<double(std::string_view)>;

// `s` cut in the middle to at most `columns` terminal columns, with "…" where the cut is: the
// start (namespace, kernel) and the end (last parameters) stay readable. Unchanged when it fits;
// columns below 3 are taken as 3.
std::string elideMiddle(std::string_view s, size_t columns);
// The same within `room` as `width` measures text: as many characters as fit, the start getting
// the extra one of an odd count; "…" alone when nothing more fits.
std::string elideMiddle(std::string_view s, double room, const TextWidth& width);

// A name (readableName's) cut where it costs least, the rule for every name both front ends
// shorten: the function's own name and what follows its parameters stay whole and the parameters
// are cut in the middle ("__main__::math_kernel(Array<float, 1, …, aligned>)") where that leaves
// room for some of them; else the whole name is cut in the middle. Unchanged when it fits.
std::string elideName(std::string_view name, size_t columns);
std::string elideName(std::string_view name, double room, const TextWidth& width);

// How a printed table (nvpg compare, occupancy, run) names a kernel: readableName (raw: the
// symbol), cut by elideName to kTableNameColumns unless wide, so that a numba kernel's 200- to
// 300-column symbol leaves the table readable in a terminal.
struct NameStyle {
    bool raw = false;
    bool wide = false;
};
inline constexpr size_t kTableNameColumns = 40;
std::string tableName(std::string_view symbol, NameStyle style = {});

}  // namespace nvpg::support
