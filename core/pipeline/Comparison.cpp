#include "core/pipeline/Comparison.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/inspect/Renaming.h"
#include "core/pipeline/Summary.h"
#include "core/support/Symbols.h"
#include "core/support/Text.h"

namespace nvpg::pipeline {

namespace {

// The lines of each function's PTX: from its declaration to the next function's, or the end.
std::optional<int> ptxLinesOf(const ptx::PtxModule& module, std::string_view text, std::string_view kernel) {
    const auto* f = module.find(kernel);
    if (!f || f->line <= 0) return std::nullopt;
    int next = int(support::splitLines(text).size()) + 1;
    for (const auto& g : module.functions)
        if (g.line > f->line) next = std::min(next, g.line);
    return next - f->line;
}

struct Side {
    const CompileResult& r;
    CompareOutput what;

    bool linked() const {
        return what == CompareOutput::LtoPtx || (what == CompareOutput::Sass && !r.linkedPtx.empty());
    }
    const std::string& text() const {
        return what == CompareOutput::Ptx ? r.ptx : what == CompareOutput::LtoPtx ? r.linkedPtx : r.sass;
    }
    std::string missing() const {
        if (!text().empty()) return {};
        if (what == CompareOutput::Sass && !r.sassUnavailable.empty()) return r.sassUnavailable;
        if (!r.ok) return "the compile failed: " + failureSummary(r);
        return fmt::format("the compile made no {}", compareOutputName(what));
    }
    const ptx::PtxModule& module() const { return linked() ? r.linkedPtxModule : r.ptxModule; }
    const std::string& moduleText() const { return linked() ? r.linkedPtx : r.ptx; }
    std::vector<std::string> kernels() const {
        std::vector<std::string> names;
        for (const auto* e : module().entries()) names.push_back(e->name);
        if (names.empty() && what == CompareOutput::Sass)
            for (const auto& f : r.sassFunctions)
                if (f.isEntry) names.push_back(f.name);
        return names;
    }
    KernelFigures figures(const std::string& kernel) const {
        KernelFigures k;
        const Figures& fig = linked() ? r.ltoFigures : r.ptxFigures;
        if (const auto* u = fig.find(kernel)) {
            k.registers = u->registers;
            k.spillStores = u->spillStores;
            k.spillLoads = u->spillLoads;
            k.stackFrame = u->stackFrame;
        }
        for (const auto& f : r.sassFunctions)
            if (f.name == kernel) k.sassInstructions = f.instructions;
        k.ptxLines = ptxLinesOf(module(), moduleText(), kernel);
        return k;
    }
    double seconds() const {
        std::set<StageId> stages = {StageId::Verify, StageId::CompilePtx};
        if (linked())
            stages = {StageId::Verify, StageId::CompileLtoIr, StageId::CompileLtoIrSeparate, StageId::LinkLtoPtx};
        if (what == CompareOutput::Sass) {
            stages.insert(linked() ? StageId::LinkLtoCubin : StageId::AssembleCubin);
            stages.insert(StageId::Disassemble);
        }
        double s = 0;
        for (const auto& st : r.stages)
            if (stages.count(st.id)) s += st.seconds;
        return s;
    }
};

std::string change(std::optional<int> a, std::optional<int> b) {
    if (!a && !b) return "-";
    const auto shown = [](std::optional<int> v) { return v ? std::to_string(*v) : std::string("-"); };
    if (!a || !b || *a == *b) return a && b ? shown(a) : shown(a) + " → " + shown(b);
    return fmt::format("{} → {} ({:+})", *a, *b, *b - *a);
}

}  // namespace

std::string_view compareOutputName(CompareOutput what) {
    switch (what) {
        case CompareOutput::Ptx:
            return "PTX";
        case CompareOutput::LtoPtx:
            return "LTO PTX";
        case CompareOutput::Sass:
            return "SASS";
    }
    return "PTX";
}

Comparison compareResults(const CompileResult& a, const CompileResult& b, CompareOutput what, std::string_view labelA,
                          std::string_view labelB, DiffStyle style) {
    Comparison c;
    c.output = what;
    c.style = style;
    c.labelA = labelA;
    c.labelB = labelB;
    const Side sa{a, what}, sb{b, what};
    c.textA = sa.text();
    c.textB = sb.text();
    c.missingA = sa.missing();
    c.missingB = sb.missing();
    if (c.missingA.empty() && c.missingB.empty()) {
        c.identical = c.textA == c.textB;
        if (!c.identical)
            c.diff = support::unifiedDiff(c.textA, c.textB, fmt::format("A: {}", labelA), fmt::format("B: {}", labelB));
        if (!c.identical && style == DiffStyle::Normalized)
            c.normalized = support::pairedDiff(
                c.textA, c.textB, what == CompareOutput::Sass ? inspect::matchedSassLines : inspect::matchedPtxLines,
                fmt::format("A: {}", labelA), fmt::format("B: {}", labelB));
    }
    const auto ka = sa.kernels(), kb = sb.kernels();
    for (const auto& k : ka) {
        KernelRow row{k, sa.figures(k), std::nullopt};
        if (std::find(kb.begin(), kb.end(), k) != kb.end()) row.b = sb.figures(k);
        c.kernels.push_back(std::move(row));
    }
    for (const auto& k : kb)
        if (std::find(ka.begin(), ka.end(), k) == ka.end()) c.kernels.push_back({k, std::nullopt, sb.figures(k)});
    c.secondsA = sa.seconds();
    c.secondsB = sb.seconds();
    return c;
}

const std::string& diffText(const Comparison& c) {
    return c.style == DiffStyle::Normalized ? c.normalized.text : c.diff.text;
}

std::string comparisonVerdict(const Comparison& c) {
    const auto name = compareOutputName(c.output);
    if (!c.missingA.empty()) return fmt::format("no {} on side A: {}", name, c.missingA);
    if (!c.missingB.empty()) return fmt::format("no {} on side B: {}", name, c.missingB);
    if (c.identical)
        return fmt::format("{} identical ({})", name,
                           support::plural(int(support::splitLines(c.textA).size()), "line", "lines"));
    // Every count is a part of the total before it: the lines that differ are the changed, the
    // removed and the added ones.
    const auto differ = [](int lines) { return support::plural(lines, "line differs", "lines differ"); };
    const auto hunks = [](int n) { return support::plural(n, "hunk", "hunks"); };
    const int raw = c.diff.added + c.diff.removed;
    if (c.style == DiffStyle::Normalized) {
        const auto& n = c.normalized;
        if (n.lines() == 0)
            return fmt::format("{} the same up to register and label numbering ({} as written)", name, differ(raw));
        return fmt::format("{}: {} ({} changed, {} removed, {} added) in {}, renumbering aside; {} as written", name,
                           differ(n.lines()), n.changed, n.removed, n.added, hunks(int(n.hunks.size())), differ(raw));
    }
    return fmt::format("{}: {} ({} removed, {} added) in {}", name, differ(raw), c.diff.removed, c.diff.added,
                       hunks(c.diff.hunks));
}

std::string figureChanges(const Comparison& c) {
    const auto columns = comparisonColumns();
    std::vector<std::string> kernels;
    for (const auto& k : c.kernels) {
        const auto name = support::readableName(k.kernel, false);
        if (!k.a || !k.b) {
            kernels.push_back(fmt::format("{} only in {}", name, k.a ? "A" : "B"));
            continue;
        }
        std::vector<std::string> changed;
        size_t column = 1;
        for (auto field : {&KernelFigures::registers, &KernelFigures::spillStores, &KernelFigures::spillLoads,
                           &KernelFigures::stackFrame, &KernelFigures::sassInstructions, &KernelFigures::ptxLines}) {
            const auto a = (*k.a).*field, b = (*k.b).*field;
            if (a != b) changed.push_back(columns[column] + " " + change(a, b));
            ++column;
        }
        if (!changed.empty()) kernels.push_back(name + ": " + support::join(changed, ", "));
    }
    return kernels.empty() ? "figures unchanged" : support::join(kernels, "; ");
}

std::vector<std::string> comparisonColumns() {
    return {"kernel", "registers", "spill stores", "spill loads", "stack", "SASS instructions", "PTX lines"};
}

std::vector<std::vector<std::string>> comparisonRows(const Comparison& c) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& k : c.kernels) {
        std::vector<std::string> row = {k.kernel + (!k.a ? " (B only)" : !k.b ? " (A only)" : "")};
        for (auto field : {&KernelFigures::registers, &KernelFigures::spillStores, &KernelFigures::spillLoads,
                           &KernelFigures::stackFrame, &KernelFigures::sassInstructions, &KernelFigures::ptxLines})
            row.push_back(change(k.a ? (*k.a).*field : std::nullopt, k.b ? (*k.b).*field : std::nullopt));
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string formatComparisonTable(const Comparison& c, support::NameStyle names) {
    const auto header = comparisonColumns();
    auto rows = comparisonRows(c);
    for (size_t i = 0; i < rows.size() && i < c.kernels.size(); ++i) {
        const auto& k = c.kernels[i];
        rows[i][0] = support::tableName(k.kernel, names) + (!k.a ? " (B only)" : !k.b ? " (A only)" : "");
    }
    std::vector<size_t> width(header.size());
    for (size_t i = 0; i < header.size(); ++i) {
        width[i] = support::displayWidth(header[i]);
        for (const auto& r : rows) width[i] = std::max(width[i], support::displayWidth(r[i]));
    }
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
        std::string l;
        for (size_t i = 0; i < cells.size(); ++i)
            l += cells[i] +
                 std::string(width[i] - support::displayWidth(cells[i]) + (i + 1 < cells.size() ? 2 : 0), ' ');
        while (!l.empty() && l.back() == ' ') l.pop_back();
        out += l + "\n";
    };
    line(header);
    for (const auto& r : rows) line(r);
    if (rows.empty()) out += "(no kernels)\n";
    out += fmt::format("{} made in: A {}, B {}\n", compareOutputName(c.output), formatSeconds(c.secondsA),
                       formatSeconds(c.secondsB));
    return out;
}

nlohmann::ordered_json comparisonJson(const Comparison& c) {
    nlohmann::ordered_json j;
    j["output"] = std::string(compareOutputName(c.output));
    j["a"] = c.labelA;
    j["b"] = c.labelB;
    j["identical"] = c.identical;
    j["verdict"] = comparisonVerdict(c);
    if (!c.missingA.empty()) j["missing_a"] = c.missingA;
    if (!c.missingB.empty()) j["missing_b"] = c.missingB;
    j["diff"] = {{"added", c.diff.added}, {"removed", c.diff.removed}, {"hunks", c.diff.hunks}};
    if (c.style == DiffStyle::Normalized)
        j["normalized_diff"] = {{"changed", c.normalized.changed},
                                {"removed", c.normalized.removed},
                                {"added", c.normalized.added},
                                {"hunks", c.normalized.hunks.size()}};
    auto figures = [](const std::optional<KernelFigures>& f) -> nlohmann::ordered_json {
        if (!f) return nullptr;
        nlohmann::ordered_json o;
        const auto put = [&](const char* key, std::optional<int> v) {
            o[key] = v ? nlohmann::ordered_json(*v) : nullptr;
        };
        put("registers", f->registers);
        put("spill_stores", f->spillStores);
        put("spill_loads", f->spillLoads);
        put("stack_frame", f->stackFrame);
        put("sass_instructions", f->sassInstructions);
        put("ptx_lines", f->ptxLines);
        return o;
    };
    j["kernels"] = nlohmann::ordered_json::array();
    for (const auto& k : c.kernels)
        j["kernels"].push_back({{"kernel", k.kernel}, {"a", figures(k.a)}, {"b", figures(k.b)}});
    j["seconds"] = {{"a", c.secondsA}, {"b", c.secondsB}};
    return j;
}

}  // namespace nvpg::pipeline
