// The doc texts as data: resources/docs/ir.json and libdevice.json, read straight from the
// source tree (the loader that embeds them is inspect::Docs). Each must parse, give every entry
// the fields the hover and `nvpg explain` show, keep keys unique, and cover every libdevice
// function the core knows with its real signature and an accuracy.
#include <QtTest>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "TestSupport.h"
#include "nvvm/Libdevice.h"

using namespace nvpg;

namespace {

nlohmann::json readDocs(const std::string& domain) {
    const auto path = test::sourceDir() / "resources/docs" / (domain + ".json");
    auto doc = nlohmann::json::parse(test::readText(path), nullptr, false);
    if (doc.is_discarded()) qFatal("%s: not valid JSON", path.string().c_str());
    return doc;
}

std::string str(const nlohmann::json& e, const char* field) {
    auto it = e.find(field);
    return it != e.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The form the libdevice entries give: `float __nv_sinf(float a)` from the table's
// {"__nv_sinf", "float", "float %a"}: the IR signature without its '%' sigils.
std::string signatureOf(const nvvm::LibdeviceFunction& f) {
    std::string params(f.params);
    std::erase(params, '%');
    return std::string(f.returnType) + " " + std::string(f.name) + "(" + params + ")";
}

// The lookup rule of inspect::Docs::explain: the exact key, else the longest key the word starts
// with at a '.' boundary ("llvm.nvvm.read.ptx.sreg.tid.x" is "llvm.nvvm.read.ptx.sreg.tid").
bool documented(const std::map<std::string, nlohmann::json>& keys, std::string word) {
    for (;;) {
        if (keys.count(word)) return true;
        const auto dot = word.rfind('.');
        if (dot == std::string::npos || dot == 0) return false;
        word.resize(dot);
    }
}

std::vector<std::filesystem::path> irFixtures() {
    std::vector<std::filesystem::path> files;
    const auto src = test::sourceDir();
    for (const auto& dir : {src / "resources/examples/src", src / "tests/data/ir", src / "tests/data/numba"})
        for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
            if (e.is_regular_file() && e.path().extension() == ".ll") files.push_back(e.path());
    return files;
}

}  // namespace

class TestDocData : public QObject {
    Q_OBJECT

private:
    void checkCommon(const std::string& domain, std::map<std::string, nlohmann::json>& byKey) {
        const auto doc = readDocs(domain);
        QCOMPARE(QString::fromStdString(str(doc, "domain")), QString::fromStdString(domain));
        QVERIFY2(doc.contains("entries") && doc["entries"].is_array() && !doc["entries"].empty(),
                 (domain + ": no entries array").c_str());
        for (const auto& e : doc["entries"]) {
            const std::string key = str(e, "key");
            QVERIFY2(!key.empty(), (domain + ": an entry without a key").c_str());
            for (const char* field : {"kind", "title", "summary", "link", "source"})
                QVERIFY2(!str(e, field).empty(), (domain + " " + key + ": empty or missing " + field).c_str());
            const std::string link = str(e, "link");
            QVERIFY2(link.starts_with("https://docs.nvidia.com/") || link.starts_with("https://llvm.org/"),
                     (domain + " " + key + ": link " + link + " is not NVIDIA's or LLVM's documentation").c_str());
            QVERIFY2(str(e, "title").starts_with(key + " — "),
                     (domain + " " + key + ": title does not start with the key").c_str());
            if (e.contains("modifiers")) QVERIFY2(e["modifiers"].is_object(), (domain + " " + key).c_str());
            QVERIFY2(byKey.emplace(key, e).second, (domain + ": key " + key + " twice").c_str());
        }
    }

private slots:
    void irEntriesAreComplete() {
        std::map<std::string, nlohmann::json> ir;
        checkCommon("ir", ir);
        if (QTest::currentTestFailed()) return;
        // What a reader of the bundled examples meets, by the keys SCHEMA.md gives them.
        for (const char* k : {"getelementptr", "load", "store", "alloca", "icmp", "fcmp", "phi", "select", "call", "ret",
                              "br", "switch", "atomicrmw", "cmpxchg", "fence", "addrspacecast", "fadd", "fmul", "define",
                              "declare", "datalayout", "triple", "dbg", "addrspace", "addrspace(0)", "addrspace(1)",
                              "addrspace(2)", "addrspace(3)", "addrspace(4)", "addrspace(5)",
                              "llvm.nvvm.read.ptx.sreg.tid", "llvm.nvvm.read.ptx.sreg.ctaid",
                              "llvm.nvvm.read.ptx.sreg.ntid", "llvm.nvvm.barrier0", "llvm.fma", "llvm.maxnum",
                              "nvvm.annotations", "nvvmir.version", "llvm.module.flags", "llvm.dbg.cu", "llvm.used"})
            QVERIFY2(ir.count(k), (std::string("ir.json has no entry for ") + k).c_str());
        // The predicates a comparison takes are its modifiers.
        QCOMPARE(ir["icmp"]["modifiers"].size(), size_t(10));
        QVERIFY(ir["fcmp"]["modifiers"].contains("olt"));
        QVERIFY(ir["addrspace(3)"]["summary"].get<std::string>().find(".shared") != std::string::npos);
    }

    // Every instruction, intrinsic, named metadata and address space in the IR of the bundled
    // examples and test fixtures has an entry, so a new fixture with a new word fails here.
    void irCoversTheFixtures() {
        std::map<std::string, nlohmann::json> ir, lib;
        checkCommon("ir", ir);
        if (QTest::currentTestFailed()) return;
        checkCommon("libdevice", lib);
        if (QTest::currentTestFailed()) return;
        static const std::set<std::string> instructions = {
            "ret", "br", "switch", "indirectbr", "unreachable", "fneg", "add", "fadd", "sub", "fsub", "mul", "fmul",
            "udiv", "sdiv", "fdiv", "urem", "srem", "frem", "shl", "lshr", "ashr", "and", "or", "xor",
            "extractelement", "insertelement", "shufflevector", "extractvalue", "insertvalue", "alloca", "load",
            "store", "fence", "cmpxchg", "atomicrmw", "getelementptr", "trunc", "zext", "sext", "fptrunc", "fpext",
            "fptoui", "fptosi", "uitofp", "sitofp", "ptrtoint", "inttoptr", "bitcast", "addrspacecast", "icmp",
            "fcmp", "phi", "select", "freeze", "call"};
        // Plain string literals: moc misreads raw strings that contain a quote.
        const std::regex assigned("=\\s*(?:tail\\s+)?([a-z]+)\\b"), statement("^\\s+(?:tail\\s+)?([a-z]+)\\b");
        const std::regex symbol("@\"?((?:llvm\\.|__nv)[\\w.$]*)"), named("^!([A-Za-z_][\\w.]*)\\s*=");
        const std::regex space("addrspace\\(\\d+\\)"), node("!(DI[A-Za-z]+)\\(");
        int words = 0;
        for (const auto& file : irFixtures()) {
            std::istringstream in(test::readText(file));
            for (std::string line; std::getline(in, line);) {
                const std::string code = line.substr(0, line.find(';'));
                std::set<std::string> found;
                for (const auto* re : {&assigned, &statement})
                    for (auto it = std::sregex_iterator(code.begin(), code.end(), *re); it != std::sregex_iterator(); ++it)
                        if (instructions.count((*it)[1])) found.insert((*it)[1]);
                for (const auto* re : {&symbol, &named, &node})
                    for (auto it = std::sregex_iterator(code.begin(), code.end(), *re); it != std::sregex_iterator(); ++it)
                        found.insert((*it)[1]);
                for (auto it = std::sregex_iterator(code.begin(), code.end(), space); it != std::sregex_iterator(); ++it)
                    found.insert((*it)[0]);
                for (std::string w : found) {
                    while (!w.empty() && w.back() == '.') w.pop_back();
                    ++words;
                    QVERIFY2(documented(ir, w) || lib.count(w),
                             (file.filename().string() + ": `" + w + "` has no entry in ir.json or libdevice.json").c_str());
                }
            }
        }
        QVERIFY2(words > 100, "the fixtures were not read");
    }

    void libdeviceCoversEveryFunction() {
        std::map<std::string, nlohmann::json> lib;
        checkCommon("libdevice", lib);
        if (QTest::currentTestFailed()) return;
        std::set<std::string> table;
        for (const auto& f : nvvm::libdeviceFunctions()) {
            const std::string name(f.name);
            table.insert(name);
            QVERIFY2(lib.count(name), ("libdevice.json has no entry for " + name).c_str());
            const auto& e = lib[name];
            QCOMPARE(QString::fromStdString(str(e, "kind")), QStringLiteral("function"));
            QCOMPARE(QString::fromStdString(str(e, "syntax")), QString::fromStdString(signatureOf(f)));
            QVERIFY2(!str(e, "accuracy").empty(), (name + ": no accuracy").c_str());
            QVERIFY2(e.contains("option_effect") && e["option_effect"].is_string(), (name + ": no option_effect").c_str());
        }
        for (const auto& [key, e] : lib)
            QVERIFY2(table.count(key), ("libdevice.json documents " + key + ", which libdevice does not define").c_str());
    }

    // A few figures as NVIDIA's CUDA C++ Programming Guide (13.0) tables state them, so a wrong
    // edit of the generator's facts fails here.
    void libdeviceFiguresMatchTheGuide() {
        std::map<std::string, nlohmann::json> lib;
        checkCommon("libdevice", lib);
        if (QTest::currentTestFailed()) return;
        const std::map<std::string, std::string> expected = {
            {"__nv_sinf", "2 ulp (full range)"},   {"__nv_tanf", "4 ulp (full range)"},
            {"__nv_powf", "4 ulp (full range)"},   {"__nv_sin", "2 ulp (full range)"},
            {"__nv_exp", "1 ulp (full range)"},    {"__nv_tgamma", "10 ulp (full range)"},
            {"__nv_erfcinv", "6 ulp (full range)"}, {"__nv_fast_expf", "2 + floor(|1.173·x|) ulp"},
        };
        for (const auto& [name, acc] : expected)
            QCOMPARE(QString::fromStdString(str(lib[name], "accuracy")), QString::fromStdString(acc));
        QVERIFY(str(lib["__nv_clz"], "accuracy").starts_with("exact"));
        QVERIFY(str(lib["__nv_fdiv_rn"], "accuracy").starts_with("0 ulp"));
        // What libdevice.10.bc reads: __CUDA_FTZ in sinf, __CUDA_PREC_SQRT in sqrtf, nothing in the double sin.
        QVERIFY(str(lib["__nv_sinf"], "option_effect").find("-ftz") != std::string::npos);
        QVERIFY(str(lib["__nv_sqrtf"], "option_effect").find("-prec-sqrt") != std::string::npos);
        QVERIFY(str(lib["__nv_sin"], "option_effect").find("-ftz") == std::string::npos);
        QCOMPARE(QString::fromStdString(str(lib["__nv_sinf"], "link")),
                 QStringLiteral("https://docs.nvidia.com/cuda/libdevice-users-guide/__nv_sinf.html"));
    }
};

QTEST_GUILESS_MAIN(TestDocData)
#include "tst_docdata.moc"
