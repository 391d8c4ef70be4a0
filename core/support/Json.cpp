#include "core/support/Json.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/support/Text.h"

namespace nvpg::support {

namespace {

// nlohmann reports the 1-based index of the last byte it read; people want line and column.
std::pair<size_t, size_t> lineAndColumn(std::string_view text, size_t byte) {
    size_t pos = byte == 0 ? 0 : byte - 1;
    pos = std::min(pos, text.size());
    const auto head = text.substr(0, pos);
    const size_t line = 1 + static_cast<size_t>(std::count(head.begin(), head.end(), '\n'));
    const size_t nl = head.rfind('\n');
    const size_t column = nl == std::string_view::npos ? pos + 1 : pos - nl;
    return {line, column};
}

// The 1-based byte index of the first '[' or '{' that opens level maxDepth + 1, if any. A scan
// of brackets outside strings: where the text is not JSON before that point, the parser stops
// there anyway, so the scan only has to be right for the valid prefix.
std::optional<size_t> firstTooDeep(std::string_view text, size_t maxDepth) {
    size_t depth = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth) return i + 1;
        } else if (c == ']' || c == '}') {
            if (depth == 0) return std::nullopt;  // not JSON: the parser says where
            --depth;
        }
    }
    return std::nullopt;
}

// Only called on text the parser refused, to learn where: a SAX pass that builds nothing and
// keeps the first error, so that no exception is needed to get nlohmann's byte position.
struct SyntaxErrorFinder : nlohmann::json_sax<nlohmann::json> {
    size_t byte = 0;
    std::string what = "syntax error";

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
        byte = position;
        what = e.what();
        return false;
    }
};

// "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..." -> the
// part after the position, which is given again in our own form.
std::string parseErrorReason(std::string_view what) {
    const auto at = what.find("parse error");
    if (at == std::string_view::npos) return std::string(what);
    const auto colon = what.find(": ", at);
    if (colon == std::string_view::npos) return std::string(what);
    std::string reason(what.substr(colon + 2));
    // The "last read" part quotes the token that failed, which may be a whole long line of the
    // file: a message quotes at most a short piece of it.
    constexpr size_t kMostQuoted = 60;
    if (const auto quote = reason.find("last read: '"); quote != std::string::npos) {
        const size_t from = quote + 12;
        const size_t end = reason.rfind('\'');
        if (end != std::string::npos && end > from && end - from > kMostQuoted)
            reason = reason.substr(0, from + kMostQuoted) + "...' (" + std::to_string(end - from) + " characters)";
    }
    // The "last read" part quotes the input as it was, which may be the very bytes that are not
    // UTF-8; spell those out so that the message itself stays displayable.
    if (!firstNonUtf8(reason)) return reason;
    std::string clean;
    for (char c : reason) {
        const auto u = static_cast<unsigned char>(c);
        clean += u < 0x80 ? std::string(1, c) : fmt::format("\\x{:02X}", u);
    }
    return clean;
}

}  // namespace

ParsedJson parseJson(std::string_view text, size_t maxDepth) {
    ParsedJson p;
    if (const auto deep = firstTooDeep(text, maxDepth)) {
        const auto [line, column] = lineAndColumn(text, *deep);
        p.problem = JsonProblem{line, column,
                                fmt::format("arrays and objects nested deeper than {} levels (this bracket opens "
                                            "level {})",
                                            maxDepth, maxDepth + 1)};
        return p;
    }
    try {
        p.doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
        if (!p.doc.is_discarded()) return p;
        SyntaxErrorFinder finder;
        nlohmann::json::sax_parse(text.begin(), text.end(), &finder);
        const auto [line, column] = lineAndColumn(text, finder.byte);
        p.problem = JsonProblem{line, column, parseErrorReason(finder.what)};
    } catch (const std::exception& e) {
        // Parsing with exceptions off throws only bad_alloc.
        p.doc = nullptr;
        p.problem = JsonProblem{0, 0, fmt::format("cannot parse: {}", e.what())};
    }
    return p;
}

}  // namespace nvpg::support
