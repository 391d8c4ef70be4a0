// The one way core parses JSON that comes from outside (workspace files, engine frames).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace nvpg::support {

// How deeply arrays and objects may nest. nlohmann's parser keeps its own stack, but copying,
// comparing and dumping a value recurse once per level: 60,000 levels in a 120 KB file overflowed
// the stack. Our documents nest 6 levels at most; the rest of the room is for hand edits.
inline constexpr size_t kMaxJsonDepth = 64;

// Where and why a text is not JSON we accept. Line and column are 1-based.
struct JsonProblem {
    size_t line = 0;
    size_t column = 0;
    std::string reason;  // "syntax error while parsing value - ...", "nested deeper than 64 ..."
};

struct ParsedJson {
    nlohmann::json doc;
    std::optional<JsonProblem> problem;  // set when doc is not to be used
};

// Parses `text`, refusing invalid JSON and nesting deeper than `maxDepth` (checked before the
// parser builds anything, so no deep value ever exists). Throws nothing.
ParsedJson parseJson(std::string_view text, size_t maxDepth = kMaxJsonDepth);

}  // namespace nvpg::support
