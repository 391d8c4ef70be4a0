#pragma once

#include <string>
#include <string_view>

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
