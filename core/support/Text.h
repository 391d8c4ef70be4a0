#pragma once

#include <cstdint>
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
// "512 B", "19.5 KiB", "4 MiB", "1.2 GiB": the one way sizes are written, in the GUI and in nvpg.
// IEC units on a 1024 base: memory and buffer sizes are powers of two, and "KB" is read as
// 1000 or 1024 depending on who reads it. One decimal, dropped when it is ".0".
std::string formatBytes(uint64_t bytes);

}  // namespace nvpg::support
