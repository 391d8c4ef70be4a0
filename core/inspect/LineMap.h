#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/support/Result.h"

namespace nvpg::inspect {

// Which output a map is of. Their names ("ptx", "lto-ptx", "sass") are those of --line-map's
// JSON and of --emit.
enum class MappedOutput { Ptx, LtoPtx, Sass };
inline constexpr MappedOutput kMappedOutputs[] = {MappedOutput::Ptx, MappedOutput::LtoPtx, MappedOutput::Sass};
std::string_view mappedOutputName(MappedOutput output);

// Lines of a plain output: 1-based, inclusive.
struct LineRange {
    int first = 0, last = 0;
    bool operator==(const LineRange&) const = default;
};

// Where one IR line went in one output.
struct IrLineRanges {
    std::string module;             // the module's name, as the workspace has it
    int line = 0;                   // 1-based, in the module's text (a bitcode module: its llvm-dis-14 text)
    std::vector<LineRange> ranges;  // sorted, not overlapping, adjacent ones merged
};

// The IR line one output line came from.
struct IrLine {
    int module = -1;  // index into LineMap::modules; -1: from no IR line
    int line = 0;
    bool operator==(const IrLine&) const = default;
};

// The map of one output: plain output lines ↔ IR lines.
struct OutputMap {
    // Why there is no map (a person reads it in the pane): "the line-annotated compile gave
    // other PTX than the plain one at -opt=0 (first difference at line 12: …)". Empty: mapped.
    std::string unavailable;
    std::vector<IrLineRanges> lines;  // by module (workspace order), then line
    std::vector<IrLine> origin;       // one per line of the plain output (index = line - 1)
    // Instruction lines of each mapped module that became no line of this output (optimised
    // away, or folded into others), by module then line.
    std::vector<IrLineRanges> optimisedAway;  // `ranges` empty: just the IR lines
    bool available() const { return unavailable.empty(); }
    // The IR line that plain output line `line` (1-based) came from; module -1 when none.
    IrLine originOf(int line) const;
    // The output ranges of IR line `line` of module `module` (by name); empty when none.
    std::vector<LineRange> rangesOf(std::string_view module, int line) const;
};

// A call line whose callee's body (libdevice's, inlined) became output lines of that line.
struct LibdeviceExpansion {
    std::string module;
    int line = 0;
    std::string function;  // "__nv_sinf"
    MappedOutput output = MappedOutput::Ptx;
    int lines = 0;  // output lines (PTX lines; SASS: instructions) mapped to the call line
};

// One module's place in the map.
struct MappedModule {
    std::string name;
    // Empty when its lines are mapped; else why not ("bitcode: llvm-dis-14 is not installed").
    std::string unmapped;
    std::vector<int> instructionLines;  // 1-based lines that hold an instruction of a define
};

// Everything the line map says about one compile. Computed beside the plain outputs, from a
// line-annotated twin of the modules; it never changes them.
struct LineMap {
    std::vector<MappedModule> modules;  // in workspace order
    OutputMap ptx, ltoPtx, sass;
    std::vector<LibdeviceExpansion> libdevice;
    double seconds = 0;  // the twin's compiles and the mapping, wall time

    const OutputMap& output(MappedOutput which) const;
    OutputMap& output(MappedOutput which);
    int moduleIndex(std::string_view name) const;  // -1 when not there
    // "IR helper.ll:24 → PTX 31–33, 57 · LTO 40–44 · SASS 12 instr"; empty for a line that
    // went nowhere. The one wording of the app's hover and `nvpg`.
    std::string describe(std::string_view module, int line) const;
};

// Fills `lines` and `optimisedAway` of `map` from its `origin` and the modules' instruction
// lines. Both map builders (PTX here, SASS in Sass.h) end with it.
void fillRanges(OutputMap& map, const std::vector<MappedModule>& modules);

// The map of a plain PTX (libNVVM's, or nvJitLink's linked PTX) through the twin's PTX compiled
// with -generate-line-info: when the twin's text without its .loc/.file lines equals the plain
// text without its own, each plain line gets the location of its twin line (only lines that
// isMappablePtxLine says are code). Otherwise the map is unavailable, saying why and where the
// two first differ; `what` names the output in that message ("PTX", "LTO PTX"). `optionHint`:
// why they may differ with these options (" at -opt=0"), or empty.
OutputMap mapPtx(std::string_view plainPtx, std::string_view twinPtx, const std::vector<MappedModule>& modules,
                 std::string_view what, std::string_view optionHint = {});

// The libdevice expansions of every mapped output: each call line of a twin that calls an
// __nv_ function and has output lines, with how many.
struct CallLine {
    std::string module;
    int line = 0;
    std::string function;
};
void addLibdeviceExpansions(LineMap& map, const std::vector<CallLine>& calls);

// --line-map's file, documented in docs/cli/compile.md:
// {"version": 1,
//  "modules": [{"name": "k.ll", "unmapped": "…"(only when not mapped)}],
//  "outputs": {"ptx": [{"module": "k.ll", "line": 21, "ranges": [[40, 143]]}, …]
//                     | {"unavailable": "why"},
//              "lto-ptx": …, "sass": …},
//  "optimised-away": {"ptx": [{"module": "k.ll", "lines": [7, 9]}], …},
//  "libdevice": [{"module": "k.ll", "line": 21, "function": "__nv_sinf", "output": "ptx",
//                 "lines": 104}, …]}
// The same JSON carries the map from the engine process to its front end.
nlohmann::json toJson(const LineMap& map);
support::Result<LineMap> lineMapFromJson(const nlohmann::json& json);

}  // namespace nvpg::inspect
