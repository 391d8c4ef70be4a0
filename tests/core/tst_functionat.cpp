// The function a line is in (inspect::functionAtLine), for IR, PTX and SASS text: what the Control
// Flow dock follows as the caret moves and what the Analysis dock prefers. In IR, on every line
// of every bundled example and numba-cuda fixture, it names the define the light IR scan
// (nvvm::scanFunctions) puts at or above that line.
#include <QtTest>

#include "TestSupport.h"
#include "core/inspect/FunctionAt.h"
#include "core/nvvm/IrScan.h"

using namespace nvpg;
using inspect::functionAtLine;
using inspect::FunctionText;

namespace {

const char* kIr = R"(; ModuleID = 'two'
target triple = "nvptx64-nvidia-cuda"

define internal float @helper(float %x) {
entry:
  %y = fmul float %x, 2.0
  ret float %y
}

declare float @__nv_sinf(float)

define void @"kernel with spaces"(ptr %p) {
  ret void
}
define dso_local void @_Z4wavePf(ptr %p) #0 {
entry:
  ret void
}
)";

}  // namespace

class TestFunctionAt : public QObject {
    Q_OBJECT

private slots:
    void irLinesInsideADefine() {
        for (int line : {4, 5, 6, 7, 8}) {
            const auto f = functionAtLine(kIr, line);
            QCOMPARE(f.name, std::string("helper"));
            QCOMPARE(f.line, 4);
            QVERIFY2(f.inside, qPrintable(QString::number(line)));  // the `}` line too
        }
        const auto quoted = functionAtLine(kIr, 13);
        QCOMPARE(quoted.name, std::string("kernel with spaces"));
        QVERIFY(quoted.inside);
        const auto last = functionAtLine(kIr, 17);
        QCOMPARE(last.name, std::string("_Z4wavePf"));
        QCOMPARE(last.line, 15);
        QVERIFY(last.inside);
    }

    void irLinesBetweenDefinesNameThePreviousOneOutside() {
        // The declare between them is no define.
        for (int line : {9, 10, 11}) {
            const auto f = functionAtLine(kIr, line);
            QCOMPARE(f.name, std::string("helper"));
            QVERIFY(!f.inside);
        }
        // Above the first define: none.
        for (int line : {1, 2, 3}) QVERIFY(functionAtLine(kIr, line).name.empty());
        QVERIFY(functionAtLine(kIr, 0).name.empty());
        QVERIFY(functionAtLine({}, 1).name.empty());
    }

    void aLinePastTheEndIsTheLast() {
        const auto f = functionAtLine(kIr, 1000);
        QCOMPARE(f.name, std::string("_Z4wavePf"));
        QVERIFY(f.inside);  // the last line is its `}`
    }

    void crlfAndAWordThatOnlyStartsLikeDefine() {
        const std::string text = "define void @a() {\r\n  ret void\r\n}\r\ndefined_elsewhere @b\r\n";
        QCOMPARE(functionAtLine(text, 2).name, std::string("a"));
        QVERIFY(functionAtLine(text, 2).inside);
        const auto after = functionAtLine(text, 4);
        QCOMPARE(after.name, std::string("a"));
        QVERIFY(!after.inside);
    }

    void ptxEntriesAndFuncs() {
        const std::string ptx = R"(.version 8.5
.target sm_80
.address_size 64

.func  (.param .b32 func_retval0) helper(
	.param .b32 helper_param_0
)
{
	ret;
}

.visible .entry wave(
	.param .u64 wave_param_0
)
{
	.reg .b32 	%r<3>;
	ret;

}
.weak .func $odd$name()
{
}
)";
        QCOMPARE(functionAtLine(ptx, 9, FunctionText::Ptx).name, std::string("helper"));
        QVERIFY(functionAtLine(ptx, 9, FunctionText::Ptx).inside);
        const auto between = functionAtLine(ptx, 11, FunctionText::Ptx);
        QCOMPARE(between.name, std::string("helper"));
        QVERIFY(!between.inside);
        const auto wave = functionAtLine(ptx, 17, FunctionText::Ptx);
        QCOMPARE(wave.name, std::string("wave"));
        QCOMPARE(wave.line, 12);
        QVERIFY(wave.inside);
        QCOMPARE(functionAtLine(ptx, 21, FunctionText::Ptx).name, std::string("$odd$name"));
        QVERIFY(functionAtLine(ptx, 2, FunctionText::Ptx).name.empty());
        // An IR reading of PTX finds nothing.
        QVERIFY(functionAtLine(ptx, 17, FunctionText::Ir).name.empty());
    }

    void sassSections() {
        const std::string sass = R"(	.headerflags	@"EF_CUDA_SM80"
	.section	.text._Z4wavePf,"ax",@progbits
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   EXIT ;
.text.helper:
        /*0000*/                   RET.ABS.NODEC R20 0x0 ;
)";
        QVERIFY(functionAtLine(sass, 1, FunctionText::Sass).name.empty());
        QCOMPARE(functionAtLine(sass, 4, FunctionText::Sass).name, std::string("_Z4wavePf"));
        QVERIFY(functionAtLine(sass, 4, FunctionText::Sass).inside);
        QCOMPARE(functionAtLine(sass, 6, FunctionText::Sass).name, std::string("helper"));
        QCOMPARE(functionAtLine(sass, 6, FunctionText::Sass).line, 5);
    }

    void everyLineOfEveryExampleAgreesWithTheIrScan() {
        int modules = 0, lines = 0;
        for (const auto& [name, job] : test::exampleAndNumbaJobs())
            for (const auto& m : job.modules) {
                if (m.isBitcode()) continue;
                ++modules;
                const auto functions = nvvm::scanFunctions(m.bytes);
                const int count = int(std::count(m.bytes.begin(), m.bytes.end(), '\n')) + 1;
                for (int line = 1; line <= count; ++line, ++lines) {
                    std::string expected;
                    for (const auto& f : functions)
                        if (f.isDefinition && f.line <= line) expected = f.name;
                    const auto got = functionAtLine(m.bytes, line);
                    QVERIFY2(got.name == expected,
                             qPrintable(QStringLiteral("%1 (%2) line %3: %4, not %5")
                                            .arg(QString::fromStdString(name), QString::fromStdString(m.name))
                                            .arg(line)
                                            .arg(QString::fromStdString(got.name), QString::fromStdString(expected))));
                }
            }
        QVERIFY(modules >= 10);
        qInfo("%d modules, %d lines", modules, lines);
    }
};

QTEST_MAIN(TestFunctionAt)
#include "tst_functionat.moc"
