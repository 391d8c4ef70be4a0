// libNVVM's known pitfalls (docs/user/libnvvm.md, "Known pitfalls"): each fixture makes the real libNVVM,
// ptxas or nvJitLink fail, the hint is placed at the module:line to mend, and applying its Fix
// makes the compile succeed.
#include <QtTest>

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "TestSupport.h"
#include "core/inspect/Pitfalls.h"
#include "core/nvvm/Fix.h"
#include "core/nvvm/IrScan.h"
#include "core/nvvm/IrVersion.h"
#include "core/pipeline/Pipeline.h"
#include "core/support/Text.h"

using namespace nvpg;

namespace {

bool has(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}

nvvm::Module pitfall(const std::string& name, bool lazy = false) {
    return test::irFixture(name, lazy, "ir/pitfalls");
}

pipeline::Job jobOf(std::vector<nvvm::Module> modules, const char* arch = "compute_90") {
    pipeline::Job job;
    job.modules = std::move(modules);
    if (arch) job.options.arch = arch;
    job.archFromGpu = false;
    return job;
}

pipeline::CompileResult compile(const pipeline::Job& job) {
    pipeline::Pipeline p(test::realToolkit());
    auto r = p.run(job);
    if (!r) qFatal("the pipeline refused the job: %s", r.error().message.c_str());
    return std::move(*r);
}

// The first diagnostic that offers a fix.
const nvvm::Diagnostic* withFix(const pipeline::CompileResult& r) {
    for (const auto& d : r.diagnostics)
        if (!d.fixes.empty()) return &d;
    return nullptr;
}

std::string allMessages(const pipeline::CompileResult& r) {
    std::string s = r.nvvmLog + "\n";
    for (const auto& d : r.diagnostics) s += nvvm::formatDiagnostic(d) + "\n";
    return s;
}

// Applies the diagnostic's first fix to the job, as nvpg and the app do, and compiles again.
pipeline::CompileResult fixAndCompile(pipeline::Job& job, const nvvm::Diagnostic& d) {
    auto st = nvvm::applyFix(d.fixes.front(), job.modules, job.options, job.libdevice);
    if (!st) qFatal("the fix does not apply: %s", st.error().message.c_str());
    return compile(job);
}

#define CHECK_DIAG(d, mod, ln)                                                                     \
    do {                                                                                           \
        QVERIFY2((d) != nullptr, "no diagnostic offers a fix");                                    \
        QVERIFY2((d)->module == (mod) && (d)->line == (ln), nvvm::formatDiagnostic(*(d)).c_str()); \
    } while (0)

}  // namespace

class TestPitfalls : public QObject {
    Q_OBJECT

private slots:
    // The check for void functions that no annotation marks as kernels must not read every module
    // once per function (that is 56% of loading 4,093 modules). Measured against reading each
    // module's functions once (nvvm::scanFunctions, linear, which the check itself does), on the
    // same 4,000 modules, so that a busy machine slows both alike: a few times as long; when each
    // function searched every module, thousands of times.
    void unannotatedKernelsIsLinearInTheModules() {
        std::vector<nvvm::Module> modules;
        // Fewer under ASan: LeakSanitizer's check at exit crashed (its tracer's SIGSEGV) after a
        // suite that had held 4,000 modules; the ratio is the same.
        const size_t count = NVPG_ASAN ? 500 : 4000;
        for (size_t i = 0; i < count; ++i)
            modules.push_back({fmt::format("m{}.ll", i),
                               fmt::format("define void @k{0}(float* %p) {{\n  call void @d{0}()\n  ret void\n}}\n"
                                           "define void @d{0}() {{\n  ret void\n}}\n",
                                           i),
                               false});
        double check = 1e9, scan = 1e9;
        for (int round = 0; round < 3; ++round) {
            auto start = std::chrono::steady_clock::now();
            const auto found = inspect::unannotatedKernels(modules, false);
            std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
            // Each module's k is a kernel without its annotation; its d is called, so it is not.
            if (found.size() != modules.size()) qFatal("%zu warnings for %zu modules", found.size(), modules.size());
            check = std::min(check, took.count());
            start = std::chrono::steady_clock::now();
            size_t functions = 0;
            for (const auto& m : modules) functions += nvvm::scanFunctions(m.bytes).size();
            took = std::chrono::steady_clock::now() - start;
            if (functions != 2 * modules.size()) qFatal("%zu functions", functions);
            scan = std::min(scan, took.count());
        }
        qInfo("%zu modules: the check %.4f s, reading their functions %.4f s (%.1fx)", count, check, scan,
              check / scan);
        QVERIFY2(check < 40 * std::max(scan, 1e-4),
                 qPrintable(QString("the check took %1x as long as reading the functions").arg(check / scan)));
        const std::vector<nvvm::Module> small(modules.begin(), modules.begin() + 10);
        const auto found = inspect::unannotatedKernels(small, false);
        QCOMPARE(found[7].module, std::string("m7.ll"));
        QVERIFY(found[7].message.find("@k7 returns void") != std::string::npos);
    }

    void applyFixEditsLinesOptionsAndFlags() {
        std::vector<nvvm::Module> modules = {{"a.ll", "one\ntwo\nthree", false}, {"b.ll", "x\r\ny\r\n", true}};
        nvvm::Options options;
        bool libdevice = false;
        nvvm::Fix fix;
        fix.title = "t";
        // Line numbers are the text's as it was: replace line 2, insert before 1, append after the last.
        fix.edits = {{"a.ll", 2, 3, "TWO\n"}, {"a.ll", 1, 1, "zero\n"}, {"a.ll", 4, 4, "four"}};
        fix.options = {{"arch", "compute_100"}, {"opt", "0"}};
        fix.libdevice = true;
        fix.lazy = {{"b.ll", false}};
        QVERIFY(nvvm::applyFix(fix, modules, options, libdevice));
        QCOMPARE(modules[0].bytes, std::string("zero\none\nTWO\nthree\nfour\n"));
        QCOMPARE(modules[1].bytes, std::string("x\r\ny\r\n"));  // untouched, CRLF kept
        QCOMPARE(options.arch.value_or(""), std::string("compute_100"));
        QCOMPARE(options.opt.value_or(-1), 0);
        QVERIFY(libdevice);
        QVERIFY(!modules[1].lazy);
        // An empty value clears the option.
        QVERIFY(nvvm::applyFix({"clear", {}, {{"opt", ""}}}, modules, options, libdevice));
        QVERIFY(!options.opt);

        // Refused fixes change nothing and say why.
        const auto before = modules;
        const auto optionsBefore = options;
        const std::vector<std::pair<nvvm::Fix, const char*>> bad = {
            {{"m", {{"c.ll", 1, 1, "x\n"}}}, "c.ll"},
            {{"r", {{"a.ll", 7, 9, "x\n"}}}, "has 5 lines"},
            {{"o", {{"a.ll", 1, 1, "x\n"}}, {{"opt", "2"}}}, "opt=2"},
            {{"u", {}, {{"no-such-option", "1"}}}, "no-such-option"},
            {{"l", {{"a.ll", 1, 1, "x\n"}}, {}, {}, {{"c.ll", true}}}, "c.ll"},
        };
        for (const auto& [f, said] : bad) {
            auto st = nvvm::applyFix(f, modules, options, libdevice);
            QVERIFY2(!st, f.title.c_str());
            QVERIFY2(has(st.error().message, said), st.error().message.c_str());
            QVERIFY(modules[0].bytes == before[0].bytes);
            QVERIFY(options == optionsBefore);
        }
        std::vector<nvvm::Module> bitcode = {{"k.bc", std::string("BC\xc0\xde", 4) + "rest", false}};
        auto st = nvvm::applyFix({"b", {{"k.bc", 1, 1, "x\n"}}}, bitcode, options, libdevice);
        QVERIFY(!st && has(st.error().message, "bitcode"));
    }

    void irVersionLinesUseAFreeNumberAndTheDebugPair() {
        const nvvm::IrVersion v{2, 0, 3, 1};
        QCOMPARE(inspect::irVersionLines("!0 = !{}\n!7 = !{}\n", v),
                 std::string("!nvvmir.version = !{!8}\n!8 = !{i32 2, i32 0}\n"));
        QCOMPARE(inspect::irVersionLines("!llvm.dbg.cu = !{!0}\n!0 = distinct !DICompileUnit()\n", v),
                 std::string("!nvvmir.version = !{!1}\n!1 = !{i32 2, i32 0, i32 3, i32 1}\n"));
    }

    void noIrVersionIsAddedFromTheLoadedLibnvvm() {
        auto job = jobOf({pitfall("no-version.ll")});
        const auto r = compile(job);
        QVERIFY(!r.ok);
        QVERIFY2(has(r.nvvmLog, "IR version 1.0 incompatible with current version 2.0"), r.nvvmLog.c_str());
        const auto* d = withFix(r);
        CHECK_DIAG(d, "no-version.ll", 13);  // its last line: where the version goes
        QVERIFY2(has(d->message, "has no !nvvmir.version"), d->message.c_str());
        const auto v = nvvm::irVersionOf(*test::realToolkit());
        QCOMPARE(d->fixes.front().edits.front().text,
                 fmt::format("!nvvmir.version = !{{!1}}\n!1 = !{{i32 {}, i32 {}}}\n", v.major, v.minor));
        const auto fixed = fixAndCompile(job, *d);
        QVERIFY2(fixed.ok, allMessages(fixed).c_str());
        QVERIFY(has(fixed.ptx, ".entry twice"));
    }

    void libdeviceCallWithLibdeviceOffTurnsLibdeviceOn() {
        auto job = jobOf({pitfall("libdevice-off.ll")});
        const auto r = compile(job);
        // libNVVM succeeds, leaving the call to an .extern the PTX defines nowhere: a program
        // nothing can load, so the result fails, even though only PTX was asked for.
        QVERIFY(!r.ok);
        QVERIFY(has(r.ptx, ".extern .func") && has(r.ptx, "__nv_sinf"));
        const auto* d = withFix(r);
        CHECK_DIAG(d, "libdevice-off.ll", 10);  // the call
        QCOMPARE(d->severity, nvvm::Severity::Error);
        QVERIFY(d->fixes.front().libdevice == true);
        auto fixed = fixAndCompile(job, *d);
        QVERIFY2(fixed.ok && !withFix(fixed), allMessages(fixed).c_str());
        QVERIFY(!has(fixed.ptx, ".extern"));

        // Where ptxas and nvJitLink fail on it too, the one row is still the cause's, on the call
        // (a kernel in @llvm.used, which LTO keeps).
        auto link = jobOf({test::irFixture("sinf-kept.ll")});
        link.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin | pipeline::kFigures;
        const auto l = compile(link);
        QVERIFY(!l.ok);
        const auto* e = withFix(l);
        CHECK_DIAG(e, "sinf-kept.ll", 12);
        QCOMPARE(std::count_if(l.diagnostics.begin(), l.diagnostics.end(),
                               [](const auto& x) { return x.message.find("__nv_sinf") != std::string::npos; }),
                 std::ptrdiff_t(1));
        QVERIFY2(has(e->message, "'__nv_sinf'"), e->message.c_str());
        QVERIFY(e->fixes.front().libdevice == true);
        QVERIFY(fixAndCompile(link, *e).ok);
    }

    // numba quotes every name (`declare float @"__nv_sinf"(float %".1")`): each libdevice
    // function it calls without libdevice is one error, on the line that calls it, whatever
    // outputs are asked for.
    void numbaQuotedLibdeviceCallsArePlacedOnePerCause_data() {
        QTest::addColumn<unsigned>("outputs");
        QTest::newRow("ptx") << unsigned(pipeline::kPtx);
        QTest::newRow("lto-ptx") << unsigned(pipeline::kPtx | pipeline::kLtoPtx);
        QTest::newRow("ltoir") << unsigned(pipeline::kLtoIr);
        QTest::newRow("app's") << unsigned(pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin |
                                           pipeline::kFigures);
    }
    void numbaQuotedLibdeviceCallsArePlacedOnePerCause() {
        QFETCH(unsigned, outputs);
        auto job = jobOf(test::numbaModules("math_kernel"));
        job.outputs = outputs;
        const auto r = compile(job);
        QVERIFY(!r.ok);
        const std::string module = job.modules.front().name;
        const auto lines = support::splitLines(job.modules.front().bytes);
        for (const char* fn : {"__nv_sinf", "__nv_expf", "__nv_pow"}) {
            std::vector<const nvvm::Diagnostic*> rows;
            for (const auto& d : r.diagnostics)
                if (has(d.message, fmt::format("'{}'", fn))) rows.push_back(&d);
            QVERIFY2(rows.size() == 1, allMessages(r).c_str());
            const auto& d = *rows.front();
            QCOMPARE(d.severity, nvvm::Severity::Error);
            QCOMPARE(d.module, module);
            QVERIFY2(d.line > 0 && size_t(d.line) <= lines.size(), nvvm::formatDiagnostic(d).c_str());
            const auto line = lines[size_t(d.line) - 1];
            QVERIFY2(has(line, " call ") && has(line, fmt::format("@\"{}\"(", fn)), std::string(line).c_str());
            QCOMPARE(line.substr(size_t(d.column) - 1, 2), std::string_view("@\""));
            QVERIFY(d.fixes.front().libdevice == true);
        }
        // Nothing else is left of the same cause: no unplaced row, no nvJitLink summary line.
        for (const auto& d : r.diagnostics) {
            QVERIFY2(!d.module.empty() && d.line > 0, allMessages(r).c_str());
            QVERIFY2(!has(d.message, "NVJITLINK_ERROR"), allMessages(r).c_str());
        }
        job.libdevice = true;
        QVERIFY(compile(job).ok);
    }

    // The LTO hint followed twice in one module gives two @llvm.used, and
    // libNVVM's parser says only "redefinition of global '@llvm.used'". The error says what it
    // is, and the fix merges them into one array that keeps both kernels through LTO. Two
    // modules with one @llvm.used each are legal (libNVVM merges them): no error there.
    void twoLlvmUsedInOneModuleAreMerged() {
        auto job = jobOf({pitfall("llvm-used-twice.ll")});
        job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx;
        const auto r = compile(job);
        QVERIFY(!r.ok);
        QVERIFY2(has(r.nvvmLog, "redefinition of global '@llvm.used'"), r.nvvmLog.c_str());
        const auto* d = withFix(r);
        CHECK_DIAG(d, "llvm-used-twice.ll", 14);  // the second definition, where libNVVM stops
        QVERIFY2(has(d->message, "defines @llvm.used 2 times (lines 6, 14)"), d->message.c_str());
        QVERIFY2(has(d->fixes.front().title, "Merge the 2 @llvm.used definitions"), d->fixes.front().title.c_str());
        auto fixed = fixAndCompile(job, *d);
        QVERIFY2(fixed.ok, allMessages(fixed).c_str());
        const auto& text = job.modules.front().bytes;
        QCOMPARE(std::count(text.begin(), text.end(), '\n') + 1 - std::ptrdiff_t(text.back() == '\n'),
                 std::ptrdiff_t(25));  // one line fewer
        QVERIFY2(has(text,
                     "@llvm.used = appending global [2 x i8*] [i8* bitcast (void (float*)* @first to i8*), "
                     "i8* bitcast (void (float*)* @second to i8*)], section \"llvm.metadata\"\n"),
                 text.c_str());
        QVERIFY(has(fixed.linkedPtx, ".entry first") && has(fixed.linkedPtx, ".entry second"));

        // One @llvm.used in each of two modules: libNVVM links them into one, and LTO keeps both.
        // The lines are views into `source`, which must outlive them.
        const std::string source = pitfall("llvm-used-twice.ll").bytes;
        const auto module = [&](const char* kernel, const char* value) {
            const auto header = support::splitLines(source);
            return fmt::format(
                "{}\n{}\n\n@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*)* @{} "
                "to i8*)], section \"llvm.metadata\"\n\ndefine void @{}(float* %out) {{\nentry:\n  "
                "store float {}, float* %out\n  ret void\n}}\n\n!nvvm.annotations = !{{!0}}\n!0 = "
                "!{{void (float*)* @{}, !\"kernel\", i32 1}}\n!nvvmir.version = !{{!1}}\n!1 = !{{i32 2, "
                "i32 0}}\n",
                header[2], header[3], kernel, kernel, value, kernel);
        };
        auto two = jobOf({{"a.ll", module("first", "1.0"), false}, {"b.ll", module("second", "2.0"), false}});
        two.outputs = job.outputs;
        const auto t = compile(two);
        QVERIFY2(t.ok, allMessages(t).c_str());
        QVERIFY(has(t.linkedPtx, ".entry first") && has(t.linkedPtx, ".entry second"));
    }

    void missingDatalayoutIsInserted_data() {
        QTest::addColumn<bool>("verify");
        QTest::addColumn<QString>("said");
        QTest::newRow("verifier") << true << "Empty target data layout, must exist";
        QTest::newRow("compile") << false << "Data Layout string is empty";
    }
    void missingDatalayoutIsInserted() {
        QFETCH(bool, verify);
        QFETCH(QString, said);
        auto job = jobOf({pitfall("no-layout.ll")});
        job.verify = verify;
        const auto r = compile(job);
        QVERIFY(!r.ok);
        QVERIFY2(has(r.nvvmLog, said.toStdString()), r.nvvmLog.c_str());
        const auto* d = withFix(r);
        CHECK_DIAG(d, "no-layout.ll", 2);  // the triple, before which it goes
        QVERIFY(has(d->fixes.front().edits.front().text, inspect::kValidLayout64));
        const auto fixed = fixAndCompile(job, *d);
        QVERIFY2(fixed.ok, allMessages(fixed).c_str());
    }

    void refusedDatalayoutIsReplacedByLibnvvmsValidOne() {
        auto job = jobOf({pitfall("bad-layout.ll")});
        const auto r = compile(job);
        QVERIFY(!r.ok);
        QVERIFY2(has(r.nvvmLog, "Unsupported integer alignment"), r.nvvmLog.c_str());
        // The layout nvpg offers is the one libNVVM's own message gives.
        QVERIFY2(has(r.nvvmLog, std::string("64-bit: ") + std::string(inspect::kValidLayout64)), r.nvvmLog.c_str());
        QVERIFY2(has(r.nvvmLog, std::string("32-bit: ") + std::string(inspect::kValidLayout32)), r.nvvmLog.c_str());
        const auto* d = withFix(r);
        CHECK_DIAG(d, "bad-layout.ll", 2);
        const auto fixed = fixAndCompile(job, *d);
        QVERIFY2(fixed.ok, allMessages(fixed).c_str());
    }

    void opaquePointersBelowCompute100OfferTheArchSwitch() {
        auto job = jobOf({pitfall("opaque-pointers.ll")});
        const auto r = compile(job);
        QVERIFY(!r.ok);
        QVERIFY2(has(r.nvvmLog, "opaque-pointers.ll (5, 19): parse expected type"), r.nvvmLog.c_str());
        const auto* d = withFix(r);
        CHECK_DIAG(d, "opaque-pointers.ll", 5);
        QVERIFY2(has(d->message, "below compute_100") && has(d->message, "LLVM 7.0.1"), d->message.c_str());
        QVERIFY(
            (d->fixes.front().options == std::vector<std::pair<std::string, std::string>>{{"arch", "compute_100"}}));
        const auto fixed = fixAndCompile(job, *d);
        QVERIFY2(fixed.ok, allMessages(fixed).c_str());
        QVERIFY(has(fixed.ptx, ".entry twice"));
        // Typed pointers are still read at compute_100 and later (CUDA 13.0): nothing to fix there.
        for (const char* arch : {"compute_100", "compute_120"}) {
            const auto typed = compile(jobOf({pitfall("no-annotation.ll")}, arch));
            QVERIFY2(typed.ok, arch);
        }
    }

    void kernelDroppedByLtoIsAddedToLlvmUsed_data() {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<int>("line");
        QTest::newRow("no @llvm.used") << "pitfalls/lto-no-used.ll"
                                       << "lonely" << 5;
        QTest::newRow("extend @llvm.used") << "lto-kept-dropped.ll"
                                           << "dropped" << 13;
    }
    void kernelDroppedByLtoIsAddedToLlvmUsed() {
        QFETCH(QString, fixture);
        QFETCH(QString, kernel);
        QFETCH(int, line);
        const auto path = fixture.toStdString();
        const auto name = path.substr(path.rfind('/') + 1);
        auto job = jobOf({test::irFixture(path)});
        job.modules[0].name = name;
        job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx;
        const auto r = compile(job);
        // libNVVM and nvJitLink both succeed; the kernel is gone from the LTO PTX.
        QVERIFY(r.ok);
        QVERIFY(!has(r.linkedPtx, ".entry " + kernel.toStdString()));
        const auto* d = withFix(r);
        CHECK_DIAG(d, name, line);
        QVERIFY2(has(d->message, "@llvm.used"), d->message.c_str());
        const auto fixed = fixAndCompile(job, *d);
        QVERIFY2(fixed.ok && !withFix(fixed), allMessages(fixed).c_str());
        QVERIFY(has(fixed.linkedPtx, ".entry " + kernel.toStdString()));
    }

    void defineWithoutAnnotationIsAnnotated() {
        auto job = jobOf({pitfall("no-annotation.ll")});
        const auto r = compile(job);
        QVERIFY(r.ok && r.kernels.empty());
        QVERIFY(has(r.ptx, ".visible .func twice") && !has(r.ptx, ".entry"));
        const auto* d = withFix(r);
        CHECK_DIAG(d, "no-annotation.ll", 5);
        QCOMPARE(d->severity, nvvm::Severity::Warning);
        const auto fixed = fixAndCompile(job, *d);
        QVERIFY2(fixed.ok && !withFix(fixed), allMessages(fixed).c_str());
        QVERIFY(has(fixed.ptx, ".entry twice"));
        QCOMPARE(fixed.kernels.size(), size_t(1));
        // A module with annotations already gets one more entry in the same list.
        auto two = jobOf({{"k.ll",
                           test::readText(test::dataDir() / "ir/pitfalls/no-version.ll") +
                               "!nvvmir.version = !{!1}\n!1 = !{i32 2, i32 0}\n"
                               "define void @second(i32* %p) {\n  store i32 1, i32* %p\n  ret void\n}\n",
                           false}});
        QVERIFY(withFix(compile(two)) == nullptr);  // it has a kernel: @second may be a device function
    }

    void lazyTextModuleIsUnmarked() {
        // What libNVVM 13.0 does with a lazily added text module: the compile fails, with no log.
        const auto& api = test::realToolkit()->nvvm();
        const auto main = pitfall("lazy-main.ll"), helper = pitfall("twice-b.ll");
        nvvmProgram prog = nullptr;
        QCOMPARE(api.createProgram(&prog), NVVM_SUCCESS);
        QCOMPARE(api.addModuleToProgram(prog, main.bytes.data(), main.bytes.size(), main.name.c_str()), NVVM_SUCCESS);
        QCOMPARE(api.lazyAddModuleToProgram(prog, helper.bytes.data(), helper.bytes.size(), helper.name.c_str()),
                 NVVM_SUCCESS);
        QCOMPARE(api.compileProgram(prog, 0, nullptr), NVVM_ERROR_COMPILATION);
        size_t logSize = 0;
        QCOMPARE(api.getProgramLogSize(prog, &logSize), NVVM_SUCCESS);
        QVERIFY(logSize <= 1);  // the NUL alone
        api.destroyProgram(&prog);

        auto job = jobOf({main, pitfall("twice-b.ll", /*lazy=*/true)});
        const auto r = compile(job);
        QVERIFY(!r.ok);
        const auto* d = withFix(r);
        QVERIFY(d && d->module == "twice-b.ll");
        QVERIFY2(has(d->message, "lazy"), d->message.c_str());
        QVERIFY((d->fixes.front().lazy == std::vector<std::pair<std::string, bool>>{{"twice-b.ll", false}}));
        const auto fixed = fixAndCompile(job, *d);
        QVERIFY2(fixed.ok, allMessages(fixed).c_str());
    }

    void symbolDefinedTwiceNamesBothModulesAndLines() {
        auto job = jobOf({pitfall("twice-a.ll"), pitfall("twice-b.ll")});
        const auto r = compile(job);
        QVERIFY(!r.ok);
        QVERIFY2(has(r.nvvmLog, "Linking globals named 'scale': symbol multiply defined!"), r.nvvmLog.c_str());
        const auto* d = withFix(r);
        CHECK_DIAG(d, "twice-b.ll", 5);
        QVERIFY2(has(d->message, "twice-a.ll:5") && has(d->message, "twice-b.ll:5"), d->message.c_str());
        const auto note = std::find_if(r.diagnostics.begin(), r.diagnostics.end(),
                                       [](const auto& n) { return n.severity == nvvm::Severity::Note; });
        QVERIFY(note != r.diagnostics.end());
        QCOMPARE(note->module, std::string("twice-a.ll"));
        QCOMPARE(note->line, 5);
        const auto fixed = fixAndCompile(job, *d);
        QVERIFY2(fixed.ok, allMessages(fixed).c_str());
        QVERIFY(has(job.modules[1].bytes, "declare float @scale(float)"));
    }

    void bitcodeFromANewerLlvmIsExplained() {
        const auto llvmAs = QStandardPaths::findExecutable("llvm-as-14");
        if (llvmAs.isEmpty()) QSKIP("llvm-as-14 is not installed (Debian package llvm-14)");
        QProcess as;
        as.start(llvmAs, {QString::fromStdString((test::dataDir() / "ir/pitfalls/maxnum.ll").string()), "-o", "-"});
        QVERIFY(as.waitForFinished(30000));
        const nvvm::Module bc{"maxnum.bc", as.readAllStandardOutput().toStdString(), false};
        QVERIFY(bc.isBitcode());
        auto job = jobOf({bc});
        const auto r = compile(job);
        QVERIFY(!r.ok);
        QVERIFY2(has(r.nvvmLog, "Unknown attribute kind (62) (Producer: 'LLVM14."), r.nvvmLog.c_str());
        const auto* d = withFix(r);
        QVERIFY(d && d->module == "maxnum.bc");
        for (const char* said : {"LLVM14.", "LLVM 7.0.1", "text IR", "compute_100"})
            QVERIFY2(has(d->message, said), d->message.c_str());
        const auto fixed = fixAndCompile(job, *d);
        QVERIFY2(fixed.ok, allMessages(fixed).c_str());
    }

    void unsupportedFlagSaysWhichToChange() {
        auto job = jobOf({pitfall("libdevice-off.ll")});
        job.options.extraFlags = {"-lineinfo"};
        const auto r = compile(job);
        QVERIFY(!r.ok);
        QVERIFY2(has(r.nvvmLog, "-lineinfo is an unsupported option"), r.nvvmLog.c_str());
        QVERIFY2(has(allMessages(r), "-generate-line-info"), allMessages(r).c_str());
    }
};

QTEST_GUILESS_MAIN(TestPitfalls)
#include "tst_pitfalls.moc"
