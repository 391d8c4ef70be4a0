// Run configurations checked against a kernel's PTX parameters before any GPU work, and the
// parameter buffer laid out by PTX alignment.
#include <QtTest>

#include <nlohmann/json.hpp>

#include "core/gpu/RunConfig.h"
#include "core/pipeline/RunDraft.h"
#include "core/ptx/Ptx.h"
#include "core/support/Text.h"

using namespace nvpg;
using namespace nvpg::gpu;

namespace {

// saxpy as libNVVM declares it: (.u32 n, .f32 a, .u64 x, .u64 y).
const char* kSaxpyPtx = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry saxpy(
	.param .u32 saxpy_param_0,
	.param .f32 saxpy_param_1,
	.param .u64 saxpy_param_2,
	.param .u64 saxpy_param_3
)
{
	ret;
}
.visible .entry mixed(
	.param .u8 mixed_param_0,
	.param .u64 mixed_param_1,
	.param .b16 mixed_param_2,
	.param .f64 mixed_param_3,
	.param .align 16 .b8 mixed_param_4[16]
)
{
	ret;
}
)";

ptx::Function kernel(const char* name) {
    static const auto module = ptx::readPtx(kSaxpyPtx);
    return *module.find(name);
}

RunConfig config(std::vector<std::string> specs) {
    RunConfig c;
    c.kernel = "saxpy";
    c.grid = {16, 1, 1};
    c.block = {256, 1, 1};
    for (const auto& s : specs) {
        auto a = parseArgSpec(s);
        if (!a) qFatal("%s", a.error().message.c_str());
        c.args.push_back(*a);
    }
    return c;
}

}  // namespace

class TestRunConfig : public QObject {
    Q_OBJECT

private slots:
    void aDraftPutsEachProblemOnItsField() {
        pipeline::CompileResult compiled;
        compiled.ok = true;
        compiled.ptxModule = ptx::readPtx(kSaxpyPtx);
        const auto saxpy = kernel("saxpy");
        pipeline::RunDraft d;
        d.config.kernel = "saxpy";
        d.grid = "16";
        d.block = "256";
        d.specs = {"u32:4096", "f32:2", "buf:f32:4096:iota", "buf:f32:4096:zeros"};
        for (const auto& p : saxpy.params) d.params.push_back(p);
        auto ok = pipeline::checkRunDraft(d, &compiled);
        QVERIFY(ok.parses);
        QVERIFY(ok.problems.empty());
        QCOMPARE(ok.argErrors, std::vector<std::string>(4));
        QCOMPARE(ok.config.grid, (Dim3{16, 1, 1}));
        QCOMPARE(ok.config.args.size(), size_t(4));

        // A SPEC that does not parse: on its row, numbered, and the draft cannot be saved.
        d.specs[1] = "f32:two";
        auto bad = pipeline::checkRunDraft(d, &compiled);
        QVERIFY(!bad.parses);
        QVERIFY2(support::startsWith(bad.argErrors[1], "argument 1: "), bad.argErrors[1].c_str());
        QCOMPARE(bad.config.args.size(), size_t(3));
        // A SPEC that parses but does not fit its parameter: the row says it, in core's words.
        d.specs[1] = "buf:f32:4:zeros";
        auto misfit = pipeline::checkRunDraft(d, &compiled);
        QVERIFY(misfit.parses);
        QVERIFY2(support::startsWith(misfit.argErrors[1], "argument 1 "), misfit.argErrors[1].c_str());
        QCOMPARE(misfit.problems.size(), size_t(1));
        d.specs[1] = "f32:2";
        // The launch shape: the block field carries it.
        d.block = "2048";
        auto big = pipeline::checkRunDraft(d, &compiled);
        QVERIFY(big.parses);
        QVERIFY2(support::startsWith(big.blockError, "block"), big.blockError.c_str());
        d.block = "x";
        auto unparsed = pipeline::checkRunDraft(d, &compiled);
        QVERIFY(!unparsed.parses);
        QVERIFY(!unparsed.blockError.empty());
        QCOMPARE(unparsed.config.block, Dim3{});
        d.block = "256";
        // A kernel the compile does not have: findKernel's words.
        d.config.kernel = "nosuch";
        auto missing = pipeline::checkRunDraft(d, &compiled);
        QVERIFY(missing.parses);
        QCOMPARE(missing.problems.size(), size_t(1));
        QVERIFY2(missing.problems[0].find("nosuch") != std::string::npos, missing.problems[0].c_str());
        // Nothing compiled yet: only what the text itself says.
        QVERIFY(pipeline::checkRunDraft(d, nullptr).problems.empty());
    }

    void defaultSpecsFollowTheParameterAndItsIrType() {
        auto param = [](std::string type, int size) {
            ptx::Param p;
            p.name = "k_param";
            p.type = std::move(type);
            p.size = size;
            p.align = size;
            return p;
        };
        auto spec = [&](std::string type, int size, std::string_view ir) {
            return gpu::defaultArgSpec(param(std::move(type), size), ir).spec;
        };
        QCOMPARE(spec(".u32", 4, "i32"), std::string("u32:1024"));
        QCOMPARE(spec(".s32", 4, "i32"), std::string("i32:1024"));
        QCOMPARE(spec(".f32", 4, "float"), std::string("f32:1"));
        QCOMPARE(spec(".b32", 4, "float"), std::string("f32:1"));
        QCOMPARE(spec(".f64", 8, "double"), std::string("f64:1"));
        QCOMPARE(spec(".u64", 8, "i64"), std::string("u64:1024"));
        QCOMPARE(spec(".u8", 1, "i1"), std::string("u8:1"));
        QCOMPARE(spec(".b16", 2, ""), std::string("f16:1"));
        QCOMPARE(spec(".u16", 2, "i16"), std::string("u16:1"));
        // Pointers: the element type from the IR's pointer, a buffer of zeros.
        QCOMPARE(spec(".u64", 8, "float*"), std::string("buf:f32:1024:zeros"));
        QCOMPARE(spec(".u64", 8, "i32 addrspace(1)*"), std::string("buf:i32:1024:zeros"));
        QVERIFY(gpu::defaultArgSpec(param(".u64", 8), "float*").hint.empty());
        // What the IR does not say is a guess, and the hint says so.
        const auto opaque = gpu::defaultArgSpec(param(".u64", 8), "ptr");
        QCOMPARE(opaque.spec, std::string("buf:f32:1024:zeros"));
        QVERIFY2(opaque.hint.find("the IR type ptr") != std::string::npos, opaque.hint.c_str());
        const auto bitcode = gpu::defaultArgSpec(param(".u64", 8), "");
        QCOMPARE(bitcode.spec, std::string("buf:f32:1024:zeros"));
        QVERIFY2(bitcode.hint.find("bitcode") != std::string::npos, bitcode.hint.c_str());
        // A by-value aggregate: a placeholder that the run check explains.
        auto aggregate = param(".b8", 16);
        aggregate.arrayCount = 16;
        QCOMPARE(gpu::defaultArgSpec(aggregate, "").spec, std::string("i32:0"));
        // Every default parses as a SPEC.
        for (const auto& s : {spec(".u32", 4, "i32"), spec(".u64", 8, "float*"), spec(".b16", 2, "")})
            QVERIFY2(gpu::parseArgSpec(s), s.c_str());
    }

    void goodConfigPasses() {
        QVERIFY(
            checkRunConfig(config({"i32:4096", "f32:2", "buf:f32:4096:iota", "buf:f32:4096:zeros"}), kernel("saxpy")));
        QVERIFY(checkRunConfig(config({"u32:4096", "f32:2", "ptr:null", "buf:f32:4096:zeros"}), kernel("saxpy")));
    }

    void mismatchesAreNamed_data() {
        QTest::addColumn<QStringList>("specs");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("too few") << QStringList{"i32:1", "f32:2", "ptr:null"}
                                 << "takes 4 parameters (.u32, .f32, .u64, .u64), but 3 arguments were given";
        QTest::newRow("too many") << QStringList{"i32:1", "f32:2", "ptr:null", "ptr:null", "i32:3"}
                                  << "but 5 arguments";
        QTest::newRow("wrong size")
            << QStringList{"i64:1", "f32:2", "ptr:null", "ptr:null"}
            << "argument 0 (i64:1) for parameter saxpy_param_0 (.u32, 4 bytes): the value is 8 bytes";
        QTest::newRow("int for float") << QStringList{"i32:1", "i32:2", "ptr:null", "ptr:null"}
                                       << "an integer value for a floating-point parameter (write f32:…)";
        QTest::newRow("float for int") << QStringList{"f32:1", "f32:2", "ptr:null", "ptr:null"}
                                       << "a floating-point value for an integer parameter";
        QTest::newRow("buffer for float") << QStringList{"i32:1", "buf:f32:4:zeros", "ptr:null", "ptr:null"}
                                          << "a buffer needs a 64-bit integer parameter";
        QTest::newRow("scalar for pointer")
            << QStringList{"i32:1", "f32:2", "f32:3", "ptr:null"} << "argument 2 (f32:3)";
    }
    void mismatchesAreNamed() {
        QFETCH(QStringList, specs);
        QFETCH(QString, mentions);
        std::vector<std::string> s;
        for (const auto& x : specs) s.push_back(x.toStdString());
        const auto st = checkRunConfig(config(s), kernel("saxpy"));
        QVERIFY(!st);
        QCOMPARE(st.error().kind, support::ErrorKind::Usage);
        QVERIFY2(QString::fromStdString(st.error().message).contains(mentions), st.error().message.c_str());
    }

    void launchShapeIsChecked() {
        auto c = config({"i32:1", "f32:2", "ptr:null", "ptr:null"});
        c.block = {64, 32, 1};  // 2048 threads
        auto st = checkRunConfig(c, kernel("saxpy"));
        QVERIFY(!st);
        QVERIFY(st.error().message.find("2048 threads; a block has at most 1024") != std::string::npos);
        // Each dimension has its own limit, named: z at most 64 though 128 threads would do.
        c.block = {1, 1, 128};
        st = checkRunConfig(c, kernel("saxpy"));
        QVERIFY(!st);
        QVERIFY2(st.error().message.find("z is 128, and a block has at most 64 threads along z") != std::string::npos,
                 st.error().message.c_str());
        c.block = {1, 1, 64};
        QVERIFY(checkRunConfig(c, kernel("saxpy")));
        c.block = {1024, 1, 1};
        QVERIFY(checkRunConfig(c, kernel("saxpy")));
        c.repeat = 0;
        QVERIFY(!checkRunConfig(c, kernel("saxpy")));
    }

    void aggregateParametersAreRefusedByName() {
        RunConfig c;
        c.kernel = "mixed";
        for (const char* s : {"u8:1", "ptr:null", "f16:1", "f64:2", "i32:0"}) c.args.push_back(*parseArgSpec(s));
        const auto st = checkRunConfig(c, kernel("mixed"));
        QVERIFY(!st);
        QVERIFY2(st.error().message.find("mixed_param_4 (.align 16 .b8[16], 16 bytes)") != std::string::npos,
                 st.error().message.c_str());
        QVERIFY(st.error().message.find("aggregate") != std::string::npos);
    }

    void parametersAreLaidOutByTheirAlignment() {
        const auto layout = layoutParams(kernel("mixed"));
        // .u8 at 0; .u64 aligned to 8; .b16 at 16; .f64 aligned to 24; the 16-byte aggregate to 32.
        QCOMPARE(layout.offsets, (std::vector<size_t>{0, 8, 16, 24, 32}));
        QCOMPARE(layout.size, size_t(48));
        const auto saxpy = layoutParams(kernel("saxpy"));
        QCOMPARE(saxpy.offsets, (std::vector<size_t>{0, 4, 8, 16}));
        QCOMPARE(saxpy.size, size_t(24));
    }

    void packedBytesAreLittleEndianValuesAndAddresses() {
        const auto c = config({"i32:4096", "f32:2", "buf:f32:4:zeros", "ptr:null"});
        const auto bytes = packParams(kernel("saxpy"), c.args, {0, 0, 0x1122334455667788ULL, 0});
        QCOMPARE(bytes.size(), size_t(24));
        QCOMPARE(QByteArray(bytes.data(), 4), QByteArray("\x00\x10\x00\x00", 4));      // 4096
        QCOMPARE(QByteArray(bytes.data() + 4, 4), QByteArray("\x00\x00\x00\x40", 4));  // 2.0f
        QCOMPARE(QByteArray(bytes.data() + 8, 8), QByteArray("\x88\x77\x66\x55\x44\x33\x22\x11", 8));
        QCOMPARE(QByteArray(bytes.data() + 16, 8), QByteArray(8, '\0'));  // null pointer
    }

    void dim3Parsing() {
        QCOMPARE(*parseDim3("256", "--block"), (Dim3{256, 1, 1}));
        QCOMPARE(*parseDim3("16,16", "--block"), (Dim3{16, 16, 1}));
        QCOMPARE(*parseDim3("8, 8, 4", "--block"), (Dim3{8, 8, 4}));
        for (const char* bad : {"0", "1,2,3,4", "x", "", "-4"}) {
            auto d = parseDim3(bad, "--grid");
            QVERIFY2(!d, bad);
            QVERIFY(d.error().message.find("--grid") != std::string::npos);
        }
    }

    void jsonRoundTrip() {
        auto c = config({"i32:4096", "f32:2.5", "buf:f64:100:random:7", "ptr:null"});
        c.name = "big";
        c.sharedBytes = 128;
        c.repeat = 5;
        c.timeoutSeconds = 2.5;
        c.fromLto = true;
        c.grid = {2, 3, 4};
        const auto j = runConfigToJson(c);
        auto back = runConfigFromJson(j, "/runs/0");
        QVERIFY(back);
        QCOMPARE(back->name, c.name);
        QCOMPARE(back->kernel, c.kernel);
        QCOMPARE(back->grid, c.grid);
        QCOMPARE(back->block, c.block);
        QCOMPARE(back->sharedBytes, c.sharedBytes);
        QCOMPARE(back->repeat, 5);
        QCOMPARE(back->timeoutSeconds, 2.5);
        QVERIFY(back->fromLto);
        QCOMPARE(back->args.size(), c.args.size());
        for (size_t i = 0; i < c.args.size(); ++i) QCOMPARE(formatArgSpec(back->args[i]), formatArgSpec(c.args[i]));
    }

    void jsonErrorsHaveTheirPointer() {
        auto r = runConfigFromJson(nlohmann::json::parse(R"({"kernel":"k","grid":[0]})"), "/runs/3");
        QVERIFY(!r);
        QCOMPARE(r.error().message, std::string("/runs/3/grid/0: expected a whole number above 0"));
        r = runConfigFromJson(nlohmann::json::parse(R"({"kernel":"k","args":["f32:x"]})"), "/runs/0");
        QVERIFY(!r);
        QVERIFY(r.error().message.find("/runs/0/args/0: SPEC 'f32:x'") == 0);
        r = runConfigFromJson(nlohmann::json::parse(R"({"grid":[1]})"), "/runs/1");
        QVERIFY(!r);
        QVERIFY(r.error().message.find("/runs/1/kernel") == 0);
    }
};

QTEST_APPLESS_MAIN(TestRunConfig)
#include "tst_runconfig.moc"
