#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nvpg::inspect {

// A `.loc F L C` / `.file F "name"` line of PTX (leading blanks allowed; `.local` is not one).
bool isLocationLine(std::string_view line);

// PTX compiled with -generate-line-info, read: the same text without its line information (its
// .loc/.file lines, the `$L__func_endN:` labels and a `.section .debug_str` block, which name
// inlined functions), and for each remaining line the source file and line the .loc before it named.
struct LocatedLine {
    std::string file;  // the .file name ("helper.ll"); empty: no location (or line 0)
    int line = 0;
};
struct LocatedPtx {
    std::string text;                // without .loc and .file lines
    std::vector<LocatedLine> lines;  // one per line of `text`
};
LocatedPtx readLocations(std::string_view ptx);

// Plain PTX without its own line information, as readLocations removes it (a module with debug
// info compiled plain), and
// for each remaining line its line number in `ptx` (1-based).
struct StrippedPtx {
    std::string text;
    std::vector<int> plainLine;
};
StrippedPtx stripLocations(std::string_view ptx);

// Whether a PTX line is code that a map colours: an instruction or a label inside a function
// body. Directives (.reg, .loc, .param lists), braces, comments and blank lines are not.
bool isMappablePtxLine(std::string_view line);

}  // namespace nvpg::inspect
