// nvJitLink linking of LTO-IR, both LTO modes, and the dropped-kernel warning, with the real
// libNVVM and nvJitLink (through the pipeline, the only path the front ends use).
#include <QtTest>

#include <fmt/format.h>

#include "PlainTools.h"
#include "TestSupport.h"
#include "core/lto/DroppedKernels.h"
#include "core/nvvm/IrVersion.h"
#include "core/pipeline/Pipeline.h"
#include "core/pipeline/Report.h"
#include "core/pipeline/Summary.h"
#include "core/support/Text.h"
#include "core/workspace/NewModule.h"
#include "core/workspace/Workspace.h"

using namespace nvpg;

namespace {

pipeline::Job job(std::vector<nvvm::Module> modules, unsigned outputs) {
    pipeline::Job j;
    j.modules = std::move(modules);
    j.options.arch = "compute_90";
    j.outputs = outputs;
    return j;
}

pipeline::CompileResult runOk(const pipeline::Job& j) {
    pipeline::Pipeline p(test::realToolkit());
    auto r = p.run(j);
    if (!r) qFatal("%s", r.error().message.c_str());
    return std::move(*r);
}

std::vector<std::string> entryNames(const ptx::PtxModule& m) {
    std::vector<std::string> out;
    for (const auto* e : m.entries()) out.push_back(e->name);
    return out;
}

// Applies a dropped-kernel warning's fix as a person would from its text: "add this line to
// <module>: <line>" appends the line; "... replace that line (line N) by: <line>" replaces line N.
bool applyFix(nvvm::Module& m, const std::string& message) {
    const std::string add = "add this line to " + m.name + ": ";
    if (const auto at = message.find(add); at != std::string::npos) {
        m.bytes += "\n" + message.substr(at + add.size()) + "\n";
        return true;
    }
    const std::string replace = "replace that line by: ";
    const auto at = message.find(replace);
    const auto used = m.bytes.find("@llvm.used = ");
    if (at == std::string::npos || used == std::string::npos) return false;
    m.bytes.replace(used, m.bytes.find('\n', used) - used, message.substr(at + replace.size()));
    return true;
}

nvvm::Module withoutLlvmUsed(nvvm::Module m) {
    const auto from = m.bytes.find("@llvm.used = ");
    m.bytes.erase(from, m.bytes.find('\n', from) - from);
    return m;
}

// lto-kept-dropped.ll with a third kernel "also", which @llvm.used does not list either.
nvvm::Module threeKernels() {
    auto m = test::irFixture("lto-kept-dropped.ll");
    m.bytes.replace(m.bytes.find("!nvvm.annotations = !{!0, !1}"), 29, "!nvvm.annotations = !{!0, !1, !3}");
    m.bytes.replace(m.bytes.find("!nvvm.annotations"), 0,
                    "define void @also(float* %out) {\nentry:\n  store float 2.0, float* %out\n  ret void\n}\n\n");
    m.bytes += "!3 = !{void (float*)* @also, !\"kernel\", i32 1}\n";
    return m;
}

}  // namespace

class TestLto : public QObject {
    Q_OBJECT

private slots:
    void ltoKeepsOnlyWhatLlvmUsedLists() {
        const auto r = runOk(job({test::irFixture("lto-kept-dropped.ll")}, pipeline::kPtx | pipeline::kLtoPtx));
        QVERIFY(r.ok);  // a warning, not an error: both libraries reported success
        QCOMPARE(entryNames(r.ptxModule), (std::vector<std::string>{"kept", "dropped"}));
        QCOMPARE(entryNames(r.linkedPtxModule), std::vector<std::string>{"kept"});

        QCOMPARE(int(r.diagnostics.size()), 1);
        const auto& w = r.diagnostics[0];
        QCOMPARE(w.severity, nvvm::Severity::Warning);
        QCOMPARE(w.module, std::string("lto-kept-dropped.ll"));
        QCOMPARE(w.line, 13);  // the `define` of @dropped
        QVERIFY(w.message.find("'dropped'") != std::string::npos);
        QVERIFY(w.message.find("@llvm.used") != std::string::npos);
        // The module has @llvm.used already (line 5): add an element to it.
        QVERIFY2(w.message.find("i8* bitcast (void (float*, float)* @dropped to i8*)") != std::string::npos,
                 w.message.c_str());
        QVERIFY(w.message.find("line 5 of lto-kept-dropped.ll") != std::string::npos);
    }

    void theSuggestedLineKeepsTheKernel() {
        // Apply the fix the warning gives, and the kernel survives LTO.
        auto m = test::irFixture("lto-kept-dropped.ll");
        const auto from = m.bytes.find("@llvm.used = ");
        const auto to = m.bytes.find('\n', from);
        m.bytes.replace(from, to - from,
                        "@llvm.used = appending global [2 x i8*] [i8* bitcast (void (float*, float)* @kept to i8*), " +
                            lto::llvmUsedEntry("dropped", {"float*", "float"}, false) + "], section \"llvm.metadata\"");
        const auto r = runOk(job({m}, pipeline::kPtx | pipeline::kLtoPtx));
        QVERIFY(r.ok);
        QCOMPARE(entryNames(r.linkedPtxModule), (std::vector<std::string>{"kept", "dropped"}));
        QVERIFY(r.diagnostics.empty());
    }

    void twoDroppedKernelsGetOneLlvmUsedLine() {
        // Neither kernel is in @llvm.used: every warning gives the same one line listing both, so
        // applying any of them (or all, one after the other) keeps both kernels.
        const auto m = withoutLlvmUsed(threeKernels());
        const auto r = runOk(job({m}, pipeline::kPtx | pipeline::kLtoPtx));
        QCOMPARE(entryNames(r.ptxModule), (std::vector<std::string>{"kept", "dropped", "also"}));
        QVERIFY(entryNames(r.linkedPtxModule).empty());
        QCOMPARE(int(r.diagnostics.size()), 3);
        const std::string line =
            "@llvm.used = appending global [3 x i8*] [i8* bitcast (void (float*, float)* @kept to i8*), i8* bitcast "
            "(void (float*, float)* @dropped to i8*), i8* bitcast (void (float*)* @also to i8*)], section "
            "\"llvm.metadata\"";
        for (const auto& d : r.diagnostics) {
            QVERIFY2(d.message.find("add this line to lto-kept-dropped.ll: " + line) != std::string::npos,
                     d.message.c_str());
            auto fixed = m;
            QVERIFY(applyFix(fixed, d.message));
            const auto again = runOk(job({fixed}, pipeline::kPtx | pipeline::kLtoPtx));
            QVERIFY2(again.ok, again.diagnostics.empty() ? "" : again.diagnostics[0].message.c_str());
            QCOMPARE(entryNames(again.linkedPtxModule), (std::vector<std::string>{"kept", "dropped", "also"}));
            QVERIFY(again.diagnostics.empty());
        }
    }

    // The fix's title is a button's text and the LTO header a line of the pane: with many
    // kernels they name the first three and count the others (support::joinShort); the message,
    // the edit and the header's tooltip still have every one.
    void manyDroppedKernelsAreNamedByThreeAndCounted() {
        auto m = withoutLlvmUsed(threeKernels());
        std::string annotations = "!nvvm.annotations = !{!0, !1, !3";
        const std::vector<std::string> more = {"k4", "k5", "k6", "k7"};
        for (size_t i = 0; i < more.size(); ++i) {
            m.bytes.replace(m.bytes.find("!nvvm.annotations"), 0,
                            fmt::format("define void @{}(float* %out) {{\nentry:\n  store float 3.0, float* %out\n  "
                                        "ret void\n}}\n\n",
                                        more[i]));
            m.bytes += fmt::format("!{} = !{{void (float*)* @{}, !\"kernel\", i32 1}}\n", i + 4, more[i]);
            annotations += fmt::format(", !{}", i + 4);
        }
        m.bytes.replace(m.bytes.find("!nvvm.annotations = !{!0, !1, !3}"), 33, annotations + "}");
        const auto r = runOk(job({m}, pipeline::kPtx | pipeline::kLtoPtx | pipeline::kCubin));
        QCOMPARE(int(entryNames(r.ptxModule).size()), 7);
        QCOMPARE(int(r.diagnostics.size()), 7);
        for (const auto& d : r.diagnostics) {
            QCOMPARE(int(d.fixes.size()), 1);
            QCOMPARE(d.fixes[0].title, std::string("Add @kept, @dropped, @also and 4 more to @llvm.used"));
            QVERIFY2(d.message.find("@k7 to i8*)") != std::string::npos, d.message.c_str());
            QCOMPARE(int(d.fixes[0].edits.size()), 1);
            QVERIFY(d.fixes[0].edits[0].text.find("[7 x i8*]") != std::string::npos);
        }
        const auto summary = pipeline::summarizeResult(r);
        QVERIFY2(summary.lto.header.find("dropped by LTO: kept, dropped, also and 4 more") != std::string::npos,
                 summary.lto.header.c_str());
        QVERIFY2(summary.lto.toolTip.find("k7") != std::string::npos, summary.lto.toolTip.c_str());
    }

    void droppedKernelsAreAddedToTheExistingLlvmUsed() {
        // @llvm.used lists "kept" only: both warnings name both elements to add and give the whole
        // corrected line, which replaces the existing one.
        const auto m = threeKernels();
        const auto r = runOk(job({m}, pipeline::kPtx | pipeline::kLtoPtx));
        QCOMPARE(entryNames(r.linkedPtxModule), std::vector<std::string>{"kept"});
        QCOMPARE(int(r.diagnostics.size()), 2);
        for (const auto& d : r.diagnostics) {
            QVERIFY2(d.message.find("`i8* bitcast (void (float*, float)* @dropped to i8*)`, `i8* bitcast (void "
                                    "(float*)* @also to i8*)`") != std::string::npos,
                     d.message.c_str());
            QVERIFY2(d.message.find("replace that line by: @llvm.used = appending global [3 x i8*] [i8* bitcast "
                                    "(void (float*, float)* @kept to i8*), i8* bitcast (void (float*, float)* "
                                    "@dropped to i8*), i8* bitcast (void (float*)* @also to i8*)], section "
                                    "\"llvm.metadata\"") != std::string::npos,
                     d.message.c_str());
            auto fixed = m;
            QVERIFY(applyFix(fixed, d.message));
            const auto again = runOk(job({fixed}, pipeline::kPtx | pipeline::kLtoPtx));
            QVERIFY(again.ok);
            QCOMPARE(entryNames(again.linkedPtxModule), (std::vector<std::string>{"kept", "dropped", "also"}));
            QVERIFY(again.diagnostics.empty());
        }
    }

    void theLtoDroppedExampleIsFixedByOneWarning() {
        const auto ws = workspace::loadWorkspace(test::examplesDir() / "lto-dropped.nvpg");
        QVERIFY(ws);
        auto j = job(ws->modules, pipeline::kPtx | pipeline::kLtoPtx);
        const auto r = runOk(j);
        QCOMPARE(int(r.diagnostics.size()), 2);
        auto fixed = j.modules.at(0);
        QVERIFY(applyFix(fixed, r.diagnostics[0].message));
        j.modules = {fixed};
        const auto again = runOk(j);
        QVERIFY(again.ok);
        QCOMPARE(entryNames(again.linkedPtxModule), (std::vector<std::string>{"scale", "shift"}));
    }

    void newModuleTemplateCompilesAndSurvivesLto() {
        // What Module > New Module inserts: a whole kernel for the libNVVM in use, kept by LTO.
        const auto tk = test::realToolkit();
        int major = 0, minor = 0, dbgMajor = 0, dbgMinor = 0;
        QCOMPARE(tk->nvvm().irVersion(&major, &minor, &dbgMajor, &dbgMinor), NVVM_SUCCESS);
        const auto t = workspace::newModuleTemplate("module.ll", {}, nvvm::irVersionOf(*tk));
        const auto& ir = t.module.bytes;
        QCOMPARE(t.module.name, std::string("module.ll"));
        QVERIFY(ir.find("-i128:128:128-") != std::string::npos);
        QVERIFY(ir.find("!{void (float*, float, i32)* @scale, !\"kernel\", i32 1}") != std::string::npos);
        QVERIFY(ir.find(lto::llvmUsedLine("scale", {"float*", "float", "i32"}, false)) != std::string::npos);
        QVERIFY2(ir.find(QString("!{i32 %1, i32 %2}").arg(major).arg(minor).toStdString()) != std::string::npos,
                 ir.c_str());
        const auto r = runOk(job({t.module}, pipeline::kPtx | pipeline::kLtoPtx | pipeline::kCubin));
        QVERIFY2(r.ok, r.diagnostics.empty() ? "" : r.diagnostics[0].message.c_str());
        QVERIFY(r.diagnostics.empty());
        QCOMPARE(entryNames(r.ptxModule), std::vector<std::string>{"scale"});
        QCOMPARE(entryNames(r.linkedPtxModule), std::vector<std::string>{"scale"});
        // Its run configuration fits the kernel's parameters.
        QCOMPARE(t.run.kernel, std::string("scale"));
        const auto fits = gpu::checkRunConfig(t.run, *r.ptxModule.entries().at(0));
        QVERIFY2(fits, fits ? "" : fits.error().message.c_str());

        // A second template in the same workspace gets its own kernel name: one program, both kept.
        const auto second = workspace::newModuleTemplate("module-2.ll", {t.module}, nvvm::irVersionOf(*tk));
        QCOMPARE(second.run.kernel, std::string("scale_2"));
        const auto both = runOk(job({t.module, second.module}, pipeline::kPtx | pipeline::kLtoPtx));
        QVERIFY(both.ok);
        QVERIFY(both.diagnostics.empty());
        QCOMPARE(entryNames(both.linkedPtxModule).size(), size_t(2));
    }

    void cubinAndFiguresFromTheLtoLink() {
        const auto r = runOk(
            job({test::irFixture("lto-kept-dropped.ll")}, pipeline::kPtx | pipeline::kCubin | pipeline::kFigures));
        QVERIFY(r.ok);
        QVERIFY(r.cubin.size() > 4);
        QCOMPARE(r.cubin.substr(0, 4), std::string("\x7f"
                                                   "ELF"));
        QVERIFY(r.linkInfoLog.find("registers") != std::string::npos);
        // The dropped kernel is found from the cubin link's ptxas listing as well.
        QCOMPARE(int(r.diagnostics.size()), 1);
        QVERIFY(r.diagnostics[0].message.find("'dropped'") != std::string::npos);
        const auto& kept = r.kernels.at(0);
        QCOMPARE(kept.name, std::string("kept"));
        QVERIFY(kept.usage);
        QVERIFY(kept.usage->registers > 0);
        QCOMPARE(kept.usage->arch, std::string("sm_90"));
        QVERIFY(!r.kernels.at(1).usage);  // nothing to measure: LTO dropped it
    }

    // nvJitLink optimises and generates code again at link time: the options that it has too
    // reach it (opt as -O, -g, -generate-line-info as -lineinfo), and what it links is what a
    // plain nvJitLink call with those options gives.
    void linkGetsTheOptionsNvJitLinkHas() {
        const auto api = test::realToolkit()->nvJitLink();
        QVERIFY(api);
        // What nvJitLink was given, as the report says it.
        auto linkFlags = [](const pipeline::Job& j, const pipeline::CompileResult& r) {
            const auto report = pipeline::reportJson(j, r, {});
            return report.contains("link_flags") ? report["link_flags"].get<std::vector<std::string>>()
                                                 : std::vector<std::string>{"(no link_flags in the report)"};
        };
        auto j = job({test::irFixture("lto-kept-dropped.ll")}, pipeline::kPtx | pipeline::kLtoPtx | pipeline::kCubin);
        const auto plainResult = runOk(j);
        QVERIFY(plainResult.cubin.find(".nv_debug_line_sass") == std::string::npos);

        j.options.opt = 0;
        j.options.debug = true;
        const auto r = runOk(j);
        QVERIFY(r.ok);
        QCOMPARE(int(r.ltoIr.size()), 1);
        const auto& ltoIr = r.ltoIr[0].bytes;
        const auto plainPtx =
            test::plainLink(*api, {"-arch=sm_90", "-lto", "-ptx", "-O0", "-g"}, ltoIr, NVJITLINK_INPUT_LTOIR);
        QVERIFY(!plainPtx.empty() && !support::startsWith(plainPtx, "ERROR"));
        QVERIFY(r.linkedPtx != plainResult.linkedPtx);  // -O0: the LTO pane changes with opt
        QVERIFY(r.linkedPtx == plainPtx);
        // -g makes nvJitLink's ptxas write debug code: the cubin carries the SASS line table.
        QVERIFY(r.cubin.find(".nv_debug_line_sass") != std::string::npos);
        // (-verbose, for ptxas' figures, is part of the cubin link; it changes bytes of the cubin.)
        QVERIFY(r.cubin ==
                test::plainLink(*api, {"-arch=sm_90", "-lto", "-O0", "-g", "-verbose"}, ltoIr, NVJITLINK_INPUT_LTOIR));
        QCOMPARE(linkFlags(j, plainResult), (std::vector<std::string>{"-arch=sm_90", "-lto"}));
        QCOMPARE(linkFlags(j, r), (std::vector<std::string>{"-arch=sm_90", "-lto", "-O0", "-g"}));

        auto lines = job({test::irFixture("lto-kept-dropped.ll")}, pipeline::kPtx | pipeline::kCubin);
        lines.options.extraFlags = {"-generate-line-info"};
        const auto l = runOk(lines);
        QVERIFY(l.cubin.find(".nv_debug_line_sass") != std::string::npos);
        QCOMPARE(linkFlags(lines, l), (std::vector<std::string>{"-arch=sm_90", "-lto", "-lineinfo"}));
    }

    void separateModeLinksOneProgramPerModule() {
        auto j = job({test::irFixture("caller.ll"), test::irFixture("callee.ll")}, pipeline::kPtx | pipeline::kLtoPtx);
        j.ltoMode = lto::Mode::Separate;
        const auto r = runOk(j);
        QVERIFY2(r.ok, r.diagnostics.empty() ? "" : r.diagnostics[0].message.c_str());
        QCOMPARE(int(r.ltoIr.size()), 2);
        QCOMPARE(r.ltoIr[0].name, std::string("caller.ll"));
        QCOMPARE(r.ltoIr[1].name, std::string("callee.ll"));
        // caller is not in @llvm.used: dropped and warned about; scale() resolved across inputs.
        QVERIFY(r.linkedPtx.find(".extern") == std::string::npos);
        QCOMPARE(int(r.diagnostics.size()), 1);
        QVERIFY(r.diagnostics[0].message.find("'caller'") != std::string::npos);
        QCOMPARE(r.diagnostics[0].module, std::string("caller.ll"));
        QCOMPARE(r.diagnostics[0].line, 7);
        QVERIFY2(r.diagnostics[0].message.find("add this line to caller.ll: @llvm.used = appending global [1 x i8*] "
                                               "[i8* bitcast (void (float*, float)* @caller to i8*)], section "
                                               "\"llvm.metadata\"") != std::string::npos,
                 r.diagnostics[0].message.c_str());
    }

    void programModeAddsLibdeviceOnceForBothCompiles() {
        auto j = job({test::irFixture("sinf.ll")}, pipeline::kPtx | pipeline::kLtoIr);
        j.libdevice = true;
        const auto r = runOk(j);
        QVERIFY(r.ok);
        QCOMPARE(int(r.ltoIr.size()), 1);
        QVERIFY(!r.ltoIr[0].bytes.empty());
        QVERIFY(r.ptx.find(".extern .func") == std::string::npos);
    }

    void numbaKernelSurvivesLto() {
        // numba lists its kernels in @llvm.used; --emit lto-ptx keeps every one.
        for (const char* file : {"axpy.ll", "math_kernel.ll"}) {
            auto j = job({test::irFixture(file, false, "numba")}, pipeline::kPtx | pipeline::kLtoPtx);
            j.libdevice = true;
            j.options.opt = 3;
            const auto r = runOk(j);
            QVERIFY2(r.ok, file);
            QCOMPARE(entryNames(r.linkedPtxModule), entryNames(r.ptxModule));
            QCOMPARE(int(r.ptxModule.entries().size()), 1);
            QVERIFY(r.diagnostics.empty());
        }
    }

    void numbaKernelWithoutLlvmUsedIsWarnedAbout() {
        auto m = test::irFixture("axpy.ll", false, "numba");
        const auto from = m.bytes.find("@\"llvm.used\"");
        QVERIFY(from != std::string::npos);
        m.bytes.erase(from, m.bytes.find('\n', from) - from);
        auto j = job({m}, pipeline::kPtx | pipeline::kLtoPtx);
        j.libdevice = true;
        const auto r = runOk(j);
        QVERIFY(r.ok);
        QVERIFY(r.linkedPtxModule.entries().empty());
        QCOMPARE(int(r.diagnostics.size()), 1);
        const auto kernel = r.ptxModule.entries().at(0)->name;
        QVERIFY(r.diagnostics[0].message.find("'" + kernel + "'") != std::string::npos);
        QCOMPARE(r.diagnostics[0].module, std::string("axpy.ll"));
        QVERIFY(r.diagnostics[0].line > 0);
    }

    void llvmUsedLineForms() {
        QCOMPARE(lto::llvmUsedLine("k", {"float*", "i32"}, false),
                 std::string("@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*, i32)* @k to i8*)], "
                             "section \"llvm.metadata\""));
        QCOMPARE(lto::llvmUsedLine("k", {"ptr"}, true),
                 std::string("@llvm.used = appending global [1 x ptr] [ptr @k], section \"llvm.metadata\""));
        QCOMPARE(lto::llvmUsedEntry("_ZN4axpy$241E", {}, false),
                 std::string("i8* bitcast (void ()* @_ZN4axpy$241E to i8*)"));
        QCOMPARE(lto::llvmUsedEntry("has space", {}, true), std::string("ptr @\"has space\""));
    }

    void linkErrorsComeBackAsDiagnostics() {
        // A kept kernel calling a function no input defines: nvJitLink fails and says why.
        auto m = test::irFixture("caller.ll");
        m.bytes.replace(m.bytes.find("declare float @scale(float)"), 27,
                        "declare float @scale(float)\n@llvm.used = appending global [1 x i8*] [i8* bitcast "
                        "(void (float*, float)* @caller to i8*)], section \"llvm.metadata\"");
        const auto r = runOk(job({m}, pipeline::kPtx | pipeline::kCubin));
        QVERIFY(!r.ok);
        QVERIFY(r.cubin.empty());
        bool fromLinker = false;
        for (const auto& d : r.diagnostics)
            fromLinker = fromLinker || (d.source == "nvJitLink" && d.severity == nvvm::Severity::Error &&
                                        d.message.find("scale") != std::string::npos);
        QVERIFY(fromLinker);
    }
};

QTEST_GUILESS_MAIN(TestLto)
#include "tst_lto.moc"
