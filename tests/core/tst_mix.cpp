// The instruction mix: the class table, and per kernel of every bundled example
// and numba-cuda fixture, from the real SASS (nvdisasm; those functions skip without it) and from
// the PTX: every instruction counted exactly once, nothing unexplained in "other", the known
// kernels' classes, and the report's "mix".
#include <QtTest>

#include <algorithm>
#include <set>

#include "TestSupport.h"
#include "core/inspect/InstructionMix.h"
#include "core/inspect/Sass.h"
#include "core/pipeline/Pipeline.h"
#include "core/pipeline/Report.h"
#include "core/ptx/PtxBody.h"
#include "core/support/Text.h"

using namespace nvpg;
using inspect::MixClass;
namespace fs = std::filesystem;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

struct Compiled {
    std::string name;
    pipeline::Job job;
    pipeline::CompileResult result;
};

// Every bundled example and numba-cuda fixture as the report compiles it (PTX, figures, and SASS
// where nvdisasm is found): compiled once for the suite.
const std::vector<Compiled>& compiledCases() {
    static const std::vector<Compiled> cases = [] {
        const bool sass = test::nvdisasmForTests().path != nullptr;
        auto jobs = test::exampleAndNumbaJobs();
        std::vector<Compiled> out;
        for (auto& [name, job] : jobs) {
            job.outputs |= pipeline::kPtx | pipeline::kFigures | (sass ? pipeline::kSass : 0u);
            job.archFromGpu = false;
            pipeline::Pipeline p(test::realToolkit());
            auto r = p.run(job);
            if (!r) qFatal("%s: %s", name.c_str(), r.error().message.c_str());
            if (r->ptx.empty()) qFatal("%s: no PTX", name.c_str());
            out.push_back({name, job, std::move(*r)});
        }
        return out;
    }();
    return cases;
}

const Compiled& compiledCase(const std::string& name) {
    for (const auto& c : compiledCases())
        if (c.name == name) return c;
    qFatal("no case %s", name.c_str());
}

// The PTX's instructions counted in the simplest way that holds for libNVVM's PTX: the lines that
// end a statement with ';' and are no directive (a call's arguments span lines, its ';' ends one).
int ptxInstructionLines(std::string_view ptx) {
    int n = 0;
    for (auto line : support::splitLines(ptx)) {
        line = support::trim(line);
        if (line.size() > 1 && line.back() == ';' && line[0] != '.' && !support::startsWith(line, "//")) ++n;
    }
    return n;
}

QString mixText(const inspect::InstructionMix& m) {
    QStringList l;
    for (size_t c = 0; c < inspect::kMixClasses; ++c)
        l << QString("%1 %2").arg(qs(std::string(inspect::mixClassName(MixClass(c))))).arg(m.counts[c]);
    return qs(m.function) + ": " + l.join(", ");
}

}  // namespace

class TestMix : public QObject {
    Q_OBJECT

private slots:
    void sassTableHasEachOpcodeOnce() {
        const auto table = inspect::sassOpcodeTable();
        QVERIFY(table.size() > 100);
        std::set<std::string_view> seen;
        for (const auto& row : table) {
            QVERIFY2(seen.insert(row.opcode).second, std::string(row.opcode).c_str());
            QVERIFY2(row.opcode.find('.') == std::string_view::npos, std::string(row.opcode).c_str());
            QCOMPARE(inspect::classifySass(std::string(row.opcode) + " R1, R2"), row.mixClass);
        }
    }

    void classifiesSassInstructions_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("cls");
        const std::pair<const char*, const char*> rows[] = {
            {"LDG.E R2, desc[UR4][R2.64]", "global"},
            {"STG.E desc[UR4][R4.64], R7", "global"},
            {"@P0 ATOMG.E.ADD.STRONG.GPU PT, R0, desc[UR4][R2.64], R5", "global"},
            {"LDS.U.128 R4, [R0]", "shared"},
            {"STL [R1], R2", "local"},
            {"LDC.64 R2, c[0x0][0x218]", "constant"},
            {"ULDC UR4, c[0x0][0x0]", "constant"},
            {"FFMA R7, R2, UR6, R7", "fp32"},
            {"MUFU.RCP R3, R2", "fp32"},
            {"@!P0 DFMA R4, R2, R4, R6", "fp64"},
            {"HFMA2 R0, R1, R2, R3", "fp16"},
            {"HFMA2.MMA R6, -RZ, RZ, -0.66259765625, 2.662109375", "integer"},  // a constant, made
            {"IMAD.WIDE R2, R7, 0x4, R2", "integer"},
            {"MOV R0, 0x3f800000", "integer"},
            {"CS2R R10, SRZ", "integer"},
            {"CS2R R4, SR_CLOCKLO", "sync"},
            {"F2I.FTZ.U32.TRUNC.NTZ R0, R3", "conversion"},
            {"I2FP.F32.S32 R0, R1", "conversion"},
            {"@P0 EXIT", "control"},
            {"BRA `(.L_x_3)", "control"},
            {"BSSY B0, `(.L_x_1)", "control"},
            {"S2R R0, SR_TID.X", "sync"},
            {"BAR.SYNC.DEFER_BLOCKING 0x0", "sync"},
            {"SHFL.BFLY PT, R3, R2, 0x1f, 0x1f", "sync"},
            {"HMMA.16816.F32 R4, R8, R12, R4", "tensor"},
            {"UTMALDG.2D [UR8], [UR4]", "tensor"},
            {"FOO R1, R2", "other"},
        };
        for (const auto& [code, cls] : rows) QTest::newRow(code) << code << cls;
    }
    void classifiesSassInstructions() {
        QFETCH(QString, code);
        QFETCH(QString, cls);
        QCOMPARE(qs(std::string(inspect::mixClassName(inspect::classifySass(code.toStdString())))), cls);
    }

    void classifiesPtxInstructions_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("cls");
        const std::pair<const char*, const char*> rows[] = {
            {"ld.global.nc.f32 %f1, [%rd4]", "global"},
            {"ld.f32 %f1, [%rd4]", "global"},  // generic
            {"@%p1 st.global.v2.f32 [%rd1], {%f1, %f2}", "global"},
            {"atom.global.add.u32 %r1, [%rd1], 1", "global"},
            {"cp.async.ca.shared.global [%r1], [%rd1], 16", "global"},
            {"cp.async.wait_group 0", "sync"},
            {"ld.shared::cta.u32 %r1, [%r2]", "shared"},
            {"st.local.u32 [%rd1], %r1", "local"},
            {"ld.const.f32 %f1, [c]", "constant"},
            {"ld.param.u64 %rd1, [k_param_0]", "constant"},
            {"st.param.f32 [param0], %f1", "control"},
            {"fma.rn.f32 %f3, %f1, %f2, %f3", "fp32"},
            {"setp.lt.f32 %p1, %f1, %f2", "fp32"},
            {"sin.approx.ftz.f32 %f2, %f1", "fp32"},
            {"add.rn.f64 %fd1, %fd2, %fd3", "fp64"},
            {"fma.rn.f16x2 %r1, %r2, %r3, %r4", "fp16"},
            {"add.bf16 %rs1, %rs2, %rs3", "fp16"},
            {"mad.lo.s32 %r1, %r2, %r3, %r4", "integer"},
            {"setp.ge.s32 %p1, %r1, %r2", "integer"},
            {"mov.u32 %r1, %r2", "integer"},
            {"mov.f32 %f1, 0f3F800000", "integer"},
            {"mov.u32 %r1, %tid.x", "sync"},
            {"mov.u32 %r1, %ctaid.x", "sync"},
            {"mov.u64 %rd1, %clock64", "sync"},
            {"cvt.rn.f32.s32 %f1, %r1", "conversion"},
            {"cvta.to.global.u64 %rd2, %rd1", "integer"},
            {"@%p1 bra $L__BB0_2", "control"},
            {"ret", "control"},
            {"call.uni (retval0), __nv_sinf, (param0)", "control"},
            {"bar.sync 0", "sync"},
            {"membar.gl", "sync"},
            {"shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1", "sync"},
            {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1}, {%r1}, {%r2}, {%f2}", "tensor"},
            {"wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1}, [%rd1]", "tensor"},
            {"frob.u32 %r1", "other"},
        };
        for (const auto& [code, cls] : rows) QTest::newRow(code) << code << cls;
    }
    void classifiesPtxInstructions() {
        QFETCH(QString, code);
        QFETCH(QString, cls);
        QCOMPARE(qs(std::string(inspect::mixClassName(inspect::classifyPtx(code.toStdString())))), cls);
    }

    // The statements the mix and the PTX graph are made of, from PTX with what could confuse them:
    // braces in a string, a declaration without a body, a call sequence's braces, a vector
    // operand's, a scope's .reg, ld.shared::cta, a label on an instruction's line, .loc and .pragma.
    void ptxBodiesAreReadAsStatements() {
        const std::string ptx =
            ".version 8.5\n.target sm_90\n.file 1 \"a{b};c.ll\"\n"
            ".extern .func (.param .b32 func_retval0) g\n(\n.param .b32 g_param_0\n)\n;\n"
            ".visible .entry k(\n.param .u64 k_param_0\n)\n{\n"
            "  .reg .b32 %r<9>;\n"
            "  .loc 1 4 2\n"
            "  ld.shared::cta.u32 %r1, [%r2];\n"
            "$L__BB0_1: .pragma \"nounroll\";\n"
            "  {\n  .reg .b32 %temp;\n  mov.b64 {%temp, %r3}, %rd1;\n  }\n"
            "  { // callseq 0, 0\n  .param .b32 param0;\n  st.param.b32 [param0], %r1;\n"
            "  call.uni (retval0),\n  g,\n  (\n  param0\n  );\n  } // callseq 0\n"
            "  @%p1 bra $L__BB0_1;\n  ret;\n}\n";
        const auto bodies = ptx::readBodies(ptx);
        QCOMPARE(bodies.size(), size_t(1));
        const auto& k = bodies[0];
        QCOMPARE(k.name, std::string("k"));
        QVERIFY(k.isEntry);
        QCOMPARE(k.line, 9);
        QCOMPARE(k.openLine, 12);
        QCOMPARE(k.closeLine, 32);
        using Kind = ptx::BodyStatement::Kind;
        const std::vector<std::tuple<Kind, std::string, int>> expected = {
            {Kind::Instruction, "ld.shared::cta.u32 %r1, [%r2]", 15},
            {Kind::Label, "$L__BB0_1", 16},
            {Kind::Instruction, "mov.b64 {%temp, %r3}, %rd1", 19},
            {Kind::Instruction, "st.param.b32 [param0], %r1", 23},
            {Kind::Instruction, "call.uni (retval0), g, ( param0 )", 24},
            {Kind::Instruction, "@%p1 bra $L__BB0_1", 30},
            {Kind::Instruction, "ret", 31},
        };
        QCOMPARE(k.statements.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(k.statements[i].kind, std::get<0>(expected[i]));
            QCOMPARE(qs(k.statements[i].text), qs(std::get<1>(expected[i])));
            QCOMPARE(k.statements[i].line, std::get<2>(expected[i]));
        }
        QCOMPARE(k.instructions(), 6);
    }

    // From real nvdisasm output: each function's classes add up to its instructions as readSass
    // counts them, no instruction of any case is "other", and the known kernels have their classes.
    void sassMixCountsEveryInstructionOnce() {
        NEED_NVDISASM_FOUND();
        int withSass = 0;
        for (const auto& c : compiledCases()) {
            if (c.result.sass.empty()) {
                qInfo("%s: no SASS: %s", c.name.c_str(), c.result.sassUnavailable.c_str());
                continue;
            }
            ++withSass;
            const auto listing = inspect::readSass(c.result.sass);
            const auto mixes = inspect::sassMix(listing);
            QCOMPARE(mixes.size(), listing.functions.size());
            for (size_t i = 0; i < mixes.size(); ++i) {
                QCOMPARE(mixes[i].function, listing.functions[i].name);
                QVERIFY2(
                    mixes[i].total() == listing.functions[i].instructions && mixes[i].total() > 0,
                    qPrintable(
                        qs(c.name + " " + mixes[i].function) +
                        QString(": %1 classified of %2").arg(mixes[i].total()).arg(listing.functions[i].instructions)));
            }
            // Named, so that a new opcode shows what to add to the table.
            for (const auto& in : listing.instructions)
                if (inspect::classifySass(in.code) == MixClass::Other && in.code != "NOP" &&
                    !support::startsWith(in.code, "BRA `("))
                    QFAIL(qPrintable(qs(c.name + ": \"" + in.code + "\" is other")));
            for (const auto& m : mixes)
                QVERIFY2(m[MixClass::Other] == 0, qPrintable(qs(c.name + " " + m.function + " has other")));
        }
        QVERIFY2(withSass >= 8, qPrintable(QString("%1 cases with SASS").arg(withSass)));
    }

    void sassMixOfKnownKernels() {
        NEED_NVDISASM_FOUND();
        auto entryMix = [](const std::string& name) {
            const auto& c = compiledCase(name);
            for (const auto& m : inspect::sassMix(inspect::readSass(c.result.sass)))
                if (m.isEntry) return m;
            qFatal("%s: no kernel in the SASS", name.c_str());
        };
        const auto saxpy = entryMix("example saxpy");
        QVERIFY2(saxpy[MixClass::GlobalMemory] >= 3, qPrintable(mixText(saxpy)));  // x[i] and y[i] loaded, y[i] stored
        QVERIFY(saxpy[MixClass::Fp32] >= 1);                                       // a * x + y
        QVERIFY(saxpy[MixClass::SyncSpecial] >= 2);                                // threadIdx.x, blockIdx.x
        QCOMPARE(saxpy[MixClass::Fp64], 0);
        QCOMPARE(saxpy[MixClass::LocalMemory], 0);
        const auto math = entryMix("example libdevice-math");
        QVERIFY(math[MixClass::Fp32] >= 10);  // sinf's polynomial
        QVERIFY(math[MixClass::ControlFlow] >= 2);
        QCOMPARE(math[MixClass::Tensor], 0);
        // numba's math kernel computes pow in double, in a subroutine of its own (__internal_accurate_pow).
        int fp64 = 0;
        for (const auto& m : inspect::sassMix(inspect::readSass(compiledCase("numba math_kernel").result.sass)))
            fp64 += m[MixClass::Fp64];
        QVERIFY2(fp64 >= 20, qPrintable(QString::number(fp64)));
    }

    // The PTX mix, which needs no nvdisasm: as many instructions as a line count finds, none other.
    void ptxMixCountsEveryInstructionOnce() {
        for (const auto& c : compiledCases())
            for (const auto* ptx : {&c.result.ptx, &c.result.linkedPtx}) {
                if (ptx->empty()) continue;
                // Named, so that a new opcode shows what to add to the table.
                for (const auto& body : ptx::readBodies(*ptx))
                    for (const auto& st : body.statements)
                        if (st.kind == ptx::BodyStatement::Kind::Instruction &&
                            inspect::classifyPtx(st.text) == MixClass::Other)
                            QFAIL(qPrintable(qs(c.name + ": \"" + st.text + "\" is other")));
                const auto mixes = inspect::ptxMix(*ptx);
                QVERIFY2(!mixes.empty(), c.name.c_str());
                int total = 0;
                for (const auto& m : mixes) {
                    total += m.total();
                    QVERIFY2(m[MixClass::Other] == 0, qPrintable(qs(c.name + " " + m.function + " has other")));
                }
                QCOMPARE(total, ptxInstructionLines(*ptx));

                for (const auto* entry : c.result.ptxModule.entries())
                    QVERIFY2(std::any_of(mixes.begin(), mixes.end(),
                                         [&](const auto& m) { return m.function == entry->name && m.isEntry; }),
                             entry->name.c_str());
            }
    }

    void ptxMixOfKnownKernels() {
        const auto mixes = inspect::ptxMix(compiledCase("example saxpy").result.ptx);
        QCOMPARE(mixes.size(), size_t(1));
        const auto& m = mixes[0];
        QCOMPARE(m[MixClass::GlobalMemory], 3);  // ld.global x2, st.global
        QVERIFY(m[MixClass::Fp32] >= 1);
        QVERIFY(m[MixClass::ConstantMemory] >= 3);  // ld.param
        QVERIFY(m[MixClass::SyncSpecial] >= 2);     // %tid.x, %ctaid.x (and %ntid.x)
        QVERIFY(m[MixClass::ControlFlow] >= 1);     // ret
        QCOMPARE(m[MixClass::Fp64], 0);
        const auto numba = inspect::ptxMix(compiledCase("numba math_kernel").result.ptx);
        QVERIFY(std::any_of(numba.begin(), numba.end(), [](const auto& k) { return k[MixClass::Fp64] >= 20; }));
    }

    // The report's "mix": every kernel has one, of the SASS where there is SASS, else of the PTX,
    // with every class named and adding up to its instructions.
    void reportHasEachKernelsMix() {
        for (const auto& c : compiledCases()) {
            const auto j = pipeline::reportJson(c.job, c.result, {c.name});
            QVERIFY(!j["kernels"].empty());
            for (const auto& k : j["kernels"]) {
                const auto& mix = k["mix"];
                QVERIFY2(mix.is_object(), qPrintable(qs(c.name + " " + k["name"].get<std::string>())));
                QCOMPARE(qs(mix["source"].get<std::string>()), QString(c.result.sass.empty() ? "ptx" : "sass"));
                QCOMPARE(mix["classes"].size(), inspect::kMixClasses);
                int sum = 0;
                for (const auto& [cls, n] : mix["classes"].items()) sum += n.get<int>();
                QCOMPARE(sum, mix["instructions"].get<int>());
                QVERIFY(sum > 0);
                if (!c.result.sass.empty()) QCOMPARE(mix["instructions"], k["sass_instructions"]);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestMix)
#include "tst_mix.moc"
