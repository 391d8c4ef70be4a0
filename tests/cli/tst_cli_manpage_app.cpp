// nvvm-playground.1, the desktop app's man page (written by hand, packaging/man): its options are
// those `nvvm-playground --help` prints, its Qt options are Qt's, its version is the app's, and
// groff, man and lexgrog read it, as built and as installed, without a warning.
#include <QtTest>

#include "BuildPaths.h"
#include "ManPageCheck.h"

using namespace nvpg;

namespace {

// The app's output for `args`, without a display.
QString app(const QStringList& args) {
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    const auto r = test::runProgram(QString(test::built::app), args, env);
    if (r.exitCode != 0) qFatal("nvvm-playground %s: %s", qPrintable(args.join(' ')), r.err.constData());
    return QString::fromUtf8(r.out);
}

std::set<QString> helpOptions(const QString& help) {
    std::set<QString> names;
    const auto entries = test::helpEntries(help);
    if (const auto it = entries.find("Options"); it != entries.end())
        for (const auto& e : it->second)
            for (const auto& name : e.names) names.insert(name);
    return names;
}

}  // namespace

class TestCliManPageApp : public QObject {
    Q_OBJECT

    const QString page_ = QString(test::built::appManPage);
    std::vector<test::ManSection> sections_;

    const test::ManSection& section(const QString& chapter, const QString& heading) {
        return test::requireSection(sections_, "nvvm-playground.1", chapter, heading);
    }

private slots:
    void initTestCase() { sections_ = test::manSections(test::readAll(page_)); }

    // Both ways: what --help prints is documented, and the page documents nothing else.
    void optionsAreTheAppsHelps() {
        const auto help = app({"--help"});
        const auto documented = test::tagNames(section("OPTIONS", "OPTIONS").tags);
        const auto printed = helpOptions(help);
        QVERIFY2(documented == printed, qPrintable("nvvm-playground.1 has " + test::joined(documented) +
                                                   "; --help prints " + test::joined(printed)));
        const auto arguments = test::helpEntries(help).at("Arguments");
        for (const auto& e : arguments)
            QVERIFY2(section("SYNOPSIS", "SYNOPSIS").text.contains("[" + e.names.first() + "...]"),
                     qPrintable(e.names.first()));
    }

    // The page writes Qt's options with one dash, as Qt's documentation does; --help-all with two.
    void qtOptionsAreQts() {
        const auto qt = helpOptions(app({"--help-all"}));
        const auto documented = test::tagNames(section("OPTIONS", "Qt options").tags);
        QVERIFY(!documented.empty());
        for (const auto& name : documented) QVERIFY2(qt.count("-" + name), qPrintable(name + " is not a Qt option"));
    }

    void theVersionIsTheApps() {
        const auto version = app({"--version"}).trimmed().section(' ', -1);
        QVERIFY(!version.isEmpty());
        QVERIFY2(test::readAll(page_).contains("\"NVVM Playground " + version + "\" \"User Commands\""),
                 qPrintable(version));
        QVERIFY(section("SEE ALSO", "SEE ALSO").text.contains("nvpg(1)"));
    }

    void rendersWithoutWarnings() {
        test::checkRendersWithoutWarnings(page_);
        if (QTest::currentTestFailed()) return;
        test::checkWhatis(page_, "nvvm-playground");
    }

    void theGzIsThePage() { test::checkCompressedCopy(page_); }

    void installedWhereManFindsIt() { test::checkInstalledWhereManFindsIt(page_, "nvvm-playground"); }
};

QTEST_GUILESS_MAIN(TestCliManPageApp)
#include "tst_cli_manpage_app.moc"
