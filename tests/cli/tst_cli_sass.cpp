// `nvpg compile --emit sass` and the report's SASS counts, with the real nvdisasm (the toolkit's,
// or the pip wheel's that ctest's nvdisasm_wheel set-up installs). Every test needs nvdisasm, so
// that without it ctest lists the suite as skipped; tst_cli has the runs without one.
#include <QtTest>

#include <nlohmann/json.hpp>

#include "TestSupport.h"
#include "core/support/Text.h"

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

}  // namespace

class TestCliSass : public QObject {
    Q_OBJECT

private slots:
    void infoListsNvdisasmWhereItWasFound() {
        NEED_NVDISASM_FOUND();
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
        NEED_NVDISASM_FOUND();
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
        NEED_NVDISASM_FOUND();
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
    // --emit sass --live: the plain listing, each instruction with nvdisasm's live registers
    // beside it; the other lines as they are.
    void liveWritesTheFiguresBesideEachInstruction() {
        NEED_NVDISASM_FOUND();
        const auto math = example("libdevice-math.nvpg");
        const auto plain = runNvpg({"compile", "--arch", "compute_90", "--emit", "sass", math});
        const auto live = runNvpg({"compile", "--arch", "compute_90", "--emit", "sass", "--live", math});
        QCOMPARE(live.exitCode, 0);
        const auto plainLines = plain.out.split('\n');
        const auto liveLines = live.out.split('\n');
        QCOMPARE(liveLines.size(), plainLines.size());
        static const QRegularExpression figures(R"(  // live (\d+) R, (\d+) P, (\d+) UR, (\d+) UP$)");
        int withFigures = 0, instructions = 0;
        for (qsizetype i = 0; i < plainLines.size(); ++i) {
            const bool instruction = plainLines[i].trimmed().startsWith("/*");
            instructions += instruction;
            const auto m = figures.match(QString::fromUtf8(liveLines[i]));
            if (!m.hasMatch()) {
                QCOMPARE(liveLines[i], plainLines[i]);
                continue;
            }
            QVERIFY(instruction);
            QCOMPARE(liveLines[i].left(plainLines[i].size()), plainLines[i]);
            ++withFigures;
        }
        // Every instruction but the padding after the kernel's end (NOPs nvdisasm gives no figure).
        QVERIFY2(withFigures > 100 && withFigures + 16 >= instructions,
                 qPrintable(QString("%1 of %2").arg(withFigures).arg(instructions)));
        // --live is the SASS's: with another output it says what to add.
        const auto wrong = runNvpg({"compile", "--live", math});
        QCOMPARE(wrong.exitCode, 2);
        QVERIFY2(wrong.err.contains("--emit sass"), wrong.err.constData());
    }

    // --report: each kernel's live peak, where it is in the SASS and the IR line it came from,
    // with ptxas' register count beside it.
    void reportNamesEachKernelsLivePeakAndItsIrLine() {
        NEED_NVDISASM_FOUND();
        QTemporaryDir dir;
        const auto report = dir.filePath("r.json");
        const auto r = runNvpg(
            {"compile", "--arch", "compute_90", "--report", report, "-o", "/dev/null", example("libdevice-math.nvpg")});
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::json::parse(test::readText(report.toStdString()));
        const auto& k = j["kernels"][0];
        QVERIFY2(k.contains("live"), j.dump().c_str());
        const int peak = k["live"]["peak"].get<int>();
        QVERIFY(peak > 0 && peak <= k["registers"].get<int>());
        QCOMPARE(k["live"]["registers"], k["registers"]);
        QCOMPARE(k["live"]["ir"]["module"], "math.ll");
        const int line = k["live"]["ir"]["line"].get<int>();
        QVERIFY(line > 0);
        // The same figure as --emit sass --live prints on the peak's line.
        const auto live =
            runNvpg({"compile", "--arch", "compute_90", "--emit", "sass", "--live", example("libdevice-math.nvpg")});
        const auto lines = live.out.split('\n');
        const int at = k["live"]["sass_line"].get<int>();
        QVERIFY(at >= 1 && at <= lines.size());
        QVERIFY2(lines[at - 1].contains(QByteArray("// live ") + QByteArray::number(peak) + " R"),
                 lines[at - 1].constData());
    }

    // --line-map: the figures of SASS, IR and PTX lines, and where local memory is used.
    void lineMapCarriesLiveFiguresAndLocalMemory() {
        NEED_NVDISASM_FOUND();
        QTemporaryDir dir;
        const auto map = dir.filePath("m.json");
        const auto ptx = dir.filePath("k.ptx");
        const auto local = QString::fromStdString((test::dataDir() / "ir/local-array.ll").string());
        const auto r = runNvpg({"compile", "--arch", "compute_90", "--line-map", map, "-o", ptx, local});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = nlohmann::json::parse(test::readText(map.toStdString()));
        const auto& live = j["live"];
        QVERIFY2(live.contains("sass") && live["sass"].size() > 20, live.dump().c_str());
        QCOMPARE(live["kernels"][0]["name"], "local_array");
        QVERIFY(!live["ir"].empty() && !live["ptx"].empty());
        int peak = 0;
        for (const auto& row : live["sass"]) peak = std::max(peak, row[1].get<int>());
        QCOMPARE(live["kernels"][0]["peak"].get<int>(), peak);
        for (const auto& l : live["ir"]) QVERIFY(l["live"].get<int>() <= peak);
        // Local memory: the PTX lines written to -o that are ld.local/st.local, and the IR lines of
        // the array's volatile store and load.
        const auto& lm = j["local-memory"];
        const auto text = QString::fromStdString(test::readText(ptx.toStdString())).split('\n');
        QVERIFY(!lm["ptx"].empty() && !lm["sass"].empty());
        for (const auto& l : lm["ptx"]) {
            const auto line = text[l.get<int>() - 1].trimmed();
            QVERIFY2(line.startsWith("ld.local") || line.startsWith("st.local"), qPrintable(line));
        }
        const auto source = QString::fromStdString(test::readText(local.toStdString())).split('\n');
        QVERIFY(!lm["ir"].empty());
        for (const auto& l : lm["ir"])
            QVERIFY2(source[l["line"].get<int>() - 1].contains("volatile"), l.dump().c_str());
    }

    // --emit cfg --cfg-of sass: one graph per function of the SASS, one node per basic block that
    // nvdisasm -bbcfg finds in the same cubin (the PTX's whole-program cubin, remade here).
    void cfgOfSassHasNvdisasmsBlocks() {
        NEED_NVDISASM_FOUND();
        QTemporaryDir dir;
        const auto math = example("libdevice-math.nvpg");
        const auto cfg = runNvpg({"compile", "--arch", "compute_90", "--emit", "cfg", "--cfg-of", "sass", math});
        QVERIFY2(cfg.exitCode == 0, cfg.err.constData());
        QCOMPARE(cfg.out.count("digraph "), 1);
        static const QRegularExpression node(R"(^  b\d+ \[label=)", QRegularExpression::MultilineOption);
        const auto ours = QString::fromUtf8(cfg.out).count(node);
        // nvdisasm's own graph of the same cubin: ptxas of the PTX nvpg writes, as the driver loads it.
        const auto ptx = dir.filePath("k.ptx"), cubin = dir.filePath("k.cubin");
        QCOMPARE(runNvpg({"compile", "--arch", "compute_90", "-o", ptx, math}).exitCode, 0);
        const auto* ptxas = test::realToolkit()->ptxas();
        QVERIFY(ptxas);
        QProcess as;
        as.start(QString::fromStdString(ptxas->string()), {"-arch=sm_90", "-o", cubin, ptx});
        QVERIFY(as.waitForFinished(60000) && as.exitCode() == 0);
        QProcess dis;
        dis.start(QString::fromStdString(test::realToolkit()->nvdisasm()->string()), {"-bbcfg", cubin});
        QVERIFY(dis.waitForFinished(60000) && dis.exitCode() == 0);
        static const QRegularExpression theirNode("^\"[^\"]+\"$", QRegularExpression::MultilineOption);
        const auto theirs = QString::fromUtf8(dis.readAllStandardOutput()).count(theirNode);
        QVERIFY(theirs >= 10);
        QCOMPARE(ours, theirs);
    }
};

QTEST_GUILESS_MAIN(TestCliSass)
#include "tst_cli_sass.moc"
