// The hover docs (inspect::Docs over resources/docs/*.json): the lookup rules a hover and
// `nvpg explain` rely on, the hover word on real lines, the loader's errors, the texts' own
// rules, and the coverage: every word that the PTX, IR and SASS of each bundled example and test
// fixture show (compiled here with the real libNVVM, nvJitLink and nvdisasm) has an entry.
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <regex>
#include <set>

#include "TestSupport.h"
#include "core/inspect/Docs.h"
#include "core/inspect/DocsEmbedded.h"
#include "core/inspect/Sass.h"
#include "core/nvvm/NewerIr.h"
#include "core/pipeline/Pipeline.h"
#include "core/support/Text.h"

using namespace nvpg;
using inspect::DocContext;
using inspect::DocDomain;
namespace fs = std::filesystem;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

const inspect::Docs& docs() {
    return inspect::Docs::builtIn();
}

std::string meaningOf(const inspect::Explanation& e, const std::string& modifier) {
    for (const auto& [m, text] : e.modifiers)
        if (m == modifier) return text;
    return "<not a modifier of the word>";
}

// One program as a user has it, and what it compiled to.
struct Compiled {
    std::string name;
    std::vector<nvvm::Module> modules;
    std::string ptx;      // libNVVM's PTX, and nvJitLink's LTO PTX where the program has one
    std::string sass;     // nvdisasm -c of its cubin, where nvdisasm is found
    std::string sassWhy;  // why there is none
};

// Every bundled example, every numba-cuda fixture, and every IR fixture that compiles on its own
// (plus caller.ll with callee.ll): compiled once for the whole suite.
const std::vector<Compiled>& compiledCases() {
    static const std::vector<Compiled> cases = [] {
        const bool sass = test::nvdisasmForTests().path != nullptr;
        auto jobs = test::exampleAndNumbaJobs();
        for (auto& [name, job] : jobs)
            if (support::startsWith(name, "example ")) job.outputs = pipeline::kPtx | pipeline::kLtoPtx;
        for (const char* folder : {"ir", "ir/gpu", "ptx"})
            for (const auto& e : fs::directory_iterator(test::dataDir() / folder)) {
                if (e.path().extension() != ".ll") continue;
                pipeline::Job job;
                job.modules = {test::irFixture(e.path().filename().string(), false, folder)};
                job.libdevice = job.modules[0].bytes.find("__nv_") != std::string::npos;
                jobs.emplace_back(std::string(folder) + "/" + e.path().filename().string(), job);
            }
        pipeline::Job pair;
        pair.modules = {test::irFixture("callee.ll"), test::irFixture("caller.ll")};
        jobs.emplace_back("ir/callee.ll + ir/caller.ll", pair);
        std::sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });

        std::vector<Compiled> out;
        for (auto& [name, job] : jobs) {
            if (sass) job.outputs |= pipeline::kSass;
            job.archFromGpu = false;
            pipeline::Pipeline p(test::realToolkit());
            auto r = p.run(job);
            if (!r) qFatal("%s: %s", name.c_str(), r.error().message.c_str());
            if (r->ptx.empty()) {
                // A fixture made to fail (broken.ll, the verifier's) has no output to explain.
                qInfo("%s: no PTX (the fixture does not compile on its own)", name.c_str());
                continue;
            }
            out.push_back({name, job.modules, r->ptx + "\n" + r->linkedPtx, r->sass, r->sassUnavailable});
        }
        return out;
    }();
    return cases;
}

// Where a missing entry was seen: the word, and the first case and line that showed it.
using Missing = std::map<std::string, std::string>;

QString listed(const Missing& missing) {
    QStringList l;
    for (const auto& [word, where] : missing) l << qs(word + "   (" + where + ")");
    return l.join("\n  ");
}

std::string withoutComment(std::string_view line) {
    // PTX strings (.file, .pragma) and // comments carry no words to explain.
    std::string out;
    bool inString = false;
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '"')
            inString = !inString;
        else if (!inString && line.compare(i, 2, "//") == 0)
            break;
        else if (!inString)
            out += line[i];
    }
    return out;
}

// The PTX words a hover can land on and that the docs must know: each instruction with its
// modifiers, each directive and type, each special register (a %name that no .reg declares).
void checkPtx(const Compiled& c, Missing& missing, std::set<std::string>& seen) {
    static const std::regex token(R"re([A-Za-z0-9_.$%]+)re");
    static const std::regex regDecl(R"re(\.reg\s+\.\w+\s+%(\w+?)(<\d+>)?\s*;)re");
    std::set<std::string> registers;
    for (std::sregex_iterator it(c.ptx.begin(), c.ptx.end(), regDecl), end; it != end; ++it) registers.insert((*it)[1]);
    int lineNo = 0;
    for (auto raw : support::splitLines(c.ptx)) {
        ++lineNo;
        const std::string line = withoutComment(raw);
        const auto where = c.name + " PTX line " + std::to_string(lineNo);
        auto need = [&](const std::string& word) {
            seen.insert(word);
            const auto found = docs().explain(word, DocContext::Ptx);
            if (found.empty() || found[0].entry->domain != DocDomain::Ptx) {
                missing.emplace(word, where);
                return;
            }
            for (const auto& [m, meaning] : found[0].modifiers)
                if (meaning.empty()) missing.emplace(word + " (modifier " + m + ")", where);
        };
        const std::string_view rest = support::trim(line);
        if (rest.empty()) continue;
        std::vector<std::string> words;
        std::vector<size_t> ends;
        const std::string text(rest);
        for (std::sregex_iterator it(text.begin(), text.end(), token), end; it != end; ++it) {
            words.push_back(it->str());
            ends.push_back(size_t(it->position() + it->length()));
        }
        // The opcode: the line's first word (after a predicate guard @%p1 / @!%p1), followed by
        // a blank or ';' ("__nv_sinf," and "param0" in a call's argument lines are not one).
        // A label line ($L__BB0_2:) has none.
        const size_t first = rest[0] == '@' ? 1 : 0;
        for (size_t i = 0; i < words.size(); ++i) {
            const auto& w = words[i];
            if (w[0] == '.') {
                need(w);
            } else if (w[0] == '%') {
                const auto name = w.substr(1, w.find_first_of(".0123456789", 1) - 1);
                if (!registers.count(name)) need(w);
            } else if (i == first && std::isalpha(static_cast<unsigned char>(w[0])) &&
                       (rest[0] == '@' || rest.starts_with(w)) && ends[i] < text.size() &&
                       (text[ends[i]] == ' ' || text[ends[i]] == '\t' || text[ends[i]] == ';')) {
                need(w);
            }
        }
    }
}

}  // namespace

class TestDocs : public QObject {
    Q_OBJECT

private slots:
    void builtInTextsRead() {
        std::string error;
        const auto texts = inspect::detail::embeddedDocTexts();
        QVERIFY2(texts.size() >= 2, "resources/docs/ptx.json and sass.json are embedded");
        const auto read = inspect::Docs::fromJson(texts, &error);
        QVERIFY2(read, error.c_str());
        // Every text reads; built in, the IR words newer than LLVM 7.0.1 that the texts do not
        // have come on top, one entry each.
        size_t added = 0;
        for (const auto& w : nvvm::newerIrWords())
            added += std::none_of(read->entries().begin(), read->entries().end(), [&](const inspect::DocEntry& e) {
                return e.domain == inspect::DocDomain::Ir && e.key == w.word;
            });
        QVERIFY(added > 0);
        QCOMPARE(docs().entries().size(), read->entries().size() + added);
    }

    void everyEntryHasItsFields() {
        std::set<std::pair<int, std::string>> keys;
        for (const auto& e : docs().entries()) {
            const auto label = qs(e.key);
            QVERIFY2(!e.key.empty() && !e.kind.empty() && !e.title.empty() && !e.summary.empty(), qPrintable(label));
            QVERIFY2(!e.source.empty(), qPrintable(label + ": no source"));
            QVERIFY2(e.link.starts_with("https://docs.nvidia.com/") || e.link.starts_with("https://llvm.org/"),
                     qPrintable(label + ": link " + qs(e.link)));
            QVERIFY2(keys.emplace(int(e.domain), e.key).second, qPrintable(label + ": key used twice in its domain"));
            if (e.domain == DocDomain::Sass && e.kind == "opcode")
                QVERIFY2(e.key == support::trim(e.key) && std::none_of(e.key.begin(), e.key.end(), ::islower),
                         qPrintable(label + ": SASS keys are upper-case"));
        }
    }

    void instructionWithModifiers() {
        const auto found = docs().explain("fma.rn.f32", DocContext::Ptx);
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(qs(found[0].entry->key), QString("fma"));
        QCOMPARE(qs(found[0].word), QString("fma.rn.f32"));
        QCOMPARE(found[0].modifiers.size(), size_t(2));
        QVERIFY(qs(meaningOf(found[0], ".rn")).contains("nearest"));
        QVERIFY(qs(meaningOf(found[0], ".f32")).contains("32-bit"));
        const auto text = inspect::formatExplanation(found[0]);
        QVERIFY2(qs(text).contains("fma — fused multiply-add"), text.c_str());
        QVERIFY2(qs(text).contains(".rn") && qs(text).contains("Read: PTX ISA"), text.c_str());
        QVERIFY2(qs(text).contains("https://docs.nvidia.com/cuda/parallel-thread-execution/index.html#"), text.c_str());
    }

    void stateSpaceAndCacheModifiers() {
        const auto found = docs().explain("ld.global.nc.u32", DocContext::Ptx);
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(qs(found[0].entry->key), QString("ld"));
        QCOMPARE(found[0].modifiers.size(), size_t(3));
        QVERIFY(qs(meaningOf(found[0], ".global")).contains("device memory"));
        QVERIFY(qs(meaningOf(found[0], ".nc")).contains("cache"));
        QVERIFY(qs(meaningOf(found[0], ".u32")).contains("unsigned"));
        // A key with a dot of its own is preferred to its first part.
        const auto cvta = docs().explain("cvta.to.global.u64", DocContext::Ptx);
        QCOMPARE(qs(cvta.at(0).entry->key), QString("cvta"));
        QVERIFY(!meaningOf(cvta[0], ".to").empty());
    }

    void specialRegisterKeepsItsPercent() {
        const auto found = docs().explain("%tid.x", DocContext::Ptx);
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(qs(found[0].entry->key), QString("%tid"));
        QVERIFY(qs(meaningOf(found[0], ".x")).contains("threadIdx.x"));
        QCOMPARE(docs().explain("%tid.x", DocContext::Any).size(), size_t(1));
        // A virtual register is not a special register.
        QVERIFY(docs().explain("%r12", DocContext::Ptx).empty());
    }

    void directives() {
        for (const char* d : {".entry", ".param", ".reg", ".loc", ".visible", ".extern", ".version", ".target"}) {
            const auto found = docs().explain(d, DocContext::Ptx);
            QVERIFY2(!found.empty(), d);
            QCOMPARE(qs(found[0].entry->key), QString(d));
            QVERIFY(found[0].modifiers.empty());
        }
    }

    // What only fix-docdata's ir.json and libdevice.json give (QSKIP until they are there).
    void irSigilsAreDropped() {
        if (std::none_of(docs().entries().begin(), docs().entries().end(),
                         [](const auto& e) { return e.domain == DocDomain::Libdevice; }))
            QSKIP("no libdevice.json embedded yet (fix-docdata's)");
        for (const char* w : {"@__nv_sinf", "@\"__nv_sinf\"", "__nv_sinf"}) {
            const auto found = docs().explain(w, DocContext::Ir);
            QVERIFY2(!found.empty(), w);
            QCOMPARE(qs(found[0].entry->key), QString("__nv_sinf"));
            QCOMPARE(found[0].entry->domain, DocDomain::Libdevice);
        }
        // In PTX a libdevice function is a .func of the same name.
        QCOMPARE(qs(docs().explain("__nv_sinf", DocContext::Ptx).at(0).entry->key), QString("__nv_sinf"));
        QVERIFY(docs().explain("@__nv_sinf", DocContext::Sass).empty());
    }

    void contextDecidesTheDomain() {
        const auto ptx = docs().explain("ret", DocContext::Ptx);
        QCOMPARE(ptx.size(), size_t(1));
        QCOMPARE(ptx[0].entry->domain, DocDomain::Ptx);
        QVERIFY(docs().explain("ret", DocContext::Sass).size() == 1);  // SASS reads words upper-case
        QCOMPARE(docs().explain("ret", DocContext::Sass)[0].entry->key, std::string("RET"));
        QVERIFY(docs().explain("FFMA.FTZ", DocContext::Ptx).empty());
        const auto sass = docs().explain("FFMA.FTZ", DocContext::Sass);
        QCOMPARE(sass.size(), size_t(1));
        QCOMPARE(qs(sass[0].entry->key), QString("FFMA"));
        QVERIFY(!meaningOf(sass[0], ".FTZ").empty());
        const auto ir = docs().explain("ret", DocContext::Ir);
        if (ir.empty()) QSKIP("no ir.json embedded yet (fix-docdata's): IR's ret is not there to differ");
        QCOMPARE(ir[0].entry->domain, DocDomain::Ir);
        QVERIFY(ir[0].entry != ptx[0].entry);
        QVERIFY(ir[0].entry->summary != ptx[0].entry->summary);
        // Any lists both, and not SASS's RET for a lower-case word.
        const auto any = docs().explain("ret", DocContext::Any);
        QCOMPARE(any.size(), size_t(2));
    }

    // The app's charts explain themselves from resources/docs/view.json; `nvpg explain occupancy`
    // reads the same entries, and no editor's hover does.
    void viewEntries() {
        for (const char* key : {"occupancy", "instruction-mix"}) {
            const auto found = docs().explain(key, DocContext::View);
            QVERIFY2(found.size() == 1, key);
            QCOMPARE(found[0].entry->domain, DocDomain::View);
            QVERIFY(!found[0].entry->details.empty());
            QCOMPARE(docs().explain(key, DocContext::Any).size(), size_t(1));
            QVERIFY(docs().explain(key, DocContext::Ptx).empty());
            QVERIFY(docs().explain(key, DocContext::Ir).empty());
            QVERIFY(inspect::formatExplanation(found[0]).find("(NVVM Playground figure)") != std::string::npos);
        }
    }

    void unknownWords() {
        QVERIFY(docs().explain("fmaa.rn.f32", DocContext::Ptx).empty());
        QVERIFY(docs().explain("", DocContext::Any).empty());
        QVERIFY(docs().explain("fmax", DocContext::Ptx).empty());  // a prefix only counts at a '.'
        const auto near = docs().nearest("fmaa.rn.f32", 5);
        QVERIFY(!near.empty() && near.size() <= 5);
        QVERIFY2(std::find(near.begin(), near.end(), "fma") != near.end(), qPrintable(qs(near.empty() ? "" : near[0])));
        const auto near2 = docs().nearest("%tidd", 3);
        QCOMPARE(qs(near2.at(0)), QString("%tid"));
        QCOMPARE(docs().nearest("x", 2).size(), size_t(2));
    }

    // The suggestion search skips keys it can tell are too far (measuring every key in full takes
    // 19 s for 20,000 unknown words), and that changes nothing: the same keys, in the same order,
    // as measuring every key in full, then keeping those close in spelling (at most a third of
    // the word's characters off, at least one, or a key the word of 3+ characters begins; the word
    // is also measured without its modifiers).
    void nearestIsTheSameAsMeasuringEveryKey() {
        auto lower = [](std::string s) {
            for (auto& c : s) c = char(std::tolower((unsigned char)c));
            return s;
        };
        auto distance = [](const std::string& a, const std::string& b) {
            std::vector<size_t> row(b.size() + 1);
            for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
            for (size_t i = 1; i <= a.size(); ++i) {
                size_t diag = row[0];
                row[0] = i;
                for (size_t j = 1; j <= b.size(); ++j) {
                    const size_t up = row[j];
                    row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
                    diag = up;
                }
            }
            return row[b.size()];
        };
        for (const std::string word : {"fmaa.rn.f32", "%tidd", "x", "LD.GLOBAL", "__nv_sinnf", "@llvm.nvvm.barier0",
                                       "addrspac", "cvt.rzi.s32.f32x", "qqqqqqqqqqqqqqqqqqqqqqqq"}) {
            std::string bare = word;
            if (!bare.empty() && (bare[0] == '@' || bare[0] == '%')) bare.erase(0, 1);
            struct Scored {
                size_t d, p;
                std::string key;
            };
            std::vector<Scored> all;
            std::set<std::string> seen;
            for (const auto& e : docs().entries()) {
                if (!seen.insert(e.key).second) continue;
                const auto key = lower(e.key);
                size_t p = 0;
                while (p < key.size() && p < bare.size() && key[p] == lower(bare)[p]) ++p;
                // Each form counts where it is close enough, or where the key begins with it.
                size_t d = std::numeric_limits<size_t>::max();
                const auto dot = bare.find('.', 1);
                const auto stem = lower(bare.substr(0, dot));
                for (const auto& form : {lower(word), lower(bare), stem}) {
                    const size_t fd = distance(form, key);
                    const bool completes = form.size() >= 3 && key.starts_with(form);
                    if (completes || fd <= std::max<size_t>(1, form.size() / 3)) d = std::min(d, fd);
                }
                if (d != std::numeric_limits<size_t>::max()) all.push_back({d, p, e.key});
            }
            std::sort(all.begin(), all.end(), [](const Scored& a, const Scored& b) {
                if (a.d != b.d) return a.d < b.d;
                if (a.p != b.p) return a.p > b.p;
                return a.key < b.key;
            });
            std::vector<std::string> expected;
            for (size_t i = 0; i < 5 && i < all.size(); ++i) expected.push_back(all[i].key);
            QCOMPARE(docs().nearest(word, 5), expected);
        }
    }

    // No key is longer than 35 characters: a word of 131 KB is no typo of one, and measuring it
    // against every key took 6.3 s.
    void aWordFarLongerThanAnyKeyHasNoNearest() {
        size_t longest = 0;
        for (const auto& e : docs().entries()) longest = std::max(longest, e.key.size());
        QVERIFY(longest <= 40);
        QVERIFY(docs().nearest(std::string(131072, 'f')).empty());
        QVERIFY(docs().nearest(std::string(100, 'f')).empty());
        QVERIFY(!docs().nearest("__nv_sinff").empty());
    }

    void wordAtOnRealLines() {
        using inspect::wordAt;
        const std::string ptx = "\tfma.rn.f32 \t%f3, %f1, %f2, %f1;";
        QCOMPARE(qs(wordAt(ptx, 1, DocContext::Ptx)), QString("fma.rn.f32"));
        QCOMPARE(qs(wordAt(ptx, 6, DocContext::Ptx)), QString("fma.rn.f32"));
        QCOMPARE(qs(wordAt(ptx, ptx.find("%f2") + 1, DocContext::Ptx)), QString("%f2"));
        QCOMPARE(qs(wordAt(ptx, 0, DocContext::Ptx)), QString());
        QCOMPARE(qs(wordAt(ptx, ptx.size(), DocContext::Ptx)), QString());
        const std::string tid = "\tmov.u32 \t%r1, %tid.x;";
        QCOMPARE(qs(wordAt(tid, tid.find("tid") + 2, DocContext::Ptx)), QString("%tid.x"));
        const std::string ld = "\tld.global.nc.u32 \t%r2, [%rd4+8];";
        QCOMPARE(qs(wordAt(ld, 5, DocContext::Ptx)), QString("ld.global.nc.u32"));
        QCOMPARE(qs(wordAt(ld, ld.find("%rd4") + 2, DocContext::Ptx)), QString("%rd4"));
        const std::string entry = ".visible .entry _Z6kernelPf(";
        QCOMPARE(qs(wordAt(entry, 10, DocContext::Ptx)), QString(".entry"));

        const std::string call = "  %5 = tail call float @__nv_sinf(float %4)";
        QCOMPARE(qs(wordAt(call, call.find("sinf"), DocContext::Ir)), QString("@__nv_sinf"));
        QCOMPARE(qs(wordAt(call, call.find('@'), DocContext::Ir)), QString("@__nv_sinf"));
        QCOMPARE(qs(wordAt(call, call.find("call") + 1, DocContext::Ir)), QString("call"));
        QCOMPARE(qs(wordAt(call, call.find("%4") + 1, DocContext::Ir)), QString("%4"));
        const std::string numba = "  %.41 = call float @\"__nv_sinf\"(float %.40)";
        QCOMPARE(qs(wordAt(numba, numba.find("sinf"), DocContext::Ir)), QString("@\"__nv_sinf\""));
        QCOMPARE(qs(wordAt(numba, numba.find("%.41") + 2, DocContext::Ir)), QString("%.41"));
        const std::string gep = "  %p = getelementptr inbounds float, float addrspace(1)* %a, i64 %i";
        QCOMPARE(qs(wordAt(gep, gep.find("addrspace") + 3, DocContext::Ir)), QString("addrspace(1)"));
        QCOMPARE(qs(wordAt(gep, gep.find("(1)") + 1, DocContext::Ir)), QString("addrspace(1)"));
        QCOMPARE(qs(wordAt(gep, gep.find("getelementptr") + 4, DocContext::Ir)), QString("getelementptr"));
        const std::string md = "!nvvm.annotations = !{!0}";
        QCOMPARE(qs(wordAt(md, 3, DocContext::Ir)), QString("!nvvm.annotations"));
        QCOMPARE(qs(wordAt(md, 0, DocContext::Ir)), QString("!nvvm.annotations"));
        const std::string sreg = "  %0 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()";
        QCOMPARE(qs(wordAt(sreg, sreg.find("sreg"), DocContext::Ir)), QString("@llvm.nvvm.read.ptx.sreg.tid.x"));

        const std::string sass = "        /*0070*/                   FFMA.FTZ R9, R2, R5, R9 ;";
        QCOMPARE(qs(wordAt(sass, sass.find("FFMA") + 5, DocContext::Sass)), QString("FFMA.FTZ"));
        const std::string pred = "        /*00d0*/              @!P0 BRA 0x120 ;";
        QCOMPARE(qs(wordAt(pred, pred.find("BRA") + 1, DocContext::Sass)), QString("BRA"));
    }

    void hoverWordsExplain() {
        // What wordAt gives, explain takes.
        const std::string ptx = "\tld.global.nc.u32 \t%r2, [%rd4+8];";
        QCOMPARE(docs().explain(inspect::wordAt(ptx, 3, DocContext::Ptx), DocContext::Ptx).size(), size_t(1));
        const std::string sass = "   /*0070*/   IMAD.WIDE R2, R0, R5, c[0x0][0x210] ;";
        QCOMPARE(docs().explain(inspect::wordAt(sass, sass.find("WIDE"), DocContext::Sass), DocContext::Sass).size(),
                 size_t(1));
    }

    void fromJsonNamesTheEntry() {
        std::string error;
        auto bad = [&](const std::string& text) {
            error.clear();
            const auto r = inspect::Docs::fromJson({{"resources/docs/x.json", text}}, &error);
            return !r;
        };
        QVERIFY(
            bad("{\"domain\": \"ptx\", \"entries\": [ {\"key\": \"add\", \"kind\": "
                "\"instruction\", \"title\": \"t\", "
                "\"summary\": \"s\", \"link\": \"https://docs.nvidia.com/a\", \"source\": \"x\"}, "
                "{\"key\": \"fma\", "
                "\"kind\": \"instruction\", \"title\": \"t\", \"summary\": \"s\", \"source\": "
                "\"x\"}]}"));
        QVERIFY2(qs(error).contains("resources/docs/x.json") && qs(error).contains("entry 2 \"fma\"") &&
                     qs(error).contains("\"link\""),
                 error.c_str());
        QVERIFY(
            bad("{\"domain\": \"ptx\", \"entries\": [ {\"key\": \"add\", \"kind\": \"i\", "
                "\"title\": \"t\", \"summary\": "
                "\"s\", \"link\": \"https://docs.nvidia.com/a\", \"source\": \"x\", "
                "\"optoin_effect\": \"\"}]}"));
        QVERIFY2(qs(error).contains("entry 1 \"add\"") && qs(error).contains("optoin_effect"), error.c_str());
        const std::string one =
            "{\"key\": \"add\", \"kind\": \"i\", \"title\": \"t\", \"summary\": \"s\", \"link\": "
            "\"https://docs.nvidia.com/a\", \"source\": \"x\"}";
        QVERIFY(bad("{\"domain\": \"ptx\", \"entries\": [" + one + "," + one + "]}"));
        QVERIFY2(qs(error).contains("entry 2 \"add\"") && qs(error).contains("already used"), error.c_str());
        QVERIFY(bad("{\"domain\": \"cuda\", \"entries\": []}"));
        QVERIFY2(qs(error).contains("unknown domain \"cuda\""), error.c_str());
        QVERIFY(bad("{\"domain\": \"ptx\", \"entries\": [ {\"key\": 3} ]"));
        QVERIFY2(qs(error).contains("x.json:1:"), error.c_str());
        QVERIFY(bad("{\"domain\": \"ptx\", \"entries\": [" +
                    std::string(one).replace(one.find("https://"), 8, "http://") + "]}"));
        QVERIFY2(qs(error).contains("https://"), error.c_str());
        // The same key in two domains is two entries.
        const auto two = inspect::Docs::fromJson({{"a.json", "{\"domain\": \"ptx\", \"entries\": [" + one + "]}"},
                                                  {"b.json", "{\"domain\": \"ir\", \"entries\": [" + one + "]}"}},
                                                 &error);
        QVERIFY2(two, error.c_str());
        QCOMPARE(two->entries().size(), size_t(2));
        QCOMPARE(two->explain("add", DocContext::Any).size(), size_t(2));
        QCOMPARE(two->explain("add", DocContext::Ir).size(), size_t(1));
    }

    // The coverage: every PTX instruction (with each modifier), directive, type and special
    // register in the output of every bundled example and fixture has an entry.
    void coveragePtx() {
        QVERIFY(!compiledCases().empty());
        Missing missing;
        std::set<std::string> seen;
        for (const auto& c : compiledCases()) checkPtx(c, missing, seen);
        // The check reads what it should: the words of the issue's examples are among them.
        for (const char* w : {"fma.rn.f32", "ld.global.nc.u32", "setp.ge.s32", "cvta.to.global.u64", "mad.lo.cc.u32",
                              ".entry", ".param", ".reg", ".visible", ".extern", "%tid.x", "%ctaid.x", ".global"})
            QVERIFY2(seen.count(w), w);
        qInfo("%zu distinct PTX words checked", seen.size());
        QVERIFY2(missing.empty(),
                 qPrintable("PTX words with no entry in resources/docs/ptx.json:\n  " + listed(missing)));
    }

    void coverageSass() {
        const auto nvdisasm = test::nvdisasmForTests();
        if (!nvdisasm.path) {
            if (nvdisasm.skip) QSKIP(nvdisasm.why.c_str());
            QFAIL(nvdisasm.why.c_str());
        }
        Missing missing;
        size_t opcodes = 0;
        for (const auto& c : compiledCases()) {
            if (c.sass.empty()) {
                // ir/caller.ll alone calls a function only callee.ll defines: PTX, but no cubin.
                QVERIFY2(!c.name.starts_with("example"), qPrintable(qs(c.name + ": no SASS: " + c.sassWhy)));
                qInfo("%s: no SASS: %s", c.name.c_str(), c.sassWhy.c_str());
                continue;
            }
            for (const auto& i : inspect::readSass(c.sass).instructions) {
                std::string_view code = support::trim(i.code);
                if (code.starts_with("@")) code = support::trim(code.substr(code.find_first_of(" \t")));
                const std::string word(code.substr(0, code.find_first_of(" \t;")));
                ++opcodes;
                const auto found = docs().explain(word, DocContext::Sass);
                if (found.empty())
                    missing.emplace(word.substr(0, word.find('.')), c.name + " SASS line " + std::to_string(i.line));
            }
        }
        QVERIFY(opcodes > 100);
        QVERIFY2(missing.empty(),
                 qPrintable("SASS opcodes with no entry in resources/docs/sass.json:\n  " + listed(missing)));
    }

    // The IR words (fix-docdata's ir.json): each instruction, @llvm.* intrinsic and global, named
    // metadata and addrspace(N) the fixtures' text IR shows.
    void coverageIr() {
        Missing missing;
        static const std::regex instr(
            R"re(^\s*(?:(?:%[-\w.$]+|%\x22[^\x22]*\x22)\s*=\s*)?(?:tail |musttail |notail )?([a-z][a-z0-9_]*)\b)re");
        static const std::regex intrinsic(R"re(@(llvm\.[\w.$]+))re");
        static const std::regex metadata(R"re(^(![A-Za-z_.$][\w.$]*)\s*=)re");
        static const std::regex addrspace(R"re(addrspace\(\d+\))re");
        for (const auto& c : compiledCases())
            for (const auto& m : c.modules) {
                if (m.isBitcode()) continue;
                bool inBody = false;
                int lineNo = 0;
                for (auto l : support::splitLines(m.bytes)) {
                    ++lineNo;
                    std::string line(l.substr(0, l.find(';')));
                    const auto where = c.name + " " + m.name + ":" + std::to_string(lineNo);
                    auto need = [&](const std::string& word) {
                        const auto found = docs().explain(word, DocContext::Ir);
                        if (found.empty()) missing.emplace(word, where);
                    };
                    std::smatch s;
                    if (line.starts_with("define"))
                        inBody = true;
                    else if (line.starts_with("}"))
                        inBody = false;
                    else if (inBody && !line.ends_with(":") && std::regex_search(line, s, instr))
                        need(s[1]);
                    for (std::sregex_iterator it(line.begin(), line.end(), intrinsic), end; it != end; ++it)
                        need("@" + (*it)[1].str());
                    if (std::regex_search(line, s, metadata)) need(s[1]);
                    for (std::sregex_iterator it(line.begin(), line.end(), addrspace), end; it != end; ++it)
                        need(it->str());
                }
            }
        QVERIFY2(missing.empty(),
                 qPrintable("IR words with no entry in resources/docs/ir.json:\n  " + listed(missing)));
    }

    // Every __nv_ function the fixtures' IR calls and their PTX shows (fix-docdata's
    // libdevice.json).
    void coverageLibdevice() {
        Missing missing;
        static const std::regex nv(R"re(__nv_\w+)re");
        for (const auto& c : compiledCases()) {
            std::string text = c.ptx;
            for (const auto& m : c.modules)
                if (!m.isBitcode()) text += "\n" + m.bytes;
            for (std::sregex_iterator it(text.begin(), text.end(), nv), end; it != end; ++it) {
                const auto found = docs().explain(it->str(), DocContext::Ir);
                if (found.empty() || found[0].entry->domain != DocDomain::Libdevice) missing.emplace(it->str(), c.name);
            }
        }
        QVERIFY2(missing.empty(), qPrintable("libdevice functions with no entry in resources/docs/libdevice.json:\n  " +
                                             listed(missing)));
    }
};

QTEST_GUILESS_MAIN(TestDocs)
#include "tst_docs.moc"
