// nvvm::Options: the one table from typed options to libNVVM flags, and rejection before
// libNVVM sees a bad value.
#include <QtTest>

#include "nvvm/Options.h"

using namespace nvpg;

Q_DECLARE_METATYPE(std::string)

class TestOptions : public QObject {
    Q_OBJECT

private slots:
    void mapsEachOptionToItsFlag_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("flag");
        QTest::newRow("arch") << "arch" << "compute_90" << "-arch=compute_90";
        QTest::newRow("arch a") << "arch" << "compute_90a" << "-arch=compute_90a";
        QTest::newRow("arch f") << "arch" << "compute_100f" << "-arch=compute_100f";
        QTest::newRow("opt 0") << "opt" << "0" << "-opt=0";
        QTest::newRow("opt 3") << "opt" << "3" << "-opt=3";
        QTest::newRow("ftz") << "ftz" << "1" << "-ftz=1";
        QTest::newRow("ftz off") << "ftz" << "0" << "-ftz=0";
        QTest::newRow("prec-div") << "prec-div" << "0" << "-prec-div=0";
        QTest::newRow("prec-sqrt") << "prec-sqrt" << "1" << "-prec-sqrt=1";
        QTest::newRow("fma") << "fma" << "0" << "-fma=0";
        QTest::newRow("g") << "g" << "on" << "-g";
        QTest::newRow("jump-table-density") << "jump-table-density" << "42" << "-jump-table-density=42";
        QTest::newRow("gen-lto") << "gen-lto" << "1" << "-gen-lto";
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
        QTest::newRow("opt 2") << "opt" << "2" << "0 or 3";
        QTest::newRow("ftz 2") << "ftz" << "2" << "0 or 1";
        QTest::newRow("fma yes") << "fma" << "maybe" << "0 or 1";
        QTest::newRow("density 102") << "jump-table-density" << "102" << "0 to 101";
        QTest::newRow("density -1") << "jump-table-density" << "-1" << "0 to 101";
        QTest::newRow("unknown") << "optimise" << "3" << "the options are";
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
        QTest::newRow("dropped in 13") << "compute_70" << "compute_75";
        QTest::newRow("no f before 100") << "compute_90f" << "compute_90a";
        QTest::newRow("sm_ given") << "sm_90" << "compute_90, not sm_90";
        QTest::newRow("typo") << "compute90" << "compute_90";
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

    void extraFlagsAreCheckedToo_data() {
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("double dash") << "--opt=3" << "single dash: '-opt=3'";
        QTest::newRow("no dash") << "opt=3" << "starts with '-'";
        QTest::newRow("typed arch") << "-arch=compute_90" << "own field";
        QTest::newRow("typed g") << "-g" << "own field";
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
    }

    void getReturnsWhatSetTook() {
        nvvm::Options o;
        for (const auto& info : nvvm::optionTable()) QVERIFY(!o.get(info.name));
        QVERIFY(o.set("prec-div", "false"));
        QCOMPARE(*o.get("prec-div"), std::string("0"));
        QVERIFY(o.set("jump-table-density", "7"));
        QCOMPARE(*o.get("jump-table-density"), std::string("7"));
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
