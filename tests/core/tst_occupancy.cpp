// Theoretical occupancy (gpu::computeOccupancy) over the built-in arch limits table: NVIDIA's
// worked examples, and every row against the toolkit's own calculator, cuda_occupancy.h.
#include <QtTest>

#include <cuda_occupancy.h>

#include <algorithm>
#include <map>
#include <string>

#include "TestSupport.h"
#include "core/gpu/ArchLimits.h"
#include "core/gpu/Occupancy.h"
#include "core/nvvm/Options.h"
#include "core/pipeline/OccupancyReport.h"

using namespace nvpg;

namespace {

const gpu::ArchLimits& row(const char* arch) {
    static std::map<std::string, gpu::ArchLimits> rows;
    auto it = rows.find(arch);
    if (it == rows.end()) {
        auto r = gpu::ArchLimits::forArch(arch);
        if (!r) qFatal("%s", r.error().message.c_str());
        it = rows.emplace(arch, std::move(*r)).first;
    }
    return it->second;
}

// Compute capability 7.0 as the Programming Guide's compute capability table gives it. libNVVM
// 13.0 no longer compiles for it, so the table has no row, but the Best Practices Guide's worked
// example is on it.
gpu::ArchLimits volta() {
    gpu::ArchLimits a = row("compute_75");
    a.arch = "compute_70";
    a.major = 7;
    a.minor = 0;
    a.maxWarpsPerSM = 64;
    a.maxBlocksPerSM = 32;
    a.sharedPerSM = 96 * 1024;
    a.sharedPerBlockOptIn = 96 * 1024;
    a.sharedCarveouts = {0, 8 * 1024, 16 * 1024, 32 * 1024, 64 * 1024, 96 * 1024};
    return a;
}

gpu::Occupancy occupancy(const gpu::ArchLimits& a, int registers, int block, size_t staticShared = 0,
                         size_t dynamicShared = 0) {
    gpu::OccupancyInput in;
    in.registers = registers;
    in.blockSize = block;
    in.staticShared = staticShared;
    in.dynamicShared = dynamicShared;
    auto o = gpu::computeOccupancy(a, in);
    if (!o) qFatal("%s", o.error().message.c_str());
    return *o;
}

// cuda_occupancy.h's device description, filled from our row only.
cudaOccDeviceProp occProp(const gpu::ArchLimits& a) {
    cudaOccDeviceProp p;
    p.computeMajor = a.major;
    p.computeMinor = a.minor;
    p.maxThreadsPerBlock = a.maxThreadsPerBlock;
    p.maxThreadsPerMultiprocessor = a.maxThreadsPerSM();
    p.regsPerBlock = a.registersPerBlock;
    p.regsPerMultiprocessor = a.registersPerSM;
    p.warpSize = a.warpSize;
    p.sharedMemPerBlock = a.sharedPerBlock;
    p.sharedMemPerMultiprocessor = a.sharedPerSM;
    p.numSms = 1;
    p.sharedMemPerBlockOptin = a.sharedPerBlockOptIn;
    p.reservedSharedMemPerBlock = a.reservedSharedPerBlock;
    return p;
}

unsigned limitersOf(unsigned occ) {
    unsigned bits = 0;
    if (occ & OCC_LIMIT_WARPS) bits |= gpu::kLimitWarps;
    if (occ & OCC_LIMIT_REGISTERS) bits |= gpu::kLimitRegisters;
    if (occ & OCC_LIMIT_SHARED_MEMORY) bits |= gpu::kLimitSharedMemory;
    if (occ & OCC_LIMIT_BLOCKS) bits |= gpu::kLimitBlocks;
    if (occ & OCC_LIMIT_BARRIERS) bits |= gpu::kLimitBarriers;
    return bits;
}

}  // namespace

class TestOccupancy : public QObject {
    Q_OBJECT

private slots:
    void everyArchLibnvvmListsHasARow() {
        // compute_90a and compute_100f use their base arch's row.
        for (const auto& arch : nvvm::supportedArchs(13)) {
            auto r = gpu::ArchLimits::forArch(arch);
            QVERIFY2(r, qPrintable(QString::fromStdString(arch + ": " + (r ? "" : r.error().message))));
            const std::string base = arch.back() == 'a' || arch.back() == 'f' ? arch.substr(0, arch.size() - 1) : arch;
            QCOMPARE(QString::fromStdString(r->arch), QString::fromStdString(base));
            QVERIFY(r->source.find("Programming Guide") != std::string::npos);
        }
        QCOMPARE(gpu::ArchLimits::forArch("sm_90")->arch, std::string("compute_90"));
        QCOMPARE(gpu::ArchLimits::forArch("9.0")->arch, std::string("compute_90"));
        QCOMPARE(gpu::ArchLimits::forArch("12.1")->arch, std::string("compute_121"));
    }

    void unknownArchIsAUsageErrorNamingTheTable() {
        for (const char* arch : {"compute_70", "compute_91", "banana", "", "compute_", "9.x"}) {
            auto r = gpu::ArchLimits::forArch(arch);
            QVERIFY(!r);
            QCOMPARE(r.error().kind, support::ErrorKind::Usage);
            QVERIFY(r.error().message.find("compute_75") != std::string::npos);
        }
    }

    // The H100/H200 (9.0) as its driver reports it: cudaDevAttrMaxSharedMemoryPerMultiprocessor
    // 233472, ...PerBlockOptin 232448, reserved 1024, 2048 threads and 32 blocks per SM.
    void hopperRowIsTheDriversFigures() {
        const auto& a = row("compute_90");
        QCOMPARE(a.sharedPerSM, size_t(233472));
        QCOMPARE(a.sharedPerBlockOptIn, size_t(232448));
        QCOMPARE(a.reservedSharedPerBlock, size_t(1024));
        QCOMPARE(a.sharedPerBlock, size_t(49152));
        QCOMPARE(a.maxThreadsPerSM(), 2048);
        QCOMPARE(a.maxBlocksPerSM, 32);
        QCOMPARE(a.registersPerSM, 65536);
        QCOMPARE(a.sharedAllocationUnit, 128);
        QCOMPARE(row("compute_75").reservedSharedPerBlock, size_t(0));
        QCOMPARE(row("compute_86").maxThreadsPerSM(), 1536);
    }

    // CUDA C++ Best Practices Guide, "Calculating Occupancy": on compute capability 7.0 a kernel of
    // 37 registers per thread has 75% occupancy with 128-thread blocks (12 blocks per SM) and 63%
    // with 320-thread blocks (4 blocks per SM); registers are what limits it.
    void bestPracticesGuideWorkedExample() {
        const auto a = volta();
        const auto small = occupancy(a, 37, 128);
        QCOMPARE(small.activeBlocks, 12);
        QCOMPARE(small.activeWarps, 48);
        QCOMPARE(small.occupancy, 0.75);
        QCOMPARE(small.limiters, unsigned(gpu::kLimitRegisters));
        const auto large = occupancy(a, 37, 320);
        QCOMPARE(large.activeBlocks, 4);
        QCOMPARE(large.activeWarps, 40);
        QCOMPARE(qRound(large.occupancy * 100), 63);
        QCOMPARE(large.limiters, unsigned(gpu::kLimitRegisters));
        // Same guide: 100% occupancy on 7.0 allows at most 32 registers per thread.
        QCOMPARE(occupancy(a, 32, 256).occupancy, 1.0);
        QVERIFY(occupancy(a, 33, 256).occupancy < 1.0);
    }

    // Worked by hand from the table and cuda_occupancy.h's rules, on the H200's arch.
    void hopperByHand() {
        const auto& a = row("compute_90");
        // 255 registers: 8160 per warp -> 8192; 16384 per sub-partition hold 2 warps, 8 per SM.
        auto o = occupancy(a, 255, 256);
        QCOMPARE(o.activeBlocks, 1);
        QCOMPARE(o.activeWarps, 8);
        QCOMPARE(o.limiters, unsigned(gpu::kLimitRegisters));
        // 48 KiB static shared + 1 KiB reserved: 4 blocks in the 228 KiB carve-out.
        o = occupancy(a, 16, 128, 48 * 1024);
        QCOMPARE(o.activeBlocks, 4);
        QCOMPARE(o.sharedPerBlock, size_t(49 * 1024));
        QCOMPARE(o.limiters, unsigned(gpu::kLimitSharedMemory));
        // Small blocks: the 32-blocks limit; 1024 threads: the warps limit, twice.
        QCOMPARE(occupancy(a, 16, 32).limiters, unsigned(gpu::kLimitBlocks));
        QCOMPARE(occupancy(a, 16, 32).occupancy, 0.5);
        o = occupancy(a, 32, 1024);
        QCOMPARE(o.activeBlocks, 2);
        QCOMPARE(o.limiters, unsigned(gpu::kLimitWarps | gpu::kLimitRegisters));
        // More shared memory than a block may have without opting in: it cannot run.
        o = occupancy(a, 16, 128, 0, 60 * 1024);
        QCOMPARE(o.activeBlocks, 0);
        QCOMPARE(o.limiters, unsigned(gpu::kLimitSharedMemory));
    }

    void badInputIsAUsageError() {
        const auto& a = row("compute_90");
        for (int block : {0, -32, 1025}) {
            gpu::OccupancyInput in;
            in.blockSize = block;
            auto o = gpu::computeOccupancy(a, in);
            QVERIFY(!o);
            QCOMPARE(o.error().kind, support::ErrorKind::Usage);
        }
        gpu::OccupancyInput in;
        in.blockSize = 128;
        in.carveoutPercent = 101;
        QVERIFY(!gpu::computeOccupancy(a, in));
    }

    void sweepCoversEveryWarpMultiple() {
        gpu::OccupancyInput in;
        in.registers = 40;
        auto s = gpu::occupancySweep(row("compute_89"), in);
        QVERIFY(s);
        QCOMPARE(int(s->size()), 32);
        QCOMPARE(s->front().blockSize, 32);
        QCOMPARE(s->back().blockSize, 1024);
        for (const auto& o : *s) QCOMPARE(o.activeBlocks, occupancy(row("compute_89"), 40, o.blockSize).activeBlocks);
    }

    void limiterNamesInOrder() {
        QCOMPARE(gpu::limiterNames(gpu::kLimitSharedMemory | gpu::kLimitWarps), std::string("warps, shared memory"));
        QCOMPARE(gpu::limiterNames(0), std::string());
    }

    // Every row x block sizes 32..1024 x registers x dynamic shared memory x carve-outs, against
    // the toolkit's calculator given the same row: active blocks and the limiters must agree.
    void agreesWithCudaOccupancyHeaderEverywhere() {
        int compared = 0;
        for (const auto& a : gpu::ArchLimits::builtIn()) {
            const auto prop = occProp(a);
            for (int block = 32; block <= 1024; block += 32)
                for (int regs : {0, 16, 32, 37, 64, 128, 255})
                    for (size_t dynamic : {size_t(0), size_t(16384)})
                        for (size_t staticShared : {size_t(0), size_t(1000), size_t(20000)})
                            for (int carveout : {-1, 0, 50, 100})
                                for (int barriers : {0, 1, 3}) {
                                    if (carveout != -1 && (regs != 37 || barriers != 1)) continue;  // fewer runs
                                    cudaOccFuncAttributes attr;
                                    attr.maxThreadsPerBlock = 1024;
                                    attr.numRegs = regs;
                                    attr.sharedSizeBytes = staticShared;
                                    attr.numBlockBarriers = barriers;
                                    cudaOccDeviceState state;
                                    state.carveoutConfig = carveout;
                                    cudaOccResult expect{};
                                    QCOMPARE(cudaOccMaxActiveBlocksPerMultiprocessor(&expect, &prop, &attr, &state,
                                                                                     block, dynamic),
                                             CUDA_OCC_SUCCESS);
                                    gpu::OccupancyInput in;
                                    in.registers = regs;
                                    in.blockSize = block;
                                    in.staticShared = staticShared;
                                    in.dynamicShared = dynamic;
                                    in.barriers = barriers;
                                    if (carveout >= 0) in.carveoutPercent = carveout;
                                    auto got = gpu::computeOccupancy(a, in);
                                    QVERIFY(got);
                                    const auto where = QString("%1 block %2 regs %3 static %4 dynamic %5 carveout %6")
                                                           .arg(QString::fromStdString(a.arch))
                                                           .arg(block)
                                                           .arg(regs)
                                                           .arg(staticShared)
                                                           .arg(dynamic)
                                                           .arg(carveout);
                                    QVERIFY2(got->activeBlocks == expect.activeBlocksPerMultiprocessor,
                                             qPrintable(where + QString(": ours %1, cuda_occupancy.h %2")
                                                                    .arg(got->activeBlocks)
                                                                    .arg(expect.activeBlocksPerMultiprocessor)));
                                    // What each resource alone allows, as the header says.
                                    QCOMPARE(got->byWarps, expect.blockLimitWarps);
                                    QCOMPARE(got->byRegisters, expect.blockLimitRegs);
                                    QCOMPARE(got->bySharedMemory, expect.blockLimitSharedMem);
                                    QCOMPARE(got->byBlocks, expect.blockLimitBlocks);
                                    QCOMPARE(got->byBarriers, expect.blockLimitBarriers);
                                    // The header names its other limiters before it counts barriers,
                                    // so where barriers lower the count it also names limits that
                                    // no longer bind; we name only those equal to the count.
                                    unsigned expectBits = limitersOf(expect.limitingFactors);
                                    const int before = std::min({expect.blockLimitWarps, expect.blockLimitRegs,
                                                                 expect.blockLimitSharedMem, expect.blockLimitBlocks});
                                    if (expect.blockLimitBarriers < before) expectBits = gpu::kLimitBarriers;
                                    QVERIFY2(got->limiters == expectBits,
                                             qPrintable(where + QString(" barriers %1: ours %2, header %3")
                                                                    .arg(barriers)
                                                                    .arg(got->limiters)
                                                                    .arg(expectBits)));
                                    QCOMPARE(got->registersPerBlock, expect.allocatedRegistersPerBlock);
                                    QCOMPARE(got->sharedPerBlock, expect.allocatedSharedMemPerBlock);
                                    ++compared;
                                }
        }
        qInfo("%d cases agree with cuda_occupancy.h", compared);
        QVERIFY(compared > 10000);
    }

    // A kernel that opted into more shared memory than 48 KiB: the header's opt-in limit.
    void optInAgreesWithCudaOccupancyHeader() {
        for (const auto& a : gpu::ArchLimits::builtIn()) {
            const auto prop = occProp(a);
            for (size_t dynamic : {size_t(48 * 1024), size_t(64 * 1024), size_t(96 * 1024), size_t(200 * 1024)}) {
                cudaOccFuncAttributes attr;
                attr.maxThreadsPerBlock = 1024;
                attr.numRegs = 32;
                attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
                attr.maxDynamicSharedSizeBytes = dynamic;
                cudaOccDeviceState state;
                cudaOccResult expect{};
                QCOMPARE(cudaOccMaxActiveBlocksPerMultiprocessor(&expect, &prop, &attr, &state, 256, dynamic),
                         CUDA_OCC_SUCCESS);
                gpu::OccupancyInput in;
                in.registers = 32;
                in.blockSize = 256;
                in.dynamicShared = dynamic;
                in.optIn = true;
                auto got = gpu::computeOccupancy(a, in);
                QVERIFY(got);
                QCOMPARE(got->activeBlocks, expect.activeBlocksPerMultiprocessor);
            }
        }
    }

    void brokenTablesAreRefused() {
        QVERIFY(!gpu::ArchLimits::parse("{}"));
        QVERIFY(!gpu::ArchLimits::parse("not json"));
        const std::string text = test::readText(test::sourceDir() / "resources/occupancy/arch-limits.json");
        QVERIFY(gpu::ArchLimits::parse(text));
        // Each limit is required: without one a row would compute from a guess.
        for (const char* key : {"\"max_warps_per_sm\"", "\"registers_per_sm\"", "\"shared_per_sm_bytes\"",
                                "\"sub_partitions_per_sm\"", "\"source\"", "\"max_block_dims\""}) {
            std::string broken = text;
            const auto at = broken.find(key);
            QVERIFY(at != std::string::npos);
            broken.replace(at, std::string_view(key).size(), "\"renamed\"");
            auto r = gpu::ArchLimits::parse(broken);
            QVERIFY2(!r, key);
            QCOMPARE(r.error().kind, support::ErrorKind::Input);
        }
    }

    void reportLaunchesFollowTheRunConfigurations() {
        gpu::RunConfig run;
        run.kernel = "saxpy";
        run.block = {16, 16, 1};
        run.sharedBytes = 4096;
        const auto launches = pipeline::reportLaunches("saxpy", {run, run});
        QCOMPARE(int(launches.size()), 1);
        QCOMPARE(launches[0].threads(), 256);
        QCOMPARE(launches[0].dynamicShared, size_t(4096));
        const auto fallback = pipeline::reportLaunches("other", {run});
        QCOMPARE(int(fallback.size()), 2);
        QCOMPARE(fallback[0].threads(), 128);
        QCOMPARE(fallback[1].threads(), 256);
    }
};

QTEST_GUILESS_MAIN(TestOccupancy)
#include "tst_occupancy.moc"
