// `nvpg` on hostile input: documents that nest without end, names that would rewrite the
// terminal, errors libNVVM gives without naming a module. Each ends in a message that names the
// input and exit status 2 (refused) or 1 (the compile failed), never a crash.
#include <QtTest>

#include <fstream>
#include <string>

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
    const char* moved = std::getenv("NVPG_CLI");  // the binary at another path (GPU machine)
    p.start(moved && *moved ? QString(moved) : QString(NVPG_CLI), args);
    if (!p.waitForFinished(120000)) qFatal("nvpg did not finish: %s", qPrintable(args.join(' ')));
    if (p.exitStatus() != QProcess::NormalExit) qFatal("nvpg crashed: %s", qPrintable(args.join(' ')));
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
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


};

QTEST_GUILESS_MAIN(TestCliInput)
#include "tst_cli_input.moc"
