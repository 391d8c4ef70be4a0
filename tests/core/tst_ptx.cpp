// Reading PTX declarations and ptxas' resource figures. The fixtures under tests/data/ptx are real
// libNVVM / nvJitLink output of CUDA 13.0 (see tests/data/ptx/README.md for how each was made).
#include <QElapsedTimer>
#include <QtTest>

#include <string>
#include <string_view>

#include "TestSupport.h"
#include "core/nvvm/Module.h"
#include "core/nvvm/Options.h"
#include "core/nvvm/Program.h"
#include "core/ptx/Ptx.h"

using namespace nvpg;

namespace {

QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

std::string fixture(const char* name) {
    return test::readText(test::dataDir() / "ptx" / name);
}

// 1-based line of the first line containing `needle`, found without the reader.
int lineOf(std::string_view text, std::string_view needle) {
    const size_t at = text.find(needle);
    if (at == std::string_view::npos) return -1;
    int line = 1;
    for (size_t i = 0; i < at; ++i) line += text[i] == '\n';
    return line;
}

QStringList names(const ptx::PtxModule& m) {
    QStringList out;
    for (const auto& f : m.functions) out << qs(f.name);
    return out;
}

QStringList paramNames(const std::vector<ptx::Param>& ps) {
    QStringList out;
    for (const auto& p : ps) out << qs(p.name);
    return out;
}

const ptx::ResourceUsage* usageOf(const std::vector<ptx::ResourceUsage>& all, std::string_view fn) {
    for (const auto& u : all)
        if (u.function == fn) return &u;
    return nullptr;
}

// The declaration of a test kernel wrapped in a minimal module.
std::string module(std::string_view decls) {
    return std::string(".version 8.0\n.target sm_80\n.address_size 64\n\n") + std::string(decls);
}

constexpr const char* kMultiLine = R"ptx(.visible
.entry
split_k
(
    .param .u64 a
    ,
    .param
        .align 8 .b8 s[24]
)
.reqntid 256, 1, 1
.maxnreg 64
{
    ret;
}

.visible .func (.param .b32 r) one_line(.param .b32 x, .param .b64 y) { ret; }

.func
(
    .param .align 16 .b8 ret16[16]
)
tall_fn
(
    .reg .b32 regparam
)
;
)ptx";

constexpr const char* kCommented = R"ptx(// .visible .entry in_line_comment(.param .u32 a)
/* a block comment over lines
.visible .entry in_block_comment(
    .param .u32 b
) { }
*/
.file 1 "braces { in a name }.cu"
.visible .entry real /* between */ (
    .param .u32 n, // trailing
    /* .param .u32 hidden, */ .param .f32 x
)
{
    // } a closing brace in a comment must not end the body
    /* { */
    .pragma "nounroll }";
    .param .b32 param0;
    ret;
}
// .entry after_comment(
.visible .entry last()
{
}
)ptx";

constexpr const char* kBodies = R"ptx(.const .align 4 .b8 table[8] = {0, 0, 128, 63, 0, 0, 0, 64};
.global .align 8 .u64 fnptr;
.visible .entry k(.param .u64 out)
{
    .local .align 4 .b8 __local_depot0[64];
    .reg .b32 %r<4>;
    {
        .reg .b32 temp_param_reg;
        .param .b32 param0;
        .param .align 8 .b8 param1[16];
        prototype_0 : .callprototype ()_ (.param .b32 _, .param .align 8 .b8 _[16]);
        call (retval0), %rd1, (param0, param1), prototype_0;
    }
    ret;
}
.visible .func after(.param .u32 z)
{
    ret;
}
)ptx";

constexpr const char* kThreeKernels =
    R"ptx(target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.V = type { float, float, float }

define void @first(float* %a, float* %b, i32 %n) {
  %v = load float, float* %a
  store float %v, float* %b
  ret void
}

define void @second(%struct.V* byval align 4 %v, double %d) {
  ret void
}

define void @third() {
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (float*, float*, i32)* @first, !"kernel", i32 1}
!1 = !{void (%struct.V*, double)* @second, !"kernel", i32 1}
!2 = !{void ()* @third, !"kernel", i32 1}
!nvvmir.version = !{!3}
!3 = !{i32 2, i32 0}
)ptx";

}  // namespace

class TestPtx : public QObject {
    Q_OBJECT

private slots:
    // ---- readPtx on libNVVM's own output ----

    void header_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("multi.ptx") << "multi.ptx";
        QTest::newRow("decls.ptx") << "decls.ptx";
    }
    void header() {
        QFETCH(QString, file);
        const auto m = ptx::readPtx(fixture(file.toUtf8().constData()));
        QCOMPARE(qs(m.version), QStringLiteral("9.0"));
        QCOMPARE(qs(m.target), QStringLiteral("sm_90"));
        QVERIFY(m.targetFlags.empty());
        QCOMPARE(m.addressSize, 64);
    }

    void functionsOfMulti() {
        const std::string text = fixture("multi.ptx");
        const auto m = ptx::readPtx(text);
        QCOMPARE(names(m), (QStringList{"helper", "shared_k", "local_k", "calls_helper", "byval_k", "spill_k"}));
        QStringList entries;
        for (const auto* f : m.entries()) entries << qs(f->name);
        QCOMPARE(entries, (QStringList{"shared_k", "local_k", "calls_helper", "byval_k", "spill_k"}));

        const auto* helper = m.find("helper");
        QVERIFY(helper);
        QVERIFY(!helper->isEntry);
        QVERIFY(helper->isVisible);
        QVERIFY(!helper->isExtern);
        QCOMPARE(helper->returns.size(), size_t(1));
        QCOMPARE(qs(helper->returns[0].name), QStringLiteral("func_retval0"));
        QCOMPARE(qs(helper->returns[0].type), QStringLiteral(".b32"));
        QCOMPARE(helper->returns[0].size, 4);
        QCOMPARE(paramNames(helper->params), (QStringList{"helper_param_0", "helper_param_1"}));

        for (const auto& f : m.functions) {
            const std::string decl = (f.isEntry ? ".entry " : ") ") + f.name + "(";
            QCOMPARE(f.line, lineOf(text, decl));
        }
        QVERIFY(m.find("spill_k")->isVisible);
        QCOMPARE(m.find("no_such_kernel"), nullptr);
    }

    void paramsOfMulti_data() {
        QTest::addColumn<QString>("function");
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("align");
        QTest::addColumn<int>("arrayCount");
        // float* (generic pointers are plain .u64 in libNVVM's kernels), i32, i8, i16
        QTest::newRow("float*") << "shared_k" << 0 << ".u64" << 8 << 8 << 0;
        QTest::newRow("i32") << "shared_k" << 1 << ".u32" << 4 << 4 << 0;
        QTest::newRow("i8") << "local_k" << 2 << ".u8" << 1 << 1 << 0;
        QTest::newRow("i16") << "local_k" << 3 << ".u16" << 2 << 2 << 0;
        QTest::newRow("float") << "calls_helper" << 1 << ".f32" << 4 << 4 << 0;
        QTest::newRow("double") << "calls_helper" << 2 << ".f64" << 8 << 8 << 0;
        QTest::newRow("half") << "calls_helper" << 3 << ".b16" << 2 << 2 << 0;
        // %struct.Pair* byval align 8: { double, i64 }
        QTest::newRow("byval struct") << "byval_k" << 0 << ".b8" << 16 << 8 << 16;
        QTest::newRow("i64*") << "byval_k" << 1 << ".u64" << 8 << 8 << 0;
        QTest::newRow("<2 x half>") << "byval_k" << 2 << ".b8" << 4 << 4 << 4;
    }
    void paramsOfMulti() {
        QFETCH(QString, function);
        QFETCH(int, index);
        QFETCH(QString, type);
        QFETCH(int, size);
        QFETCH(int, align);
        QFETCH(int, arrayCount);
        const auto m = ptx::readPtx(fixture("multi.ptx"));
        const auto* f = m.find(function.toStdString());
        QVERIFY(f);
        QVERIFY(index < int(f->params.size()));
        const auto& p = f->params[size_t(index)];
        QCOMPARE(qs(p.name), QStringLiteral("%1_param_%2").arg(function).arg(index));
        QCOMPARE(qs(p.type), type);
        QCOMPARE(p.size, size);
        QCOMPARE(p.align, align);
        QCOMPARE(p.arrayCount, arrayCount);
        QVERIFY(!p.isPointer);
    }

    // calls_helper's body declares `.param .b32 param0; .param .b32 param1; .param .b32 retval0;`
    // for its call of helper: they belong to the call, not to the kernel.
    void callSequenceParamsAreNotParams() {
        const std::string text = fixture("multi.ptx");
        QVERIFY(text.find(".param .b32 param0;") != std::string::npos);  // the fixture has one
        const auto m = ptx::readPtx(text);
        const auto* k = m.find("calls_helper");
        QVERIFY(k);
        QCOMPARE(paramNames(k->params), (QStringList{"calls_helper_param_0", "calls_helper_param_1",
                                                     "calls_helper_param_2", "calls_helper_param_3"}));
        QVERIFY(k->returns.empty());
        for (const auto& f : m.functions)
            for (const auto& p : f.params) QVERIFY2(p.name.find("param0") != 0, p.name.c_str());
    }

    void declarationsOfDecls() {
        const std::string text = fixture("decls.ptx");
        const auto m = ptx::readPtx(text);
        // pair_fn is declared before its first use and defined at the end: one function.
        QCOMPARE(names(m), (QStringList{"__nv_sinf", "pair_fn", "weak_fn", "global_ptrs", "no_params", "bounded"}));

        const auto* sinf = m.find("__nv_sinf");
        QVERIFY(sinf->isExtern);
        QVERIFY(!sinf->isVisible);
        QVERIFY(!sinf->isEntry);
        QCOMPARE(sinf->line, lineOf(text, ".extern .func"));
        QCOMPARE(paramNames(sinf->params), QStringList{"__nv_sinf_param_0"});
        QCOMPARE(paramNames(sinf->returns), QStringList{"func_retval0"});

        const auto* weak = m.find("weak_fn");
        QVERIFY(weak->isWeak);
        QVERIFY(!weak->isVisible);
        QVERIFY(!weak->isExtern);

        const auto* pair = m.find("pair_fn");
        QCOMPARE(pair->line, lineOf(text, ") pair_fn("));  // the definition, not the prototype
        QVERIFY(pair->line > lineOf(text, ") pair_fn"));
        QVERIFY(!pair->isExtern);
        QCOMPARE(pair->returns.size(), size_t(1));
        QCOMPARE(qs(pair->returns[0].type), QStringLiteral(".b8"));
        QCOMPARE(pair->returns[0].arrayCount, 8);
        QCOMPARE(pair->returns[0].size, 8);
        QCOMPARE(pair->returns[0].align, 4);
        QCOMPARE(pair->params.size(), size_t(2));

        const auto* ptrs = m.find("global_ptrs");
        QCOMPARE(ptrs->params.size(), size_t(4));
        QCOMPARE(qs(ptrs->params[2].type), QStringLiteral(".b8"));  // <4 x float>
        QCOMPARE(ptrs->params[2].size, 16);
        QCOMPARE(ptrs->params[2].align, 16);
        QCOMPARE(qs(ptrs->params[3].type), QStringLiteral(".u8"));  // i1
        QCOMPARE(ptrs->params[3].size, 1);

        QVERIFY(m.find("no_params")->isEntry);
        QVERIFY(m.find("no_params")->params.empty());
        QCOMPARE(m.find("no_params")->line, lineOf(text, ".entry no_params()"));
        // `.maxntid 128, 1, 1` and `.minnctapersm 2` stand between the ')' and the body.
        QCOMPARE(paramNames(m.find("bounded")->params), (QStringList{"bounded_param_0", "bounded_param_1"}));
        QCOMPARE(m.entries().size(), size_t(3));
    }

    // ---- readPtx on written PTX: what libNVVM does not emit but PTX allows ----

    void paramForms_data() {
        QTest::addColumn<QString>("decl");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("align");
        QTest::addColumn<int>("arrayCount");
        QTest::addColumn<bool>("isPointer");
        QTest::addColumn<QString>("pointerSpace");
        QTest::addColumn<int>("pointerAlign");
        QTest::newRow("u64") << ".param .u64 a"
                             << "a"
                             << ".u64" << 8 << 8 << 0 << false << "" << 0;
        QTest::newRow("f32") << ".param .f32 x"
                             << "x"
                             << ".f32" << 4 << 4 << 0 << false << "" << 0;
        QTest::newRow("s8") << ".param .s8 c"
                            << "c"
                            << ".s8" << 1 << 1 << 0 << false << "" << 0;
        QTest::newRow("f16") << ".param .f16 h"
                             << "h"
                             << ".f16" << 2 << 2 << 0 << false << "" << 0;
        QTest::newRow("f16x2") << ".param .f16x2 h2"
                               << "h2"
                               << ".f16x2" << 4 << 4 << 0 << false << "" << 0;
        QTest::newRow("bf16x2") << ".param .bf16x2 b2"
                                << "b2"
                                << ".bf16x2" << 4 << 4 << 0 << false << "" << 0;
        QTest::newRow("b128") << ".param .b128 q"
                              << "q"
                              << ".b128" << 16 << 16 << 0 << false << "" << 0;
        QTest::newRow("pred") << ".param .pred p"
                              << "p"
                              << ".pred" << 1 << 1 << 0 << false << "" << 0;
        QTest::newRow("aligned array") << ".param .align 8 .b8 s[16]"
                                       << "s"
                                       << ".b8" << 16 << 8 << 16 << false << "" << 0;
        QTest::newRow("u32 array") << ".param .u32 v[3]"
                                   << "v"
                                   << ".u32" << 12 << 4 << 3 << false << "" << 0;
        QTest::newRow("hex count") << ".param .align 4 .b8 h[0x10]"
                                   << "h"
                                   << ".b8" << 16 << 4 << 16 << false << "" << 0;
        QTest::newRow("spaced array") << ".param .align 16 .b8 w [ 32 ]"
                                      << "w"
                                      << ".b8" << 32 << 16 << 32 << false << "" << 0;
        QTest::newRow("ptr global align") << ".param .u64 .ptr .global .align 4 g"
                                          << "g"
                                          << ".u64" << 8 << 8 << 0 << true << ".global" << 4;
        QTest::newRow("ptr align only") << ".param .u64 .ptr .align 1 any"
                                        << "any"
                                        << ".u64" << 8 << 8 << 0 << true << "" << 1;
        QTest::newRow("ptr shared") << ".param .u32 .ptr .shared .align 16 sh"
                                    << "sh"
                                    << ".u32" << 4 << 4 << 0 << true << ".shared" << 16;
        QTest::newRow("ptr const no align") << ".param .u64 .ptr .const c"
                                            << "c"
                                            << ".u64" << 8 << 8 << 0 << true << ".const" << 0;
        QTest::newRow("align before ptr") << ".param .align 16 .u64 .ptr .global .align 8 t"
                                          << "t"
                                          << ".u64" << 8 << 16 << 0 << true << ".global" << 8;
    }
    void paramForms() {
        QFETCH(QString, decl);
        QFETCH(QString, name);
        QFETCH(QString, type);
        QFETCH(int, size);
        QFETCH(int, align);
        QFETCH(int, arrayCount);
        QFETCH(bool, isPointer);
        QFETCH(QString, pointerSpace);
        QFETCH(int, pointerAlign);
        const auto m = ptx::readPtx(
            module(".visible .entry k(\n\t.param .u32 first,\n\t" + decl.toStdString() + "\n)\n{\n\tret;\n}\n"));
        QCOMPARE(m.functions.size(), size_t(1));
        const auto& ps = m.functions[0].params;
        QCOMPARE(ps.size(), size_t(2));
        const auto& p = ps[1];
        QCOMPARE(qs(p.name), name);
        QCOMPARE(qs(p.type), type);
        QCOMPARE(p.size, size);
        QCOMPARE(p.align, align);
        QCOMPARE(p.arrayCount, arrayCount);
        QCOMPARE(p.isPointer, isPointer);
        QCOMPARE(qs(p.pointerSpace), pointerSpace);
        QCOMPARE(p.pointerAlign, pointerAlign);
    }

    void targetLine_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QStringList>("flags");
        QTest::newRow("plain") << ".target sm_90"
                               << "sm_90" << QStringList{};
        QTest::newRow("debug") << ".target sm_90a, debug"
                               << "sm_90a" << QStringList{"debug"};
        QTest::newRow("two flags") << ".target sm_52, texmode_independent, debug"
                                   << "sm_52" << QStringList{"texmode_independent", "debug"};
        QTest::newRow("comment after") << ".target sm_100 // , debug"
                                       << "sm_100" << QStringList{};
    }
    void targetLine() {
        QFETCH(QString, target);
        QFETCH(QString, arch);
        QFETCH(QStringList, flags);
        const auto m = ptx::readPtx(".version 8.7\n" + target.toStdString() + "\n.address_size 32\n.entry k()\n{\n}\n");
        QCOMPARE(qs(m.version), QStringLiteral("8.7"));
        QCOMPARE(qs(m.target), arch);
        QStringList got;
        for (const auto& f : m.targetFlags) got << qs(f);
        QCOMPARE(got, flags);
        QCOMPARE(m.addressSize, 32);
        QCOMPARE(names(m), QStringList{"k"});
    }

    void noHeader() {
        const auto m = ptx::readPtx(".entry k(.param .u32 n)\n{\n}\n");
        QVERIFY(m.version.empty());
        QVERIFY(m.target.empty());
        QCOMPARE(m.addressSize, 0);
        QCOMPARE(names(m), QStringList{"k"});
        QCOMPARE(m.functions[0].params.size(), size_t(1));
    }

    void multiLineDeclarations() {
        const std::string text = module(kMultiLine);
        const auto m = ptx::readPtx(text);
        QCOMPARE(names(m), (QStringList{"split_k", "one_line", "tall_fn"}));
        const auto* s = m.find("split_k");
        QCOMPARE(s->line, lineOf(text, ".visible\n.entry"));
        QVERIFY(s->isVisible);
        QCOMPARE(paramNames(s->params), (QStringList{"a", "s"}));
        QCOMPARE(s->params[1].size, 24);
        QCOMPARE(s->params[1].align, 8);

        const auto* o = m.find("one_line");
        QCOMPARE(paramNames(o->returns), QStringList{"r"});
        QCOMPARE(paramNames(o->params), (QStringList{"x", "y"}));

        const auto* t = m.find("tall_fn");
        QCOMPARE(t->line, lineOf(text, ".func\n("));
        QVERIFY(!t->isVisible && !t->isExtern && !t->isWeak);
        QCOMPARE(t->returns.size(), size_t(1));
        QCOMPARE(t->returns[0].size, 16);
        QCOMPARE(t->returns[0].align, 16);
        QCOMPARE(paramNames(t->params), QStringList{"regparam"});
        QCOMPARE(t->params[0].size, 4);
    }

    void commentsAndStringsIgnored() {
        const std::string text = module(kCommented);
        const auto m = ptx::readPtx(text);
        QCOMPARE(names(m), (QStringList{"real", "last"}));
        QCOMPARE(paramNames(m.find("real")->params), (QStringList{"n", "x"}));
        QCOMPARE(m.find("real")->line, lineOf(text, ".visible .entry real"));
        QCOMPARE(m.find("last")->line, lineOf(text, ".visible .entry last"));
        QVERIFY(m.find("last")->params.empty());
    }

    // The body holds an inner block, a call prototype with .param, .local and .reg, and module
    // scope holds a .const initializer in braces; none of them is a function or a parameter.
    void bodiesAndInitializersSkipped() {
        const std::string text = module(kBodies);
        const auto m = ptx::readPtx(text);
        QCOMPARE(names(m), (QStringList{"k", "after"}));
        QCOMPARE(paramNames(m.find("k")->params), QStringList{"out"});
        QCOMPARE(paramNames(m.find("after")->params), QStringList{"z"});
        QCOMPARE(m.find("after")->line, lineOf(text, ".visible .func after"));
    }

    void linkageForms_data() {
        QTest::addColumn<QString>("decl");
        QTest::addColumn<bool>("isEntry");
        QTest::addColumn<bool>("isVisible");
        QTest::addColumn<bool>("isExtern");
        QTest::addColumn<bool>("isWeak");
        QTest::newRow("visible entry") << ".visible .entry f() {}" << true << true << false << false;
        QTest::newRow("bare entry") << ".entry f() {}" << true << false << false << false;
        QTest::newRow("extern func") << ".extern .func (.param .b64 r) f(.param .b64 a);" << false << false << true
                                     << false;
        QTest::newRow("weak func") << ".weak .func f() {}" << false << false << false << true;
        QTest::newRow("internal func") << ".func f() {}" << false << false << false << false;
        QTest::newRow("no parens func") << ".visible .func f\n{\n}" << false << true << false << false;
    }
    void linkageForms() {
        QFETCH(QString, decl);
        QFETCH(bool, isEntry);
        QFETCH(bool, isVisible);
        QFETCH(bool, isExtern);
        QFETCH(bool, isWeak);
        const auto m = ptx::readPtx(module(decl.toStdString() + "\n"));
        QCOMPARE(names(m), QStringList{"f"});
        const auto& f = m.functions[0];
        QCOMPARE(f.isEntry, isEntry);
        QCOMPARE(f.isVisible, isVisible);
        QCOMPARE(f.isExtern, isExtern);
        QCOMPARE(f.isWeak, isWeak);
        QCOMPARE(f.line, 5);
    }

    // What cannot be read is left out; nothing throws, hangs or reads past the end.
    void truncatedInput_data() {
        QTest::addColumn<int>("cut");
        const int size = int(fixture("decls.ptx").size());
        for (int cut : {0, 1, 10, 200, 300, 420, 700, 1200, size / 2, size - 2})
            QTest::newRow(qPrintable(QString::number(cut))) << cut;
    }
    void truncatedInput() {
        QFETCH(int, cut);
        const std::string text = fixture("decls.ptx");
        const std::string head = text.substr(0, size_t(cut));
        const auto m = ptx::readPtx(head);
        const auto all = ptx::readPtx(text);
        // Every function found in the cut text is one of the whole text's.
        for (const auto& f : m.functions) QVERIFY2(all.find(f.name), f.name.c_str());
        QVERIFY(m.functions.size() <= all.functions.size());
        // Unterminated comment, string and parameter list.
        QCOMPARE(ptx::readPtx(head + "/* never closed").functions.size(), m.functions.size());
        ptx::readPtx(head + "\"never closed");
        ptx::readPtx(".entry k(.param .u32 a, .param .align");
        ptx::readPtx(".entry k(.param .b8 a[");
        ptx::readPtx(".func (");
    }

    // Hundreds of kernels in megabytes of PTX: all found, in order, on the right lines.
    void largeModule() {
        const std::string one = fixture("multi.ptx");
        const size_t bodyStart = one.find(".visible .func");
        QVERIFY(bodyStart != std::string::npos);
        const std::string body = one.substr(bodyStart);
        std::string text = one.substr(0, bodyStart);
        const int copies = 300;
        int bodyLines = 0;
        for (char c : body) bodyLines += c == '\n';
        for (int i = 0; i < copies; ++i) {
            // Rename at the declarations only; the reader does not look at call sites.
            std::string copy = body;
            for (const char* decl : {") helper(", ".entry shared_k(", ".entry local_k(", ".entry calls_helper(",
                                     ".entry byval_k(", ".entry spill_k("}) {
                const std::string from = decl;
                const size_t at = copy.find(from);
                QVERIFY(at != std::string::npos);
                copy.insert(at + from.size() - 1, "_" + std::to_string(i));
            }
            text += copy;
        }
        QVERIFY(text.size() > 5'000'000);

        QElapsedTimer timer;
        timer.start();
        const auto m = ptx::readPtx(text);
        const qint64 ms = timer.elapsed();
        qInfo("read %zu bytes, %zu functions in %lld ms", text.size(), m.functions.size(), ms);
        // Generous: a linear read takes a few tens of ms; a per-line regex takes seconds.
        QVERIFY2(ms < 1500, qPrintable(QString::number(ms)));

        QCOMPARE(m.functions.size(), size_t(6 * copies));
        QCOMPARE(m.entries().size(), size_t(5 * copies));
        const auto single = ptx::readPtx(one);
        for (int i = 0; i < copies; i += 37) {
            for (size_t j = 0; j < single.functions.size(); ++j) {
                const auto& f = m.functions[size_t(i) * 6 + j];
                QCOMPARE(qs(f.name), qs(single.functions[j].name + "_" + std::to_string(i)));
                QCOMPARE(f.line, single.functions[j].line + i * bodyLines);
                QCOMPARE(f.params.size(), single.functions[j].params.size());
            }
        }
    }

    // libNVVM at test time: a fresh module with three kernels, read back from its PTX.
    void realLibnvvmOutput() {
        const auto tk = test::realToolkit();
        auto program = nvvm::Program::create(tk->nvvm());
        QVERIFY2(program, program ? "" : program.error().message.c_str());
        const std::string ir = kThreeKernels;
        QVERIFY((*program)->addModule(nvvm::Module{"three.ll", ir}));
        nvvm::Options options;
        options.arch = "compute_90";
        const auto out = (*program)->compile(options);
        QVERIFY2(out.ok, out.log.c_str());

        const auto m = ptx::readPtx(out.result);
        QCOMPARE(qs(m.target), QStringLiteral("sm_90"));
        QCOMPARE(m.addressSize, 64);
        const auto entries = m.entries();
        QCOMPARE(entries.size(), size_t(3));
        QCOMPARE(qs(entries[0]->name), QStringLiteral("first"));
        QCOMPARE(qs(entries[1]->name), QStringLiteral("second"));
        QCOMPARE(qs(entries[2]->name), QStringLiteral("third"));
        QCOMPARE(entries[0]->params.size(), size_t(3));
        QCOMPARE(entries[1]->params.size(), size_t(2));
        QCOMPARE(entries[2]->params.size(), size_t(0));
        QCOMPARE(entries[1]->params[0].size, 12);  // { float, float, float } byval
        QCOMPARE(entries[1]->params[0].align, 4);
        QCOMPARE(qs(entries[1]->params[1].type), QStringLiteral(".f64"));
        for (const auto* e : entries) QVERIFY(e->isVisible);
    }

    // ---- parsePtxasInfo on nvJitLink -verbose logs ----

    void ltoLog_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("function");
        QTest::addColumn<bool>("isEntry");
        QTest::addColumn<int>("registers");
        QTest::addColumn<int>("barriers");
        QTest::addColumn<int>("stackFrame");
        QTest::addColumn<int>("spillStores");
        QTest::addColumn<int>("spillLoads");
        QTest::addColumn<int>("sharedBytes");
        QTest::addColumn<int>("constBytes");
        QTest::addColumn<int>("localBytes");
        // LTO-IR in: only ptxas' lines.
        const QString lto = "ptxas-info-lto.txt";
        QTest::newRow("lto spill_k") << lto << "spill_k" << true << 24 << 0 << 104 << 220 << 216 << 0 << 0 << 0;
        QTest::newRow("lto byval_k") << lto << "byval_k" << true << 8 << 0 << 0 << 0 << 0 << 0 << 0 << 0;
        QTest::newRow("lto helper") << lto << "helper" << false << 0 << 0 << 0 << 0 << 0 << 0 << 0 << 0;
        QTest::newRow("lto local_k") << lto << "local_k" << true << 32 << 0 << 256 << 0 << 0 << 0 << 0 << 0;
        QTest::newRow("lto shared_k") << lto << "shared_k" << true << 12 << 1 << 0 << 0 << 0 << 1024 << 0 << 0;
        // PTX in: ptxas' lines, then the linker's, which add cmem[0] for the kernels.
        const QString ptx = "ptxas-info-ptx.txt";
        QTest::newRow("ptx spill_k") << ptx << "spill_k" << true << 24 << 0 << 104 << 220 << 216 << 0 << 544 << 0;
        QTest::newRow("ptx calls_helper") << ptx << "calls_helper" << true << 24 << 0 << 0 << 0 << 0 << 0 << 554 << 0;
        QTest::newRow("ptx helper") << ptx << "helper" << false << 0 << 0 << 0 << 0 << 0 << 0 << 0 << 0;
        QTest::newRow("ptx shared_k") << ptx << "shared_k" << true << 12 << 1 << 0 << 0 << 0 << 1024 << 540 << 0;
        QTest::newRow("ptx byval_k") << ptx << "byval_k" << true << 8 << 0 << 0 << 0 << 0 << 0 << 556 << 0;
        // A module-scope .local array: ptxas disables the ABI and prints no properties block.
        QTest::newRow("lmem lm") << "ptxas-info-lmem.txt"
                                 << "lm" << true << 6 << 0 << 0 << 0 << 0 << 0 << 0 << 64;
    }
    void ltoLog() {
        QFETCH(QString, file);
        QFETCH(QString, function);
        QFETCH(bool, isEntry);
        QFETCH(int, registers);
        QFETCH(int, barriers);
        QFETCH(int, stackFrame);
        QFETCH(int, spillStores);
        QFETCH(int, spillLoads);
        QFETCH(int, sharedBytes);
        QFETCH(int, constBytes);
        QFETCH(int, localBytes);
        const auto all = ptx::parsePtxasInfo(fixture(file.toUtf8().constData()));
        const auto* u = usageOf(all, function.toStdString());
        QVERIFY(u);
        QCOMPARE(qs(u->arch), QStringLiteral("sm_90"));
        QCOMPARE(u->isEntry, isEntry);
        QCOMPARE(u->registers, registers);
        QCOMPARE(u->barriers, barriers);
        QCOMPARE(u->stackFrame, stackFrame);
        QCOMPARE(u->spillStores, spillStores);
        QCOMPARE(u->spillLoads, spillLoads);
        QCOMPARE(u->sharedBytes, sharedBytes);
        QCOMPARE(u->constBytes, constBytes);
        QCOMPARE(u->localBytes, localBytes);
    }

    // One record per function in order of appearance: the linker's second listing of the same
    // kernels merges into ptxas' records instead of adding five more.
    void logOrder_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("functions");
        QTest::newRow("lto") << "ptxas-info-lto.txt"
                             << QStringList{"spill_k", "byval_k", "calls_helper", "helper", "local_k", "shared_k"};
        QTest::newRow("ptx") << "ptxas-info-ptx.txt"
                             << QStringList{"spill_k", "byval_k", "helper", "calls_helper", "local_k", "shared_k"};
        QTest::newRow("lmem") << "ptxas-info-lmem.txt" << QStringList{"lm"};
    }
    void logOrder() {
        QFETCH(QString, file);
        QFETCH(QStringList, functions);
        QStringList got;
        for (const auto& u : ptx::parsePtxasInfo(fixture(file.toUtf8().constData()))) got << qs(u.function);
        QCOMPARE(got, functions);
    }

    // Only the linker's listing (its lines as nvJitLink printed them for PTX input): every figure
    // comes from it, smem included.
    void linkerLinesAlone() {
        const auto all = ptx::parsePtxasInfo(
            "info    : 0 bytes gmem, 16 bytes cmem[3]\n"
            "info    : Function properties for 'shared_k':\n"
            "info    : used 12 registers, used 1 barriers, 0 stack, 2048 bytes smem, 540 bytes "
            "cmem[0], 0 bytes lmem\n"
            "info    : Function properties for 'spill_k':\n"
            "info    : used 24 registers, used 0 barriers, 104 stack, 0 bytes smem, 544 bytes "
            "cmem[0], 8 bytes lmem\n");
        QCOMPARE(all.size(), size_t(2));
        QCOMPARE(qs(all[0].function), QStringLiteral("shared_k"));
        QVERIFY(all[0].isEntry);
        QCOMPARE(all[0].registers, 12);
        QCOMPARE(all[0].barriers, 1);
        QCOMPARE(all[0].sharedBytes, 2048);
        QCOMPARE(all[0].constBytes, 540);  // the module's cmem[3] is no function's
        QCOMPARE(qs(all[1].function), QStringLiteral("spill_k"));
        QCOMPARE(all[1].stackFrame, 104);
        QCOMPARE(all[1].localBytes, 8);
    }

    // The same figures as standalone ptxas -v prints them (continuation lines only indented),
    // and a Used line carrying several constant banks, which they are summed from.
    void otherLineShapes() {
        const auto all = ptx::parsePtxasInfo(
            "ptxas info    : 0 bytes gmem\n"
            "ptxas info    : Compiling entry function 'spill_k' for 'sm_90'\n"
            "ptxas info    : Function properties for spill_k\n"
            "    104 bytes stack frame, 220 bytes spill stores, 216 bytes spill loads\n"
            "ptxas info    : Used 24 registers, used 0 barriers, 104 bytes cumulative stack size\n"
            "ptxas info    : Compile time = 21.763 ms\n"
            "ptxas info    : Compiling entry function 'banks' for 'sm_80'\n"
            "ptxas info    : Used 10 registers, 352 bytes cmem[0], 8 bytes cmem[2]\r\n");
        QCOMPARE(all.size(), size_t(2));
        QCOMPARE(all[0].stackFrame, 104);
        QCOMPARE(all[0].spillStores, 220);
        QCOMPARE(all[0].spillLoads, 216);
        QCOMPARE(all[0].registers, 24);
        QCOMPARE(qs(all[1].arch), QStringLiteral("sm_80"));
        QCOMPARE(all[1].registers, 10);
        QCOMPARE(all[1].constBytes, 360);
    }

    void noFigures_data() {
        QTest::addColumn<QString>("log");
        QTest::newRow("empty") << "";
        QTest::newRow("errors only") << "error   : Undefined reference to 'foo' in 'input'\n";
        QTest::newRow("module line") << "ptxas info    : 0 bytes gmem\n";
        QTest::newRow("figures before any function") << "ptxas info    : Used 8 registers, used 0 barriers\n";
        QTest::newRow("unclosed quote") << "ptxas info    : Compiling entry function 'k for\n";
    }
    void noFigures() {
        QFETCH(QString, log);
        QVERIFY(ptx::parsePtxasInfo(log.toStdString()).empty());
    }
};

QTEST_APPLESS_MAIN(TestPtx)
#include "tst_ptx.moc"
