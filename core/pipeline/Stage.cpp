#include "core/pipeline/Stage.h"

#include <array>
#include <utility>

namespace nvpg::pipeline {

namespace {

struct StageInfo {
    StageId id;
    std::string_view name;   // published in reports and the protocol: never change one
    std::string_view words;  // "{}" is the module
};

constexpr std::array kStages{
    StageInfo{StageId::AddModules, "add modules", "adding modules"},
    StageInfo{StageId::AddModule, "add module", "adding module {}"},
    StageInfo{StageId::Verify, "verify", "verifying the IR"},
    StageInfo{StageId::CompilePtx, "compile PTX", "compiling PTX"},
    StageInfo{StageId::CompilePtxLibdevice, "compile PTX with libdevice", "compiling PTX (with libdevice)"},
    StageInfo{StageId::ReadPtx, "read PTX", "reading PTX"},
    StageInfo{StageId::CompileLtoIr, "compile LTO-IR", "compiling LTO-IR"},
    StageInfo{StageId::CompileModuleLtoIr, "compile module LTO-IR", "compiling LTO-IR of {}"},
    StageInfo{StageId::CompileLtoIrSeparate, "compile LTO-IR (separate)", "compiling LTO-IR (separate)"},
    StageInfo{StageId::LinkLtoPtx, "link LTO-IR to PTX", "linking LTO-IR to PTX (nvJitLink)"},
    StageInfo{StageId::LinkLtoCubin, "link LTO-IR to cubin", "linking LTO-IR to cubin (nvJitLink)"},
    StageInfo{StageId::AssembleCubin, "assemble PTX to cubin", "assembling the PTX (ptxas, for its figures)"},
    StageInfo{StageId::Disassemble, "disassemble SASS", "disassembling the cubin (nvdisasm)"},
    StageInfo{StageId::MapLines, "map lines", "mapping IR lines to the outputs"},
    StageInfo{StageId::AnalyseSass, "analyse SASS", "reading live registers and the SASS graph (nvdisasm)"},
};

const StageInfo& info(StageId id) {
    for (const auto& s : kStages)
        if (s.id == id) return s;
    return kStages.front();  // unreachable: every id is in the table
}

}  // namespace

std::string_view stageName(StageId id) {
    return info(id).name;
}

std::optional<StageId> stageFromName(std::string_view name) {
    for (const auto& s : kStages)
        if (s.name == name) return s.id;
    return std::nullopt;
}

std::string stageWords(const StageEvent& stage) {
    std::string words(info(stage.id).words);
    if (const auto at = words.find("{}"); at != std::string::npos) words.replace(at, 2, stage.module);
    return words;
}

bool isLinkStage(StageId id) {
    return id == StageId::LinkLtoPtx || id == StageId::LinkLtoCubin;
}

}  // namespace nvpg::pipeline
