// Control-flow graphs (the core's part): from the PTX and the IR of every bundled example
// and numba-cuda fixture, from nvdisasm -bbcfg of their cubins (those functions skip without
// nvdisasm), and of a loop kernel; their DOT read back by Graphviz; their layout by libgvc; and
// `nvpg compile --emit cfg`.
#include <QtTest>

#include <graphviz/cgraph.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <thread>

#include "TestSupport.h"
#include "core/inspect/CfgLayout.h"
#include "core/inspect/ControlFlow.h"
#include "core/inspect/InstructionMix.h"
#include "core/inspect/Sass.h"
#include "core/pipeline/Pipeline.h"
#include "core/ptx/Ptxas.h"
#include "core/support/Files.h"
#include "core/support/Process.h"
#include "core/support/Text.h"

using namespace nvpg;
using inspect::CfgEdgeKind;
using inspect::ControlFlowGraph;
namespace fs = std::filesystem;

namespace {

struct Case {
    std::string name;
    std::vector<nvvm::Module> modules;
    std::string ptx;
};

// Every bundled example, every numba-cuda fixture and the loop fixture, compiled to PTX once.
const std::vector<Case>& cases() {
    static const std::vector<Case> made = [] {
        auto jobs = test::exampleAndNumbaJobs();
        pipeline::Job loop;
        loop.modules = {test::irFixture("loop.ll", false, "cfg")};
        jobs.emplace_back("cfg/loop.ll", loop);
        std::sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<Case> out;
        for (auto& [name, job] : jobs) {
            job.outputs = pipeline::kPtx;
            job.archFromGpu = false;
            pipeline::Pipeline p(test::realToolkit());
            auto r = p.run(job);
            if (!r || r->ptx.empty()) qFatal("%s: no PTX", name.c_str());
            out.push_back({name, job.modules, r->ptx});
        }
        return out;
    }();
    return made;
}

const Case& caseNamed(const std::string& name) {
    for (const auto& c : cases())
        if (c.name == name) return c;
    qFatal("no case %s", name.c_str());
}

// Graphviz's reading of one digraph: its node and edge counts, or -1 when it does not read it.
std::pair<int, int> graphvizCounts(const std::string& dot) {
    Agraph_t* g = agmemread(dot.c_str());
    if (!g) return {-1, -1};
    const std::pair<int, int> counts{agnnodes(g), agnedges(g)};
    agclose(g);
    return counts;
}

// Several digraphs, one after another, cut apart at their first lines.
std::vector<std::string> digraphs(const std::string& dot) {
    std::vector<std::string> out;
    for (auto line : support::splitLines(dot)) {
        if (support::startsWith(line, "digraph ")) out.emplace_back();
        if (out.empty()) return {};  // text before the first digraph
        out.back() += std::string(line) + "\n";
    }
    return out;
}

// A PTX function's blocks, counted from its lines alone: the entry, one per label, and one after
// each bra/ret/exit that no label or closing brace follows.
std::map<std::string, int> ptxBlockCounts(const std::string& ptx) {
    std::map<std::string, int> out;
    std::string function;  // the function whose header or body this is
    int depth = 0;         // braces: the body's, a call sequence's, a scope of .reg
    bool afterJump = false;
    for (auto raw : support::splitLines(ptx)) {
        const auto line = support::trim(raw);
        if (depth == 0) {
            for (const std::string_view kw : {".entry ", ".func "}) {
                const auto at = line.find(kw);
                if (at == std::string_view::npos || line.back() == ';') continue;
                auto rest = support::trim(line.substr(at + kw.size()));
                if (rest[0] == '(') rest = support::trim(rest.substr(rest.find(')') + 1));
                function = std::string(rest.substr(0, rest.find_first_of("( ")));
            }
            if (line == "{" && !function.empty()) {
                depth = 1;
                out[function] = 1;  // the entry
                afterJump = false;
            }
            continue;
        }
        if (support::startsWith(line, "{")) {
            ++depth;
            continue;
        }
        if (support::startsWith(line, "}")) {
            if (--depth == 0) function.clear();
            continue;
        }
        if (line.empty() || line[0] == '.' || support::startsWith(line, "//")) continue;
        if (line.back() == ':') {
            ++out[function];
            afterJump = false;
            continue;
        }
        if (afterJump) ++out[function];
        auto code = line;
        if (code[0] == '@') code = support::trim(code.substr(code.find_first_of(" \t")));
        afterJump = support::startsWith(code, "bra") || code == "ret;" || code == "exit;";
    }
    return out;
}

// The IR's blocks per define, counted from its lines: the entry, plus every label line that is
// not the entry's own.
std::map<std::string, int> irBlockCounts(const std::string& ir) {
    std::map<std::string, int> out;
    std::string function;
    bool first = false;
    for (auto raw : support::splitLines(ir)) {
        if (support::startsWith(raw, "define ")) {
            const auto at = raw.find('@');
            auto name = raw.substr(at + 1, raw.find('(', at) - at - 1);
            if (!name.empty() && name[0] == '"') name = name.substr(1, name.size() - 2);
            function = std::string(name);
            out[function] = 1;
            first = true;
            continue;
        }
        if (function.empty()) continue;
        if (raw == "}") {
            function.clear();
            continue;
        }
        const auto line = support::trim(raw);
        if (line.empty() || (line[0] == ';' && !support::startsWith(line, "; <label>:"))) continue;
        const bool label = raw[0] != ' ' && raw[0] != '\t' && line.find(':') != std::string_view::npos;
        if (label && !first) ++out[function];
        first = false;
    }
    return out;
}

// Each block's lines go up; no line is in two blocks; an edge joins blocks of the graph.
void checkShape(const ControlFlowGraph& g, const std::string& where) {
    std::set<int> seen;
    for (const auto& b : g.blocks) {
        QVERIFY2(std::is_sorted(b.lines.begin(), b.lines.end()), where.c_str());
        QCOMPARE(b.lines.size(), b.instructions.size());
        for (int l : b.lines)
            QVERIFY2(seen.insert(l).second, qPrintable(QString::fromStdString(where) + ": line " + QString::number(l)));
        if (!b.lines.empty()) QVERIFY(b.firstLine <= b.lines.front() && b.lastLine == b.lines.back());
    }
    for (const auto& e : g.edges)
        QVERIFY(e.from >= 0 && e.to >= 0 && size_t(e.from) < g.blocks.size() && size_t(e.to) < g.blocks.size());
    const auto [nodes, edges] = graphvizCounts(inspect::toDot(g));
    QVERIFY2(nodes >= 0, qPrintable(QString::fromStdString(where + ": Graphviz does not read its DOT")));
    QCOMPARE(nodes, int(g.blocks.size()));
    QCOMPARE(edges, int(g.edges.size()));
}

int backEdges(const ControlFlowGraph& g) {
    return int(std::count_if(g.edges.begin(), g.edges.end(), [](const auto& e) { return e.back; }));
}

// nvdisasm `flag` of the whole-program cubin of `ptx`; empty when ptxas cannot make one (a
// program that calls a function no module defines).
std::string disassembled(const fs::path& nvdisasm, const std::string& ptx, const char* flag) {
    const auto* ptxas = test::realToolkit()->ptxas();
    if (!ptxas) qFatal("no ptxas");
    const auto a = ptx::assembleWholeProgram(*ptxas, ptx, "sm_90");
    if (!a.ok) return {};
    const auto dir = test::scratchDir();
    const auto file = dir / "cfg.cubin";
    if (!support::writeFileAtomic(file, a.cubin)) qFatal("cannot write %s", file.c_str());
    const auto ran = support::runProcess({nvdisasm.string(), flag, file.string()});
    if (ran.status != 0) qFatal("nvdisasm %s: %s", flag, ran.output.c_str());
    return ran.output;
}

}  // namespace

class TestCfg : public QObject {
    Q_OBJECT

private slots:
    void ptxGraphsHaveOneBlockPerLabelAndEntry() {
        for (const auto& c : cases()) {
            const auto graphs = inspect::cfgFromPtx(c.ptx);
            const auto counts = ptxBlockCounts(c.ptx);
            QStringList names;
            for (const auto& g : graphs) names << QString::fromStdString(g.function);
            for (const auto& [f, n] : counts) names << "counted " + QString::fromStdString(f);
            QVERIFY2(graphs.size() == counts.size(),
                     qPrintable(QString::fromStdString(c.name) + ": " + names.join(", ")));
            const auto mixes = inspect::ptxMix(c.ptx);
            for (size_t i = 0; i < graphs.size(); ++i) {
                const auto& g = graphs[i];
                const auto where = c.name + " " + g.function;
                QVERIFY2(counts.count(g.function), where.c_str());
                QVERIFY2(
                    int(g.blocks.size()) == counts.at(g.function),
                    qPrintable(QString::fromStdString(where) +
                               QString(": %1 blocks, %2 counted").arg(g.blocks.size()).arg(counts.at(g.function))));
                int instructions = 0;
                for (const auto& b : g.blocks) instructions += int(b.instructions.size());
                QCOMPARE(instructions, mixes[i].total());  // every instruction is in one block
                checkShape(g, where);
                if (QTest::currentTestFailed()) return;
            }
        }
    }

    void irGraphsHaveOneBlockPerLabelAndEntry() {
        for (const auto& c : cases())
            for (const auto& m : c.modules) {
                if (m.isBitcode()) continue;
                const auto graphs = inspect::cfgFromIr(m.bytes);
                const auto counts = irBlockCounts(m.bytes);
                QCOMPARE(graphs.size(), counts.size());
                for (const auto& g : graphs) {
                    const auto where = c.name + " " + m.name + " " + g.function;
                    QVERIFY2(counts.count(g.function), where.c_str());
                    QCOMPARE(int(g.blocks.size()), counts.at(g.function));
                    checkShape(g, where);
                    if (QTest::currentTestFailed()) return;
                    // Every block but the entry ends in a terminator or falls into the next one.
                    for (const auto& b : g.blocks) QVERIFY2(!b.instructions.empty(), where.c_str());
                }
            }
    }

    void loopHasOneBackEdgeInIrAndPtx() {
        const auto& c = caseNamed("cfg/loop.ll");
        const auto ir = inspect::cfgFromIr(c.modules[0].bytes);
        QCOMPARE(ir.size(), size_t(1));
        const auto& g = ir[0];
        QVERIFY(g.isEntry);
        QCOMPARE(int(g.blocks.size()), 4);
        QCOMPARE(g.blocks[1].label, std::string("body"));
        QCOMPARE(backEdges(g), 1);
        for (const auto& e : g.edges) {
            QCOMPARE(e.back, e.from == 1 && e.to == 1);  // body -> body
            // entry -> body and body -> done go on to the next block; entry -> skip jumps.
            if (e.to == e.from + 1) QCOMPARE(e.kind, CfgEdgeKind::Fallthrough);
            if (e.from == 0 && e.to == 3) QCOMPARE(e.kind, CfgEdgeKind::Branch);
        }
        QCOMPARE(int(g.edges.size()), 5);  // entry->body, entry->skip, body->body, body->done, done->skip
        const auto ptx = inspect::cfgFromPtx(c.ptx);
        QCOMPARE(ptx.size(), size_t(1));
        // libNVVM unrolls it by 4 and leaves a loop for the rest: a back edge each, to a block above.
        QVERIFY(backEdges(ptx[0]) >= 1);
        for (const auto& e : ptx[0].edges)
            if (e.back) QVERIFY(e.to <= e.from && ptx[0].blocks[e.to].label.starts_with("$L__BB"));
        // A graph without loops has none: saxpy's.
        for (const auto& s : inspect::cfgFromPtx(caseNamed("example saxpy").ptx)) QCOMPARE(backEdges(s), 0);
        // The DOT marks it.
        QVERIFY(inspect::toDot(g).find("b1 -> b1 [style=bold, color=red]") != std::string::npos);
    }

    void sassGraphsAreNvdisasmsBlocksOnTheListingsLines() {
        NEED_NVDISASM(nvdisasm);
        int withSass = 0;
        for (const auto& c : cases()) {
            const auto dot = disassembled(nvdisasm, c.ptx, "-bbcfg");
            if (dot.empty()) {
                qInfo("%s: ptxas makes no cubin of it alone", c.name.c_str());
                continue;
            }
            ++withSass;
            const auto listingText = disassembled(nvdisasm, c.ptx, "-c");
            const auto listing = inspect::readSass(listingText);
            const auto graphs = inspect::cfgFromSass(dot, listingText);
            // nvdisasm's nodes: a line that is only a quoted name, its label on the next line.
            int nodes = 0;
            for (auto line : support::splitLines(dot))
                if (line.size() > 2 && line.front() == '"' && line.back() == '"' &&
                    line.find('"', 1) == line.size() - 1)
                    ++nodes;
            int blocks = 0;
            for (const auto& g : graphs) {
                const auto where = c.name + " " + g.function;
                blocks += int(g.blocks.size());
                QVERIFY2(g.unmapped.empty(), qPrintable(QString::fromStdString(where + ": " + g.unmapped)));
                const auto f = std::find_if(listing.functions.begin(), listing.functions.end(),
                                            [&](const auto& f) { return f.name == g.function; });
                QVERIFY2(f != listing.functions.end(), where.c_str());
                QCOMPARE(g.isEntry, f->isEntry);
                int instructions = 0;
                for (const auto& b : g.blocks) instructions += int(b.lines.size());
                QCOMPARE(instructions, f->instructions);  // every instruction but the padding, once
                QCOMPARE(g.blocks[0].label, g.function);
                checkShape(g, where);
                if (QTest::currentTestFailed()) return;
            }
            QCOMPARE(blocks, nodes);
            // Every arrow of the DOT is an edge, also those written before the block they go to.
            std::set<std::string> arrows;
            for (auto line : support::splitLines(dot))
                if (line.find(" -> ") != std::string_view::npos) arrows.emplace(line);
            size_t edges = 0;
            for (const auto& g : graphs) edges += g.edges.size();
            QCOMPARE(edges, arrows.size());
            if (c.name == "cfg/loop.ll") QVERIFY(backEdges(graphs.at(0)) >= 1);
            if (c.name == "example saxpy") QCOMPARE(backEdges(graphs.at(0)), 0);
        }
        QVERIFY2(withSass >= 8, qPrintable(QString::number(withSass)));
    }

    void layoutPlacesEveryNode() {
        for (const char* name : {"example libdevice-math", "cfg/loop.ll"}) {
            for (const auto& g : inspect::cfgFromPtx(caseNamed(name).ptx)) {
                const auto l = inspect::layoutCfg(g);
                QVERIFY2(l.ok, l.error.c_str());
                QCOMPARE(l.nodes.size(), g.blocks.size());
                QCOMPARE(l.edges.size(), g.edges.size());
                QVERIFY(l.width > 0 && l.height > 0);
                for (const auto& n : l.nodes) {
                    QVERIFY(n.width > 0 && n.height > 0);
                    QVERIFY(n.centre.x >= 0 && n.centre.x <= l.width && n.centre.y >= 0 && n.centre.y <= l.height);
                }
                std::set<std::pair<double, double>> centres;
                for (const auto& n : l.nodes) centres.insert({n.centre.x, n.centre.y});
                QCOMPARE(centres.size(), l.nodes.size());  // no two blocks in one place
                for (const auto& e : l.edges) QVERIFY(e.points.size() >= 4 && (e.points.size() - 1) % 3 == 0);
                // Top to bottom: the entry is above every block it does not come back from.
                QVERIFY(l.nodes[0].centre.y < l.nodes.back().centre.y);
            }
        }
    }

    void layoutsFromManyThreadsAtOnce() {
        const auto graphs = inspect::cfgFromPtx(caseNamed("example libdevice-math").ptx);
        const auto expected = inspect::layoutCfg(graphs.at(0));
        QVERIFY(expected.ok);
        std::atomic<int> same{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&] {
                for (int k = 0; k < 5; ++k) {
                    const auto l = inspect::layoutCfg(graphs.at(0));
                    if (!l.ok || l.nodes.size() != expected.nodes.size()) continue;
                    bool equal = true;
                    for (size_t i = 0; i < l.nodes.size(); ++i)
                        equal = equal && l.nodes[i].centre.x == expected.nodes[i].centre.x &&
                                l.nodes[i].centre.y == expected.nodes[i].centre.y;
                    same += equal ? 1 : 0;
                }
            });
        for (auto& t : threads) t.join();
        QCOMPARE(same.load(), 20);
    }

    // nvpg compile --emit cfg: one digraph per PTX function (per define with --cfg-of ir), each
    // read by Graphviz, with the blocks counted from the text.
    void emitCfgWritesDotGraphvizReads() {
        const auto dir = test::scratchDir();
        for (const char* of : {"ptx", "ir"}) {
            const auto out = dir / (std::string("cfg-") + of + ".dot");
            const auto ran =
                support::runProcess({test::nvpgPath(), "compile", "--no-cache", "--arch", "compute_90", "--emit", "cfg",
                                     "--cfg-of", of, "-o", out.string(), (test::dataDir() / "cfg/loop.ll").string()});
            QVERIFY2(ran.status == 0, ran.output.c_str());
            const auto dot = test::readText(out);
            const auto graphs = digraphs(dot);
            QCOMPARE(graphs.size(), size_t(1));
            const auto [nodes, edges] = graphvizCounts(graphs[0]);
            QCOMPARE(nodes,
                     std::string(of) == "ptx" ? ptxBlockCounts(caseNamed("cfg/loop.ll").ptx).at("prefix_sum") : 4);
            QVERIFY(edges >= nodes);
            QVERIFY(dot.find("color=red") != std::string::npos);  // the loop
        }
        const auto bad = support::runProcess({test::nvpgPath(), "compile", "--emit", "cfg", "--cfg-of", "nonsense",
                                              (test::dataDir() / "cfg/loop.ll").string()});
        QCOMPARE(bad.status, 2);
    }
};

QTEST_GUILESS_MAIN(TestCfg)
#include "tst_cfg.moc"
