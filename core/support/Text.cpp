#include "support/Text.h"

#include <charconv>

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

}  // namespace nvpg::support
