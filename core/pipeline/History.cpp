#include "core/pipeline/History.h"

#include <algorithm>
#include <map>

#include <ctime>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "core/support/Text.h"

namespace nvpg::pipeline {

namespace {

size_t mapBytes(const inspect::OutputMap& m) {
    size_t n = m.unavailable.size() + m.origin.size() * sizeof(inspect::IrLine);
    for (const auto* set : {&m.lines, &m.optimisedAway})
        for (const auto& r : *set) n += r.module.size() + r.ranges.size() * sizeof(inspect::LineRange) + 64;
    return n;
}

// "line 48", "lines 40–52"
std::string lineWords(int first, int last) {
    return first == last ? fmt::format("line {}", first) : fmt::format("lines {}–{}", first, last);
}

// The lines of `after` that differ from `before`: from the first differing line to the last,
// counting from the end; nothing when the texts are equal.
std::optional<std::pair<int, int>> changedLines(std::string_view before, std::string_view after) {
    if (before == after) return std::nullopt;
    const auto a = support::splitLines(before), b = support::splitLines(after);
    size_t head = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
    size_t tail = 0;
    while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) ++tail;
    // Lines removed only: the line where they were.
    const int first = int(head) + 1;
    const int last = std::max(first, int(b.size() - tail));
    return std::pair{first, std::min(last, std::max(1, int(b.size())))};
}

std::map<std::string, std::string> flagValues(const nvvm::Options& o) {
    std::map<std::string, std::string> out;
    for (const auto& f : o.flags()) {
        const auto eq = f.find('=');
        const auto name = f.substr(f.starts_with("-") ? 1 : 0, eq == std::string::npos ? f.npos : eq - 1);
        out[name] = eq == std::string::npos ? "on" : f.substr(eq + 1);
    }
    return out;
}

}  // namespace

size_t resultBytes(const CompileResult& r) {
    size_t n = sizeof(CompileResult) + r.arch.size() + r.archSource.size() + r.ptx.size() + r.linkedPtx.size() +
               r.cubin.size() + r.nvvmLog.size() + r.linkInfoLog.size() + r.sass.size() + r.sassSource.size() +
               r.sassUnavailable.size() + r.sassGraph.size() + r.sassGraphUnavailable.size() +
               r.sassLiveUnavailable.size() + r.sassLive.size() * sizeof(inspect::LiveCount);
    for (const auto& l : r.ltoIr) n += l.name.size() + l.bytes.size();
    for (const auto& f : r.flags) n += f.size();
    for (const auto& f : r.libdeviceFunctions) n += f.size();
    for (const auto& d : r.diagnostics) n += sizeof(d) + d.module.size() + d.message.size();
    for (const auto& k : r.kernels) n += sizeof(k) + k.name.size() + k.params.size() * 64;
    for (const auto* f : {&r.ptxFigures, &r.ltoFigures})
        n += f->source.size() + f->unavailable.size() + f->functions.size() * sizeof(ptx::ResourceUsage);
    n += r.sassFunctions.size() * sizeof(inspect::SassFunction);
    if (r.lineMap) {
        const auto& m = *r.lineMap;
        for (const auto* o : {&m.ptx, &m.ltoPtx, &m.sass}) n += mapBytes(*o);
        for (const auto& mod : m.modules)
            n += mod.name.size() + mod.unmapped.size() + mod.instructionLines.size() * sizeof(int);
        n += m.libdevice.size() * sizeof(inspect::LibdeviceExpansion);
    }
    return n;
}

std::string describeChange(const Job& before, const Job& after) {
    std::vector<std::string> parts;
    // Modules, by name: edited, added, removed; then their order.
    std::vector<std::string> namesBefore, namesAfter;
    for (const auto& m : before.modules) namesBefore.push_back(m.name);
    for (const auto& m : after.modules) namesAfter.push_back(m.name);
    for (const auto& m : after.modules) {
        const auto old = std::find_if(before.modules.begin(), before.modules.end(),
                                      [&](const nvvm::Module& o) { return o.name == m.name; });
        if (old == before.modules.end()) {
            parts.push_back(fmt::format("{} added", m.name));
        } else if (m.isBitcode() || old->isBitcode()) {
            if (m.bytes != old->bytes) parts.push_back(fmt::format("{} replaced", m.name));
        } else if (const auto lines = changedLines(old->bytes, m.bytes)) {
            parts.push_back(fmt::format("{}: {} edited", m.name, lineWords(lines->first, lines->second)));
        }
        if (old != before.modules.end() && old->lazy != m.lazy)
            parts.push_back(fmt::format("{} {}", m.name, m.lazy ? "made lazy" : "no longer lazy"));
    }
    for (const auto& name : namesBefore)
        if (std::find(namesAfter.begin(), namesAfter.end(), name) == namesAfter.end())
            parts.push_back(fmt::format("{} removed", name));
    std::vector<std::string> keptBefore, keptAfter;
    for (const auto& n : namesBefore)
        if (std::find(namesAfter.begin(), namesAfter.end(), n) != namesAfter.end()) keptBefore.push_back(n);
    for (const auto& n : namesAfter)
        if (std::find(namesBefore.begin(), namesBefore.end(), n) != namesBefore.end()) keptAfter.push_back(n);
    if (keptBefore != keptAfter) parts.emplace_back("modules reordered");
    // Options, as the flags say them.
    const auto fa = flagValues(before.options), fb = flagValues(after.options);
    std::map<std::string, int> names;
    for (const auto& [k, v] : fa) names[k] = 0;
    for (const auto& [k, v] : fb) names[k] = 0;
    for (const auto& [name, unused] : names) {
        const auto a = fa.find(name), b = fb.find(name);
        const std::string va = a == fa.end() ? "default" : a->second, vb = b == fb.end() ? "default" : b->second;
        if (va != vb) parts.push_back(fmt::format("{} {} → {}", name, va, vb));
    }
    if (before.libdevice != after.libdevice) parts.push_back(after.libdevice ? "libdevice on" : "libdevice off");
    if (before.verify != after.verify) parts.push_back(after.verify ? "verifier on" : "verifier off");
    if (before.ltoMode != after.ltoMode) parts.push_back(fmt::format("LTO mode {}", lto::modeName(after.ltoMode)));
    if (parts.empty()) return "compiled again";
    return support::join(parts, "; ");
}

HistoryFigures historyFigures(const CompileResult& r) {
    HistoryFigures f;
    const auto& figures = r.ltoFigures.functions.empty() ? r.ptxFigures : r.ltoFigures;
    for (const auto& u : figures.functions) {
        if (!u.isEntry) continue;
        f.registers = std::max(f.registers.value_or(0), u.registers);
        f.spillBytes = f.spillBytes.value_or(0) + u.spillStores + u.spillLoads;
    }
    if (!r.sassFunctions.empty()) {
        int n = 0;
        for (const auto& s : r.sassFunctions) n += s.instructions;
        f.sassInstructions = n;
    }
    if (!r.ptx.empty()) f.ptxBytes = r.ptx.size();
    if (!r.ltoIr.empty()) {
        size_t n = 0;
        for (const auto& l : r.ltoIr) n += l.bytes.size();
        f.ltoIrBytes = n;
    }
    if (!r.linkedPtx.empty()) f.linkedPtxBytes = r.linkedPtx.size();
    if (!r.cubin.empty()) f.cubinBytes = r.cubin.size();
    return f;
}

std::string historyTime(const HistoryEntry& e) {
    const std::time_t t = std::chrono::system_clock::to_time_t(e.when);
    std::tm local{};
    localtime_r(&t, &local);
    return fmt::format("{:%H:%M:%S}", local);
}

std::vector<std::string> historyColumns() {
    return {"#", "time", "cause", "registers", "spills", "SASS instructions", "PTX", "LTO-IR", "LTO PTX", "cubin"};
}

std::vector<std::string> historyRow(const HistoryEntry& e) {
    const auto f = e.result ? historyFigures(*e.result) : HistoryFigures{};
    auto number = [](std::optional<int> v) { return v ? std::to_string(*v) : std::string("-"); };
    auto size = [](std::optional<size_t> v) { return v ? support::formatBytes(*v) : std::string("-"); };
    std::string cause = e.cause;
    if (e.result && !e.result->ok) cause += " (failed)";
    return {std::to_string(e.id),
            historyTime(e),
            cause,
            number(f.registers),
            f.spillBytes ? support::formatBytes(uint64_t(*f.spillBytes)) : "-",
            number(f.sassInstructions),
            size(f.ptxBytes),
            size(f.ltoIrBytes),
            size(f.linkedPtxBytes),
            size(f.cubinBytes)};
}

uint64_t CompileHistory::add(const Job& job, std::shared_ptr<const CompileResult> result, std::string cause,
                             HistoryWorkspace workspace) {
    HistoryEntry e;
    e.id = next_++;
    e.when = std::chrono::system_clock::now();
    const auto last = last_.find(workspace.key);
    e.cause = !cause.empty()           ? std::move(cause)
              : last != last_.end()    ? describeChange(last->second, job)
              : workspace.name.empty() ? "first compile"
                                       : fmt::format("first compile of {}", workspace.name);
    e.bytes = result ? resultBytes(*result) : 0;
    e.result = std::move(result);
    e.workspace = std::move(workspace);
    bytes_ += e.bytes;
    // Only what the next cause needs: the modules and the options.
    Job kept;
    kept.modules = job.modules;
    kept.options = job.options;
    kept.libdevice = job.libdevice;
    kept.verify = job.verify;
    kept.ltoMode = job.ltoMode;
    last_[e.workspace.key] = std::move(kept);
    entries_.push_front(std::move(e));
    trim();
    return entries_.front().id;
}

const HistoryEntry* CompileHistory::previous() const {
    for (size_t i = 1; i < entries_.size(); ++i)
        if (entries_[i].workspace.key == entries_.front().workspace.key) return &entries_[i];
    return nullptr;
}

bool CompileHistory::complete(uint64_t id, std::shared_ptr<const CompileResult> result) {
    for (auto& e : entries_) {
        if (e.id != id) continue;
        bytes_ -= e.bytes;
        e.bytes = result ? resultBytes(*result) : 0;
        e.result = std::move(result);
        bytes_ += e.bytes;
        trim();
        return find(id) != nullptr;
    }
    return false;
}

const HistoryEntry* CompileHistory::find(uint64_t id) const {
    for (const auto& e : entries_)
        if (e.id == id) return &e;
    return nullptr;
}

void CompileHistory::clear() {
    entries_.clear();
    bytes_ = 0;
    last_.clear();
}

void CompileHistory::trim() {
    while (entries_.size() > 1 && (entries_.size() > limits_.entries || bytes_ > limits_.bytes)) {
        bytes_ -= entries_.back().bytes;
        entries_.pop_back();
    }
    for (auto it = last_.begin(); it != last_.end();) {
        const bool held = std::any_of(entries_.begin(), entries_.end(),
                                      [&](const HistoryEntry& e) { return e.workspace.key == it->first; });
        it = held ? std::next(it) : last_.erase(it);
    }
}

}  // namespace nvpg::pipeline
