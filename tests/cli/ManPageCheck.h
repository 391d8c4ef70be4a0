// What the man page suites share: a page read as sections of plain text, the options a --help
// prints, and what groff, man and lexgrog say of a page.
#pragma once

#include <QtTest>

#include <set>
#include <vector>

#include "TestSupport.h"

namespace nvpg::test {

struct ProgramRun {
    int exitCode = -1;
    QByteArray out, err;
};

// `program` with `args`; one that is not installed fails the test that needs it, saying which
// package has it.
inline ProgramRun runProgram(const QString& program, const QStringList& args,
                             const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(120000)) qFatal("%s did not finish", qPrintable(program));
    if (p.exitStatus() != QProcess::NormalExit) qFatal("%s crashed", qPrintable(program));
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}
// What `nvpg COMMAND... --help` prints; a failing --help fails the suite.
inline QString nvpgHelp(const QStringList& command) {
    const auto r = runProgram(QString::fromStdString(nvpgPath()), command + QStringList{"--help"});
    if (r.exitCode != 0) qFatal("nvpg %s --help: %s", qPrintable(command.join(' ')), r.err.constData());
    return QString::fromUtf8(r.out);
}
inline QString tool(const char* name, const char* package) {
    const auto path = QStandardPaths::findExecutable(name);
    if (path.isEmpty()) qFatal("%s is not on PATH: install %s (apt-get install %s)", name, package, package);
    return path;
}

// A line of roff as it prints: \- is -, fonts and zero-width escapes go; a macro line's
// arguments (.BR \-h ", " \-\-help) are its text, without the quotes.
inline QString plainRoff(QString line) {
    static const QRegularExpression macro(R"(^\.(B|I|BR|BI|IB|IR|RI|RB)\s+)");
    if (line.contains(macro)) {
        line.remove(macro);
        line.remove('"');
    }
    static const QRegularExpression font(R"(\\f[BIRP])");
    line.remove(font);
    line.replace("\\-", "-").replace("\\&", "").replace("\\|", "").replace("\\e", "\\");
    return line;
}

struct ManSection {
    QString chapter;   // the .SH it is in ("COMMANDS")
    QString heading;   // its own: the .SH's, or the .SS's ("compile")
    QStringList tags;  // each .TP paragraph's tag line, as it prints
    QString text;      // everything in it, as it prints, one roff line a line
};

// The page by section: each .SH and each .SS starts one.
inline std::vector<ManSection> manSections(const QString& page) {
    std::vector<ManSection> sections;
    QString chapter;
    bool tagNext = false;
    for (const auto& line : page.split('\n')) {
        if (line.startsWith(".SH ") || line.startsWith(".SS ")) {
            auto heading = line.mid(4).trimmed();
            heading.remove('"');
            heading = plainRoff(heading);
            if (line.startsWith(".SH ")) chapter = heading;
            sections.push_back({chapter, heading, {}, {}});
            continue;
        }
        if (sections.empty() || line.startsWith(".\\\"")) continue;
        auto& s = sections.back();
        if (line.startsWith(".TP")) {
            tagNext = true;
            continue;
        }
        const auto plain = plainRoff(line);
        if (tagNext) s.tags << plain;
        tagNext = false;
        s.text += plain + '\n';
    }
    return sections;
}
inline const ManSection* findSection(const std::vector<ManSection>& sections, const QString& chapter,
                                     const QString& heading) {
    for (const auto& s : sections)
        if (s.chapter == chapter && s.heading == heading) return &s;
    return nullptr;
}
// The same, for a section the page must have: its absence ends the suite, naming `page`.
inline const ManSection& requireSection(const std::vector<ManSection>& sections, const QString& page,
                                        const QString& chapter, const QString& heading) {
    const auto* s = findSection(sections, chapter, heading);
    if (!s) qFatal("%s has no section %s in %s", qPrintable(page), qPrintable(heading), qPrintable(chapter));
    return *s;
}

inline QString readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
    return QString::fromUtf8(f.readAll());
}

// The option names (-o, --output) in tag lines, and the first word of a tag that names none
// (a positional: INPUT).
inline std::set<QString> tagNames(const QStringList& tags) {
    static const QRegularExpression option(R"((?:^|[\s,\[])(--?[A-Za-z][\w-]*))");
    std::set<QString> names;
    for (const auto& tag : tags) {
        bool any = false;
        for (auto it = option.globalMatch(tag); it.hasNext();) {
            names.insert(it.next().captured(1));
            any = true;
        }
        if (!any) names.insert(tag.section(' ', 0, 0));
    }
    return names;
}

// Names in a message: "-h, --help, --version".
inline QString joined(const std::set<QString>& names) {
    return QStringList(names.begin(), names.end()).join(", ");
}

// One entry of a --help: its names (-o, --output; or a positional's) and its description.
struct HelpEntry {
    QStringList names;
    QString description;
};

// The entries under each heading of a --help ("Options:", "Positionals:", "Subcommands:",
// "Arguments:"), as CLI11 and QCommandLineParser print them: two spaces, the names (and the
// argument), two spaces or more, the description, or the description on the lines after it.
inline std::map<QString, std::vector<HelpEntry>> helpEntries(const QString& help) {
    std::map<QString, std::vector<HelpEntry>> out;
    QString heading;
    static const QRegularExpression entry(R"(^  (\S.*?)(?:\s{2,}(\S.*))?$)");
    for (const auto& line : help.split('\n')) {
        if (!line.startsWith(' ') && line.endsWith(':')) {
            heading = line.chopped(1);
            continue;
        }
        if (heading.isEmpty() || line.trimmed().isEmpty()) continue;
        auto& entries = out[heading];
        if (const auto m = entry.match(line); m.hasMatch()) {
            // "-o,--output TEXT", "-h, --help", "INPUT TEXT ... REQUIRED": the names come first.
            auto names = QString(m.captured(1)).replace(", ", ",").section(' ', 0, 0).split(',', Qt::SkipEmptyParts);
            entries.push_back({names, m.captured(2)});
        } else if (!entries.empty()) {
            // A description on the lines below its names, wrapped or not.
            auto& d = entries.back().description;
            d += (d.isEmpty() ? "" : " ") + line.trimmed();
        }
    }
    return out;
}

// groff's warnings (-ww: all of them) and man's, on the page as `man -l` reads it (a .gz too).
inline void checkRendersWithoutWarnings(const QString& page) {
    if (!page.endsWith(".gz")) {
        const auto r = runProgram(tool("groff", "groff-base"), {"-man", "-ww", "-z", page});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
    }
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("MANPAGER", "cat");
    env.insert("MANWIDTH", "80");
    const auto r = runProgram(tool("man", "man-db"), {"--warnings", "-l", page}, env);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QVERIFY(!r.out.isEmpty());
}

// lexgrog reads the NAME section as mandb and whatis do: "nvpg - compile NVVM IR ...".
inline void checkWhatis(const QString& page, const QString& name) {
    const auto r = runProgram(tool("lexgrog", "man-db"), {page});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(": \"" + name.toUtf8() + " - "), r.out.constData());
}

// The .gz beside a page is the page, compressed without a name or time in its header (gzip -n),
// so that two builds give the same bytes.
inline void checkCompressedCopy(const QString& page) {
    QFile gz(page + ".gz");
    QVERIFY2(gz.open(QIODevice::ReadOnly), qPrintable(page + ".gz is missing"));
    const auto bytes = gz.readAll();
    QVERIFY(bytes.size() > 10);
    QCOMPARE(quint8(bytes[0]), quint8(0x1f));
    QCOMPARE(quint8(bytes[1]), quint8(0x8b));
    QCOMPARE(quint8(bytes[3]) & 0x08, 0);            // FNAME
    QCOMPARE(bytes.mid(4, 4), QByteArray(4, '\0'));  // MTIME
    const auto r = runProgram(tool("gzip", "gzip"), {"-dc", page + ".gz"});
    QCOMPARE(r.exitCode, 0);
    QFile plain(page);
    QVERIFY(plain.open(QIODevice::ReadOnly));
    QVERIFY2(r.out == plain.readAll(), qPrintable(page + ".gz is not the page"));
}

// app/cli's install rules (the binary and the man pages) run into `prefix`, by the build's cmake
// (NVPG_CMAKE, which a suite using this defines).
inline void installCliInto(const QString& page, const QString& prefix) {
    const auto script = QFileInfo(page).dir().filePath("cmake_install.cmake");
    const auto r = runProgram(QStringLiteral(NVPG_CMAKE), {"-DCMAKE_INSTALL_PREFIX=" + prefix, "-P", script});
    QVERIFY2(r.exitCode == 0, r.err.constData());
}

// What `cmake --install` (and so the .deb) puts in share/man/man1 is the built .gz, where
// `man NAME` finds it, and renders without warnings.
inline void checkInstalledWhereManFindsIt(const QString& page, const QString& name) {
    QTemporaryDir prefix;
    installCliInto(page, prefix.path());
    if (QTest::currentTestFailed()) return;
    const auto installed = prefix.filePath("share/man/man1/" + name + ".1.gz");
    QFile built(page + ".gz"), copy(installed);
    QVERIFY(built.open(QIODevice::ReadOnly));
    QVERIFY2(copy.open(QIODevice::ReadOnly), qPrintable(installed + " was not installed"));
    QVERIFY(copy.readAll() == built.readAll());
    const auto r = runProgram(tool("man", "man-db"), {"-M", prefix.filePath("share/man"), "-w", name});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out.trimmed(), installed.toUtf8());
    checkRendersWithoutWarnings(installed);
}

}  // namespace nvpg::test
