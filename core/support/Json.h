// The one way core parses JSON that comes from outside (workspace files, engine frames).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

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

// Reads a field, or the fallback when it is missing or of another type: what is read comes from
// another process or a file and may be anything, and nlohmann's value() throws on a type mismatch.
template <class T>
T field(const nlohmann::json& j, const char* key, T fallback) {
    if (!j.is_object()) return fallback;
    const auto it = j.find(key);
    if (it == j.end()) return fallback;
    // nlohmann converts numbers with a plain cast, which is undefined behaviour for a float
    // outside the target's range (1e300 as an int): integers must be integers that fit.
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (it->is_number_unsigned()) {
            const auto v = it->template get<uint64_t>();
            return std::in_range<T>(v) ? T(v) : fallback;
        }
        if (it->is_number_integer()) {
            const auto v = it->template get<int64_t>();
            return std::in_range<T>(v) ? T(v) : fallback;
        }
        return fallback;
    }
    try {
        return it->template get<T>();
    } catch (const nlohmann::json::exception&) {
        return fallback;
    }
}
inline std::string field(const nlohmann::json& j, const char* key, const char* fallback) {
    return field<std::string>(j, key, fallback);
}

}  // namespace nvpg::support
