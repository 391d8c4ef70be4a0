// Live registers and local memory, through the real nvdisasm (the
// toolkit's, or the pip wheel's that ctest's nvdisasm_wheel set-up installs): a figure for every
// instruction, peaks that are nvdisasm's own and within ptxas' register count, figures carried to
// IR and PTX lines by the line map, and local-memory traffic placed on its lines. Every test
// needs nvdisasm, so that without it ctest lists the suite as skipped.
#include <QtTest>

#include <algorithm>
#include <map>
#include <regex>
#include <thread>

#include "TestSupport.h"
#include "core/inspect/ControlFlow.h"
#include "core/inspect/LiveRegisters.h"
#include "core/inspect/Sass.h"
#include "core/inspect/SassView.h"
#include "core/pipeline/LiveFigures.h"
#include "core/pipeline/Pipeline.h"
#include "core/ptx/Ptxas.h"
#include "core/support/Files.h"
#include "core/support/Process.h"
#include "core/support/Text.h"

using namespace nvpg;
namespace fs = std::filesystem;

namespace {

constexpr unsigned kLiveOutputs = pipeline::kPtx | pipeline::kFigures | pipeline::kSass | pipeline::kLiveRegisters;

// Every bundled example and every numba-cuda fixture, as a user compiles them, with live figures
// and the line map.
std::vector<std::pair<std::string, pipeline::Job>> cases() {
    auto out = test::exampleAndNumbaJobs();
    for (auto& [name, job] : out) {
        job.outputs |= kLiveOutputs;
        job.lineMap = true;
        job.archFromGpu = false;
        if (!job.options.arch) job.options.arch = "compute_90";
    }
    return out;
}

// The most general registers nvdisasm -lrm count says are live in each function, read from its
// own output here (the first figure after "// |" on an instruction row), not by the code under test.
std::map<std::string, int> nvdisasmPeaks(const fs::path& nvdisasm, const std::string& cubin) {
    QTemporaryDir dir;
    const auto path = fs::path(dir.path().toStdString()) / "k.cubin";
    if (!support::writeFileAtomic(path, cubin)) qFatal("cannot write %s", path.c_str());
    const auto ran = support::runProcess({nvdisasm.string(), "-c", "-lrm", "count", path.string()}, size_t(64) << 20);
    if (ran.status != 0) qFatal("nvdisasm -lrm count: %s", ran.output.c_str());
    static const std::regex type(R"(\.type\s+(\S+),@function)");
    static const std::regex row(R"(/\*[0-9a-f]+\*/.*;\s*// \|\s*(\d*)\s*\|)");
    std::map<std::string, int> peaks;
    std::string function;
    for (auto line : support::splitLines(ran.output)) {
        const std::string text(line);
        std::smatch m;
        if (std::regex_search(text, m, type))
            function = m[1];
        else if (std::regex_search(text, m, row) && m[1].length() > 0)
            peaks[function] = std::max(peaks[function], std::stoi(m[1]));
    }
    return peaks;
}

std::string wholeProgramCubin(const std::string& ptx, const std::string& arch) {
    const auto* ptxas = test::realToolkit()->ptxas();
    if (!ptxas) qFatal("no ptxas: %s", test::realToolkit()->ptxasReport().problem.c_str());
    auto a = ptx::assembleWholeProgram(*ptxas, ptx, "sm_" + arch.substr(arch.find('_') + 1), {});
    if (!a.ok) qFatal("%s", a.error.c_str());
    return a.cubin;
}

// A module of `kernels` kernels, each inlining a few libdevice functions: a program with enough
// code that its live-range listing is run in parts.
std::string manyKernels(int kernels) {
    std::string ir = R"(target triple = "nvptx64-nvidia-cuda"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @__nv_powf(float, float)
declare float @__nv_sinf(float)
declare float @__nv_erfcinvf(float)
)";
    std::string annotations;
    for (int k = 0; k < kernels; ++k) {
        ir += "define void @k" + std::to_string(k) + "(float* %out, float* %in) {\n";
        ir +=
            "  %i = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
            "  %p = getelementptr float, float* %in, i32 %i\n"
            "  %x = load float, float* %p\n"
            "  %a = call float @__nv_powf(float %x, float " +
            std::to_string(k + 2) +
            ".0)\n"
            "  %b = call float @__nv_sinf(float %a)\n"
            "  %c = call float @__nv_erfcinvf(float %b)\n"
            "  %q = getelementptr float, float* %out, i32 %i\n"
            "  store float %c, float* %q\n"
            "  ret void\n}\n";
        annotations += (k ? ", " : "") + std::string("!") + std::to_string(k + 1);
    }
    ir += "!nvvm.annotations = !{" + annotations + "}\n";
    ir += "!nvvmir.version = !{!0}\n!0 = !{i32 2, i32 0}\n";
    for (int k = 0; k < kernels; ++k)
        ir += "!" + std::to_string(k + 1) + " = !{void (float*, float*)* @k" + std::to_string(k) +
              ", !\"kernel\", i32 1}\n";
    return ir;
}

// The whole-program cubin of manyKernels(60) for compute_90.
std::string manyKernelsCubin() {
    pipeline::Pipeline p(test::realToolkit());
    pipeline::Job job;
    job.modules = {{"many.ll", manyKernels(60), false}};
    job.libdevice = true;
    job.options.arch = "compute_90";
    job.archFromGpu = false;
    auto r = p.run(job);
    if (!r || r->ptx.empty()) qFatal("%s", r ? r->nvvmLog.c_str() : r.error().message.c_str());
    return wholeProgramCubin(r->ptx, "compute_90");
}

}  // namespace

class TestLive : public QObject {
    Q_OBJECT

private slots:
    void everyInstructionHasAFigure_data() {
        QTest::addColumn<int>("index");
        int i = 0;
        for (const auto& [name, job] : cases()) QTest::newRow(name.c_str()) << i++;
    }

    // Each instruction of each function (its padding aside) has nvdisasm's figures; each kernel's
    // peak is nvdisasm's largest figure for it, within ptxas' register count.
    void everyInstructionHasAFigure() {
        NEED_NVDISASM(nvdisasm);
        QFETCH(int, index);
        const auto job = cases()[size_t(index)].second;
        pipeline::Pipeline p(test::realToolkit());
        auto r = p.run(job);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY2(r->ok && !r->sass.empty(), r->sassUnavailable.c_str());
        QVERIFY2(r->sassLiveUnavailable.empty(), r->sassLiveUnavailable.c_str());
        const auto listing = inspect::readSass(r->sass);
        QCOMPARE(r->sassLive.size(), listing.instructions.size());
        std::map<std::string, int> seen;
        for (size_t i = 0; i < listing.instructions.size(); ++i) {
            const auto& in = listing.instructions[i];
            const auto f = std::find_if(listing.functions.begin(), listing.functions.end(),
                                        [&](const auto& fn) { return fn.name == in.function; });
            QVERIFY(f != listing.functions.end());
            if (seen[in.function]++ < f->instructions)
                QVERIFY2(r->sassLive[i].known, qPrintable(QString("no figure at listing line %1").arg(in.line)));
        }
        const auto live = pipeline::liveFigures(*r);
        QVERIFY2(live.available(), live.unavailable.c_str());
        QCOMPARE(live.kernels.size(), r->kernels.size());
        // The same cubin's listing nvdisasm gives here: the PTX's whole-program cubin (an LTO job's
        // SASS is nvJitLink's, which this test cannot remake alike).
        std::map<std::string, int> theirs;
        if (support::startsWith(r->sassSource, "nvdisasm -c of the PTX's whole-program cubin")) {
            const auto cubin = wholeProgramCubin(r->ptx, r->arch);
            QCOMPARE(inspect::disassemble(nvdisasm, cubin, inspect::Listing::Plain).text, r->sass);
            theirs = nvdisasmPeaks(nvdisasm, cubin);
        }
        for (const auto& k : live.kernels) {
            QVERIFY(k.gpr > 0);
            QVERIFY2(k.registers && k.gpr <= *k.registers, qPrintable(QString("%1: peak %2 over %3 registers")
                                                                          .arg(QString::fromStdString(k.kernel))
                                                                          .arg(k.gpr)
                                                                          .arg(k.registers.value_or(-1))));
            if (!theirs.empty()) QCOMPARE(k.gpr, theirs.at(k.kernel));
            // The peak's line is an instruction with that figure.
            const auto at = std::find_if(listing.instructions.begin(), listing.instructions.end(),
                                         [&](const auto& in) { return in.line == k.sassLine; });
            QVERIFY(at != listing.instructions.end());
            QCOMPARE(r->sassLive[size_t(at - listing.instructions.begin())].gpr, k.gpr);
        }
    }

    // The figures of IR and PTX lines are those of the SASS they became: an IR line has its
    // instructions' largest, the inlined sinf's call line included; a PTX line its IR line's.
    void figuresFollowTheLineMap() {
        NEED_NVDISASM(nvdisasm);
        (void)nvdisasm;
        pipeline::Job job;
        for (const auto& [name, j] : cases())
            if (name == "example libdevice-math") job = j;
        QVERIFY(!job.modules.empty());
        pipeline::Pipeline p(test::realToolkit());
        auto r = p.run(job);
        QVERIFY(r && r->ok && r->lineMap);
        QVERIFY2(r->lineMap->sass.available(), r->lineMap->sass.unavailable.c_str());
        const auto live = pipeline::liveFigures(*r);
        QVERIFY(live.available() && live.mapUnavailable.empty());
        std::map<std::pair<int, int>, int> expected;
        for (size_t i = 0; i < live.listing.instructions.size(); ++i) {
            const auto o = r->lineMap->sass.originOf(live.listing.instructions[i].line);
            if (o.module < 0 || !live.counts[i].known) continue;
            auto& e = expected[{o.module, o.line}];
            e = std::max(e, live.counts[i].gpr);
        }
        QVERIFY(expected.size() >= 4);
        QCOMPARE(live.irLines.size(), expected.size());
        for (const auto& l : live.irLines) QCOMPARE(l.gpr, (expected[{l.module, l.line}]));
        // The sinf call line: its figure is that of sinf's inlined instructions.
        int call = 0, n = 0;
        for (auto line : support::splitLines(job.modules[0].bytes)) {
            ++n;
            if (line.find("call float @__nv_sinf") != std::string_view::npos) call = n;
        }
        QVERIFY(call > 0);
        QVERIFY(live.irLine(0, call) > 0);
        QVERIFY(r->lineMap->sass.rangesOf(job.modules[0].name, call).size() >= 1);
        // The kernel's peak is named at an IR line whose figure is the peak.
        QCOMPARE(live.kernels.size(), size_t(1));
        const auto& k = live.kernels[0];
        QCOMPARE(k.module, job.modules[0].name);
        QCOMPARE(live.irLine(0, k.line), k.gpr);
        // PTX lines: their IR line's figure; the PTX the user sees, unchanged.
        QCOMPARE(live.ptxLines.size(), support::splitLines(r->ptx).size());
        int withFigure = 0;
        for (size_t i = 0; i < live.ptxLines.size(); ++i) {
            if (live.ptxLines[i] < 0) continue;
            ++withFigure;
            const auto o = r->lineMap->ptx.originOf(int(i) + 1);
            QCOMPARE(live.ptxLines[i], live.irLine(o.module, o.line));
        }
        QVERIFY(withFigure > 50);  // sinf's ~100 PTX lines among them
    }

    // Local memory: PTX ld.local/st.local and SASS LDL/STL on their lines, carried to the IR lines
    // that read and write the array.
    void localMemoryIsPlacedOnItsLines() {
        NEED_NVDISASM(nvdisasm);
        (void)nvdisasm;
        pipeline::Job job;
        job.modules = {test::irFixture("local-array.ll")};
        job.options.arch = "compute_90";
        job.outputs = kLiveOutputs;
        job.lineMap = true;
        job.archFromGpu = false;
        pipeline::Pipeline p(test::realToolkit());
        auto r = p.run(job);
        QVERIFY(r && r->ok && r->lineMap);
        const auto places = pipeline::localMemoryPlaces(*r);
        QVERIFY(!places.ptx.empty() && !places.sass.empty());
        const auto ptx = support::splitLines(r->ptx);
        for (const int l : places.ptx) {
            const auto text = support::trim(ptx[size_t(l - 1)]);
            QVERIFY2(support::startsWith(text, "ld.local") || support::startsWith(text, "st.local"),
                     std::string(text).c_str());
        }
        const auto sass = support::splitLines(r->sass);
        for (const int l : places.sass) {
            const auto row = inspect::splitSassRow(sass[size_t(l - 1)]);
            QVERIFY2(support::startsWith(row.instruction, "LDL") || support::startsWith(row.instruction, "STL"),
                     row.instruction.c_str());
        }
        // Every LDL/STL of the listing is among them.
        size_t all = 0;
        for (auto line : sass) {
            const auto row = inspect::splitSassRow(line);
            all += row.kind == inspect::SassRow::Kind::Instruction &&
                   (support::startsWith(row.instruction, "LDL") || support::startsWith(row.instruction, "STL"));
        }
        QCOMPARE(places.sass.size(), all);
        // The IR lines: the volatile store into the array and the volatile load from it.
        std::vector<int> expected;
        int n = 0;
        for (auto line : support::splitLines(job.modules[0].bytes)) {
            ++n;
            if (line.find("store volatile float") != std::string_view::npos ||
                line.find("load volatile float") != std::string_view::npos)
                expected.push_back(n);
        }
        std::vector<int> got;
        for (const auto& l : places.ir) got.push_back(l.line);
        QCOMPARE(got, expected);
        // A kernel without local memory has none.
        pipeline::Job saxpy = job;
        saxpy.modules = {{"saxpy.ll", test::readText(test::examplesDir() / "src/saxpy/saxpy.ll"), false}};
        auto s = p.run(saxpy);
        QVERIFY(s && s->ok);
        QVERIFY(pipeline::localMemoryPlaces(*s).empty());
    }

    // The listings run side by side from one copy of the cubin, each as nvdisasm prints it alone.
    // A large program's live ranges come from nvdisasm runs over parts of its code sections side
    // by side (-fun); the figures are those of one run over the whole cubin, instruction by
    // instruction.
    void liveRangesInPartsAreThoseOfOneRun() {
        NEED_NVDISASM(nvdisasm);
        if (std::thread::hardware_concurrency() < 2) QSKIP("one core: the live ranges are never split");
        const auto cubin = manyKernelsCubin();

        const auto sections = inspect::codeSections(cubin);
        const auto plain = inspect::disassemble(nvdisasm, cubin, inspect::Listing::Plain);
        QVERIFY2(plain.ok, plain.error.c_str());
        const auto listing = inspect::readSass(plain.text);
        QCOMPARE(sections.size(), listing.functions.size());  // each kernel its own section here
        QCOMPARE(sections.size(), size_t(60));
        const auto groups = inspect::splitSections(sections, 3);
        QCOMPARE(groups.size(), size_t(3));
        size_t grouped = 0;
        for (const auto& g : groups) grouped += g.size();
        QCOMPARE(grouped, sections.size());

        const auto split = inspect::disassemble(nvdisasm, cubin, inspect::Listing::LiveRanges);
        QVERIFY2(split.ok, split.error.c_str());
        QVERIFY2(split.parts >= 2, qPrintable(QString("one run over %1 code sections").arg(sections.size())));
        QTemporaryDir dir;
        const auto path = fs::path(dir.path().toStdString()) / "k.cubin";
        QVERIFY(support::writeFileAtomic(path, cubin));
        const auto whole =
            support::runProcess({nvdisasm.string(), "-c", "-lrm", "count", path.string()}, size_t(64) << 20);
        QCOMPARE(whole.status, 0);
        const auto fromParts = inspect::readLiveRanges(split.text, listing);
        const auto fromOne = inspect::readLiveRanges(whole.output, listing);
        if (!fromParts) QFAIL(fromParts.error().message.c_str());
        if (!fromOne) QFAIL(fromOne.error().message.c_str());
        QCOMPARE(fromParts->size(), listing.instructions.size());
        size_t known = 0;
        for (size_t i = 0; i < listing.instructions.size(); ++i) {
            QVERIFY2((*fromParts)[i] == (*fromOne)[i],
                     qPrintable(QString::fromStdString(listing.instructions[i].function + " at " +
                                                       listing.instructions[i].offset)));
            known += (*fromParts)[i].known;
        }
        QVERIFY(known > listing.instructions.size() / 2);
        // Not an ELF: no sections, so one run, which nvdisasm refuses with its own words.
        QVERIFY(inspect::codeSections("not a cubin").empty());
        QVERIFY(inspect::codeSections(cubin.substr(0, 200)).empty());
    }

    // The graph's runs over parts of the cubin (each numbering its labels from .L_x_0) read as one
    // run's: the same blocks, edges, lines, and the labels and branches the listing shows.
    void graphsInPartsAreThoseOfOneRun() {
        NEED_NVDISASM(nvdisasm);
        if (std::thread::hardware_concurrency() < 2) QSKIP("one core: the graph is never split");
        const auto cubin = manyKernelsCubin();
        const auto plain = inspect::disassemble(nvdisasm, cubin, inspect::Listing::Plain);
        QVERIFY2(plain.ok, plain.error.c_str());
        const auto split = inspect::disassemble(nvdisasm, cubin, inspect::Listing::BasicBlocks);
        QVERIFY2(split.ok, split.error.c_str());
        QVERIFY(split.parts >= 2);
        QTemporaryDir dir;
        const auto path = fs::path(dir.path().toStdString()) / "k.cubin";
        QVERIFY(support::writeFileAtomic(path, cubin));
        const auto whole = support::runProcess({nvdisasm.string(), "-bbcfg", path.string()}, size_t(64) << 20);
        QCOMPARE(whole.status, 0);
        // The parts do name their labels apart from the listing: what is checked is not the same text.
        QVERIFY(split.text != whole.output);
        const auto fromParts = inspect::cfgFromSass(split.text, plain.text);
        const auto fromOne = inspect::cfgFromSass(whole.output, plain.text);
        QCOMPARE(fromParts.size(), size_t(60));
        QCOMPARE(fromOne.size(), fromParts.size());
        size_t labelled = 0, branches = 0;
        for (const auto& one : fromOne) {
            const auto part = std::find_if(fromParts.begin(), fromParts.end(),
                                           [&](const auto& g) { return g.function == one.function; });
            QVERIFY2(part != fromParts.end(), one.function.c_str());
            QVERIFY2(one.unmapped.empty(), one.unmapped.c_str());
            QVERIFY2(part->unmapped.empty(), part->unmapped.c_str());
            QCOMPARE(part->blocks.size(), one.blocks.size());
            for (size_t b = 0; b < one.blocks.size(); ++b) {
                QVERIFY2(part->blocks[b].label == one.blocks[b].label,
                         (one.function + ": " + part->blocks[b].label + " vs " + one.blocks[b].label + " block " +
                          std::to_string(b))
                             .c_str());
                QCOMPARE(part->blocks[b].lines, one.blocks[b].lines);
                QCOMPARE(part->blocks[b].instructions, one.blocks[b].instructions);
                labelled += support::startsWith(one.blocks[b].label, ".L_x_");
            }
            QCOMPARE(part->edges.size(), one.edges.size());
            for (size_t e = 0; e < one.edges.size(); ++e) {
                QCOMPARE(part->edges[e].from, one.edges[e].from);
                QCOMPARE(part->edges[e].to, one.edges[e].to);
                QCOMPARE(part->edges[e].kind, one.edges[e].kind);
                QCOMPARE(part->edges[e].back, one.edges[e].back);
                branches += one.edges[e].kind == inspect::CfgEdgeKind::Branch;
            }
        }
        QVERIFY(labelled > 60);
        QVERIFY(branches > 60);
        // An instruction that is not the listing's, labels aside, is not mapped.
        auto wrong = split.text;
        const auto at = wrong.find("BRA\\ `(.L_x_");  // DOT escapes the spaces
        QVERIFY(at != std::string::npos);
        wrong.replace(at, 3, "BRX");
        const auto broken = inspect::cfgFromSass(wrong, plain.text);
        QVERIFY(std::any_of(broken.begin(), broken.end(), [](const auto& g) { return !g.unmapped.empty(); }));
    }

    void listingsSideBySideAreThoseOfSeparateRuns() {
        NEED_NVDISASM(nvdisasm);
        const auto ptx = [] {
            pipeline::Pipeline p(test::realToolkit());
            pipeline::Job job;
            job.modules = {{"saxpy.ll", test::readText(test::examplesDir() / "src/saxpy/saxpy.ll"), false}};
            job.options.arch = "compute_90";
            job.archFromGpu = false;
            auto r = p.run(job);
            if (!r) qFatal("%s", r.error().message.c_str());
            return r->ptx;
        }();
        const auto cubin = wholeProgramCubin(ptx, "compute_90");
        const auto runs = inspect::disassembleEach(
            nvdisasm, cubin, {inspect::Listing::Plain, inspect::Listing::LiveRanges, inspect::Listing::BasicBlocks});
        QCOMPARE(runs.size(), size_t(3));
        for (const auto& run : runs) QVERIFY2(run.ok, run.error.c_str());
        QCOMPARE(runs[0].command, std::string("nvdisasm -c"));
        QCOMPARE(runs[1].command, std::string("nvdisasm -c -lrm count"));
        QCOMPARE(runs[2].command, std::string("nvdisasm -bbcfg"));
        QCOMPARE(runs[0].text, inspect::disassemble(nvdisasm, cubin, inspect::Listing::Plain).text);
        QCOMPARE(runs[1].text, inspect::disassemble(nvdisasm, cubin, inspect::Listing::LiveRanges).text);
        QVERIFY(support::startsWith(runs[2].text, "digraph"));
        // The plain listing carries no figures: read as one, it is refused with a reason.
        const auto listing = inspect::readSass(runs[0].text);
        const auto refused = inspect::readLiveRanges(runs[0].text, listing);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.find("no live-register column") != std::string::npos,
                 refused.error().message.c_str());
        const auto read = inspect::readLiveRanges(runs[1].text, listing);
        QVERIFY(read && read->size() == listing.instructions.size());
    }
};

QTEST_GUILESS_MAIN(TestLive)
#include "tst_live.moc"
