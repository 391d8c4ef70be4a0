#include "support/Text.h"

#include <charconv>
#include <cmath>
#include <iterator>

#include <fmt/format.h>

namespace nvpg::support {

std::string_view trim(std::string_view s) {
    const char* ws = " \t\r\n";
    const auto b = s.find_first_not_of(ws);
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(ws);
    return s.substr(b, e - b + 1);
}

std::vector<std::string_view> split(std::string_view text, char sep) {
    std::vector<std::string_view> out;
    size_t start = 0;
    while (true) {
        const auto pos = text.find(sep, start);
        if (pos == std::string_view::npos) {
            out.push_back(text.substr(start));
            return out;
        }
        out.push_back(text.substr(start, pos - start));
        start = pos + 1;
    }
}

std::vector<std::string_view> splitLines(std::string_view text) {
    auto lines = split(text, '\n');
    for (auto& l : lines)
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (!lines.empty() && lines.back().empty()) lines.pop_back();
    return lines;
}

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i) out += sep;
        out += parts[i];
    }
    return out;
}

std::string joinOr(const std::vector<std::string>& parts) {
    if (parts.size() <= 1) return join(parts, "");
    std::vector<std::string> head(parts.begin(), parts.end() - 1);
    return join(head, ", ") + " or " + parts.back();
}

bool parseInt(std::string_view s, long long& out) {
    if (s.empty()) return false;
    const auto* end = s.data() + s.size();
    const auto r = std::from_chars(s.data(), end, out);
    return r.ec == std::errc() && r.ptr == end;
}

std::string formatBytes(uint64_t bytes) {
    if (bytes < 1024) return fmt::format("{} B", bytes);
    static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes) / 1024.0;
    size_t unit = 0;
    // Rounding decides the unit: 1048575 bytes is "1 MiB", not "1024 KiB".
    while (unit + 1 < std::size(kUnits) && std::round(v * 10) / 10 >= 1024) {
        v /= 1024.0;
        ++unit;
    }
    std::string s = fmt::format("{:.1f}", v);
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s + " " + kUnits[unit];
}

}  // namespace nvpg::support
