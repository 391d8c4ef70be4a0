// The doc texts as data: resources/docs/ir.json and libdevice.json, as the binary has them built
// in (inspect::Docs::builtIn(), which rejects an entry without key, kind, title, summary, link or
// source). Each domain must keep its keys unique, cover every libdevice function the core knows with
// its real signature and an accuracy, and explain every word of the bundled examples' and test
// fixtures' IR.
#include <QtTest>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "TestSupport.h"
#include "core/inspect/Docs.h"
#include "core/nvvm/Libdevice.h"

using namespace nvpg;
using inspect::DocContext;
using inspect::DocDomain;
using inspect::DocEntry;

namespace {

// The built-in entries of one domain by key; a key twice is reported through `duplicate`.
std::map<std::string, const DocEntry*> byKey(DocDomain domain, std::string* duplicate) {
    std::map<std::string, const DocEntry*> keys;
    for (const auto& e : inspect::Docs::builtIn().entries())
        if (e.domain == domain && !keys.emplace(e.key, &e).second && duplicate->empty()) *duplicate = e.key;
    return keys;
}

std::string modifier(const DocEntry& e, const std::string& m) {
    for (const auto& [name, meaning] : e.modifiers)
        if (name == m) return meaning;
    return {};
}

// The form the libdevice entries give: `float __nv_sinf(float a)` from the table's
// {"__nv_sinf", "float", "float %a"}: the IR signature without its '%' sigils.
std::string signatureOf(const nvvm::LibdeviceFunction& f) {
    std::string params(f.params);
    std::erase(params, '%');
    return std::string(f.returnType) + " " + std::string(f.name) + "(" + params + ")";
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
    // Both domains are there, with the fields the hover and `nvpg explain` show and unique keys.
    void checkDomain(DocDomain domain, const char* name, std::map<std::string, const DocEntry*>& keys) {
        std::string duplicate;
        keys = byKey(domain, &duplicate);
        QVERIFY2(duplicate.empty(), (std::string(name) + ": key " + duplicate + " twice").c_str());
        QVERIFY2(keys.size() > 100, (std::string(name) + ".json is not built in, or nearly empty").c_str());
        for (const auto& [key, e] : keys) {
            for (const auto* field : {&e->kind, &e->title, &e->summary, &e->link, &e->source})
                QVERIFY2(!field->empty(), (std::string(name) + " " + key + ": an empty field").c_str());
            QVERIFY2(e->link.starts_with("https://docs.nvidia.com/") || e->link.starts_with("https://llvm.org/"),
                     (std::string(name) + " " + key + ": link " + e->link + " is not NVIDIA's or LLVM's").c_str());
            QVERIFY2(e->title.starts_with(key + " — "),
                     (std::string(name) + " " + key + ": title lacks the key").c_str());
        }
    }

private slots:
    void irEntriesAreComplete() {
        std::map<std::string, const DocEntry*> ir;
        checkDomain(DocDomain::Ir, "ir", ir);
        if (QTest::currentTestFailed()) return;
        // What a reader of the bundled examples meets, by the keys SCHEMA.md gives them.
        for (const char* k : {"getelementptr",
                              "load",
                              "store",
                              "alloca",
                              "icmp",
                              "fcmp",
                              "phi",
                              "select",
                              "call",
                              "ret",
                              "br",
                              "switch",
                              "atomicrmw",
                              "cmpxchg",
                              "fence",
                              "addrspacecast",
                              "fadd",
                              "fmul",
                              "define",
                              "declare",
                              "datalayout",
                              "triple",
                              "dbg",
                              "addrspace",
                              "addrspace(0)",
                              "addrspace(1)",
                              "addrspace(2)",
                              "addrspace(3)",
                              "addrspace(4)",
                              "addrspace(5)",
                              "llvm.nvvm.read.ptx.sreg.tid",
                              "llvm.nvvm.read.ptx.sreg.ctaid",
                              "llvm.nvvm.read.ptx.sreg.ntid",
                              "llvm.nvvm.barrier0",
                              "llvm.fma",
                              "llvm.maxnum",
                              "nvvm.annotations",
                              "nvvmir.version",
                              "llvm.module.flags",
                              "llvm.dbg.cu",
                              "llvm.used"})
            QVERIFY2(ir.count(k), (std::string("ir.json has no entry for ") + k).c_str());
        // The predicates a comparison takes are its modifiers.
        QCOMPARE(ir["icmp"]->modifiers.size(), size_t(10));
        QVERIFY(!modifier(*ir["fcmp"], "olt").empty());
        QVERIFY(ir["addrspace(3)"]->summary.find(".shared") != std::string::npos);
        // A component of a special register is explained as the family's modifier.
        const auto tid = inspect::Docs::builtIn().explain("llvm.nvvm.read.ptx.sreg.tid.x", DocContext::Ir);
        QVERIFY(!tid.empty());
        QCOMPARE(QString::fromStdString(tid[0].entry->key), QStringLiteral("llvm.nvvm.read.ptx.sreg.tid"));
    }

    // Every instruction, intrinsic, named metadata and address space in the IR of the bundled
    // examples and test fixtures is explained in IR context, so a new fixture with a new word fails here.
    void irCoversTheFixtures() {
        const auto& docs = inspect::Docs::builtIn();
        static const std::set<std::string> instructions = {"ret",
                                                           "br",
                                                           "switch",
                                                           "indirectbr",
                                                           "unreachable",
                                                           "fneg",
                                                           "add",
                                                           "fadd",
                                                           "sub",
                                                           "fsub",
                                                           "mul",
                                                           "fmul",
                                                           "udiv",
                                                           "sdiv",
                                                           "fdiv",
                                                           "urem",
                                                           "srem",
                                                           "frem",
                                                           "shl",
                                                           "lshr",
                                                           "ashr",
                                                           "and",
                                                           "or",
                                                           "xor",
                                                           "extractelement",
                                                           "insertelement",
                                                           "shufflevector",
                                                           "extractvalue",
                                                           "insertvalue",
                                                           "alloca",
                                                           "load",
                                                           "store",
                                                           "fence",
                                                           "cmpxchg",
                                                           "atomicrmw",
                                                           "getelementptr",
                                                           "trunc",
                                                           "zext",
                                                           "sext",
                                                           "fptrunc",
                                                           "fpext",
                                                           "fptoui",
                                                           "fptosi",
                                                           "uitofp",
                                                           "sitofp",
                                                           "ptrtoint",
                                                           "inttoptr",
                                                           "bitcast",
                                                           "addrspacecast",
                                                           "icmp",
                                                           "fcmp",
                                                           "phi",
                                                           "select",
                                                           "freeze",
                                                           "call"};
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
                    for (auto it = std::sregex_iterator(code.begin(), code.end(), *re); it != std::sregex_iterator();
                         ++it)
                        if (instructions.count((*it)[1])) found.insert((*it)[1]);
                for (const auto* re : {&symbol, &named, &node})
                    for (auto it = std::sregex_iterator(code.begin(), code.end(), *re); it != std::sregex_iterator();
                         ++it)
                        found.insert((*it)[1]);
                for (auto it = std::sregex_iterator(code.begin(), code.end(), space); it != std::sregex_iterator();
                     ++it)
                    found.insert((*it)[0]);
                for (std::string w : found) {
                    while (!w.empty() && w.back() == '.') w.pop_back();
                    ++words;
                    const auto e = docs.explain(w, DocContext::Ir);
                    QVERIFY2(
                        !e.empty() &&
                            (e[0].entry->domain == DocDomain::Ir || e[0].entry->domain == DocDomain::Libdevice),
                        (file.filename().string() + ": `" + w + "` has no entry in ir.json or libdevice.json").c_str());
                }
            }
        }
        QVERIFY2(words > 100, "the fixtures were not read");
    }

    void libdeviceCoversEveryFunction() {
        std::map<std::string, const DocEntry*> lib;
        checkDomain(DocDomain::Libdevice, "libdevice", lib);
        if (QTest::currentTestFailed()) return;
        std::set<std::string> table;
        for (const auto& f : nvvm::libdeviceFunctions()) {
            const std::string name(f.name);
            table.insert(name);
            QVERIFY2(lib.count(name), ("libdevice.json has no entry for " + name).c_str());
            const DocEntry& e = *lib[name];
            QCOMPARE(QString::fromStdString(e.kind), QStringLiteral("function"));
            QCOMPARE(QString::fromStdString(e.syntax), QString::fromStdString(signatureOf(f)));
            QVERIFY2(!e.accuracy.empty(), (name + ": no accuracy").c_str());
        }
        for (const auto& [key, e] : lib)
            QVERIFY2(table.count(key),
                     ("libdevice.json documents " + key + ", which libdevice does not define").c_str());
    }

    // A few figures as NVIDIA's CUDA C++ Programming Guide (13.0) tables state them, so a wrong
    // edit of the generator's facts fails here.
    void libdeviceFiguresMatchTheGuide() {
        std::map<std::string, const DocEntry*> lib;
        checkDomain(DocDomain::Libdevice, "libdevice", lib);
        if (QTest::currentTestFailed()) return;
        const std::map<std::string, std::string> expected = {
            {"__nv_sinf", "2 ulp (full range)"},    {"__nv_tanf", "4 ulp (full range)"},
            {"__nv_powf", "4 ulp (full range)"},    {"__nv_sin", "2 ulp (full range)"},
            {"__nv_exp", "1 ulp (full range)"},     {"__nv_tgamma", "10 ulp (full range)"},
            {"__nv_erfcinv", "6 ulp (full range)"}, {"__nv_fast_expf", "2 + floor(|1.173·x|) ulp"},
        };
        for (const auto& [name, acc] : expected)
            QCOMPARE(QString::fromStdString(lib[name]->accuracy), QString::fromStdString(acc));
        QVERIFY(lib["__nv_clz"]->accuracy.starts_with("exact"));
        QVERIFY(lib["__nv_fdiv_rn"]->accuracy.starts_with("0 ulp"));
        // What libdevice.10.bc reads: __CUDA_FTZ in sinf, __CUDA_PREC_SQRT in sqrtf, nothing in the double sin.
        QVERIFY(lib["__nv_sinf"]->optionEffect.find("-ftz") != std::string::npos);
        QVERIFY(lib["__nv_sqrtf"]->optionEffect.find("-prec-sqrt") != std::string::npos);
        QVERIFY(lib["__nv_sin"]->optionEffect.find("-ftz") == std::string::npos);
        QCOMPARE(QString::fromStdString(lib["__nv_sinf"]->link),
                 QStringLiteral("https://docs.nvidia.com/cuda/libdevice-users-guide/__nv_sinf.html"));
    }
};

QTEST_GUILESS_MAIN(TestDocData)
#include "tst_docdata.moc"
