// Two results side by side (pipeline::Comparison): what both front ends show of a pair. The
// results here are built by hand, so that each figure and each missing piece is known; the real
// compiles of two toolkits and two option sets are tst_cli_compare's.
#include <QtTest>

#include <regex>

#include "TestSupport.h"
#include "core/inspect/Renaming.h"
#include "core/pipeline/Comparison.h"
#include "core/pipeline/Pipeline.h"
#include "core/pipeline/ResultJson.h"
#include "core/support/Diff.h"
#include "core/support/Text.h"

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

// `text` with every match of `pattern` (group 1 a prefix, group 2 a number) numbered `shift`
// higher: what a compiler's renumbering does when it picks other numbers for the same code.
std::string renumbered(const std::string& text, const char* pattern, int shift) {
    std::string out;
    const std::regex re(pattern);
    auto it = text.cbegin();
    for (std::sregex_iterator m(text.begin(), text.end(), re), end; m != end; ++m) {
        out.append(it, (*m)[0].first);
        out += (*m)[1].str() + std::to_string(std::stoi((*m)[2].str()) + shift);
        it = (*m)[0].second;
    }
    out.append(it, text.cend());
    return out;
}

// PTX with its registers and labels renumbered (every %r, %rd, %f, %fd, %p and $L__BB label).
std::string renumberedPtx(const std::string& ptx) {
    auto t = renumbered(ptx, R"((%(?:rd|fd|r|f|p))(\d+)\b)", 7);
    return renumbered(t, R"((\$L__BB\d+_)(\d+))", 3);
}

// SASS with its registers (not RZ, PT), labels and offsets renumbered.
std::string renumberedSass(const std::string& sass) {
    auto t = renumbered(sass, R"(\b((?:UR|UP|R|P|B))(\d+)\b)", 5);
    t = renumbered(t, R"((\.L_x_)(\d+))", 11);
    return renumbered(t, R"((/\*)(\d{4})(?=\*/))", 16);  // offsets become other (decimal-looking) numbers
}

support::PairedDiff ptxDiff(const std::string& a, const std::string& b) {
    return support::pairedDiff(a, b, inspect::matchedPtxLines, "a", "b");
}

// Replaces the one occurrence of `what` in `text` (the test fails without one).
std::string edited(std::string text, const std::string& what, const std::string& with) {
    const auto at = text.find(what);
    if (at == std::string::npos || text.find(what, at + 1) != std::string::npos)
        qFatal("edited: \"%s\" is not in the text once", what.c_str());
    return text.replace(at, what.size(), with);
}

pipeline::CompileResult compiled(const std::string& name, const std::string& ir, bool libdevice) {
    pipeline::Job job;
    job.modules = {{name, ir, false}};
    job.libdevice = libdevice;
    job.options.arch = "compute_90";
    job.outputs = pipeline::kPtx;
    pipeline::Pipeline p(test::realToolkit());
    auto r = p.run(job);
    if (!r || !r->ok) qFatal("compiling %s failed", name.c_str());
    return *r;
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

    // The verdict's counts are parts of the total they follow: numba's axpy with its fadd made
    // fsub is the fma made a sub (changed) and a mul added, 2 lines that differ (1 changed, 0
    // removed, 1 added), never "1 line changed (0 removed, 1 added)".
    void theVerdictsCountsAddUpToItsTotal() {
        const auto ir = test::readText(test::dataDir() / "numba/axpy.ll");
        const auto a = compiled("axpy.ll", ir, true);
        const auto b = compiled(
            "axpy.ll",
            edited(ir, "%\".137\" = fadd float %\".101\", %\".134\"", "%\".137\" = fsub float %\".101\", %\".134\""),
            true);
        const auto c = pipeline::compareResults(a, b, CompareOutput::Ptx, "fadd", "fsub");
        const int raw = c.diff.added + c.diff.removed;
        QVERIFY(raw > 3);
        QCOMPARE(pipeline::comparisonVerdict(c),
                 "PTX: 2 lines differ (1 changed, 0 removed, 1 added) in 1 hunk, renumbering aside; " +
                     std::to_string(raw) + " lines differ as written");
        const auto bytes = pipeline::compareResults(a, b, CompareOutput::Ptx, "fadd", "fsub", pipeline::DiffStyle::Raw);
        QCOMPARE(pipeline::comparisonVerdict(bytes),
                 "PTX: " + std::to_string(raw) + " lines differ (" + std::to_string(c.diff.removed) + " removed, " +
                     std::to_string(c.diff.added) + " added) in " + std::to_string(c.diff.hunks) +
                     (c.diff.hunks == 1 ? " hunk" : " hunks"));
        const auto k = resultOf(ptxOf({{"k", 3}}), {usage("k", 10)}, {}, 0.01);
        // Whatever the edit, each verdict's total is the sum of its parts.
        const std::regex counts(R"((\d+) lines? differs? \((\d+) changed, (\d+) removed, (\d+) added\))");
        for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
                 {"%r0, 1;", "%r0, 7;"}, {"\tret;\n", "\tadd.s32 \t%r5, %r5, 5;\n\tret;\n"}, {"add.s32", "sub.s32"}}) {
            std::string text = k.ptx;
            for (auto p = text.find(from); p != std::string::npos; p = text.find(from, p + to.size()))
                text.replace(p, from.size(), to);
            const auto v = pipeline::comparisonVerdict(
                pipeline::compareResults(k, resultOf(text, {usage("k", 10)}, {}, 0.01), CompareOutput::Ptx, "A", "B"));
            std::smatch m;
            QVERIFY2(std::regex_search(v, m, counts), v.c_str());
            QCOMPARE(std::stoi(m[1]), std::stoi(m[2]) + std::stoi(m[3]) + std::stoi(m[4]));
        }
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

    // What changes when a line changes. A paired diff numbers and keeps both sides'
    // lines as written; an edited line is one changed row.
    void anEditedLineIsOneChangedRow() {
        const std::string a = "one\ntwo\n\tadd.f32 \t%f3, %f1, %f2;\nfour\nfive\n";
        const std::string b = "one\ntwo\n\tsub.f32 \t%f3, %f1, %f2;\nfour\nfive\n";
        const auto d = ptxDiff(a, b);
        QCOMPARE(d.lines(), 1);
        QCOMPARE(d.changed, 1);
        QCOMPARE(d.hunks.size(), size_t(1));
        const auto& h = d.hunks[0];
        QCOMPARE(h.startA, 1);
        QCOMPARE(h.countA, 5);
        const auto& row = h.rows[2];
        QCOMPARE(row.kind, support::DiffRow::Kind::Changed);
        QCOMPARE(row.lineA, 3);
        QCOMPARE(row.lineB, 3);
        QCOMPARE(row.textA, std::string("\tadd.f32 \t%f3, %f1, %f2;"));
        QCOMPARE(row.textB, std::string("\tsub.f32 \t%f3, %f1, %f2;"));
        // Still a unified diff, the same as the byte-for-byte one here.
        QCOMPARE(d.text, support::unifiedDiff(a, b, "a", "b").text);
        // Unlike lines are not paired: a removed line and an added one.
        const auto apart = ptxDiff("x\n\tret;\ny\n", "x\n\tld.global.f32 \t%f1, [%rd4+8];\ny\n");
        QCOMPARE(apart.changed, 0);
        QCOMPARE(apart.removed, 1);
        QCOMPARE(apart.added, 1);
        // Lines written the same are the same whatever their keys (names matched between the
        // sides must not make a line differ from its copy).
        const auto apartKeys = [](const std::vector<std::string>& x, const std::vector<std::string>& y) {
            return std::pair{std::vector<std::string>(x.size(), "x"), std::vector<std::string>(y.size(), "y")};
        };
        QCOMPARE(support::pairedDiff(a, a, apartKeys, "a", "b").lines(), 0);
        // A line without its newline is no longer the same line.
        const auto nl = ptxDiff("a\nb", "a\nb\n");
        QCOMPARE(nl.lines(), 1);
        QVERIFY2(nl.text.find("\\ No newline at end of file") != std::string::npos, nl.text.c_str());
    }

    // Over real PTX: numba's kernel with every register and label renumbered is the same; with
    // one instruction edited besides, that one line is the change, however many lines moved.
    void renumberedPtxIsTheSameAndAnEditIsOneLine() {
        const auto a = test::readText(test::dataDir() / "numba/math_kernel.ptx");
        const auto b = renumberedPtx(a);
        QVERIFY(a != b);
        const auto raw = support::unifiedDiff(a, b, "a", "b");
        QVERIFY2(raw.added > 100, raw.text.c_str());
        const auto same = ptxDiff(a, b);
        QVERIFY2(same.lines() == 0 && same.text.empty(), same.text.c_str());
        // Labels alone renumbered.
        QCOMPARE(ptxDiff(a, renumbered(a, R"((\$L__BB\d+_)(\d+))", 40)).lines(), 0);
        // One instruction edited in the renumbered text: the first add.f32 becomes a sub.f32.
        const auto at = b.find("\tadd.f32");
        QVERIFY(at != std::string::npos);
        auto c = b;
        c.replace(at, 8, "\tsub.f32");
        const auto d = ptxDiff(a, c);
        QVERIFY2(d.lines() == 1 && d.changed == 1, d.text.c_str());
        const auto& row = d.hunks.at(0).rows.at(3);
        QCOMPARE(row.kind, support::DiffRow::Kind::Changed);
        QVERIFY(support::startsWith(row.textA, "\tadd.f32"));
        QVERIFY(support::startsWith(row.textB, "\tsub.f32"));
        QCOMPARE(std::string(support::splitLines(a)[size_t(row.lineA - 1)]), row.textA);
        QCOMPARE(std::string(support::splitLines(c)[size_t(row.lineB - 1)]), row.textB);
        QCOMPARE(row.lineA, row.lineB);
    }

    // What renaming leaves alone: special registers, parameter names, other functions' numbers
    // (each function counts from its own start), and which register is which within one.
    void renamingKeepsWhatIsMeant() {
        const std::vector<std::string> lines = {
            ".visible .entry k(",
            "\t.param .u64 k_param_0",
            ")",
            "{",
            "\t.reg .b32 \t%r<9>;",
            "\tmov.u32 \t%r5, %tid.x;",
            "\tmov.u32 \t%r2, %ctaid.x;",
            "\tmov.u64 \t%rd1, %clock64;",
            "\tadd.s32 \t%r7, %r5, %r2;",
            "\tld.param.u64 \t%rd3, [k_param_0];",
            "\t@%p1 bra \t$L__BB0_4;",
            "$L__BB0_4:",
            ".visible .func f(",
            "\tmov.u32 \t%r9, %envreg3;",
        };
        const auto k = inspect::renamedPtxLines(lines);
        QCOMPARE(k[4], std::string("\t.reg .b32 \t%r<#>;"));
        QCOMPARE(k[5], std::string("\tmov.u32 \t%r#0, %tid.x;"));
        QCOMPARE(k[6], std::string("\tmov.u32 \t%r#1, %ctaid.x;"));
        QCOMPARE(k[7], std::string("\tmov.u64 \t%rd#0, %clock64;"));
        QCOMPARE(k[8], std::string("\tadd.s32 \t%r#2, %r#0, %r#1;"));
        QCOMPARE(k[9], std::string("\tld.param.u64 \t%rd#1, [k_param_0];"));
        QCOMPARE(k[10], std::string("\t@%p#0 bra \t$L__BB#0;"));
        QCOMPARE(k[11], std::string("$L__BB#0:"));
        QCOMPARE(k[13], std::string("\tmov.u32 \t%r#0, %envreg3;"));
        const std::vector<std::string> sass = {
            "\t.section\t.text.k,\"ax\",@progbits",
            "        /*0070*/                   ISETP.GE.AND P0, PT, R3, UR4, PT ;",
            "        /*0080*/              @!P0 BRA `(.L_x_7) ;",
            "        /*0090*/                   IMAD.WIDE R2, R3, 0x4, R12.reuse ;",
            "        /*00a0*/                   BSSY B0, 0x2a0 ;",
            "        /*00b0*/                   LDC R1, c[0x0][0x28] ;",
            "        /*00c0*/                   MOV R2, RZ ;",
            ".L_x_7:",
        };
        const auto s = inspect::renamedSassLines(sass);
        QCOMPARE(s[1], std::string("        /*@*/                   ISETP.GE.AND P#0, PT, R#0, UR#0, PT ;"));
        QCOMPARE(s[2], std::string("        /*@*/              @!P#0 BRA `(.L_x_#0) ;"));
        QCOMPARE(s[3], std::string("        /*@*/                   IMAD.WIDE R#1, R#0, 0x4, R#2.reuse ;"));
        QCOMPARE(s[4], std::string("        /*@*/                   BSSY B#0, 0x@ ;"));
        QCOMPARE(s[5], std::string("        /*@*/                   LDC R#3, c[0x0][0x28] ;"));
        // R2 written again holds another value: a name of its own.
        QCOMPARE(s[6], std::string("        /*@*/                   MOV R#4, RZ ;"));
        QCOMPARE(s[7], std::string(".L_x_#0:"));
    }

    // SASS of libdevice-math (nvdisasm -c, saved in tests/data/sass): renumbered, it is the same;
    // the kernel with fadd made fsub is one changed line, renumbered or not.
    void sassRenamedAndAnEdit() {
        const auto a = test::readText(test::dataDir() / "sass/libdevice-math.sass");
        const auto fsub = test::readText(test::dataDir() / "sass/libdevice-math-fsub.sass");
        const auto sassDiff = [](const std::string& x, const std::string& y) {
            return support::pairedDiff(x, y, inspect::matchedSassLines, "a", "b");
        };
        const auto b = renumberedSass(a);
        QVERIFY(a != b);
        const auto same = sassDiff(a, b);
        QVERIFY2(same.lines() == 0, same.text.c_str());
        const auto d = sassDiff(a, fsub);
        const auto raw = support::unifiedDiff(a, fsub, "a", "b");
        qInfo("libdevice-math SASS, fadd -> fsub: %d lines differ (%d changed) renaming aside; %d as written",
              d.lines(), d.changed, raw.added + raw.removed);
        QVERIFY2(d.lines() >= 1 && d.lines() <= 3, d.text.c_str());
        // ptxas folds the add into an FFMA; the subtraction negates its first operand.
        bool ffma = false;
        for (const auto& h : d.hunks)
            for (const auto& r : h.rows)
                if (r.kind == support::DiffRow::Kind::Changed && r.textA.find("FFMA") != std::string::npos &&
                    r.textB.find("FFMA") != std::string::npos && r.textB.find("-R") != std::string::npos)
                    ffma = true;
        QVERIFY2(ffma, d.text.c_str());
        QVERIFY(raw.added + raw.removed > d.lines());
        // And the edited listing renumbered: still that one changed line.
        const auto d2 = sassDiff(a, renumberedSass(fsub));
        QVERIFY2(d2.lines() == 1 && d2.changed == 1, d2.text.c_str());
    }

    // The figure changes in one line: only what differs, kernels on one side named.
    void figureChangesSayWhatMoved() {
        pipeline::Comparison c;
        pipeline::KernelFigures a, b;
        a.registers = 21;
        b.registers = 18;
        a.sassInstructions = b.sassInstructions = 236;
        a.ptxLines = 340;
        b.ptxLines = 345;
        c.kernels = {{"wave", a, b}, {"gone", a, std::nullopt}};
        QCOMPARE(pipeline::figureChanges(c),
                 std::string("wave: registers 21 → 18 (-3), PTX lines 340 → 345 (+5); gone only in A"));
        c.kernels = {{"wave", a, a}};
        QCOMPARE(pipeline::figureChanges(c), std::string("figures unchanged"));
    }

    // The measure of a useful diff: fadd -> fsub in libdevice-math's kernel, both compiled by the real
    // libNVVM, is at most 3 lines of PTX in the normalized diff (39 byte for byte).
    void faddToFsubInLibdeviceMathIsAFewLines() {
        const auto ws = test::loadExample("libdevice-math");
        const auto ir = ws.modules.at(0).bytes;
        const auto irSub = edited(ir, "%r = fadd float %s, %ep", "%r = fsub float %s, %ep");
        const auto a = compiled(ws.modules[0].name, ir, true);
        const auto b = compiled(ws.modules[0].name, irSub, true);
        const auto c = pipeline::compareResults(a, b, CompareOutput::Ptx, "fadd", "fsub");
        const int raw = c.diff.added + c.diff.removed;
        qInfo("libdevice-math PTX, fadd -> fsub: %d lines differ (%d changed) renaming aside; %d as written (%d hunks)",
              c.normalized.lines(), c.normalized.changed, raw, c.diff.hunks);
        QVERIFY2(c.normalized.lines() >= 1 && c.normalized.lines() <= 3, c.normalized.text.c_str());
        QVERIFY(raw > c.normalized.lines());
        QVERIFY2(c.normalized.text.find("sub.f32") != std::string::npos, c.normalized.text.c_str());
        QVERIFY2(pipeline::comparisonVerdict(c).find("renumbering aside") != std::string::npos,
                 pipeline::comparisonVerdict(c).c_str());
        QCOMPARE(pipeline::diffText(c), c.normalized.text);
        const auto rawStyle =
            pipeline::compareResults(a, b, CompareOutput::Ptx, "fadd", "fsub", pipeline::DiffStyle::Raw);
        QCOMPARE(pipeline::diffText(rawStyle), c.diff.text);
        QVERIFY(rawStyle.normalized.text.empty());
    }

    // numba's IR, one fadd made fsub: the fused multiply-add splits in two, and the register the
    // new mul takes does not renumber the ones after it.
    void numbaEditIsOneChangedLine() {
        const auto ir = test::readText(test::dataDir() / "numba/axpy.ll");
        const auto irSub =
            edited(ir, "%\".137\" = fadd float %\".101\", %\".134\"", "%\".137\" = fsub float %\".101\", %\".134\"");
        const auto a = compiled("axpy.ll", ir, true);
        const auto b = compiled("axpy.ll", irSub, true);
        const auto c = pipeline::compareResults(a, b, CompareOutput::Ptx, "fadd", "fsub");
        // fma becomes mul then sub: the fma line changed and the mul added, nothing else.
        QVERIFY2(c.normalized.lines() == 2 && c.normalized.changed == 1 && c.normalized.added == 1,
                 c.normalized.text.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
