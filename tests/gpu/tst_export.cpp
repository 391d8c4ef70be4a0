// nvpg export on a GPU machine: for every run configuration of every bundled example, the exported
// cuda.core script and C program launch the kernel and write output buffers equal, bit for bit, to
// nvpg run --save-outputs'. Without a GPU each test skips, saying so (ctest shows the suite as
// skipped); the compile part of the same code is tst_cli_export's, on any machine.
#include <QtTest>

#include "cli/ExportSupport.h"
#include "core/gpu/Npy.h"
#include "core/workspace/Workspace.h"

using namespace nvpg;
using namespace nvpg::test::exporting;

namespace {

void addRows() {
    QTest::addColumn<QString>("as");
    QTest::addColumn<QString>("example");
    QTest::addColumn<QString>("config");
    for (const char* as : {"cuda-core", "c"})
        for (const auto& name : test::exampleNames())
            for (const auto& run : test::loadExample(name).runs)
                QTest::newRow((std::string(as) + ", " + name + ": " + run.name).c_str())
                    << QString(as) << QString::fromStdString(name) << QString::fromStdString(run.name);
}

// nvpg run's outputs in DIR/nvpg; skips when there is no GPU.
#define NVPG_RUN_OR_SKIP(example, config, dir)                                                         \
    do {                                                                                               \
        const auto r = runNvpg({"run", example, "--config", config, "--save-outputs", dir + "/nvpg"}); \
        if (r.exitCode == 3) QSKIP(qPrintable("no GPU: " + QString::fromUtf8(r.err).trimmed()));       \
        QVERIFY2(r.exitCode == 0, r.err.constData());                                                  \
    } while (0)

// Every argK.npy nvpg run wrote, against the exported code's: the same type, count and bytes.
void compareOutputs(const QString& nvpg, const QString& exported) {
    const auto files = QDir(nvpg).entryList({"arg*.npy"}, QDir::Files);
    QVERIFY(!files.isEmpty());
    for (const auto& f : files) {
        const auto want = gpu::readNpy(readAll(nvpg + "/" + f).toStdString(), f.toStdString());
        QVERIFY2(QFile::exists(exported + "/" + f), qPrintable(exported + "/" + f));
        const auto got = gpu::readNpy(readAll(exported + "/" + f).toStdString(), f.toStdString());
        QVERIFY(want && got);
        QCOMPARE(got->type, want->type);
        QCOMPARE(got->count(), want->count());
        QVERIFY2(got->data == want->data, qPrintable(f + " differs from nvpg run's"));
    }
}

}  // namespace

class TestGpuExport : public QObject {
    Q_OBJECT

private slots:
    void exportedCodeRunsAsNvpgRun_data() { addRows(); }
    void exportedCodeRunsAsNvpgRun() {
        QFETCH(QString, as);
        QFETCH(QString, example);
        QFETCH(QString, config);
        QTemporaryDir dir;
        NVPG_RUN_OR_SKIP(example, config, dir.path());
        if (const auto why = exportedCannotRun(as)) QSKIP(qPrintable(*why));
        const auto exported = runNvpg({"export", "--as", as, example, "--config", config, "-o", dir.filePath("code")});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        const auto ran = runExported(as, dir.filePath("code"), dir.filePath("out"));
        QVERIFY2(ran.exitCode == 0, (ran.out + ran.err).constData());
        compareOutputs(dir.filePath("nvpg"), dir.filePath("out/outputs"));
    }
};

QTEST_GUILESS_MAIN(TestGpuExport)
#include "tst_export.moc"
