// Where the running program finds what the package installs beside it (support/Installed.h) and
// the bundled examples (workspace/Examples.h), seen from a build tree. The installed layout (a .deb
// unpacked elsewhere, no source tree consulted) is proven by the packaging test (tests/packaging).
#include <QtTest>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "TestSupport.h"
#include "core/support/Installed.h"
#include "core/workspace/Examples.h"

using namespace nvpg;
namespace fs = std::filesystem;

class TestInstalled : public QObject {
    Q_OBJECT
private slots:
    void init() { qunsetenv("NVPG_DATA_DIR"); }
    void cleanup() { qunsetenv("NVPG_DATA_DIR"); }

    void aTestBinaryRunsFromItsBuildTree() {
        QVERIFY(support::runsFromBuildTree());
        const auto self = support::executablePath();
        QVERIFY(fs::is_regular_file(self));
        QCOMPARE(support::installPrefix(), self.parent_path().parent_path());
    }

    void fromTheBuildTreeTheSourceTreesFilesAreUsed() {
        // build/tests/core has no share/ above it, so the source tree's copy is the one.
        QCOMPARE(fs::canonical(support::dataDir()), fs::canonical(test::sourceDir() / "resources"));
        QCOMPARE(fs::canonical(workspace::examplesDir()), fs::canonical(test::examplesDir()));
        QCOMPARE(fs::canonical(support::packageFile("share/doc/nvvm-playground/README.md", "README.md")),
                 fs::canonical(test::sourceDir() / "README.md"));
        // The documentation the app's Help shows, in the same place relative to the README.
        QCOMPARE(
            fs::canonical(support::packageFile("share/doc/nvvm-playground/docs/user/tour.md", "docs/user/tour.md")),
            fs::canonical(test::sourceDir() / "docs/user/tour.md"));
        QVERIFY(support::packageFile("share/nvvm-playground/nothing", "no/such/file").empty());
    }

    void anInstalledLayoutAboveTheProgramWins() {
        // The prefix is the folder above the program's: share/ there is preferred to the source tree.
        const auto share = support::installPrefix() / "share/nvvm-playground-test-probe";
        std::error_code ec;
        fs::create_directories(share, ec);
        if (ec) QSKIP("the build tree is not writable here");
        const auto found = support::packageFile("share/nvvm-playground-test-probe", "resources");
        fs::remove_all(share);
        QCOMPARE(found, share);
    }

    void everyExampleIsListedWithItsDescription() {
        const auto listed = workspace::listExamples();
        const auto names = test::exampleNames();
        QCOMPARE(listed.size(), names.size());
        for (size_t i = 0; i < names.size(); ++i) {
            QCOMPARE(listed[i].name, names[i]);
            QCOMPARE(fs::canonical(listed[i].path), fs::canonical(test::examplePath(names[i])));
            QCOMPARE(listed[i].description, test::loadExample(names[i]).description);
            QVERIFY(!listed[i].description.empty());
        }
    }

    void examplesAreFoundByNameOnly() {
        QVERIFY(workspace::findExample("saxpy"));
        QCOMPARE(workspace::findExample("saxpy.nvpg")->path, workspace::findExample("saxpy")->path);
        QVERIFY(!workspace::findExample("no-such-example"));
        QVERIFY(!workspace::findExample("../examples/saxpy"));  // a path is not a name
        QVERIFY(!workspace::findExample(""));
    }

    void aFileOfTheNameWinsOverTheExample() {
        QTemporaryDir dir;
        const auto cwd = fs::current_path();
        fs::current_path(dir.path().toStdString());
        QCOMPARE(workspace::workspaceArgument("saxpy").value(), workspace::findExample("saxpy")->path);
        { std::ofstream("saxpy") << "not a workspace"; }
        QCOMPARE(workspace::workspaceArgument("saxpy").value(), fs::path("saxpy"));
        QVERIFY(!workspace::workspaceArgument("no-such-example"));
        fs::current_path(cwd);
    }

    void theDataFolderCanBeMoved() {
        QTemporaryDir dir;
        fs::create_directories(fs::path(dir.path().toStdString()) / "examples");
        fs::copy_file(test::examplePath("saxpy"), fs::path(dir.path().toStdString()) / "examples/only.nvpg");
        qputenv("NVPG_DATA_DIR", dir.path().toUtf8());
        const auto listed = workspace::listExamples();
        QCOMPARE(listed.size(), size_t(1));
        QCOMPARE(listed[0].name, std::string("only"));
        QVERIFY(!workspace::findExample("saxpy"));
    }
};

QTEST_GUILESS_MAIN(TestInstalled)
#include "tst_installed.moc"
