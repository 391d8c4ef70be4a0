// Finding libNVVM, libdevice and nvJitLink: the search order, both toolkit layouts, the
// explicit path used alone, and reports that say where each library came from.
#include <QtTest>

#include <cctype>
#include <fstream>
#include <map>

#include "TestSupport.h"
#include "core/support/Text.h"
#include "core/toolkit/Release.h"
#include "core/toolkit/Toolkit.h"

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
        fs::create_symlink(real.nvJitLinkReport().path, root / "lib64" / real.nvJitLinkReport().path.filename());
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

// A stand-in nvdisasm that answers --version as the real one does (or fails, when `works` is off).
void plantNvdisasm(const fs::path& file, bool works = true) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << "#!/bin/sh\n"
                        << (works ? "echo 'nvdisasm: NVIDIA (R) CUDA disassembler'\n"
                                    "echo 'Cuda compilation tools, release 13.0, V13.0.88'\n"
                                  : "echo 'cannot execute binary file' >&2; exit 126\n");
    fs::permissions(file, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
}

// The usual fake: a toolkit planted at <base>/env that CUDA_PATH names, in a search that finds
// nothing else (no system prefix; python3's site-packages none, or <base>/site); `config` loads it.
struct EnvToolkit {
    QTemporaryDir tmp;
    const fs::path base = tmp.path().toStdString();
    toolkit::SearchConfig config;
    explicit EnvToolkit(bool withSitePackages = false) {
        plantToolkit(base / "env", true);
        config = isolated(base / "none", {{"CUDA_PATH", (base / "env").string()}},
                          withSitePackages ? std::vector<fs::path>{base / "site"} : std::vector<fs::path>{});
    }
    // From now on python3 answers no site-packages, and `asked` counts how often it is asked.
    void countPythonAsks(int& asked) {
        config.pythonSitePackages = [&asked] {
            ++asked;
            return std::vector<fs::path>{};
        };
    }
};

// PATH without any nvdisasm while it lives (a GPU machine may have the toolkit's bin/ on PATH).
struct PathWithout {
    QTemporaryDir empty;
    QByteArray saved = qgetenv("PATH");
    PathWithout() { qputenv("PATH", empty.path().toUtf8()); }
    ~PathWithout() { qputenv("PATH", saved); }
};

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool triedPlace(const toolkit::LibraryReport& r, const std::string& place, const std::string& via) {
    for (const auto& t : r.tried)
        if (t.place == place && t.via == via) return true;
    return false;
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
        QTest::newRow("then python cu13")
            << QStringList{"python-cu13", "python-cu12"} << "via python3 site-packages (nvidia/cu13)";
        QTest::newRow("then python cu12")
            << QStringList{"python-cu12", "usr/local/cuda"} << "via python3 site-packages (nvidia/cu12)";
        QTest::newRow("then /usr/local/cuda")
            << QStringList{"usr/local/cuda", "usr/local/cuda-12.4"} << "via /usr/local/cuda";
        QTest::newRow("then newest cuda-X.Y")
            << QStringList{"usr/local/cuda-12.4", "opt/cuda"} << "via the newest /usr/local/cuda-X.Y";
        QTest::newRow("then /opt/cuda") << QStringList{"opt/cuda"} << "via /opt/cuda";
    }
    void searchOrder() {
        QFETCH(QStringList, planted);
        QFETCH(QString, expectedVia);
        QTemporaryDir base;
        const fs::path b = base.path().toStdString();
        const std::map<std::string, fs::path> where = {{"CUDA_PATH", b / "env-cuda-path"},
                                                       {"CUDA_HOME", b / "env-cuda-home"},
                                                       {"CONDA_PREFIX", b / "env-conda"},
                                                       {"python-cu13", b / "site/nvidia/cu13"},
                                                       {"python-cu12", b / "site/nvidia/cu12"},
                                                       {"usr/local/cuda", b / "sys/usr/local/cuda"},
                                                       {"usr/local/cuda-12.4", b / "sys/usr/local/cuda-12.4"},
                                                       {"opt/cuda", b / "sys/opt/cuda"}};
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

    // nvpg's front end only names the files (its engine opens them): the same search finds the
    // same files, opens none, and the located toolkit opens into a working one.
    void locateFindsTheFilesLoadWouldOpenAndOpensNone() {
        EnvToolkit fake;
        auto loaded = toolkit::Toolkit::load(fake.config);
        auto located = toolkit::Toolkit::locate(fake.config);
        QVERIFY(loaded && located);
        QVERIFY((*loaded)->isOpen());
        QVERIFY(!(*located)->isOpen());
        QVERIFY((*located)->nvvm().createProgram == nullptr);
        QCOMPARE((*located)->nvvmReport().path, (*loaded)->nvvmReport().path);
        QCOMPARE((*located)->nvvmReport().via, std::string("via CUDA_PATH"));
        QCOMPARE((*located)->libdeviceReport().path, (*loaded)->libdeviceReport().path);
        QCOMPARE((*located)->nvJitLinkFile(), (*loaded)->nvJitLinkReport().path);
        QVERIFY((*located)->open());
        QVERIFY((*located)->isOpen());
        int major = 0, minor = 0;
        QCOMPARE((*located)->nvvm().version(&major, &minor), NVVM_SUCCESS);
        QVERIFY(major >= 1);
        QVERIFY((*located)->nvvmReport().version.find("NVVM IR") != std::string::npos);
    }

    // Not opening a file must not mean taking any file: one that is no library for this machine
    // is passed over with the reason, as load() passes over one it cannot open.
    void locateSkipsAFileThatIsNotALibrary_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        QTest::newRow("text") << QByteArray("not a library") << "not an ELF shared library";
        QByteArray arm(
            "\x7f"
            "ELF\x02\x01\x01",
            7);
        arm.append(QByteArray(11, '\0'));
        arm.append(QByteArray("\xb7\x00", 2));  // e_machine 183: aarch64
        QTest::newRow("another machine") << arm << "another machine";
    }
    void locateSkipsAFileThatIsNotALibrary() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        QTemporaryDir base;
        const fs::path b = base.path().toStdString();
        fs::create_directories(b / "bad/lib64");
        std::ofstream(b / "bad/lib64/libnvvm.so.4", std::ios::binary) << bytes.toStdString();
        plantToolkit(b / "good", true);
        auto tk = toolkit::Toolkit::locate(
            isolated(b / "none", {{"CUDA_PATH", (b / "bad").string()}, {"CUDA_HOME", (b / "good").string()}}));
        QVERIFY2(tk, tk ? "" : tk.error().message.c_str());
        QCOMPARE((*tk)->nvvmReport().via, std::string("via CUDA_HOME"));
        bool sawReason = false;
        for (const auto& t : (*tk)->nvvmReport().tried)
            sawReason = sawReason || (t.place == (b / "bad/lib64/libnvvm.so.4").string() &&
                                      QString::fromStdString(t.why).contains(reason));
        QVERIFY(sawReason);
    }

    // pip's layouts (cuda-pathfinder's): CUDA 12's wheels keep a folder each, and libNVVM has no
    // soname link there; CUDA 13's share nvidia/cu13. An nvidia folder, or the site-packages
    // holding it, given as the toolkit, is searched tree by tree, and the report says which.
    void aPipNvidiaFolderIsSearchedTreeByTree_data() {
        QTest::addColumn<bool>("cuda13");
        QTest::addColumn<bool>("givenTheSite");
        QTest::newRow("CUDA 12 wheels, the nvidia folder") << false << false;
        QTest::newRow("CUDA 12 wheels, the site-packages") << false << true;
        QTest::newRow("CUDA 13 wheels, the nvidia folder") << true << false;
    }
    void aPipNvidiaFolderIsSearchedTreeByTree() {
        QFETCH(bool, cuda13);
        QFETCH(bool, givenTheSite);
        QTemporaryDir base;
        const fs::path site = fs::path(base.path().toStdString()) / "site-packages";
        const auto& real = *test::realToolkit();
        const auto link = [](const fs::path& target, const fs::path& at) {
            fs::create_directories(at.parent_path());
            fs::create_symlink(target, at);
        };
        std::string tree, nvvmRel, jitRel, wheel;
        if (cuda13) {
            tree = "cu13", nvvmRel = "nvidia/cu13/lib/libnvvm.so.4", jitRel = "nvidia/cu13/lib/libnvJitLink.so.13";
            wheel = "nvidia_nvvm-13.0.88.dist-info";
            link(real.libdeviceReport().path, site / "nvidia/cu13/nvvm/libdevice/libdevice.10.bc");
        } else {
            tree = "cuda_nvcc", nvvmRel = "nvidia/cuda_nvcc/nvvm/lib64/libnvvm.so",
            jitRel = "nvidia/nvjitlink/lib/libnvJitLink.so.12";
            wheel = "nvidia_cuda_nvcc_cu12-12.9.86.dist-info";
            link(real.libdeviceReport().path, site / "nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc");
        }
        link(real.nvvmReport().path, site / nvvmRel);
        link(real.nvJitLinkReport().path, site / jitRel);
        // pip's record of the wheel; a wheel of the other release beside it must not be taken for
        // it.
        fs::create_directories(site / wheel);
        std::ofstream(site / wheel / "RECORD") << nvvmRel << ",sha256=x,1\n";
        fs::create_directories(site / "nvidia_cuda_nvcc-13.0.88.dist-info");
        fs::create_directories(site / "nvidia_cuda_nvcc_cu12-12.9.86.dist-info");
        std::ofstream(site / "nvidia_cuda_nvcc_cu12-12.9.86.dist-info/RECORD")
            << "nvidia/cuda_nvcc/bin/ptxas,sha256=x,1\n";

        auto config = isolated(fs::path(base.path().toStdString()) / "none");
        config.explicitRoot = givenTheSite ? site : site / "nvidia";
        auto tk = toolkit::Toolkit::load(config);
        QVERIFY2(tk, tk ? "" : tk.error().message.c_str());
        QCOMPARE((*tk)->nvvmReport().path, site / nvvmRel);
        QCOMPARE((*tk)->nvvmReport().via, "via --cuda-path (nvidia/" + tree + ")");
        QCOMPARE((*tk)->nvJitLinkFile(), site / jitRel);
        QVERIFY((*tk)->nvJitLink());
        QVERIFY((*tk)->release());
        QCOMPARE((*tk)->release()->version, std::string(cuda13 ? "13.0.88" : "12.9.86"));
        QCOMPARE((*tk)->cudaMajor(), cuda13 ? 13 : 12);
        QVERIFY2(QString::fromStdString((*tk)->release()->source).endsWith(QString::fromStdString(wheel)),
                 (*tk)->release()->source.c_str());
    }

    // A standard toolkit's release is in its version.json; a conda environment's in conda-meta.
    void theReleaseIsReadFromWhatTheInstallerLeft() {
        QTemporaryDir base;
        const fs::path b = base.path().toStdString();
        plantToolkit(b / "cuda-12.4", /*standard=*/true);
        std::ofstream(b / "cuda-12.4/version.json") << R"({"cuda": {"name": "CUDA SDK", "version": "12.4.1"}})";
        auto r = toolkit::releaseOf(b / "cuda-12.4/nvvm/lib64/libnvvm.so.4");
        QVERIFY(r);
        QCOMPARE(r->version, std::string("12.4.1"));
        QCOMPARE(r->major(), 12);
        plantToolkit(b / "conda", /*standard=*/false);
        fs::create_directories(b / "conda/conda-meta");
        std::ofstream(b / "conda/conda-meta/cuda-nvcc-12.6.85-0.json") << "{}";
        r = toolkit::releaseOf(b / "conda/lib64/libnvvm.so.4");
        QVERIFY(r);
        QCOMPARE(r->version, std::string("12.6.85"));
        plantToolkit(b / "bare", /*standard=*/true);
        QVERIFY(!toolkit::releaseOf(b / "bare/nvvm/lib64/libnvvm.so.4"));
    }

    // Every toolkit the search would look at is listed, each libNVVM once, the release beside it.
    void findToolkitsListsEveryOneOnce() {
        QTemporaryDir base;
        const fs::path b = base.path().toStdString();
        plantToolkit(b / "usr/local/cuda-12.4", true);
        std::ofstream(b / "usr/local/cuda-12.4/version.json") << R"({"cuda": {"version": "12.4.1"}})";
        plantToolkit(b / "usr/local/cuda-13.0", false);
        fs::create_directory_symlink(b / "usr/local/cuda-13.0", b / "usr/local/cuda");
        plantToolkit(b / "mine", true);
        auto config = isolated(b, {{"CUDA_HOME", (b / "usr/local/cuda-12.4").string()}});
        const auto found = toolkit::findToolkits(config, {b / "mine", b / "nothing-here"});
        std::vector<std::string> roots;
        for (const auto& t : found) roots.push_back(t.root.string());
        // CUDA_HOME's first; /usr/local/cuda and cuda-13.0 are one toolkit (a link), listed once;
        // cuda-12.4 again through its folder name is the same libNVVM as CUDA_HOME's.
        QCOMPARE(roots, (std::vector<std::string>{(b / "usr/local/cuda-12.4").string(), (b / "usr/local/cuda").string(),
                                                  (b / "mine").string()}));
        QCOMPARE(found[0].release->version, std::string("12.4.1"));
        QCOMPARE(found[0].via, std::string("via CUDA_HOME"));
        QCOMPARE(found[2].via, std::string("added in Settings"));
        QVERIFY(found[1].nvJitLink.found);
    }

    void pythonIsAskedOnlyWhenTheSearchGetsThatFar() {
        EnvToolkit fake;
        const auto& b = fake.base;
        int asked = 0;
        fake.countPythonAsks(asked);
        const auto& config = fake.config;
        QVERIFY(toolkit::Toolkit::load(config));
        QCOMPARE(asked, 0);
        auto none = isolated(b / "none");
        none.pythonSitePackages = config.pythonSitePackages;
        QVERIFY(!toolkit::Toolkit::load(none));
        QCOMPARE(asked, 1);  // once, though three libraries were searched
    }

    // A hostile nvdisasm on PATH: one that sleeps on --version (and leaves a child
    // holding its output), one that prints forever. The search skips each within the probe's
    // time, says why, and leaves no process of theirs running.
    void aHangingOrChattyNvdisasmIsSkippedInTime_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("why");
        QTest::newRow("sleeps") << "sleep 987.654 &\nsleep 987.654\n"
                                << "did not answer within 2 s";
        QTest::newRow("prints forever") << "exec yes nvdisasm\n"
                                        << "wrote more than 64 KiB";
    }
    void aHangingOrChattyNvdisasmIsSkippedInTime() {
        QFETCH(QString, script);
        QFETCH(QString, why);
        QTemporaryDir base;
        const fs::path b = base.path().toStdString();
        plantToolkit(b / "env", true);
        fs::create_directories(b / "path");
        std::ofstream(b / "path/nvdisasm") << "#!/bin/sh\n" << script.toStdString();
        fs::permissions(b / "path/nvdisasm", fs::perms::owner_all);
        const QByteArray saved = qgetenv("PATH");
        qputenv("PATH", QByteArray::fromStdString((b / "path").string()) + ":/usr/bin:/bin");
        auto restore = qScopeGuard([&] { qputenv("PATH", saved); });
        QElapsedTimer t;
        t.start();
        auto tk = toolkit::Toolkit::load(isolated(b / "none", {{"CUDA_PATH", (b / "env").string()}}));
        QVERIFY2(tk, tk ? "" : tk.error().message.c_str());
        const auto& r = (*tk)->nvdisasmReport();
        QVERIFY(t.elapsed() < 10000);
        QVERIFY(!r.found);
        QVERIFY2(triedPlace(r, (b / "path/nvdisasm").string(), "via PATH"), r.problem.c_str());
        bool said = false;
        for (const auto& tried : r.tried) said = said || tried.why.find(why.toStdString()) != std::string::npos;
        QVERIFY2(said, r.problem.c_str());
        // Nothing it started runs on (the probe kills its process group).
        QTest::qWait(100);
        for (const auto& name : QDir("/proc").entryList(QDir::Dirs)) {
            QFile cmdline("/proc/" + name + "/cmdline");
            if (!name.toInt() || !cmdline.open(QIODevice::ReadOnly)) continue;
            const auto args = cmdline.readAll();
            QVERIFY2(!args.contains("987.654") || test::statFields(name.toInt()).at(0) == "Z",
                     qPrintable("still running: " + name));
        }
    }

    void nvdisasmViaCudaPath() {
        QTemporaryDir base;
        const fs::path b = base.path().toStdString();
        plantToolkit(b / "home", true);  // libNVVM from CUDA_HOME, which has no nvdisasm
        plantNvdisasm(b / "path/bin/nvdisasm");
        PathWithout path;
        auto tk = toolkit::Toolkit::load(
            isolated(b / "none", {{"CUDA_PATH", (b / "path").string()}, {"CUDA_HOME", (b / "home").string()}}));
        QVERIFY2(tk, tk ? "" : tk.error().message.c_str());
        QCOMPARE((*tk)->nvvmReport().via, std::string("via CUDA_HOME"));
        const auto& r = (*tk)->nvdisasmReport();
        QVERIFY2(r.found, r.problem.c_str());
        QCOMPARE(r.name, std::string("nvdisasm"));
        QCOMPARE(r.path, b / "path/bin/nvdisasm");
        QCOMPARE(r.via, std::string("via CUDA_PATH"));
        QCOMPARE(r.version, std::string("13.0.88"));
        QVERIFY(r.problem.empty());
        QCOMPARE(*(*tk)->nvdisasm(), b / "path/bin/nvdisasm");
        // Looked for beside libNVVM first, as ptxas is.
        QVERIFY(triedPlace(r, (b / "home/bin/nvdisasm").string(), "beside libNVVM"));
        // And listed with the libraries (nvpg info, the status bar).
        bool listed = false;
        for (const auto& lib : (*tk)->reports()) listed = listed || (lib.name == "nvdisasm" && lib.found);
        QVERIFY(listed);
    }

    void nvdisasmBesideLibnvvmComesFirst() {
        QTemporaryDir base;
        const fs::path b = base.path().toStdString();
        plantToolkit(b / "home", true);
        plantNvdisasm(b / "home/bin/nvdisasm");
        plantNvdisasm(b / "path/bin/nvdisasm");
        auto tk = toolkit::Toolkit::load(
            isolated(b / "none", {{"CUDA_PATH", (b / "path").string()}, {"CUDA_HOME", (b / "home").string()}}));
        QVERIFY(tk);
        QCOMPARE((*tk)->nvdisasmReport().path, b / "home/bin/nvdisasm");
        QCOMPARE((*tk)->nvdisasmReport().via, std::string("beside libNVVM"));
    }

    void nvdisasmFromThePipWheel() {
        // `pip install nvidia-cuda-nvdisasm` (13.x) puts it at site-packages/nvidia/cu13/bin/nvdisasm.
        EnvToolkit fake(/*withSitePackages=*/true);
        const auto& b = fake.base;
        plantNvdisasm(b / "site/nvidia/cu13/bin/nvdisasm");
        PathWithout path;
        auto tk = toolkit::Toolkit::load(fake.config);
        QVERIFY(tk);
        const auto& r = (*tk)->nvdisasmReport();
        QVERIFY2(r.found, r.problem.c_str());
        QCOMPARE(r.path, b / "site/nvidia/cu13/bin/nvdisasm");
        QCOMPARE(r.via, std::string("via python3 site-packages (nvidia/cu13)"));
    }

    void nvdisasmOnPath() {
        EnvToolkit fake;
        const auto& b = fake.base;
        plantNvdisasm(b / "bin-dir/nvdisasm");
        const auto saved = qgetenv("PATH");
        qputenv("PATH", QByteArray::fromStdString((b / "bin-dir").string()));
        auto tk = toolkit::Toolkit::load(fake.config);
        QVERIFY(tk);
        const auto found = (*tk)->nvdisasmReport();
        qputenv("PATH", saved);
        QCOMPARE(found.path, b / "bin-dir/nvdisasm");
        QCOMPARE(found.via, std::string("via PATH"));
    }

    void nvdisasmMissingSaysHowToGetItAndWhereItLooked() {
        EnvToolkit fake(/*withSitePackages=*/true);
        const auto& b = fake.base;
        plantNvdisasm(b / "site/nvidia/cu13/bin/nvdisasm", /*works=*/false);  // a broken wheel is skipped
        PathWithout path;
        auto tk = toolkit::Toolkit::load(fake.config);
        QVERIFY(tk);
        const auto& r = (*tk)->nvdisasmReport();
        QVERIFY(!r.found);
        QVERIFY(!(*tk)->nvdisasm());
        for (const char* how : {"install the CUDA toolkit's nvdisasm", "pip install nvidia-cuda-nvdisasm", "PATH"})
            QVERIFY2(lower(r.problem).find(lower(how)) != std::string::npos, r.problem.c_str());
        QVERIFY(triedPlace(r, (b / "env/bin/nvdisasm").string(), "beside libNVVM"));
        // Only libNVVM's own toolkit's bin/ is "beside libNVVM" (not the folder
        // above it, /usr/local/bin for /usr/local/cuda), the message says it once, and it says
        // which wheel release serves which toolkit.
        for (const auto& t : r.tried)
            if (t.via == "beside libNVVM") QCOMPARE(t.place, (b / "env/bin/nvdisasm").string());
        QVERIFY2(r.problem.find("nvdisasm not found") == r.problem.rfind("nvdisasm not found") &&
                     r.problem.find("no SASS") == r.problem.rfind("no SASS"),
                 r.problem.c_str());
        for (const char* release : {"start at 13.2", "CUDA 13.0", "nvidia-cuda-nvdisasm==13.2.*", "CUDA 12"})
            QVERIFY2(r.problem.find(release) != std::string::npos, r.problem.c_str());
        QVERIFY(
            triedPlace(r, (b / "site/nvidia/cu13/bin/nvdisasm").string(), "via python3 site-packages (nvidia/cu13)"));
        QVERIFY(triedPlace(r, "nvdisasm", "via PATH"));
        for (const auto& t : r.tried)
            if (t.place == (b / "site/nvidia/cu13/bin/nvdisasm").string())
                QVERIFY2(t.why.find("--version` failed") != std::string::npos, t.why.c_str());
        const auto listed = toolkit::formatTried(r.tried);
        QVERIFY(listed.find((b / "site/nvidia/cu13/bin/nvdisasm").string()) != std::string::npos);
    }

    void nvdisasmWithAnExplicitRootLooksThereAlone() {
        QTemporaryDir base;
        const fs::path b = base.path().toStdString();
        plantToolkit(b / "explicit", true);
        plantNvdisasm(b / "env/bin/nvdisasm");
        plantNvdisasm(b / "bin-dir/nvdisasm");
        const auto saved = qgetenv("PATH");
        qputenv("PATH", QByteArray::fromStdString((b / "bin-dir").string()));
        auto config = isolated(b / "none", {{"CUDA_PATH", (b / "env").string()}});
        config.explicitRoot = b / "explicit";
        auto tk = toolkit::Toolkit::load(config);
        QVERIFY(tk);
        const auto r = (*tk)->nvdisasmReport();
        qputenv("PATH", saved);
        QVERIFY(!r.found);
        QVERIFY2(r.problem.find("chosen toolkit") != std::string::npos, r.problem.c_str());
        QVERIFY(triedPlace(r, (b / "explicit/bin/nvdisasm").string(), "via --cuda-path"));
        for (const auto& t : r.tried) QVERIFY2(t.via != "via PATH" && t.via != "via CUDA_PATH", t.via.c_str());
    }

    void nvdisasmIsLookedForOnlyWhenAskedAndOnce() {
        EnvToolkit fake;
        int asked = 0;
        fake.countPythonAsks(asked);
        PathWithout path;
        auto tk = toolkit::Toolkit::load(fake.config);
        QVERIFY(tk);
        QCOMPARE(asked, 0);  // a start that needs no SASS does not ask python3
        QVERIFY(!(*tk)->nvdisasm());
        QVERIFY(!(*tk)->nvdisasm());
        (void)(*tk)->reports();
        QCOMPARE(asked, 1);
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
