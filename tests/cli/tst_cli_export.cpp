// nvpg export: for every bundled example and numba-cuda fixture (and two-modules in separate LTO
// mode), the exported cuda.core script (run with cuda.core from PyPI, CPU only) and the exported C
// program (built with CMake and the system's C compiler against the tests' toolkit) write PTX and
// LTO-linked PTX byte for byte equal to nvpg compile's, before they look for a GPU, and say so
// when there is none (exit 3). What cuda.core cannot express is a warning and a comment; the run's
// buffers are the .npy files the code reads; bad requests are refused with what to do.
// The launch itself is tests/gpu/tst_export.cpp's (on a GPU machine).
#include <QtTest>

#include <algorithm>
#include <cstring>

#include "ExportSupport.h"
#include "core/gpu/Npy.h"

using namespace nvpg;
using namespace nvpg::test::exporting;

namespace {

#define REQUIRE_VENV()                                                    \
    do {                                                                  \
        const auto why = venvMissing();                                   \
        if (!why.empty()) QSKIP(("cuda.core from PyPI: " + why).c_str()); \
    } while (0)

QByteArray compiled(const QStringList& inputs, const QStringList& more = {}) {
    const auto r = runNvpg(QStringList{"compile"} + inputs + more);
    if (r.exitCode != 0) qFatal("nvpg compile failed: %s", r.err.constData());
    return r.out;
}

Run exportTo(const QString& as, const QStringList& inputs, const QString& dir, const QStringList& more = {}) {
    return runNvpg(QStringList{"export", "--as", as} + inputs + QStringList{"-o", dir} + more);
}

void addCaseRows() {
    QTest::addColumn<QStringList>("inputs");
    for (const auto& [name, inputs] : cases()) QTest::newRow(name.c_str()) << inputs;
    QTest::newRow("example two-modules, LTO mode separate") << QStringList{"two-modules", "--lto-mode", "separate"};
}

// The exported code's outputs against nvpg compile's; `ltoCarried`: the LTO link's options all
// reached it.
void compareOutputs(const QStringList& inputs, const QString& out, const QString& stem, bool ltoCarried) {
    QCOMPARE(readAll(out + "/" + stem + ".ptx"), compiled(inputs));
    QVERIFY(QFile::exists(out + "/" + stem + ".cubin"));
    if (ltoCarried) QCOMPARE(readAll(out + "/" + stem + ".lto.ptx"), compiled(inputs, {"--emit", "lto-ptx"}));
}

// 0, or 3 with the words that say there is no GPU (this machine has none, or the code found none).
void ranOrSaidNoGpu(const Run& r) {
    if (r.exitCode == 3) {
        QVERIFY2(r.err.contains("no GPU to launch"), r.err.constData());
        return;
    }
    QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
}

}  // namespace

class TestCliExport : public QObject {
    Q_OBJECT

private slots:
    void cudaCoreScriptMakesNvpgsPtx_data() { addCaseRows(); }
    void cudaCoreScriptMakesNvpgsPtx() {
        REQUIRE_VENV();
        QFETCH(QStringList, inputs);
        QTemporaryDir dir;
        const auto code = dir.filePath("code");
        const auto exported = exportTo("cuda-core", inputs, code, {"--lto"});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        const auto script = codeFile(code, "py");
        QVERIFY(exported.out.contains(("wrote " + code + "/" + script).toUtf8()));
        // Run from elsewhere: the script finds its modules beside itself.
        const auto ran = runProgram(venvPython(), {code + "/" + script, dir.filePath("out")}, dir.path());
        ranOrSaidNoGpu(ran);
        // cuda-core 1.2 cannot pass nvJitLink -ftz, -fma, -prec-div or -prec-sqrt (the warning
        // says so): the LTO PTX is compared where the link got all of its options.
        const bool ltoCarried = !exported.err.contains("not carried to cuda.core: nvJitLink's");
        compareOutputs(inputs, dir.filePath("out"), script.chopped(3), ltoCarried);
    }

    void cProgramMakesNvpgsPtx_data() { addCaseRows(); }
    void cProgramMakesNvpgsPtx() {
        if (const auto why = cProgramCannotBeBuilt()) QSKIP(qPrintable(*why));
        QFETCH(QStringList, inputs);
        QTemporaryDir dir;
        const auto code = dir.filePath("code");
        const auto exported = exportTo("c", inputs, code, {"--lto"});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        QVERIFY2(!exported.err.contains("not carried"), exported.err.constData());  // C carries everything
        QString why;
        const auto program = buildC(code, &why);
        QVERIFY2(program, qPrintable(why));
        const auto ran = runProgram(*program, {dir.filePath("out")}, dir.path());
        ranOrSaidNoGpu(ran);
        compareOutputs(inputs, dir.filePath("out"), codeFile(code, "c").chopped(2), /*ltoCarried=*/true);
    }

    void withoutARunNoGpuIsNeeded() {
        REQUIRE_VENV();
        QTemporaryDir dir;
        const auto exported = exportTo("cuda-core", {"saxpy"}, dir.filePath("code"), {"--no-run"});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        const auto script = readAll(dir.filePath("code/saxpy.py"));
        QVERIFY(!script.contains("launch_kernel"));
        QVERIFY(!script.contains("numpy"));
        QVERIFY(!QDir(dir.filePath("code/inputs")).exists());
        const auto ran = runProgram(venvPython(), {dir.filePath("code/saxpy.py"), dir.filePath("out")});
        QVERIFY2(ran.exitCode == 0, ran.err.constData());
        QCOMPARE(readAll(dir.filePath("out/saxpy.ptx")), compiled({"saxpy"}));
    }

    void whatCudaCoreCannotSayIsWarnedAndCommented() {
        QTemporaryDir dir;
        const auto exported = exportTo("cuda-core", {"saxpy"}, dir.filePath("code"),
                                       {"--jump-table-density", "5", "--no-verify", "--nvvm-flag=-generate-line-info"});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        const auto script = readAll(dir.filePath("code/saxpy.py"));
        QList<QByteArray> warnings;
        for (const auto& l : exported.err.split('\n'))
            if (l.startsWith("nvpg: warning: not carried to cuda.core: ")) warnings << l;
        QCOMPARE(warnings.size(), 3);
        for (const char* what : {"-jump-table-density=5", "verify off", "-generate-line-info"}) {
            QVERIFY2(
                std::any_of(warnings.begin(), warnings.end(), [&](const QByteArray& l) { return l.contains(what); }),
                exported.err.constData());
            const auto at = script.indexOf(what);
            QVERIFY2(at >= 0 && at < script.indexOf("import sys"), what);  // in the head comment
        }
        // The C program passes them as written: no warning.
        const auto c = exportTo("c", {"saxpy"}, dir.filePath("c"),
                                {"--jump-table-density", "5", "--no-verify", "--nvvm-flag=-generate-line-info"});
        QVERIFY2(c.exitCode == 0 && !c.err.contains("not carried"), c.err.constData());
        const auto program = readAll(dir.filePath("c/saxpy.c"));
        QVERIFY(program.contains("\"-jump-table-density=5\","));
        QVERIFY(program.contains("\"-generate-line-info\","));
        QVERIFY(program.contains("static const int verify = 0;"));
    }

    void theRunsBuffersAreTheInputs() {
        // saxpy's run: i32:4096 f32:2 buf:f32:4096:iota buf:f32:4096:const:1, on 16 blocks of 256.
        QTemporaryDir dir;
        QVERIFY(exportTo("cuda-core", {"saxpy", "--arch", "compute_90"}, dir.filePath("py")).exitCode == 0);
        QVERIFY(exportTo("c", {"saxpy", "--arch", "compute_90"}, dir.filePath("c")).exitCode == 0);
        for (const char* sub : {"py", "c"}) {
            QVERIFY(!QFile::exists(dir.filePath(QString(sub) + "/inputs/arg0.npy")));  // scalars are in the code
            const auto iota = gpu::readNpy(readAll(dir.filePath(QString(sub) + "/inputs/arg2.npy")).toStdString(), "x");
            const auto ones = gpu::readNpy(readAll(dir.filePath(QString(sub) + "/inputs/arg3.npy")).toStdString(), "y");
            QVERIFY(iota && ones);
            QCOMPARE(iota->type, gpu::ElemType::F32);
            QCOMPARE(iota->count(), size_t(4096));
            std::vector<float> v(4096), w(4096);
            std::memcpy(v.data(), iota->data.data(), iota->data.size());
            std::memcpy(w.data(), ones->data.data(), ones->data.size());
            QCOMPARE(v[0], 0.0f);
            QCOMPARE(v[4095], 4095.0f);
            QCOMPARE(w[17], 1.0f);
        }
        const auto script = readAll(dir.filePath("py/saxpy.py"));
        for (const char* line : {"    np.int32(4096),  # i32:4096", "    np.float32(\"2\"),  # f32:2",
                                 "    \"inputs/arg2.npy\",  # buf:f32:4096:iota", "GRID = (16, 1, 1)",
                                 "BLOCK = (256, 1, 1)", "arch=\"compute_90\"", "device_code_optimize=True", "fma=True"})
            QVERIFY2(script.contains(line), line);
        const auto program = readAll(dir.filePath("c/saxpy.c"));
        for (const char* line : {"static const uint32_t arg0 = 0x1000u; /* i32 4096 */",
                                 "static const uint32_t arg1 = 0x40000000u; /* f32 2 */",
                                 "cu.LaunchKernel(kernel, 16, 1, 1, 256, 1, 1, 0u, NULL, params, NULL)",
                                 "\"-arch=compute_90\",", "\"-opt=3\",", "\"-fma=1\","})
            QVERIFY2(program.contains(line), line);
    }

    void refusesWhatItCannotExport() {
        QTemporaryDir dir;
        const auto code = dir.filePath("code");
        QCOMPARE(exportTo("cuda-core", {"saxpy"}, code).exitCode, 0);
        // Files already there are replaced only with --force.
        auto again = exportTo("cuda-core", {"saxpy"}, code);
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.err.contains("saxpy.py exists; give --force"), again.err.constData());
        QCOMPARE(exportTo("cuda-core", {"saxpy"}, code, {"--force"}).exitCode, 0);

        auto noConfig = exportTo("c", {"saxpy"}, dir.filePath("x"), {"--config", "nope"});
        QCOMPARE(noConfig.exitCode, 2);
        QVERIFY2(noConfig.err.contains("no run configuration nope in saxpy; it has saxpy 4096"),
                 noConfig.err.constData());
        auto both = exportTo("c", {"saxpy"}, dir.filePath("x"), {"--config", "saxpy 4096", "--no-run"});
        QCOMPARE(both.exitCode, 2);
        auto ontoFile = exportTo("c", {"saxpy"}, code + "/saxpy.py");
        QCOMPARE(ontoFile.exitCode, 2);
        QVERIFY2(ontoFile.err.contains("saxpy.py is a file; give a folder"), ontoFile.err.constData());
        auto bogus = exportTo("rust", {"saxpy"}, dir.filePath("x"));
        QCOMPARE(bogus.exitCode, 2);
        QVERIFY(!QDir(dir.filePath("x")).exists());

        // What does not compile is not exported: the diagnostics, exit 1, nothing written.
        const auto bad = dir.filePath("bad.ll");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("define void @k() {\n  ret i32 0\n}\n");
        f.close();
        auto broken = exportTo("c", {bad}, dir.filePath("y"));
        QCOMPARE(broken.exitCode, 1);
        QVERIFY2(broken.err.contains("nothing exported: the program does not compile"), broken.err.constData());
        QVERIFY(!QDir(dir.filePath("y")).exists());
        auto noWorkspace = exportTo("c", {bad}, dir.filePath("y"), {"--config", "a"});
        QCOMPARE(noWorkspace.exitCode, 2);
        QVERIFY2(noWorkspace.err.contains("run configurations come from a workspace"), noWorkspace.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliExport)
#include "tst_cli_export.moc"
