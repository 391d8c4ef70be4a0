// The teaching examples in resources/examples: each .nvpg is what make_examples.py builds from
// src/, reads and re-serializes to the same bytes, and compiles with the real libNVVM into PTX
// with an entry for every kernel its IR annotates. For lto-kept and lto-dropped, the LTO result
// keeps or loses the kernels as their comments say.
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "TestSupport.h"
#include "core/nvvm/Program.h"
#include "core/workspace/Workspace.h"

using namespace nvpg;
namespace fs = std::filesystem;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

fs::path srcDir(const std::string& example) {
    return test::examplesDir() / "src" / example;
}

nlohmann::json sourceSpec(const std::string& example) {
    auto doc = nlohmann::json::parse(test::readText(srcDir(example) / "workspace.json"), nullptr, false);
    if (doc.is_discarded() || !doc.contains("modules")) qFatal("%s: workspace.json is not valid", example.c_str());
    return doc;
}

// Kernels as the IR declares them: `!{void (...)* @name, !"kernel", i32 1}`.
std::set<std::string> annotatedKernels(const workspace::Workspace& ws) {
    static const QRegularExpression re(
        R"re(!\{\s*void\s*\([^)]*\)\s*\*\s*@([A-Za-z_$.][\w$.]*)\s*,\s*!"kernel"\s*,\s*i32\s+1\s*\})re");
    std::set<std::string> kernels;
    for (const auto& m : ws.modules) {
        if (m.isBitcode()) continue;
        auto it = re.globalMatch(qs(m.bytes));
        while (it.hasNext()) kernels.insert(it.next().captured(1).toStdString());
    }
    return kernels;
}

std::set<std::string> ptxEntries(const std::string& ptx) {
    static const QRegularExpression re(R"(\.entry\s+([A-Za-z_$.][\w$.]*)\s*\()");
    std::set<std::string> entries;
    auto it = re.globalMatch(qs(ptx));
    while (it.hasNext()) entries.insert(it.next().captured(1).toStdString());
    return entries;
}

QString names(const std::set<std::string>& s) {
    QStringList l;
    for (const auto& n : s) l << qs(n);
    return l.join(", ");
}

// A Program holding the example's modules, with libdevice when the example asks for it.
std::unique_ptr<nvvm::Program> programFor(const workspace::Workspace& ws) {
    auto tk = test::realToolkit();
    auto program = nvvm::Program::create(tk->nvvm());
    if (!program) qFatal("%s", program.error().message.c_str());
    for (const auto& m : ws.modules)
        if (auto s = (*program)->addModule(m); !s) qFatal("%s", s.error().message.c_str());
    if (ws.libdevice) {
        auto ld = tk->libdevice();
        if (!ld) qFatal("%s", ld.error().message.c_str());
        (*program)->useLibdevice(*ld);
    }
    return std::move(*program);
}

QString logOf(const nvvm::CompileOutput& out) {
    QString s = qs(out.log);
    for (const auto& d : out.diagnostics) s += "\n" + qs(d.message);
    return s;
}

}  // namespace

class TestExamples : public QObject {
    Q_OBJECT

private slots:
    void everySourceHasAnExample();
    void loads_data() { rows(); }
    void loads();
    void modulesMatchSources_data() { rows(); }
    void modulesMatchSources();
    void bitcodeIsWhatLlvmAsWrites_data() { rows(); }
    void bitcodeIsWhatLlvmAsWrites();
    void fileIsWhatTheSerializerWrites_data() { rows(); }
    void fileIsWhatTheSerializerWrites();
    void compilesWithEveryKernel_data() { rows(); }
    void compilesWithEveryKernel();
    void ltoKeepsOrDropsKernels_data();
    void ltoKeepsOrDropsKernels();

private:
    static void rows() {
        QTest::addColumn<QString>("example");
        for (const auto& n : test::exampleNames()) QTest::newRow(n.c_str()) << qs(n);
    }
};

void TestExamples::everySourceHasAnExample() {
    std::set<std::string> built, sources;
    for (const auto& n : test::exampleNames()) built.insert(n);
    for (const auto& e : fs::directory_iterator(test::examplesDir() / "src"))
        if (fs::exists(e.path() / "workspace.json")) sources.insert(e.path().filename().string());
    QCOMPARE(names(built), names(sources));
    for (const char* expected : {"saxpy", "libdevice-math", "two-modules", "lto-kept", "lto-dropped", "bitcode"})
        QVERIFY2(built.count(expected), expected);
}

void TestExamples::loads() {
    QFETCH(QString, example);
    auto ws = workspace::loadWorkspace(test::examplePath(example.toStdString()));
    QVERIFY2(ws.ok(), ws.ok() ? "" : ws.error().message.c_str());
    QCOMPARE(qs(ws->name), example);
    QVERIFY(!ws->description.empty());
    QVERIFY(!ws->modules.empty());
    // The examples run on whatever GPU the user has: the arch is left to the app.
    QVERIFY(!ws->options.arch);
}

void TestExamples::modulesMatchSources() {
    QFETCH(QString, example);
    const auto name = example.toStdString();
    const auto ws = test::loadExample(name);
    const auto spec = sourceSpec(name);
    QCOMPARE(ws.modules.size(), spec["modules"].size());
    for (size_t i = 0; i < ws.modules.size(); ++i) {
        const auto& m = ws.modules[i];
        const auto& s = spec["modules"][i];
        QCOMPARE(qs(m.name), qs(s.value("name", "")));
        QCOMPARE(m.lazy, s.value("lazy", false));
        if (s.value("bitcode", false)) {
            QVERIFY2(m.isBitcode(), m.name.c_str());
        } else {
            QVERIFY2(!m.isBitcode(), m.name.c_str());
            const auto file = srcDir(name) / s.value("file", "");
            QVERIFY2(m.bytes == test::readText(file), qPrintable(qs(m.name) + " differs from " + qs(file.string()) +
                                                                 "; run resources/examples/make_examples.py"));
        }
    }
}

void TestExamples::bitcodeIsWhatLlvmAsWrites() {
    QFETCH(QString, example);
    const auto name = example.toStdString();
    const auto ws = test::loadExample(name);
    const auto spec = sourceSpec(name);
    bool any = false;
    for (size_t i = 0; i < ws.modules.size(); ++i) any = any || ws.modules[i].isBitcode();
    if (!any) return;  // nothing to assemble in this example
    const QString llvmAs = QStandardPaths::findExecutable("llvm-as-14");
    if (llvmAs.isEmpty())
        QSKIP(
            "llvm-as-14 is not on PATH, so the embedded bitcode is not compared with a fresh "
            "assembly of its .ll (install llvm-14 to check it)");
    for (size_t i = 0; i < ws.modules.size(); ++i) {
        const auto& m = ws.modules[i];
        if (!m.isBitcode()) continue;
        const auto file = srcDir(name) / spec["modules"][i].value("file", "");
        // From stdin, as make_examples.py does, so the path is not recorded in the bitcode.
        QProcess as;
        as.setStandardInputFile(qs(file.string()));
        as.start(llvmAs, {"-", "-o", "-"});
        QVERIFY(as.waitForFinished(60000));
        QCOMPARE(as.exitCode(), 0);
        const QByteArray fresh = as.readAllStandardOutput();
        QVERIFY2(std::string(fresh.constData(), fresh.size()) == m.bytes,
                 qPrintable(qs(m.name) + " is not what llvm-as-14 makes of " + qs(file.string()) +
                            "; run resources/examples/make_examples.py"));
    }
}

void TestExamples::fileIsWhatTheSerializerWrites() {
    QFETCH(QString, example);
    const auto name = example.toStdString();
    const auto bytes = test::readText(test::examplePath(name));
    auto ws = workspace::parseWorkspace(bytes, name);
    QVERIFY2(ws.ok(), ws.ok() ? "" : ws.error().message.c_str());
    QCOMPARE(qs(workspace::serializeWorkspace(*ws)), qs(bytes));
}

void TestExamples::compilesWithEveryKernel() {
    QFETCH(QString, example);
    const auto ws = test::loadExample(example.toStdString());
    const auto kernels = annotatedKernels(ws);
    QVERIFY2(!kernels.empty(), "the example's IR annotates no kernel");

    auto program = programFor(ws);
    const auto verified = program->verify(ws.options);
    QVERIFY2(verified.ok, qPrintable(logOf(verified)));
    const auto out = program->compile(ws.options);
    QVERIFY2(out.ok, qPrintable(logOf(out)));
    // Clean: libNVVM has nothing to say about the examples, not even a warning.
    QVERIFY2(out.diagnostics.empty(), qPrintable(logOf(out)));
    QCOMPARE(program->libdeviceAdded(), ws.libdevice);

    const auto entries = ptxEntries(out.result);
    for (const auto& k : kernels)
        QVERIFY2(entries.count(k), qPrintable("no .entry " + qs(k) + " in the PTX; entries: " + names(entries)));
    if (ws.libdevice) QVERIFY2(!qs(out.result).contains(".extern .func"), "libdevice functions were left unresolved");
}

void TestExamples::ltoKeepsOrDropsKernels_data() {
    QTest::addColumn<QString>("example");
    QTest::addColumn<bool>("kept");
    QTest::newRow("lto-kept") << "lto-kept" << true;
    QTest::newRow("lto-dropped") << "lto-dropped" << false;
}

void TestExamples::ltoKeepsOrDropsKernels() {
    QFETCH(QString, example);
    QFETCH(bool, kept);
    const auto ws = test::loadExample(example.toStdString());
    const auto kernels = annotatedKernels(ws);
    QCOMPARE(kernels.size(), size_t(2));

    auto options = ws.options;
    options.arch = "compute_90";
    auto program = programFor(ws);
    const auto ptx = program->compile(options);
    QVERIFY2(ptx.ok, qPrintable(logOf(ptx)));
    QCOMPARE(names(ptxEntries(ptx.result)), names(kernels));  // before LTO, both are there
    options.genLto = true;
    const auto ltoir = program->compile(options);
    QVERIFY2(ltoir.ok, qPrintable(logOf(ltoir)));
    QVERIFY(!ltoir.result.empty());

    // nvJitLink through its bare table: what the example claims about nvJitLink itself.
    const auto* jit = test::realToolkit()->nvJitLink();
    QVERIFY2(jit, "nvJitLink is needed for the LTO examples");
    const char* linkOptions[] = {"-arch=sm_90", "-lto", "-ptx"};
    nvJitLinkHandle h = nullptr;
    QCOMPARE(jit->create(&h, 3, linkOptions), NVJITLINK_SUCCESS);
    QCOMPARE(jit->addData(h, NVJITLINK_INPUT_LTOIR, ltoir.result.data(), ltoir.result.size(), "program.ltoir"),
             NVJITLINK_SUCCESS);
    const nvJitLinkResult done = jit->complete(h);  // succeeds in both: that is the trap
    std::string linked;
    size_t size = 0;
    if (done == NVJITLINK_SUCCESS && jit->getLinkedPtxSize(h, &size) == NVJITLINK_SUCCESS) {
        linked.resize(size);
        if (jit->getLinkedPtx(h, linked.data()) != NVJITLINK_SUCCESS) linked.clear();
    }
    jit->destroy(&h);
    QCOMPARE(done, NVJITLINK_SUCCESS);
    QCOMPARE(names(ptxEntries(linked)), kept ? names(kernels) : QString());
}

QTEST_GUILESS_MAIN(TestExamples)
#include "tst_examples.moc"
