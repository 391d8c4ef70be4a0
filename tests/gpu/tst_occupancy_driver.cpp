// Core's theoretical occupancy against the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor,
// on every kernel of every bundled example compiled for the local GPU: they must be equal.
#include <QtTest>

#include <fmt/format.h>

#include "TestSupport.h"
#include "core/gpu/ArchLimits.h"
#include "core/gpu/Occupancy.h"
#include "core/nvvm/Options.h"
#include "core/pipeline/Pipeline.h"
#include "core/ptx/Ptxas.h"
#include "core/workspace/Examples.h"
#include "core/workspace/Workspace.h"

using namespace nvpg;

class TestOccupancyDriver : public QObject {
    Q_OBJECT

    std::shared_ptr<const toolkit::Driver> driver_;
    CUdevice dev_ = 0;
    CUcontext ctx_ = nullptr;

    void check(CUresult r, const char* what) {
        if (r != CUDA_SUCCESS) QFAIL(qPrintable(QString("%1: %2").arg(what, driver_->errorName(r).c_str())));
    }

private slots:
    void initTestCase() {
        auto driver = test::realToolkit()->driver();
        if (!driver) QSKIP(qPrintable(QString::fromStdString("no CUDA driver here: " + driver.error().message)));
        driver_ = *driver;
        int count = 0;
        if (driver_->api.deviceGetCount(&count) != CUDA_SUCCESS || count == 0) QSKIP("no GPU here");
        if (!test::realToolkit()->ptxas()) QSKIP("no ptxas in the toolkit: no figures to compare");
        check(driver_->api.deviceGet(&dev_, 0), "cuDeviceGet");
        check(driver_->api.primaryCtxRetain(&ctx_, dev_), "cuDevicePrimaryCtxRetain");
        check(driver_->api.ctxSetCurrent(ctx_), "cuCtxSetCurrent");
    }

    void cleanupTestCase() {
        if (ctx_) driver_->api.primaryCtxRelease(dev_);
    }

    void everyExampleKernelAgreesWithTheDriver() {
        const auto& api = driver_->api;
        int major = 0, minor = 0;
        check(api.deviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev_), "major");
        check(api.deviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev_), "minor");
        auto limits = gpu::ArchLimits::forArch(fmt::format("{}.{}", major, minor));
        QVERIFY2(limits, limits ? "" : limits.error().message.c_str());
        // The row's figures are the GPU's own.
        int smem = 0, optin = 0, reserved = 0, threads = 0, blocks = 0, regs = 0;
        check(api.deviceGetAttribute(&smem, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, dev_), "smem");
        check(api.deviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev_), "optin");
        check(api.deviceGetAttribute(&reserved, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, dev_), "rsv");
        check(api.deviceGetAttribute(&threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, dev_), "threads");
        check(api.deviceGetAttribute(&blocks, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, dev_), "blocks");
        check(api.deviceGetAttribute(&regs, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, dev_), "regs");
        QCOMPARE(size_t(smem), limits->sharedPerSM);
        QCOMPARE(size_t(optin), limits->sharedPerBlockOptIn);
        QCOMPARE(size_t(reserved), limits->reservedSharedPerBlock);
        QCOMPARE(threads, limits->maxThreadsPerSM());
        QCOMPARE(blocks, limits->maxBlocksPerSM);
        QCOMPARE(regs, limits->registersPerSM);

        const auto tk = test::realToolkit();
        int kernels = 0, compared = 0;
        for (const auto& example : workspace::listExamples(test::examplesDir())) {
            auto ws = workspace::loadWorkspace(example.path);
            QVERIFY2(ws, ws ? "" : ws.error().message.c_str());
            pipeline::Pipeline p(tk);
            pipeline::Job job;
            job.modules = ws->modules;
            job.libdevice = ws->libdevice;
            job.options = ws->options;
            job.options.arch.reset();  // the local GPU's
            job.outputs = pipeline::kPtx;
            auto r = p.run(job);
            QVERIFY2(r && r->ok, qPrintable(QString::fromStdString(example.name)));
            // The cubin the figures are of: ptxas of the whole PTX, as the driver would load it.
            const auto run = ptx::assembleWholeProgram(*tk->ptxas(), r->ptx, nvvm::smArchFor(r->arch));
            QVERIFY2(run.ok, run.error.c_str());
            CUmodule module = nullptr;
            check(api.moduleLoadDataEx(&module, run.cubin.data(), 0, nullptr, nullptr), "cuModuleLoadDataEx");
            for (const auto& k : r->kernels) {
                const ptx::ResourceUsage* usage = nullptr;
                for (const auto& u : run.usage)
                    if (u.isEntry && u.function == k.name) usage = &u;
                QVERIFY2(usage, k.name.c_str());
                CUfunction f = nullptr;
                check(api.moduleGetFunction(&f, module, k.name.c_str()), "cuModuleGetFunction");
                int numRegs = 0, sharedBytes = 0;
                check(api.funcGetAttribute(&numRegs, CU_FUNC_ATTRIBUTE_NUM_REGS, f), "NUM_REGS");
                check(api.funcGetAttribute(&sharedBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f), "SHARED_SIZE_BYTES");
                QCOMPARE(numRegs, usage->registers);
                QCOMPARE(sharedBytes, usage->sharedBytes);
                ++kernels;
                for (int block : {32, 64, 128, 256, 512, 768, 1024})
                    for (size_t dynamic : {size_t(0), size_t(16384)}) {
                        int driverBlocks = -1;
                        check(api.occupancyMaxActiveBlocksPerMultiprocessor(&driverBlocks, f, block, dynamic),
                              "cuOccupancyMaxActiveBlocksPerMultiprocessor");
                        gpu::OccupancyInput in;
                        in.registers = usage->registers;
                        in.staticShared = size_t(usage->sharedBytes);
                        in.barriers = usage->barriers;
                        in.dynamicShared = dynamic;
                        in.blockSize = block;
                        auto ours = gpu::computeOccupancy(*limits, in);
                        QVERIFY(ours);
                        qInfo("%s %s: %d regs, %d B static, block %d, dynamic %zu: ours %d, driver %d",
                              example.name.c_str(), k.name.c_str(), usage->registers, usage->sharedBytes, block,
                              dynamic, ours->activeBlocks, driverBlocks);
                        QCOMPARE(ours->activeBlocks, driverBlocks);
                        ++compared;
                    }
            }
            api.moduleUnload(module);
        }
        qInfo("%d kernels, %d launches: core's occupancy equals the driver's", kernels, compared);
        QVERIFY(kernels > 0);
    }
};

QTEST_GUILESS_MAIN(TestOccupancyDriver)
#include "tst_occupancy_driver.moc"
