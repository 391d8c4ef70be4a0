#pragma once

#include <string>
#include <utility>
#include <vector>

namespace nvpg::inspect {

// Lines of PTX or SASS with the names a compiler picks by counting renamed, within each function,
// by order of first use: two listings that differ only in register and label numbering give the
// same lines. What a diff compares, never what it shows.
//
// PTX: virtual registers of every prefix the module declares (`.reg .f32 %f<9>`) and the usual
// ones (%r, %rd, %f, %fd, %p, %rs, %h, %hh, %b...; not special registers as %tid.x, %clock64,
// %envreg3, nor parameter names), and labels ($L__BB0_3, $L__tmp1). A function starts at its
// .entry/.func line.
// SASS (nvdisasm): registers R, P, UR, UP and B (not RZ, PT, URZ, UPT; each value written to
// one, at an instruction whose first operand it is, named on its own), labels (.L_x_12),
// instruction offsets (/*0a70*/), encodings, and the addresses a branch, call or BSSY names. A
// function starts at its `.section .text.NAME` line.
std::vector<std::string> renamedPtxLines(const std::vector<std::string>& lines);
std::vector<std::string> renamedSassLines(const std::vector<std::string>& lines);

// Two listings' lines, A's renamed as above, and B's names matched to A's: first the lines are
// aligned with every name left out; a B name that stands where an A name does on those lines
// (the most often, one to one) takes that A name's new name, and the others get names no A line
// has. So an instruction that adds a register does not shift every later register's number, as
// a renaming of each side on its own would (the numba axpy fadd -> fsub: 2 changed lines, not 5).
std::pair<std::vector<std::string>, std::vector<std::string>> matchedPtxLines(const std::vector<std::string>& a,
                                                                              const std::vector<std::string>& b);
std::pair<std::vector<std::string>, std::vector<std::string>> matchedSassLines(const std::vector<std::string>& a,
                                                                               const std::vector<std::string>& b);

}  // namespace nvpg::inspect
