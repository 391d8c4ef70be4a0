#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/inspect/LiveRegisters.h"
#include "core/pipeline/CompileResult.h"

namespace nvpg::pipeline {

// The registers live in one kernel's SASS at its busiest instruction, and the IR line it came from.
struct KernelLivePeak {
    std::string kernel;
    int gpr = 0;       // the most general registers live at once
    int sassLine = 0;  // its first instruction with that many, 1-based in CompileResult::sass
    // The IR line of the first instruction with that many that the line map places (none without
    // a line map, or where no such instruction came from an IR line).
    std::string module;
    int line = 0;
    std::optional<int> registers;  // ptxas' figure of the kernel's code, when known
};

// What a result says of live registers, carried to every output a front end shows: the SASS's
// own figures, the per-kernel peaks, and the figures of IR, PTX and LTO PTX lines through the line
// map (each line gets the largest count of the SASS instructions it became; an IR line that calls
// an inlined libdevice function has that function's count, since its code maps to the call line).
struct LiveFigures {
    std::string source;       // "nvdisasm -c -lrm count of the PTX's whole-program cubin"
    std::string unavailable;  // why there are none (no SASS, an nvdisasm without life ranges)
    inspect::SassListing listing;
    std::vector<inspect::LiveCount> counts;  // by listing.instructions
    std::vector<KernelLivePeak> kernels;     // entries only, in the listing's order
    std::string mapUnavailable;              // why the figures stop at the SASS, when they do
    std::vector<inspect::IrLineLive> irLines;
    std::vector<int> ptxLines, ltoPtxLines;  // by line - 1; -1 for a line without a figure
    bool available() const { return unavailable.empty(); }
    // The figure of IR line `line` of module `module` (by its index in the map); -1 when none.
    int irLine(int module, int line) const;
};
LiveFigures liveFigures(const CompileResult& result);

// Where the result's code reads or writes local memory (ptxas' spills, and arrays kept in local
// memory): SASS LDL/STL, PTX and LTO PTX ld.local/st.local lines (1-based, in order), and the IR
// lines they came from through the line map (by module index, then line; none without a map).
struct LocalMemoryPlaces {
    std::vector<int> sass, ptx, ltoPtx;
    std::vector<inspect::IrLine> ir;
    bool empty() const { return sass.empty() && ptx.empty() && ltoPtx.empty(); }
};
LocalMemoryPlaces localMemoryPlaces(const CompileResult& result);
nlohmann::ordered_json localMemoryJson(const LocalMemoryPlaces& places, const inspect::LineMap* map);

// "peak 19 live at math.ll:44" (or "peak 19 live, SASS line 52" without an IR line): the one
// wording of a kernel's peak, in the app's panes and nvpg's messages.
std::string peakWords(const KernelLivePeak& peak);

// --line-map's "live" member and the report's per-kernel peaks (documented in docs/cli/compile.md).
nlohmann::ordered_json liveJson(const LiveFigures& live, const inspect::LineMap* map);
nlohmann::ordered_json kernelLiveJson(const KernelLivePeak& peak);

// The listing with each instruction's figures beside it ("  // live 12 R, 1 P, 2 UR, 0 UP"), as
// `nvpg compile --emit sass --live` writes it; other lines as they are.
std::string sassWithLiveColumn(std::string_view listing, const LiveFigures& live);

}  // namespace nvpg::pipeline
