// Two results side by side (pipeline::Comparison): what both front ends show of a pair. The
// results here are built by hand, so that each figure and each missing piece is known; the real
// compiles of two toolkits and two option sets are tst_cli_compare's.
#include <QtTest>

#include "pipeline/Comparison.h"
#include "pipeline/ResultJson.h"
#include "support/Text.h"

using namespace nvpg;
using pipeline::CompareOutput;

namespace {

std::string ptxOf(std::initializer_list<std::pair<const char*, int>> kernels) {
    std::string ptx = "//\n.version 9.0\n.target sm_90\n.address_size 64\n\n";
    for (const auto& [name, body] : kernels) {
        ptx += std::string(".visible .entry ") + name + "(\n\t.param .u64 p\n)\n{\n";
        for (int i = 0; i < body; ++i) ptx += "\tadd.s32 \t%r" + std::to_string(i) + ", %r0, 1;\n";
        ptx += "\tret;\n}\n\n";
    }
    return ptx;
}

pipeline::CompileResult resultOf(std::string ptx, std::vector<ptx::ResourceUsage> figures,
                                 std::vector<inspect::SassFunction> sass, double compileSeconds) {
    pipeline::CompileResult r;
    r.ok = true;
    r.arch = "compute_90";
    r.ptx = std::move(ptx);
    r.ptxModule = ptx::readPtx(r.ptx);
    r.ptxFigures.source = "ptxas";
    r.ptxFigures.functions = std::move(figures);
    r.sassFunctions = std::move(sass);
    r.stages = {{pipeline::StageId::Verify, 0.001},
                {pipeline::StageId::CompilePtx, compileSeconds},
                {pipeline::StageId::AssembleCubin, 0.5}};
    return r;
}

ptx::ResourceUsage usage(const char* f, int regs, int spillStores = 0) {
    ptx::ResourceUsage u;
    u.function = f;
    u.isEntry = true;
    u.registers = regs;
    u.spillStores = spillStores;
    return u;
}

}  // namespace

class TestCompare : public QObject {
    Q_OBJECT

private slots:
    void identicalOutputsSaySoAndHaveNoDiff() {
        const auto a = resultOf(ptxOf({{"k", 3}}), {usage("k", 10)}, {{"k", 20, true}}, 0.010);
        const auto b = resultOf(ptxOf({{"k", 3}}), {usage("k", 10)}, {{"k", 20, true}}, 0.012);
        const auto c = pipeline::compareResults(a, b, CompareOutput::Ptx, "ftz=0", "ftz=0 again");
        QVERIFY(c.identical);
        QVERIFY(c.diff.text.empty());
        QCOMPARE(pipeline::comparisonVerdict(c),
                 std::string("PTX identical (") + std::to_string(support::splitLines(a.ptx).size()) + " lines)");
        QCOMPARE(c.secondsA, 0.011);  // verify and the PTX compile, not ptxas' figures
        const auto table = pipeline::formatComparisonTable(c);
        const auto lines = support::splitLines(table);
        QVERIFY2(lines.size() == 3, table.c_str());
        QVERIFY2(support::startsWith(lines[1], "k ") && lines[1].find(" 10 ") != std::string_view::npos &&
                     lines[1].find(" 20 ") != std::string_view::npos,
                 table.c_str());
        QVERIFY2(lines[1].find("→") == std::string_view::npos,
                 table.c_str());  // no change, no arrow
    }

    // Every figure of every kernel side by side, with its change; a kernel only one side has is
    // listed as such, A's order first.
    void figuresAndKernelsOfBothSides() {
        const auto a = resultOf(ptxOf({{"first", 4}, {"gone", 1}}), {usage("first", 18), usage("gone", 8)},
                                {{"first", 40, true}, {"gone", 9, true}}, 0.02);
        const auto b = resultOf(ptxOf({{"first", 6}, {"added", 2}}), {usage("first", 24, 16), usage("added", 6)},
                                {{"first", 52, true}, {"added", 11, true}}, 0.03);
        const auto c = pipeline::compareResults(a, b, CompareOutput::Ptx, "A words", "B words");
        QVERIFY(!c.identical);
        QCOMPARE(c.kernels.size(), size_t(3));
        QCOMPARE(c.kernels[0].kernel, std::string("first"));
        QCOMPARE(c.kernels[1].kernel, std::string("gone"));
        QVERIFY(c.kernels[1].a && !c.kernels[1].b);
        QCOMPARE(c.kernels[2].kernel, std::string("added"));
        QVERIFY(!c.kernels[2].a && c.kernels[2].b);
        QCOMPARE(*c.kernels[0].a->registers, 18);
        QCOMPARE(*c.kernels[0].b->spillStores, 16);
        QCOMPARE(*c.kernels[0].b->sassInstructions, 52);
        // "first" runs from its .entry to "gone"'s/"added"'s .entry: 4 (or 6) instructions and 6
        // lines.
        QCOMPARE(*c.kernels[0].a->ptxLines, 4 + 7);
        QCOMPARE(*c.kernels[0].b->ptxLines, 6 + 7);
        const auto table = pipeline::formatComparisonTable(c);
        QVERIFY2(table.find("18 → 24 (+6)") != std::string::npos, table.c_str());
        QVERIFY2(table.find("40 → 52 (+12)") != std::string::npos, table.c_str());
        QVERIFY2(table.find("gone (A only)") != std::string::npos, table.c_str());
        QVERIFY2(table.find("added (B only)") != std::string::npos, table.c_str());
        QVERIFY2(table.find("8 → -") != std::string::npos, table.c_str());
        // The diff is the PTX's, headed by the sides' labels.
        QVERIFY(support::startsWith(c.diff.text, "--- A: A words\n+++ B: B words\n"));
        QVERIFY(c.diff.added > 0 && c.diff.removed > 0);
        QVERIFY(pipeline::comparisonVerdict(c).find("lines differ") != std::string::npos);
        const auto j = pipeline::comparisonJson(c);
        QCOMPARE(j["kernels"][0]["b"]["registers"].get<int>(), 24);
        QVERIFY(j["kernels"][1]["b"].is_null());
        QCOMPARE(j["identical"].get<bool>(), false);
    }

    // A side without the output says why, and nothing is diffed.
    void aMissingOutputIsSaidNotDiffed() {
        auto a = resultOf(ptxOf({{"k", 3}}), {usage("k", 10)}, {}, 0.01);
        auto b = a;
        b.sassUnavailable = "nvdisasm not found: install it";
        a.sass = "\t/*0000*/  MOV R1, c[0x0][0x28] ;\n";
        const auto c = pipeline::compareResults(a, b, CompareOutput::Sass, "a", "b");
        QVERIFY(!c.identical);
        QVERIFY(c.diff.text.empty());
        QCOMPARE(c.missingB, std::string("nvdisasm not found: install it"));
        QCOMPARE(pipeline::comparisonVerdict(c), std::string("no SASS on side B: nvdisasm not found: install it"));
        auto failed = a;
        failed.ok = false;
        failed.ptx.clear();
        const auto f = pipeline::compareResults(a, failed, CompareOutput::Ptx, "a", "b");
        QVERIFY(support::startsWith(f.missingB, "the compile failed"));
    }

    void theLtoSideUsesTheLinkedPtxAndItsFigures() {
        auto a = resultOf(ptxOf({{"k", 3}}), {usage("k", 10)}, {}, 0.01);
        a.linkedPtx = ptxOf({{"k", 2}});
        a.linkedPtxModule = ptx::readPtx(a.linkedPtx);
        a.ltoFigures.functions = {usage("k", 7)};
        a.stages.push_back({pipeline::StageId::CompileLtoIr, 0.004});
        a.stages.push_back({pipeline::StageId::LinkLtoPtx, 0.002});
        const auto c = pipeline::compareResults(a, a, CompareOutput::LtoPtx, "a", "a");
        QVERIFY(c.identical);
        QCOMPARE(*c.kernels[0].a->registers, 7);
        QCOMPARE(c.secondsA, 0.001 + 0.004 + 0.002);
    }

    // A pinned result (workspace::Pin keeps it) comes back with its text outputs and figures, and
    // compares identical with the result it was pinned from; its binary outputs are left out.
    void aPinnedResultComesBackComparable() {
        auto r = resultOf(ptxOf({{"k", 3}, {"j", 2}}), {usage("k", 10, 4), usage("j", 6)}, {{"k", 20, true}}, 0.01);
        r.sass = "\t/*0000*/  MOV R1, c[0x0][0x28] ;\n";
        r.linkedPtx = ptxOf({{"k", 2}});
        r.cubin = std::string(
            "\x7f"
            "ELF\0\1",
            6);
        r.ltoIr = {{"program", std::string("\x7f"
                                           "NVVM",
                                           5)}};
        std::map<std::string, std::string> outputs;
        const auto j = pipeline::pinnedResultToJson(r, outputs);
        QCOMPARE(outputs.size(), size_t(3));
        QCOMPARE(outputs["ptx"], r.ptx);
        const auto back = pipeline::pinnedResultFromJson(j, outputs);
        QVERIFY2(back, back ? "" : back.error().message.c_str());
        QCOMPARE(back->ptx, r.ptx);
        QCOMPARE(back->linkedPtx, r.linkedPtx);
        QCOMPARE(back->sass, r.sass);
        QVERIFY(back->cubin.empty() && back->ltoIr.empty());
        QCOMPARE(back->ptxModule.entries().size(), size_t(2));
        QCOMPARE(back->ptxFigures.find("k")->spillStores, 4);
        for (auto what : {CompareOutput::Ptx, CompareOutput::LtoPtx, CompareOutput::Sass})
            QVERIFY(pipeline::compareResults(*back, r, what, "pinned", "now").identical);
        QCOMPARE(*pipeline::compareResults(*back, r, CompareOutput::Ptx, "pinned", "now").kernels[0].a->spillStores, 4);
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
