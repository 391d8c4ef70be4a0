#include "core/support/Diff.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "core/support/Text.h"

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

namespace {

// A key's words: split on spaces and operand punctuation, without a leading predicate ("@%p1",
// "@!P0") or SASS offset comment, so that the first word is the opcode; a word's "#..." (the
// number a renaming gave a name) is left out.
std::vector<std::string_view> words(std::string_view key) {
    std::vector<std::string_view> out;
    size_t i = 0;
    const auto separator = [](char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == ',' || c == ';' || c == '[' || c == ']' || c == '{' ||
               c == '}' || c == '(' || c == ')';
    };
    while (i < key.size()) {
        while (i < key.size() && separator(key[i])) ++i;
        size_t j = i;
        while (j < key.size() && !separator(key[j])) ++j;
        if (j > i) {
            auto w = key.substr(i, j - i);
            // A renamed name's number ("%f#3", "R#new2") is not what makes two lines alike.
            if (const auto hash = w.find('#'); hash != std::string_view::npos && hash > 0) w = w.substr(0, hash);
            if (!(out.empty() && (w.front() == '@' || startsWith(w, "/*")))) out.push_back(w);
        }
        i = j;
    }
    return out;
}

size_t wordDistance(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
    std::vector<size_t> row;
    return support::editDistance(a, b, std::equal_to<std::string_view>(), row);
}

// How alike two changed lines are, 0 when they are not one line edited: the same opcode, or at
// most half the words changed. Same opcode scores above any other pair.
double likeness(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
    if (a.empty() || b.empty()) return a.empty() && b.empty() ? 1.0 : 0.0;
    const double longest = double(std::max(a.size(), b.size()));
    const double d = double(wordDistance(a, b)) / longest;
    if (a.front() == b.front()) return 2.0 - d;
    return d <= 0.5 ? 1.0 - d : 0.0;
}

struct KeyedLine {
    std::string_view text, key;
    bool operator==(const KeyedLine& o) const { return key == o.key || text == o.text; }
    bool operator!=(const KeyedLine& o) const { return !(*this == o); }
};

// Bigger runs than this (removed times added lines) are left unpaired: the pairing is quadratic.
constexpr size_t kMaxPairingCells = 250000;

// Which removed line goes with which added one, in order: the pairs of most likeness in all
// (an alignment, as an LCS is, over the likeness of each pair).
std::vector<std::pair<long, long>> pairRun(const std::vector<std::string>& keysA, long a0, long n,
                                           const std::vector<std::string>& keysB, long b0, long m) {
    std::vector<std::pair<long, long>> pairs;
    if (n == 0 || m == 0 || size_t(n) * size_t(m) > kMaxPairingCells) return pairs;
    std::vector<std::vector<std::string_view>> wa, wb;
    for (long i = 0; i < n; ++i) wa.push_back(words(keysA[size_t(a0 + i)]));
    for (long j = 0; j < m; ++j) wb.push_back(words(keysB[size_t(b0 + j)]));
    std::vector<double> like(size_t(n * m));
    for (long i = 0; i < n; ++i)
        for (long j = 0; j < m; ++j) like[size_t(i * m + j)] = likeness(wa[size_t(i)], wb[size_t(j)]);
    // best[i][j]: the most likeness pairing the first i removed lines with the first j added.
    std::vector<double> best(size_t((n + 1) * (m + 1)), 0.0);
    const auto at = [&](long i, long j) -> double& { return best[size_t(i * (m + 1) + j)]; };
    for (long i = 1; i <= n; ++i)
        for (long j = 1; j <= m; ++j) {
            double v = std::max(at(i - 1, j), at(i, j - 1));
            const double l = like[size_t((i - 1) * m + (j - 1))];
            if (l > 0) v = std::max(v, at(i - 1, j - 1) + l);
            at(i, j) = v;
        }
    for (long i = n, j = m; i > 0 && j > 0;) {
        const double l = like[size_t((i - 1) * m + (j - 1))];
        if (l > 0 && at(i, j) == at(i - 1, j - 1) + l) {
            pairs.emplace_back(i - 1, j - 1);
            --i, --j;
        } else if (at(i, j) == at(i - 1, j)) {
            --i;
        } else {
            --j;
        }
    }
    std::reverse(pairs.begin(), pairs.end());
    return pairs;
}

}  // namespace

PairedDiff pairedDiff(std::string_view before, std::string_view after, const LineKeys& keys,
                      std::string_view beforeName, std::string_view afterName, int context) {
    PairedDiff out;
    auto a = splitForDiff(before);
    auto b = splitForDiff(after);
    // Not a structured binding: clang 14 (the sanitizer build) cannot capture one in a lambda.
    auto keyed = keys(a.lines, b.lines);
    auto& ka = keyed.first;
    auto& kb = keyed.second;
    ka.resize(a.lines.size());
    kb.resize(b.lines.size());
    // As unifiedDiff: a last line without its newline differs from one with it.
    if (!a.lastHasNewline) ka.back() += "\n", a.lines.back() += "\n";
    if (!b.lastHasNewline) kb.back() += "\n", b.lines.back() += "\n";

    // A line is the same as another when their keys are, and always when they are written the
    // same: a key made from both sides (names matched between them) must not make a line differ
    // from its own copy.
    std::vector<KeyedLine> la, lb;
    la.reserve(ka.size());
    lb.reserve(kb.size());
    for (size_t i = 0; i < ka.size(); ++i) la.push_back({a.lines[i], ka[i]});
    for (size_t i = 0; i < kb.size(); ++i) lb.push_back({b.lines[i], kb[i]});
    dtl::Diff<KeyedLine, std::vector<KeyedLine>> diff(la, lb);
    diff.compose();

    using Kind = DiffRow::Kind;
    struct Row {
        Kind kind;
        long a, b;  // 0-based; -1 for none
    };
    std::vector<Row> rows;
    {
        long oldAt = 0, newAt = 0;
        long runA = 0, runB = 0;  // where the pending run of changes starts
        long removedInRun = 0, addedInRun = 0;
        const auto flush = [&] {
            const auto pairs = pairRun(ka, runA, removedInRun, kb, runB, addedInRun);
            long i = 0, j = 0;
            for (const auto& [pi, pj] : pairs) {
                for (; i < pi; ++i) rows.push_back({Kind::Removed, runA + i, -1});
                for (; j < pj; ++j) rows.push_back({Kind::Added, -1, runB + j});
                rows.push_back({Kind::Changed, runA + i++, runB + j++});
            }
            for (; i < removedInRun; ++i) rows.push_back({Kind::Removed, runA + i, -1});
            for (; j < addedInRun; ++j) rows.push_back({Kind::Added, -1, runB + j});
            removedInRun = addedInRun = 0;
        };
        for (const auto& [line, info] : diff.getSes().getSequence()) {
            (void)line;
            if (info.type == dtl::SES_COMMON) {
                flush();
                rows.push_back({Kind::Same, oldAt++, newAt++});
                runA = oldAt;
                runB = newAt;
            } else if (info.type == dtl::SES_DELETE) {
                ++removedInRun;
                ++oldAt;
            } else {
                ++addedInRun;
                ++newAt;
            }
        }
        flush();
    }
    for (const auto& r : rows) {
        out.changed += r.kind == Kind::Changed;
        out.removed += r.kind == Kind::Removed;
        out.added += r.kind == Kind::Added;
    }
    if (out.lines() == 0) return out;

    const auto shown = [](const std::string& line) {
        return !line.empty() && line.back() == '\n' ? line.substr(0, line.size() - 1) : line;
    };
    out.text = fmt::format("--- {}\n+++ {}\n", beforeName, afterName);
    const auto emit = [&](const std::string& line, char mark) {
        out.text += mark;
        out.text += shown(line);
        out.text += '\n';
        if (!line.empty() && line.back() == '\n') out.text += "\\ No newline at end of file\n";
    };
    const long n = long(rows.size());
    auto isSame = [&](long k) { return rows[size_t(k)].kind == Kind::Same; };
    long k = 0, prevEnd = 0;
    while (k < n) {
        while (k < n && isSame(k)) ++k;
        if (k == n) break;
        const long start = std::max(prevEnd, k - context);
        long last = k, j = k;
        for (;;) {
            while (j < n && !isSame(j)) last = j++;
            long c = j;
            while (c < n && isSame(c)) ++c;
            if (c < n && c - j <= 2 * long(context)) {
                j = c;
                continue;
            }
            break;
        }
        const long end = std::min(n, last + 1 + context);
        DiffHunk h;
        // Where the hunk starts on each side: its first row's line there, or the line after
        // which it sits when that row has none (as diff -u numbers an empty range).
        long firstA = -1, firstB = -1;
        for (long i = start; i < end; ++i) {
            const auto& r = rows[size_t(i)];
            if (r.a >= 0) {
                ++h.countA;
                if (firstA < 0) firstA = r.a;
            }
            if (r.b >= 0) {
                ++h.countB;
                if (firstB < 0) firstB = r.b;
            }
        }
        const auto startOf = [&](long first, bool sideA) {
            if (first >= 0) return int(first + 1);
            // No line on this side: the line before the hunk's place there.
            for (long i = start - 1; i >= 0; --i) {
                const long l = sideA ? rows[size_t(i)].a : rows[size_t(i)].b;
                if (l >= 0) return int(l + 1) + 1;
            }
            return 1;
        };
        h.startA = startOf(firstA, true);
        h.startB = startOf(firstB, false);
        out.text += fmt::format("@@ -{} +{} @@\n", range(h.startA, h.countA), range(h.startB, h.countB));
        for (long i = start; i < end; ++i) {
            const auto& r = rows[size_t(i)];
            DiffRow row;
            row.kind = r.kind;
            if (r.a >= 0) {
                row.lineA = int(r.a + 1);
                row.textA = a.lines[size_t(r.a)];
            }
            if (r.b >= 0) {
                row.lineB = int(r.b + 1);
                row.textB = b.lines[size_t(r.b)];
            }
            if (r.kind == Kind::Same) {
                emit(row.textA, ' ');
            } else {
                if (r.a >= 0) emit(row.textA, '-');
                if (r.b >= 0) emit(row.textB, '+');
            }
            row.textA = shown(row.textA);
            row.textB = shown(row.textB);
            h.rows.push_back(std::move(row));
        }
        out.hunks.push_back(std::move(h));
        prevEnd = k = end;
    }
    return out;
}

}  // namespace nvpg::support
