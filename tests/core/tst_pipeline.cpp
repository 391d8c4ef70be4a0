// The one compile path: byte identity with plain libNVVM calls on IR written by numba-cuda,
// Program reuse across option changes, libdevice functions, timings and the report.
#include <QtTest>

#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "Mutate.h"
#include "PlainNvvm.h"
#include "TestSupport.h"
#include "core/lto/DroppedKernels.h"
#include "core/lto/Linker.h"
#include "core/nvvm/Libdevice.h"
#include "core/nvvm/Program.h"
#include "core/pipeline/LibdeviceUse.h"
#include "core/pipeline/OutputNames.h"
#include "core/pipeline/Pipeline.h"
#include "core/pipeline/Report.h"
#include "core/pipeline/Summary.h"
#include "core/support/Text.h"
#include "core/workspace/Workspace.h"

using namespace nvpg;

namespace {

struct NumbaCase {
    std::vector<nvvm::Module> modules;
    std::vector<std::string> options;
    std::string ptx;  // what numba got back from libNVVM, NUL included
};

NumbaCase numbaCase(const std::string& kernel) {
    const auto dir = test::dataDir() / "numba";
    NumbaCase c;
    c.modules = test::numbaModules(kernel);
    const auto options = test::readText(dir / (kernel + ".options"));
    for (auto line : support::splitLines(options))
        if (!line.empty()) c.options.emplace_back(line);
    c.ptx = test::readText(dir / (kernel + ".ptx"));
    return c;
}

// A job with the map on, run through the real Pipeline: what onPlain heard, and the result.
struct MappedRun {
    support::Result<pipeline::CompileResult> result = support::makeError(support::ErrorKind::Internal, "not run");
    std::optional<pipeline::CompileResult> plain;  // what onPlain heard
    bool plainBeforeMap = false;                   // onPlain came before any MapLines stage
    bool mapStage = false;
};
MappedRun runMapped(pipeline::Pipeline& p, pipeline::Job job) {
    job.lineMap = true;
    MappedRun run;
    run.result = p.run(
        job,
        [&](const pipeline::StageEvent& e) {
            if (e.id == pipeline::StageId::MapLines) run.mapStage = true;
        },
        [&](const pipeline::CompileResult& plain) {
            run.plain = plain;
            run.plainBeforeMap = !run.mapStage;
        });
    return run;
}

// Every line that holds an instruction maps to at least one output line, or is reported as
// optimised away: the map leaves no line unaccounted for.
void checkEveryInstructionLineIsAccountedFor(const inspect::LineMap& map, const inspect::OutputMap& out) {
    for (const auto& m : map.modules) {
        if (!m.unmapped.empty()) continue;
        for (const int line : m.instructionLines) {
            if (!out.rangesOf(m.name, line).empty()) continue;
            const bool away = std::any_of(out.optimisedAway.begin(), out.optimisedAway.end(),
                                          [&](const auto& a) { return a.module == m.name && a.line == line; });
            QVERIFY2(away, qPrintable(QString("%1:%2 maps to nothing and is not reported as optimised away")
                                          .arg(QString::fromStdString(m.name))
                                          .arg(line)));
        }
    }
}

int mappedLineCount(const std::vector<inspect::LineRange>& ranges) {
    int n = 0;
    for (const auto& r : ranges) n += r.last - r.first + 1;
    return n;
}

int lineOf(const std::string& text, std::string_view needle) {
    int n = 1;
    for (auto line : support::splitLines(text)) {
        if (line.find(needle) != std::string_view::npos) return n;
        ++n;
    }
    return 0;
}
// The job of a lineMapLeavesTheOutputsAsTheyAre_data row: an example workspace as it is, or a
// numba-cuda fixture with numba's options and libdevice; compute_90 unless it names an arch.
bool jobOfSource(const QString& source, pipeline::Job& job) {
    if (source.endsWith(".nvpg")) {
        auto ws = workspace::loadWorkspace(source.toStdString());
        if (!ws) return false;
        job.modules = ws->modules;
        job.options = ws->options;
        job.libdevice = ws->libdevice;
    } else {
        const auto c = numbaCase(source.toStdString());
        job.modules = c.modules;
        job.libdevice = true;
        for (const auto& flag : c.options) {
            const auto eq = flag.find('=');
            if (!job.options.set(flag.substr(1, eq - 1), flag.substr(eq + 1))) return false;
        }
    }
    if (!job.options.arch) job.options.arch = "compute_90";
    return true;
}

}  // namespace

class TestPipeline : public QObject {
    Q_OBJECT

private slots:
    void summaryGivesTheHeadersAndNotices() {
        pipeline::CompileResult r;
        r.arch = "compute_90";
        r.archSource = "options";
        r.ptx = std::string(2048, 'x');
        r.linkedPtx = std::string(100, 'y');
        r.cubin = std::string(1536, 'z');
        r.ltoIr = {{"program", std::string(10, 'l')}};
        using pipeline::StageId;
        r.stages = {{StageId::CompilePtx, 0.0031},
                    {StageId::CompileLtoIr, 0.002},
                    {StageId::LinkLtoPtx, 0.0105},
                    {StageId::LinkLtoCubin, 1.5}};
        ptx::ResourceUsage usage;
        usage.registers = 12;
        r.kernels = {{"kept", {}, usage}, {"dropped", {}, std::nullopt}};
        // The dropped kernel comes from the pipeline's warnings, not from comparing the PTXs.
        r.diagnostics = lto::droppedKernelWarnings({"kept", "dropped"}, {"kept"}, {});
        const auto s = pipeline::summarizeResult(r);
        QCOMPARE(s.droppedKernels, std::vector<std::string>{"dropped"});
        QCOMPARE(s.ptx.header, std::string("PTX · 2 KiB · 2 kernels · libNVVM 3.10 ms · compute_90 (options)"));
        QVERIFY(s.ptx.notice.empty());
        QCOMPARE(s.lto.header,
                 std::string("LTO · linked PTX 100 B · cubin 1.5 KiB · LTO-IR 2.00 ms · link→PTX 10.5 ms · "
                             "link→cubin 1.50 s · kept: 12 regs, 0 spill · dropped by LTO: dropped"));
        QVERIFY2(s.lto.toolTip.find("kept: 12 registers, 0 B spill stores") != std::string::npos,
                 s.lto.toolTip.c_str());
        QVERIFY(s.lto.toolTip.find("  program: 10 B") != std::string::npos);
        QVERIFY(s.lto.notice.empty());

        // No link: each pane says why it is empty; the front end's reason for a missing nvJitLink wins.
        pipeline::CompileResult verify;
        verify.stages = {{pipeline::StageId::Verify, 0.001}};
        const auto v = pipeline::summarizeResult(verify, "nvJitLink: not in /opt/cuda");
        QCOMPARE(v.ptx.header, std::string("PTX · verify 1.00 ms"));
        QCOMPARE(v.ptx.notice, std::string("Verify only: libNVVM's verifier ran; no PTX was generated."));
        QCOMPARE(v.lto.header, std::string("LTO · not linked"));
        QCOMPARE(v.lto.notice, std::string("nvJitLink: not in /opt/cuda"));
        QVERIFY(pipeline::summarizeResult(verify).lto.notice.find("libnvJitLink.so") != std::string::npos);
        QVERIFY(pipeline::failureSummary(verify).empty());

        pipeline::CompileResult failed;
        failed.diagnostics = {{"a.ll", 3, 1, nvvm::Severity::Error, "parse expected type\nmore", "libNVVM"},
                              {"a.ll", 4, 1, nvvm::Severity::Error, "another", "libNVVM"}};
        QCOMPARE(pipeline::failureSummary(failed),
                 std::string("Compile failed with 2 errors (see Problems): a.ll:3:1: error: parse expected type"));
    }

    // libNVVM's verify (and compile) stage parses the modules and links them
    // before it verifies; a parse error or a duplicate symbol names that step, not "verify".
    void theFailedStepIsNamed_data() {
        QTest::addColumn<QStringList>("fixtures");
        QTest::addColumn<bool>("verify");
        QTest::addColumn<QString>("mark");
        QTest::addColumn<QString>("summary");
        QTest::newRow("parse") << QStringList{"broken.ll"} << true << "parse IR failed"
                               << "Parse IR failed with 1 error";
        QTest::newRow("parse, no verifier") << QStringList{"broken.ll"} << false << "parse IR failed"
                                            << "Parse IR failed with 1 error";
        QTest::newRow("duplicate symbol")
            << QStringList{"pitfalls/twice-a.ll", "pitfalls/twice-b.ll"} << true << "link modules failed"
            << "Link modules failed with 1 error";
        QTest::newRow("verifier") << QStringList{"verify-alloca.ll"} << true << "verify failed"
                                  << "Compile failed with 1 error";
    }
    void theFailedStepIsNamed() {
        QFETCH(QStringList, fixtures);
        QFETCH(bool, verify);
        QFETCH(QString, mark);
        QFETCH(QString, summary);
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        for (const auto& f : fixtures) {
            auto m = test::irFixture(f.toStdString());
            m.name = std::filesystem::path(m.name).filename().string();
            job.modules.push_back(std::move(m));
        }
        job.options.arch = "compute_90";
        job.verify = verify;
        auto r = p.run(job);
        QVERIFY(r && !r->ok);
        const auto failure = pipeline::failureOf(*r);
        QVERIFY(failure);
        QCOMPARE(QString::fromStdString(failure->mark), mark);
        QVERIFY2(pipeline::failureSummary(*r).starts_with(summary.toStdString()), pipeline::failureSummary(*r).c_str());
    }

    void outputFilesAreNamedByOneRule() {
        using pipeline::Artifact;
        QCOMPARE(pipeline::defaultOutputName("program", Artifact::Ptx), std::string("program.ptx"));
        QCOMPARE(pipeline::defaultOutputName("saxpy", Artifact::LtoIr), std::string("saxpy.ltoir"));
        QCOMPARE(pipeline::defaultOutputName("saxpy", Artifact::LinkedPtx), std::string("saxpy.lto.ptx"));
        QCOMPARE(pipeline::defaultOutputName("", Artifact::Cubin), std::string("program.cubin"));
        QCOMPARE(pipeline::defaultOutputName("saxpy", Artifact::Sass), std::string("saxpy.sass"));
        // One blob: the path asked for. Several: the module's stem before the suffix.
        QCOMPARE(pipeline::perModulePaths("/t/out.ltoir", {"caller.ll"}), std::vector<std::string>{"/t/out.ltoir"});
        QCOMPARE(pipeline::perModulePaths("/t/out.ltoir", {"caller.ll", "lib/callee.bc"}),
                 (std::vector<std::string>{"/t/out.caller.ltoir", "/t/out.callee.ltoir"}));
        QCOMPARE(pipeline::perModulePaths("out", {"a.ll", "b.ll"}), (std::vector<std::string>{"out.a", "out.b"}));
        QCOMPARE(pipeline::perModulePaths("/t/x.bin", {"a.ll", "b.ll"}),
                 (std::vector<std::string>{"/t/x.a.bin", "/t/x.b.bin"}));
        // Names that cannot stand in a file name are made safe, and a stem used twice is numbered.
        QCOMPARE(
            pipeline::perModulePaths("/t/p.ltoir", {"my kernel.ll", "a/k.ll", "b/k.ll", ".ll"}),
            (std::vector<std::string>{"/t/p.my_kernel.ltoir", "/t/p.k.ltoir", "/t/p.k-2.ltoir", "/t/p.module.ltoir"}));
    }

    void perModulePathsNeverShareAPathNorLeaveTheFolder() {
        // Workspace module names are free text: directory references, paths, nothing at all.
        for (const char* odd : {"..", "x/..", ".", "", "a/b/", "...", "/"})
            QCOMPARE(pipeline::fileStemOf(odd), std::string("module"));
        QCOMPARE(pipeline::fileStemOf("../../etc/passwd"), std::string("passwd"));
        const std::vector<std::string> names = {"..",   "x/..", ".",      "",          "a/b/", "../../etc/k.ll",
                                                "k.ll", "k.ll", "k-2.ll", "module.ll", "/",    std::string(5000, 'n')};
        const auto paths = pipeline::perModulePaths("/t/out.ltoir", names);
        QCOMPARE(paths.size(), names.size());
        QCOMPARE(paths[0], std::string("/t/out.module.ltoir"));
        QCOMPARE(paths[1], std::string("/t/out.module-2.ltoir"));
        std::set<std::string> seen;
        for (const auto& p : paths) {
            const std::filesystem::path path(p);
            QVERIFY2(seen.insert(p).second, p.c_str());
            QCOMPARE(path.parent_path().string(), std::string("/t"));
            const auto file = path.filename().string();
            QVERIFY2(file.starts_with("out.") && file.ends_with(".ltoir"), p.c_str());
            QVERIFY2(file.find("..") == std::string::npos, p.c_str());
            QVERIFY2(file.size() <= 255, "a file name longer than NAME_MAX cannot be created");
        }
        // The folder of `-o dir/` alone: the files still get a name in front of the module's.
        QCOMPARE(pipeline::perModulePaths("/t/", {"a.ll", "b.ll"}),
                 (std::vector<std::string>{"/t/program.a", "/t/program.b"}));
    }

    void perModulePathsTakeLinearTime() {
        // 20,000 modules of one stem: a scan per name (k, k-2, ... k-N for each) takes minutes.
        const std::vector<std::string> names(20000, "k.ll");
        QElapsedTimer t;
        t.start();
        const auto paths = pipeline::perModulePaths("/t/out.ltoir", names);
        QVERIFY2(t.elapsed() < 5000, qPrintable(QString("%1 ms").arg(t.elapsed())));
        QCOMPARE(std::set<std::string>(paths.begin(), paths.end()).size(), names.size());
        QCOMPARE(paths.back(), std::string("/t/out.k-20000.ltoir"));
    }

    void numbaIrGivesThePtxOfPlainLibnvvmCalls_data() {
        QTest::addColumn<QString>("kernel");
        for (const char* k : {"axpy", "math_kernel", "math_kernel_fastmath", "call_device", "stencil_2d"})
            QTest::newRow(k) << k;
    }
    void numbaIrGivesThePtxOfPlainLibnvvmCalls() {
        QFETCH(QString, kernel);
        const auto c = numbaCase(kernel.toStdString());
        pipeline::Job job;
        job.modules = c.modules;
        job.libdevice = true;  // numba adds libdevice lazily to every program
        for (const auto& flag : c.options) {
            const auto eq = flag.find('=');
            QVERIFY(job.options.set(flag.substr(1, eq - 1), flag.substr(eq + 1)));
        }
        pipeline::Pipeline p(test::realToolkit());
        auto r = p.run(job);
        QVERIFY(r);
        QVERIFY(r->ok);

        std::vector<test::PlainModule> plain;
        for (const auto& m : c.modules) plain.push_back({m.name, m.bytes, false});
        plain.push_back({"libdevice.10.bc", **test::realToolkit()->libdevice(), true});
        const auto reference = test::plainCompile(test::realToolkit()->nvvm(), plain, c.options);
        QVERIFY(!support::startsWith(reference, "ERROR"));
        QCOMPARE(r->ptx, reference);
        // And what numba itself got back (it keeps libNVVM's trailing NUL).
        QCOMPARE(r->ptx + '\0', c.ptx);
    }

    // The map is an overlay: on every bundled example and numba-cuda's IR, the PTX (and the LTO
    // PTX) with the map on is byte for byte the PTX with it off, onPlain hears it before the
    // map is made, and every instruction line is mapped or reported as optimised away.
    void lineMapLeavesTheOutputsAsTheyAre_data() {
        QTest::addColumn<QString>("source");
        for (const auto& e : std::filesystem::directory_iterator(test::examplesDir()))
            if (e.path().extension() == ".nvpg")
                QTest::newRow(("example " + e.path().stem().string()).c_str())
                    << QString::fromStdString(e.path().string());
        for (const char* k : {"axpy", "math_kernel", "math_kernel_fastmath", "call_device", "stencil_2d"})
            QTest::newRow((std::string("numba ") + k).c_str()) << k;
    }
    void lineMapLeavesTheOutputsAsTheyAre() {
        QFETCH(QString, source);
        pipeline::Job job;
        QVERIFY(jobOfSource(source, job));
        job.outputs = pipeline::kPtx | pipeline::kLtoPtx;
        pipeline::Pipeline plainPipe(test::realToolkit()), mappedPipe(test::realToolkit());
        auto off = plainPipe.run(job);
        QVERIFY(off && off->ok);
        QVERIFY(!off->lineMap);
        auto on = runMapped(mappedPipe, job);
        QVERIFY(on.result && on.result->ok);
        QCOMPARE(on.result->ptx, off->ptx);
        QCOMPARE(on.result->linkedPtx, off->linkedPtx);
        QVERIFY(on.plain);
        QVERIFY(on.plainBeforeMap);
        QVERIFY(!on.plain->lineMap);
        QCOMPARE(on.plain->ptx, off->ptx);
        QVERIFY(on.result->lineMap);
        const auto& map = *on.result->lineMap;
        QVERIFY2(map.ptx.available(), map.ptx.unavailable.c_str());
        QVERIFY2(map.ltoPtx.available(), map.ltoPtx.unavailable.c_str());
        const auto ptxLines = int(support::splitLines(off->ptx).size());
        for (const auto& l : map.ptx.lines) QVERIFY(!l.ranges.empty() && l.ranges.back().last <= ptxLines);
        QVERIFY(!map.sass.available());  // not asked for
        // Text modules are always mapped; a bitcode one may not be, and then says why.
        for (size_t i = 0; i < map.modules.size(); ++i) {
            const auto& m = map.modules[i];
            if (job.modules[i].isBitcode())
                QVERIFY(m.unmapped.empty() || m.unmapped.size() > 20);
            else
                QVERIFY2(m.unmapped.empty(), (m.name + ": " + m.unmapped).c_str());
        }
        checkEveryInstructionLineIsAccountedFor(map, map.ptx);
        checkEveryInstructionLineIsAccountedFor(map, map.ltoPtx);
        QVERIFY(on.result->stageSeconds(pipeline::StageId::MapLines) > 0);
    }

    // The PTX and LTO chains run side by side; what they make is what one Program compiled
    // twice and two links one after the other make, byte for byte, and what they say comes in
    // the same order on every run (the order of the stages, not of their finishing).
    void parallelChainsGiveTheSequentialOutputs_data() { lineMapLeavesTheOutputsAsTheyAre_data(); }
    void parallelChainsGiveTheSequentialOutputs() {
        QFETCH(QString, source);
        pipeline::Job job;
        QVERIFY(jobOfSource(source, job));
        // What the app asks for.
        job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin | pipeline::kFigures;
        const auto tk = test::realToolkit();
        pipeline::Pipeline p(tk), again(tk);
        auto r = p.run(job);
        QVERIFY(r);
        auto r2 = again.run(job);
        QVERIFY(r2);
        QCOMPARE(r->ok, r2->ok);
        QCOMPARE(r->diagnostics.size(), r2->diagnostics.size());
        for (size_t i = 0; i < r->diagnostics.size(); ++i) {
            QCOMPARE(r->diagnostics[i].message, r2->diagnostics[i].message);
            QCOMPARE(r->diagnostics[i].module, r2->diagnostics[i].module);
            QCOMPARE(r->diagnostics[i].line, r2->diagnostics[i].line);
        }
        std::vector<pipeline::StageId> order;
        for (const auto& st : r->stages) order.push_back(st.id);
        const std::vector<pipeline::StageId> stageOrder = {
            pipeline::StageId::AddModules, pipeline::StageId::Verify,        pipeline::StageId::CompilePtx,
            pipeline::StageId::ReadPtx,    pipeline::StageId::AssembleCubin, pipeline::StageId::CompileLtoIr,
            pipeline::StageId::LinkLtoPtx, pipeline::StageId::LinkLtoCubin};
        QVERIFY(order == stageOrder);

        // One Program compiled to PTX, then to LTO-IR; then the two links, one after the other.
        auto program = nvvm::Program::create(tk->nvvm());
        QVERIFY(program);
        for (const auto& m : job.modules) QVERIFY((*program)->addModule(m));
        if (job.libdevice) (*program)->useLibdevice(*tk->libdevice());
        nvvm::Options options = job.options;
        const auto ptx = (*program)->compile(options);
        QVERIFY(ptx.ok);
        QCOMPARE(r->ptx, ptx.result);
        options.genLto = true;
        const auto ltoIr = (*program)->compile(options);
        QVERIFY(ltoIr.ok);
        QCOMPARE(r->ltoIr.size(), size_t(1));
        QVERIFY(r->ltoIr.front().bytes == ltoIr.result);
        const auto sm = nvvm::smArchFor(*job.options.arch);
        const std::vector<lto::LinkInput> inputs{{"program", ltoIr.result, NVJITLINK_INPUT_LTOIR}};
        const auto linkOptions = lto::linkOptionsFor(job.options);
        const auto linkedPtx = lto::link(*tk->nvJitLink(), sm, inputs, lto::LinkTarget::Ptx, linkOptions);
        QCOMPARE(r->ok, linkedPtx.ok);
        if (!linkedPtx.ok) return;  // lto-dropped: the link refuses, and so does the job
        QCOMPARE(r->linkedPtx, linkedPtx.ptx);
        const auto cubin = lto::link(*tk->nvJitLink(), sm, inputs, lto::LinkTarget::Cubin, linkOptions);
        QVERIFY(cubin.ok);
        QVERIFY(r->cubin == cubin.cubin);
        // The -verbose log by its figures, which are what the result keeps of it.
        const auto figures = ptx::parsePtxasInfo(cubin.infoLog);
        QCOMPARE(r->ltoFigures.functions.size(), figures.size());
        // (in the kernels' order, not ptxas': kernelsAreListedInTheModulesOrderEverywhere)
        for (const auto& f : figures) {
            const auto* got = r->ltoFigures.find(f.function);
            QVERIFY2(got, f.function.c_str());
            QCOMPARE(got->registers, f.registers);
            QCOMPARE(got->spillStores, f.spillStores);
            QCOMPARE(got->stackFrame, f.stackFrame);
        }
    }

    // The PTX part is heard once the PTX exists, before the whole result, with the request's
    // generation and without what the LTO chain makes; the whole result then has all of it.
    void ptxPartComesFirstWithItsGeneration() {
        auto ws = workspace::loadWorkspace((test::examplesDir() / "libdevice-math.nvpg").string());
        QVERIFY(ws);
        pipeline::Job job;
        job.modules = ws->modules;
        job.options = ws->options;
        job.libdevice = ws->libdevice;
        if (!job.options.arch) job.options.arch = "compute_90";
        job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin | pipeline::kFigures;
        job.generation = 7;
        pipeline::Pipeline p(test::realToolkit());
        std::vector<std::string> heard;
        std::optional<pipeline::CompileResult> part;
        auto r = p.run(
            job, {}, [&](const pipeline::CompileResult&) { heard.push_back("plain"); },
            [&](const pipeline::CompileResult& partial) {
                heard.push_back("ptx");
                part = partial;
            });
        QVERIFY(r && r->ok);
        QVERIFY((heard == std::vector<std::string>{"ptx", "plain"}));
        QVERIFY(part);
        QVERIFY(part->partial);
        QVERIFY(!r->partial);
        QCOMPARE(part->generation, uint64_t(7));
        QCOMPARE(part->ptx, r->ptx);
        QCOMPARE(part->kernels.size(), r->kernels.size());
        QVERIFY(part->ltoIr.empty() && part->linkedPtx.empty() && part->cubin.empty());
        QVERIFY(!r->ltoIr.empty() && !r->linkedPtx.empty() && !r->cubin.empty());

        // A second job on the same Pipeline reuses both Programs: nothing is added again.
        job.options.opt = 0;
        auto second = p.run(job);
        QVERIFY(second && second->ok);
        QVERIFY(second->reusedProgram);
        QCOMPARE(second->stageSeconds(pipeline::StageId::AddModules), 0.0);

        // A PTX compile that fails has no PTX part, and says what libNVVM said.
        job.modules[0].bytes += "\nthis is not IR\n";
        part.reset();
        auto failed = p.run(job, {}, {}, [&](const pipeline::CompileResult& partial) { part = partial; });
        QVERIFY(failed);
        QVERIFY(!failed->ok);
        QVERIFY(!part);
        QVERIFY(failed->hasErrors());
    }

    // What a teacher points at: the call of libdevice's sinf becomes the ~100 PTX lines of its
    // inlined body, and the map says they are libdevice's.
    void sinfCallMapsToLibdeviceLines() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("sinf.ll")};
        job.libdevice = true;
        job.options.arch = "compute_90";
        auto run = runMapped(p, job);
        QVERIFY(run.result && run.result->ok && run.result->lineMap);
        const auto& map = *run.result->lineMap;
        QVERIFY2(map.ptx.available(), map.ptx.unavailable.c_str());
        const int call = lineOf(job.modules[0].bytes, "call float @__nv_sinf");
        QVERIFY(call > 0);
        const auto ranges = map.ptx.rangesOf("sinf.ll", call);
        QVERIFY2(mappedLineCount(ranges) >= 30, qPrintable(QString::number(mappedLineCount(ranges))));
        // Each of those lines is a PTX line of the plain output, and names that call.
        const auto ptxLines = support::splitLines(run.result->ptx);
        for (const auto& r : ranges) {
            QVERIFY(r.first >= 1 && r.last <= int(ptxLines.size()));
            QVERIFY(map.ptx.originOf(r.first) == (inspect::IrLine{0, call}));
        }
        const auto it = std::find_if(map.libdevice.begin(), map.libdevice.end(), [&](const auto& e) {
            return e.module == "sinf.ll" && e.line == call && e.output == inspect::MappedOutput::Ptx;
        });
        QVERIFY(it != map.libdevice.end());
        QCOMPARE(it->function, std::string("__nv_sinf"));
        QVERIFY(it->lines >= 30);
    }

    // The libdevice dock's and the report's account of sinf.ll: its one call line, and the PTX
    // lines it became are exactly those the line map gives that line; without the map the call
    // is still there and the figure says why it is missing. numba's quoted name is the same call.
    void libdeviceUseOfSinfIsItsCallAndItsMappedPtx() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("sinf.ll")};
        job.libdevice = true;
        job.options.arch = "compute_90";
        auto run = runMapped(p, job);
        QVERIFY(run.result && run.result->ok && run.result->lineMap);
        const int call = lineOf(job.modules[0].bytes, "call float @__nv_sinf");
        QVERIFY(call > 0);
        const auto uses = pipeline::libdeviceUses(job, *run.result);
        QCOMPARE(uses.size(), run.result->libdeviceFunctions.size());
        const auto sinf = std::find_if(uses.begin(), uses.end(), [](const auto& u) { return u.name == "__nv_sinf"; });
        QVERIFY(sinf != uses.end());
        QCOMPARE(sinf->signature, std::string("float __nv_sinf(float %a)"));
        QCOMPARE(sinf->calls, (std::vector<pipeline::LibdeviceCall>{{"sinf.ll", call}}));
        QVERIFY2(sinf->ptx.known(), sinf->ptx.unavailable.c_str());
        const auto mapped = run.result->lineMap->ptx.rangesOf("sinf.ll", call);
        QCOMPARE(sinf->ptx.lines, mapped);
        QCOMPARE(sinf->ptx.count, mappedLineCount(mapped));
        QVERIFY2(sinf->ptx.count >= 30, qPrintable(QString::number(sinf->ptx.count)));
        QVERIFY2(sinf->ptx.how.find("line map") != std::string::npos, sinf->ptx.how.c_str());
        qInfo("__nv_sinf: called at sinf.ll:%d, %d PTX lines (%s); SASS: %s", call, sinf->ptx.count,
              sinf->ptx.how.c_str(),
              sinf->sass.known() ? std::to_string(sinf->sass.count).c_str() : sinf->sass.unavailable.c_str());

        // No map: the call line stays, the size says why it is not known.
        pipeline::Pipeline plainPipe(test::realToolkit());
        auto plain = plainPipe.run(job);
        QVERIFY(plain && plain->ok && !plain->lineMap);
        const auto noMap = pipeline::libdeviceUses(job, *plain);
        const auto s2 = std::find_if(noMap.begin(), noMap.end(), [](const auto& u) { return u.name == "__nv_sinf"; });
        QVERIFY(s2 != noMap.end());
        QCOMPARE(s2->calls, sinf->calls);
        QVERIFY(!s2->ptx.known());
        QVERIFY2(s2->ptx.unavailable.find("line map is off") != std::string::npos, s2->ptx.unavailable.c_str());
        QCOMPARE(s2->ptx.count, 0);

        // numba writes `call float @"__nv_sinf"(float %x)`.
        auto quoted = job;
        auto& text = quoted.modules[0].bytes;
        for (size_t at; (at = text.find("@__nv_sinf")) != std::string::npos;) text.replace(at, 10, "@\"__nv_sinf\"");
        pipeline::Pipeline quotedPipe(test::realToolkit());
        auto q = runMapped(quotedPipe, quoted);
        QVERIFY(q.result && q.result->ok && q.result->lineMap);
        const auto qu = pipeline::libdeviceUses(quoted, *q.result);
        const auto s3 = std::find_if(qu.begin(), qu.end(), [](const auto& u) { return u.name == "__nv_sinf"; });
        QVERIFY(s3 != qu.end());
        QCOMPARE(s3->calls, sinf->calls);
        QCOMPARE(s3->ptx.count, sinf->ptx.count);
    }

    // The libdevice-math example: each of its three calls has its line, and its PTX lines are the
    // map's of that line, none empty; what a function pulls in names it back as pulling it in.
    void libdeviceUseOfTheMathExample() {
        const auto ws = test::loadExample("libdevice-math");
        pipeline::Job job;
        job.modules = ws.modules;
        job.options = ws.options;
        job.libdevice = ws.libdevice;
        if (!job.options.arch) job.options.arch = "compute_90";
        pipeline::Pipeline p(test::realToolkit());
        auto run = runMapped(p, job);
        QVERIFY(run.result && run.result->ok && run.result->lineMap);
        const auto& map = *run.result->lineMap;
        QVERIFY2(map.ptx.available(), map.ptx.unavailable.c_str());
        const auto uses = pipeline::libdeviceUses(job, *run.result);
        const auto& text = job.modules[0].bytes;
        for (const char* name : {"__nv_sinf", "__nv_expf", "__nv_powf"}) {
            const auto u = std::find_if(uses.begin(), uses.end(), [&](const auto& x) { return x.name == name; });
            QVERIFY2(u != uses.end(), name);
            const int call = lineOf(text, std::string("call float @") + name + "(");
            QVERIFY(call > 0);
            QCOMPARE(u->calls, (std::vector<pipeline::LibdeviceCall>{{"math.ll", call}}));
            QVERIFY2(u->ptx.known(), u->ptx.unavailable.c_str());
            QCOMPARE(u->ptx.count, mappedLineCount(map.ptx.rangesOf("math.ll", call)));
            QVERIFY2(u->ptx.count > 0, name);
            qInfo("%s: math.ll:%d, %d PTX lines", name, call, u->ptx.count);
        }
        for (const auto& u : uses)
            for (const auto& pulled : u.pulls) {
                const auto it = std::find_if(uses.begin(), uses.end(), [&](const auto& x) { return x.name == pulled; });
                QVERIFY2(it != uses.end(), pulled.c_str());
                QVERIFY(std::count(it->pulledInBy.begin(), it->pulledInBy.end(), u.name) == 1);
            }
    }

    // A libdevice function that stayed a `.func` is its body's lines, found without a map; one
    // only another pulls in has no figure of its own, and says where its code is counted.
    void libdeviceFuncBodyIsItsSize() {
        pipeline::Job job;
        job.libdevice = true;
        job.modules = {
            {"k.ll", "define void @k(double %x) {\n  %r = call double @__nv_sin(double %x)\n  ret void\n}\n"}};
        pipeline::CompileResult r;
        r.ptx =
            ".version 9.0\n.target sm_90\n.address_size 64\n"
            ".func (.param .b64 func_retval0) __nv_sin(.param .b64 __nv_sin_param_0);\n"       // 4: a prototype
            ".visible .entry k(.param .f64 k_param_0)\n{\n  ret;\n}\n"                         // 5-8
            ".func (.param .b64 func_retval0) __nv_sin(\n\t.param .b64 __nv_sin_param_0\n)\n"  // 9-11
            "{\n  .reg .f64 %fd<3>; // { not a brace\n  ret;\n}\n";                            // 12-15
        r.ptxModule = ptx::readPtx(r.ptx);
        r.libdeviceFunctions = {"__internal_trig_reduction_slowpathd", "__nv_sin"};
        QCOMPARE(pipeline::ptxFunctionLines(r.ptxModule, r.ptx, "__nv_sin"), (inspect::LineRange{9, 15}));
        QCOMPARE(pipeline::ptxFunctionLines(r.ptxModule, r.ptx, "k"), (inspect::LineRange{5, 8}));
        QCOMPARE(pipeline::ptxFunctionLines(r.ptxModule, r.ptx, "__nv_cos"), (inspect::LineRange{}));
        const auto uses = pipeline::libdeviceUses(job, r);
        QCOMPARE(uses.size(), size_t(2));
        const auto& sin = uses[1];
        QCOMPARE(sin.name, std::string("__nv_sin"));
        QCOMPARE(sin.calls, (std::vector<pipeline::LibdeviceCall>{{"k.ll", 2}}));
        QCOMPARE(sin.pulls, std::vector<std::string>{"__internal_trig_reduction_slowpathd"});
        QVERIFY(sin.ptx.known());
        QCOMPARE(sin.ptx.count, 7);
        QVERIFY2(sin.ptx.how.find(".func __nv_sin") != std::string::npos, sin.ptx.how.c_str());
        const auto& slow = uses[0];
        QCOMPARE(slow.pulledInBy, std::vector<std::string>{"__nv_sin"});
        QVERIFY(slow.calls.empty());
        QVERIFY(!slow.ptx.known());
        QVERIFY2(slow.ptx.unavailable.find("inlined into __nv_sin") != std::string::npos, slow.ptx.unavailable.c_str());
    }

    // Lines of two modules map to their own files, whichever module the code ended up in.
    void twoModulesMapToTheirOwnFiles() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("caller.ll"), test::irFixture("callee.ll")};
        job.options.arch = "compute_90";
        auto run = runMapped(p, job);
        QVERIFY(run.result && run.result->ok && run.result->lineMap);
        const auto& map = *run.result->lineMap;
        QVERIFY2(map.ptx.available(), map.ptx.unavailable.c_str());
        std::set<std::string> files;
        for (const auto& l : map.ptx.lines) {
            files.insert(l.module);
            const int index = map.moduleIndex(l.module);
            const auto& m = map.modules[size_t(index)];
            // A function's prologue maps to its define line; everything else to an instruction.
            const auto text = support::splitLines(job.modules[size_t(index)].bytes);
            const bool define = l.line <= int(text.size()) && support::startsWith(text[size_t(l.line - 1)], "define ");
            QVERIFY2(
                define ||
                    std::find(m.instructionLines.begin(), m.instructionLines.end(), l.line) != m.instructionLines.end(),
                qPrintable(QString("%1:%2 is no instruction line").arg(QString::fromStdString(l.module)).arg(l.line)));
        }
        QCOMPARE(files, (std::set<std::string>{"caller.ll", "callee.ll"}));
        const int fmul = lineOf(job.modules[1].bytes, "fmul float");
        QVERIFY(!map.ptx.rangesOf("callee.ll", fmul).empty());
        checkEveryInstructionLineIsAccountedFor(map, map.ptx);
    }

    // At -opt=0 the twin's PTX is not the plain one: the map says so rather than being wrong.
    void optZeroReportsTheMapUnavailable() {
        pipeline::Pipeline p(test::realToolkit()), plain(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("sinf.ll")};
        job.libdevice = true;
        job.options.arch = "compute_90";
        job.options.opt = 0;
        auto off = plain.run(job);
        auto run = runMapped(p, job);
        QVERIFY(run.result && run.result->ok && run.result->lineMap);
        QCOMPARE(run.result->ptx, off->ptx);
        const auto& map = *run.result->lineMap;
        QVERIFY(!map.ptx.available());
        QVERIFY2(map.ptx.unavailable.find("-opt=0") != std::string::npos, map.ptx.unavailable.c_str());
        // The PTX lines it quotes read as they are, not with their tabs written "\t".
        QVERIFY2(map.ptx.unavailable.find("\\t") == std::string::npos, map.ptx.unavailable.c_str());
        QVERIFY(map.ptx.lines.empty());
    }

    // A lazy module (libNVVM takes only what is used from it; lazy modules must be bitcode) and
    // libdevice off and on: the PTX stays the plain one, the text module is mapped, and the lazy
    // one is mapped or says why not.
    void lazyModulesAndLibdeviceOffAndOn() {
        auto ws = workspace::loadWorkspace(test::examplesDir() / "bitcode.nvpg");
        QVERIFY(ws);
        QVERIFY(ws->modules.size() == 2 && ws->modules[1].lazy && ws->modules[1].isBitcode());
        for (const bool libdevice : {false, true}) {
            pipeline::Pipeline p(test::realToolkit()), plain(test::realToolkit());
            pipeline::Job job;
            job.modules = ws->modules;
            job.libdevice = libdevice;
            job.options.arch = "compute_90";
            auto off = plain.run(job);
            QVERIFY(off && off->ok);
            auto run = runMapped(p, job);
            QVERIFY(run.result && run.result->ok && run.result->lineMap);
            QCOMPARE(run.result->ptx, off->ptx);
            const auto& map = *run.result->lineMap;
            QVERIFY2(map.ptx.available(), map.ptx.unavailable.c_str());
            QVERIFY(map.modules[0].unmapped.empty());
            QVERIFY(map.modules[1].unmapped.empty() || map.modules[1].unmapped.find("lazy") != std::string::npos);
            QVERIFY(!map.ptx.lines.empty());
            checkEveryInstructionLineIsAccountedFor(map, map.ptx);
        }
    }

    // An unchanged job gets its map again without a second twin compile; a changed option
    // makes a new one.
    void theMapOfAnUnchangedJobIsKept() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("sinf.ll")};
        job.libdevice = true;
        job.options.arch = "compute_90";
        auto first = runMapped(p, job);
        QVERIFY(first.result && first.result->lineMap && first.mapStage);
        auto second = runMapped(p, job);
        QVERIFY(second.result && second.result->lineMap);
        QVERIFY(!second.mapStage);
        QCOMPARE(second.result->stageSeconds(pipeline::StageId::MapLines), 0.0);
        QCOMPARE(inspect::toJson(*second.result->lineMap), inspect::toJson(*first.result->lineMap));
        QVERIFY(second.plain);  // onPlain still heard the plain result first
        job.options.fma = false;
        auto third = runMapped(p, job);
        QVERIFY(third.result && third.result->lineMap && third.mapStage);
    }

    // A compile that fails gives no plain result to onPlain, and a map saying why there is none.
    void aFailedCompileHasNoMap() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("broken.ll")};
        job.options.arch = "compute_90";
        auto run = runMapped(p, job);
        QVERIFY(run.result && !run.result->ok);
        QVERIFY(!run.plain);
        QVERIFY(run.result->lineMap);
        for (const auto which : inspect::kMappedOutputs)
            QCOMPARE(run.result->lineMap->output(which).unavailable, std::string("the plain compile failed"));
    }

    void sassWithoutNvdisasmSaysHowToGetIt() {
        // A toolkit of links to the real libraries and ptxas, without bin/nvdisasm, used alone.
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        const auto& real = *test::realToolkit();
        for (const char* sub : {"nvvm/lib64", "nvvm/libdevice", "lib64", "bin"})
            std::filesystem::create_directories(root / sub);
        std::filesystem::create_symlink(real.nvvmReport().path, root / "nvvm/lib64/libnvvm.so.4");
        std::filesystem::create_symlink(real.libdeviceReport().path, root / "nvvm/libdevice/libdevice.10.bc");
        std::filesystem::create_symlink(real.nvJitLinkReport().path,
                                        root / "lib64" / real.nvJitLinkReport().path.filename());
        if (const auto* ptxas = real.ptxas()) std::filesystem::create_symlink(*ptxas, root / "bin/ptxas");
        toolkit::SearchConfig config;
        config.explicitRoot = root;
        auto tk = toolkit::Toolkit::load(config);
        QVERIFY2(tk, tk ? "" : tk.error().message.c_str());
        QVERIFY(!(*tk)->nvdisasm());
        pipeline::Pipeline p(*tk);
        pipeline::Job job;
        job.modules = {test::irFixture("sinf.ll")};
        job.libdevice = true;
        job.options.arch = "compute_90";
        job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kSass;
        auto r = p.run(job);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY(r->ok);  // the other outputs are made; the SASS says why it is not there
        QVERIFY(!r->ptx.empty() && !r->linkedPtx.empty());
        QVERIFY(r->sass.empty() && r->sassFunctions.empty() && r->sassSource.empty());
        QCOMPARE(r->sassUnavailable, (*tk)->nvdisasmReport().problem);
        QVERIFY2(r->sassUnavailable.find("nvdisasm") != std::string::npos, r->sassUnavailable.c_str());
        QVERIFY(!r->findStage(pipeline::StageId::Disassemble));
        QVERIFY(!r->findStage(pipeline::StageId::LinkLtoCubin));  // no cubin linked for SASS that cannot be made
    }

    void optionChangeReusesTheProgramAndEditMakesANewOne() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("sinf.ll")};
        job.libdevice = true;
        job.options.arch = "compute_90";
        auto first = p.run(job);
        QVERIFY(first && first->ok);
        QVERIFY(!first->reusedProgram);
        QVERIFY(first->stageSeconds(pipeline::StageId::AddModules) > 0);

        job.options.opt = 0;
        job.generation = 2;
        auto second = p.run(job);
        QVERIFY(second && second->ok);
        QVERIFY(second->reusedProgram);
        QCOMPARE(second->generation, uint64_t(2));
        QVERIFY(second->ptx != first->ptx);
        QCOMPARE(second->stageSeconds(pipeline::StageId::AddModules), 0.0);  // nothing added again

        job.modules[0].bytes += "\n; an edit\n";
        auto third = p.run(job);
        QVERIFY(third && third->ok);
        QVERIFY(!third->reusedProgram);

        job.libdevice = false;  // a different libdevice choice is a different Program too
        auto fourth = p.run(job);
        QVERIFY(fourth && !fourth->ptx.empty());  // which fails: __nv_sinf is then unresolved
        QVERIFY(!fourth->reusedProgram);
    }

    // Two modules' kernels, each kept by LTO through its module's own
    // @llvm.used (libNVVM merges them), are listed first, second in every table and figure list:
    // the order of the modules, then of definition (ptxas lists them the other way round).
    void kernelsAreListedInTheModulesOrderEverywhere() {
        const auto module = [](const std::string& kernel, const char* value) {
            return nvvm::Module{
                kernel + ".ll",
                fmt::format("target datalayout = \"{2}\"\ntarget triple = \"nvptx64-nvidia-cuda\"\n\n"
                            "define void @{0}(float* %p) {{\n  store float {1}, float* %p\n  ret void\n}}\n\n"
                            "@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*)* @{0} to i8*)], "
                            "section \"llvm.metadata\"\n\n!nvvm.annotations = !{{!0}}\n"
                            "!0 = !{{void (float*)* @{0}, !\"kernel\", i32 1}}\n!nvvmir.version = !{{!1}}\n"
                            "!1 = !{{i32 2, i32 0}}\n",
                            kernel, value,
                            "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-"
                            "f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"),
                false};
        };
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {module("first", "1.0"), module("second", "2.0")};
        job.options.arch = "compute_90";
        job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin | pipeline::kFigures;
        auto r = p.run(job);
        QVERIFY(r);
        QVERIFY2(r->ok, r->nvvmLog.c_str());
        const std::vector<std::string> order{"first", "second"};
        std::vector<std::string> kernels, ptxFigures, ltoFigures, ptxRows, ltoRows;
        for (const auto& k : r->kernels) kernels.push_back(k.name);
        for (const auto& u : r->ptxFigures.functions) ptxFigures.push_back(u.function);
        for (const auto& u : r->ltoFigures.functions)
            if (u.isEntry) ltoFigures.push_back(u.function);
        const auto s = pipeline::summarizeResult(*r);
        for (const auto& row : s.ptx.figures.rows) ptxRows.push_back(row.front());
        for (const auto& row : s.lto.figures.rows) ltoRows.push_back(row.front());
        QCOMPARE(kernels, order);
        QCOMPARE(ptxFigures, order);
        QCOMPARE(ltoFigures, order);
        QCOMPARE(ptxRows, order);
        QCOMPARE(ltoRows, order);
    }

    void libdeviceFunctionsAreListed() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {numbaCase("math_kernel").modules};
        job.libdevice = true;
        job.options.arch = "compute_90";
        auto r = p.run(job);
        QVERIFY(r && r->ok);
        const auto& f = r->libdeviceFunctions;
        for (const char* name : {"__nv_sinf", "__nv_expf"})
            QVERIFY2(std::find(f.begin(), f.end(), name) != f.end(), name);
        // numba calls the double pow, which pulls in libdevice's internal accurate pow
        QVERIFY(std::find(f.begin(), f.end(), "__nv_pow") != f.end());
        QVERIFY(std::find(f.begin(), f.end(), "__internal_accurate_pow") != f.end());
        QVERIFY(std::find(f.begin(), f.end(), "__nv_cosf") == f.end());
    }

    // __nv_sinf called by a kernel LTO keeps, without libdevice: the PTX compiles, the cubin link fails. Its error is
    // placed on the call, carries the hint to link libdevice, and the result says which stage failed and which pane it
    // belongs to.
    void linkFailureIsPlacedAndHinted() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("sinf-kept.ll")};
        job.options.arch = "compute_90";
        job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin;
        auto r = p.run(job);
        QVERIFY(r);
        QVERIFY(!r->ok && !r->ptx.empty());
        const auto err = std::find_if(r->diagnostics.begin(), r->diagnostics.end(),
                                      [](const auto& d) { return d.severity == nvvm::Severity::Error; });
        QVERIFY(err != r->diagnostics.end());
        QVERIFY2(err->message.find("'__nv_sinf'") != std::string::npos, err->message.c_str());
        QVERIFY2(err->message.find("link libdevice") != std::string::npos, err->message.c_str());
        // The cause, once: nvpg's row for the unresolved function stands for nvJitLink's.
        QCOMPARE(err->source, std::string("nvpg"));
        QCOMPARE(err->module, std::string("sinf-kept.ll"));
        QCOMPARE(err->line, 12);  // "%r = call float @__nv_sinf(float %x)"
        const auto failure = pipeline::failureOf(*r);
        QVERIFY(failure);
        // The LTO PTX link or the cubin link, both the LTO pane's.
        QVERIFY(pipeline::isLinkStage(failure->stage));
        QVERIFY(failure->ltoPane);
        QVERIFY2(pipeline::failureSummary(*r).starts_with("Link LTO-IR to"), pipeline::failureSummary(*r).c_str());
        QCOMPARE(failure->mark, std::string(pipeline::stageName(failure->stage)) + " failed");
        // A result that did not fail has none.
        job.libdevice = true;
        auto ok = p.run(job);
        QVERIFY(ok && ok->ok);
        QVERIFY(!pipeline::failureOf(*ok));
    }

    void libdeviceFunctionsFromBitcodeToo() {
        const auto llvmAs = QStandardPaths::findExecutable("llvm-as-14");
        if (llvmAs.isEmpty()) QSKIP("llvm-as-14 is not installed (Debian package llvm-14)");
        QProcess as;
        as.start(llvmAs, {QString::fromStdString((test::dataDir() / "ir/sinf.ll").string()), "-o", "-"});
        QVERIFY(as.waitForFinished(30000));
        const nvvm::Module bc{"sinf.bc", as.readAllStandardOutput().toStdString(), false};
        QVERIFY(bc.isBitcode());
        QCOMPARE(nvvm::libdeviceFunctionsUsedBy({bc}), std::vector<std::string>{"__nv_sinf"});
    }

    void badOptionStopsBeforeLibnvvm() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("sinf.ll")};
        job.options.arch = "compute_70";
        auto r = p.run(job);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, support::ErrorKind::Usage);
    }

    void verifyOnlyProducesNoPtx() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("verify-alloca.ll")};
        job.options.arch = "compute_90";
        job.verifyOnly = true;
        auto r = p.run(job);
        QVERIFY(r);
        QVERIFY(!r->ok);
        QVERIFY(r->ptx.empty());
        QCOMPARE(r->diagnostics.at(0).line, 8);
        job.modules = {test::irFixture("sinf.ll")};
        auto good = p.run(job);
        QVERIFY(good && good->ok && good->ptx.empty());
    }

    // libNVVM's verifier runs in every compile: what it refuses is not compiled, and its message
    // is placed on its module and line, also in a program of two modules (the verifier checks
    // the first module's datalayout, the one the program takes). With verify off the same job
    // compiles, to show what libNVVM makes of it.
    void verifierRefusesInEveryCompile_data() {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("alloca in addrspace(3)")
            << "verify-alloca.ll" << 8 << "Allocation instruction pointer not in the stack address space";
        QTest::newRow("datalayout without i128")
            << "verify-layout.ll" << 3 << "DataLayoutError: Unsupported integer alignment";
    }
    void verifierRefusesInEveryCompile() {
        QFETCH(QString, fixture);
        QFETCH(int, line);
        QFETCH(QString, message);
        const auto bad = test::irFixture(fixture.toStdString());
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {bad, test::irFixture("sinf.ll")};
        job.libdevice = true;
        job.options.arch = "compute_90";
        auto r = p.run(job);
        QVERIFY(r);
        QVERIFY(!r->ok);
        QVERIFY(r->ptx.empty());
        std::vector<nvvm::Diagnostic> errors;
        for (const auto& d : r->diagnostics)
            if (d.severity == nvvm::Severity::Error) errors.push_back(d);
        QVERIFY(!errors.empty());
        const auto shown = nvvm::formatDiagnostic(errors[0]);
        QVERIFY2(errors.size() == 1, shown.c_str());
        QCOMPARE(errors[0].module, bad.name);
        QCOMPARE(errors[0].line, line);
        QVERIFY2(support::startsWith(errors[0].message, message.toStdString()), shown.c_str());
        QVERIFY(r->stageSeconds(pipeline::StageId::Verify) > 0);

        job.verify = false;
        auto anyway = p.run(job);
        QVERIFY(anyway);
        QVERIFY2(anyway->ok, anyway->nvvmLog.c_str());
        QVERIFY(anyway->ptx.find(".entry sin_kernel") != std::string::npos);
        QCOMPARE(anyway->stageSeconds(pipeline::StageId::Verify), 0.0);
    }

    // Verify, then libdevice, then compile, as cuda.core does: libdevice is added once, by the
    // first compile, and the PTX is that of the plain libNVVM calls.
    void verifyComesBeforeLibdeviceAddedOnce() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("sinf.ll")};
        job.libdevice = true;
        job.options.arch = "compute_90";
        std::vector<pipeline::StageId> seen;
        const auto listen = [&](const pipeline::StageEvent& e) { seen.push_back(e.id); };
        auto first = p.run(job, listen);
        QVERIFY(first && first->ok);
        const auto at = [&](pipeline::StageId id) { return std::find(seen.begin(), seen.end(), id) - seen.begin(); };
        QVERIFY(at(pipeline::StageId::Verify) < at(pipeline::StageId::CompilePtxLibdevice));
        QVERIFY(at(pipeline::StageId::CompilePtxLibdevice) < long(seen.size()));
        QVERIFY(first->ptx.find("__nv_sinf") == std::string::npos);  // linked, not called

        seen.clear();
        job.options.opt = 0;
        auto second = p.run(job, listen);
        QVERIFY(second && second->ok && second->reusedProgram);
        QVERIFY(at(pipeline::StageId::Verify) < at(pipeline::StageId::CompilePtx));
        QCOMPARE(at(pipeline::StageId::CompilePtxLibdevice), long(seen.size()));  // not added again

        const std::vector<test::PlainModule> plain{{"sinf.ll", job.modules[0].bytes, false},
                                                   {"libdevice.10.bc", **test::realToolkit()->libdevice(), true}};
        QCOMPARE(first->ptx, test::plainCompile(test::realToolkit()->nvvm(), plain, first->flags));
        QCOMPARE(second->ptx, test::plainCompile(test::realToolkit()->nvvm(), plain, second->flags));
    }

    void archComesFromThePtxWhenNotGiven() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("lto-kept-dropped.ll")};
        job.archFromGpu = false;
        job.outputs = pipeline::kPtx | pipeline::kLtoPtx;
        auto r = p.run(job);
        QVERIFY(r && r->ok);
        QCOMPARE(r->archSource, std::string("libNVVM default"));
        QVERIFY(support::startsWith(r->arch, "compute_"));
        QCOMPARE(r->linkedPtxModule.target, r->ptxModule.target);  // linked for the same sm_
    }

    void reportHasWhatScriptsNeed() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("lto-kept-dropped.ll")};
        job.options.arch = "compute_90";
        job.outputs = pipeline::kPtx | pipeline::kLtoPtx | pipeline::kFigures;
        auto r = p.run(job);
        QVERIFY(r && r->ok);
        const auto j = pipeline::reportJson(job, *r, {"lto-kept-dropped.ll"});
        QCOMPARE(j["format"], "nvpg-report");
        QCOMPARE(j["flags"], nlohmann::ordered_json::array({"-arch=compute_90"}));  // what libNVVM was given
        QCOMPARE(j["kernels"].size(), 2u);
        const auto& kept = j["kernels"][0];
        QCOMPARE(kept["name"], "kept");
        QCOMPARE(kept["params"].size(), 2u);
        QCOMPARE(kept.at("params").at(0).at("size"), 8);
        // Checked with contains() first: a missing key must fail the test, not throw.
        QVERIFY2(kept.contains("registers"), ("no figures for kept; ptxas said:\n" + r->linkInfoLog).c_str());
        QVERIFY(kept.at("registers").get<int>() > 0);
        QVERIFY(kept.contains("spill_stores") && kept.contains("local_bytes") && kept.contains("shared_bytes"));
        QCOMPARE(j["diagnostics"].size(), 1u);
        QCOMPARE(j["diagnostics"][0]["severity"], "warning");
        std::vector<std::string> stages;
        for (const auto& s : j["stages"]) stages.push_back(s["name"]);
        for (const char* s :
             {"add modules", "compile PTX", "compile LTO-IR", "link LTO-IR to PTX", "link LTO-IR to cubin"})
            QVERIFY2(std::find(stages.begin(), stages.end(), s) != stages.end(), s);
    }

    // libNVVM names no module on some errors: damaged bitcode ("Invalid abbrev number",
    // "Invalid encoding", ...), a bad datalayout, and it names only the second of two modules
    // that define one symbol, after a "link error:" that hid even that. Every error the pipeline
    // returns names the module it is about.
    void everyErrorNamesItsModule() {
        const auto text = test::readText(test::dataDir() / "ir/sinf.ll");
        auto errorsOf = [](std::vector<nvvm::Module> modules) {
            pipeline::Pipeline p(test::realToolkit());
            pipeline::Job job;
            job.modules = std::move(modules);
            job.options.arch = "compute_90";
            job.outputs = pipeline::kPtx;
            auto r = p.run(job);
            if (!r) qFatal("%s", r.error().message.c_str());
            std::vector<nvvm::Diagnostic> errors;
            for (const auto& d : r->diagnostics)
                if (d.severity == nvvm::Severity::Error) errors.push_back(d);
            if (r->ok || errors.empty()) qFatal("the compile did not fail");
            return errors;
        };
        auto shown = [](const std::vector<nvvm::Diagnostic>& ds) {
            std::string s;
            for (const auto& d : ds) s += nvvm::formatDiagnostic(d) + "\n";
            return s;
        };

        // A datalayout with a specifier LLVM does not know, in the second of two modules.
        std::string badLayout = text;
        const auto dl = badLayout.find("target datalayout = \"") + 21;
        badLayout.insert(dl, "q7-");
        auto errors = errorsOf({{"a.ll", text}, {"layout.ll", badLayout}});
        for (const auto& d : errors) QVERIFY2(d.module == "layout.ll", shown(errors).c_str());
        QVERIFY2(shown(errors).find("Unknown specifier in datalayout string") != std::string::npos,
                 shown(errors).c_str());

        // The same kernel defined by two modules: the message says which two.
        errors = errorsOf({{"d1/k.ll", text}, {"d2/k.ll", text}});
        QVERIFY2(errors.size() == 1 && errors[0].module == "d2/k.ll", shown(errors).c_str());
        QVERIFY2(errors[0].message.find("@sin_kernel is defined in both d1/k.ll and d2/k.ll") != std::string::npos,
                 shown(errors).c_str());
        // And one file given twice.
        errors = errorsOf({{"k.ll", text}, {"k.ll", text}});
        QVERIFY2(errors.size() == 1 && errors[0].module == "k.ll", shown(errors).c_str());
        QVERIFY2(errors[0].message.find("@sin_kernel is defined twice: k.ll is given twice; give it once") !=
                     std::string::npos,
                 shown(errors).c_str());

        // Damaged bitcode after a text module: libNVVM's messages are of the bitcode reader alone.
        const auto llvmAs = QStandardPaths::findExecutable("llvm-as-14");
        if (llvmAs.isEmpty()) QSKIP("llvm-as-14 is not installed (Debian package llvm-14)");
        QProcess as;
        as.start(llvmAs, {QString::fromStdString((test::dataDir() / "ir/sinf.ll").string()), "-o", "-"});
        QVERIFY(as.waitForFinished(30000) && as.exitCode() == 0);
        const std::string bitcode = as.readAllStandardOutput().toStdString();
        int unplacedByLibnvvm = 0;
        for (uint64_t seed = 1; seed <= 6; ++seed) {
            const std::string damaged = test::mutateBytes(bitcode, seed, 4);
            errors = errorsOf({{"a.ll", text}, {"m.bc", damaged}});
            for (const auto& d : errors)
                QVERIFY2(d.module == "m.bc", (std::to_string(seed) + ": " + shown(errors)).c_str());
            for (const char* m : {"Invalid abbrev number", "Invalid encoding", "not a number", "Invalid record"})
                if (shown(errors).find(m) != std::string::npos) ++unplacedByLibnvvm;
        }
        QVERIFY2(unplacedByLibnvvm > 0, "no seed gave one of the bitcode reader's unplaced messages");
    }
};

QTEST_GUILESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
