// gpu/DeviceCache: the local GPUs come from the cache file, without the CUDA driver, while the
// NVIDIA driver and the GPUs it reports stay the same; anything else asks the driver once.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "TestSupport.h"
#include "core/gpu/DeviceCache.h"
#include "core/support/Files.h"

using namespace nvpg;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

std::string read(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), {}};
}

// A fake /proc/driver/nvidia holding one H200, a cache file beside it, and a driver that counts
// how often it is asked.
struct Machine {
    QTemporaryDir dir;
    fs::path root = fs::path(dir.path().toStdString()) / "proc";
    fs::path cache = fs::path(dir.path().toStdString()) / "cache" / "gpus.json";
    // An empty sysfs unless a test fills it: the real /sys of a machine with a GPU must not count.
    fs::path sys = fs::path(dir.path().toStdString()) / "sys";
    int asked = 0;
    bool driverWorks = true;

    Machine() {
        write(root / "version", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06\n");
        write(root / "gpus/0000:19:00.0/information", "Model: \t\t NVIDIA H200\nBus Location: \t 0000:19:00.0\n");
    }
    gpu::LocalGpuSource source() {
        gpu::LocalGpuSource s;
        s.procRoot = root;
        s.sysRoot = sys;
        s.cacheFile = cache;
        s.askDriver = [this]() -> support::Result<gpu::LocalGpus> {
            ++asked;
            if (!driverWorks)
                return support::makeError(support::ErrorKind::Environment, "cuInit returned CUDA_ERROR_NO_DEVICE");
            gpu::LocalGpus g;
            g.devices.push_back({0, "NVIDIA H200", 9, 0, size_t(150) << 30});
            g.driver.name = "CUDA driver";
            g.driver.found = true;
            g.driver.path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
            g.driver.via = "via the system loader";
            g.driver.version = "13.0";
            return g;
        };
        return s;
    }
    support::Result<gpu::LocalGpus> ask() { return gpu::localGpus(*test::realToolkit(), source()); }
};

void checkH200(const support::Result<gpu::LocalGpus>& g) {
    QVERIFY2(g, g ? "" : g.error().message.c_str());
    QCOMPARE(g->devices.size(), size_t(1));
    QCOMPARE(g->devices[0].name, std::string("NVIDIA H200"));
    QCOMPARE(g->devices[0].ccMajor, 9);
    QCOMPARE(g->devices[0].ccMinor, 0);
    QCOMPARE(g->devices[0].totalMemory, size_t(150) << 30);
    QCOMPARE(g->driver.name, std::string("CUDA driver"));
    QVERIFY(g->driver.found);
    QCOMPARE(g->driver.path.string(), std::string("/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
    QCOMPARE(g->driver.via, std::string("via the system loader"));
    QCOMPARE(g->driver.version, std::string("13.0"));
}

}  // namespace

class TestDeviceCache : public QObject {
    Q_OBJECT

private slots:
    void theDriverIsAskedOnceThenTheFileAnswers() {
        Machine m;
        const auto first = m.ask();
        checkH200(first);
        QCOMPARE(m.asked, 1);
        QVERIFY(!first->fromCache);
        QVERIFY(fs::exists(m.cache));
        for (int i = 0; i < 3; ++i) {
            const auto again = m.ask();
            checkH200(again);
            QVERIFY(again->fromCache);
        }
        QCOMPARE(m.asked, 1);  // no driver call after the first
    }

    // Where /proc/driver/nvidia is hidden (containers; the H200 machine), sysfs names the GPUs:
    // the arch is still the GPU's, learnt once, and a changed module version asks again.
    void sysfsNamesTheGpusWhereProcIsHidden() {
        Machine m;
        fs::remove_all(m.root);
        const auto dev = m.sys / "bus/pci/devices/0000:19:00.0";
        write(dev / "vendor", "0x10de\n");
        write(dev / "class", "0x030200\n");
        write(dev / "device", "0x2335\n");
        write(m.sys / "bus/pci/devices/0000:19:00.1/vendor", "0x10de\n");  // its audio function: not a GPU
        write(m.sys / "bus/pci/devices/0000:19:00.1/class", "0x040300\n");
        write(m.sys / "module/nvidia/version", "580.159.04\n");
        const auto identity = gpu::gpuIdentity(m.root, m.sys);
        QVERIFY2(identity.find("0000:19:00.0 0x2335") != std::string::npos, identity.c_str());
        QVERIFY2(identity.find("580.159.04") != std::string::npos, identity.c_str());
        QVERIFY(identity.find("0000:19:00.1") == std::string::npos);
        checkH200(m.ask());
        const auto again = m.ask();
        checkH200(again);
        QVERIFY(again->fromCache);
        QCOMPARE(m.asked, 1);
        write(m.sys / "module/nvidia/version", "590.10\n");
        checkH200(m.ask());
        QCOMPARE(m.asked, 2);
        // The H200 machine's /proc/driver/nvidia: gpus/ without a version file. The GPUs come
        // from there, the version from sysfs.
        write(m.root / "gpus/0000:19:00.0/information", "Model: \t\t NVIDIA H200\n");
        const auto mixed = gpu::gpuIdentity(m.root, m.sys);
        QVERIFY2(mixed.find("NVIDIA H200") != std::string::npos && mixed.find("590.10") != std::string::npos,
                 mixed.c_str());
        fs::remove_all(m.root);
        // Only the audio function and no module: no GPU, and no driver call.
        fs::remove_all(dev);
        fs::remove_all(m.sys / "module");
        QVERIFY(gpu::gpuIdentity(m.root, m.sys).empty());
    }

    void noNvidiaDriverMeansNoGpuAndNoDriverCall() {
        Machine m;
        fs::remove_all(m.root);
        const auto g = m.ask();
        QVERIFY(!g);
        QCOMPARE(g.error().kind, support::ErrorKind::Environment);
        QVERIFY2(g.error().message.find("no NVIDIA driver") != std::string::npos, g.error().message.c_str());
        QCOMPARE(m.asked, 0);
        QVERIFY(!fs::exists(m.cache));
        // Not even a cache file left by an earlier driver answers then.
        Machine withFile;
        checkH200(withFile.ask());
        fs::remove_all(withFile.root);  // the driver gone: version and gpus/ alike
        QVERIFY(!withFile.ask());
        QCOMPARE(withFile.asked, 1);
    }

    void aChangedDriverOrGpuSetAsksAgain() {
        Machine m;
        checkH200(m.ask());
        write(m.root / "version", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  590.10.01\n");
        checkH200(m.ask());
        QCOMPARE(m.asked, 2);
        write(m.root / "gpus/0000:2a:00.0/information", "Model: \t\t NVIDIA H200\nBus Location: \t 0000:2a:00.0\n");
        checkH200(m.ask());
        QCOMPARE(m.asked, 3);
        QVERIFY(m.ask()->fromCache);  // and the new answer is kept
        QCOMPARE(m.asked, 3);
    }

    void aDamagedFileIsIgnoredAndReplaced_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("not JSON") << QByteArray(
            "\x7f"
            "ELF garbage");
        QTest::newRow("cut short") << QByteArray("{\"format\": 1, \"identity\": \"NVRM");
        QTest::newRow("a field of the wrong type") << QByteArray("{\"format\": 1, \"identity\": 7, \"gpus\": {}}");
        QTest::newRow("no GPUs") << QByteArray("{\"format\": 1, \"identity\": \"x\", \"driver\": {}, \"gpus\": []}");
        QTest::newRow("another format") << QByteArray("{\"format\": 99}");
        QTest::newRow("deeply nested") << QByteArray(100000, '[');
    }
    void aDamagedFileIsIgnoredAndReplaced() {
        QFETCH(QByteArray, text);
        Machine m;
        write(m.cache, text.toStdString());
        checkH200(m.ask());
        QCOMPARE(m.asked, 1);
        QVERIFY(m.ask()->fromCache);  // the damaged file was replaced by a good one
        QCOMPARE(m.asked, 1);
    }

    void aFileWithAnotherMachinesIdentityIsNotBelieved() {
        Machine m;
        checkH200(m.ask());
        auto text = read(m.cache);
        const auto at = text.find("NVIDIA H200");
        QVERIFY(at != std::string::npos);     // the identity holds the GPU's model...
        text.replace(at, 11, "NVIDIA B200");  // ...so another machine's file does not match
        write(m.cache, text);
        checkH200(m.ask());
        QCOMPARE(m.asked, 2);
    }

    void aFailingDriverIsNotCached() {
        Machine m;
        m.driverWorks = false;
        QVERIFY(!m.ask());
        QVERIFY(!fs::exists(m.cache));
        m.driverWorks = true;
        checkH200(m.ask());
        QCOMPARE(m.asked, 2);
    }

    void theFileLivesInTheUserCacheDirectory() {
        const auto dir = support::userCacheDir();
        if (dir.empty()) QSKIP("no cache directory (neither XDG_CACHE_HOME nor HOME is set)");
        QCOMPARE(gpu::deviceCacheFile(), dir / "gpus.json");
    }
};

QTEST_GUILESS_MAIN(TestDeviceCache)
#include "tst_devicecache.moc"
