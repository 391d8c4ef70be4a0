// gpu/Npy: reading NumPy's files (checked-in fixtures written by NumPy) and writing the same bytes.
#include <QtTest>

#include <cstring>
#include <string>

#include "TestSupport.h"
#include "core/gpu/Npy.h"

using namespace nvpg;
using gpu::ElemType;
using gpu::NpyArray;

namespace {

std::string fixture(const char* name) {
    return test::readText(test::dataDir() / "npy" / name);
}

support::Result<NpyArray> readFixture(const char* name) {
    return gpu::readNpy(fixture(name), name);
}

template <class T>
std::vector<T> values(const NpyArray& a) {
    std::vector<T> out(a.data.size() / sizeof(T));
    std::memcpy(out.data(), a.data.data(), a.data.size());
    return out;
}

// A file with a hand-written header (any spacing or key order), version 1.0, unaligned.
std::string handMade(std::string_view header, std::string_view data, int major = 1) {
    std::string out("\x93NUMPY", 6);
    out += char(major);
    out += char(0);
    const size_t n = header.size();
    out += char(n & 0xFF);
    out += char(n >> 8);
    if (major != 1) out += std::string(2, '\0');
    out += header;
    out += data;
    return out;
}

std::string errorOf(const support::Result<NpyArray>& r) {
    return r ? std::string() : r.error().message;
}

}  // namespace

class TestNpy : public QObject {
    Q_OBJECT

private slots:
    void readsNumPyFiles() {
        auto f32 = readFixture("f32_4.npy");
        QVERIFY2(f32, errorOf(f32).c_str());
        QCOMPARE(int(f32->type), int(ElemType::F32));
        QCOMPARE(f32->shape, (std::vector<size_t>{4}));
        QCOMPARE(values<float>(*f32), (std::vector<float>{1.5f, -2.0f, 0.1f, 3e38f}));

        auto i64 = readFixture("i64_2x3.npy");
        QVERIFY2(i64, errorOf(i64).c_str());
        QCOMPARE(int(i64->type), int(ElemType::I64));
        QCOMPARE(i64->shape, (std::vector<size_t>{2, 3}));
        QCOMPARE(i64->count(), size_t(6));
        QCOMPARE(values<int64_t>(*i64), (std::vector<int64_t>{-3, -2, -1, 0, 1, 2}));

        auto u8 = readFixture("u8_5.npy");
        QVERIFY2(u8, errorOf(u8).c_str());
        QCOMPARE(int(u8->type), int(ElemType::U8));
        QCOMPARE(values<uint8_t>(*u8), (std::vector<uint8_t>{0, 1, 127, 128, 255}));

        auto f64 = readFixture("f64_0d.npy");
        QVERIFY2(f64, errorOf(f64).c_str());
        QCOMPARE(int(f64->type), int(ElemType::F64));
        QVERIFY(f64->shape.empty());
        QCOMPARE(f64->count(), size_t(1));
        QCOMPARE(values<double>(*f64), (std::vector<double>{3.25}));
    }

    void readsVersions2And3() {
        QCOMPARE(fixture("i16_v2.npy")[6], '\x02');
        auto i16 = readFixture("i16_v2.npy");
        QVERIFY2(i16, errorOf(i16).c_str());
        QCOMPARE(int(i16->type), int(ElemType::I16));
        QCOMPARE(values<int16_t>(*i16), (std::vector<int16_t>{-1, 2, -3}));

        QCOMPARE(fixture("f16_v3.npy")[6], '\x03');
        auto f16 = readFixture("f16_v3.npy");
        QVERIFY2(f16, errorOf(f16).c_str());
        QCOMPARE(int(f16->type), int(ElemType::F16));
        QCOMPARE(values<uint16_t>(*f16), (std::vector<uint16_t>{0x3C00, 0x7BFF, 0x2E66}));
    }

    void refusals_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("problem");
        QTest::newRow("big-endian") << "be_f4.npy"
                                    << "be_f4.npy: big-endian arrays ('>f4') are not supported; save it "
                                       "little-endian, e.g. np.save(f, a.astype('<f4'))";
        QTest::newRow("fortran") << "fortran_2x3.npy"
                                 << "fortran_2x3.npy: the array (shape (2, 3)) is in Fortran order; kernels "
                                    "get C order, so save np.ascontiguousarray(a)";
        QTest::newRow("bool") << "bool_3.npy"
                              << "bool_3.npy: dtype '|b1' cannot be passed to a kernel";
        QTest::newRow("truncated") << "truncated_f32.npy"
                                   << "truncated_f32.npy: truncated: shape (4,) of '<f4' needs 16 data "
                                      "bytes, the file has 13";
        QTest::newRow("not npy") << "make_fixtures.py"
                                 << "make_fixtures.py: not a .npy file";
    }
    void refusals() {
        QFETCH(QString, file);
        QFETCH(QString, problem);
        const auto r = readFixture(file.toUtf8().constData());
        QVERIFY(!r);
        QCOMPARE(r.error().kind, support::ErrorKind::Input);
        QVERIFY2(r.error().message.find(problem.toStdString()) != std::string::npos, r.error().message.c_str());
    }

    // NumPy 2.x pads the header with spaces so that the data starts on a 64-byte boundary, and
    // leaves 21 - len(str(shape[0])) extra spaces after the dict for in-place growth.
    void writesWhatNumPyWrites() {
        for (const char* name : {"f32_4.npy", "i64_2x3.npy", "u8_5.npy", "f64_0d.npy"}) {
            const std::string numpy = fixture(name);
            auto a = gpu::readNpy(numpy, name);
            QVERIFY2(a, errorOf(a).c_str());
            const std::string ours = gpu::writeNpy(*a);
            QVERIFY2(ours == numpy, name);
            QCOMPARE(numpy.size() - a->data.size(), size_t(128));
        }
        const std::string head = fixture("f32_4.npy").substr(0, 128);
        QCOMPARE(head.substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
        QVERIFY(head.substr(10).starts_with(
            "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }                    "));
        QCOMPARE(head.back(), '\n');
    }

    void roundTripsEveryTypeAndShape() {
        const std::vector<std::vector<size_t>> shapes{{}, {0}, {5}, {2, 3}, {1, 1, 7}, {4096}};
        for (int t = int(ElemType::I8); t <= int(ElemType::F64); ++t) {
            for (const auto& shape : shapes) {
                NpyArray a;
                a.type = ElemType(t);
                a.shape = shape;
                a.data.resize(a.count() * gpu::elemInfo(a.type).size);
                for (size_t i = 0; i < a.data.size(); ++i) a.data[i] = char(i * 37 + 11);
                const std::string file = gpu::writeNpy(a);
                const size_t dataStart = file.size() - a.data.size();
                QCOMPARE(dataStart % 64, size_t(0));
                QCOMPARE(file[dataStart - 1], '\n');
                QCOMPARE(file[6], '\x01');
                auto b = gpu::readNpy(file, "mem.npy");
                QVERIFY2(b, errorOf(b).c_str());
                QCOMPARE(int(b->type), t);
                QCOMPARE(b->shape, shape);
                QCOMPARE(b->data, a.data);
            }
        }
    }

    void hugeHeaderUsesVersion2() {
        NpyArray a;
        a.type = ElemType::U8;
        a.shape.assign(30000, 1);  // ", 1" each: a header over 65535 bytes
        a.data = "x";
        const std::string file = gpu::writeNpy(a);
        QCOMPARE(file[6], '\x02');
        QCOMPARE((file.size() - 1) % 64, size_t(0));
        auto b = gpu::readNpy(file, "big.npy");
        QVERIFY2(b, errorOf(b).c_str());
        QCOMPARE(b->shape.size(), size_t(30000));
        QCOMPARE(b->data, std::string("x"));
    }

    void headersFromOtherWriters() {
        const std::string six(24, '\x01');
        struct Case {
            const char* header;
            std::vector<size_t> shape;
        } cases[] = {
            {"{\"shape\": (2,3), \"fortran_order\": False, \"descr\": \"<i4\"}\n", {2, 3}},
            {"{'fortran_order':False,'shape':(6,),'descr':'<i4',}", {6}},
            {"{ 'descr' : '<i4' , 'fortran_order' : False , 'shape' : ( 2 , 3 , ) }   \n", {2, 3}},
            {"{'descr': '<i4', 'fortran_order': False, 'shape': (2L, 3L), }\n", {2, 3}},
            // Fortran order with one real axis is the same bytes as C order.
            {"{'descr': '<i4', 'fortran_order': True, 'shape': (1, 6), }\n", {1, 6}},
            {"{'descr': '<i4', 'fortran_order': True, 'shape': (6,), }\n", {6}},
        };
        for (const auto& c : cases) {
            auto r = gpu::readNpy(handMade(c.header, six), "hand.npy");
            QVERIFY2(r, (std::string(c.header) + errorOf(r)).c_str());
            QCOMPARE(int(r->type), int(ElemType::I32));
            QCOMPARE(r->shape, c.shape);
        }
        auto v3 = gpu::readNpy(handMade("{'descr': '<i4', 'fortran_order': False, 'shape': (6,)}", six, 3), "v3.npy");
        QVERIFY2(v3, errorOf(v3).c_str());
    }

    void malformedHeaders_data() {
        QTest::addColumn<QString>("header");
        QTest::addColumn<QString>("problem");
        QTest::newRow("structured") << "{'descr': [('a', '<i4'), ('b', '<f4')], 'fortran_order': False, "
                                       "'shape': (3,), }"
                                    << "x.npy: dtype [('a', '<i4'), ('b', '<f4')] is a structured type";
        QTest::newRow("object") << "{'descr': '|O', 'fortran_order': False, 'shape': (3,), }"
                                << "x.npy: dtype '|O' cannot be passed to a kernel";
        QTest::newRow("no shape") << "{'descr': '<i4', 'fortran_order': False}"
                                  << "x.npy: malformed header: it needs 'descr', 'fortran_order' and 'shape'";
        QTest::newRow("not a dict") << "hello"
                                    << "x.npy: malformed header: the header is not a dict";
        QTest::newRow("bad shape") << "{'descr': '<i4', 'fortran_order': False, 'shape': (a,)}"
                                   << "x.npy: malformed header: value of 'shape'";
        QTest::newRow("bad order") << "{'descr': '<i4', 'fortran_order': 0, 'shape': (3,)}"
                                   << "x.npy: malformed header: value of 'fortran_order'";
        QTest::newRow("unclosed") << "{'descr': '<i4', 'fortran_order': False, 'shape': (3,)"
                                  << "x.npy: malformed header";
    }
    void malformedHeaders() {
        QFETCH(QString, header);
        QFETCH(QString, problem);
        auto r = gpu::readNpy(handMade(header.toStdString(), std::string(12, '\0')), "x.npy");
        QVERIFY(!r);
        QVERIFY2(r.error().message.find(problem.toStdString()) != std::string::npos, r.error().message.c_str());
    }

    void otherDamage() {
        const std::string good = fixture("u8_5.npy");
        std::string v4 = good;
        v4[6] = '\x04';
        QVERIFY(errorOf(gpu::readNpy(v4, "v4.npy")).find("format version 4.0 is not supported") != std::string::npos);
        QVERIFY(errorOf(gpu::readNpy(good + "zz", "extra.npy"))
                    .find("unexpected bytes after the data: shape (5,) of '|u1' needs 5 data bytes, the "
                          "file has 7") != std::string::npos);
        QVERIFY(errorOf(gpu::readNpy(good.substr(0, 60), "cut.npy")).find("cut.npy: truncated in the header") !=
                std::string::npos);
        QVERIFY(errorOf(gpu::readNpy(good.substr(0, 9), "tiny.npy")).find("tiny.npy: truncated") != std::string::npos);
        QVERIFY(errorOf(gpu::readNpy("", "empty.npy")).find("empty.npy: not a .npy file") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestNpy)
#include "tst_npy.moc"
