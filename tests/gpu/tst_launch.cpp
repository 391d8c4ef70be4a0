// Kernels on the local GPU through the run path both front ends use (engine::Runner): exact
// results, libdevice accuracy, LTO cubins, and recovery from a faulting or hung kernel.
#include <QtTest>

#include <cmath>
#include <cstring>

#include "TestSupport.h"
#include "core/engine/Runner.h"
#include "core/gpu/Npy.h"
#include "core/nvvm/IrVersion.h"
#include "core/pipeline/Pipeline.h"
#include "core/workspace/NewModule.h"
#include "core/workspace/Workspace.h"

using namespace nvpg;

namespace {

struct Compiled {
    pipeline::CompileResult result;
    std::vector<gpu::RunConfig> runs;
};

Compiled compile(std::vector<nvvm::Module> modules, bool libdevice, unsigned outputs = pipeline::kPtx) {
    pipeline::Pipeline p(test::realToolkit());
    pipeline::Job job;
    job.modules = std::move(modules);
    job.libdevice = libdevice;
    job.outputs = outputs;
    auto r = p.run(job);
    if (!r || !r->ok)
        qFatal("compile failed: %s", r ? r->diagnostics.at(0).message.c_str() : r.error().message.c_str());
    return {std::move(*r), {}};
}

Compiled compileExample(const char* name, unsigned outputs = pipeline::kPtx) {
    auto ws = workspace::loadWorkspace(test::examplesDir() / (std::string(name) + ".nvpg"));
    if (!ws) qFatal("%s", ws.error().message.c_str());
    auto c = compile(ws->modules, ws->libdevice, outputs);
    c.runs = ws->runs;
    return c;
}

nvvm::Module gpuFixture(const char* name) {
    return {name, test::readText(test::dataDir() / "ir/gpu" / name), false};
}

std::vector<float> floats(const gpu::BufferOut& b) {
    std::vector<float> v(b.count);
    std::memcpy(v.data(), b.bytes.data(), b.bytes.size());
    return v;
}

gpu::RunConfig config(const char* kernel, unsigned grid, unsigned block, std::vector<std::string> specs) {
    gpu::RunConfig c;
    c.kernel = kernel;
    c.grid = {grid, 1, 1};
    c.block = {block, 1, 1};
    for (const auto& s : specs) c.args.push_back(*gpu::parseArgSpec(s));
    return c;
}

// Distance in units in the last place between two finite floats of the same sign region.
int64_t ulpDistance(float a, float b) {
    int32_t ia, ib;
    std::memcpy(&ia, &a, 4);
    std::memcpy(&ib, &b, 4);
    if (ia < 0) ia = int32_t(0x80000000u - uint32_t(ia));
    if (ib < 0) ib = int32_t(0x80000000u - uint32_t(ib));
    return std::llabs(int64_t(ia) - int64_t(ib));
}

}  // namespace

class TestLaunch : public QObject {
    Q_OBJECT

    std::unique_ptr<engine::Runner> runner_;

    void expectSaxpyExact() {
        auto c = compileExample("saxpy");
        auto out = runner_->run(c.result, c.runs.at(0), ".");
        QVERIFY2(out, out ? "" : out.error().message.c_str());
        QCOMPARE(int(out->buffers.size()), 2);
        const auto y = floats(out->buffers[1]);
        QCOMPARE(int(y.size()), 4096);
        for (int i = 0; i < 4096; ++i) QCOMPARE(y[size_t(i)], 2.0f * float(i) + 1.0f);
    }

private slots:
    void initTestCase() {
        // The engine process is nvpg's.
        runner_ = std::make_unique<engine::Runner>(test::realToolkit(), 0,
                                                   std::vector<std::string>{test::nvpgPath(), "engine"});
        std::string why;
        if (!runner_->gpuAvailable(&why)) QSKIP(qPrintable(QString::fromStdString("no usable GPU here: " + why)));
    }

    void saxpyIsExact() { expectSaxpyExact(); }

    void timingsAreReported() {
        auto c = compileExample("saxpy");
        auto cfg = c.runs.at(0);
        cfg.repeat = 5;
        auto out = runner_->run(c.result, cfg, ".");
        QVERIFY2(out, out ? "" : out.error().message.c_str());
        QCOMPARE(int(out->launchMs.size()), 5);
        QVERIFY(out->kernelMs > 0);
        QCOMPARE(out->bytesIn, size_t(5 * 2 * 4096 * 4));  // both buffers, before every launch
        QCOMPARE(out->bytesOut, size_t(2 * 4096 * 4));
        QVERIFY(!out->device.empty());
    }

    void libdeviceSinfIsWithinTwoUlpOfTheHost() {
        auto c = compile({gpuFixture("sin_array.ll")}, /*libdevice=*/true);
        QTemporaryDir dir;
        const int n = 1 << 16;
        gpu::NpyArray x;
        x.type = gpu::ElemType::F32;
        x.shape = {size_t(n)};
        x.data.resize(size_t(n) * 4);
        std::vector<float> xs(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) xs[size_t(i)] = -100.0f + 200.0f * float(i) / float(n);
        std::memcpy(x.data.data(), xs.data(), x.data.size());
        QVERIFY(support::writeFileAtomic(dir.filePath("x.npy").toStdString(), gpu::writeNpy(x)));
        auto out = runner_->run(
            c.result,
            config("sin_array", n / 256, 256,
                   {std::to_string(n).insert(0, "i32:"), "buf:@x.npy", "buf:f32:" + std::to_string(n) + ":zeros"}),
            dir.path().toStdString());
        QVERIFY2(out, out ? "" : out.error().message.c_str());
        const auto s = floats(out->buffers.at(1));
        int64_t worst = 0;
        for (int i = 0; i < n; ++i) {
            const float host = float(std::sin(double(xs[size_t(i)])));  // correctly rounded reference
            worst = std::max(worst, ulpDistance(s[size_t(i)], host));
        }
        qInfo("__nv_sinf vs host over [-100, 100): at most %lld ulp", (long long)worst);
        QVERIFY(worst <= 2);
    }

    void twoModuleExampleRuns() {
        auto c = compileExample("two-modules");
        const auto cfg = c.runs.at(0);  // fade(n, lo=0.25, hi=0.75, x random, out)
        auto out = runner_->run(c.result, cfg, ".");
        QVERIFY2(out, out ? "" : out.error().message.c_str());
        const auto x = floats(out->buffers.at(0));
        const auto y = floats(out->buffers.at(1));
        for (size_t i = 0; i < x.size(); ++i) {
            const double t = std::clamp((double(x[i]) - 0.25) / 0.5, 0.0, 1.0);
            const double expect = t * t * (3.0 - 2.0 * t);
            QVERIFY2(std::abs(double(y[i]) - expect) < 1e-6, qPrintable(QString("x=%1 y=%2").arg(x[i]).arg(y[i])));
        }
    }

    void newModuleTemplateRunsAsItIs() {
        // Module > New Module's kernel with its own run configuration, from the PTX and from the
        // LTO cubin (its @llvm.used keeps it there): data[i] = i * 2.
        const auto tk = test::realToolkit();
        const auto t = workspace::newModuleTemplate("module.ll", {}, nvvm::irVersionOf(*tk));
        auto c = compile({t.module}, false, pipeline::kPtx | pipeline::kLtoPtx | pipeline::kCubin);
        for (bool fromLto : {false, true}) {
            auto cfg = t.run;
            cfg.fromLto = fromLto;
            auto out = runner_->run(c.result, cfg, ".");
            QVERIFY2(out, out ? "" : out.error().message.c_str());
            const auto d = floats(out->buffers.at(0));
            QCOMPARE(int(d.size()), 1024);
            for (size_t i = 0; i < d.size(); ++i) QCOMPARE(d[i], 2.0f * float(i));
        }
    }

    void ltoCubinRuns() {
        auto c = compileExample("lto-kept", pipeline::kPtx | pipeline::kLtoPtx | pipeline::kCubin);
        const auto cfg = c.runs.at(0);  // scale from LTO: data[i] *= 3
        QVERIFY(cfg.fromLto);
        auto out = runner_->run(c.result, cfg, ".");
        QVERIFY2(out, out ? "" : out.error().message.c_str());
        const auto d = floats(out->buffers.at(0));
        for (size_t i = 0; i < d.size(); ++i) QCOMPARE(d[i], 3.0f * float(i));
    }

    void outOfBoundsIsNamedAndTheNextRunWorks() {
        auto c = compile({gpuFixture("oob.ll")}, false);
        auto out = runner_->run(c.result, config("oob", 1, 1, {"buf:f32:16:zeros"}), ".");
        QVERIFY(!out);
        QCOMPARE(out.error().kind, support::ErrorKind::Run);
        qInfo("%s", out.error().message.c_str());
        QVERIFY(out.error().message.find("CUDA_ERROR_ILLEGAL_ADDRESS") != std::string::npos);
        QVERIFY(out.error().message.find("kernel oob") != std::string::npos);
        expectSaxpyExact();
    }

    void hungKernelIsStoppedAndTheNextRunWorks() {
        auto c = compile({gpuFixture("spin.ll")}, false);
        auto cfg = config("spin", 1, 1, {"buf:i32:1:zeros"});
        cfg.timeoutSeconds = 2;
        QElapsedTimer t;
        t.start();
        auto out = runner_->run(c.result, cfg, ".");
        QVERIFY(!out);
        qInfo("after %lld ms: %s", t.elapsed(), out.error().message.c_str());
        QCOMPARE(out.error().kind, support::ErrorKind::Timeout);  // not a fault: it ran out of time
        QVERIFY(out.error().message.find("did not finish within 2 s") != std::string::npos);
        expectSaxpyExact();
    }
};

QTEST_GUILESS_MAIN(TestLaunch)
#include "tst_launch.moc"
