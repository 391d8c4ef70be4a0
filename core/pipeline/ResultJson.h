#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/pipeline/CompileResult.h"
#include "core/support/Result.h"

namespace nvpg::pipeline {

// The one serialization of a CompileResult, which the engine protocol sends and the result
// cache stores: a JSON object and the large outputs as blobs beside it (PTX, linked PTX, cubin,
// SASS, then one per LTO-IR), so that they never go through JSON. The line map is not in it
// (inspect::toJson has it); neither is fromCache.
nlohmann::json resultToJson(const CompileResult& result, std::vector<std::string>& blobs);
// The error says what is wrong ("a result without all its outputs"); a caller puts it in its
// own words (a malformed engine message, a damaged cache file).
support::Result<CompileResult> resultFromJson(const nlohmann::json& json, std::vector<std::string> blobs);

// A result as a pin keeps it in a workspace (workspace::Pin): the JSON object and its text
// outputs by name ("ptx", "lto_ptx", "sass"); its binary outputs (cubin, LTO-IR), which are not
// compared as text, are left out.
nlohmann::json pinnedResultToJson(const CompileResult& result, std::map<std::string, std::string>& outputs);
support::Result<CompileResult> pinnedResultFromJson(const nlohmann::json& json,
                                                    const std::map<std::string, std::string>& outputs);

// The SASS fields of a result (its text goes as a blob) and its stages, which the engine's late
// reply carries alone too.
nlohmann::json sassToJson(const CompileResult& result);
void sassFromJson(const nlohmann::json& json, std::string text, CompileResult& into);
nlohmann::json stagesToJson(const std::vector<Stage>& stages);
// The "stages" field of `json`; a stage of another name than stageName gives is an error.
support::Result<std::vector<Stage>> stagesFromJson(const nlohmann::json& json);

}  // namespace nvpg::pipeline
