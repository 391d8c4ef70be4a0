// gpu/ArgSpec and gpu/ElemType: the SPEC grammar, its messages, buffer contents, f16 bits.
#include <QtTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "TestSupport.h"
#include "core/gpu/ArgSpec.h"
#include "core/gpu/ElemType.h"

using namespace nvpg;
using gpu::ArgSpec;
using gpu::BufferInit;
using gpu::ElemType;
namespace fs = std::filesystem;

namespace {

gpu::ArgSpec parseOk(const std::string& spec) {
    auto r = gpu::parseArgSpec(spec);
    if (!r) qFatal("%s", r.error().message.c_str());
    return *r;
}

template <class T>
std::vector<T> elements(const std::string& bytes) {
    std::vector<T> out(bytes.size() / sizeof(T));
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
}

void writeBytes(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

}  // namespace

class TestArgSpec : public QObject {
    Q_OBJECT

private slots:
    void validSpecs_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("type");
        QTest::addColumn<qulonglong>("bits");
        QTest::addColumn<qulonglong>("count");
        QTest::addColumn<int>("init");
        auto scalar = [](const char* spec, ElemType t, uint64_t bits) {
            QTest::newRow(spec) << spec << int(ArgSpec::Scalar) << int(t) << qulonglong(bits) << 0ull
                                << int(BufferInit::Zeros);
        };
        auto buffer = [](const char* spec, ElemType t, size_t count, BufferInit::Kind init) {
            QTest::newRow(spec) << spec << int(ArgSpec::Buffer) << int(t) << 0ull << qulonglong(count) << int(init);
        };
        scalar("i32:5", ElemType::I32, 5);
        scalar("i32:-1", ElemType::I32, 0xFFFFFFFF);
        scalar("i32:+7", ElemType::I32, 7);
        scalar("i8:-128", ElemType::I8, 0x80);
        scalar("i8:127", ElemType::I8, 0x7F);
        scalar("i16:-0x8000", ElemType::I16, 0x8000);
        scalar("u8:255", ElemType::U8, 0xFF);
        scalar("u8:0x1f", ElemType::U8, 0x1F);
        scalar("u16:65535", ElemType::U16, 0xFFFF);
        scalar("u32:0XFFFFFFFF", ElemType::U32, 0xFFFFFFFF);
        scalar("u64:4096", ElemType::U64, 4096);
        scalar("u64:18446744073709551615", ElemType::U64, ~0ull);
        scalar("i64:-9223372036854775808", ElemType::I64, 0x8000000000000000ull);
        scalar("i64:9223372036854775807", ElemType::I64, 0x7FFFFFFFFFFFFFFFull);
        scalar("f32:2.5", ElemType::F32, 0x40200000);
        scalar("f32:-0", ElemType::F32, 0x80000000);
        scalar("f32:inf", ElemType::F32, 0x7F800000);
        scalar("f32:-inf", ElemType::F32, 0xFF800000);
        scalar("f32:1e-50", ElemType::F32, 0);  // underflow gives zero, as strtod does
        scalar("f64:1e-3", ElemType::F64, std::bit_cast<uint64_t>(1e-3));
        scalar("f64:+1.5", ElemType::F64, std::bit_cast<uint64_t>(1.5));
        scalar("f64:.5", ElemType::F64, std::bit_cast<uint64_t>(0.5));
        scalar("f16:1.0", ElemType::F16, 0x3C00);
        scalar("f16:65504", ElemType::F16, 0x7BFF);
        scalar("f16:0.1", ElemType::F16, 0x2E66);
        scalar("f16:-2", ElemType::F16, 0xC000);
        scalar("f16:inf", ElemType::F16, 0x7C00);
        scalar("f16:1e-8", ElemType::F16, 0);
        QTest::newRow("ptr:null") << "ptr:null" << int(ArgSpec::NullPointer) << int(ElemType::I32) << 0ull << 0ull
                                  << int(BufferInit::Zeros);
        buffer("buf:f32:4096:zeros", ElemType::F32, 4096, BufferInit::Zeros);
        buffer("buf:f32:4096:const:1.5", ElemType::F32, 4096, BufferInit::Const);
        buffer("buf:i32:10:iota", ElemType::I32, 10, BufferInit::Iota);
        buffer("buf:f64:8:random:42", ElemType::F64, 8, BufferInit::Random);
        buffer("buf:u64:1:random:0x10", ElemType::U64, 1, BufferInit::Random);
        buffer("buf:u8:3:const:0xff", ElemType::U8, 3, BufferInit::Const);
        buffer("buf:f32:@in.bin", ElemType::F32, 0, BufferInit::RawFile);
        buffer("buf:i16:@C:/data/x.raw", ElemType::I16, 0, BufferInit::RawFile);
        QTest::newRow("buf:@data/x.npy") << "buf:@data/x.npy" << int(ArgSpec::Buffer) << int(ElemType::I32) << 0ull
                                         << 0ull << int(BufferInit::NpyFile);
    }
    void validSpecs() {
        QFETCH(QString, spec);
        QFETCH(int, kind);
        QFETCH(int, type);
        QFETCH(qulonglong, bits);
        QFETCH(qulonglong, count);
        QFETCH(int, init);
        auto r = gpu::parseArgSpec(spec.toStdString());
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(int(r->kind), kind);
        QCOMPARE(r->text, spec.toStdString());
        if (kind == ArgSpec::NullPointer) return;
        QCOMPARE(int(r->type), type);
        if (kind == ArgSpec::Scalar) QCOMPARE(qulonglong(r->bits), bits);
        if (kind == ArgSpec::Buffer) {
            QCOMPARE(qulonglong(r->count), count);
            QCOMPARE(int(r->init.kind), init);
        }
    }

    void bufferDetails() {
        QCOMPARE(parseOk("buf:f32:4:const:1.5").init.constant, 1.5);
        QCOMPARE(parseOk("buf:u8:3:const:0xff").init.constant, 255.0);
        QCOMPARE(parseOk("buf:i64:2:const:-9007199254740992").init.constant, -9007199254740992.0);
        QCOMPARE(parseOk("buf:f64:8:random:42").init.seed, uint64_t(42));
        QCOMPARE(parseOk("buf:f32:@dir/in.bin").init.file, fs::path("dir/in.bin"));
        QCOMPARE(parseOk("buf:@x.NPY").init.file, fs::path("x.NPY"));
    }

    void invalidSpecs_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("problem");
        auto row = [](const char* spec, const char* problem) { QTest::newRow(spec) << spec << problem; };
        row("buf:f32:4096:cons", "unknown initialiser 'cons'; use zeros, const:VALUE, iota or random:SEED");
        row("u8:256", "'256' is out of range for u8 (0 to 255)");
        row("u8:-1", "'-1' is negative, but u8 is unsigned (0 to 255)");
        row("i8:128", "'128' is out of range for i8 (-128 to 127)");
        row("i8:0xff", "'0xff' is out of range for i8 (-128 to 127)");
        row("i16:-32769", "out of range for i16 (-32768 to 32767)");
        row("u32:4294967296", "out of range for u32 (0 to 4294967295)");
        row("i64:9223372036854775808", "out of range for i64 (-9223372036854775808 to 9223372036854775807)");
        row("u64:18446744073709551616", "out of range for u64 (0 to 18446744073709551615)");
        row("i32:1.5", "'1.5' is not an integer (decimal or 0x hex) for i32");
        row("i32:0x", "not an integer");
        row("i32:--1", "not an integer");
        row("i32: 1", "not an integer");
        row("i32:", "missing i32 value");
        row("f32:abc", "'abc' is not a number for f32");
        row("f32:1.5f", "not a number for f32");
        row("f32:0x10", "not a number for f32");
        row("f32:1e40", "'1e40' is out of range for f32 (largest 3.4028235e+38)");
        row("f16:70000", "'70000' is out of range for f16 (largest 65504)");
        row("f64:1e400", "out of range for f64");
        row("float:1",
            "unknown type 'float'; use TYPE:VALUE with TYPE one of i8, i16, i32, i64, u8, u16, "
            "u32, u64, f16, f32 or f64, ptr:null or buf:...");
        row("5", "expected TYPE:VALUE");
        row("", "expected TYPE:VALUE");
        row("ptr:0", "'0' is not a pointer value; use ptr:null");
        row("buf", "missing buffer details");
        row("buf:f33:4:zeros", "unknown element type 'f33'; use i8,");
        row("buf::4:zeros", "missing element type");
        row("buf:f32:0:zeros", "count '0' is not a positive whole number");
        row("buf:f32:-4:zeros", "count '-4' is not a positive whole number");
        row("buf:f32:4k:zeros", "count '4k' is not a positive whole number");
        row("buf:f32:0x10:zeros", "count '0x10' is not a positive whole number");
        row("buf:f32:99999999999999999999999:zeros", "count '99999999999999999999999' is too large");
        row("buf:f64:4611686018427387904:zeros", "is too large");
        row("buf:f32", "missing count and initialiser; use buf:f32:COUNT:INIT");
        row("buf:f32:4", "missing initialiser after the count; use zeros, const:VALUE, iota or random:SEED");
        row("buf:f32:4:", "missing initialiser after the count");
        row("buf:f32:4:const", "const needs a value: const:VALUE");
        row("buf:f32:4:const:", "const needs a value");
        row("buf:f32:4:const:x", "'x' is not a number for f32");
        row("buf:u8:4:const:256", "'256' is out of range for u8 (0 to 255)");
        row("buf:i64:4:const:9007199254740993", "const '9007199254740993' cannot be held exactly");
        row("buf:u64:4:const:18446744073709551615", "cannot be held exactly");
        row("buf:f32:4:random", "random needs a seed: random:SEED");
        row("buf:f32:4:random:-1", "seed: '-1' is negative");
        row("buf:f32:4:random:x", "seed: 'x' is not an integer");
        row("buf:f32:4:zeros:1", "'zeros' takes no value, but ':1' follows it");
        row("buf:f32:4:iota:0", "'iota' takes no value");
        row("buf:@", "missing file name after '@'");
        row("buf:f32:@", "missing file name after '@'");
        row("buf:@data.bin", "'data.bin' is not a .npy file; a raw file needs its element type: buf:TYPE:@FILE");
    }
    void invalidSpecs() {
        QFETCH(QString, spec);
        QFETCH(QString, problem);
        auto r = gpu::parseArgSpec(spec.toStdString());
        QVERIFY(!r);
        const std::string& msg = r.error().message;
        QCOMPARE(r.error().kind, support::ErrorKind::Usage);
        QVERIFY2(msg.starts_with("SPEC '" + spec.toStdString() + "': "), msg.c_str());
        QVERIFY2(msg.find(problem.toStdString()) != std::string::npos, msg.c_str());
    }

    void theWholeMessage() {
        auto r = gpu::parseArgSpec("buf:f32:4096:cons");
        QCOMPARE(r.error().message, std::string("SPEC 'buf:f32:4096:cons': unknown initialiser 'cons'; use "
                                                "zeros, const:VALUE, iota or random:SEED"));
    }

    void formatRoundTrips_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("formatted");
        auto row = [](const char* spec, const char* formatted) { QTest::newRow(spec) << spec << formatted; };
        row("i32:5", "i32:5");
        row("i32:0x10", "i32:16");
        row("i8:-128", "i8:-128");
        row("i64:-9223372036854775808", "i64:-9223372036854775808");
        row("u64:18446744073709551615", "u64:18446744073709551615");
        row("f32:0.1", "f32:0.1");
        row("f32:2.5", "f32:2.5");
        row("f32:3.4028235e38", "f32:3.4028235e+38");
        row("f32:+inf", "f32:inf");
        row("f32:-inf", "f32:-inf");
        row("f32:nan", "f32:nan");
        row("f64:1e-3", "f64:0.001");
        row("f64:0.1", "f64:0.1");
        row("f64:1e300", "f64:1e+300");
        row("f16:0.1", "f16:0.1");
        row("f16:65504", "f16:65504");
        row("f16:1e-7", "f16:1e-07");
        row("ptr:null", "ptr:null");
        row("buf:f32:4096:zeros", "buf:f32:4096:zeros");
        row("buf:f32:4096:const:1.5", "buf:f32:4096:const:1.5");
        row("buf:f32:16:const:0.1", "buf:f32:16:const:0.1");
        row("buf:f16:16:const:0.1", "buf:f16:16:const:0.1");
        row("buf:u8:3:const:0xff", "buf:u8:3:const:255");
        row("buf:i64:2:const:-9007199254740992", "buf:i64:2:const:-9007199254740992");
        row("buf:i32:10:iota", "buf:i32:10:iota");
        row("buf:f64:8:random:0x10", "buf:f64:8:random:16");
        row("buf:u64:8:random:18446744073709551615", "buf:u64:8:random:18446744073709551615");
        row("buf:@dir/x.npy", "buf:@dir/x.npy");
        row("buf:f32:@/abs/in:put.bin", "buf:f32:@/abs/in:put.bin");
    }
    void formatRoundTrips() {
        QFETCH(QString, spec);
        QFETCH(QString, formatted);
        const auto a = parseOk(spec.toStdString());
        const std::string text = gpu::formatArgSpec(a);
        QCOMPARE(QString::fromStdString(text), formatted);
        const auto b = parseOk(text);
        QCOMPARE(int(b.kind), int(a.kind));
        QCOMPARE(int(b.type), int(a.type));
        QCOMPARE(b.count, a.count);
        QCOMPARE(int(b.init.kind), int(a.init.kind));
        QCOMPARE(b.init.seed, a.init.seed);
        QCOMPARE(b.init.file, a.init.file);
        if (spec.endsWith("nan")) {
            QVERIFY(std::isnan(std::bit_cast<float>(uint32_t(b.bits))));
        } else {
            QCOMPARE(b.bits, a.bits);
            QCOMPARE(b.init.constant, a.init.constant);
        }
    }

    void zerosConstAndIota() {
        auto load = [](const std::string& spec) {
            auto arg = parseOk(spec);
            auto r = gpu::loadBuffer(arg, ".");
            if (!r) qFatal("%s", r.error().message.c_str());
            return *r;
        };
        QCOMPARE(load("buf:f32:4:zeros"), std::string(16, '\0'));
        QCOMPARE(elements<float>(load("buf:f32:3:const:1.5")), (std::vector<float>{1.5f, 1.5f, 1.5f}));
        QCOMPARE(elements<float>(load("buf:f32:2:const:0.1")), (std::vector<float>{0.1f, 0.1f}));
        QCOMPARE(elements<int16_t>(load("buf:i16:2:const:-2")), (std::vector<int16_t>{-2, -2}));
        QCOMPARE(elements<uint16_t>(load("buf:f16:2:const:0.1")), (std::vector<uint16_t>{0x2E66, 0x2E66}));
        QCOMPARE(elements<int64_t>(load("buf:i64:1:const:-9007199254740992")),
                 (std::vector<int64_t>{-9007199254740992}));
        QCOMPARE(elements<int32_t>(load("buf:i32:5:iota")), (std::vector<int32_t>{0, 1, 2, 3, 4}));
        QCOMPARE(elements<double>(load("buf:f64:4:iota")), (std::vector<double>{0, 1, 2, 3}));
        QCOMPARE(elements<uint16_t>(load("buf:f16:3:iota")), (std::vector<uint16_t>{0, 0x3C00, 0x4000}));
        const auto u8 = elements<uint8_t>(load("buf:u8:300:iota"));
        QCOMPARE(u8.size(), size_t(300));
        QCOMPARE(int(u8[255]), 255);
        QCOMPARE(int(u8[256]), 0);  // wraps like a C cast
        QCOMPARE(int(u8[299]), 43);
        QCOMPARE(int(elements<int8_t>(load("buf:i8:200:iota"))[128]), -128);
    }

    void randomIsReproducibleAndInRange() {
        auto load = [](const std::string& spec) {
            auto arg = parseOk(spec);
            return *gpu::loadBuffer(arg, ".");
        };
        const auto a = elements<float>(load("buf:f32:1000:random:42"));
        QCOMPARE(a, elements<float>(load("buf:f32:1000:random:42")));
        QVERIFY(a != elements<float>(load("buf:f32:1000:random:43")));
        float lo = 1, hi = 0;
        for (float v : a) {
            QVERIFY(v >= 0.0f && v < 1.0f);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        QVERIFY(lo < 0.01f && hi > 0.99f);
        for (double v : elements<double>(load("buf:f64:1000:random:1"))) QVERIFY(v >= 0.0 && v < 1.0);
        for (uint16_t h : elements<uint16_t>(load("buf:f16:1000:random:1"))) {
            const float v = gpu::halfToFloat(h);
            QVERIFY(v >= 0.0f && v < 1.0f);
        }
        std::set<int32_t> seen;
        for (int32_t v : elements<int32_t>(load("buf:i32:1000:random:7"))) {
            QVERIFY(v >= 0 && v < 100);
            seen.insert(v);
        }
        QVERIFY(seen.size() > 90);
        for (int8_t v : elements<int8_t>(load("buf:i8:100:random:7"))) QVERIFY(v >= 0 && v < 100);
        // Pinned to the documented generator: splitmix64 from seed 0 starts 0xe220a8397b1dcdaf,
        // 0x6e789e6aa1b965f4; from seed 42, 0xbdd732262feb6e95.
        QCOMPARE(elements<uint64_t>(load("buf:u64:2:random:0")), (std::vector<uint64_t>{35, 0}));
        QCOMPARE(elements<double>(load("buf:f64:1:random:42"))[0], double(0xbdd732262feb6e95ull >> 11) * 0x1p-53);
        QCOMPARE(elements<float>(load("buf:f32:1:random:42"))[0], float(double(0xbdd732262feb6e95ull >> 40) * 0x1p-24));
    }

    void rawFiles() {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const std::string twelve("\x00\x00\xc0\x3f\x00\x00\x00\xc0\x00\x00\x80\x3f", 12);
        writeBytes(dir / "in.bin", twelve);
        writeBytes(dir / "odd.bin", std::string(10, 'x'));
        writeBytes(dir / "empty.bin", "");

        auto arg = parseOk("buf:f32:@in.bin");
        auto r = gpu::loadBuffer(arg, dir);
        QVERIFY(r);
        QCOMPARE(*r, twelve);
        QCOMPARE(arg.count, size_t(3));
        QCOMPARE(elements<float>(*r), (std::vector<float>{1.5f, -2.0f, 1.0f}));

        auto i16 = parseOk("buf:i16:@" + (dir / "in.bin").string());  // absolute: baseDir unused
        QVERIFY(gpu::loadBuffer(i16, "/nonexistent"));
        QCOMPARE(i16.count, size_t(6));

        auto odd = parseOk("buf:f32:@odd.bin");
        auto e = gpu::loadBuffer(odd, dir);
        QVERIFY(!e);
        QCOMPARE(e.error().kind, support::ErrorKind::Input);
        QVERIFY2(e.error().message.find((dir / "odd.bin").string() +
                                        ": 10 bytes is not a whole number of f32 elements (4 bytes each)") !=
                     std::string::npos,
                 e.error().message.c_str());

        auto empty = parseOk("buf:u8:@empty.bin");
        QVERIFY(!gpu::loadBuffer(empty, dir));

        auto missing = parseOk("buf:f32:@missing.bin");
        auto m = gpu::loadBuffer(missing, dir);
        QVERIFY(!m);
        QVERIFY(m.error().message.find((dir / "missing.bin").string()) != std::string::npos);
    }

    void npyFiles() {
        const fs::path npy = test::dataDir() / "npy";
        auto arg = parseOk("buf:@i64_2x3.npy");
        auto r = gpu::loadBuffer(arg, npy);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(int(arg.type), int(ElemType::I64));
        QCOMPARE(arg.count, size_t(6));  // 2x3, flat
        QCOMPARE(elements<int64_t>(*r), (std::vector<int64_t>{-3, -2, -1, 0, 1, 2}));
        QCOMPARE(gpu::formatArgSpec(arg), std::string("buf:@i64_2x3.npy"));

        auto scalar = parseOk("buf:@f64_0d.npy");
        QVERIFY(gpu::loadBuffer(scalar, npy));
        QCOMPARE(int(scalar.type), int(ElemType::F64));
        QCOMPARE(scalar.count, size_t(1));

        auto be = parseOk("buf:@be_f4.npy");
        auto e = gpu::loadBuffer(be, npy);
        QVERIFY(!e);
        QVERIFY(e.error().message.find((npy / "be_f4.npy").string()) != std::string::npos);
        QVERIFY(e.error().message.find("big-endian") != std::string::npos);
    }

    void loadingAScalarIsAnError() {
        auto arg = parseOk("i32:5");
        auto r = gpu::loadBuffer(arg, ".");
        QVERIFY(!r);
        QVERIFY(r.error().message.starts_with("SPEC 'i32:5'"));
    }

    void irPointers_data() {
        QTest::addColumn<QString>("ir");
        QTest::addColumn<int>("type");  // -1: none
        auto row = [](const char* ir, int t) { QTest::newRow(ir) << ir << t; };
        row("float*", int(ElemType::F32));
        row("double*", int(ElemType::F64));
        row("half*", int(ElemType::F16));
        row("i1*", int(ElemType::U8));
        row("i16*", int(ElemType::I16));
        row("i32*", int(ElemType::I32));
        row("i64*", int(ElemType::I64));
        row("float addrspace(1)*", int(ElemType::F32));
        row("i32 addrspace(1)*", int(ElemType::I32));
        row(" double  addrspace(3) * ", int(ElemType::F64));
        row("i8*", -1);
        row("i8 addrspace(1)*", -1);
        row("float**", -1);
        row("float addrspace(1)**", -1);
        row("float* addrspace(1)*", -1);
        row("ptr", -1);
        row("ptr addrspace(1)", -1);
        row("float", -1);
        row("i32", -1);
        row("%struct.S*", -1);
        row("<4 x float>*", -1);
        row("[4 x float]*", -1);
        row("", -1);
    }
    void irPointers() {
        QFETCH(QString, ir);
        QFETCH(int, type);
        const auto t = gpu::elemTypeOfIrPointer(ir.toStdString());
        QCOMPARE(t ? int(*t) : -1, type);
    }

    void elemTypes() {
        QCOMPARE(gpu::elemTypeList(), std::string("i8, i16, i32, i64, u8, u16, u32, u64, f16, f32 or f64"));
        for (const char* name : {"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64"}) {
            const auto t = gpu::parseElemType(name);
            QVERIFY(t);
            QCOMPARE(gpu::elemInfo(*t).name, std::string_view(name));
            QCOMPARE(gpu::elemTypeFromNpyDescr(gpu::elemInfo(*t).npyDescr), t);
        }
        QVERIFY(!gpu::parseElemType("float"));
        QCOMPARE(gpu::elemInfo(ElemType::F16).size, size_t(2));
        QCOMPARE(gpu::elemTypeFromNpyDescr("|i1"), std::optional(ElemType::I8));
        QCOMPARE(gpu::elemTypeFromNpyDescr("<i1"), std::optional(ElemType::I8));
        QCOMPARE(gpu::elemTypeFromNpyDescr(">i1"), std::optional(ElemType::I8));
        QCOMPARE(gpu::elemTypeFromNpyDescr("i1"), std::optional(ElemType::I8));
        QCOMPARE(gpu::elemTypeFromNpyDescr("<u1"), std::optional(ElemType::U8));
        QCOMPARE(gpu::elemTypeFromNpyDescr("<f2"), std::optional(ElemType::F16));
        QVERIFY(!gpu::elemTypeFromNpyDescr(">f4"));
        QVERIFY(!gpu::elemTypeFromNpyDescr("f4"));
        QVERIFY(!gpu::elemTypeFromNpyDescr("|b1"));
        QVERIFY(!gpu::elemTypeFromNpyDescr("<c8"));
        QVERIFY(!gpu::elemTypeFromNpyDescr(""));
    }

    void formatElement() {
        auto fmt = [](ElemType t, uint64_t bits) {
            char b[8];
            std::memcpy(b, &bits, 8);  // the tests run little-endian
            return gpu::formatElement(t, b);
        };
        QCOMPARE(fmt(ElemType::I8, 0xFF), std::string("-1"));
        QCOMPARE(fmt(ElemType::U8, 0xFF), std::string("255"));
        QCOMPARE(fmt(ElemType::I16, 0x8000), std::string("-32768"));
        QCOMPARE(fmt(ElemType::U32, 0xFFFFFFFF), std::string("4294967295"));
        QCOMPARE(fmt(ElemType::I64, 0x8000000000000000ull), std::string("-9223372036854775808"));
        QCOMPARE(fmt(ElemType::U64, ~0ull), std::string("18446744073709551615"));
        QCOMPARE(fmt(ElemType::F32, std::bit_cast<uint32_t>(0.1f)), std::string("0.1"));
        QCOMPARE(fmt(ElemType::F32, std::bit_cast<uint32_t>(1.0f / 3)), std::string("0.33333334"));
        QCOMPARE(fmt(ElemType::F32, std::bit_cast<uint32_t>(-2.0f)), std::string("-2"));
        QCOMPARE(fmt(ElemType::F64, std::bit_cast<uint64_t>(0.1)), std::string("0.1"));
        QCOMPARE(fmt(ElemType::F64, std::bit_cast<uint64_t>(1.0 / 3)), std::string("0.3333333333333333"));
        QCOMPARE(fmt(ElemType::F16, 0x2E66), std::string("0.1"));
        QCOMPARE(fmt(ElemType::F16, 0x7BFF), std::string("65504"));
        QCOMPARE(fmt(ElemType::F16, 0x3555), std::string("0.3333"));
        QCOMPARE(fmt(ElemType::F16, 0x7C00), std::string("inf"));
        QCOMPARE(fmt(ElemType::F16, 0xFC00), std::string("-inf"));
        QCOMPARE(fmt(ElemType::F16, 0x7E00), std::string("nan"));
        QCOMPARE(fmt(ElemType::F16, 0x0001), std::string("6e-08"));
    }

    void halfConversions() {
        QCOMPARE(gpu::halfFromDouble(1.0), uint16_t(0x3C00));
        QCOMPARE(gpu::halfFromDouble(65504), uint16_t(0x7BFF));
        QCOMPARE(gpu::halfFromDouble(0.1), uint16_t(0x2E66));
        QCOMPARE(gpu::halfFromDouble(INFINITY), uint16_t(0x7C00));
        QCOMPARE(gpu::halfFromDouble(-INFINITY), uint16_t(0xFC00));
        const uint16_t nan = gpu::halfFromDouble(NAN);
        QVERIFY((nan & 0x7C00) == 0x7C00 && (nan & 0x3FF) != 0);
        QCOMPARE(gpu::halfFromDouble(-0.0), uint16_t(0x8000));
        QCOMPARE(gpu::halfFromDouble(65519), uint16_t(0x7BFF));  // below the tie: rounds down
        QCOMPARE(gpu::halfFromDouble(65520), uint16_t(0x7C00));  // the tie rounds to even: inf
        QCOMPARE(gpu::halfFromDouble(1e10), uint16_t(0x7C00));
        QCOMPARE(gpu::halfFromDouble(1 + 0x1p-11), uint16_t(0x3C00));      // tie, to even
        QCOMPARE(gpu::halfFromDouble(1 + 3 * 0x1p-11), uint16_t(0x3C02));  // tie, to even
        QCOMPARE(gpu::halfFromDouble(0x1p-14), uint16_t(0x0400));          // smallest normal
        QCOMPARE(gpu::halfFromDouble(0x1p-24), uint16_t(0x0001));          // smallest subnormal
        QCOMPARE(gpu::halfFromDouble(0x1p-25), uint16_t(0x0000));          // tie, to even
        QCOMPARE(gpu::halfFromDouble(1.5 * 0x1p-25), uint16_t(0x0001));
        QCOMPARE(gpu::halfFromDouble(0x1.ffcp-15),
                 uint16_t(0x0400));  // subnormal rounding up to normal
        QCOMPARE(gpu::halfFromDouble(1e-300), uint16_t(0));
        QCOMPARE(gpu::halfToFloat(0x3C00), 1.0f);
        QCOMPARE(gpu::halfToFloat(0x7BFF), 65504.0f);
        QCOMPARE(gpu::halfToFloat(0x0001), 0x1p-24f);
        QCOMPARE(gpu::halfToFloat(0x03FF), 0x3FFp-24f);
        QCOMPARE(gpu::halfToFloat(0xC000), -2.0f);
        QVERIFY(std::isinf(gpu::halfToFloat(0x7C00)));
        QVERIFY(std::isnan(gpu::halfToFloat(0x7E00)));
        // Every half survives the trip through float, and through its shortest text.
        for (uint32_t h = 0; h <= 0xFFFF; ++h) {
            if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF)) continue;  // NaNs
            if (gpu::halfFromDouble(gpu::halfToFloat(uint16_t(h))) != h) QFAIL(qPrintable(QString::number(h, 16)));
            const auto spec = parseOk("f16:" + gpu::formatHalf(uint16_t(h)));
            if (spec.bits != h) QFAIL(qPrintable("text " + QString::number(h, 16)));
        }
    }
};

QTEST_APPLESS_MAIN(TestArgSpec)
#include "tst_argspec.moc"
