// `nvpg compile --emit sass` and the report's SASS counts, with the real nvdisasm (the toolkit's,
// or the pip wheel's that ctest's nvdisasm_wheel set-up installs). Every test needs nvdisasm, so
// that without it ctest lists the suite as skipped; tst_cli has the runs without one.
#include <QtTest>

#include <nlohmann/json.hpp>

#include "TestSupport.h"
#include "support/Text.h"

using namespace nvpg;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run runNvpg(const QStringList& args) {
    QProcess p;
    p.start(QString::fromStdString(test::nvpgPath()), args);
    if (!p.waitForFinished(120000)) qFatal("nvpg did not finish: %s", qPrintable(args.join(' ')));
    if (p.exitStatus() != QProcess::NormalExit) qFatal("nvpg crashed: %s", qPrintable(args.join(' ')));
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

QString example(const char* rel) {
    return QString::fromStdString((test::examplesDir() / rel).string());
}

#define NEED_NVDISASM()                               \
    do {                                              \
        const auto found = test::nvdisasmForTests();  \
        if (!found.path) {                            \
            if (found.skip) QSKIP(found.why.c_str()); \
            QFAIL(found.why.c_str());                 \
        }                                             \
    } while (0)

}  // namespace

class TestCliSass : public QObject {
    Q_OBJECT

private slots:
    void infoListsNvdisasmWhereItWasFound() {
        NEED_NVDISASM();
        const auto& report = test::realToolkit()->nvdisasmReport();
        const auto r = runNvpg({"info"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("nvdisasm    " + QByteArray::fromStdString(report.version)), r.out.constData());
        QVERIFY(r.out.contains(QByteArray::fromStdString(report.path.string() + " (" + report.via + ")")));
        const auto j = nlohmann::json::parse(runNvpg({"info", "--json"}).out.toStdString());
        bool listed = false;
        for (const auto& lib : j["libraries"])
            listed =
                listed || (lib["name"] == "nvdisasm" && lib["found"] == true && lib["path"] == report.path.string());
        QVERIFY(listed);
    }

    void emitSassPrintsThePlainSass() {
        NEED_NVDISASM();
        const auto r = runNvpg({"compile", "--arch", "compute_90", "--emit", "sass", example("src/saxpy/saxpy.ll")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QVERIFY(r.out.contains("\t.target\tsm_90"));
        QVERIFY(r.out.contains(".text.saxpy"));
        QVERIFY(r.out.contains("EXIT ;"));
        QVERIFY(!r.out.contains("//## File"));  // the plain SASS: no line marks
        // -o writes the same bytes.
        QTemporaryDir dir;
        const auto file = dir.filePath("saxpy.sass");
        const auto o =
            runNvpg({"compile", "--arch", "compute_90", "--emit", "sass", "-o", file, example("src/saxpy/saxpy.ll")});
        QCOMPARE(o.exitCode, 0);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), r.out);
    }

    void reportCountsEachKernelsSassInstructions() {
        NEED_NVDISASM();
        QTemporaryDir dir;
        const auto report = dir.filePath("r.json");
        const auto r = runNvpg(
            {"compile", "--arch", "compute_90", "--report", report, "-o", "/dev/null", example("src/saxpy/saxpy.ll")});
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::json::parse(test::readText(report.toStdString()));
        QCOMPARE(j["kernels"][0]["name"], "saxpy");
        QVERIFY(j["kernels"][0]["sass_instructions"].get<int>() > 5);
        QVERIFY2(
            support::startsWith(j["sass"]["source"].get<std::string>(), "nvdisasm -c of the PTX's whole-program cubin"),
            j["sass"].dump().c_str());
        QCOMPARE(j["sass"]["functions"][0]["instructions"], j["kernels"][0]["sass_instructions"]);
        QCOMPARE(j["sass"]["functions"][0]["entry"], true);
        // The count is that of the SASS --emit sass prints: its saxpy instructions, less the padding.
        const auto sass = runNvpg({"compile", "--arch", "compute_90", "--emit", "sass", example("src/saxpy/saxpy.ll")});
        int listed = 0;
        for (const auto& line : sass.out.split('\n')) listed += line.trimmed().startsWith("/*") ? 1 : 0;
        QVERIFY(j["kernels"][0]["sass_instructions"].get<int>() < listed);  // NOPs after EXIT are not counted
    }
};

QTEST_GUILESS_MAIN(TestCliSass)
#include "tst_cli_sass.moc"
