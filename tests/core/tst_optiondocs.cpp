// The docs of libNVVM's archs and options (resources/docs/arch.json, options.json): every
// arch libNVVM lists and every option of the option table has an entry with its facts and source;
// the words people write for them (sm_90, -ftz=1, --prec-div) find it; the PTX each option's
// effect paragraph names is what the real libNVVM writes; and an unknown word is answered with
// words close to it in spelling, never with unrelated ones.
#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

#include "TestSupport.h"
#include "core/inspect/Docs.h"
#include "core/nvvm/Options.h"
#include "core/pipeline/Pipeline.h"
#include "core/support/Text.h"

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

// A kernel with what each option changes: an f32 division, square roots (LLVM's, NVVM's and
// libdevice's), a multiply whose product only feeds an add, a switch, and a device function.
constexpr const char* kKernel = R"(target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare float @__nv_sqrtf(float)
declare float @llvm.nvvm.sqrt.f(float)

define internal float @twice(float %v) {
  %r = fadd float %v, %v
  ret float %r
}

define void @k(float* %p, i32 %s) {
entry:
  %a = load float, float* %p
  %q = getelementptr float, float* %p, i64 1
  %b = load float, float* %q
  %d = fdiv float %a, %b
  %r = call float @__nv_sqrtf(float %d)
  %r2 = call float @llvm.nvvm.sqrt.f(float %r)
  %m = fmul float %r2, %a
  %x = fadd float %m, %b
  %t = call float @twice(float %x)
  switch i32 %s, label %end [
    i32 0, label %c0
    i32 1, label %c1
    i32 2, label %c2
    i32 3, label %c3
  ]
c0:
  store float %t, float* %p
  br label %end
c1:
  store float %r, float* %p
  br label %end
c2:
  store float %d, float* %p
  br label %end
c3:
  store float %a, float* %q
  br label %end
end:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float*, i32)* @k, !"kernel", i32 1}
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
)";

std::string ptxWith(std::string_view option, std::string_view value) {
    pipeline::Job job;
    job.modules = {nvvm::Module{"k.ll", kKernel}};
    job.libdevice = true;
    job.archFromGpu = false;
    job.options.arch = "compute_90";
    if (!option.empty())
        if (auto st = job.options.set(option, value); !st) qFatal("%s", st.error().message.c_str());
    pipeline::Pipeline p(test::realToolkit());
    auto r = p.run(job);
    if (!r || r->ptx.empty()) qFatal("the kernel did not compile with %s=%s", option.data(), value.data());
    return r->ptx;
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

    // What the effect paragraphs say the PTX shows is what libNVVM writes: each shape is in the
    // PTX with the option flipped, not in the PTX without it, and named in the option's effect.
    void theEffectsAreWhatLibnvvmWrites_data() {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("shape");
        QTest::newRow("ftz=1") << "ftz"
                               << "1"
                               << "add.ftz.f32";
        QTest::newRow("prec-div=0") << "prec-div"
                                    << "0"
                                    << "div.full.f32";
        QTest::newRow("prec-sqrt=0") << "prec-sqrt"
                                     << "0"
                                     << "sqrt.approx.f32";
        QTest::newRow("fma=0") << "fma"
                               << "0"
                               << "mul.rn.f32";
        QTest::newRow("jump-table-density=10") << "jump-table-density"
                                               << "10"
                                               << "brx.idx";
        QTest::newRow("opt=0") << "opt"
                               << "0"
                               << "call.uni";
    }
    void theEffectsAreWhatLibnvvmWrites() {
        QFETCH(QString, option);
        QFETCH(QString, value);
        QFETCH(QString, shape);
        static const std::string plain = ptxWith({}, {});
        const std::string flipped = ptxWith(option.toStdString(), value.toStdString());
        QVERIFY2(qs(flipped).contains(shape),
                 qPrintable(option + "=" + value + " gives no " + shape + ":\n" + qs(flipped)));
        QVERIFY2(!qs(plain).contains(shape), qPrintable("the default PTX has " + shape + " already"));
        QVERIFY2(qs(entryOf(DocDomain::Option, option.toStdString())->effect).contains(shape),
                 qPrintable(option + "'s effect does not name " + shape));
        // And the defaults' shapes, which the effects name as the other side.
        if (option == "prec-div") QVERIFY(qs(plain).contains("div.rn.f32"));
        if (option == "prec-sqrt") QVERIFY(qs(plain).contains("sqrt.rn.f32"));
        if (option == "fma") QVERIFY(qs(plain).contains("fma.rn.f32"));
    }

    // "Show effect": every option of the table changes to a value libNVVM takes, said as a
    // person would, with the paragraph from the docs data beside it.
    void everyOptionCanBeFlippedWithItsEffect() {
        nvvm::Options o;
        for (const auto& info : nvvm::optionTable()) {
            if (info.outputChoice) continue;
            const std::string name(info.name);
            const auto changed =
                nvvm::withOptionChanged(o, name, info.kind == nvvm::OptionKind::Arch ? "compute_90" : "");
            QVERIFY2(changed, name.c_str());
            QVERIFY2(!(changed->options == o), name.c_str());
            QVERIFY2(changed->options.validate(13), name.c_str());
            QVERIFY2(support::startsWith(changed->label, name + " "), changed->label.c_str());
            QVERIFY2(!inspect::optionEffectText(name, changed->value).empty(), name.c_str());
        }
        QCOMPARE(nvvm::withOptionChanged(o, "ftz")->label, std::string("ftz 0 → 1"));
        QCOMPARE(nvvm::withOptionChanged(o, "prec-div")->label, std::string("prec-div 1 → 0"));
        QCOMPARE(nvvm::withOptionChanged(o, "opt")->label, std::string("opt 3 → 0"));
        QCOMPARE(nvvm::withOptionChanged(o, "jump-table-density")->label, std::string("jump-table-density 101 → 0"));
        nvvm::Options ftz;
        ftz.ftz = true;
        const auto back = nvvm::withOptionChanged(ftz, "ftz");
        QCOMPARE(back->label, std::string("ftz 1 → 0"));
        QCOMPARE(back->options.ftz, std::optional<bool>(false));
        QVERIFY(!nvvm::withOptionChanged(o, "arch"));  // an arch is chosen, not flipped
        QVERIFY(!nvvm::withOptionChanged(o, "no-such-option"));
        const auto arch = nvvm::withOptionChanged(o, "arch", "compute_90");
        QCOMPARE(arch->label, std::string("arch default → compute_90"));
        const auto text = inspect::optionEffectText("arch", "compute_90");
        QVERIFY2(text.find("compute_90: ") != std::string::npos, text.c_str());
        QVERIFY2(inspect::optionEffectText("ftz", "1").find(".ftz") != std::string::npos,
                 inspect::optionEffectText("ftz", "1").c_str());
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
        // The target of a PTX `.target sm_90a` line, hovered in the PTX, is its arch.
        const auto target = docs().explain("sm_90a", DocContext::Ptx);
        QVERIFY(!target.empty() && target[0].entry->key == "compute_90a");
        QVERIFY(docs().explain("ftz", DocContext::Ptx).empty());
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
