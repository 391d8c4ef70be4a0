// `nvpg occupancy`: each kernel's theoretical occupancy from ptxas' figures, as a table or JSON,
// and the same in `nvpg compile --report`.
#include <QtTest>

#include <nlohmann/json.hpp>

#include "TestSupport.h"
#include "core/gpu/ArchLimits.h"
#include "core/gpu/Occupancy.h"
#include "core/support/Installed.h"
#include "core/support/Symbols.h"
#include "core/support/Text.h"

using namespace nvpg;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run runNvpg(const QStringList& args, const QString& workDir = {}) {
    auto env = QProcessEnvironment::systemEnvironment();
    if (!support::runsFromBuildTree() && !env.contains("NVPG_DATA_DIR"))
        env.insert("NVPG_DATA_DIR", QString::fromStdString((test::sourceDir() / "resources").string()));
    QProcess p;
    if (!workDir.isEmpty()) p.setWorkingDirectory(workDir);
    p.setProcessEnvironment(env);
    p.start(QString::fromStdString(test::nvpgPath()), args);
    if (!p.waitForFinished(120000)) qFatal("nvpg did not finish: %s", qPrintable(args.join(' ')));
    if (p.exitStatus() != QProcess::NormalExit) qFatal("nvpg crashed: %s", qPrintable(args.join(' ')));
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

// What core computes for a row of the JSON, from the figures the row itself reports.
int expectedBlocks(const nlohmann::json& k, const char* arch) {
    gpu::OccupancyInput in;
    in.registers = k["registers"].get<int>();
    in.staticShared = k["static_shared"].get<size_t>();
    in.dynamicShared = k["dynamic_shared"].get<size_t>();
    in.blockSize = k["block"].get<int>();
    auto o = gpu::computeOccupancy(*gpu::ArchLimits::forArch(arch), in);
    return o ? o->activeBlocks : -1;
}

}  // namespace

class TestCliOccupancy : public QObject {
    Q_OBJECT

private slots:
    void jsonHasEachKernelAtTheBlockAsked() {
        const auto r = runNvpg({"occupancy", "saxpy", "--arch", "compute_90", "--block", "128", "--shared", "16384",
                                "--json", "--no-cache"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["arch"].get<std::string>(), std::string("compute_90"));
        QVERIFY(j["limits_source"].get<std::string>().find("Programming Guide") != std::string::npos);
        QVERIFY(j["figures_source"].get<std::string>().find("ptxas") != std::string::npos);
        QCOMPARE(int(j["kernels"].size()), 1);
        const auto& k = j["kernels"][0];
        QCOMPARE(k["name"].get<std::string>(), std::string("saxpy"));
        QCOMPARE(k["block"].get<int>(), 128);
        QCOMPARE(k["dynamic_shared"].get<int>(), 16384);
        QVERIFY(k["registers"].get<int>() > 0);
        const int blocks = k["blocks_per_sm"].get<int>();
        QCOMPARE(blocks, expectedBlocks(k, "compute_90"));
        QCOMPARE(k["warps_per_sm"].get<int>(), blocks * 4);
        QCOMPARE(k["occupancy"].get<double>(), blocks * 4 / 64.0);
        QVERIFY(!k["limited_by"].empty());
    }

    void tablePrintsOneLinePerKernel() {
        const auto r = runNvpg({"occupancy", "two-modules", "--arch", "compute_86", "--block", "256"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto text = QString::fromUtf8(r.out);
        QVERIFY2(text.startsWith("arch       compute_86"), qPrintable(text));
        QVERIFY(text.contains("blocks/SM"));
        QVERIFY(text.contains("limited by"));
        QVERIFY(text.contains(QRegularExpression(R"(\bfade\s+\d+\s+0\s+0\s+256\s+\d+\s+\d+/48\s+[\d.]+%)")));
    }

    // No --block: the workspace's run configuration's (saxpy runs 256 threads).
    void runConfigurationBlockByDefault() {
        const auto r = runNvpg({"occupancy", "saxpy", "--arch", "compute_80", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(int(j["kernels"].size()), 1);
        QCOMPARE(j["kernels"][0]["block"].get<int>(), 256);
        QCOMPARE(j["kernels"][0]["blocks_per_sm"].get<int>(), expectedBlocks(j["kernels"][0], "compute_80"));
    }

    void badBlockIsAUsageError() {
        for (const char* block : {"2048", "0", "32,64", "x"}) {
            const auto r = runNvpg({"occupancy", "saxpy", "--arch", "compute_90", "--block", block});
            QVERIFY2(r.exitCode == 2, block);
            QVERIFY(!r.err.isEmpty());
        }
        // Each dimension against the arch's own limit, named in the refusal.
        const std::pair<const char*, const char*> shapes[] = {
            {"1,1,1024", "at most 64 threads along z on compute_90"},
            {"99999999", "at most 1024 threads along x on compute_90"},
            {"1,2048", "at most 1024 threads along y on compute_90"},
            {"64,32", "2048 threads; a block has at most 1024 in all on compute_90"},
        };
        for (const auto& [block, limit] : shapes) {
            const auto r = runNvpg({"occupancy", "saxpy", "--arch", "compute_90", "--block", block});
            QVERIFY2(r.exitCode == 2, block);
            QVERIFY2(r.err.contains(limit), r.err.constData());
        }
    }

    void compileFailureExitsOne() {
        QTemporaryDir dir;
        QFile f(dir.filePath("broken.ll"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("define void @k( {\n");
        f.close();
        const auto r = runNvpg({"occupancy", "broken.ll", "--arch", "compute_90", "--block", "128"}, dir.path());
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("broken.ll"));
    }

    // numba's kernels (tests/data/numba) are named as the app names them: demangled, without the
    // ABI tag, cut in the middle to 40 columns; no line is wider than 160 columns (their symbols
    // made a 200-column table). --wide and --raw-names give the names whole and the symbols; the
    // JSON keeps the symbols.
    void numbaKernelsAreNamedReadably() {
        const auto modules = test::numbaModules("stencil_2d");
        QTemporaryDir dir;
        QFile f(dir.filePath("stencil_2d.ll"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(modules.at(0).bytes));
        f.close();
        const std::string symbol =
            "_ZN8__main__10stencil_2dB2v8B92cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3CwAkMXLaJtQYkOIgxJU0gCqOkEJoHkbttqdVhoql"
            "spQGNFHSgJ5BnXagIAE5ArrayIfLi2E1C7mutable7alignedE5ArrayIfLi2E1C7mutable7alignedE";
        QVERIFY(modules[0].bytes.find(symbol) != std::string::npos);
        // Two rows (128 and 256 threads), more than one limiter possible: the widest table it makes.
        const auto r = runNvpg({"occupancy", "stencil_2d.ll", "--arch", "compute_90", "--no-cache"}, dir.path());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto text = QString::fromUtf8(r.out);
        const auto lines = text.split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() == 5, qPrintable(text));  // arch, figures, header, a row per block size
        for (const auto& line : lines)
            QVERIFY2(support::displayWidth(line.toStdString()) <= 160,
                     qPrintable(QString("%1 columns: %2").arg(support::displayWidth(line.toStdString())).arg(line)));
        QVERIFY2(!text.contains("_ZN") && !text.contains("cw51c"), qPrintable(text));
        const auto rows = lines.filter(QRegularExpression("^__main__::stencil_2d\\(Array<"));
        QCOMPARE(rows.size(), 2);
        for (const auto& row : rows) {
            const QString name = row.left(row.indexOf(QRegularExpression(" {2,}\\d")));
            QCOMPARE(name.toStdString(), support::tableName(symbol));
            QVERIFY(name.contains(QChar(0x2026)));
        }
        // The columns line up: each row's figures start where the header's "regs" column ends.
        const auto header = lines.filter(QRegularExpression("^kernel ")).value(0);
        QVERIFY(!header.isEmpty());
        const int regsEnd = int(header.indexOf("regs")) + 4;
        for (const auto& row : rows) QVERIFY2(row.at(regsEnd - 1).isDigit() && row.at(regsEnd) == ' ', qPrintable(row));

        const auto wide = runNvpg({"occupancy", "stencil_2d.ll", "--arch", "compute_90", "--wide"}, dir.path());
        QVERIFY2(wide.exitCode == 0, wide.err.constData());
        QVERIFY(wide.out.contains(QByteArray::fromStdString(support::readableName(symbol)) + "  "));
        const auto raw =
            runNvpg({"occupancy", "stencil_2d.ll", "--arch", "compute_90", "--raw-names", "--wide"}, dir.path());
        QVERIFY2(raw.exitCode == 0, raw.err.constData());
        QVERIFY(raw.out.contains(QByteArray::fromStdString(symbol) + "  "));
        const auto json = runNvpg({"occupancy", "stencil_2d.ll", "--arch", "compute_90", "--json"}, dir.path());
        QVERIFY2(json.exitCode == 0, json.err.constData());
        QCOMPARE(nlohmann::json::parse(json.out.toStdString())["kernels"][0]["name"].get<std::string>(), symbol);
    }

    // --report holds the same table, at the run configuration's block.
    void reportHasOccupancy() {
        QTemporaryDir dir;
        const auto report = dir.filePath("r.json");
        const auto r = runNvpg({"compile", "saxpy", "--arch", "compute_90", "--report", report, "-o", "/dev/null"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(report);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto j = nlohmann::json::parse(f.readAll().toStdString());
        const auto& occ = j["occupancy"];
        QCOMPARE(occ["arch"].get<std::string>(), std::string("compute_90"));
        QCOMPARE(int(occ["kernels"].size()), 1);
        QCOMPARE(occ["kernels"][0]["block"].get<int>(), 256);
        QCOMPARE(occ["kernels"][0]["registers"].get<int>(), j["kernels"][0]["registers"].get<int>());
        QCOMPARE(occ["kernels"][0]["blocks_per_sm"].get<int>(), expectedBlocks(occ["kernels"][0], "compute_90"));
    }
};

QTEST_GUILESS_MAIN(TestCliOccupancy)
#include "tst_cli_occupancy.moc"
