#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/inspect/LineMap.h"
#include "core/inspect/Sass.h"
#include "core/support/Result.h"

namespace nvpg::inspect {

// The registers live at one SASS instruction, as `nvdisasm -lrm count` counts them: general
// (R), predicate (P), uniform (UR) and uniform predicate (UP) registers in use there.
struct LiveCount {
    int gpr = 0, pred = 0, ugpr = 0, upred = 0;
    // False for an instruction nvdisasm gave no figure: the padding after a function's end.
    bool known = false;
    bool operator==(const LiveCount&) const = default;
};

// The live figures of a whole listing: one per instruction of readSass(listing).instructions, in
// that order. Read from `nvdisasm -c -lrm count` of the same cubin, which lists the same
// instructions (without the padding) with a trailing column per register kind; matched by
// function and offset, so the plain listing is never replaced by that one.
support::Result<std::vector<LiveCount>> readLiveRanges(std::string_view lifeRangeListing, const SassListing& plain);

// The most general registers live at once in one function, and the first instruction where.
struct LivePeak {
    std::string function;
    bool isEntry = false;
    int gpr = 0;
    size_t instruction = 0;  // index into the listing's instructions
    int line = 0;            // that instruction's 1-based line in the listing
};
// One per function of the listing that has a figure, in the listing's order.
std::vector<LivePeak> livePeaks(const SassListing& listing, const std::vector<LiveCount>& counts);

// Where local memory is read or written: SASS LDL/STL (ptxas' spills, and local arrays), PTX
// ld.local/st.local. 1-based lines of the text, in order.
std::vector<int> localMemorySassLines(const SassListing& listing);
std::vector<int> localMemoryPtxLines(std::string_view ptx);

// The live figures carried to IR lines through the SASS line map (`sassMap`: of the listing's
// lines): each IR line gets the largest count of the instructions it became, so an inlined
// libdevice call's line has the peak of its body.
struct IrLineLive {
    int module = 0;  // index into the map's modules
    int line = 0;
    int gpr = 0;
    bool operator==(const IrLineLive&) const = default;
};
std::vector<IrLineLive> liveByIrLine(const OutputMap& sassMap, const SassListing& listing,
                                     const std::vector<LiveCount>& counts);
// The same carried on to the lines of another output (PTX, LTO PTX) through its map: each of its
// lines gets the figure of the IR line it came from; -1 where it has none. Index = line - 1.
std::vector<int> liveByOutputLine(const OutputMap& outputMap, const std::vector<IrLineLive>& byIrLine);

}  // namespace nvpg::inspect
