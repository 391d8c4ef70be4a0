// nvpg.1 as the build writes and installs it: every command and option `nvpg --help` and
// `nvpg COMMAND --help` print, with their descriptions, and nothing else; a page groff, man
// and lexgrog read without a warning; the same bytes from every build.

// nvpg's own headers first: Qt's `emit` macro would take CompileOptions::emit.
#include "cli/CliApp.h"
#include "cli/ManPage.h"

#include <QtTest>

#include "ManPageCheck.h"
#include "TestSupport.h"

using namespace nvpg;

namespace {

// The page without its title line, which alone holds the date.
QString body(const QString& page) {
    auto lines = page.split('\n');
    lines.removeIf([](const QString& l) { return l.startsWith(".TH "); });
    return lines.join('\n');
}

// Qt defines `emit` as a keyword macro: the field is read where that macro is not.
#pragma push_macro("emit")
#undef emit
bool sameEmit(const cli::CompileOptions& a, const cli::CompileOptions& b) {
    return a.emit == b.emit;
}
#pragma pop_macro("emit")

}  // namespace

class TestCliManPage : public QObject {
    Q_OBJECT

    const QString page_ = QString(test::built::manPage);
    std::vector<test::ManSection> sections_;

    const test::ManSection& section(const QString& chapter, const QString& heading) {
        return test::requireSection(sections_, "nvpg.1", chapter, heading);
    }

    // Each entry of a --help in the section that documents it, with its description; and no
    // option in that section that the --help lacks.
    void checkOptions(const QString& help, const test::ManSection& documented, const QString& what) {
        const auto& global = section("GLOBAL OPTIONS", "GLOBAL OPTIONS");
        std::set<QString> inHelp;
        const auto entries = test::helpEntries(help);
        for (const char* heading : {"Options", "Positionals"}) {
            const auto it = entries.find(heading);
            if (it == entries.end()) continue;
            for (const auto& e : it->second) {
                // -h, --help is described once, under GLOBAL OPTIONS.
                const bool isHelp = e.names.contains("--help");
                const auto& s = isHelp ? global : documented;
                const auto names = test::tagNames(s.tags);
                for (const auto& name : e.names) {
                    QVERIFY2(names.count(name), qPrintable(what + ": " + name + " is not in nvpg.1's " + s.heading));
                    if (!isHelp) inHelp.insert(name);
                }
                QVERIFY2(s.text.contains(e.description), qPrintable(what + ": nvpg.1 lacks the description of " +
                                                                    e.names.join(',') + ": " + e.description));
            }
        }
        for (const auto& name : test::tagNames(documented.tags))
            QVERIFY2(inHelp.count(name) || (&documented == &global && (name == "-h" || name == "--help")),
                     qPrintable(what + ": nvpg.1 documents " + name + ", which --help does not print"));
    }

private slots:
    void initTestCase() { sections_ = test::manSections(test::readAll(page_)); }

    void everyCommandHasASection() {
        const auto entries = test::helpEntries(test::nvpgHelp({}));
        QVERIFY(entries.count("Subcommands"));
        std::set<QString> commands, documented;
        for (const auto& e : entries.at("Subcommands")) {
            const auto name = e.names.first();
            commands.insert(name);
            // The page starts the description with a capital, and ends it with a full stop.
            QVERIFY2(section("COMMANDS", name).text.contains(e.description.mid(1)), qPrintable(name));
        }
        for (const auto& s : sections_)
            if (s.chapter == "COMMANDS" && s.heading != "COMMANDS") documented.insert(s.heading);
        QVERIFY2(documented == commands, qPrintable("nvpg.1 has " + test::joined(documented) + "; nvpg --help prints " +
                                                    test::joined(commands)));
        QVERIFY(commands.count("examples"));
        for (const auto& name : commands)
            QVERIFY2(section("SYNOPSIS", "SYNOPSIS").text.contains("nvpg [global options] " + name), qPrintable(name));
    }

    void globalOptionsAreNvpgHelps() {
        checkOptions(test::nvpgHelp({}), section("GLOBAL OPTIONS", "GLOBAL OPTIONS"), "nvpg");
    }

    void everyCommandsOptionsAreItsHelps() {
        const auto commands = test::helpEntries(test::nvpgHelp({}));
        for (const auto& e : commands.at("Subcommands")) {
            const auto name = e.names.first();
            checkOptions(test::nvpgHelp({name}), section("COMMANDS", name), "nvpg " + name);
            if (QTest::currentTestFailed()) return;
        }
    }

    void theSectionsAManPageHas() {
        for (const char* chapter :
             {"NAME", "SYNOPSIS", "DESCRIPTION", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"})
            QVERIFY2(test::findSection(sections_, chapter, chapter), chapter);
        const auto& env = section("ENVIRONMENT", "ENVIRONMENT").text;
        for (const char* variable : {"CUDA_PATH", "CUDA_HOME", "CONDA_PREFIX", "XDG_CACHE_HOME", "NVPG_CACHE_DIR",
                                     "NVPG_NO_CACHE", "NVPG_ENGINE", "NVPG_DATA_DIR"})
            QVERIFY2(env.contains(variable), variable);
        QVERIFY(section("SEE ALSO", "SEE ALSO").text.contains("nvvm-playground(1)"));
    }

    void rendersWithoutWarnings() {
        test::checkRendersWithoutWarnings(page_);
        if (QTest::currentTestFailed()) return;
        test::checkWhatis(page_, "nvpg");
    }

    void theGzIsThePage() { test::checkCompressedCopy(page_); }

    void installedWhereManFindsIt() { test::checkInstalledWhereManFindsIt(page_, "nvpg"); }

    // What roff would read as its own: a backslash, a line that starts with a dot or an
    // apostrophe (a request), characters outside ASCII; and option names, whose hyphens must
    // print as the minus one types.
    void roffEscapesWhatRoffWouldRead() {
        QCOMPARE(cli::roffText("a\\b"), std::string("a\\eb"));
        QCOMPARE(cli::roffText("--nvvm-flag=-foo, -g and (-o) but whole-program"),
                 std::string("\\-\\-nvvm\\-flag=\\-foo, \\-g and (\\-o) but whole-program"));
        QCOMPARE(cli::roffText("x \u2192 y"), std::string("x \\[u2192] y"));
        QCOMPARE(cli::roffText("two\nlines"), std::string("two lines"));

        const auto table = cli::buildCliApp();
        bool dot = false, quote = false;
        table->examples->add_flag("--dot", dot, ".starts with a dot");
        table->examples->add_flag("--quote", quote, "'starts with an apostrophe, ends with \\");
        const auto page = cli::manPage(*table, "today");
        QVERIFY(page.find("\n\\&.starts with a dot\n") != std::string::npos);
        QVERIFY(page.find("\n\\&'starts with an apostrophe, ends with \\e\n") != std::string::npos);
        QTemporaryDir dir;
        QFile f(dir.filePath("x.1"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(page.data(), qint64(page.size()));
        f.close();
        test::checkRendersWithoutWarnings(f.fileName());
        if (QTest::currentTestFailed()) return;
        const auto sections = test::manSections(QString::fromStdString(page));
        const auto* examples = test::findSection(sections, "COMMANDS", "examples");
        QVERIFY(examples);
        QVERIFY(examples->text.contains(".starts with a dot\n"));
        QVERIFY(test::tagNames(examples->tags).count("--quote"));
    }

    // The table of one subcommand parses that subcommand's arguments into the same options as
    // the whole table (nvpg builds the smaller one first), and help asks for
    // the whole table.
    void oneSubcommandsTableParsesAsTheWholeOne() {
        const std::vector<std::vector<std::string>> lines = {
            {"nvpg", "compile", "a.ll", "b.ll", "--libdevice", "--opt", "0", "--ftz", "1", "--emit", "ltoir", "-o",
             "x.ltoir", "--no-cache", "--nvvm-flag=-g"},
            {"nvpg", "--in-process", "compile", "--emit", "lto-ptx", "--lto-mode", "separate", "a.ll", "-o", "y"},
            {"nvpg", "compile", "a.ll", "--cuda-path", "/", "--line-map", "m.json", "--report", "r.json"},
        };
        for (const auto& line : lines) {
            std::vector<const char*> argv;
            for (const auto& a : line) argv.push_back(a.c_str());
            QCOMPARE(cli::subcommandNamed(int(argv.size()), argv.data()), std::string_view("compile"));
            const auto whole = cli::buildCliApp();
            const auto one = cli::buildCliApp("compile");
            whole->app.parse(int(argv.size()), argv.data());
            one->app.parse(int(argv.size()), argv.data());
            const auto& a = whole->compileOptions;
            const auto& b = one->compileOptions;
            QVERIFY(a.inputs == b.inputs && a.libdevice == b.libdevice && a.nvvmOptions == b.nvvmOptions &&
                    a.nvvmFlags == b.nvvmFlags && sameEmit(a, b) && a.ltoMode == b.ltoMode && a.noCache == b.noCache &&
                    a.report == b.report && a.lineMap == b.lineMap && a.output == b.output);
            QVERIFY(whole->common.cudaPath == one->common.cudaPath && whole->common.inProcess == one->common.inProcess);
            QVERIFY(!a.inputs.empty());
        }
        // The smaller table has no other subcommand's options; help needs them all.
        QVERIFY(cli::buildCliApp("compile")->run->get_options().size() < cli::buildCliApp()->run->get_options().size());
        const char* help[] = {"nvpg", "compile", "--help"};
        QVERIFY(cli::subcommandNamed(3, help).empty());
        const char* none[] = {"nvpg", "--version"};
        QVERIFY(cli::subcommandNamed(2, none).empty());
    }

    // The page is nvpg_manpage's output, the same bytes every time: the title line's date is
    // SOURCE_DATE_EPOCH's day, or the version.
    void theGeneratorIsReproducible() {
        QTemporaryDir dir;
        const QString tool = QString(test::built::manpageTool);
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove("SOURCE_DATE_EPOCH");
        QCOMPARE(test::runProgram(tool, {dir.filePath("a.1")}, env).exitCode, 0);
        QCOMPARE(test::runProgram(tool, {dir.filePath("b.1")}, env).exitCode, 0);
        const auto a = test::readAll(dir.filePath("a.1"));
        QCOMPARE(a, test::readAll(dir.filePath("b.1")));
        QCOMPARE(body(a), body(test::readAll(page_)));
        const auto version = test::runProgram(QString::fromStdString(test::nvpgPath()), {"--version"}).out.trimmed();
        QVERIFY2(a.contains(QString(".TH NVPG 1 \"%1\" \"nvpg %1\" \"User Commands\"\n").arg(QString(version))),
                 qPrintable(a.left(400)));

        env.insert("SOURCE_DATE_EPOCH", "86400");
        QCOMPARE(test::runProgram(tool, {dir.filePath("c.1")}, env).exitCode, 0);
        const auto c = test::readAll(dir.filePath("c.1"));
        QVERIFY(c.contains(".TH NVPG 1 \"1970-01-02\" \"nvpg " + version + "\""));
        QCOMPARE(body(c), body(a));

        env.insert("SOURCE_DATE_EPOCH", "yesterday");
        const auto bad = test::runProgram(tool, {dir.filePath("d.1")}, env);
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("SOURCE_DATE_EPOCH is 'yesterday'"), bad.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("d.1")));
    }
};

QTEST_GUILESS_MAIN(TestCliManPage)
#include "tst_cli_manpage.moc"
