// `nvpg` on hostile input: documents that nest without end, names that would rewrite the
// terminal, errors libNVVM gives without naming a module. Each ends in a message that names the
// input and exit status 2 (refused) or 1 (the compile failed), never a crash.
#include <QtTest>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "TestSupport.h"

using namespace nvpg;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run runNvpg(const QStringList& args, const QString& workDir = {}) {
    QProcess p;
    if (!workDir.isEmpty()) p.setWorkingDirectory(workDir);
    p.start(QString::fromStdString(test::nvpgPath()), args);
    if (!p.waitForFinished(120000)) qFatal("nvpg did not finish: %s", qPrintable(args.join(' ')));
    if (p.exitStatus() != QProcess::NormalExit) qFatal("nvpg crashed: %s", qPrintable(args.join(' ')));
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// A byte that a terminal takes as a command, or that starts a line of its own.
bool hasControlBytes(const QByteArray& text) {
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\n') || u == 0x7f) return true;
    }
    return text.contains("\xc2\x85") || text.contains("\xc2\x9b");
}

}  // namespace

class TestCliInput : public QObject {
    Q_OBJECT

private slots:
    // The issue's repro: 100,000 levels inside a run configuration ended nvpg with SIGSEGV.
    void deeplyNestedWorkspaceExitsTwoNamingThePlace() {
        QTemporaryDir dir;
        const size_t d = 100000;
        writeFile((dir.path() + "/deep.nvpg").toStdString(),
                  R"({"format":"nvvm-playground-workspace","version":1,"modules":[],"runs":[{"kernel":"k","y":)" +
                      std::string(d, '[') + std::string(d, ']') + "}]}");
        for (const char* command : {"compile", "run"}) {
            const auto r = runNvpg({command, "deep.nvpg"}, dir.path());
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.startsWith("nvpg: deep.nvpg: line 1, column 151: not valid JSON: arrays and objects "
                                      "nested deeper than 64 levels"),
                     r.err.constData());
        }
    }

    // Module names come from the command line too: a file name with ESC set the terminal's
    // title and cleared the screen when nvpg named it in an error; a newline forged a line.
    void controlCharactersInFileNamesAreRefused_data() {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("shown");
        QTest::newRow("title and clear") << QByteArray("k\x1b]0;pwned\x07\x1b[2J.ll")
                                         << QByteArray("k\\x1b]0;pwned\\x07\\x1b[2J.ll");
        QTest::newRow("forged line") << QByteArray("k.ll\nerror: all is well.ll")
                                     << QByteArray("k.ll\\nerror: all is well.ll");
        QTest::newRow("C1 CSI") << QByteArray(
                                       "k\xc2\x9b"
                                       "2J.ll")
                                << QByteArray("k\\u009b2J.ll");
    }
    void controlCharactersInFileNamesAreRefused() {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, shown);
        QTemporaryDir dir;
        writeFile((dir.path() + "/").toStdString() + name.toStdString(), "define void @k( {\n");
        const auto r = runNvpg({"compile", "--arch", "compute_90", QString::fromUtf8(name)}, dir.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(!hasControlBytes(r.err.chopped(r.err.endsWith('\n') ? 1 : 0)), r.err.constData());
        QVERIFY2(r.err.contains(shown), r.err.constData());
        QVERIFY2(r.err.contains("control character"), r.err.constData());
    }

    // "symbol multiply defined!" came with no file, and a damaged datalayout with none either: now
    // the error is on the later definition and a note on the other.
    void compileErrorsNameTheModules() {
        QTemporaryDir dir;
        const auto text = test::readText(test::dataDir() / "ir/sinf.ll");
        QDir(dir.path()).mkpath("d1");
        QDir(dir.path()).mkpath("d2");
        writeFile((dir.path() + "/d1/k.ll").toStdString(), text);
        writeFile((dir.path() + "/d2/k.ll").toStdString(), text);
        auto r = runNvpg({"compile", "--libdevice", "--arch", "compute_90", "d1/k.ll", "d2/k.ll"}, dir.path());
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith("d2/k.ll:7:1: error: "), r.err.constData());
        QVERIFY2(r.err.contains("d1/k.ll:7:1: note: "), r.err.constData());
        QVERIFY2(r.err.contains("@sin_kernel is defined in both d1/k.ll and d2/k.ll"), r.err.constData());

        std::string layout = text;
        layout.insert(layout.find("target datalayout = \"") + 21, "q7-");
        writeFile((dir.path() + "/layout.ll").toStdString(), layout);
        r = runNvpg({"compile", "--libdevice", "--arch", "compute_90", "d1/k.ll", "layout.ll"}, dir.path());
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith("layout.ll: error: Unknown specifier in datalayout string"), r.err.constData());
    }

    // A workspace's run configuration read any file it named (buf:@/etc/passwd,
    // buf:@../../x) into a GPU buffer. nvpg refuses one outside the workspace's folder unless
    // --allow-outside-files says yes; the message names the configuration, argument and path.
    void runFilesOutsideTheWorkspaceNeedAFlag_data() {
        QTest::addColumn<QString>("spec");  // %1: the folder that holds the workspace's folder
        QTest::newRow("climbing out") << "buf:f32:@../secret.bin";
        QTest::newRow("absolute") << "buf:f32:@%1/secret.bin";
        QTest::newRow("a link inside that leads out") << "buf:f32:@link.bin";
    }
    void runFilesOutsideTheWorkspaceNeedAFlag() {
        QFETCH(QString, spec);
        QTemporaryDir dir;
        if (spec.contains("%1")) spec = spec.arg(dir.path());
        QDir(dir.path()).mkpath("ws");
        writeFile((dir.path() + "/secret.bin").toStdString(), std::string(4096 * 4, '\0'));
        QFile::link(dir.path() + "/secret.bin", dir.path() + "/ws/link.bin");
        writeFile((dir.path() + "/ws/inside.bin").toStdString(), std::string(4096 * 4, '\0'));
        auto doc = nlohmann::json::parse(test::readText(test::examplesDir() / "saxpy.nvpg"));
        doc["runs"][0]["args"][3] = spec.toStdString();
        doc["runs"][0]["args"][2] = "buf:f32:@inside.bin";  // a file inside is fine
        writeFile((dir.path() + "/ws/w.nvpg").toStdString(), doc.dump(2));

        auto r = runNvpg({"run", "ws/w.nvpg"}, dir.path());
        QCOMPARE(r.exitCode, 2);
        const QString secret = QFileInfo(dir.path() + "/secret.bin").canonicalFilePath();
        const QString folder = QFileInfo(dir.path() + "/ws").canonicalFilePath();
        QVERIFY2(r.err.contains(("run configuration \"saxpy 4096\", argument 3 (" + spec + ") reads " + secret +
                                 ", which is outside the workspace's folder " + folder)
                                    .toUtf8()),
                 r.err.constData());
        QVERIFY2(r.err.contains("--allow-outside-files"), r.err.constData());
        QVERIFY2(!r.err.contains("inside.bin"), r.err.constData());

        // Allowed, it goes on to the GPU (exit 3 where there is none).
        r = runNvpg({"run", "--allow-outside-files", "ws/w.nvpg"}, dir.path());
        QVERIFY2(r.exitCode == 0 || r.exitCode == 3, r.err.constData());
        QVERIFY2(!r.err.contains("outside the workspace"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliInput)
#include "tst_cli_input.moc"
