// The line map's parts with the real libNVVM and nvJitLink: the line-annotated twin of a module
// compiles, with -generate-line-info, to the plain PTX plus .loc lines that name the module's own
// lines (on every example and numba-cuda fixture), the map says so line by line, and says it is
// unavailable where the two compiles differ (-opt=0). Then the pure readers: .loc/.file, which
// PTX lines are code, the ranges and the one wording of a line's description.
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "TestSupport.h"
#include "core/inspect/LineMap.h"
#include "core/inspect/Locations.h"
#include "core/inspect/Twin.h"
#include "core/lto/Linker.h"
#include "core/nvvm/IrVersion.h"
#include "core/nvvm/Program.h"
#include "core/support/Files.h"
#include "core/support/Process.h"
#include "core/support/Text.h"
#include "core/workspace/Workspace.h"

using namespace nvpg;
namespace fs = std::filesystem;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// A program as a user has it: its modules, options and whether libdevice is linked.
struct Case {
    std::vector<nvvm::Module> modules;
    nvvm::Options options;
    bool libdevice = false;
};

Case exampleCase(const std::string& name) {
    const auto ws = test::loadExample(name);
    return {ws.modules, ws.options, ws.libdevice};
}

std::vector<std::string> numbaNames() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(test::dataDir() / "numba"))
        if (e.path().extension() == ".options") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

// A numba-cuda fixture as numba compiles it: its modules in order, its options, libdevice
// (numba adds it to every program).
Case numbaCase(const std::string& name) {
    const auto dir = test::dataDir() / "numba";
    Case c;
    c.modules = test::numbaModules(name);
    const auto options = test::readText(dir / (name + ".options"));
    for (auto line : support::splitLines(options)) {
        line = support::trim(line);
        if (line.empty()) continue;
        if (line == "-gen-lto") {
            c.options.genLto = true;
            continue;
        }
        const auto eq = line.find('=');
        if (line[0] != '-' || eq == std::string_view::npos)
            qFatal("%s: odd option %s", name.c_str(), std::string(line).c_str());
        if (auto st = c.options.set(line.substr(1, eq - 1), line.substr(eq + 1)); !st)
            qFatal("%s", st.error().message.c_str());
    }
    c.libdevice = true;
    return c;
}

nvvm::Options withLineInfo(nvvm::Options options) {
    options.extraFlags.push_back("-generate-line-info");
    return options;
}

nvvm::CompileOutput compile(const std::vector<nvvm::Module>& modules, const nvvm::Options& options, bool libdevice) {
    auto tk = test::realToolkit();
    auto program = nvvm::Program::create(tk->nvvm());
    if (!program) qFatal("%s", program.error().message.c_str());
    for (const auto& m : modules)
        if (auto s = (*program)->addModule(m); !s) qFatal("%s", s.error().message.c_str());
    if (libdevice) {
        auto ld = tk->libdevice();
        if (!ld) qFatal("%s", ld.error().message.c_str());
        (*program)->useLibdevice(*ld);
    }
    return (*program)->compile(options);
}

QString logOf(const nvvm::CompileOutput& out) {
    QString s = qs(out.log);
    for (const auto& d : out.diagnostics) s += "\n" + qs(d.message);
    return s;
}

// The twins of a case's modules, and the map's view of them.
struct Twins {
    std::vector<inspect::Twin> twins;
    std::vector<nvvm::Module> modules;
    std::vector<inspect::MappedModule> mapped;
    std::vector<inspect::CallLine> calls;
};

Twins twinsOf(const std::vector<nvvm::Module>& modules) {
    const auto version = nvvm::irVersionOf(*test::realToolkit());
    const auto tools = inspect::findBitcodeTools();
    Twins t;
    for (const auto& m : modules) {
        auto twin = inspect::makeTwin(m, version, tools);
        if (!twin) {
            // Unmapped (lazy bitcode): the twin's program takes the module itself.
            if (!(m.isBitcode() && m.lazy)) qFatal("%s: %s", m.name.c_str(), twin.error().message.c_str());
            t.modules.push_back(m);
            t.mapped.push_back({m.name, twin.error().message, {}});
            t.twins.push_back({m, {}, {}, {}});
            continue;
        }
        t.modules.push_back(twin->module);
        t.mapped.push_back({m.name, {}, twin->instructionLines});
        for (const auto& [line, fn] : twin->calls) t.calls.push_back({m.name, line, fn});
        t.twins.push_back(std::move(*twin));
    }
    return t;
}

// A program compiled both ways the map needs: plainly, and as its twins with -generate-line-info.
struct Compiled {
    nvvm::CompileOutput plain;
    Twins t;
    nvvm::CompileOutput twin;
};

// Both compiles must succeed: a failed one fails the calling test, which then returns
// (QTest::currentTestFailed()).
void compileBothWays(const std::vector<nvvm::Module>& modules, const nvvm::Options& options, bool libdevice,
                     Compiled& out) {
    out.plain = compile(modules, options, libdevice);
    QVERIFY2(out.plain.ok, qPrintable(logOf(out.plain)));
    out.t = twinsOf(modules);
    out.twin = compile(out.t.modules, withLineInfo(options), libdevice);
    QVERIFY2(out.twin.ok, qPrintable(logOf(out.twin)));
}

int countLocLines(std::string_view ptx) {
    int n = 0;
    for (auto line : support::splitLines(ptx)) n += inspect::isLocationLine(line);
    return n;
}

// How many plain output lines the map gives an IR line, over all of them.
int mappedOutputLines(const inspect::OutputMap& map) {
    int n = 0;
    for (const auto& o : map.origin) n += o.module >= 0;
    return n;
}

// What a person checks of a map against the module texts: every IR line it names is an
// instruction line of that module, every instruction line went somewhere or is listed as
// optimised away, and each output line it colours is code.
void checkMapAgainstModules(const inspect::OutputMap& map, const Twins& t, std::string_view output) {
    const auto outLines = support::splitLines(output);
    for (size_t i = 0; i < map.origin.size(); ++i) {
        const auto& o = map.origin[i];
        if (o.module < 0) continue;
        QVERIFY(size_t(o.module) < t.mapped.size());
        const auto& lines = t.mapped[size_t(o.module)].instructionLines;
        // Or its define's line: the function's entry (parameter loads) has its subprogram's line.
        const auto text = support::splitLines(t.twins[size_t(o.module)].mappedText);
        const bool define = size_t(o.line) <= text.size() && support::startsWith(text[size_t(o.line) - 1], "define ");
        QVERIFY2(define || std::binary_search(lines.begin(), lines.end(), o.line),
                 qPrintable(QString("output line %1 maps to %2:%3, which is no instruction line")
                                .arg(i + 1)
                                .arg(qs(t.mapped[size_t(o.module)].name))
                                .arg(o.line)));
        QVERIFY2(inspect::isMappablePtxLine(outLines[i]), outLines[i].data());
    }
    for (const auto& m : t.mapped) {
        std::set<int> seen;
        for (const auto& l : map.lines)
            if (l.module == m.name) seen.insert(l.line);
        for (const auto& l : map.optimisedAway)
            if (l.module == m.name) {
                QVERIFY2(!seen.count(l.line),
                         qPrintable(qs(m.name) + QString(":%1 mapped and optimised away").arg(l.line)));
                seen.insert(l.line);
            }
        for (int line : m.instructionLines)
            QVERIFY2(seen.count(line) || !m.unmapped.empty(),
                     qPrintable(qs(m.name) + QString(":%1 neither maps nor is optimised away").arg(line)));
    }
}

std::string llvmTool(const char* name) {
    return support::findInPath(name);
}

// An llvm-14 tool (llvm-dis-14, llvm-as-14) reading `input` from stdin: what it writes, byte for byte.
std::string runLlvmTool(const char* name, const std::string& input) {
    QProcess p;
    p.start(qs(llvmTool(name)), {"-", "-o", "-"});
    if (!p.waitForStarted(5000)) qFatal("%s did not start", name);
    p.write(input.data(), qint64(input.size()));
    p.closeWriteChannel();
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        qFatal("%s failed: %s", name, p.readAllStandardError().constData());
    const QByteArray out = p.readAllStandardOutput();
    return std::string(out.constData(), size_t(out.size()));
}

// What the editor shows for a bitcode module: llvm-dis-14 reading it from stdin.
std::string editorDisassembly(const std::string& bytes) {
    return runLlvmTool("llvm-dis-14", bytes);
}

std::string assembleBitcode(const std::string& text) {
    return runLlvmTool("llvm-as-14", text);
}

int lineOf(std::string_view text, std::string_view needle) {
    const auto lines = support::splitLines(text);
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].find(needle) != std::string_view::npos) return int(i) + 1;
    qFatal("no line with %s", std::string(needle).c_str());
}

}  // namespace

class TestInspect : public QObject {
    Q_OBJECT

private slots:
    void strippedTwinPtxIsThePlainPtx_data();
    void strippedTwinPtxIsThePlainPtx();
    void sinfCallMapsToLibdevicesBody();
    void twoModulesMapToTheirOwnFiles();
    void oddModuleNamesAreFound();
    void optZeroIsUnavailableNotWrong();
    void ltoLinkedPtxIsMapped_data();
    void ltoLinkedPtxIsMapped();
    void existingDebugInfoIsReplacedByTheLlLines_data();
    void existingDebugInfoIsReplacedByTheLlLines();
    void debugValueCallsMakeTheMapUnavailable();
    void bitcodeMapsToItsDisassembly();
    void bitcodeWithoutToolsSaysToInstallLlvm14();
    void twinTextCoversEveryInstruction();
    void locationsAreRead();
    void mappablePtxLines();
    void rangesAndDescription();
    void differingPtxIsUnavailableWithWhere();
};

void TestInspect::strippedTwinPtxIsThePlainPtx_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("name");
    for (const auto& n : test::exampleNames()) QTest::newRow(("example " + n).c_str()) << "example" << qs(n);
    for (const auto& n : numbaNames()) QTest::newRow(("numba " + n).c_str()) << "numba" << qs(n);
}

// The design's central fact, on every program a user is shown first: the twin compiled with
// -generate-line-info is the plain PTX plus .loc/.file lines, byte for byte, so the map is of
// the PTX the pane shows.
void TestInspect::strippedTwinPtxIsThePlainPtx() {
    QFETCH(QString, source);
    QFETCH(QString, name);
    Case c = source == "example" ? exampleCase(name.toStdString()) : numbaCase(name.toStdString());
    c.options.genLto = false;  // the PTX of the LTO fixtures too; their LTO link is checked below
    if (std::any_of(c.modules.begin(), c.modules.end(), [](const nvvm::Module& m) { return m.isBitcode(); }) &&
        inspect::findBitcodeTools().llvmDis.empty())
        QSKIP("llvm-dis-14/llvm-as-14 are not on PATH: install llvm-14 to map bitcode modules");
    Compiled both;
    compileBothWays(c.modules, c.options, c.libdevice, both);
    if (QTest::currentTestFailed()) return;
    const auto& [plain, t, twin] = both;
    QVERIFY2(countLocLines(twin.result) > 0, "the twin's PTX has no .loc lines");
    QCOMPARE(countLocLines(plain.result), 0);
    const auto located = inspect::readLocations(twin.result);
    QVERIFY2(located.text == plain.result,
             qPrintable("the twin's PTX without .loc/.file lines is not the plain PTX: " +
                        qs(inspect::mapPtx(plain.result, twin.result, t.mapped, "PTX").unavailable)));

    const auto map = inspect::mapPtx(plain.result, twin.result, t.mapped, "PTX");
    QVERIFY2(map.available(), map.unavailable.c_str());
    QCOMPARE(map.origin.size(), support::splitLines(plain.result).size());
    checkMapAgainstModules(map, t, plain.result);
    // Each module with a define has lines in the PTX (every one here is compiled into it).
    int instructions = 0, mapped = 0;
    for (const auto& m : t.mapped) {
        instructions += int(m.instructionLines.size());
        if (m.instructionLines.empty()) {
            QVERIFY2(m.unmapped.empty() || !std::any_of(map.lines.begin(), map.lines.end(),
                                                        [&](const auto& l) { return l.module == m.name; }),
                     qPrintable(qs(m.name) + " is unmapped but has lines in the map"));
            if (!m.unmapped.empty()) qInfo("%s: %s", m.name.c_str(), m.unmapped.c_str());
            continue;
        }
        const bool any = std::any_of(map.lines.begin(), map.lines.end(),
                                     [&](const inspect::IrLineRanges& l) { return l.module == m.name; });
        QVERIFY2(any, qPrintable(qs(m.name) + " has no line in the PTX"));
    }
    for (const auto& m : t.mapped)
        mapped +=
            int(std::count_if(map.lines.begin(), map.lines.end(), [&](const auto& l) { return l.module == m.name; }));
    qInfo("%s: %d instruction lines, %d mapped, %zu optimised away; %d of %zu PTX lines coloured, %d .loc lines",
          qPrintable(name), instructions, mapped, map.optimisedAway.size(), mappedOutputLines(map), map.origin.size(),
          countLocLines(twin.result));
}

void TestInspect::sinfCallMapsToLibdevicesBody() {
    const auto m = test::irFixture("sinf.ll");
    nvvm::Options options;
    options.arch = "compute_90";
    Compiled both;
    compileBothWays({m}, options, true, both);
    if (QTest::currentTestFailed()) return;
    const auto& [plain, t, twin] = both;
    inspect::LineMap map;
    map.modules = t.mapped;
    map.ptx = inspect::mapPtx(plain.result, twin.result, t.mapped, "PTX");
    QVERIFY2(map.ptx.available(), map.ptx.unavailable.c_str());

    const int callLine = lineOf(m.bytes, "call float @__nv_sinf");
    QVERIFY(std::count(t.twins[0].calls.begin(), t.twins[0].calls.end(),
                       std::pair<int, std::string>{callLine, "__nv_sinf"}));
    int n = 0;
    for (const auto& r : map.ptx.rangesOf("sinf.ll", callLine)) n += r.last - r.first + 1;
    QVERIFY2(n >= 30, qPrintable(QString("the __nv_sinf call maps to %1 PTX lines").arg(n)));
    inspect::addLibdeviceExpansions(map, t.calls);
    QCOMPARE(map.libdevice.size(), size_t(1));
    QCOMPARE(qs(map.libdevice[0].module), QString("sinf.ll"));
    QCOMPARE(map.libdevice[0].line, callLine);
    QCOMPARE(qs(map.libdevice[0].function), QString("__nv_sinf"));
    QCOMPARE(map.libdevice[0].output, inspect::MappedOutput::Ptx);
    QCOMPARE(map.libdevice[0].lines, n);
    qInfo("call @__nv_sinf (sinf.ll:%d) maps to %d PTX lines in %zu ranges", callLine, n,
          map.ptx.rangesOf("sinf.ll", callLine).size());
}

void TestInspect::twoModulesMapToTheirOwnFiles() {
    const auto c = exampleCase("two-modules");
    QCOMPARE(c.modules.size(), size_t(2));
    Compiled both;
    compileBothWays(c.modules, c.options, c.libdevice, both);
    if (QTest::currentTestFailed()) return;
    const auto& [plain, t, twin] = both;
    inspect::LineMap map;
    map.modules = t.mapped;
    map.ptx = inspect::mapPtx(plain.result, twin.result, t.mapped, "PTX");
    QVERIFY2(map.ptx.available(), map.ptx.unavailable.c_str());

    // The kernel's body (.entry fade) holds lines of both files: smoothstep is inlined into it.
    const auto lines = support::splitLines(plain.result);
    const int entry = lineOf(plain.result, ".entry fade");
    int end = entry;
    while (size_t(end) < lines.size() && support::trim(lines[size_t(end) - 1]) != "}") ++end;
    std::set<std::string> inKernel;
    for (int l = entry; l <= end; ++l)
        if (const auto o = map.ptx.originOf(l); o.module >= 0) inKernel.insert(map.modules[size_t(o.module)].name);
    QCOMPARE(inKernel, (std::set<std::string>{"main.ll", "helper.ll"}));

    // The division in helper.ll (prec-div on: div.rn.f32) is a PTX line of the kernel.
    const int fdiv = lineOf(c.modules[1].bytes, "%q = fdiv float");
    const auto ranges = map.ptx.rangesOf("helper.ll", fdiv);
    QVERIFY(!ranges.empty());
    bool divInKernel = false;
    for (const auto& r : ranges)
        for (int l = r.first; l <= r.last; ++l)
            divInKernel = divInKernel ||
                          (l > entry && l < end && lines[size_t(l) - 1].find("div.rn.f32") != std::string_view::npos);
    QVERIFY2(divInKernel, "helper.ll's fdiv is not the kernel's div.rn.f32");
    QVERIFY(support::startsWith(map.describe("helper.ll", fdiv), fmt::format("IR helper.ll:{} → PTX ", fdiv)));
    // main.ll's call line is not helper's: the inlined body keeps helper.ll's own lines.
    const int call = lineOf(c.modules[0].bytes, "call float @smoothstep");
    for (const auto& r : map.ptx.rangesOf("main.ll", call))
        for (int l = r.first; l <= r.last; ++l)
            QVERIFY2(lines[size_t(l) - 1].find("div.rn.f32") == std::string_view::npos, "the division maps to main.ll");
}

// A module's name goes into the DIFile and comes back in .file, quoted by libNVVM's way: names
// with a folder, quotes, backslashes, blanks and UTF-8 still find their module.
void TestInspect::oddModuleNamesAreFound() {
    for (const std::string name : {"src/k.ll", "my \"odd\" k.ll", "back\\slash.ll", "ü k.ll", "/abs/dir/k.ll"}) {
        auto m = test::irFixture("sinf.ll");
        m.name = name;
        nvvm::Options options;
        options.arch = "compute_90";
        Compiled both;
        compileBothWays({m}, options, true, both);
        if (QTest::currentTestFailed()) return;
        const auto& [plain, t, twin] = both;
        const auto map = inspect::mapPtx(plain.result, twin.result, t.mapped, "PTX");
        QVERIFY2(map.available(), map.unavailable.c_str());
        QVERIFY2(map.rangesOf(name, lineOf(m.bytes, "call float @__nv_sinf")).size() > 0, name.c_str());
    }
}

void TestInspect::optZeroIsUnavailableNotWrong() {
    auto c = exampleCase("saxpy");
    c.options.opt = 0;
    Compiled both;
    compileBothWays(c.modules, c.options, c.libdevice, both);
    if (QTest::currentTestFailed()) return;
    const auto& [plain, t, twin] = both;
    QVERIFY(inspect::readLocations(twin.result).text != plain.result);
    const auto map = inspect::mapPtx(plain.result, twin.result, t.mapped, "PTX", " at -opt=0");
    QVERIFY(!map.available());
    QVERIFY(map.origin.empty());
    QVERIFY(map.lines.empty());
    QVERIFY2(support::startsWith(map.unavailable,
                                 "the line-annotated compile gave other PTX than the plain one at -opt=0 "
                                 "(first difference at line "),
             map.unavailable.c_str());
    qInfo("-opt=0: %s", map.unavailable.c_str());
}

void TestInspect::ltoLinkedPtxIsMapped_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("name");
    QTest::newRow("example lto-kept") << "example"
                                      << "lto-kept";
    QTest::newRow("example libdevice-math") << "example"
                                            << "libdevice-math";
    QTest::newRow("numba axpy_lto") << "numba"
                                    << "axpy_lto";
    QTest::newRow("numba math_kernel_lto") << "numba"
                                           << "math_kernel_lto";
}

// -gen-lto on both, nvJitLink -lto -ptx on each (-lineinfo for the twin): the linked PTX is the
// plain linked PTX plus .loc lines.
void TestInspect::ltoLinkedPtxIsMapped() {
    QFETCH(QString, source);
    QFETCH(QString, name);
    Case c = source == "example" ? exampleCase(name.toStdString()) : numbaCase(name.toStdString());
    c.options.arch = "compute_90";
    c.options.genLto = true;
    const auto* jit = test::realToolkit()->nvJitLink();
    QVERIFY2(jit, "nvJitLink is needed for the LTO map");
    Compiled both;
    compileBothWays(c.modules, c.options, c.libdevice, both);
    if (QTest::currentTestFailed()) return;
    const auto& [plainIr, t, twinIr] = both;
    const auto twinOptions = withLineInfo(c.options);

    const auto plainFlags = lto::linkOptionsFor(c.options);
    auto twinFlags = lto::linkOptionsFor(twinOptions);
    QVERIFY(std::count(twinFlags.begin(), twinFlags.end(), "-lineinfo"));
    const auto plain = lto::link(*jit, "sm_90", {{"program", plainIr.result}}, lto::LinkTarget::Ptx, plainFlags);
    QVERIFY2(plain.ok, plain.errorLog.c_str());
    const auto twin = lto::link(*jit, "sm_90", {{"program", twinIr.result}}, lto::LinkTarget::Ptx, twinFlags);
    QVERIFY2(twin.ok, twin.errorLog.c_str());
    QVERIFY2(countLocLines(twin.ptx) > 0, "the linked twin PTX has no .loc lines");
    QVERIFY2(inspect::readLocations(twin.ptx).text == plain.ptx,
             "the linked twin PTX without .loc/.file lines is not the plain linked PTX");
    const auto map = inspect::mapPtx(plain.ptx, twin.ptx, t.mapped, "LTO PTX");
    QVERIFY2(map.available(), map.unavailable.c_str());
    QVERIFY(mappedOutputLines(map) > 0);
    checkMapAgainstModules(map, t, plain.ptx);
    qInfo("%s: linked PTX, %d of %zu lines coloured, %zu IR lines mapped", qPrintable(name), mappedOutputLines(map),
          map.origin.size(), map.lines.size());
}

// numba's lineinfo and -g locations name lines of a .py file; the twin replaces them, so the
// map names the lines of the .ll that the editor shows.
void TestInspect::existingDebugInfoIsReplacedByTheLlLines_data() {
    QTest::addColumn<QString>("emissionKind");
    QTest::newRow("DebugDirectivesOnly") << "DebugDirectivesOnly";  // numba-cuda's lineinfo today
    QTest::newRow("LineTablesOnly") << "LineTablesOnly";            // older lineinfo, clang -gline-tables-only
}

void TestInspect::existingDebugInfoIsReplacedByTheLlLines() {
    QFETCH(QString, emissionKind);
    auto m = test::irFixture("lineinfo.ll");
    const auto kind = m.bytes.find("DebugDirectivesOnly");
    m.bytes.replace(kind, 19, emissionKind.toStdString());
    nvvm::Options options;
    options.arch = "compute_90";
    const auto plain = compile({m}, options, false);
    QVERIFY2(plain.ok, qPrintable(logOf(plain)));
    const auto t = twinsOf({m});
    QVERIFY(std::count(t.twins[0].instructionLines.begin(), t.twins[0].instructionLines.end(),
                       lineOf(m.bytes, "%\"sum\" = fadd")));
    const auto twin = compile(t.modules, withLineInfo(options), false);
    QVERIFY2(twin.ok, qPrintable(logOf(twin)));
    QVERIFY2(twin.result.find("kernels.py") == std::string::npos, "the twin's PTX still names kernels.py");
    const auto map = inspect::mapPtx(plain.result, twin.result, t.mapped, "PTX");
    QVERIFY2(map.available(), map.unavailable.c_str());
    checkMapAgainstModules(map, t, plain.result);
    const int fadd = lineOf(m.bytes, "%\"sum\" = fadd");
    const int store = lineOf(m.bytes, "store float %\"sum\"");
    QVERIFY(!map.rangesOf("lineinfo.ll", store).empty());
    // fadd and fmul fuse: the fma is fmul's or fadd's line, never a .py line.
    for (const auto& l : map.lines) {
        QCOMPARE(qs(l.module), QString("lineinfo.ll"));
        QVERIFY2(l.line < 1000, "a .py line is in the map");
    }
    Q_UNUSED(fadd);
}

// -g's llvm.dbg.value calls change libNVVM's code (CUDA 13.0: the order of the %tid/%ntid reads)
// though they make none: the twin, which drops them, then gives other PTX, and the map says so
// rather than colour lines by the twin's code.
void TestInspect::debugValueCallsMakeTheMapUnavailable() {
    auto m = test::irFixture("lineinfo.ll");
    const auto entry = m.bytes.find("entry:\n") + 7;
    m.bytes.insert(
        entry,
        "  call void @\"llvm.dbg.value\"(metadata float %\"a\", metadata !10, metadata !DIExpression()), !dbg !7\n");
    QVERIFY(m.bytes.find("declare void @\"llvm.dbg.value\"") != std::string::npos);
    nvvm::Options options;
    options.arch = "compute_90";
    const auto plain = compile({m}, options, false);
    QVERIFY2(plain.ok, qPrintable(logOf(plain)));
    const auto t = twinsOf({m});
    const int call = lineOf(m.bytes, "call void @\"llvm.dbg.value\"");
    QVERIFY(!std::count(t.twins[0].instructionLines.begin(), t.twins[0].instructionLines.end(), call));
    QVERIFY(t.modules[0].bytes.find("llvm.dbg.value\"(metadata float") == std::string::npos);
    const auto twin = compile(t.modules, withLineInfo(options), false);
    QVERIFY2(twin.ok, qPrintable(logOf(twin)));
    const auto map = inspect::mapPtx(plain.result, twin.result, t.mapped, "PTX");
    QVERIFY(inspect::readLocations(twin.result).text != plain.result);
    QVERIFY(!map.available());
    QVERIFY(map.origin.empty());
    qInfo("with an llvm.dbg.value call: %s", map.available() ? "mapped" : map.unavailable.c_str());
}

void TestInspect::bitcodeMapsToItsDisassembly() {
    if (llvmTool("llvm-as-14").empty() || llvmTool("llvm-dis-14").empty())
        QSKIP("llvm-dis-14/llvm-as-14 are not on PATH: install llvm-14 to map bitcode modules");
    const auto text = test::irFixture("sinf.ll");
    const nvvm::Module bc{"sinf.bc", assembleBitcode(text.bytes), false};
    QVERIFY(bc.isBitcode());
    const auto twin = inspect::makeTwin(bc, nvvm::irVersionOf(*test::realToolkit()), inspect::findBitcodeTools());
    QVERIFY2(twin.ok(), twin.ok() ? "" : twin.error().message.c_str());
    QVERIFY(!twin->module.isBitcode());  // its annotated disassembly: libNVVM dies on such bitcode
    QCOMPARE(qs(twin->module.name), QString("sinf.bc"));
    // The text numbered is the editor's, to the byte (its first line too: "; ModuleID = '<stdin>'").
    QCOMPARE(qs(twin->mappedText), qs(editorDisassembly(bc.bytes)));

    nvvm::Options options;
    options.arch = "compute_90";
    const auto plain = compile({bc}, options, true);
    QVERIFY2(plain.ok, qPrintable(logOf(plain)));
    const auto compiled = compile({twin->module}, withLineInfo(options), true);
    QVERIFY2(compiled.ok, qPrintable(logOf(compiled)));
    const std::vector<inspect::MappedModule> mapped{{"sinf.bc", {}, twin->instructionLines}};
    const auto map = inspect::mapPtx(plain.result, compiled.result, mapped, "PTX");
    QVERIFY2(map.available(), map.unavailable.c_str());
    const int call = lineOf(twin->mappedText, "call float @__nv_sinf");
    int n = 0;
    for (const auto& r : map.rangesOf("sinf.bc", call)) n += r.last - r.first + 1;
    QVERIFY2(n >= 30, qPrintable(QString("the disassembly's __nv_sinf call maps to %1 PTX lines").arg(n)));
}

void TestInspect::bitcodeWithoutToolsSaysToInstallLlvm14() {
    // Any bitcode: the tools are asked for before it is read.
    const nvvm::Module bc{"lib.bc", std::string("BC\xC0\xDE", 4) + std::string(60, '\0'), false};
    const auto twin = inspect::makeTwin(bc, {}, {});
    QVERIFY(!twin.ok());
    QCOMPARE(twin.error().kind, support::ErrorKind::Environment);
    QCOMPARE(qs(twin.error().message), QString("bitcode modules are mapped through their llvm-dis-14 disassembly: "
                                               "install llvm-14 (llvm-dis-14)"));
}

// The annotator on the forms a module's text takes: a header over two lines (numba), a switch
// table over several, a call split over lines, opaque pointers, comments with quotes and
// semicolons, metadata above the module's own numbers.
void TestInspect::twinTextCoversEveryInstruction() {
    const std::string text =
        R"(target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64" target triple = "nvptx64-nvidia-cuda"
declare i32 @g(i32, i32)
define i32 @"odd name"(ptr %p, i32 %x)
{
start:
  %a = load i32, ptr %p, align 4 ; a comment with "quotes; and" semicolons
  switch i32 %a, label %other [
    i32 0, label %zero
    i32 1, label %other
  ]
zero:                                             ; preds = %start
  %c = call i32 @g(i32 %x,
                   i32 %a)
  ret i32 %c

other:
  ret i32 0
}
!nvvmir.version = !{!7}
!7 = !{i32 2, i32 0}
)";
    const auto twin = inspect::makeTwin({"t.ll", text, true}, {2, 0, 3, 2}, {});
    QVERIFY2(twin.ok(), twin.ok() ? "" : twin.error().message.c_str());
    QVERIFY(twin->module.lazy);
    QCOMPARE(qs(twin->module.name), QString("t.ll"));
    QCOMPARE(qs(twin->mappedText), qs(text));
    QCOMPARE(twin->instructionLines, (std::vector<int>{6, 7, 12, 14, 17}));
    QCOMPARE(twin->calls, (std::vector<std::pair<int, std::string>>{{12, "g"}}));
    const auto& out = twin->module.bytes;
    const auto lines = support::splitLines(out);
    // The user's lines stay where they were, each instruction with its own line's location.
    QVERIFY(support::startsWith(lines[2], "define i32 @\"odd name\"(ptr %p, i32 %x)"));
    QVERIFY2(lines[3].find("!dbg !") != std::string_view::npos, lines[3].data());  // the body's brace
    QVERIFY(lines[5].find("a comment with \"quotes; and\" semicolons") != std::string_view::npos);
    QVERIFY(lines[5].find(", !dbg !") < lines[5].find(';'));
    QVERIFY(lines[9].find("], !dbg !") != std::string_view::npos);  // the switch's closing bracket
    QVERIFY(lines[12].find("i32 %a), !dbg !") != std::string_view::npos);
    QVERIFY(lines[6].find("!dbg") == std::string_view::npos);
    // Each location names its instruction's first line, in the one subprogram, numbered above !7.
    const auto locationOf = [&](int line) -> std::string {
        const auto& l = lines[size_t(line) - 1];
        const auto at = l.find("!dbg !") + 6;
        const std::string id(l.substr(at, l.find_first_not_of("0123456789", at) - at));
        if (std::stoi(id) <= 7) return "numbered " + id + ", not above the module's !7";
        for (const auto& node : lines)
            if (support::startsWith(node, "!" + id + " = ")) return std::string(node);
        return "no node !" + id;
    };
    QVERIFY2(locationOf(10).find("line: 7, column: 1") != std::string::npos, locationOf(10).c_str());
    QVERIFY2(locationOf(13).find("line: 12, column: 1") != std::string::npos, locationOf(13).c_str());
    QVERIFY2(locationOf(6).find("line: 6, column: 1") != std::string::npos, locationOf(6).c_str());
    QVERIFY(out.find("DISubprogram(name: \"odd name\"") != std::string::npos);
    QVERIFY(out.find("emissionKind: DebugDirectivesOnly") != std::string::npos);
    QVERIFY(out.find("!{i32 2, i32 0, i32 3, i32 2}") != std::string::npos);
    QVERIFY(out.find("!\"Debug Info Version\", i32 3}") != std::string::npos);
    QVERIFY(out.find("!DIFile(filename: \"t.ll\", directory: \"\")") != std::string::npos);

    // And libNVVM reads it: the split switch and the split call. libNVVM (CUDA 13.0) reads no
    // opaque pointers ("expected type"), so this compile is of the typed-pointer spelling.
    nvvm::Options options;
    options.arch = "compute_90";
    auto typed = text;
    for (size_t at; (at = typed.find("ptr %p")) != std::string::npos;) typed.replace(at, 3, "i32*");
    typed.replace(typed.find("odd name"), 8, "odd_name");  // PTX has no names with blanks
    const nvvm::Module plainModule{"t.ll", typed, false};
    const auto plain = compile({plainModule}, options, false);
    QVERIFY2(plain.ok, qPrintable(logOf(plain)));
    const auto typedTwin = inspect::makeTwin(plainModule, {2, 0, 3, 2}, {});
    QVERIFY(typedTwin.ok());
    QCOMPARE(typedTwin->instructionLines, twin->instructionLines);
    const auto compiled = compile({typedTwin->module}, withLineInfo(options), false);
    QVERIFY2(compiled.ok, qPrintable(logOf(compiled) + "\n" + qs(out)));
    const auto map = inspect::mapPtx(plain.result, compiled.result, {{"t.ll", {}, twin->instructionLines}}, "PTX");
    QVERIFY2(map.available(), map.unavailable.c_str());
    QVERIFY(!map.rangesOf("t.ll", 6).empty());  // the load

    // A define whose body never closes is refused with where it starts.
    const auto broken = inspect::makeTwin({"b.ll", "define void @f() {\n  ret void\n", false}, {}, {});
    QVERIFY(!broken.ok());
    QVERIFY2(broken.error().message.find("b.ll (line 1)") != std::string::npos, broken.error().message.c_str());
}

void TestInspect::locationsAreRead() {
    QVERIFY(inspect::isLocationLine("\t.loc\t1 24 1"));
    QVERIFY(inspect::isLocationLine(".file 1 \"k.ll\""));
    QVERIFY(inspect::isLocationLine("  .loc 2 7 3, function_name $L__info_string0, inlined_at 1 20 3"));
    QVERIFY(!inspect::isLocationLine("\t.local .align 4 .b8 \t__local_depot0[16];"));
    QVERIFY(!inspect::isLocationLine("\t.location"));
    QVERIFY(!inspect::isLocationLine("\tmov.u32 %r1, %tid.x; // .loc 1 2 3"));

    const std::string ptx =
        "//\n"                                           // 1
        ".visible .entry k(\n"                           // 2
        "\t.param .u64 k_param_0\n"                      // 3
        ")\n"                                            // 4
        "{\n"                                            // 5
        "\t.local .align 4 .b8 \t__local_depot0[16];\n"  // 6
        "\t.loc\t1 24 1\n"                               // -
        "\tmov.u32 %r1, %tid.x;\n"                       // 7
        "\t{ // callseq 0, 0\n"                          // 8
        "\t.loc\t2 7 3, function_name $L__info_string0, inlined_at 1 20 3\n"
        "\tadd.s32 %r2, %r1, 1;\n"  // 9
        "\t} // callseq 0\n"        // 10
        "\t.loc\t1 0 0\n"
        "\tret;\n"  // 11
        "\t.loc\t1 30 1\n"
        "\tbar.sync 0;\n"            // 12
        "}\n"                        // 13
        "\t// after the function\n"  // 14
        "\t.file\t1 \"/home/me/dir/k.ll\"\n"
        "\t.file\t2 \"helper \\\"v2\\\".ll\"\n"
        "\t.file\t3 \"/src\" \"lib.ll\"\n";
    const auto located = inspect::readLocations(ptx);
    QCOMPARE(located.lines.size(), size_t(14));
    QCOMPARE(support::splitLines(located.text).size(), size_t(14));
    QVERIFY(located.text.find("\t.loc\t") == std::string::npos && located.text.find(".file") == std::string::npos);
    QVERIFY(located.text.find(".local .align 4") != std::string::npos);
    using L = inspect::LocatedLine;
    const auto at = [&](int line) { return located.lines[size_t(line) - 1]; };
    QCOMPARE(at(6).file, std::string());
    QCOMPARE(at(7).file, std::string("/home/me/dir/k.ll"));
    QCOMPARE(at(7).line, 24);
    QCOMPARE(at(8).line, 24);                               // a location holds until the next .loc
    QCOMPARE(at(9).file, std::string("helper \"v2\".ll"));  // the .loc's own place, not inlined_at's
    QCOMPARE(at(9).line, 7);
    QCOMPARE(at(10).line, 7);              // a callseq's brace is not the function's end
    QCOMPARE(at(11).file, std::string());  // line 0: no location
    QCOMPARE(at(12).line, 30);
    QCOMPARE(at(14).file, std::string());  // reset at the function's end
    Q_UNUSED(L{});

    const auto stripped = inspect::stripLocations(ptx);
    QCOMPARE(stripped.text, located.text);
    QCOMPARE(stripped.plainLine.size(), size_t(14));
    QCOMPARE(stripped.plainLine[6], 8);  // mov.u32, after the first .loc
    QCOMPARE(stripped.plainLine[13], 18);

    // Two .file forms that name a folder: a path, and DWARF 5's folder and name.
    QCOMPARE(inspect::readLocations(".file 3 \"/src\" \"lib.ll\"\n{\n.loc 3 5 1\nret;\n}\n").lines[2].file,
             std::string("/src/lib.ll"));
}

void TestInspect::mappablePtxLines() {
    for (const char* code : {"\tmov.u32 \t%r1, %tid.x;", "$L__BB0_2:", "\t@%p1 bra \t$L__BB0_2;", "\tret;",
                             "\tcall.uni (retval0),", "\tsmoothstep,", "\tst.global.f32 \t[%rd8], %f3; // x"})
        QVERIFY2(inspect::isMappablePtxLine(code), code);
    for (const char* other : {"",
                              "\t",
                              "{",
                              "}",
                              "\t{ // callseq 0, 0",
                              "\t} // callseq 0",
                              ")",
                              "\t(",
                              "\t);",
                              "// Generated by NVIDIA NVVM Compiler",
                              ".version 8.8",
                              ".visible .entry saxpy(",
                              "\t.param .u32 saxpy_param_0,",
                              ".visible .func  (.param .b32 func_retval0) f(",
                              "\t.reg .pred \t%p<2>;",
                              "\t.local .align 4 .b8 \t__local_depot0[16];",
                              "\t.shared .align 4 .b8 s[64];",
                              "\t.pragma \"nounroll\";",
                              "\t.loc\t1 24 1",
                              ".maxntid 256, 1, 1",
                              "\t/* block */"})
        QVERIFY2(!inspect::isMappablePtxLine(other), other);
}

void TestInspect::rangesAndDescription() {
    QCOMPARE(inspect::mappedOutputName(inspect::MappedOutput::Ptx), std::string_view("ptx"));
    QCOMPARE(inspect::mappedOutputName(inspect::MappedOutput::LtoPtx), std::string_view("lto-ptx"));
    QCOMPARE(inspect::mappedOutputName(inspect::MappedOutput::Sass), std::string_view("sass"));

    inspect::LineMap map;
    map.modules = {{"main.ll", {}, {3, 4, 5}}, {"helper.ll", {}, {20, 24, 25}}, {"lib.bc", "bitcode: not mapped", {}}};
    QCOMPARE(map.moduleIndex("helper.ll"), 1);
    QCOMPARE(map.moduleIndex("other.ll"), -1);
    // PTX lines 31, 32, 33 and 57 from helper.ll:24; 34 from main.ll:3; 58 from helper.ll:20.
    map.ptx.origin.assign(60, {});
    for (int l : {33, 31, 32, 57}) map.ptx.origin[size_t(l) - 1] = {1, 24};
    map.ptx.origin[33] = {0, 3};
    map.ptx.origin[57] = {1, 20};
    inspect::fillRanges(map.ptx, map.modules);
    QCOMPARE(map.ptx.lines.size(), size_t(3));
    QCOMPARE(map.ptx.lines[0].module, std::string("main.ll"));  // by module in workspace order, then line
    QCOMPARE(map.ptx.lines[1].line, 20);
    QCOMPARE(map.ptx.rangesOf("helper.ll", 24), (std::vector<inspect::LineRange>{{31, 33}, {57, 57}}));
    QCOMPARE(map.ptx.rangesOf("helper.ll", 25), std::vector<inspect::LineRange>{});
    QCOMPARE(map.ptx.originOf(32), (inspect::IrLine{1, 24}));
    QCOMPARE(map.ptx.originOf(1), inspect::IrLine{});
    QCOMPARE(map.ptx.originOf(0), inspect::IrLine{});
    QCOMPARE(map.ptx.originOf(61), inspect::IrLine{});
    // Instruction lines that went nowhere, for the mapped modules only.
    QCOMPARE(map.ptx.optimisedAway.size(), size_t(3));
    QCOMPARE(map.ptx.optimisedAway[0].module, std::string("main.ll"));
    QCOMPARE(map.ptx.optimisedAway[0].line, 4);
    QCOMPARE(map.ptx.optimisedAway[2].line, 25);

    map.ltoPtx.origin.assign(50, {});
    for (int l = 40; l <= 44; ++l) map.ltoPtx.origin[size_t(l) - 1] = {1, 24};
    inspect::fillRanges(map.ltoPtx, map.modules);
    map.sass.origin.assign(100, {});
    for (int l : {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 70, 90}) map.sass.origin[size_t(l) - 1] = {1, 24};
    inspect::fillRanges(map.sass, map.modules);
    QCOMPARE(qs(map.describe("helper.ll", 24)), QString("IR helper.ll:24 → PTX 31–33, 57 · LTO 40–44 · SASS 12 instr"));
    QCOMPARE(qs(map.describe("main.ll", 3)), QString("IR main.ll:3 → PTX 34"));
    QCOMPARE(map.describe("main.ll", 4), std::string());
    map.ltoPtx.unavailable = "the line-annotated compile gave other LTO PTX than the plain one";
    QCOMPARE(qs(map.describe("helper.ll", 24)), QString("IR helper.ll:24 → PTX 31–33, 57 · SASS 12 instr"));

    // A libdevice call line, once per output that has lines for it; other calls are not libdevice's.
    inspect::addLibdeviceExpansions(map, {{"helper.ll", 24, "__nv_sinf"}, {"main.ll", 3, "smoothstep"}});
    QCOMPARE(map.libdevice.size(), size_t(2));
    QCOMPARE(map.libdevice[0].output, inspect::MappedOutput::Ptx);
    QCOMPARE(map.libdevice[0].lines, 4);
    QCOMPARE(map.libdevice[1].output, inspect::MappedOutput::Sass);
    QCOMPARE(map.libdevice[1].lines, 12);
    QCOMPARE(map.libdevice[1].function, std::string("__nv_sinf"));
}

void TestInspect::differingPtxIsUnavailableWithWhere() {
    const std::string plain = "//\n.entry k()\n{\n\tmov.u32 %r1, 1;\n\tret;\n}\n";
    const std::string twin = "//\n.entry k()\n{\n\t.loc 1 3 1\n\tmov.u32 %r1, 2;\n\tret;\n}\n.file 1 \"k.ll\"\n";
    const auto map = inspect::mapPtx(plain, twin, {{"k.ll", {}, {3}}}, "PTX", " at -opt=0");
    QVERIFY(!map.available());
    QCOMPARE(qs(map.unavailable), QString("the line-annotated compile gave other PTX than the plain one at -opt=0 "
                                          "(first difference at line 4: `mov.u32 %r1, 1;` vs `mov.u32 %r1, 2;`), so "
                                          "its lines are not mapped"));
    // Equal once the .loc lines are gone: mapped, in the plain output's own line numbers, even
    // when the plain PTX has .loc lines of its own (a module compiled with -generate-line-info).
    const std::string plainWithLocs =
        "//\n.entry k()\n{\n\t.loc 1 1000 1\n\tmov.u32 %r1, 2;\n\tret;\n}\n.file 1 \"k.py\"\n";
    const auto mapped = inspect::mapPtx(plainWithLocs, twin, {{"k.ll", {}, {3}}}, "PTX");
    QVERIFY2(mapped.available(), mapped.unavailable.c_str());
    QCOMPARE(mapped.origin.size(), size_t(8));
    QCOMPARE(mapped.originOf(5), (inspect::IrLine{0, 3}));
    QCOMPARE(mapped.originOf(6), (inspect::IrLine{0, 3}));
    QCOMPARE(mapped.originOf(4), inspect::IrLine{});  // its own .loc line is no code
    QCOMPARE(mapped.originOf(7), inspect::IrLine{});  // the brace
    // A module the map does not cover (bitcode without llvm-dis-14) gets no lines.
    const auto unmapped = inspect::mapPtx(plain.substr(0, 0) + "{\n\tmov.u32 %r1, 2;\n}\n",
                                          "{\n\t.loc 1 3 1\n\tmov.u32 %r1, 2;\n}\n.file 1 \"k.ll\"\n",
                                          {{"k.ll", "bitcode: llvm-dis-14 is not installed", {}}}, "PTX");
    QVERIFY(unmapped.available());
    QCOMPARE(unmapped.originOf(2), inspect::IrLine{});
}

QTEST_GUILESS_MAIN(TestInspect)
#include "tst_inspect.moc"
