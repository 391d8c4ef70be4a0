// The stages of a compile job, typed: the pipeline announces them as it starts each, times them
// in its CompileResult, and the engine sends both across the process boundary by their stable names.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nvpg::pipeline {

enum class StageId {
    AddModules,            // timing: every module into a new Program
    AddModule,             // progress: one module (named) into a Program
    Verify,                // libNVVM's verifier only
    CompilePtx,            // libNVVM to PTX
    CompilePtxLibdevice,   // progress: the same, linking libdevice into the Program first
    ReadPtx,               // timing: reading the PTX's entries
    CompileLtoIr,          // -gen-lto of the whole program
    CompileModuleLtoIr,    // progress: -gen-lto of one module (named), in separate mode
    CompileLtoIrSeparate,  // timing: -gen-lto of every module on its own
    LinkLtoPtx,            // nvJitLink: LTO-IR to PTX
    LinkLtoCubin,          // nvJitLink: LTO-IR to cubin
    AssembleCubin,         // ptxas: the PTX as a whole program, for its figures
    Disassemble,           // nvdisasm: the SASS of the cubin
    MapLines,              // the line-annotated twin's compiles and the map (after the plain result)
    AnalyseSass,           // nvdisasm: live registers and the control-flow graph (after the listing)
};

// A stage as announced while it runs: which one, and the module it works on where it has one.
struct StageEvent {
    StageId id = StageId::CompilePtx;
    std::string module;
    // The stages running beside it when it started (the PTX and the LTO chains run side by side).
    std::vector<StageId> alongside{};
    bool operator==(const StageEvent&) const = default;
};

// The stable name of a stage ("compile PTX"), for reports and the engine protocol.
std::string_view stageName(StageId id);
// The stage of that name; none for a name no stage has.
std::optional<StageId> stageFromName(std::string_view name);
// What a person reads while it runs: "adding module b.bc", "compiling PTX".
std::string stageWords(const StageEvent& stage);
// nvJitLink's stages (the others are libNVVM's).
bool isLinkStage(StageId id);

}  // namespace nvpg::pipeline
