#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/pipeline/CompileResult.h"
#include "core/pipeline/Job.h"

namespace nvpg::pipeline {

// The compiles of a session, newest first, each with what caused it: what "what did my last edit
// change?" is answered from without a pin made beforehand. Bounded: the newest kept are at most
// Limits::entries and at most Limits::bytes of results (the newest one always stays); the results
// are shared with whoever shows them, so an entry costs only what nothing else holds.
// Which workspace a compile is of: `key` tells the session's workspaces apart (the front end's
// choice: a file's path, else one per workspace made), `name` is how people call it.
struct HistoryWorkspace {
    std::string key, name;
};

struct HistoryEntry {
    uint64_t id = 0;  // 1, 2, …: the order of the session's compiles
    std::chrono::system_clock::time_point when;
    HistoryWorkspace workspace;
    std::string cause;  // "math.ll: line 48 edited", "ftz 0 → 1", "fix: Add @k to @llvm.used"
    std::shared_ptr<const CompileResult> result;
    size_t bytes = 0;  // resultBytes(*result)
};

// What a result holds in memory, roughly: its texts, listings and map.
size_t resultBytes(const CompileResult& r);

// Why `after` was compiled when `before` was the compile before it: the modules edited (with
// their changed lines, in `after`'s numbering), added, removed or reordered, the options changed
// ("ftz 0 → 1"), libdevice, verify or LTO mode switched; "compiled again" when nothing differs.
std::string describeChange(const Job& before, const Job& after);

// One line of the timeline: an entry's figures, for every output the result has.
struct HistoryFigures {
    std::optional<int> registers;         // the most any kernel uses (the LTO cubin's when linked)
    std::optional<int> spillBytes;        // stores and loads of every kernel
    std::optional<int> sassInstructions;  // of every function of the SASS
    std::optional<size_t> ptxBytes, ltoIrBytes, linkedPtxBytes, cubinBytes;
};
HistoryFigures historyFigures(const CompileResult& r);
// "22:14:03", local time: how an entry's time is written everywhere.
std::string historyTime(const HistoryEntry& e);
// The timeline: its column names, then an entry's cells ("-" where the result has none).
std::vector<std::string> historyColumns();
std::vector<std::string> historyRow(const HistoryEntry& e);

struct HistoryLimits {
    size_t entries = 50;
    size_t bytes = size_t(256) << 20;
};

class CompileHistory {
public:
    using Limits = HistoryLimits;
    explicit CompileHistory(Limits limits = {}) : limits_(limits) {}

    // A shown compile of `job` in `workspace`: its cause is `cause` when given (a fix applied),
    // else describeChange against the newest compile of the same workspace ("first compile of
    // NAME" for its first: the modules of another workspace are neither added nor removed).
    // Drops the oldest entries beyond the limits. Returns the new entry's id.
    uint64_t add(const Job& job, std::shared_ptr<const CompileResult> result, std::string cause = {},
                 HistoryWorkspace workspace = {});
    // The entry's complete result (its SASS and map came later); false when it was dropped.
    bool complete(uint64_t id, std::shared_ptr<const CompileResult> result);

    const std::deque<HistoryEntry>& entries() const { return entries_; }  // newest first
    const HistoryEntry* find(uint64_t id) const;
    // The compile before the newest in the newest's workspace, or null.
    const HistoryEntry* previous() const;
    size_t bytes() const { return bytes_; }
    const Limits& limits() const { return limits_; }
    void clear();

private:
    void trim();

    Limits limits_;
    std::deque<HistoryEntry> entries_;
    size_t bytes_ = 0;
    uint64_t next_ = 1;
    // Each workspace's newest compile's job (modules and options), for its next cause; a workspace
    // whose entries are all dropped is dropped here too.
    std::map<std::string, Job> last_;
};

}  // namespace nvpg::pipeline
