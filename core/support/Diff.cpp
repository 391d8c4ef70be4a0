#include "support/Diff.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <dtl/dtl.hpp>

namespace nvpg::support {

namespace {

struct Lines {
    std::vector<std::string> lines;
    bool lastHasNewline = true;
};

// Lines as diff compares them: the newline is not part of a line, but whether the last line
// has one is, so "a" and "a\n" differ.
Lines splitForDiff(std::string_view text) {
    Lines out;
    size_t start = 0;
    while (start < text.size()) {
        size_t nl = text.find('\n', start);
        if (nl == std::string_view::npos) {
            out.lines.emplace_back(text.substr(start));
            out.lastHasNewline = false;
            break;
        }
        out.lines.emplace_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    return out;
}

// diff -u leaves out the count when it is 1; an empty range names the line after which it sits.
std::string range(long start, long count) {
    if (count == 1) return fmt::format("{}", start);
    return fmt::format("{},{}", count == 0 ? start - 1 : start, count);
}

enum class Op { Common, Delete, Add };
struct Edit {
    Op op;
    long oldLine, newLine;  // 0-based index into each side (of the line this edit is about)
};

}  // namespace

UnifiedDiff unifiedDiff(std::string_view before, std::string_view after, std::string_view beforeName,
                        std::string_view afterName, int context) {
    UnifiedDiff out;
    auto a = splitForDiff(before);
    auto b = splitForDiff(after);
    // A last line without a newline is not the same line as one with it. The marker cannot
    // occur inside a line (there are no newlines in lines), so it keeps the two apart.
    const std::string noNewline = "\n";
    if (!a.lastHasNewline) a.lines.back() += noNewline;
    if (!b.lastHasNewline) b.lines.back() += noNewline;

    dtl::Diff<std::string, std::vector<std::string>> diff(a.lines, b.lines);
    diff.compose();

    // The edit script, with each run of changes ordered as diff -u prints it: removals first.
    std::vector<Edit> edits;
    {
        long oldAt = 0, newAt = 0;
        std::vector<Edit> adds;
        for (const auto& [line, info] : diff.getSes().getSequence()) {
            (void)line;
            if (info.type == dtl::SES_COMMON) {
                edits.insert(edits.end(), adds.begin(), adds.end());
                adds.clear();
                edits.push_back({Op::Common, oldAt++, newAt++});
            } else if (info.type == dtl::SES_DELETE) {
                // Before the run's additions, it starts where they started on the new side.
                edits.push_back({Op::Delete, oldAt++, adds.empty() ? newAt : adds.front().newLine});
                ++out.removed;
            } else {
                adds.push_back({Op::Add, oldAt, newAt++});
                ++out.added;
            }
        }
        edits.insert(edits.end(), adds.begin(), adds.end());
    }
    if (out.added + out.removed == 0) return out;

    out.text = fmt::format("--- {}\n+++ {}\n", beforeName, afterName);
    const long n = long(edits.size());
    auto isCommon = [&](long k) { return edits[size_t(k)].op == Op::Common; };
    auto emit = [&](const std::string& line, char mark) {
        out.text += mark;
        if (!line.empty() && line.back() == '\n') {
            out.text.append(line, 0, line.size() - 1);
            out.text += "\n\\ No newline at end of file\n";
        } else {
            out.text += line;
            out.text += '\n';
        }
    };
    long k = 0, prevEnd = 0;
    while (k < n) {
        while (k < n && isCommon(k)) ++k;
        if (k == n) break;
        const long start = std::max(prevEnd, k - context);
        long last = k, j = k;
        for (;;) {
            while (j < n && !isCommon(j)) last = j++;
            long c = j;
            while (c < n && isCommon(c)) ++c;
            // Changes at most two contexts apart share one hunk, as in diff -u.
            if (c < n && c - j <= 2 * long(context)) {
                j = c;
                continue;
            }
            break;
        }
        const long end = std::min(n, last + 1 + context);
        long oldCount = 0, newCount = 0;
        for (long i = start; i < end; ++i) {
            oldCount += edits[size_t(i)].op != Op::Add;
            newCount += edits[size_t(i)].op != Op::Delete;
        }
        const long oldStart = edits[size_t(start)].oldLine + 1;
        const long newStart = edits[size_t(start)].newLine + 1;
        out.text += fmt::format("@@ -{} +{} @@\n", range(oldStart, oldCount), range(newStart, newCount));
        for (long i = start; i < end; ++i) {
            const auto& e = edits[size_t(i)];
            if (e.op == Op::Add)
                emit(b.lines[size_t(e.newLine)], '+');
            else
                emit(a.lines[size_t(e.oldLine)], e.op == Op::Delete ? '-' : ' ');
        }
        ++out.hunks;
        prevEnd = k = end;
    }
    return out;
}

}  // namespace nvpg::support
