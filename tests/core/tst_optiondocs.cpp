// The docs of libNVVM's archs and options (resources/docs/arch.json, options.json, issue 29): every
// arch libNVVM lists and every option of the option table has an entry with its facts and source;
// the words people write for them (sm_90, -ftz=1, --prec-div) find it; and an unknown word is
// answered with words close to it in spelling, never with unrelated ones.
#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

#include "inspect/Docs.h"
#include "nvvm/Options.h"

using namespace nvpg;
using inspect::DocContext;
using inspect::DocDomain;
using inspect::DocEntry;

namespace {

const inspect::Docs& docs() {
    return inspect::Docs::builtIn();
}

const DocEntry* entryOf(DocDomain domain, std::string_view key) {
    for (const auto& e : docs().entries())
        if (e.domain == domain && e.key == key) return &e;
    return nullptr;
}

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString joined(const std::vector<std::string>& words) {
    QStringList l;
    for (const auto& w : words) l << qs(w);
    return l.join(", ");
}

}  // namespace

class TestOptionDocs : public QObject {
    Q_OBJECT

private slots:
    void everyArchHasAnEntry_data() {
        QTest::addColumn<QString>("arch");
        // supportedArchs distinguishes CUDA 12 from 13: both lists.
        for (const int major : {12, 13})
            for (const auto& a : nvvm::supportedArchs(major))
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(major).arg(qs(a)))) << qs(a);
    }
    void everyArchHasAnEntry() {
        QFETCH(QString, arch);
        const std::string key = arch.toStdString();
        const DocEntry* e = entryOf(DocDomain::Arch, key);
        QVERIFY2(e, qPrintable(arch + " has no entry in resources/docs/arch.json"));
        QCOMPARE(qs(e->kind), QStringLiteral("arch"));
        for (const auto* field :
             {&e->title, &e->summary, &e->source, &e->link, &e->computeCapability, &e->ptxIsa, &e->adds})
            QVERIFY2(!field->empty(), qPrintable(arch + ": an empty field"));
        QCOMPARE(qs(e->sass), QString(arch).replace("compute_", "sm_"));
        QVERIFY2(e->title.starts_with(key + " — "), e->title.c_str());
        QVERIFY2(e->link.starts_with("https://docs.nvidia.com/"), e->link.c_str());
        QVERIFY2(qs(e->source).contains("PTX ISA") && qs(e->source).contains("Programming Guide"), e->source.c_str());
        QVERIFY2(qs(e->ptxIsa).contains(QRegularExpression("PTX ISA \\d+\\.\\d")), e->ptxIsa.c_str());
        // The compute capability is the number's: compute_90a → 9.0, compute_121f → 12.1.
        std::string digits = key.substr(8);
        while (!std::isdigit(static_cast<unsigned char>(digits.back()))) digits.pop_back();
        const int n = std::stoi(digits);
        QCOMPARE(qs(e->computeCapability), QStringLiteral("%1.%2").arg(n / 10).arg(n % 10));
        // The a and f suffixes say what they mean.
        if (key.ends_with('a')) QVERIFY2(qs(e->summary).contains("arch-specific"), e->summary.c_str());
        if (key.ends_with('f')) QVERIFY2(qs(e->summary).contains("family-specific"), e->summary.c_str());
    }

    // The issue's own facts, where they belong.
    void theFeaturesSitAtTheirArch() {
        QVERIFY(qs(entryOf(DocDomain::Arch, "compute_80")->adds).contains("cp.async"));
        QVERIFY(qs(entryOf(DocDomain::Arch, "compute_80")->adds).contains("bf16"));
        QVERIFY(qs(entryOf(DocDomain::Arch, "compute_89")->adds).contains("e4m3"));
        const QString hopper = qs(entryOf(DocDomain::Arch, "compute_90")->adds);
        QVERIFY(hopper.contains("cluster") && hopper.contains("TMA") && hopper.contains("distributed shared memory"));
        const QString hopperA = qs(entryOf(DocDomain::Arch, "compute_90a")->adds);
        QVERIFY(hopperA.contains("wgmma") && hopperA.contains("setmaxnreg"));
    }

    void everyOptionHasAnEntry_data() {
        QTest::addColumn<QString>("option");
        for (const auto& o : nvvm::optionTable()) QTest::newRow(std::string(o.name).c_str()) << qs(std::string(o.name));
    }
    void everyOptionHasAnEntry() {
        QFETCH(QString, option);
        const std::string key = option.toStdString();
        const DocEntry* e = entryOf(DocDomain::Option, key);
        QVERIFY2(e, qPrintable(option + " has no entry in resources/docs/options.json"));
        for (const auto* field :
             {&e->title, &e->summary, &e->source, &e->link, &e->defaultValue, &e->effect, &e->syntax})
            QVERIFY2(!field->empty(), qPrintable(option + ": an empty field"));
        QVERIFY2(!e->values.empty(), qPrintable(option + ": no values"));
        QVERIFY2(qs(e->source).contains("libNVVM API"), e->source.c_str());
        // The default is libNVVM's, as the option table has it (arch's depends on the release).
        const auto* info = nvvm::findOption(key);
        if (!info->libnvvmDefault.empty())
            QVERIFY2(e->defaultValue.starts_with(std::string(info->libnvvmDefault)),
                     qPrintable(option + ": default " + qs(e->defaultValue)));
        // The flag as libNVVM takes it appears in the syntax.
        std::string flag(info->flag);
        if (flag.ends_with('=')) flag.pop_back();
        QVERIFY2(e->syntax.starts_with(flag), e->syntax.c_str());
    }

    void theOptionsSayWhatTheyDoToThePtx() {
        QVERIFY(qs(entryOf(DocDomain::Option, "ftz")->effect).contains(".ftz"));
        QVERIFY(qs(entryOf(DocDomain::Option, "prec-div")->effect).contains("div.rn.f32"));
        QVERIFY(qs(entryOf(DocDomain::Option, "prec-sqrt")->effect).contains("sqrt.approx.f32"));
        QVERIFY(qs(entryOf(DocDomain::Option, "fma")->effect).contains("fma.rn"));
        QVERIFY(qs(entryOf(DocDomain::Option, "opt")->effect).contains("ld.local"));
    }

    void wordsFindTheirEntries_data() {
        QTest::addColumn<QString>("word");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::newRow("compute_90") << "compute_90"
                                    << "compute_90"
                                    << "";
        QTest::newRow("sm_90") << "sm_90"
                               << "compute_90"
                               << "";
        QTest::newRow("SM_90A") << "SM_90A"
                                << "compute_90a"
                                << "";
        QTest::newRow("compute_90a") << "compute_90a"
                                     << "compute_90a"
                                     << "";
        QTest::newRow("ftz") << "ftz"
                             << "ftz"
                             << "";
        QTest::newRow("-ftz") << "-ftz"
                              << "ftz"
                              << "";
        QTest::newRow("-ftz=1") << "-ftz=1"
                                << "ftz"
                                << "1";
        QTest::newRow("prec-div") << "prec-div"
                                  << "prec-div"
                                  << "";
        QTest::newRow("-prec-div") << "-prec-div"
                                   << "prec-div"
                                   << "";
        QTest::newRow("--prec-div=0") << "--prec-div=0"
                                      << "prec-div"
                                      << "0";
        QTest::newRow("opt") << "opt"
                             << "opt"
                             << "";
        QTest::newRow("-opt=0") << "-opt=0"
                                << "opt"
                                << "0";
        QTest::newRow("-g") << "-g"
                            << "g"
                            << "";
        QTest::newRow("-arch=compute_90") << "-arch=compute_90"
                                          << "arch"
                                          << "compute_90";
    }
    void wordsFindTheirEntries() {
        QFETCH(QString, word);
        QFETCH(QString, key);
        QFETCH(QString, value);
        for (const auto context : {DocContext::Any, DocContext::Options}) {
            const auto found = docs().explain(word.toStdString(), context);
            const auto it = std::find_if(found.begin(), found.end(), [&](const inspect::Explanation& x) {
                return (x.entry->domain == DocDomain::Arch || x.entry->domain == DocDomain::Option) &&
                       qs(x.entry->key) == key;
            });
            QVERIFY2(it != found.end(), qPrintable(word + " does not find " + key));
            const QString text = qs(inspect::formatExplanation(*it));
            QVERIFY2(text.contains("Read: "), qPrintable(text));
            if (!value.isEmpty()) {
                QCOMPARE(it->modifiers.size(), size_t(1));
                QCOMPARE(qs(it->modifiers[0].first), "=" + value);
                QVERIFY2(!it->modifiers[0].second.empty(), qPrintable(word + ": the value has no meaning"));
            }
            // sm_ finds compute_ and says so.
            if (word.startsWith("sm_", Qt::CaseInsensitive))
                QVERIFY2(text.contains("SASS target of " + key), qPrintable(text));
            if (key == "ftz") QVERIFY2(text.contains("Effect: ") && text.contains("Default: 0"), qPrintable(text));
            if (key == "compute_90")
                QVERIFY2(text.contains("SASS target: sm_90 (compute capability 9.0)"), qPrintable(text));
        }
        // A PTX or IR word is no option: the Options context does not read "fma.rn.f32".
        QVERIFY(docs().explain("fma.rn.f32", DocContext::Options).empty());
    }

    // Suggestions are close in spelling, or none.
    void suggestionsAreCloseInSpelling() {
        const auto arch = docs().nearest("compute_91");
        QVERIFY2(std::find(arch.begin(), arch.end(), "compute_90") != arch.end(), qPrintable(joined(arch)));
        QVERIFY2(std::find(arch.begin(), arch.end(), "compute_90a") != arch.end(), qPrintable(joined(arch)));
        for (const auto& k : arch) QVERIFY2(k.starts_with("compute_"), qPrintable(joined(arch)));
        const auto sm = docs().nearest("sm_91");
        QVERIFY2(!sm.empty() && sm[0] == "compute_90", qPrintable(joined(sm)));
        const auto ftz = docs().nearest("ftzz");
        QVERIFY2(!ftz.empty() && ftz[0] == "ftz", qPrintable(joined(ftz)));
        for (const auto& k : ftz) QVERIFY2(qs(k).contains("ftz", Qt::CaseInsensitive), qPrintable(joined(ftz)));
        const auto dashed = docs().nearest("-prec-dvi=1");
        QVERIFY2(!dashed.empty() && dashed[0] == "prec-div", qPrintable(joined(dashed)));
        // A word that begins a key suggests it.
        const auto prefix = docs().nearest("prec-");
        QVERIFY2(std::find(prefix.begin(), prefix.end(), "prec-div") != prefix.end() &&
                     std::find(prefix.begin(), prefix.end(), "prec-sqrt") != prefix.end(),
                 qPrintable(joined(prefix)));
        // Like nothing known: nothing suggested (the nearest of ~1,500 keys would be unrelated).
        QVERIFY2(docs().nearest("zq5xw").empty(), qPrintable(joined(docs().nearest("zq5xw"))));
        QVERIFY2(docs().nearest("qqqqqqqqqqqq").empty(), qPrintable(joined(docs().nearest("qqqqqqqqqqqq"))));
    }
};

QTEST_GUILESS_MAIN(TestOptionDocs)
#include "tst_optiondocs.moc"
