#include "core/support/Text.h"

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

std::vector<std::string_view> linesWithBreaks(std::string_view text) {
    std::vector<std::string_view> lines;
    size_t start = 0;
    while (start < text.size()) {
        const size_t nl = text.find('\n', start);
        const size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
        lines.push_back(text.substr(start, end - start));
        start = end;
    }
    return lines;
}

std::vector<std::string_view> splitLines(std::string_view text) {
    auto lines = split(text, '\n');
    for (auto& l : lines)
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (!lines.empty() && lines.back().empty()) lines.pop_back();
    return lines;
}

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

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

namespace {

// The code point that starts at s[i] and its length in bytes; length 0 when the bytes there are
// not UTF-8.
std::pair<char32_t, size_t> decodeUtf8(std::string_view s, size_t i) {
    const auto u = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = u(i);
    size_t n = 0;  // continuation bytes that follow
    char32_t cp = c;
    if (c < 0x80) return {cp, 1};
    if ((c & 0xE0) == 0xC0) {
        n = 1;
        cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        n = 2;
        cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        n = 3;
        cp = c & 0x07;
    } else {
        return {0, 0};
    }
    if (i + n >= s.size()) return {0, 0};
    for (size_t k = 1; k <= n; ++k) {
        if ((u(i + k) & 0xC0) != 0x80) return {0, 0};
        cp = (cp << 6) | (u(i + k) & 0x3F);
    }
    const bool overlong = (n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {0, 0};
    return {cp, n + 1};
}

bool isControl(char32_t cp) {
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

// Characters that reorder what follows on screen ("Trojan Source"): shown escaped, not refused.
bool isBidiControl(char32_t cp) {
    return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F ||
           cp == 0x061C;
}

}  // namespace

std::optional<size_t> firstNonUtf8(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        const auto [cp, len] = decodeUtf8(s, i);
        if (len == 0) return i;
        i += len;
    }
    return std::nullopt;
}

std::optional<size_t> firstControlCharacter(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        const auto [cp, len] = decodeUtf8(s, i);
        if (len != 0 && isControl(cp)) return i;
        i += len == 0 ? 1 : len;
    }
    return std::nullopt;
}

std::string printable(std::string_view s, bool keepLines) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const auto [cp, len] = decodeUtf8(s, i);
        if (len == 0) {
            out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i]));
            ++i;
            continue;
        }
        if (keepLines && (cp == '\n' || cp == '\t'))
            out += static_cast<char>(cp);
        else if (cp == '\n')
            out += "\\n";
        else if (cp == '\r')
            out += "\\r";
        else if (cp == '\t')
            out += "\\t";
        else if (cp < 0x80 && isControl(cp))
            out += fmt::format("\\x{:02x}", static_cast<unsigned>(cp));
        else if (isControl(cp) || isBidiControl(cp))
            out += fmt::format("\\u{:04x}", static_cast<unsigned>(cp));
        else
            out.append(s.substr(i, len));
        i += len;
    }
    return out;
}

size_t displayWidth(std::string_view s) {
    size_t n = 0;
    for (const unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
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

std::string plural(long long n, std::string_view one, std::string_view many) {
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

std::string formatCount(uint64_t n) {
    // Built forwards rather than by inserting commas: GCC 12 warns falsely (-Wrestrict) on
    // std::string::insert here.
    const auto digits = std::to_string(n);
    std::string out;
    out.reserve(digits.size() + digits.size() / 3);
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string joinShort(const std::vector<std::string>& parts, bool alternatives) {
    constexpr size_t kAll = 5, kShown = 3;
    if (parts.size() <= kAll) return alternatives ? joinOr(parts) : join(parts, ", ");
    const std::vector<std::string> shown(parts.begin(), parts.begin() + kShown);
    return fmt::format("{} {} {} more", join(shown, ", "), alternatives ? "or" : "and",
                       formatCount(parts.size() - kShown));
}

}  // namespace nvpg::support
