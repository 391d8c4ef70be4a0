#include "core/pipeline/CompileResult.h"

namespace nvpg::pipeline {

const ptx::ResourceUsage* Figures::find(std::string_view function) const {
    for (const auto& u : functions)
        if (u.function == function) return &u;
    return nullptr;
}

bool CompileResult::hasErrors() const {
    for (const auto& d : diagnostics)
        if (d.severity == nvvm::Severity::Error) return true;
    return false;
}

const Stage* CompileResult::findStage(StageId id) const {
    for (const auto& s : stages)
        if (s.id == id) return &s;
    return nullptr;
}

double CompileResult::stageSeconds(StageId id) const {
    const auto* s = findStage(id);
    return s ? s->seconds : 0;
}

}  // namespace nvpg::pipeline
