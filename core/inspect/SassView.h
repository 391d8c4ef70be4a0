#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/inspect/LineMap.h"

namespace nvpg::inspect {

// One line of nvdisasm's listing split into what a reader looks at. An instruction row
// "        /*0090*/               @P0 EXIT ;   /* 0x000fea0003800000 */" is offset "0090",
// instruction "@P0 EXIT ;" and details "/* 0x000fea0003800000 */" (encodings, control codes such
// as "&wr=0x1" or "?trans1", life ranges, comments).
struct SassRow {
    enum class Kind {
        Instruction,
        Detail,  // a line of details only: an encoding's second word, a "//## File" mark, a comment
        Other,   // a label, a directive, a section line, a blank line
    };
    Kind kind = Kind::Other;
    std::string offset;       // Instruction: the hex digits between /* and */
    std::string instruction;  // Instruction: predicate, opcode, operands and the ';'
    std::string details;      // Instruction and Detail: what the compact view leaves out
    std::string text;         // Other: the line without its indentation
};
SassRow splitSassRow(std::string_view line);

// The SASS pane's compact view of a listing: each instruction row is its instruction from the
// first column (the offset goes in the pane's margin, nvdisasm's ~35 columns of indentation go),
// details lines go, other lines lose their indentation, runs of blank lines become one. The
// listing itself is never changed: the view is built beside it and maps its lines back.
struct SassView {
    std::string text;                  // the lines shown, each ending in '\n'
    std::vector<std::string> offsets;  // by shown line (index = line - 1): the offset, or empty
    std::vector<int> listingLines;     // by shown line: the 1-based line of the listing it shows
    // The shown line (1-based) of listing line `line`: a details line is shown with the row above
    // it; 0 when nothing shows it (blank lines folded into one, lines before the first shown).
    int shownLine(int listingLine) const;
    std::vector<int> shownOf;  // by listing line (index = line - 1): shownLine's answers
};
SassView compactSass(std::string_view listing);

// `map` (of the listing's lines) in the view's numbering: a shown line has its listing line's
// origin. Ends with fillRanges, so each IR line's ranges are shown lines.
OutputMap mapThroughView(const OutputMap& map, const SassView& view, const std::vector<MappedModule>& modules);

}  // namespace nvpg::inspect
