// docs/cli/ against nvpg as built, the way nvpg.1 is checked (tst_cli_manpage): a page per
// command `nvpg --help` prints and no other; every option a command's --help (and its
// subcommands' --help) prints is named on its page; and no page, nor any other doc, names an
// option a command does not have: in a `nvpg COMMAND ...` line or code span, and in a code span
// that starts with `--` on the command's own page.
#include <QtTest>

#include <QDirIterator>
#include <set>

#include "ManPageCheck.h"
#include "TestSupport.h"

using namespace nvpg;

namespace {

QString sourceFile(const QString& relative) {
    return QDir(QString::fromStdString(test::sourceDir().string())).filePath(relative);
}

// The names (-o, --output) of a --help's options, without -h/--help.
std::set<QString> optionNames(const QString& help) {
    std::set<QString> names;
    const auto entries = test::helpEntries(help);
    const auto it = entries.find("Options");
    if (it == entries.end()) return names;
    for (const auto& e : it->second)
        for (const auto& n : e.names)
            if (n.startsWith('-') && n != "-h" && n != "--help") names.insert(n);
    return names;
}

std::vector<QString> subcommands(const QString& help) {
    std::vector<QString> names;
    const auto entries = test::helpEntries(help);
    if (const auto it = entries.find("Subcommands"); it != entries.end())
        for (const auto& e : it->second) names.push_back(e.names.first());
    return names;
}

// The option-like words of a piece of shell: `--name` and `-x` (a value after '=' cut off), up
// to the end of the nvpg command (a pipe, `;`, `&&`, a redirection or a comment).
QStringList optionWords(QString command) {
    static const QRegularExpression end(R"(\s(\||;|&&|>|#)\s?)");
    if (const auto m = end.match(command); m.hasMatch()) command.truncate(m.capturedStart());
    // Quoted words are a side's options (compare's --a "--ftz 1") or values: kept, unquoted.
    command.remove('"').remove('\'');
    static const QRegularExpression word(R"((?:^|[\s\[(|])(--?[A-Za-z][\w-]*))");
    QStringList words;
    for (auto it = word.globalMatch(command); it.hasNext();) {
        const auto w = it.next().captured(1);
        // A single dash and more than one letter is libNVVM's (-ftz=1, -opt, -prec-div), which
        // nvpg passes on or explains: nvpg's own short options are one letter.
        if (w.startsWith("--") || w.size() == 2) words << w;
    }
    return words;
}

// Inline code spans and code-block lines of a Markdown text.
QStringList codePieces(const QString& markdown) {
    QStringList pieces;
    bool fenced = false;
    static const QRegularExpression span(R"(`([^`]+)`)");
    for (const auto& line : markdown.split('\n')) {
        if (line.trimmed().startsWith("```")) {
            fenced = !fenced;
            continue;
        }
        if (fenced || line.startsWith("    ")) {
            pieces << line.trimmed();
            continue;
        }
        for (auto it = span.globalMatch(line); it.hasNext();) pieces << it.next().captured(1);
    }
    return pieces;
}

bool namesWord(const QString& text, const QString& name) {
    const QRegularExpression re("(?<![\\w-])" + QRegularExpression::escape(name) + "(?![\\w-])");
    return text.contains(re);
}

}  // namespace

class TestCliDocs : public QObject {
    Q_OBJECT

    std::vector<QString> commands_;
    std::map<QString, std::set<QString>> options_;  // each command's, its subcommands' included
    std::map<QString, std::set<QString>> own_;      // the same, per "import numba", "lesson state", ...
    std::set<QString> global_;

    static QString page(const QString& command) { return sourceFile("docs/cli/" + command + ".md"); }

private slots:
    void initTestCase() {
        const auto top = test::nvpgHelp({});
        commands_ = subcommands(top);
        QVERIFY(commands_.size() >= 10);
        global_ = optionNames(top);
        QVERIFY(global_.count("--cuda-path"));
        for (const auto& c : commands_) {
            const auto help = test::nvpgHelp({c});
            options_[c] = own_[c] = optionNames(help);
            for (const auto& sub : subcommands(help)) {
                own_[c + ' ' + sub] = optionNames(test::nvpgHelp({c, sub}));
                options_[c].insert(own_[c + ' ' + sub].begin(), own_[c + ' ' + sub].end());
            }
        }
    }

    // docs/cli has index.md and one page per command, no more.
    void aPagePerCommand() {
        std::set<QString> pages, expected{"index"};
        for (const auto& c : commands_) expected.insert(c);
        QDirIterator it(sourceFile("docs/cli"), {"*.md"}, QDir::Files);
        while (it.hasNext()) pages.insert(QFileInfo(it.next()).completeBaseName());
        QVERIFY2(pages == expected,
                 qPrintable("docs/cli has " + test::joined(pages) + "; nvpg --help prints " + test::joined(expected)));
        // The index names every command, and the global options.
        const auto index = test::readAll(page("index"));
        for (const auto& c : commands_) QVERIFY2(index.contains("(" + c + ".md)"), qPrintable(c));
        for (const auto& o : global_) QVERIFY2(namesWord(index, o), qPrintable("index.md lacks " + o));
    }

    void everyOptionIsOnItsPage() {
        for (const auto& c : commands_) {
            const auto text = test::readAll(page(c));
            for (const auto& o : options_[c])
                QVERIFY2(namesWord(text, o), qPrintable("docs/cli/" + c + ".md does not name " + o));
        }
    }

    // In every doc, `nvpg COMMAND ...` uses only options COMMAND has (its own, its subcommands',
    // the global ones).
    void everyCommandLineInTheDocsIsValid() {
        QStringList files{sourceFile("README.md")};
        QDirIterator it(sourceFile("docs"), {"*.md"}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) files << it.next();
        static const QRegularExpression invocation(R"((?:^|[\s($])nvpg\s+((?:--?[\w-]+\s+)*)([a-z]+)\b(.*))");
        int checked = 0;
        for (const auto& file : files) {
            for (const auto& piece : codePieces(test::readAll(file))) {
                for (auto m = invocation.globalMatch(piece); m.hasNext();) {
                    const auto match = m.next();
                    const auto command = match.captured(2);
                    if (!options_.count(command)) continue;  // "nvpg engine", prose
                    for (const auto& w : optionWords(match.captured(1) + ' ' + match.captured(3))) {
                        QVERIFY2(options_[command].count(w) || global_.count(w) || w == "-h" || w == "--help",
                                 qPrintable(QDir(sourceFile(".")).relativeFilePath(file) + ": `" + piece + "`: nvpg " +
                                            command + " has no " + w));
                        ++checked;
                    }
                }
            }
        }
        QVERIFY(checked > 50);
    }

    // On a command's page, a code span that starts with `--` names one of its options.
    void everyOptionAPageNamesExists() {
        for (const auto& c : commands_) {
            for (const auto& piece : codePieces(test::readAll(page(c)))) {
                static const QRegularExpression option("^--[A-Za-z]");
                if (!piece.contains(option)) continue;  // not a diff's "--- A: ..." line
                const auto name = piece.section(QRegularExpression("[\\s=]"), 0, 0);
                QVERIFY2(options_[c].count(name) || global_.count(name) || name == "--help",
                         qPrintable("docs/cli/" + c + ".md names " + name + ", which nvpg " + c + " --help lacks"));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCliDocs)
#include "tst_cli_docs.moc"
