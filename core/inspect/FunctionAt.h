#pragma once

#include <string>
#include <string_view>

namespace nvpg::inspect {

// Which kind of text a line is looked up in.
enum class FunctionText {
    Ir,    // NVVM IR: `define ... @name(` ... `}`
    Ptx,   // PTX: `.visible .entry name(` / `.func (...) name(` ... `}`
    Sass,  // nvdisasm's listing: `.text.name:` or `.section .text.name,...`
};

// The function a line of a module's text is in, found by the declaration above it.
struct FunctionAt {
    std::string name;     // the nearest declaration at or above the line; empty: none
    int line = 0;         // 1-based line of that declaration
    bool inside = false;  // the line is in that function: no line starting with `}` comes between
                          // (SASS sections have no closing brace: a header found is always inside)
};

// Which function's declaration holds 1-based line `line` of `text`: the lines from it up to the
// nearest declaration are looked at, never the whole text parsed, so that following a caret
// costs little. A line past the end counts as the last.
FunctionAt functionAtLine(std::string_view text, int line, FunctionText kind = FunctionText::Ir);
// The same where `text` ends where 1-based line `line` ends (without its newline): what an editor
// hands out without copying, or looking at, the lines below.
FunctionAt functionAtLastLine(std::string_view text, int line, FunctionText kind = FunctionText::Ir);

}  // namespace nvpg::inspect
