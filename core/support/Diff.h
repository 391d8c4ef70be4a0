#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nvpg::support {

// A line diff in the form `diff -u` writes: "--- before" / "+++ after" headers, then hunks
// with `context` lines around each change, numbered as diff -u numbers them, removed lines
// before added ones within a change, and "\ No newline at end of file" after a last line that
// has none. Empty `text` when the two are equal.
struct UnifiedDiff {
    std::string text;
    int added = 0;    // lines
    int removed = 0;  // lines
    int hunks = 0;
};

UnifiedDiff unifiedDiff(std::string_view before, std::string_view after, std::string_view beforeName,
                        std::string_view afterName, int context = 3);

}  // namespace nvpg::support

namespace nvpg::support {

// A line diff that decides equality on keys (a line's text with what does not matter taken out,
// e.g. register numbers) and shows the lines as written, numbered on both sides. Within a run of
// changes, a removed and an added line that look alike (same opcode, small edit distance) are
// paired, in order, into one changed line: an edited instruction is one row, not a delete and
// an insert. `text` is still a unified diff of the original texts (a pair prints as its "-" line
// then its "+" line), so patch and diff viewers read it.
struct DiffRow {
    enum class Kind { Same, Changed, Removed, Added };
    Kind kind = Kind::Same;
    int lineA = 0, lineB = 0;  // 1-based; 0 where the row has no line on that side
    std::string textA, textB;  // as written; empty where the side has none
};
struct DiffHunk {
    int startA = 0, countA = 0, startB = 0, countB = 0;  // as a unified diff's "@@" line
    std::vector<DiffRow> rows;                           // the changes with `context` same rows around
};
struct PairedDiff {
    std::vector<DiffHunk> hunks;
    std::string text;  // empty when the keys are all equal
    int changed = 0, removed = 0, added = 0;
    int lines() const { return changed + removed + added; }
};

// One key per line of each side, in order (lines split on '\n', without it): a line of A and one
// of B are the same when their keys are.
using LineKeys = std::function<std::pair<std::vector<std::string>, std::vector<std::string>>(
    const std::vector<std::string>& a, const std::vector<std::string>& b)>;

PairedDiff pairedDiff(std::string_view before, std::string_view after, const LineKeys& keys,
                      std::string_view beforeName, std::string_view afterName, int context = 3);

}  // namespace nvpg::support
