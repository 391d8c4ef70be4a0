// `nvpg examples`, and example names where a workspace is taken (nvpg compile saxpy): what is
// listed is what resources/examples holds, a name compiles as its file does, a file of that
// name in the current directory wins, and a missing examples folder says where nvpg looked.
#include <QtTest>

#include <nlohmann/json.hpp>

#include "TestSupport.h"
#include "core/support/Installed.h"

using namespace nvpg;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run runNvpg(const QStringList& args, const QString& workDir = {},
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment()) {
    // A build carried to another machine (the GPU test machine) is no longer in its build tree,
    // so nvpg would not find the source tree's examples there; point it at them.
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

// The examples as the source tree has them: name to description, read from each file.
std::map<std::string, std::string> examplesOnDisk() {
    std::map<std::string, std::string> out;
    for (const auto& name : test::exampleNames()) {
        const auto doc = nlohmann::json::parse(test::readText(test::examplePath(name)));
        out[name] = doc.value("description", "");
    }
    return out;
}

QString canonicalPath(const QString& path) {
    return QFileInfo(path).canonicalFilePath();
}
QString canonicalPath(const std::filesystem::path& path) {
    return canonicalPath(QString::fromStdString(path.string()));
}

}  // namespace

class TestCliExamples : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(examplesOnDisk().size() >= 2, "resources/examples has fewer than two .nvpg"); }

    // One line per example: its name, then its description in a column; then the folder.
    void listsEveryExampleWithItsDescription() {
        const auto r = runNvpg({"examples"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        auto lines = QString::fromUtf8(r.out).split('\n');
        QCOMPARE(lines.takeLast(), QString());  // ends with a newline
        const auto examples = examplesOnDisk();
        QCOMPARE(lines.size(), qsizetype(examples.size()) + 2);  // a blank line, then the folder
        QVERIFY(lines.last().startsWith("in "));
        QCOMPARE(canonicalPath(lines.last().mid(3)), canonicalPath(test::examplesDir()));
        QVERIFY(lines[lines.size() - 2].isEmpty());
        qsizetype column = -1;
        qsizetype i = 0;
        for (const auto& [name, description] : examples) {
            const auto& line = lines[i++];
            QVERIFY2(line.startsWith(QString::fromStdString(name) + "  "), qPrintable(line));
            QVERIFY2(line.endsWith(QString::fromStdString(description)), qPrintable(line));
            const auto at = line.size() - QString::fromStdString(description).size();
            QVERIFY2(column < 0 || at == column, "the descriptions do not start in one column");
            column = at;
        }
    }

    void jsonGivesNamesPathsAndDescriptions() {
        const auto r = runNvpg({"examples", "--json"});
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::json::parse(r.out.toStdString());
        const auto examples = examplesOnDisk();
        QCOMPARE(j.size(), examples.size());
        auto it = examples.begin();
        for (const auto& e : j) {
            QCOMPARE(e["name"].get<std::string>(), it->first);
            QCOMPARE(e["description"].get<std::string>(), it->second);
            const auto path = QString::fromStdString(e["path"].get<std::string>());
            QVERIFY2(QFileInfo(path).isAbsolute(), qPrintable(path));
            QCOMPARE(canonicalPath(path), canonicalPath(test::examplePath(it->first)));
            ++it;
        }
    }

    // For scripts: cp "$(nvpg examples --path saxpy)" .
    void pathPrintsTheExamplesFile() {
        for (const QString name : {"saxpy", "saxpy.nvpg"}) {
            const auto r = runNvpg({"examples", "--path", name});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.endsWith('\n'));
            const auto path = QString::fromUtf8(r.out.chopped(1));
            QVERIFY2(!path.contains('\n'), r.out.constData());
            QCOMPARE(canonicalPath(path), canonicalPath(test::examplePath("saxpy")));
        }
    }

    void anUnknownNameForPathListsTheExamples() {
        const auto r = runNvpg({"examples", "--path", "no-such-example"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("no-such-example"), r.err.constData());
        for (const auto& [name, description] : examplesOnDisk())
            QVERIFY2(r.err.contains(QByteArray::fromStdString(name)), r.err.constData());
    }

    // The name stands for the file: the same PTX, byte for byte, from a folder without the file.
    void compilingANameIsCompilingItsFile() {
        QTemporaryDir cwd;
        const auto byName = runNvpg({"compile", "saxpy"}, cwd.path());
        const auto byPath =
            runNvpg({"compile", QString::fromStdString(test::examplePath("saxpy").string())}, cwd.path());
        QCOMPARE(byName.exitCode, 0);
        QCOMPARE(byPath.exitCode, 0);
        QVERIFY(byName.out.contains(".entry saxpy"));
        QCOMPARE(byName.out, byPath.out);
        QCOMPARE(byName.err, byPath.err);
        // Nothing was written beside the caller.
        QVERIFY(QDir(cwd.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty());
    }

    // A file of the name in the current directory is what the name means, workspace or not.
    void aFileOfThatNameWins() {
        QTemporaryDir cwd;
        QFile plain(cwd.filePath("saxpy"));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.write("not a workspace\n");
        plain.close();
        auto r = runNvpg({"compile", "saxpy"}, cwd.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("nvpg: saxpy: expected a .ll (text) or .bc (bitcode) module"), r.err.constData());
        QVERIFY2(!r.err.contains("examples"), r.err.constData());
        QVERIFY(r.out.isEmpty());

        // saxpy.nvpg here is another example's copy: its kernels are compiled, not saxpy's.
        QVERIFY(
            QFile::copy(QString::fromStdString(test::examplePath("two-modules").string()), cwd.filePath("saxpy.nvpg")));
        r = runNvpg({"compile", "saxpy.nvpg"}, cwd.path());
        QCOMPARE(r.exitCode, 0);
        const auto twoModules =
            runNvpg({"compile", QString::fromStdString(test::examplePath("two-modules").string())}, cwd.path());
        QCOMPARE(r.out, twoModules.out);
        QVERIFY(!r.out.contains(".entry saxpy"));
    }

    // A path is a path: ./saxpy is never the example.
    void aNameWithAFolderIsNeverAnExample() {
        QTemporaryDir cwd;
        const auto r = runNvpg({"compile", "./saxpy"}, cwd.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("./saxpy: expected a .ll"), r.err.constData());
    }

    void anUnknownNameSuggestsNvpgExamples_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("compile") << QStringList{"compile", "no-such-example"};
        QTest::newRow("compile .nvpg") << QStringList{"compile", "no-such-example.nvpg"};
        QTest::newRow("run") << QStringList{"run", "no-such-example"};
        QTest::newRow("compare") << QStringList{"compare", "no-such-example", "--a", "", "--b", "--ftz 1"};
    }
    void anUnknownNameSuggestsNvpgExamples() {
        QFETCH(QStringList, args);
        QTemporaryDir cwd;
        const auto r = runNvpg(args, cwd.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(": no such file, and no bundled example has that name; `nvpg examples` lists them"),
                 r.err.constData());
        QVERIFY2(r.err.contains(args[1].toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    // A missing module keeps the error its read gives: it is no example's name.
    void aMissingModuleIsNotTakenForAnExample() {
        QTemporaryDir cwd;
        const auto r = runNvpg({"compile", "missing.ll"}, cwd.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("missing.ll"), r.err.constData());
        QVERIFY2(!r.err.contains("nvpg examples"), r.err.constData());
    }

    // A broken install (here NVPG_DATA_DIR at a folder without examples/): where nvpg looked,
    // and what to do, for each way of asking.
    void noExamplesFolderSaysWhereItLooked() {
        QTemporaryDir empty;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("NVPG_DATA_DIR", empty.path());
        for (const auto& args :
             {QStringList{"examples"}, QStringList{"examples", "--json"}, QStringList{"examples", "--path", "saxpy"}}) {
            const auto r = runNvpg(args, {}, env);
            QCOMPARE(r.exitCode, 1);
            QVERIFY(r.out.isEmpty());
            QVERIFY2(r.err.startsWith("nvpg examples: no examples folder: looked for " + empty.path().toUtf8() +
                                      "/examples (NVPG_DATA_DIR is "),
                     r.err.constData());
            QVERIFY2(r.err.contains("set NVPG_DATA_DIR to a folder whose examples/ holds"), r.err.constData());
        }
    }

    void jsonAndPathExcludeEachOther() {
        const auto r = runNvpg({"examples", "--json", "--path", "saxpy"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("excludes"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliExamples)
#include "tst_cli_examples.moc"
