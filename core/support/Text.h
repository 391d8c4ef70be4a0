#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nvpg::support {

std::string_view trim(std::string_view s);
std::vector<std::string_view> splitLines(std::string_view text);
std::vector<std::string_view> split(std::string_view text, char sep);
bool startsWith(std::string_view s, std::string_view prefix);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
// "a", "a or b", "a, b or c": for messages that list the allowed values.
std::string joinOr(const std::vector<std::string>& parts);
// Strict integer parse of the whole string; false when it is not one.
bool parseInt(std::string_view s, long long& out);

}  // namespace nvpg::support
