#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nvpg::support {

std::string_view trim(std::string_view s);
// The text's lines as an editor numbers them (line N is splitLines(text)[N - 1]): a final newline
// ends the last line rather than starting an empty one ("a\nb\n" has the lines of "a\nb"), "" has
// none, "\n" one empty line, and the \r of a CRLF line is not part of it.
std::vector<std::string_view> splitLines(std::string_view text);
// The text's lines each with its own line end ("\n" or "\r\n"; the last may have none), so that
// the lines put back together are the text exactly.
std::vector<std::string_view> linesWithBreaks(std::string_view text);
std::vector<std::string_view> split(std::string_view text, char sep);
bool startsWith(std::string_view s, std::string_view prefix);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
// "a", "a or b", "a, b or c": for messages that list the allowed values.
std::string joinOr(const std::vector<std::string>& parts);
// The first byte that breaks UTF-8 (a stray continuation byte, an overlong form, a surrogate,
// past U+10FFFF, cut short), if any.
std::optional<size_t> firstNonUtf8(std::string_view s);
// The first control character in `s` (C0, DEL, or C1 such as U+0085 written as UTF-8), if any,
// as its byte offset: names with one can rewrite a terminal (ESC sequences), forge lines
// (a newline) or be cut (NUL) wherever they are shown.
std::optional<size_t> firstControlCharacter(std::string_view s);
// `s` made safe to show on a terminal, the one escaping of names and messages for people:
// control characters as \n, \r, \t, \xNN (C0, DEL), \u0085 (C1), bidirectional overrides as
// \u202E, bytes that are not UTF-8 as \xNN; everything else as it is. With keepLines, newlines
// and tabs stay (for messages of several lines).
std::string printable(std::string_view s, bool keepLines = false);
// The columns `s` takes in a terminal's fixed-width font: its UTF-8 characters (for aligning
// tables with "→" and names in them).
size_t displayWidth(std::string_view s);
// Strict integer parse of the whole string; false when it is not one.
bool parseInt(std::string_view s, long long& out);
// "512 B", "19.5 KiB", "4 MiB", "1.2 GiB": the one way sizes are written, in the GUI and in nvpg.
// IEC units on a 1024 base: memory and buffer sizes are powers of two, and "KB" is read as
// 1000 or 1024 depending on who reads it. One decimal, dropped when it is ".0".
std::string formatBytes(uint64_t bytes);

// "1 line", "3 lines": a count and the word for it, in messages both front ends print.
std::string plural(long long n, std::string_view one, std::string_view many);

// "4,097": counts in messages, with thousands separators (English, whatever the locale).
std::string formatCount(uint64_t n);
// A list of names short enough for one message, however many there are: all of them while they
// are few ("a, b, c", or "a, b or c" for `alternatives`), else the first three and how many
// more ("m0.ll, m1.ll, m2.ll and 4,094 more"): a message listing 4,097 modules fills a terminal.
std::string joinShort(const std::vector<std::string>& parts, bool alternatives = false);

// The edit distance (insertions, deletions, substitutions) of sequences `a` and `b`, their
// elements compared by `same(a[i], b[j])`; limit + 1 as soon as it is surely over `limit` (no
// limit by default). `row` is scratch space a caller may keep across calls.
template <class A, class B, class Same>
size_t editDistance(const A& a, const B& b, Same same, std::vector<size_t>& row,
                    size_t limit = std::numeric_limits<size_t>::max()) {
    const bool bounded = limit != std::numeric_limits<size_t>::max();
    const size_t gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
    if (bounded && gap > limit) return limit + 1;
    row.resize(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        size_t rowMin = row[0];
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
            diag = up;
            rowMin = std::min(rowMin, row[j]);
        }
        // Every later row is at least this row's smallest value.
        if (bounded && rowMin > limit) return limit + 1;
    }
    return row[b.size()];
}

}  // namespace nvpg::support
