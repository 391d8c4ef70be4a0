// nvpg import numba: three numba-cuda kernels (libdevice math; two arrays and a scalar; 2-D)
// imported into workspaces whose PTX (nvpg compile --emit ptx) is byte for byte what numba's own
// cuda.compile_ptx gives for the same signature and arch, in the same venv; run configurations in
// numba's kernel ABI that fit the kernels' PTX parameters; example inputs from an .npz; and the
// errors: no numba-cuda (exit 2, the pip command), an unknown function or a bad signature (exit 2,
// naming it), a signature numba cannot type the kernel for (exit 1).
//
// numba-cuda comes from PyPI into a venv of the build tree (ctest's python_packages set-up,
// tests/FetchPythonPackages.sh); without it (no network) the tests that need it skip, saying why.
#include <QtTest>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "TestSupport.h"
#include "core/gpu/RunConfig.h"
#include "core/ptx/Ptx.h"
#include "core/support/Symbols.h"

using namespace nvpg;
namespace fs = std::filesystem;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

fs::path venvDir() {
    return test::binaryDir() / "test-python-packages";
}

// The toolkit the tests compile with: numba is given the same (CUDA_HOME), so that its PTX and
// nvpg's come from one libNVVM.
QString cudaHome() {
    fs::path lib = test::realToolkit()->nvvmReport().path.parent_path().parent_path();  // .../lib64/..
    if (lib.filename() == "nvvm") lib = lib.parent_path();
    return QString::fromStdString(lib.string());
}

QProcessEnvironment env() {
    auto e = QProcessEnvironment::systemEnvironment();
    e.insert("CUDA_HOME", cudaHome());
    if (!support::runsFromBuildTree() && !e.contains("NVPG_DATA_DIR"))
        e.insert("NVPG_DATA_DIR", QString::fromStdString((test::sourceDir() / "resources").string()));
    return e;
}

Run runProgram(const QString& program, const QStringList& args, int ms = 300000) {
    QProcess p;
    p.setProcessEnvironment(env());
    p.start(program, args);
    if (!p.waitForFinished(ms)) qFatal("did not finish: %s %s", qPrintable(program), qPrintable(args.join(' ')));
    if (p.exitStatus() != QProcess::NormalExit)
        qFatal("crashed: %s %s", qPrintable(program), qPrintable(args.join(' ')));
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

Run runNvpg(const QStringList& args) {
    return runProgram(QString::fromStdString(test::nvpgPath()), args);
}

QString venvPython() {
    return QString::fromStdString((venvDir() / "bin/python").string());
}

// Empty when the venv is there; else why not.
std::string venvMissing() {
    std::ifstream in(venvDir() / "status");
    std::string status;
    std::getline(in, status);
    if (status.rfind("ok:", 0) == 0) return {};
    return status.empty() ? "the python_packages set-up (tests/FetchPythonPackages.sh) did not run" : status;
}

#define REQUIRE_VENV()                                                     \
    do {                                                                   \
        const auto why = venvMissing();                                    \
        if (!why.empty()) QSKIP(("numba-cuda from PyPI: " + why).c_str()); \
    } while (0)

QByteArray readBytes(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

// While it lives, this process is the subreaper of what its children leave (PID 1 here reaps no
// orphan): a test that makes orphans reaps them with reap().
struct Subreaper {
    Subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 1); }
    ~Subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 0); }
    // Waits up to `ms` for every child to end, reaping each (QProcess's have ended by then).
    static void reap(int ms) {
        for (int waited = 0; waited < ms; waited += 10) {
            while (::waitpid(-1, nullptr, WNOHANG) > 0) {
            }
            if (::waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD) return;
            QThread::msleep(10);
        }
    }
};

void writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) qFatal("cannot write %s", qPrintable(path));
}

QString importFile(const char* name) {
    return QString::fromStdString((test::dataDir() / "numba/import" / name).string());
}

// What numba itself compiles: the file imported as nvpg's helper imports it (a module named after
// the file), then cuda.compile_ptx(kernel.py_func, sig, cc=(9, 0)) as numba's docs show it, with
// the kernel's fastmath.
QByteArray numbaPtx(const QString& file, const QString& function, const QString& sig, const QString& out) {
    const QString script = QStringLiteral(R"(
import importlib.util, os, sys
path, function, sig, out = sys.argv[1:5]
name = os.path.splitext(os.path.basename(path))[0]
sys.path.insert(0, os.path.dirname(path))
spec = importlib.util.spec_from_file_location(name, path)
module = importlib.util.module_from_spec(spec)
sys.modules[name] = module
spec.loader.exec_module(module)
from numba import cuda
f = getattr(module, function)
ptx, _ = cuda.compile_ptx(f.py_func, sig, cc=(9, 0), fastmath=f.targetoptions.get("fastmath", False))
open(out, "w").write(ptx)
)");
    const auto r = runProgram(venvPython(), {"-c", script, file, function, sig, out});
    if (r.exitCode != 0) qFatal("numba's compile_ptx failed: %s", r.err.constData());
    QFile f(out);
    if (!f.open(QIODevice::ReadOnly)) qFatal("no %s", qPrintable(out));
    return f.readAll();
}

// Python's s.strip("\x00").strip().
std::string numbaStrip(std::string s) {
    const auto strip = [&](auto isStripped) {
        size_t b = 0, e = s.size();
        while (b < e && isStripped(s[b])) ++b;
        while (e > b && isStripped(s[e - 1])) --e;
        s = s.substr(b, e - b);
    };
    strip([](char c) { return c == '\0'; });
    strip([](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; });
    return s;
}

// The kernel's PTX parameters, from nvpg compile's PTX.
ptx::Function kernelOf(const std::string& ptxText, const std::string& name) {
    const auto parsed = ptx::readPtx(ptxText);
    if (const auto* f = parsed.find(name)) return *f;
    qFatal("no kernel %s in the PTX", name.c_str());
}

// Imports FUNCTION of FILE for SIG, compiles the workspace with nvpg compile and compares its PTX
// with numba's own; checks the workspace's options, libdevice and that its run configuration fits
// the kernel's PTX parameters. The workspace.
workspace::Workspace importAndCompare(const QTemporaryDir& dir, const QString& file, const QString& function,
                                      const QString& sig,
                                      const std::vector<std::string>& flags = {"-arch=compute_90", "-opt=3"}) {
    const QString ws = dir.filePath(function + ".nvpg");
    const auto imported = runNvpg(
        {"import", "numba", file, function, "--sig", sig, "--arch", "compute_90", "--python", venvPython(), "-o", ws});
    [&] {
        QVERIFY2(imported.exitCode == 0, imported.err.constData());
        QVERIFY2(imported.out.contains("wrote"), imported.out.constData());
    }();
    if (QTest::currentTestFailed()) return {};
    const QString ptxFile = dir.filePath("nvpg.ptx");
    const auto compiled = runNvpg({"compile", ws, "--emit", "ptx", "-o", ptxFile});
    const auto ptxText = compiled.exitCode == 0 ? test::readText(ptxFile.toStdString()) : std::string();
    // numba hands out libNVVM's PTX as ptx.decode().strip("\x00").strip() (its codegen's
    // get_asm_str): the same bytes without the NUL and blank lines at the end. Nothing else is
    // changed on either side.
    const auto ours = numbaStrip(ptxText);
    const auto theirs = numbaPtx(file, function, sig, dir.filePath("numba.ptx")).toStdString();
    auto loaded = workspace::loadWorkspace(ws.toStdString());
    [&] {
        QVERIFY2(compiled.exitCode == 0, compiled.err.constData());
        QVERIFY(ptxText.size() - ours.size() <= 3);
        QVERIFY2(!theirs.empty(), "numba gave no PTX");
        if (ours != theirs) {
            QFile stripped(dir.filePath("nvpg-stripped.ptx"));
            QVERIFY(stripped.open(QIODevice::WriteOnly));
            stripped.write(ours.data(), qint64(ours.size()));
            stripped.close();
            const auto diff = runProgram("/usr/bin/diff", {stripped.fileName(), dir.filePath("numba.ptx")});
            QFAIL(qPrintable("nvpg's PTX differs from numba's:\n" + QString::fromUtf8(diff.out.left(3000))));
        }
        // numba's modules, options and libdevice, and a run configuration in numba's ABI that
        // fits the kernel's PTX parameters.
        QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
        QCOMPARE(loaded->options.flags(), flags);
        QVERIFY(loaded->libdevice);
        QVERIFY(loaded->libdeviceSaved);
        QCOMPARE(loaded->runs.size(), size_t(1));
        const auto& run = loaded->runs.front();
        const auto kernel = kernelOf(ptxText, run.kernel);
        QCOMPARE(kernel.params.size(), run.args.size());
        const auto fits = gpu::checkRunConfig(run, kernel);
        QVERIFY2(fits, fits ? "" : fits.error().message.c_str());
    }();
    return loaded ? *loaded : workspace::Workspace{};
}

}  // namespace

class TestCliNumbaImport : public QObject {
    Q_OBJECT

private slots:
    void ptxEqualsNumbas_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("function");
        QTest::addColumn<QString>("sig");
        QTest::addColumn<int>("params");
        QTest::addColumn<QString>("grid");
        QTest::addColumn<QString>("block");
        // libdevice math: sinf, expf, powf from libdevice; two 1-d arrays, 7 parameters each.
        QTest::newRow("libdevice math") << importFile("math_kernel.py") << "math_kernel"
                                        << "void(float32[::1], float32[::1])" << 14 << "4,1,1"
                                        << "256,1,1";
        // Two arrays and a scalar (and a third array): 3 x 7 + 1.
        QTest::newRow("two arrays and a scalar")
            << importFile("axpy.py") << "axpy"
            << "void(float32[::1], float32, float32[::1], float32[::1])" << 22 << "4,1,1"
            << "256,1,1";
        // 2-D, any layout: 3 x (5 + 2 x 2).
        QTest::newRow("2-D") << importFile("matadd.py") << "matadd"
                             << "void(float32[:,:], float32[:,:], float32[:,:])" << 27 << "2,2,1"
                             << "16,16,1";
    }
    void ptxEqualsNumbas() {
        REQUIRE_VENV();
        QFETCH(QString, file);
        QFETCH(QString, function);
        QFETCH(QString, sig);
        QFETCH(int, params);
        QFETCH(QString, grid);
        QFETCH(QString, block);
        QTemporaryDir dir;
        const auto loaded = importAndCompare(dir, file, function, sig);
        if (QTest::currentTestFailed()) return;
        const auto& run = loaded.runs.front();
        QCOMPARE(int(run.args.size()), params);
        QCOMPARE(QString("%1,%2,%3").arg(run.grid.x).arg(run.grid.y).arg(run.grid.z), grid);
        QCOMPARE(QString("%1,%2,%3").arg(run.block.x).arg(run.block.y).arg(run.block.z), block);
        // Each array: null meminfo and parent, nitems, itemsize, the data, shape, strides (bytes).
        QCOMPARE(gpu::formatArgSpec(run.args[0]), std::string("ptr:null"));
        QCOMPARE(gpu::formatArgSpec(run.args[1]), std::string("ptr:null"));
        QCOMPARE(gpu::formatArgSpec(run.args[2]), std::string("i64:1024"));
        QCOMPARE(gpu::formatArgSpec(run.args[3]), std::string("i64:4"));
        QCOMPARE(gpu::formatArgSpec(run.args[4]), std::string("buf:f32:1024:zeros"));
        if (function == "matadd") {
            QCOMPARE(gpu::formatArgSpec(run.args[5]), std::string("i64:32"));
            QCOMPARE(gpu::formatArgSpec(run.args[6]), std::string("i64:32"));
            QCOMPARE(gpu::formatArgSpec(run.args[7]), std::string("i64:128"));
            QCOMPARE(gpu::formatArgSpec(run.args[8]), std::string("i64:4"));
        } else {
            QCOMPARE(gpu::formatArgSpec(run.args[5]), std::string("i64:1024"));
            QCOMPARE(gpu::formatArgSpec(run.args[6]), std::string("i64:4"));
        }
        if (function == "axpy") QCOMPARE(gpu::formatArgSpec(run.args[7]), std::string("f32:1"));
        // The notes name the kernel as people read it, the signature and how to import again.
        const auto& notes = loaded.description;
        const auto demangled = support::demangle(run.kernel);
        QVERIFY(demangled);
        QVERIFY2(notes.find(*demangled) != std::string::npos, notes.c_str());
        QVERIFY2(notes.find(sig.toStdString()) != std::string::npos, notes.c_str());
        QVERIFY2(notes.find("nvpg import numba") != std::string::npos, notes.c_str());
    }

    // Scalars of other types and a Fortran-ordered 3-D array, as numba's _prepare_args passes
    // them: bool as a byte, complex64 as two floats, float16 as the u16 of its bits; strides in
    // bytes with the first extent fastest; the launch in 8x8x4 blocks over the 3-D array.
    void otherArgumentKinds() {
        REQUIRE_VENV();
        QTemporaryDir dir;
        const auto ws = importAndCompare(
            dir, importFile("kinds.py"), "kinds",
            "void(float64[::1], boolean, int8, uint16, complex64, float16, float64, float32[::1,:,:])");
        if (QTest::currentTestFailed()) return;
        const auto& run = ws.runs.front();
        std::vector<std::string> specs;
        for (const auto& a : run.args) specs.push_back(gpu::formatArgSpec(a));
        const std::vector<std::string> want = {"ptr:null",
                                               "ptr:null",
                                               "i64:1024",
                                               "i64:8",
                                               "buf:f64:1024:zeros",
                                               "i64:1024",
                                               "i64:8",
                                               "u8:1",
                                               "i8:1",
                                               "u16:1",
                                               "f32:1",
                                               "f32:0",
                                               "u16:15360",
                                               "f64:1",
                                               "ptr:null",
                                               "ptr:null",
                                               "i64:1024",
                                               "i64:4",
                                               "buf:f32:1024:zeros",
                                               "i64:16",
                                               "i64:8",
                                               "i64:8",
                                               "i64:4",
                                               "i64:64",
                                               "i64:512"};
        QCOMPARE(specs, want);
        QCOMPARE(run.grid, (gpu::Dim3{2, 1, 2}));
        QCOMPARE(run.block, (gpu::Dim3{8, 8, 4}));
    }

    // A @cuda.jit(fastmath=True) kernel: numba's fast-math flags become the workspace's options.
    void fastMathKeepsTheKernelsOptions() {
        REQUIRE_VENV();
        QTemporaryDir dir;
        importAndCompare(dir, importFile("fast_math.py"), "fast_math", "void(float32[::1], float32[::1])",
                         {"-arch=compute_90", "-opt=3", "-ftz=1", "-prec-div=0", "-prec-sqrt=0", "-fma=1"});
    }

    // --args: the arrays go beside the workspace as .npy, with their shapes and strides; scalars
    // take their values; the launch covers the arrays.
    void exampleInputs() {
        REQUIRE_VENV();
        QTemporaryDir dir;
        const QString npz = dir.filePath("in.npz");
        const auto made = runProgram(venvPython(), {"-c",
                                                    "import numpy as np, sys\n"
                                                    "np.savez(sys.argv[1], r=np.zeros(5000, np.float32), "
                                                    "a=np.float32(2.5), x=np.arange(5000, dtype=np.float32), "
                                                    "y=np.ones(5000, np.float32), extra=np.zeros(3))\n"
                                                    "np.savez(sys.argv[2], np.zeros((100, 60), np.float32), "
                                                    "np.ones((100, 60), np.float32), "
                                                    "np.arange(6000, dtype=np.float32).reshape(100, 60))\n",
                                                    npz, dir.filePath("mat.npz")});
        QVERIFY2(made.exitCode == 0, made.err.constData());

        const QString ws = dir.filePath("ax.nvpg");
        const auto r = runNvpg({"import", "numba", importFile("axpy.py"), "axpy", "--sig",
                                "void(float32[::1], float32, float32[::1], float32[::1])", "--arch", "compute_90",
                                "--python", venvPython(), "--args", npz, "-o", ws});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("extra"), r.err.constData());  // the entry no argument took
        QVERIFY(QFile::exists(dir.filePath("ax.x.npy")));
        auto loaded = workspace::loadWorkspace(ws.toStdString());
        QVERIFY(loaded);
        const auto& run = loaded->runs.front();
        QCOMPARE(run.grid.x, 20u);  // 5000 / 256, rounded up
        QCOMPARE(gpu::formatArgSpec(run.args[2]), std::string("i64:5000"));
        QCOMPARE(gpu::formatArgSpec(run.args[4]), std::string("buf:@ax.r.npy"));
        QCOMPARE(gpu::formatArgSpec(run.args[7]), std::string("f32:2.5"));
        QCOMPARE(gpu::formatArgSpec(run.args[12]), std::string("buf:@ax.x.npy"));
        // The buffer holds the array.
        auto x = run.args[12];
        auto bytes = gpu::loadBuffer(x, dir.path().toStdString());
        QVERIFY(bytes);
        QCOMPARE(bytes->size(), size_t(5000 * 4));
        float f = 0;
        std::memcpy(&f, bytes->data() + 4 * 4999, 4);
        QCOMPARE(f, 4999.0f);
        QVERIFY(workspace::filesOutsideFolder(loaded->runs, dir.path().toStdString()).empty());

        const QString mat = dir.filePath("m.nvpg");
        const auto m = runNvpg({"import", "numba", importFile("matadd.py"), "matadd", "--sig",
                                "void(float32[:,:], float32[:,:], float32[:,:])", "--arch", "compute_90", "--python",
                                venvPython(), "--args", dir.filePath("mat.npz"), "-o", mat});
        QVERIFY2(m.exitCode == 0, m.err.constData());
        auto mws = workspace::loadWorkspace(mat.toStdString());
        QVERIFY(mws);
        const auto& mrun = mws->runs.front();
        QCOMPARE(mrun.grid, (gpu::Dim3{7, 4, 1}));  // 100 x 60 in 16 x 16 blocks
        QCOMPARE(gpu::formatArgSpec(mrun.args[2]), std::string("i64:6000"));
        QCOMPARE(gpu::formatArgSpec(mrun.args[4]), std::string("buf:@m.c.npy"));
        QCOMPARE(gpu::formatArgSpec(mrun.args[5]), std::string("i64:100"));
        QCOMPARE(gpu::formatArgSpec(mrun.args[6]), std::string("i64:60"));
        QCOMPARE(gpu::formatArgSpec(mrun.args[7]), std::string("i64:240"));
        QCOMPARE(gpu::formatArgSpec(mrun.args[8]), std::string("i64:4"));
    }

    // A Python without numba-cuda: exit 2, naming that Python and the pip command.
    void withoutNumba() {
        QTemporaryDir dir;
        const QString bare = dir.filePath("bare");
        const auto made = runProgram("/usr/bin/env", {"python3", "-m", "venv", "--without-pip", bare});
        if (made.exitCode != 0) QSKIP(qPrintable("python3 -m venv failed: " + QString::fromUtf8(made.err)));
        const QString python = bare + "/bin/python";
        const auto r = runNvpg({"import", "numba", importFile("axpy.py"), "axpy", "--sig", "void(float32[::1])",
                                "--arch", "compute_90", "--python", python, "-o", dir.filePath("x.nvpg")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("numba-cuda is not installed for " + python.toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("pip install \"numba-cuda[cu13]\""), r.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("x.nvpg")));

        const auto none =
            runNvpg({"import", "numba", importFile("axpy.py"), "axpy", "--sig", "void(float32[::1])", "--arch",
                     "compute_90", "--python", dir.filePath("nothing/python"), "-o", dir.filePath("x.nvpg")});
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains("nothing/python"), none.err.constData());
    }

    // What the user got wrong is named: exit 2 for the request, 1 when numba cannot compile it.
    void errors() {
        REQUIRE_VENV();
        QTemporaryDir dir;
        const auto import = [&](const QString& file, const QString& function, const QString& sig) {
            return runNvpg({"import", "numba", file, function, "--sig", sig, "--arch", "compute_90", "--python",
                            venvPython(), "-o", dir.filePath("x.nvpg")});
        };
        const auto unknown = import(importFile("axpy.py"), "saxpy", "void(float32[::1])");
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("has no function saxpy") && unknown.err.contains("it has axpy"),
                 unknown.err.constData());

        const auto badSig = import(importFile("axpy.py"), "axpy", "void(floot32[::1])");
        QCOMPARE(badSig.exitCode, 2);
        QVERIFY2(badSig.err.contains("void(floot32[::1])") && badSig.err.contains("not one numba reads"),
                 badSig.err.constData());

        const auto count = import(importFile("axpy.py"), "axpy", "void(float32[::1])");
        QCOMPARE(count.exitCode, 2);
        QVERIFY2(count.err.contains("has 1 argument(s) but axpy(r, a, x, y) takes 4"), count.err.constData());

        // x is a scalar here, so x[i] does not type.
        const auto typing = import(importFile("math_kernel.py"), "math_kernel", "void(float32[::1], float32)");
        QCOMPARE(typing.exitCode, 1);
        QVERIFY2(typing.err.contains("numba could not compile math_kernel"), typing.err.constData());

        // numba-cuda and a numpy it does not work with: numba's error, the versions and the way out.
        const auto mismatch = import(importFile("numpy_mismatch.py"), "fill", "void(float32[::1])");
        QCOMPARE(mismatch.exitCode, 1);
        QVERIFY2(mismatch.err.contains("AttributeError: module 'numpy' has no attribute 'row_stack'"),
                 mismatch.err.constData());
        QVERIFY2(mismatch.err.contains("do not work together") && mismatch.err.contains("numpy 2.") &&
                     mismatch.err.contains("pip install \"numpy<2.5\""),
                 mismatch.err.constData());

        const auto missing = import(dir.filePath("nope.py"), "axpy", "void(float32[::1])");
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("nope.py: no such file"), missing.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("x.nvpg")));

        // Example inputs that do not fit the signature are named; those of a kernel numba could not
        // compile are not written.
        const QString npz = dir.filePath("bad.npz");
        const auto made = runProgram(venvPython(), {"-c",
                                                    "import numpy as np, sys\n"
                                                    "np.savez(sys.argv[1], out=np.zeros(8, np.float64), "
                                                    "x=np.zeros(8, np.float32))\n",
                                                    npz});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const auto dtype = runNvpg({"import", "numba", importFile("math_kernel.py"), "math_kernel", "--sig",
                                    "void(float32[::1], float32[::1])", "--arch", "compute_90", "--python",
                                    venvPython(), "--args", npz, "-o", dir.filePath("x.nvpg")});
        QCOMPARE(dtype.exitCode, 2);
        QVERIFY2(dtype.err.contains("out holds float64, but out is array(float32, 1d, C)"), dtype.err.constData());
        const auto failed = runNvpg({"import", "numba", importFile("math_kernel.py"), "math_kernel", "--sig",
                                     "void(float32[::1], float32)", "--arch", "compute_90", "--python", venvPython(),
                                     "--args", npz, "-o", dir.filePath("x.nvpg")});
        QCOMPARE(failed.exitCode, 1);
        QVERIFY(QDir(dir.path()).entryList({"*.npy"}).isEmpty());

        // An existing workspace is kept unless --force.
        QFile existing(dir.filePath("x.nvpg"));
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.close();
        const auto kept = import(importFile("axpy.py"), "axpy", "void(float32[::1])");
        QCOMPARE(kept.exitCode, 2);
        QVERIFY2(kept.err.contains("--force"), kept.err.constData());
    }
    // The workspace and the arrays of --args never replace a file the import reads, --force or
    // not: -o onto the Python file (by its name or through a link), onto the .npz, and an array
    // whose .npy name is a link to the Python file.
    void outputsNeverReplaceInputs() {
        QTemporaryDir dir;
        const QString good = dir.filePath("good.py");
        QVERIFY(QFile::copy(importFile("axpy.py"), good));
        const auto source = readBytes(good);
        const QString npz = dir.filePath("in.npz");
        writeBytes(npz, "PK not really");
        QVERIFY(QFile::link(good, dir.filePath("link.nvpg")));
        const QString sig = "void(float32[::1], float32, float32[::1], float32[::1])";
        for (const auto& [output, input] : {std::pair{good, QString("the Python file")},
                                            {dir.filePath("./sub/../good.py"), QString("the Python file")},
                                            {dir.filePath("link.nvpg"), QString("the Python file")},
                                            {npz, QString("the --args file")}}) {
            QDir(dir.path()).mkpath("sub");
            const auto r = runNvpg({"import", "numba", good, "axpy", "--sig", sig, "--arch", "compute_90", "--args",
                                    npz, "-o", output, "--force"});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(input.toUtf8() + " ") && r.err.contains("would replace it") &&
                         r.err.contains("-o axpy.nvpg"),
                     r.err.constData());
            QCOMPARE(readBytes(good), source);
        }

        REQUIRE_VENV();
        const auto made = runProgram(venvPython(), {"-c",
                                                    "import numpy as np, sys\n"
                                                    "np.savez(sys.argv[1], r=np.zeros(64, np.float32), "
                                                    "x=np.ones(64, np.float32), y=np.ones(64, np.float32))\n",
                                                    npz});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        QVERIFY(QFile::link(good, dir.filePath("ax.x.npy")));
        const auto r = runNvpg({"import", "numba", good, "axpy", "--sig", sig, "--arch", "compute_90", "--python",
                                venvPython(), "--args", npz, "-o", dir.filePath("ax.nvpg")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("ax.x.npy is the Python file") && r.err.contains("an array of --args"),
                 r.err.constData());
        QCOMPARE(readBytes(good), source);
        QVERIFY(!QFile::exists(dir.filePath("ax.nvpg")));
        QCOMPARE(QDir(dir.path()).entryList({".nvpg-numba-*"}, QDir::AllEntries | QDir::Hidden), QStringList());
    }

    // A file that starts a process of its own (a new session, holding the output pipe) does not
    // hold the import: it ends once numba has answered, and names the process it left.
    void detachedProcessDoesNotHoldTheImport() {
        REQUIRE_VENV();
        Subreaper subreaper;
        QTemporaryDir dir;
        const QString file = dir.filePath("detach.py");
        writeBytes(file,
                   "import subprocess\n"
                   "subprocess.Popen(['sleep', '60'], start_new_session=True)\n"
                   "from numba import cuda\n\n"
                   "@cuda.jit\n"
                   "def fill(r):\n"
                   "    i = cuda.grid(1)\n"
                   "    if i < r.size:\n"
                   "        r[i] = 1.0\n");
        QElapsedTimer clock;
        clock.start();
        const auto r = runNvpg({"import", "numba", file, "fill", "--sig", "void(float32[::1])", "--arch", "compute_90",
                                "--python", venvPython(), "--timeout", "60", "-o", dir.filePath("fill.nvpg")});
        const auto seconds = clock.elapsed() / 1000.0;
        const QRegularExpression pid("left a process running when it was imported \\(pid (\\d+): sleep 60\\)");
        const auto m = pid.match(QString::fromUtf8(r.err));
        if (m.hasMatch()) ::kill(m.captured(1).toInt(), SIGKILL);
        Subreaper::reap(5000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(seconds < 30, qPrintable(QString("the import took %1 s").arg(seconds)));
        QVERIFY2(m.hasMatch(), r.err.constData());
        QVERIFY(QFile::exists(dir.filePath("fill.nvpg")));

        // A file that fails after starting one: the error names it too.
        writeBytes(file,
                   "import subprocess\n"
                   "subprocess.Popen(['sleep', '61'], start_new_session=True)\n"
                   "raise RuntimeError('no kernel here')\n");
        const auto failed =
            runNvpg({"import", "numba", file, "fill", "--sig", "void(float32[::1])", "--arch", "compute_90", "--python",
                     venvPython(), "--timeout", "60", "-o", dir.filePath("failed.nvpg")});
        const QRegularExpression pid61("left a process running \\(pid (\\d+): sleep 61\\)");
        const auto m61 = pid61.match(QString::fromUtf8(failed.err));
        if (m61.hasMatch()) ::kill(m61.captured(1).toInt(), SIGKILL);
        Subreaper::reap(5000);
        QCOMPARE(failed.exitCode, 2);
        QVERIFY2(failed.err.contains("no kernel here") && m61.hasMatch(), failed.err.constData());
    }

    // How the helper ended is said: the signal that killed it, the output cap it ran over, and a
    // --sig that is not UTF-8 (the byte and where).
    void helperEndsAreNamed() {
        QTemporaryDir dir;
        // A byte 0xFF cannot travel through QProcess's QString arguments: a shell puts it there.
        const auto notUtf8 = runProgram(
            "/bin/sh", {"-c",
                        "exec \"$0\" import numba \"$1\" axpy --sig \"$(printf "
                        "'void(float32\\377)')\" --arch compute_90 -o \"$2\"",
                        QString::fromStdString(test::nvpgPath()), importFile("axpy.py"), dir.filePath("x.nvpg")});
        QCOMPARE(notUtf8.exitCode, 2);
        QVERIFY2(notUtf8.err.contains("--sig has a byte 0xFF at offset 12 that is not UTF-8"), notUtf8.err.constData());

        REQUIRE_VENV();
        const auto import = [&](const QByteArray& text) {
            writeBytes(dir.filePath("k.py"), text +
                                                 "\nfrom numba import cuda\n\n@cuda.jit\ndef k(r):\n"
                                                 "    r[0] = 1.0\n");
            return runNvpg({"import", "numba", dir.filePath("k.py"), "k", "--sig", "void(float32[::1])", "--arch",
                            "compute_90", "--python", venvPython(), "-o", dir.filePath("x.nvpg")});
        };
        const auto killed = import("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n");
        QVERIFY(killed.exitCode != 0);
        QVERIFY2(killed.err.contains("killed by signal 9 (SIGKILL)"), killed.err.constData());
        QVERIFY2(!killed.err.contains("status -2"), killed.err.constData());

        const auto loud = import("import sys\nsys.stdout.write('x' * 20_000_000)\n");
        QCOMPARE(loud.exitCode, 2);
        QVERIFY2(loud.err.contains("printed more than 4 MiB") && loud.err.contains("print less"),
                 loud.err.left(2000).constData());
        QVERIFY2(!loud.err.contains("BrokenPipe") && !loud.err.contains("status -2"), loud.err.left(2000).constData());
        QVERIFY(!QFile::exists(dir.filePath("x.nvpg")));
    }

    // SIGTERM in the middle of an import removes its temporary answer file.
    void stopSignalRemovesTemporaries() {
        Subreaper subreaper;
        QTemporaryDir dir;
        const QString tmp = dir.filePath("tmp");
        QVERIFY(QDir().mkpath(tmp));
        // A Python that takes its time (as a file that sleeps at import would).
        const QString slow = dir.filePath("slow-python");
        writeBytes(slow, "#!/bin/sh\nexec sleep 30\n");
        QFile(slow).setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QProcess p;
        auto e = env();
        e.insert("TMPDIR", tmp);
        p.setProcessEnvironment(e);
        p.start(QString::fromStdString(test::nvpgPath()),
                {"import", "numba", importFile("axpy.py"), "axpy", "--sig", "void(float32[::1])", "--arch",
                 "compute_90", "--python", slow, "-o", dir.filePath("x.nvpg")});
        QVERIFY(p.waitForStarted());
        QElapsedTimer clock;
        clock.start();
        while (QDir(tmp).entryList({"nvpg-numba-*"}, QDir::Files).isEmpty() && clock.elapsed() < 20000)
            QThread::msleep(20);
        QVERIFY2(!QDir(tmp).entryList({"nvpg-numba-*"}, QDir::Files).isEmpty(), "the import made no answer file");
        QThread::msleep(200);  // the helper is running
        p.terminate();         // SIGTERM
        QVERIFY(p.waitForFinished(20000));
        Subreaper::reap(5000);  // the slow Python, killed as nvpg ended
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        QCOMPARE(QDir(tmp).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestCliNumbaImport)
#include "tst_cli_numba_import.moc"
