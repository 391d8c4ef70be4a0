// Finding libNVVM, libdevice and nvJitLink: the search order, both toolkit layouts, the
// explicit path used alone, and reports that say where each library came from.
#include <QtTest>

#include <fstream>
#include <map>

#include "TestSupport.h"
#include "support/Text.h"
#include "toolkit/Toolkit.h"

using namespace nvpg;
namespace fs = std::filesystem;

namespace {

// A fake toolkit tree whose library files are links to the real ones, in either layout.
void plantToolkit(const fs::path& root, bool standardLayout, bool withJit = true) {
    const auto& real = *test::realToolkit();
    const auto nvvmDir = standardLayout ? root / "nvvm/lib64" : root / "lib64";
    fs::create_directories(nvvmDir);
    fs::create_symlink(real.nvvmReport().path, nvvmDir / "libnvvm.so.4");
    fs::create_directories(root / "nvvm/libdevice");
    fs::create_symlink(real.libdeviceReport().path, root / "nvvm/libdevice/libdevice.10.bc");
    if (withJit) {
        fs::create_directories(root / "lib64");
        fs::create_symlink(real.nvJitLinkReport().path,
                           root / "lib64" / real.nvJitLinkReport().path.filename());
    }
}

toolkit::SearchConfig isolated(const fs::path& systemPrefix, std::map<std::string, std::string> env = {},
                               std::vector<fs::path> sites = {}) {
    toolkit::SearchConfig c;
    c.env = [env](const char* name) -> std::optional<std::string> {
        auto it = env.find(name);
        if (it == env.end()) return std::nullopt;
        return it->second;
    };
    c.pythonSitePackages = [sites] { return sites; };
    c.systemPrefix = systemPrefix;
    c.useSystemLoader = false;
    return c;
}

}  // namespace

class TestToolkit : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    fs::path dir(const char* name) { return fs::path(tmp_.path().toStdString()) / name; }

private slots:
    void realToolkitReportsEveryLibrary() {
        const auto& tk = *test::realToolkit();
        for (const auto* r : {&tk.nvvmReport(), &tk.libdeviceReport(), &tk.nvJitLinkReport()}) {
            QVERIFY2(r->found, r->name.c_str());
            QVERIFY(fs::exists(r->path));
            QVERIFY2(support::startsWith(r->via, "via ") || r->via == "beside libNVVM", r->via.c_str());
            QVERIFY(!r->version.empty());
        }
        QVERIFY(tk.nvvmReport().version.find("NVVM IR") != std::string::npos);
        int major = 0, minor = 0;
        QCOMPARE(tk.nvvm().version(&major, &minor), NVVM_SUCCESS);
        QVERIFY(major >= 1);
    }

    void libdeviceIsReadOnce() {
        const auto& tk = *test::realToolkit();
        auto a = tk.libdevice();
        auto b = tk.libdevice();
        QVERIFY(a && b);
        QCOMPARE(a->get(), b->get());  // the same bytes, not a second read
        QVERIFY((*a)->size() > 100000);
    }

    void explicitPathIsUsedAlone() {
        const auto root = dir("explicit");
        plantToolkit(root, /*standard=*/false);
        const auto other = dir("other-via-env");
        plantToolkit(other, true);
        auto config = isolated(dir("no-system"), {{"CUDA_PATH", other.string()}});
        config.explicitRoot = root;
        auto tk = toolkit::Toolkit::load(config);
        QVERIFY2(tk, tk ? "" : tk.error().message.c_str());
        QCOMPARE((*tk)->nvvmReport().path, root / "lib64/libnvvm.so.4");
        QCOMPARE((*tk)->nvvmReport().via, std::string("via --cuda-path"));
        QCOMPARE((*tk)->libdeviceReport().path, root / "nvvm/libdevice/libdevice.10.bc");
        QCOMPARE((*tk)->nvJitLinkReport().via, std::string("via --cuda-path"));
    }

    void emptyExplicitPathListsEveryPlaceTried() {
        const auto empty = dir("empty");
        fs::create_directories(empty);
        auto config = isolated(dir("no-system"), {{"CUDA_PATH", "/usr/local/cuda"}});
        config.explicitRoot = empty;
        config.useSystemLoader = true;  // still not used: the explicit path is the only place
        auto tk = toolkit::Toolkit::load(config);
        QVERIFY(!tk);
        QCOMPARE(tk.error().kind, support::ErrorKind::Environment);
        const auto& msg = tk.error().message;
        for (const char* rel : {"nvvm/lib64/libnvvm.so.4", "lib64/libnvvm.so.4", "lib/libnvvm.so.4"})
            QVERIFY2(msg.find((empty / rel).string()) != std::string::npos, msg.c_str());
        QVERIFY(msg.find("/usr/local/cuda") == std::string::npos);
        QVERIFY(msg.find("system loader") == std::string::npos);
        QVERIFY(msg.find("--cuda-path") != std::string::npos);
    }

    void searchOrder_data() {
        QTest::addColumn<QStringList>("planted");  // roots that hold a toolkit
        QTest::addColumn<QString>("expectedVia");
        QTest::newRow("CUDA_PATH first") << QStringList{"CUDA_PATH", "CUDA_HOME", "usr/local/cuda"} << "via CUDA_PATH";
        QTest::newRow("then CUDA_HOME") << QStringList{"CUDA_HOME", "CONDA_PREFIX"} << "via CUDA_HOME";
        QTest::newRow("then CONDA_PREFIX") << QStringList{"CONDA_PREFIX", "python-cu13"} << "via CONDA_PREFIX";
        QTest::newRow("then python cu13") << QStringList{"python-cu13", "python-cu12"}
                                          << "via python3 site-packages (nvidia/cu13)";
        QTest::newRow("then python cu12") << QStringList{"python-cu12", "usr/local/cuda"}
                                          << "via python3 site-packages (nvidia/cu12)";
        QTest::newRow("then /usr/local/cuda") << QStringList{"usr/local/cuda", "usr/local/cuda-12.4"}
                                              << "via /usr/local/cuda";
        QTest::newRow("then newest cuda-X.Y") << QStringList{"usr/local/cuda-12.4", "opt/cuda"}
                                              << "via the newest /usr/local/cuda-X.Y";
        QTest::newRow("then /opt/cuda") << QStringList{"opt/cuda"} << "via /opt/cuda";
    }
    void searchOrder() {
        QFETCH(QStringList, planted);
        QFETCH(QString, expectedVia);
        QTemporaryDir base;
        const fs::path b = base.path().toStdString();
        const std::map<std::string, fs::path> where = {
            {"CUDA_PATH", b / "env-cuda-path"},      {"CUDA_HOME", b / "env-cuda-home"},
            {"CONDA_PREFIX", b / "env-conda"},       {"python-cu13", b / "site/nvidia/cu13"},
            {"python-cu12", b / "site/nvidia/cu12"}, {"usr/local/cuda", b / "sys/usr/local/cuda"},
            {"usr/local/cuda-12.4", b / "sys/usr/local/cuda-12.4"}, {"opt/cuda", b / "sys/opt/cuda"}};
        std::map<std::string, std::string> env;
        bool standard = false;
        for (const auto& name : planted) {
            plantToolkit(where.at(name.toStdString()), standard = !standard);
        }
        for (const char* var : {"CUDA_PATH", "CUDA_HOME", "CONDA_PREFIX"})
            env[var] = where.at(var).string();  // set, planted or not: unplanted ones are skipped
        auto tk = toolkit::Toolkit::load(isolated(b / "sys", env, {b / "site"}));
        QVERIFY2(tk, tk ? "" : tk.error().message.c_str());
        QCOMPARE(QString::fromStdString((*tk)->nvvmReport().via), expectedVia);
        QCOMPARE(QString::fromStdString((*tk)->libdeviceReport().via), expectedVia);
        QCOMPARE(QString::fromStdString((*tk)->nvJitLinkReport().via), expectedVia);
    }

    void newestVersionedToolkitWins() {
        QTemporaryDir base;
        const fs::path sys = fs::path(base.path().toStdString()) / "sys";
        for (const char* v : {"cuda-9.2", "cuda-12.10", "cuda-12.4"}) plantToolkit(sys / "usr/local" / v, true);
        fs::create_directories(sys / "usr/local/cuda-notes");  // not a version: ignored
        auto tk = toolkit::Toolkit::load(isolated(sys));
        QVERIFY2(tk, tk ? "" : tk.error().message.c_str());
        QCOMPARE((*tk)->nvvmReport().path, sys / "usr/local/cuda-12.10/nvvm/lib64/libnvvm.so.4");
    }

    void wheelLayoutWithLibFolder() {
        QTemporaryDir base;
        const fs::path root = fs::path(base.path().toStdString()) / "wheel";
        fs::create_directories(root / "lib");
        fs::create_symlink(test::realToolkit()->nvvmReport().path, root / "lib/libnvvm.so.4");
        auto tk = toolkit::Toolkit::load(isolated(root / "none", {{"CUDA_PATH", root.string()}}));
        QVERIFY2(tk, tk ? "" : tk.error().message.c_str());
        QCOMPARE((*tk)->nvvmReport().path, root / "lib/libnvvm.so.4");
        // No libdevice and no nvJitLink there: reported, not fatal.
        QVERIFY(!(*tk)->nvJitLinkReport().found);
        QVERIFY(!(*tk)->nvJitLinkReport().problem.empty());
        QVERIFY(!(*tk)->nvJitLink());
        QVERIFY(!(*tk)->libdeviceReport().found);
        auto ld = (*tk)->libdevice();
        QVERIFY(!ld);
        QVERIFY(ld.error().message.find((root / "nvvm/libdevice/libdevice.10.bc").string()) != std::string::npos);
    }

    void aFileThatIsNotLibnvvmIsSkippedWithTheReason() {
        QTemporaryDir base;
        const fs::path b = base.path().toStdString();
        fs::create_directories(b / "bad/lib64");
        std::ofstream(b / "bad/lib64/libnvvm.so.4") << "not a library";
        plantToolkit(b / "good", true);
        auto tk = toolkit::Toolkit::load(
            isolated(b / "none", {{"CUDA_PATH", (b / "bad").string()}, {"CUDA_HOME", (b / "good").string()}}));
        QVERIFY2(tk, tk ? "" : tk.error().message.c_str());
        QCOMPARE((*tk)->nvvmReport().via, std::string("via CUDA_HOME"));
        bool sawReason = false;
        for (const auto& t : (*tk)->nvvmReport().tried)
            sawReason = sawReason || (t.place == (b / "bad/lib64/libnvvm.so.4").string() && t.why != "not found");
        QVERIFY(sawReason);
    }

    void pythonIsAskedOnlyWhenTheSearchGetsThatFar() {
        QTemporaryDir base;
        const fs::path b = base.path().toStdString();
        plantToolkit(b / "env", true);
        int asked = 0;
        auto config = isolated(b / "none", {{"CUDA_PATH", (b / "env").string()}});
        config.pythonSitePackages = [&] {
            ++asked;
            return std::vector<fs::path>{};
        };
        QVERIFY(toolkit::Toolkit::load(config));
        QCOMPARE(asked, 0);
        auto none = isolated(b / "none");
        none.pythonSitePackages = config.pythonSitePackages;
        QVERIFY(!toolkit::Toolkit::load(none));
        QCOMPARE(asked, 1);  // once, though three libraries were searched
    }

    void systemLoaderIsTheLastResort() {
        auto config = isolated(dir("nothing-here"));
        config.useSystemLoader = true;
        auto tk = toolkit::Toolkit::load(config);
        // Either the loader finds libnvvm.so.4 (LD_LIBRARY_PATH, ld.so.cache) or its failure is listed.
        if (tk) {
            QCOMPARE((*tk)->nvvmReport().via, std::string("via the system loader"));
        } else {
            QVERIFY(tk.error().message.find("libnvvm.so.4 (via the system loader)") != std::string::npos);
        }
    }

    void driverIsOpenedOnlyWhenAskedFor() {
        const auto& tk = *test::realToolkit();
        for (const auto& r : tk.reports()) QVERIFY(r.name != "CUDA driver" || r.found || !r.problem.empty());
        auto drv = tk.driver();
        if (!drv) {
            // No GPU driver here: the reason says what is missing and what it is needed for.
            QVERIFY(drv.error().message.find("libcuda.so.1") != std::string::npos);
            QVERIFY(drv.error().message.find("GPU") != std::string::npos);
        } else {
            QVERIFY((*drv)->version >= 12000);
        }
        QCOMPARE(tk.reports().back().name, std::string("CUDA driver"));
    }
};

QTEST_GUILESS_MAIN(TestToolkit)
#include "tst_toolkit.moc"
