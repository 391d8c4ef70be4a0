// nvvm::Options: the one table from typed options to libNVVM flags, and rejection before
// libNVVM sees a bad value.
#include <QtTest>

#include <algorithm>
#include <set>
#include <variant>

#include "core/nvvm/Options.h"

using namespace nvpg;

Q_DECLARE_METATYPE(std::string)

class TestOptions : public QObject {
    Q_OBJECT

private slots:
    void mapsEachOptionToItsFlag_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("flag");
        QTest::newRow("arch") << "arch"
                              << "compute_90"
                              << "-arch=compute_90";
        QTest::newRow("arch a") << "arch"
                                << "compute_90a"
                                << "-arch=compute_90a";
        QTest::newRow("arch f") << "arch"
                                << "compute_100f"
                                << "-arch=compute_100f";
        QTest::newRow("opt 0") << "opt"
                               << "0"
                               << "-opt=0";
        QTest::newRow("opt 3") << "opt"
                               << "3"
                               << "-opt=3";
        QTest::newRow("ftz") << "ftz"
                             << "1"
                             << "-ftz=1";
        QTest::newRow("ftz off") << "ftz"
                                 << "0"
                                 << "-ftz=0";
        QTest::newRow("prec-div") << "prec-div"
                                  << "0"
                                  << "-prec-div=0";
        QTest::newRow("prec-sqrt") << "prec-sqrt"
                                   << "1"
                                   << "-prec-sqrt=1";
        QTest::newRow("fma") << "fma"
                             << "0"
                             << "-fma=0";
        QTest::newRow("g") << "g"
                           << "on"
                           << "-g";
        QTest::newRow("jump-table-density") << "jump-table-density"
                                            << "42"
                                            << "-jump-table-density=42";
        QTest::newRow("gen-lto") << "gen-lto"
                                 << "1"
                                 << "-gen-lto";
    }
    void mapsEachOptionToItsFlag() {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(QString, flag);
        nvvm::Options o;
        QVERIFY(o.set(name.toStdString(), value.toStdString()));
        QVERIFY(o.validate(13));
        QCOMPARE(o.flags(), std::vector<std::string>{flag.toStdString()});
    }

    void unsetOptionsPassNothing() {
        // libNVVM's own defaults then apply, as with a plain call without flags.
        QVERIFY(nvvm::Options{}.flags().empty());
    }

    void flagsFollowTheTableOrderThenExtras() {
        nvvm::Options o;
        QVERIFY(o.set("fma", "1"));
        QVERIFY(o.set("arch", "compute_80"));
        QVERIFY(o.set("opt", "0"));
        o.extraFlags = {"-foo"};
        const std::vector<std::string> want = {"-arch=compute_80", "-opt=0", "-fma=1", "-foo"};
        QCOMPARE(o.flags(), want);
    }

    void rejectsBadValuesNamingOptionAndAllowedValues_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("opt 2") << "opt"
                               << "2"
                               << "0 or 3";
        QTest::newRow("ftz 2") << "ftz"
                               << "2"
                               << "0 or 1";
        QTest::newRow("fma yes") << "fma"
                                 << "maybe"
                                 << "0 or 1";
        QTest::newRow("density 102") << "jump-table-density"
                                     << "102"
                                     << "0 to 101";
        QTest::newRow("density -1") << "jump-table-density"
                                    << "-1"
                                    << "0 to 101";
        QTest::newRow("unknown") << "optimise"
                                 << "3"
                                 << "the options are";
    }
    void rejectsBadValuesNamingOptionAndAllowedValues() {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(QString, mentions);
        nvvm::Options o;
        const auto st = o.set(name.toStdString(), value.toStdString());
        QVERIFY(!st);
        const auto msg = QString::fromStdString(st.error().message);
        QVERIFY2(msg.contains(name), qPrintable(msg));
        QVERIFY2(msg.contains(mentions), qPrintable(msg));
        QCOMPARE(st.error().kind, support::ErrorKind::Usage);
    }

    void rejectsArchsThisLibnvvmDoesNotTake_data() {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("dropped in 13") << "compute_70"
                                       << "compute_75";
        QTest::newRow("no f before 100") << "compute_90f"
                                         << "compute_90a";
        QTest::newRow("sm_ given") << "sm_90"
                                   << "compute_90, not sm_90";
        QTest::newRow("typo") << "compute90"
                              << "compute_90";
    }
    void rejectsArchsThisLibnvvmDoesNotTake() {
        QFETCH(QString, arch);
        QFETCH(QString, mentions);
        nvvm::Options o;
        QVERIFY(o.set("arch", arch.toStdString()));
        const auto st = o.validate(13);
        QVERIFY(!st);
        const auto msg = QString::fromStdString(st.error().message);
        QVERIFY2(msg.contains("option arch") && msg.contains(mentions), qPrintable(msg));
    }

    void archListFollowsTheCudaRelease() {
        nvvm::Options o;
        o.arch = "compute_70";
        QVERIFY(o.validate(12));   // CUDA 12 still has Volta
        QVERIFY(!o.validate(13));  // CUDA 13 dropped it
        o.arch = "compute_100f";
        QVERIFY(o.validate(13));
    }

    // The release is learnt from nvJitLink (opening it costs as much as opening libNVVM), so it
    // is asked for only when the answer depends on it.
    void theReleaseIsAskedForOnlyWhenTheArchDependsOnIt() {
        int asked = 0;
        const auto release = [&asked](int major) {
            return [&asked, major] {
                ++asked;
                return major;
            };
        };
        nvvm::Options o;
        QVERIFY(o.validate(release(13)));  // no arch: libNVVM's default
        o.arch = "compute_90";
        QVERIFY(o.validate(release(12)));
        QVERIFY(o.validate(release(13)));
        QCOMPARE(asked, 0);
        o.arch = "compute_70";
        QVERIFY(o.validate(release(12)));
        QVERIFY(!o.validate(release(13)));
        QCOMPARE(asked, 2);
        // The GPU's arch: an H200 (9.0) is compute_90 in both; a Volta (7.0) only CUDA 12 has.
        asked = 0;
        QCOMPARE(nvvm::archForComputeCapability(9, 0, release(13)), std::optional<std::string>("compute_90"));
        QCOMPARE(asked, 0);
        QCOMPARE(nvvm::archForComputeCapability(7, 0, release(12)), std::optional<std::string>("compute_70"));
        QCOMPARE(asked, 1);
    }

    void extraFlagsAreCheckedToo_data() {
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("double dash") << "--generate-line-info"
                                     << "single dash: '-generate-line-info'";
        QTest::newRow("no dash") << "opt=3"
                                 << "starts with '-'";
        QTest::newRow("typed arch") << "-arch=compute_90"
                                    << "sets the option arch, which has its own";
        QTest::newRow("typed g") << "-g"
                                 << "sets the option g, which has its own";
        // One answer for an option, however it is written: no detour through "take a single dash".
        QTest::newRow("typed opt") << "-opt=3"
                                   << "sets the option opt, which has its own";
        QTest::newRow("double-dashed opt") << "--opt=3"
                                           << "sets the option opt, which has its own";
        // Half-typed "-ftz=1": libNVVM knows no "-ftz", so it is not passed on as a flag.
        QTest::newRow("half-typed ftz") << "-ftz"
                                        << "sets the option ftz, which has its own";
        QTest::newRow("half-typed ftz=") << "-ftz="
                                         << "sets the option ftz, which has its own";
        QTest::newRow("gen-lto") << "-gen-lto"
                                 << "wanted outputs";
    }
    void extraFlagsAreCheckedToo() {
        QFETCH(QString, flag);
        QFETCH(QString, mentions);
        nvvm::Options o;
        o.extraFlags = {flag.toStdString()};
        const auto st = o.validate(13);
        QVERIFY(!st);
        const auto msg = QString::fromStdString(st.error().message);
        QVERIFY2(msg.contains(mentions) && msg.contains(flag), qPrintable(msg));
        // Core names no front end's controls: each front end says where an option is set.
        QVERIFY2(!msg.contains("field") && !msg.contains("dock"), qPrintable(msg));
    }

    // The front end's words for where an option is set are the ones the advice uses.
    void extraFlagAdviceUsesTheFrontEndsPlace() {
        nvvm::Options o;
        o.extraFlags = {"--opt=3"};
        const auto st = o.validate(
            13, [](const nvvm::OptionInfo& info) { return "its own nvpg option, --" + std::string(info.name); });
        QVERIFY(!st);
        const auto msg = QString::fromStdString(st.error().message);
        QVERIFY2(msg.contains("which has its own nvpg option, --opt:"), qPrintable(msg));
        QVERIFY2(!msg.contains("single dash"), qPrintable(msg));
    }

    void getReturnsWhatSetTook() {
        nvvm::Options o;
        for (const auto& info : nvvm::optionTable()) QVERIFY(!o.get(info.name));
        QVERIFY(o.set("prec-div", "false"));
        QCOMPARE(*o.get("prec-div"), std::string("0"));
        QVERIFY(o.set("jump-table-density", "7"));
        QCOMPARE(*o.get("jump-table-density"), std::string("7"));
    }

    // "A new option is one entry": whatever the table holds, each entry's allowed values reach
    // libNVVM as its flag and come back from get(); values outside them are refused naming it.
    void everyTableOptionRoundTripsThroughFlagsAndChecks() {
        QVERIFY(!nvvm::optionTable().empty());
        for (const auto& info : nvvm::optionTable()) {
            const std::string name(info.name);
            const auto allowed = nvvm::allowedValues(info);
            std::vector<std::string> good, refusedBySet, refusedByValidate;
            switch (info.kind) {
                case nvvm::OptionKind::Arch:
                    good = nvvm::supportedArchs(13);
                    refusedByValidate = {"sm_90", "compute_70", "compute90"};
                    break;
                case nvvm::OptionKind::Enum:
                    QVERIFY2(!info.values.empty(), info.name.data());
                    for (const auto& v : info.values) good.emplace_back(v.value);
                    refusedBySet = {"-1", "x", "1000"};
                    break;
                case nvvm::OptionKind::IntRange:
                    QVERIFY2(info.min < info.max, info.name.data());
                    good = {std::to_string(info.min), std::to_string((info.min + info.max) / 2),
                            std::to_string(info.max)};
                    refusedBySet = {std::to_string(info.min - 1), std::to_string(info.max + 1), "x"};
                    break;
                case nvvm::OptionKind::Bool:
                    good = {"0", "1"};
                    refusedBySet = {"2", "maybe"};
                    break;
                case nvvm::OptionKind::Switch:
                    good = {"on"};
                    refusedBySet = {"maybe"};
                    break;
            }
            for (const auto& v : good) {
                const auto what = qPrintable(QString::fromStdString(name + " " + v));
                nvvm::Options o;
                QVERIFY2(o.set(name, v), what);
                QVERIFY2(o.validate(13), what);
                const std::string flag =
                    info.kind == nvvm::OptionKind::Switch ? std::string(info.flag) : std::string(info.flag) + v;
                QCOMPARE(o.flags(), std::vector<std::string>{flag});
                QCOMPARE(o.get(name), std::optional(v));
                // The same flag written as an extra flag is refused: the option has its field.
                nvvm::Options extra;
                extra.extraFlags = {flag};
                const auto st = extra.validate(13);
                const std::string says =
                    info.outputChoice ? "wanted outputs" : "sets the option " + name + ", which has its own";
                QVERIFY2(!st && st.error().message.find(says) != std::string::npos, what);
                o.clear(name);
                QVERIFY2(o == nvvm::Options{}, what);
                QVERIFY(!o.get(name));
            }
            auto refused = [&](const support::Status& st, const std::string& v) {
                const auto what = qPrintable(QString::fromStdString(name + " " + v));
                QVERIFY2(!st, what);
                const auto& msg = st.error().message;
                QVERIFY2(msg.find("option " + name + ": '" + v + "'") != std::string::npos, msg.c_str());
                QCOMPARE(st.error().kind, support::ErrorKind::Usage);
            };
            for (const auto& v : refusedBySet) {
                nvvm::Options o;
                const auto st = o.set(name, v);
                refused(st, v);
                QVERIFY2(st.error().message.find(allowed) != std::string::npos, st.error().message.c_str());
            }
            for (const auto& v : refusedByValidate) {
                nvvm::Options o;
                QVERIFY(o.set(name, v));
                refused(o.validate(13), v);
            }
            // A value written straight into the field, past set(), is refused by validate().
            if (info.kind == nvvm::OptionKind::Enum || info.kind == nvvm::OptionKind::IntRange) {
                nvvm::Options o;
                o.*std::get<std::optional<int> nvvm::Options::*>(info.field) = info.max + 1000;
                refused(o.validate(13), std::to_string(info.max + 1000));
            }
        }
    }

    // Another tool's flags (numba's, as it passes them to nvvmCompileProgram) onto the table: each
    // known flag sets its option, what the table lacks stays an extra flag in order, and flags()
    // gives the same set back.
    void optionsFromAnotherToolsFlags() {
        const std::vector<std::string> numba = {"-opt=3", "-arch=compute_90", "-ftz=1",
                                                "-fma=1", "-prec-div=0",      "-prec-sqrt=0"};
        auto o = nvvm::optionsFromFlags(numba);
        QVERIFY(o);
        QCOMPARE(o->opt, std::optional<int>(3));
        QCOMPARE(o->arch, std::optional<std::string>("compute_90"));
        QCOMPARE(o->ftz, std::optional<bool>(true));
        QCOMPARE(o->fma, std::optional<bool>(true));
        QCOMPARE(o->precDiv, std::optional<bool>(false));
        QCOMPARE(o->precSqrt, std::optional<bool>(false));
        QVERIFY(o->extraFlags.empty());
        auto sorted = numba;
        auto back = o->flags();
        std::sort(sorted.begin(), sorted.end());
        std::sort(back.begin(), back.end());
        QCOMPARE(back, sorted);

        auto withExtras = nvvm::optionsFromFlags({"-g", "-opt=0", "-generate-line-info", "-maxreg=32"});
        QVERIFY(withExtras);
        QVERIFY(withExtras->debug);
        QCOMPARE(withExtras->opt, std::optional<int>(0));
        QCOMPARE(withExtras->extraFlags, (std::vector<std::string>{"-generate-line-info", "-maxreg=32"}));

        const auto bad = nvvm::optionsFromFlags({"-opt=2"});
        QVERIFY(!bad);
        QVERIFY2(bad.error().message.find("-opt=2") != std::string::npos, bad.error().message.c_str());
        const auto lto = nvvm::optionsFromFlags({"-gen-lto"});
        QVERIFY(!lto);
        QVERIFY2(lto.error().message.find("-gen-lto chooses an output") != std::string::npos,
                 lto.error().message.c_str());
    }

    void tableEntriesAreConsistent() {
        std::set<std::string_view> names, flags;
        for (const auto& info : nvvm::optionTable()) {
            QVERIFY2(names.insert(info.name).second, info.name.data());
            QVERIFY2(flags.insert(info.flag).second, info.flag.data());
            QVERIFY2(nvvm::findOption(info.name) == &info, info.name.data());
            QVERIFY2(!info.help.empty() && !info.label.empty(), info.name.data());
            // A flag with a value ends in '=', a switch is the flag alone.
            QCOMPARE(info.flag.back() == '=', info.kind != nvvm::OptionKind::Switch);
            // The kind decides the field's type (see OptionKind).
            using O = nvvm::Options;
            switch (info.kind) {
                case nvvm::OptionKind::Arch:
                    QVERIFY(std::holds_alternative<std::optional<std::string> O::*>(info.field));
                    break;
                case nvvm::OptionKind::Enum:
                case nvvm::OptionKind::IntRange:
                    QVERIFY(std::holds_alternative<std::optional<int> O::*>(info.field));
                    QVERIFY2(!info.libnvvmDefault.empty(), info.name.data());
                    break;
                case nvvm::OptionKind::Bool:
                    QVERIFY(std::holds_alternative<std::optional<bool> O::*>(info.field));
                    QVERIFY2(info.libnvvmDefault == "0" || info.libnvvmDefault == "1", info.name.data());
                    break;
                case nvvm::OptionKind::Switch:
                    QVERIFY(std::holds_alternative<bool O::*>(info.field));
                    break;
            }
        }
        QVERIFY(!nvvm::findOption("optimise"));
    }

    void archForTheLocalGpu_data() {
        QTest::addColumn<int>("major");
        QTest::addColumn<int>("minor");
        QTest::addColumn<QString>("arch");
        QTest::newRow("H200") << 9 << 0 << "compute_90";
        QTest::newRow("RTX 3080") << 8 << 6 << "compute_86";
        QTest::newRow("Orin") << 8 << 7 << "compute_87";
        QTest::newRow("B200") << 10 << 0 << "compute_100";
        QTest::newRow("future 13.5") << 13 << 5 << "compute_121";
        QTest::newRow("Volta (too old)") << 7 << 0 << "";
    }
    void archForTheLocalGpu() {
        QFETCH(int, major);
        QFETCH(int, minor);
        QFETCH(QString, arch);
        const auto got = nvvm::archForComputeCapability(major, minor, 13);
        QCOMPARE(QString::fromStdString(got.value_or("")), arch);
    }

    void smArchForNvJitLink() {
        QCOMPARE(nvvm::smArchFor("compute_90"), std::string("sm_90"));
        QCOMPARE(nvvm::smArchFor("compute_100a"), std::string("sm_100a"));
    }
};

QTEST_APPLESS_MAIN(TestOptions)
#include "tst_options.moc"
