// nvpg export of workspaces that arrive from someone else: every piece of their text (name,
// description, module, run and buffer file names) stays data in the exported code, whatever it
// holds (quotes, line breaks of every kind, NUL, bidi controls, comment ends and starts,
// trigraphs, encoding declarations with a UTF-7 payload, 5,000 characters); the code's file stem
// never shadows a module the script imports or a CMake target; an export never replaces one of
// its own inputs, --force or not; and an interrupted export leaves nothing behind.
#include <QtTest>

#include <signal.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ExportSupport.h"
#include "core/gpu/Npy.h"

using namespace nvpg;
using namespace nvpg::test;
using namespace nvpg::test::exporting;

namespace {

// The UTF-7 payload of issue-style attacks: under "coding: utf-7" it decodes to a newline,
// `import os; os.system("touch PWNED")` and a newline.
const std::string kUtf7Payload = "+AAo-import os+ADs-os.system(+ACI-touch PWNED+ACI-)+AAo-#";
const std::string kPythonEscape = "\"\"\"\n'''\nimport os; os.system('touch PWNED')  # \\";

// A hostile module name: what libNVVM is given, so no control characters (workspaces refuse
// them), but everything else that ends a string or a comment.
const std::string kModuleName = "m\"\"\"'*/?\?/ /*\\ #.ll";
// A buffer file of the run, read as .npy: its path is in the SPEC, which the code quotes.
const std::string kBufferFile = "x\"*/?\?/ \\ '''.npy";

struct Hostile {
    const char* row;
    std::string name, description;
    bool buildWithCmake = false;  // also configure and build with CMake (the CMakeLists.txt's text)
};

std::vector<Hostile> corpus() {
    std::string longText;
    while (longText.size() < 5000) longText += "*/ /* ?\?/ \" ''' \\ \r\n\u2028 coding:utf-7 ";
    longText.resize(5000);
    return {
        {"quotes", "a\"b'c\"\"\"d'''e", "\"\"\" ''' \" ' \\\" \\'"},
        {"python escape", kPythonEscape, kPythonEscape},
        {"backslashes", "a\\", "\\ ends \\\\ a \\x41 line \\"},
        {"CR LF", "a\r\nimport os\r\nos.system('touch PWNED')\r\n#", "b\rc\nd\r\n"},
        {"U+2028 U+2029 NEL", "a\u2028import os\u2029os.system('touch PWNED')\u0085#", "\u2028\u2029\u0085"},
        {"bidi", "a\u202Eb\u2066c\u2069\u202C", "\u202E os.system('touch PWNED') \u202D"},
        {"NUL", std::string("a\0b", 3), std::string("c\0\0d", 4)},
        {"comment end", "*/ int pwned; /*", "*/ #error pwned /*", true},
        {"comment start", "/* a", "x /* y", true},
        {"trigraphs", "?\?/", "a ?\?/\nb ?\?= ?\?( ?\?) ?\?! ?\?< ?\?> ?\?- ?\?' ?\?\?/", true},
        {"cmake brackets", "#[[ ]] ${X} \"", "]] #[==[ ) add_executable(pwned pwned.c", true},
        {"coding utf-7", "coding:utf-7", kUtf7Payload},
        {"coding=ascii", "# -*- coding=ascii -*-", "naïve ünïcode ✓ " + kUtf7Payload},
        {"5000 characters", longText, longText, true},
        {"cuda", "cuda", ""},
        {"numpy", "numpy", ""},
        {"sys", "sys", ""},
        {"pathlib", "pathlib", ""},
        {"all", "all", "", true},
        {"test", "test", "", true},
        {"install", "install", "", true},
    };
}

void corpusRows() {
    QTest::addColumn<int>("index");
    const auto all = corpus();
    for (size_t i = 0; i < all.size(); ++i) QTest::newRow(all[i].row) << int(i);
}

// The stems a script or a C program must not have (compared without case).
const QStringList kShadowed = {"cuda", "numpy", "sys", "pathlib", "os", "all", "test", "install"};

void writeBytes(const QString& path, const std::string& bytes) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    f.write(bytes.data(), qint64(bytes.size()));
}

// saxpy's workspace with the name, description and run name given, a hostile module name and
// the second buffer read from a file of a hostile name, in DIR/ws.nvpg.
QString hostileWorkspace(const QString& dir, const std::string& name, const std::string& description,
                         const std::string& runName = "saxpy", int64_t bufferCount = 4096) {
    auto ws = nlohmann::json::parse(readText(examplePath("saxpy")));
    ws["name"] = name;
    ws["description"] = description;
    ws["modules"][0]["name"] = kModuleName;
    auto& run = ws["runs"][0];
    run["name"] = runName;
    gpu::NpyArray ones;
    ones.type = gpu::ElemType::F32;
    ones.shape = {4096};
    const float one = 1.0f;
    for (int i = 0; i < 4096; ++i) ones.data.append(reinterpret_cast<const char*>(&one), sizeof one);
    const auto buffer = dir + "/" + QString::fromStdString(kBufferFile);
    QDir().mkpath(QFileInfo(buffer).path());  // "*/" and "?\?/" make folders
    writeBytes(buffer, gpu::writeNpy(ones));
    run["args"][3] = "buf:@" + kBufferFile;
    if (bufferCount != 4096) run["args"][2] = fmt::format("buf:f32:{}:iota", bufferCount);
    const auto path = dir + "/ws.nvpg";
    writeBytes(path, ws.dump(2));
    return path;
}

Run exportTo(const QString& as, const QString& workspace, const QString& dir, const QStringList& more = {}) {
    return runNvpg(QStringList{"export", "--as", as, workspace, "--arch", "compute_90", "-o", dir} + more);
}

QList<QByteArray> lines(const QString& path) {
    return readAll(path).split('\n');
}

// Every file and folder under `dir` whose name starts with '.' (temporaries, staging folders).
QStringList hidden(const QString& dir) {
    QStringList found;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const auto path = it.next();
        if (it.fileName().startsWith('.')) found << path;
    }
    return found;
}

QByteArray digest(const QString& path) {
    return QCryptographicHash::hash(readAll(path), QCryptographicHash::Sha256);
}

}  // namespace

class TestCliExportHostile : public QObject {
    Q_OBJECT

private slots:
    void scriptKeepsWorkspaceTextAsData_data() { corpusRows(); }
    void scriptKeepsWorkspaceTextAsData() {
        QFETCH(int, index);
        const auto h = corpus()[size_t(index)];
        QTemporaryDir dir;
        const auto ws = hostileWorkspace(dir.path(), h.name, h.description, h.name.empty() ? "r" : h.name);

        // The cuda.core script compiles and runs up to its GPU check (its imports from the
        // tests' venv; without one, the system's Python still runs what precedes them), and no
        // text of the workspace runs as code; its first two lines are nvpg's own.
        const auto py = dir.filePath("py");
        const auto exported = exportTo("cuda-core", ws, py);
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        const auto script = codeFile(py, "py");
        const auto compiled = runProgram("python3", {"-m", "py_compile", py + "/" + script});
        QVERIFY2(compiled.exitCode == 0, compiled.err.constData());
        const bool venv = venvMissing().empty();
        const auto ran = runProgram(venv ? venvPython() : "python3", {py + "/" + script, dir.filePath("out")}, py);
        QVERIFY2(!QFile::exists(py + "/PWNED"), (ran.out + ran.err).constData());
        if (venv) {
            QVERIFY2(ran.exitCode == 0 || (ran.exitCode == 3 && ran.err.contains("no GPU to launch")),
                     (ran.out + ran.err).constData());
            QVERIFY(QFile::exists(dir.filePath("out/" + script.chopped(3) + ".ptx")));
        }
        QVERIFY2(!kShadowed.contains(script.chopped(3), Qt::CaseInsensitive), qPrintable(script));
        const auto head = lines(py + "/" + script);
        QCOMPARE(head[0], QByteArray("#!/usr/bin/env python3"));
        QCOMPARE(head[1], QByteArray("# -*- coding: utf-8 -*-"));
        QCOMPARE(head[2], QByteArray("# Exported from NVVM Playground (nvpg export --as cuda-core)."));
    }

    void cProgramKeepsWorkspaceTextAsData_data() { corpusRows(); }
    void cProgramKeepsWorkspaceTextAsData() {
        QFETCH(int, index);
        const auto h = corpus()[size_t(index)];
        QTemporaryDir dir;
        const auto ws = hostileWorkspace(dir.path(), h.name, h.description, h.name.empty() ? "r" : h.name);
        // The C program compiles with every warning an error (trigraphs read, as C11 reads them),
        // and for some rows builds with CMake and runs up to its GPU check; neither file has
        // workspace text on its first two lines.
        const auto c = dir.filePath("c");
        const auto cExported = exportTo("c", ws, c);
        QVERIFY2(cExported.exitCode == 0, cExported.err.constData());
        const auto program = codeFile(c, "c");
        if (const auto why = cProgramCannotBeBuilt()) QSKIP(qPrintable(*why));
        const auto home = cudaHome();
        const auto cc = runProgram("cc", {"-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only",
                                          "-I" + home + "/include", "-I" + home + "/nvvm/include", c + "/" + program});
        QVERIFY2(cc.exitCode == 0, cc.err.constData());
        if (h.buildWithCmake) {
            QString why;
            const auto built = buildC(c, &why);
            QVERIFY2(built, qPrintable(why));
            const auto cRan = runProgram(*built, {dir.filePath("c-out")}, c);
            QVERIFY2(cRan.exitCode == 0 || (cRan.exitCode == 3 && cRan.err.contains("no GPU to launch")),
                     (cRan.out + cRan.err).constData());
        }
        QVERIFY2(!kShadowed.contains(program.chopped(2), Qt::CaseInsensitive), qPrintable(program));
        const auto cHead = lines(c + "/" + program);
        QCOMPARE(cHead[0], QByteArray("/*"));
        QCOMPARE(cHead[1], QByteArray(" * Exported from NVVM Playground (nvpg export --as c)."));
        const auto cmakeHead = lines(c + "/CMakeLists.txt");
        QCOMPARE(cmakeHead[0], QByteArray("# Exported from NVVM Playground (nvpg export --as c)."));
        QVERIFY(cmakeHead[1].startsWith("#   cmake -S . -B build"));
    }

    // An export whose files would replace what it reads is refused with --force too, and the
    // input stays as it was: a link from the output folder to the workspace, or a run's buffer
    // file that the export writes again when it goes into the workspace's own folder.
    void neverReplacesItsInput_data() {
        QTest::addColumn<QString>("as");
        QTest::addColumn<QString>("file");
        QTest::newRow("c, modules/ link") << "c"
                                          << "modules/";
        QTest::newRow("cuda-core, modules/ link") << "cuda-core"
                                                  << "modules/";
        QTest::newRow("cuda-core, the script a link") << "cuda-core"
                                                      << "saxpy.py";
        QTest::newRow("c, the program a hard link") << "c"
                                                    << "saxpy.c";
    }
    void neverReplacesItsInput() {
        QFETCH(QString, as);
        QFETCH(QString, file);
        QTemporaryDir dir;
        QDir().mkpath(dir.filePath("w"));
        const auto ws = hostileWorkspace(dir.filePath("w"), "saxpy", "");
        const auto before = digest(ws);
        const auto out = dir.filePath("out");
        if (file == "modules/") {
            // The module's file, as an export without the link names it.
            QCOMPARE(exportTo(as, ws, dir.filePath("plain")).exitCode, 0);
            const auto modules = QDir(dir.filePath("plain/modules")).entryList(QDir::Files);
            QCOMPARE(modules.size(), 1);
            file += modules.front();
        }
        QVERIFY(QDir().mkpath(out + "/modules"));
        const auto link = out + "/" + file;
        if (file.endsWith(".c"))
            QCOMPARE(::link(ws.toLocal8Bit().constData(), link.toLocal8Bit().constData()), 0);
        else
            QVERIFY(QFile::link(ws, link));
        const auto r = exportTo(as, ws, out, {"--force"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(("writing " + link + " would replace " + ws).toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("give -o another folder"), r.err.constData());
        QCOMPARE(digest(ws), before);
        QVERIFY(hidden(out).isEmpty());
    }

    void neverRewritesItsBufferFile_data() {
        QTest::addColumn<QString>("as");
        QTest::newRow("c") << "c";
        QTest::newRow("cuda-core") << "cuda-core";
    }
    void neverRewritesItsBufferFile() {
        QFETCH(QString, as);
        QTemporaryDir dir;
        // The run reads inputs/arg2.npy, which is where the export writes argument 2.
        auto ws = nlohmann::json::parse(readText(examplePath("saxpy")));
        ws["runs"][0]["args"][2] = "buf:@inputs/arg2.npy";
        QVERIFY(QDir().mkpath(dir.filePath("inputs")));
        gpu::NpyArray x;
        x.type = gpu::ElemType::F32;
        x.shape = {4096};
        x.data.assign(4096 * 4, '\0');
        writeBytes(dir.filePath("inputs/arg2.npy"), gpu::writeNpy(x));
        writeBytes(dir.filePath("ws.nvpg"), ws.dump(2));
        const auto before = digest(dir.filePath("inputs/arg2.npy"));
        for (int i = 0; i < 2; ++i) {
            const auto r = exportTo(as, dir.filePath("ws.nvpg"), dir.path(), {"--force"});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("inputs/arg2.npy, which the export reads"), r.err.constData());
            QCOMPARE(digest(dir.filePath("inputs/arg2.npy")), before);
        }
    }

    // SIGINT while the export writes a 400 MB buffer: nothing is left in the output folder (no
    // hidden temporary, no half of the files), and the same export without --force then works.
    void anInterruptedExportLeavesNothing() {
        QTemporaryDir dir;
        const auto ws = hostileWorkspace(dir.path(), "big", "", "big", 100'000'000);
        const auto out = dir.filePath("out");
        QProcess p;
        p.start(QString::fromStdString(nvpgPath()), {"export", "--as", "c", ws, "--arch", "compute_90", "-o", out});
        QVERIFY(p.waitForStarted());
        // The first entry in the output folder: the export has started writing.
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 120000 && p.state() == QProcess::Running &&
               QDir(out).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty())
            QThread::usleep(200);
        QVERIFY2(p.state() == QProcess::Running, "the export ended before it was interrupted");
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);  // ended by the signal
        QVERIFY2(hidden(out).isEmpty(), qPrintable(hidden(out).join(", ")));
        QDirIterator files(out, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        QVERIFY2(!files.hasNext(), qPrintable(files.next()));
        const auto again = exportTo("c", ws, out);
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QVERIFY(QFileInfo(out + "/inputs/arg2.npy").size() > 400'000'000);
        QVERIFY(hidden(out).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliExportHostile)
#include "tst_cli_export_hostile.moc"
