// The module editor: exact round trips of text, the read-only bitcode views (disassembly and
// summary), problems shown in place, navigation, completions and call tips, and find/replace.
#include <Qsci/qsciabstractapis.h>
#include <Qsci/qscilexer.h>
#include <QAccessible>
#include <QAction>
#include <QLineEdit>
#include <QProcess>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <QtTest>

#include "TestSupport.h"
#include "gui/editor/BitcodeSummary.h"
#include "gui/editor/Completions.h"
#include "gui/editor/FindBar.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/editor/NvvmLexer.h"

using namespace nvpg;
using namespace nvpg::gui;
using B = QsciScintillaBase;

namespace {

// Bitcode made now from a fixture by llvm-as-14; empty when llvm-as-14 is not installed.
std::string assemble(const std::string& fixture) {
    const QString as = QStandardPaths::findExecutable(QStringLiteral("llvm-as-14"));
    if (as.isEmpty()) return {};
    const auto input = test::dataDir() / "ir" / fixture;
    QProcess p;
    p.start(as, {QString::fromStdString(input.string()), QStringLiteral("-o"), QStringLiteral("-")});
    if (!p.waitForFinished(20000) || p.exitCode() != 0) qFatal("llvm-as-14 failed on %s", fixture.c_str());
    const QByteArray out = p.readAllStandardOutput();
    return std::string(out.constData(), static_cast<size_t>(out.size()));
}

// Restores the normal llvm-dis-14 lookup however a test ends.
struct DisassemblerOverride {
    explicit DisassemblerOverride(const QString& program) { ModuleEditor::setDisassemblerOverride(program); }
    ~DisassemblerOverride() { ModuleEditor::setDisassemblerOverride(std::nullopt); }
};

nvvm::Diagnostic diag(int line, int column, nvvm::Severity s, const std::string& message) {
    nvvm::Diagnostic d;
    d.module = "m.ll";
    d.line = line;
    d.column = column;
    d.severity = s;
    d.message = message;
    return d;
}

long positionOf(const ModuleEditor& e, const QString& needle) {
    const QByteArray text = e.text().toUtf8();
    const int at = text.indexOf(needle.toUtf8());
    return at;
}

bool squiggledAt(const ModuleEditor& e, long pos) {
    return e.SendScintilla(B::SCI_INDICATORALLONFOR, static_cast<unsigned long>(pos)) != 0;
}

// The offscreen platform cannot raise the completion popup and says so each time.
struct QuietPopups {
    static inline QtMessageHandler previous = nullptr;
    QuietPopups() {
        previous =
            qInstallMessageHandler([](QtMsgType type, const QMessageLogContext& context, const QString& message) {
                if (!message.contains(QStringLiteral("does not support raise()"))) previous(type, context, message);
            });
    }
    ~QuietPopups() { qInstallMessageHandler(previous); }
};

// An editor shown and focused, as a user types into it.
void showFocused(QWidget& w) {
    w.resize(800, 400);
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
}

}  // namespace

class TestEditor : public QObject {
    Q_OBJECT

private slots:
    // The line map's libdevice note "__nv_sinf (libdevice)" keeps its underscores: the note's
    // box and the next line's band must not be drawn over them, which lie below the text's
    // descent. A note of underscores must look different from one of spaces, and so must a
    // banded line of them.
    void underscoresInNotesAndBandedLinesAreDrawn() {
        const auto render = [](const QString& note, const std::string& code) {
            ModuleEditor e;
            e.resize(500, 160);
            e.setModule(code + "\nnext\n", false);
            e.setMapNotes({{0, note}});
            // The line map's colour band on the line after it, as a mapped call's next line has.
            const int band = e.markerDefine(QsciScintilla::Background);
            e.setMarkerBackgroundColor(QColor(0xb3, 0xd7, 0xff), band);
            e.markerAdd(1, band);
            e.SendScintilla(QsciScintillaBase::SCI_SETCARETSTYLE, 0L);  // no blinking caret in the picture
            e.show();
            if (!QTest::qWaitForWindowExposed(&e)) return QImage();
            QTest::qWait(20);
            return e.grab().toImage();
        };
        // The same text with spaces for underscores: all else (box, widths) is alike.
        const QImage spaces = render(QStringLiteral("  nv sinf (libdevice)"), "%s = call float @  nv sinf(float %v)");
        const QImage noteUnderscores =
            render(QStringLiteral("__nv_sinf (libdevice)"), "%s = call float @  nv sinf(float %v)");
        const QImage codeUnderscores =
            render(QStringLiteral("  nv sinf (libdevice)"), "%s = call float @__nv_sinf(float %v)");
        QVERIFY(!spaces.isNull());
        QVERIFY2(noteUnderscores != spaces, "the note's underscores are not drawn");
        QVERIFY2(codeUnderscores != spaces, "the banded code line's underscores are not drawn");
    }

    void textRoundTripsExactly() {
        const std::string fixture = test::readText(test::dataDir() / "ir" / "sinf.ll");
        // Non-ASCII in comments and strings, a CRLF line, a tab, no newline at the end.
        const std::string odd =
            "; Grüße, naïve café — ✓ 日本語\r\n"
            "@s = private constant [4 x i8] c\"\xc3\xa9t\xc3\xa9\"\n"
            "\tdeclare float @__nv_sinf(float) ; π";
        ModuleEditor e;
        for (const std::string& bytes : {fixture, odd, std::string()}) {
            e.setModule(bytes, false);
            QCOMPARE(e.moduleText(), bytes);
            QVERIFY(!e.isReadOnly());
            QVERIFY(!e.isBitcodeView());
            QVERIFY(!e.isModified());
        }
        e.setModule(odd, false);
        QCOMPARE(e.lines(), 3);
        // Editing shows up in moduleText as UTF-8.
        e.insertAt(QStringLiteral("; ünïcode\n"), 1, 0);
        QCOMPARE(QString::fromStdString(e.moduleText()),
                 QString::fromUtf8("; Grüße, naïve café — ✓ 日本語\r\n; ünïcode\n") +
                     QString::fromStdString(odd.substr(odd.find("@s"))));
        // Loading is not an undoable edit.
        e.setModule(fixture, false);
        QVERIFY(!e.isUndoAvailable());
    }

    void bitcodeShowsDisassemblyReadOnly() {
        const std::string bc = assemble("sinf.ll");
        if (bc.empty()) QSKIP("llvm-as-14 is not installed");
        if (QStandardPaths::findExecutable(QStringLiteral("llvm-dis-14")).isEmpty())
            QSKIP("llvm-dis-14 is not installed");
        ModuleEditor e;
        QSignalSpy disassembled(&e, &ModuleEditor::disassembled);
        e.setModule(bc, true);
        QVERIFY(e.isBitcodeView());
        QVERIFY(e.isReadOnly());
        // At once: the summary, saying the text is on its way; llvm-dis-14's text when it is done.
        QVERIFY(e.isDisassembling());
        QVERIFY2(e.text().startsWith(
                     QStringLiteral("; bitcode module (%1 bytes), read-only; llvm-dis-14 is disassembling it")
                         .arg(bc.size())),
                 qPrintable(e.text().left(200)));
        QVERIFY(e.text().contains(QStringLiteral("@sin_kernel")));
        QCOMPARE(e.moduleText(), bc);
        QVERIFY(disassembled.wait(15000));
        QVERIFY(!e.isDisassembling());
        const QString shown = e.text();
        QVERIFY2(shown.startsWith(QStringLiteral("; bitcode module (%1 bytes), shown as its "
                                                 "llvm-dis-14 disassembly; read-only\n")
                                      .arg(bc.size())),
                 qPrintable(shown.left(200)));
        QVERIFY(shown.contains(QStringLiteral("define void @sin_kernel(")));
        QVERIFY(shown.contains(QStringLiteral("declare float @__nv_sinf(float)")));
        QCOMPARE(e.moduleText(), bc);

        // Typing does nothing to a read-only view, and the bytes stay the original ones.
        e.setCursorPosition(1, 0);
        QTest::keyClicks(&e, "xyz");
        QCOMPARE(e.text(), shown);
        QCOMPARE(e.moduleText(), bc);

        // Back to text: editable again.
        e.setModule("; text\n", false);
        QVERIFY(!e.isReadOnly());
        QVERIFY(!e.isBitcodeView());
        QCOMPARE(e.moduleText(), std::string("; text\n"));
    }

    // An editor closed while llvm-dis-14 still runs for it (a module removed, a workspace
    // closed, the app quitting) stops it and goes quietly: the QProcess, deleted with the editor,
    // waited for it and said it finished to the editor half destroyed (SIGSEGV in CI).
    void anEditorClosedWhileDisassemblingGoesQuietly() {
        const std::string bc = assemble("sinf.ll");
        if (bc.empty()) QSKIP("llvm-as-14 is not installed");
        // A disassembler that takes its time, so that it surely still runs.
        QTemporaryDir dir;
        const QString slow = dir.filePath(QStringLiteral("slow-llvm-dis"));
        {
            QFile f(slow);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("#!/bin/sh\nsleep 30\n");
        }
        QFile::setPermissions(slow, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        DisassemblerOverride sleeper{slow};
        for (int i = 0; i < 3; ++i) {
            auto* e = new ModuleEditor;
            e->setModule(bc, true);
            QVERIFY(e->isDisassembling());
            QElapsedTimer timer;
            timer.start();
            delete e;
            QVERIFY2(timer.elapsed() < 10000, "the disassembler was waited for, not stopped");
        }
    }

    void bitcodeSummaryWithoutLlvmDis() {
        const std::string bc = assemble("sinf.ll");
        if (bc.empty()) QSKIP("llvm-as-14 is not installed");
        DisassemblerOverride none{QString()};
        ModuleEditor e;
        e.setModule(bc, true);
        QVERIFY(e.isReadOnly());
        QCOMPARE(e.moduleText(), bc);
        const QString shown = e.text();
        QVERIFY2(shown.startsWith(QStringLiteral("; bitcode module (%1 bytes)").arg(bc.size())), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("; producer: LLVM14")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("@sin_kernel")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("@__nv_sinf")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("nvptx64-nvidia-cuda")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("install llvm-14 to see the disassembly")), qPrintable(shown));
        // Every line is a comment, so the summary cannot be mistaken for IR.
        for (const QString& line : shown.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            QVERIFY2(line.startsWith(QLatin1Char(';')), qPrintable(line));
    }

    void bitcodeSummaryWhenLlvmDisFails() {
        const std::string bc = assemble("sinf.ll");
        if (bc.empty()) QSKIP("llvm-as-14 is not installed");
        const QString falseProgram = QStandardPaths::findExecutable(QStringLiteral("false"));
        if (falseProgram.isEmpty()) QSKIP("no false(1)");
        DisassemblerOverride failing{falseProgram};
        ModuleEditor e;
        QSignalSpy disassembled(&e, &ModuleEditor::disassembled);
        e.setModule(bc, true);
        QVERIFY(disassembled.wait(15000));
        const QString shown = e.text();
        QVERIFY2(shown.contains(QStringLiteral("could not read it")), qPrintable(shown));
        QVERIFY(shown.contains(QStringLiteral("LLVM14")));
        QVERIFY(!shown.contains(QStringLiteral("install llvm-14")));
        QCOMPARE(e.moduleText(), bc);
    }

    // llvm-dis-14 runs beside the event loop. One that hangs holds nothing up:
    // the summary shows at once, the run is ended after 10 s (the summary then says so), and a
    // module shown instead ends it at once.
    void aHangingDisassemblerHoldsNothingUp() {
        const std::string bc = assemble("sinf.ll");
        if (bc.empty()) QSKIP("llvm-as-14 is not installed");
        QTemporaryDir dir;
        const QString hang = dir.filePath("llvm-dis-14");
        QVERIFY(support::writeFileAtomic(hang.toStdString(), "#!/bin/sh\nexec sleep 60\n"));
        QVERIFY(QFile::setPermissions(hang, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        DisassemblerOverride hanging{hang};
        auto running = [](ModuleEditor& e) {
            auto* p = e.findChild<QProcess*>();
            return p && p->state() == QProcess::Running ? int(p->processId()) : 0;
        };

        ModuleEditor e;
        QSignalSpy disassembled(&e, &ModuleEditor::disassembled);
        QElapsedTimer clock;
        clock.start();
        e.setModule(bc, true);
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString("setModule took %1 ms").arg(clock.elapsed())));
        QVERIFY(e.text().contains(QStringLiteral("llvm-dis-14 is disassembling it")));
        QTRY_VERIFY_WITH_TIMEOUT(running(e) > 0, 5000);
        const int first = running(e);
        QVERIFY(disassembled.wait(20000));
        qInfo("the hanging llvm-dis-14 was given up after %lld ms", clock.elapsed());
        QVERIFY2(clock.elapsed() >= 9000, "given up before its 10 s");
        QVERIFY2(e.text().contains(QStringLiteral("llvm-dis-14 took longer than 10 s, so this is a summary")),
                 qPrintable(e.text().left(200)));
        QVERIFY(!e.disassembly());
        QCOMPARE(e.moduleText(), bc);
        QTRY_VERIFY_WITH_TIMEOUT(::kill(first, 0) != 0, 5000);  // ended and reaped

        // Another module shown while it runs: the run goes, and its end changes nothing.
        e.setModule(bc, true);
        QTRY_VERIFY_WITH_TIMEOUT(running(e) > 0, 5000);
        const int second = running(e);
        e.setModule("; text\n", false);
        QTRY_VERIFY_WITH_TIMEOUT(::kill(second, 0) != 0, 5000);
        QTest::qWait(100);
        QCOMPARE(e.text(), QStringLiteral("; text\n"));
        QVERIFY(!e.isReadOnly());
        QCOMPARE(disassembled.size(), 1);
    }

    void bitcodeSummaryReadsTheBitstream() {
        const std::string bc = assemble("caller.ll");
        if (bc.empty()) QSKIP("llvm-as-14 is not installed");
        const BitcodeSummary s = summarizeBitcode(bc);
        QVERIFY2(s.producer.rfind("LLVM14", 0) == 0, s.producer.c_str());
        QCOMPARE(s.triple, std::string("nvptx64-nvidia-cuda"));
        QCOMPARE(s.definedFunctions, std::vector<std::string>{"caller"});
        QCOMPARE(s.declaredFunctions, std::vector<std::string>{"scale"});
        QVERIFY(s.guessedNames.empty());

        // Damaged input gives a shorter summary, never a crash or a hang.
        for (size_t cut = 0; cut < bc.size(); cut += 7) summarizeBitcode(bc.substr(0, cut));
        std::string flipped = bc;
        for (size_t i = 8; i < flipped.size(); i += 13) {
            flipped[i] = static_cast<char>(flipped[i] ^ 0x5A);
            summarizeBitcode(flipped);
        }
        const BitcodeSummary junk = summarizeBitcode("BC\xC0\xDE garbage with some_name in it");
        QVERIFY(junk.definedFunctions.empty());
    }

    // A message of kilobytes (the LTO hint quotes a whole @llvm.used line of IR,
    // 5.7 KB for 85 kernels) is shown under its line cut to a few lines, with a word on where the
    // rest is; wrapping all of it per kernel held the UI thread 60 ms per reply.
    void aLongMessageIsCutUnderItsLine() {
        ModuleEditor e;
        e.setModule(test::readText(test::dataDir() / "ir" / "broken.ll"), false);
        std::string hint = "kernel 'k0' is dropped: add it to @llvm.used:\n@llvm.used = appending global [500 x ptr] [";
        for (int k = 0; k < 500; ++k) hint += (k ? ", ptr @kernel_number_" : "ptr @kernel_number_") + std::to_string(k);
        hint += "]";
        e.setDiagnostics({diag(8, 0, nvvm::Severity::Warning, hint), diag(9, 0, nvvm::Severity::Warning, "short one")});
        const QString shown = e.annotation(7);
        QVERIFY(shown.startsWith(QStringLiteral("warning: kernel 'k0' is dropped")));
        QVERIFY2(shown.count(QLatin1Char('\n')) <= 13, qPrintable(QString::number(shown.count(QLatin1Char('\n')))));
        QVERIFY(shown.endsWith(QStringLiteral("… (the whole message is in the Problems dock)")));
        QCOMPARE(e.annotation(8), QStringLiteral("warning: short one"));
    }

    void diagnosticsShownInPlace() {
        ModuleEditor e;
        e.setModule(test::readText(test::dataDir() / "ir" / "broken.ll"), false);
        // broken.ll line 8 is "  %b = fad float %a, 2.0" (column 8: "fad"), line 9 the store,
        // line 10 "  ret void".
        e.setDiagnostics({diag(8, 8, nvvm::Severity::Error, "parse expected instruction opcode"),
                          diag(8, 3, nvvm::Severity::Warning, "a second problem on line 8"),
                          diag(9, 0, nvvm::Severity::Warning, "whole-line warning"),
                          diag(5, 1, nvvm::Severity::Note, "just a note"),
                          diag(0, 0, nvvm::Severity::Error, "no place: not shown here")});
        QCOMPARE(e.markedLines(), (std::vector<int>{8, 9}));
        QVERIFY(e.annotation(7).contains(QStringLiteral("parse expected instruction opcode")));
        QVERIFY(e.annotation(7).contains(QStringLiteral("a second problem on line 8")));
        QVERIFY(e.annotation(8).contains(QStringLiteral("whole-line warning")));
        QVERIFY(e.annotation(4).contains(QStringLiteral("just a note")));
        QVERIFY(e.annotation(0).isEmpty());

        // The error squiggle covers the word at the column, not what follows it.
        const long fad = positionOf(e, QStringLiteral("fad float %a"));
        QVERIFY(squiggledAt(e, fad));
        QVERIFY(squiggledAt(e, fad + 2));
        QVERIFY(!squiggledAt(e, fad + 3));
        QVERIFY(!squiggledAt(e, fad + 5));
        // A column-0 warning covers the line's text.
        const long store = positionOf(e, QStringLiteral("store float %b"));
        QVERIFY(squiggledAt(e, store));
        QVERIFY(squiggledAt(e, store + 20));
        QVERIFY(!squiggledAt(e, positionOf(e, QStringLiteral("ret void"))));

        // A second call replaces the first set entirely.
        e.setDiagnostics({diag(10, 3, nvvm::Severity::Error, "something about ret")});
        QCOMPARE(e.markedLines(), std::vector<int>{10});
        QVERIFY(e.annotation(7).isEmpty());
        QVERIFY(e.annotation(8).isEmpty());
        QVERIFY(e.annotation(4).isEmpty());
        QVERIFY(e.annotation(9).contains(QStringLiteral("something about ret")));
        QVERIFY(!squiggledAt(e, fad));
        QVERIFY(!squiggledAt(e, store));
        QVERIFY(squiggledAt(e, positionOf(e, QStringLiteral("ret void"))));

        // Lines past the end land on the last line; an empty list clears everything.
        e.setDiagnostics({diag(999, 4, nvvm::Severity::Error, "past the end")});
        QCOMPARE(e.markedLines(), std::vector<int>{e.lines()});
        e.setDiagnostics({});
        QVERIFY(e.markedLines().empty());
        // setModule starts clean too.
        e.setDiagnostics({diag(2, 1, nvvm::Severity::Error, "x")});
        e.setModule("; new\n", false);
        QVERIFY(e.markedLines().empty());
    }

    // Boxes follow their lines through edits, and a new set of problems clears them where they
    // are now, not where they were put (the editor clears only the lines it annotated).
    void boxesThatMovedAreClearedWhereTheyAre() {
        ModuleEditor e;
        e.setModule(test::readText(test::dataDir() / "ir" / "broken.ll"), false);
        e.setDiagnostics({diag(8, 8, nvvm::Severity::Error, "parse expected instruction opcode"),
                          diag(5, 1, nvvm::Severity::Note, "just a note")});
        QVERIFY(e.annotation(7).contains(QStringLiteral("parse expected instruction opcode")));
        e.insertAt(QStringLiteral("; one\n; two\n; three\n"), 0, 0);
        QVERIFY(e.annotation(10).contains(QStringLiteral("parse expected instruction opcode")));
        QVERIFY(e.annotation(7).contains(QStringLiteral("just a note")));
        QVERIFY(e.annotation(4).isEmpty());
        e.setDiagnostics({diag(2, 1, nvvm::Severity::Warning, "new")});
        for (int line = 0; line < e.lines(); ++line)
            if (line != 1)
                QVERIFY2(e.annotation(line).isEmpty(), qPrintable(QString("line %1 kept a box").arg(line + 1)));
        QVERIFY(e.annotation(1).contains(QStringLiteral("new")));
        // A line joined into the one above takes its marker along; clearing still ends with none.
        e.setSelection(1, 0, 2, 0);
        e.removeSelectedText();
        e.setDiagnostics({});
        for (int line = 0; line < e.lines(); ++line) QVERIFY(e.annotation(line).isEmpty());
    }

    void goToMovesTheCursor() {
        ModuleEditor e;
        e.setModule(test::readText(test::dataDir() / "ir" / "sinf.ll"), false);
        e.goTo(9, 6);
        int line = -1, index = -1;
        e.getCursorPosition(&line, &index);
        QCOMPARE(line, 8);
        QCOMPARE(index, 5);
        e.goTo(1, 1);
        e.getCursorPosition(&line, &index);
        QCOMPARE(line, 0);
        QCOMPARE(index, 0);
        // Out of range: clamped to the last line and to the end of the line.
        e.goTo(10000, 500);
        e.getCursorPosition(&line, &index);
        QCOMPARE(line, e.lines() - 1);
        e.goTo(9, 500);
        e.getCursorPosition(&line, &index);
        QCOMPARE(line, 8);
        QCOMPARE(index, e.text(8).trimmed().size() + 2);  // "  %r = call ..." ends the line
    }

    void completionEntries() {
        const QStringList& entries = Completions::entries();
        QVERIFY(entries.contains(QStringLiteral("__nv_sinf(float a) -> float")));
        QVERIFY(entries.contains(QStringLiteral("__nv_powf(float a, float b) -> float")));
        QVERIFY(entries.contains(QStringLiteral("llvm.nvvm.read.ptx.sreg.tid.x() -> i32")));
        QVERIFY(entries.contains(QStringLiteral("getelementptr")));
        QVERIFY(entries.contains(QStringLiteral("addrspacecast")));
        for (const QString& e : entries) QVERIFY2(!e.startsWith(QStringLiteral("__internal")), qPrintable(e));
        QVERIFY(Completions::globalNames().contains(QStringLiteral("__nv_sinf")));
        QVERIFY(Completions::globalNames().contains(QStringLiteral("llvm.nvvm.barrier0")));
        QVERIFY(!Completions::globalNames().contains(QStringLiteral("fadd")));
        QCOMPARE(Completions::callTip(QStringLiteral("__nv_sincosf")),
                 QStringLiteral("__nv_sincosf(float a, float* sptr, float* cptr) -> void"));
    }

    void completionThroughTheLexersApis() {
        ModuleEditor e;
        QsciAbstractAPIs* apis = e.lexer()->apis();
        QVERIFY(apis);
        QStringList list;
        apis->updateAutoCompletionList({QStringLiteral("__nv_si")}, list);
        QVERIFY2(list.filter(QRegularExpression(QStringLiteral("^__nv_sinf\\b"))).size() == 1,
                 qPrintable(list.join(QLatin1Char(','))));
        list.clear();
        apis->updateAutoCompletionList({QStringLiteral("llvm.nvvm.read.ptx.sreg.t")}, list);
        QVERIFY2(list.filter(QStringLiteral("llvm.nvvm.read.ptx.sreg.tid.x")).size() == 1,
                 qPrintable(list.join(QLatin1Char(','))));

        QList<int> shifts;
        const QStringList tips =
            apis->callTips({QStringLiteral("__nv_powf"), QString()}, 0, QsciScintilla::CallTipsNoContext, shifts);
        QCOMPARE(tips.size(), 1);
        QVERIFY2(tips[0].contains(QStringLiteral("float a")) && tips[0].contains(QStringLiteral("float b")),
                 qPrintable(tips[0]));
    }

    void typingWithTheCaretOffEveryScreenDoesNotCrash() {
        // QScintilla places the completion list on the caret's screen and crashed when there was
        // none (seen on the GPU machine: the large-module bench typing into a window wider than
        // the offscreen platform's screen). A window far off every screen: no list, no call tip,
        // no crash, and the text is typed.
        ModuleEditor e;
        e.resize(800, 400);
        e.move(20000, 20000);
        e.show();
        QVERIFY(QTest::qWaitForWindowExposed(&e));
        QVERIFY(!QGuiApplication::screenAt(e.viewport()->mapToGlobal(QPoint(10, 10))));
        e.setModule("", false);
        e.setFocus();
        QTest::keyClicks(&e, "  %r = call float @__nv_sinf(float %x)");
        QVERIFY(!e.isListActive());
        QVERIFY(!e.isCallTipActive());
        QCOMPARE(e.text(), QStringLiteral("  %r = call float @__nv_sinf(float %x)"));
        // Back on a screen, typing opens the list again.
        e.move(0, 0);
        QTest::qWait(50);
        QVERIFY(QGuiApplication::screenAt(e.viewport()->mapToGlobal(QPoint(10, 10))));
        QTest::keyClick(&e, Qt::Key_Return);
        QTest::keyClicks(&e, "  %s = fa");
        QVERIFY(e.isListActive());
        e.cancelList();
    }

    void completionWhileTyping() {
        // The offscreen platform cannot raise the completion popup and says so each time.
        static QtMessageHandler previous = nullptr;
        previous =
            qInstallMessageHandler([](QtMsgType type, const QMessageLogContext& context, const QString& message) {
                if (!message.contains(QStringLiteral("does not support raise()"))) previous(type, context, message);
            });
        struct Restore {
            ~Restore() { qInstallMessageHandler(previous); }
        } restore;
        ModuleEditor e;
        e.resize(800, 400);
        e.show();
        QVERIFY(QTest::qWaitForWindowExposed(&e));
        e.setModule("", false);
        e.setFocus();

        // '@' opens the list of globals at once.
        QTest::keyClicks(&e, "  %r = call float @");
        QVERIFY(e.isListActive());
        e.cancelList();

        // Two characters of a word open it too; the choice replaces what was typed.
        QTest::keyClicks(&e, "__nv_sinf");
        QVERIFY(e.isListActive());
        QTest::keyClick(&e, Qt::Key_Tab);
        QVERIFY(!e.isListActive());
        QCOMPARE(e.text(), QStringLiteral("  %r = call float @__nv_sinf"));

        // '(' shows the signature.
        QTest::keyClicks(&e, "(");
        QVERIFY(e.isCallTipActive());

        // Not in comments or strings.
        e.setModule("", false);
        QTest::keyClicks(&e, "; calls @__nv_sinf(");
        QVERIFY(!e.isListActive());
        QVERIFY(!e.isCallTipActive());
        e.setModule("", false);
        QTest::keyClicks(&e, "@s = constant [3 x i8] c\"fadd");
        QVERIFY(!e.isListActive());
    }

    void lineNumberMarginGrows() {
        ModuleEditor e;
        e.setModule("; one line\n", false);
        const long narrow = e.SendScintilla(B::SCI_GETMARGINWIDTHN, 0UL);
        QVERIFY(narrow > 0);
        e.setModule(std::string(123456, '\n'), false);
        QVERIFY(e.SendScintilla(B::SCI_GETMARGINWIDTHN, 0UL) > narrow);
        e.setModule("; one line\n", false);
        QCOMPARE(e.SendScintilla(B::SCI_GETMARGINWIDTHN, 0UL), narrow);
    }

    void findAndReplace() {
        QsciScintilla ed;
        ed.setUtf8(true);
        ed.setText(QStringLiteral("alpha beta Alpha gamma alpha\nbeta alphabet"));
        FindBar bar;
        bar.attach(&ed);
        QCOMPARE(bar.editor(), &ed);
        bar.setFindText(QStringLiteral("alpha"));

        // Case-insensitive by default: "Alpha" is the second match.
        QVERIFY(bar.findNext());
        QCOMPARE(ed.SendScintilla(B::SCI_GETSELECTIONSTART), 0L);
        QVERIFY(bar.findNext());
        QCOMPARE(ed.selectedText(), QStringLiteral("Alpha"));
        bar.setMatchCase(true);
        QVERIFY(bar.findNext());
        QCOMPARE(ed.SendScintilla(B::SCI_GETSELECTIONSTART), 23L);
        QVERIFY(bar.findPrevious());
        QCOMPARE(ed.SendScintilla(B::SCI_GETSELECTIONSTART), 0L);
        QVERIFY(bar.findPrevious());  // wraps to the last one, in "alphabet"
        QCOMPARE(ed.SendScintilla(B::SCI_GETSELECTIONSTART), 34L);
        QCOMPARE(bar.status(), QStringLiteral("wrapped around"));

        // Replace the current match, which moves on to the next.
        bar.setReplaceText(QStringLiteral("omega"));
        QVERIFY(bar.replaceCurrent());
        QCOMPARE(ed.text(), QStringLiteral("alpha beta Alpha gamma alpha\nbeta omegabet"));
        QCOMPARE(ed.SendScintilla(B::SCI_GETSELECTIONSTART), 0L);  // wrapped to the first
        QCOMPARE(bar.replaceAll(), 2);
        QCOMPARE(ed.text(), QStringLiteral("omega beta Alpha gamma omega\nbeta omegabet"));
        ed.undo();  // replace all is one undo step
        QCOMPARE(ed.text(), QStringLiteral("alpha beta Alpha gamma alpha\nbeta omegabet"));

        bar.setFindText(QStringLiteral("zeta"));
        QVERIFY(!bar.findNext());
        QCOMPARE(bar.status(), QStringLiteral("no match"));

        // Regular expressions, with groups in the replacement.
        bar.setRegex(true);
        bar.setMatchCase(false);
        bar.setFindText(QStringLiteral("b(e)ta\\b"));
        bar.setReplaceText(QStringLiteral("[\\1]"));
        QCOMPARE(bar.replaceAll(), 2);
        QCOMPARE(ed.text(), QStringLiteral("alpha [e] Alpha gamma alpha\n[e] omegabet"));
        bar.setFindText(QStringLiteral("a\\w+a"));
        QVERIFY(bar.findNext());
        QCOMPARE(ed.selectedText().toLower(), QStringLiteral("alpha"));
        bar.setFindText(QStringLiteral("(unclosed"));
        QVERIFY(!bar.findNext());
        QCOMPARE(bar.status(), QStringLiteral("invalid regular expression"));

        // A read-only editor can be searched, not changed.
        ed.setReadOnly(true);
        bar.setRegex(false);
        bar.setFindText(QStringLiteral("gamma"));
        QVERIFY(bar.findNext());
        QCOMPARE(bar.replaceAll(), 0);
        QVERIFY(ed.text().contains(QStringLiteral("gamma")));
    }

    void enterAfterAnExactMatchStartsANewLine() {
        // As in Qt Creator and VS Code: when the word typed is already the entry, Enter is a new
        // line (the list closes); Tab, or Enter on an entry that would change the text, accepts.
        QuietPopups quiet;
        ModuleEditor e;
        showFocused(e);
        e.setModule("", false);
        e.setFocus();
        QTest::keyClicks(&e, "  ret void");
        QVERIFY(e.isListActive());  // "void" is offered
        QTest::keyClick(&e, Qt::Key_Return);
        QVERIFY(!e.isListActive());
        QTest::keyClicks(&e, "}");
        QCOMPARE(e.text(), QStringLiteral("  ret void\n  }"));

        e.setModule("", false);
        QTest::keyClicks(&e, "  %a = fad");
        QVERIFY(e.isListActive());
        QTest::keyClick(&e, Qt::Key_Return);  // "fad" -> "fadd": the entry changes the text
        QVERIFY(!e.isListActive());
        QCOMPARE(e.text(), QStringLiteral("  %a = fadd"));

        e.setModule("", false);
        QTest::keyClicks(&e, "  ret void");
        QVERIFY(e.isListActive());
        QTest::keyClick(&e, Qt::Key_Tab);  // Tab accepts, whatever the entry
        QVERIFY(!e.isListActive());
        QCOMPARE(e.text(), QStringLiteral("  ret void"));
    }

    void braceAndEnterIndents() {
        QuietPopups quiet;
        ModuleEditor e;
        showFocused(e);
        e.setModule("", false);
        e.setFocus();
        QTest::keyClicks(&e, "define void @k() {");
        if (e.isListActive()) e.cancelList();
        QTest::keyClick(&e, Qt::Key_Return);
        QTest::keyClicks(&e, "x");
        QCOMPARE(e.text(), QStringLiteral("define void @k() {\n  x"));
        // Deeper: the indentation of the brace's line plus two, as the examples are written.
        e.setModule("  %v = load {\n", false);
        e.setCursorPosition(0, 13);
        QTest::keyClick(&e, Qt::Key_Return);
        QTest::keyClicks(&e, "y");
        QCOMPARE(e.text(), QStringLiteral("  %v = load {\n    y\n"));
        // Any other line keeps its indentation only.
        e.setModule("  ret void", false);
        e.setCursorPosition(0, 10);
        QTest::keyClick(&e, Qt::Key_Return);
        QTest::keyClicks(&e, "z");
        QCOMPARE(e.text(), QStringLiteral("  ret void\n  z"));
    }

    void annotationsWaitForAPauseInTyping() {
        // A box under a line pushes the code below it down: while the user types, new boxes wait
        // until the typing has paused; squiggles and margin markers come at once.
        QuietPopups quiet;
        ModuleEditor e;
        showFocused(e);
        e.setModule(test::readText(test::dataDir() / "ir" / "broken.ll"), false);
        e.setFocus();
        e.setCursorPosition(9, 0);
        QTest::keyClicks(&e, "x");
        e.setDiagnostics({diag(8, 8, nvvm::Severity::Error, "parse expected instruction opcode")});
        QCOMPARE(e.markedLines(), std::vector<int>{8});
        QVERIFY(squiggledAt(e, positionOf(e, QStringLiteral("fad float %a"))));
        QVERIFY(e.annotation(7).isEmpty());
        QTest::qWait(500);
        QVERIFY(e.annotation(7).isEmpty());
        QTest::keyClicks(&e, "y");  // still typing: the wait starts again
        QTest::qWait(700);
        QVERIFY(e.annotation(7).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(e.annotation(7).contains(QStringLiteral("parse expected instruction opcode")), 3000);

        // Not while the completion list is open either.
        e.setCursorPosition(10, 0);
        QTest::keyClicks(&e, "  fad");
        QVERIFY(e.isListActive());
        e.setDiagnostics({diag(8, 8, nvvm::Severity::Error, "a newer message")});
        QTest::qWait(1500);
        QVERIFY(e.isListActive());
        QVERIFY(!e.annotation(7).contains(QStringLiteral("a newer message")));
        e.cancelList();
        QTRY_VERIFY_WITH_TIMEOUT(e.annotation(7).contains(QStringLiteral("a newer message")), 3000);
    }

    // Boxes that wait for a pause in typing go under the lines their problems were of, wherever
    // the typing moved those lines, also when a deleted line merged two of them into one. Found
    // by one walk over the text's marks, asked for one by one where merged.
    void waitingBoxesFollowTheirLinesThroughEdits() {
        QuietPopups quiet;
        ModuleEditor e;
        showFocused(e);
        QString text;
        for (int i = 1; i <= 10; ++i) text += QStringLiteral("; line %1\n").arg(i);
        e.setModule(text.toStdString(), false);
        e.setFocus();
        e.setCursorPosition(0, 0);
        QTest::keyClicks(&e, "x");
        e.setDiagnostics({diag(3, 1, nvvm::Severity::Error, "problem A"),
                          diag(5, 1, nvvm::Severity::Error, "problem B"),
                          diag(6, 1, nvvm::Severity::Warning, "problem C")});
        QVERIFY(e.annotation(2).isEmpty());  // waiting
        // Two lines above them, then the line of C joined to B's (from the end of B's line to
        // the end of C's): C's mark joins B's line.
        e.setCursorPosition(0, 0);
        QTest::keyClick(&e, Qt::Key_Return);
        if (e.isListActive()) e.cancelList();
        QTest::keyClick(&e, Qt::Key_Return);
        QCOMPARE(e.text(6), QStringLiteral("; line 5\n"));
        e.setSelection(6, 8, 7, 8);
        QTest::keyClick(&e, Qt::Key_Delete);
        QCOMPARE(e.text(6), QStringLiteral("; line 5\n"));
        QCOMPARE(e.text(7), QStringLiteral("; line 7\n"));
        QTRY_VERIFY_WITH_TIMEOUT(e.annotation(4).contains(QStringLiteral("problem A")), 3000);
        QVERIFY(e.annotation(6).contains(QStringLiteral("problem B")));
        QVERIFY(e.annotation(6).contains(QStringLiteral("problem C")));
        QVERIFY(e.annotation(2).isEmpty() && e.annotation(5).isEmpty() && e.annotation(7).isEmpty());

        // Without a merge, each on its own moved line.
        e.setCursorPosition(0, 0);
        QTest::keyClicks(&e, "y");
        e.setDiagnostics(
            {diag(5, 1, nvvm::Severity::Error, "problem D"), diag(9, 1, nvvm::Severity::Error, "problem E")});
        e.setCursorPosition(0, 0);
        QTest::keyClick(&e, Qt::Key_Return);
        if (e.isListActive()) e.cancelList();
        QTRY_VERIFY_WITH_TIMEOUT(e.annotation(5).contains(QStringLiteral("problem D")), 3000);
        QVERIFY(e.annotation(9).contains(QStringLiteral("problem E")));
        QVERIFY(!e.annotation(4).contains(QStringLiteral("problem D")));
    }

    void escapeClosesTheFindBarThenCancels() {
        // The window's Esc (Build > Cancel) and the editor's and find bar's own uses of the key:
        // Esc closes the find bar when its field has focus, closes the completion list when it is
        // open, and otherwise reaches the window's Cancel, also from the editor.
        QuietPopups quiet;
        QWidget host;
        auto* layout = new QVBoxLayout(&host);
        auto* ed = new ModuleEditor(&host);
        auto* bar = new FindBar(&host);
        layout->addWidget(ed);
        layout->addWidget(bar);
        int cancels = 0;
        auto* cancel = new QAction(&host);
        cancel->setShortcut(Qt::Key_Escape);
        host.addAction(cancel);
        connect(cancel, &QAction::triggered, &host, [&] { ++cancels; });
        showFocused(host);
        ed->setModule("; one two\n", false);
        bar->attach(ed);
        bar->showFind();
        auto* field = bar->findChild<QLineEdit*>();
        QVERIFY(field && field->hasFocus());
        QTest::keyClicks(field, "two");
        QTest::keyClick(field, Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
        QCOMPARE(cancels, 0);
        QVERIFY(ed->hasFocus());

        ed->setCursorPosition(1, 0);
        QTest::keyClicks(ed, "  fad");
        QVERIFY(ed->isListActive());
        QTest::keyClick(ed, Qt::Key_Escape);
        QVERIFY(!ed->isListActive());
        QCOMPARE(cancels, 0);

        QTest::keyClick(ed, Qt::Key_Escape);
        QCOMPARE(cancels, 1);
        QVERIFY(ed->text().endsWith(QStringLiteral("  fad")));
    }

    // QScintilla's accessible text interface counts characters from the start of the module on
    // every key and caret move; a large module's editor gets the plain interface instead (role
    // and name, no text), a small one keeps QScintilla's, and crossing the bound either way
    // switches.
    void largeModulesGetThePlainAccessibleInterface() {
        QAccessible::setActive(true);
        ModuleEditor e;
        e.setModule("define void @k() {\n  ret void\n}\n", false);
        QAccessibleInterface* small = QAccessible::queryAccessibleInterface(&e);
        QVERIFY(small);
        QVERIFY2(small->textInterface(), "a small module keeps QScintilla's text interface");
        QCOMPARE(small->role(), QAccessible::EditableText);

        std::string large;
        for (int i = 0; i < ModuleEditor::kPlainAccessibleLines; ++i) large += "; line\n";
        e.setModule(large, false);
        QVERIFY(e.plainAccessible());
        QAccessibleInterface* plain = QAccessible::queryAccessibleInterface(&e);
        QVERIFY(plain);
        QVERIFY2(!plain->textInterface(), "a large module's editor should not offer the counting interface");
        QCOMPARE(plain->role(), QAccessible::EditableText);
        QCOMPARE(plain->object(), &e);

        // Typing in it goes on (and keeps the plain one); back under the bound, QScintilla's again.
        e.setCursorPosition(10, 0);
        QTest::keyClicks(&e, QStringLiteral("x"));
        QVERIFY(!QAccessible::queryAccessibleInterface(&e)->textInterface());
        e.setModule("define void @k() {\n  ret void\n}\n", false);
        QVERIFY(!e.plainAccessible());
        QVERIFY(QAccessible::queryAccessibleInterface(&e)->textInterface());
    }

    // A large module's editor tells its changes without QScintilla's per-insert count from the
    // start of the module (20-40 ms per key at 200,000 lines). QScintilla makes that
    // count for an accessibility event where it turns an SC_MOD_INSERTTEXT or SC_MOD_DELETETEXT
    // notification into SCN_MODIFIED: none may come. textChanged and linesChanged still do, at
    // once for a key, and as soon as the event loop runs for a change made in code.
    void aLargeModuleTellsItsChangesWithoutCountingCharacters() {
        int counted = 0;  // insert/delete notifications, each of which QScintilla counts for
        ModuleEditor e;
        connect(&e, &QsciScintillaBase::SCN_MODIFIED, this,
                [&counted](int, int type, const char*, int, int, int, int, int, int, int) {
                    if (type & (B::SC_MOD_INSERTTEXT | B::SC_MOD_DELETETEXT)) ++counted;
                });
        e.setModule("define void @k() {\n  ret void\n}\n", false);
        QVERIFY(!e.quietChanges());
        counted = 0;
        e.setCursorPosition(1, 2);
        QTest::keyClicks(&e, QStringLiteral("x"));
        QCOMPARE(counted, 1);  // a small module: QScintilla's own notification, as before

        std::string large;
        for (int i = 0; i < ModuleEditor::kPlainAccessibleLines; ++i) large += "; line\n";
        QSignalSpy text(&e, &QsciScintilla::textChanged), lines(&e, &QsciScintilla::linesChanged);
        e.setModule(large, false);
        QVERIFY(e.quietChanges());
        QCoreApplication::processEvents();
        text.clear();
        lines.clear();
        counted = 0;

        e.setCursorPosition(ModuleEditor::kPlainAccessibleLines - 1, 0);
        QTest::keyClicks(&e, QStringLiteral("ab"));
        QCOMPARE(text.size(), 2);  // one per key, before the key event has returned
        QCOMPARE(lines.size(), 0);
        QTest::keyClick(&e, Qt::Key_Return);
        QCOMPARE(text.size(), 3);
        QCOMPARE(lines.size(), 1);
        QTest::keyClick(&e, Qt::Key_Backspace);
        QCOMPARE(text.size(), 4);
        QCOMPARE(lines.size(), 2);
        QVERIFY(e.text(ModuleEditor::kPlainAccessibleLines - 1).startsWith(QStringLiteral("ab; line")));

        e.undo();
        QTRY_COMPARE(text.size(), 5);
        e.insert(QStringLiteral("; inserted\n"));
        QTRY_COMPARE(text.size(), 6);
        QTRY_COMPARE(lines.size(), 4);  // the undo put the line break back, the insert added one
        QCOMPARE(counted, 0);
        QVERIFY(e.isModified());

        // Loading is not an edit; a module back under the bound is QScintilla's again, and its
        // line number margin narrows with it.
        const long wide = e.SendScintilla(B::SCI_GETMARGINWIDTHN, 0UL);
        e.setModule(large, false);
        QCoreApplication::processEvents();
        QVERIFY(!e.isModified());
        e.setModule("define void @k() {\n  ret void\n}\n", false);
        QVERIFY(!e.quietChanges());
        QVERIFY(e.SendScintilla(B::SCI_GETMARGINWIDTHN, 0UL) < wide);
        counted = 0;
        e.setCursorPosition(1, 2);
        QTest::keyClicks(&e, QStringLiteral("y"));
        QCOMPARE(counted, 1);
    }

    void findBarOpens() {
        QsciScintilla ed;
        ed.setText(QStringLiteral("one two three"));
        ed.setSelection(0, 4, 0, 7);
        FindBar bar;
        bar.attach(&ed);
        bar.showFind();
        QVERIFY(bar.isVisible());
        QCOMPARE(bar.findText(), QStringLiteral("two"));  // the selection is the search
        bar.showReplace();
        QVERIFY(bar.isVisible());
        QTest::keyClick(&bar, Qt::Key_Escape);
        QVERIFY(!bar.isVisible());
        // Detached editors are forgotten, not dangling.
        {
            QsciScintilla gone;
            bar.attach(&gone);
        }
        QVERIFY(!bar.editor());
        QVERIFY(!bar.findNext());
    }
};

QTEST_MAIN(TestEditor)
#include "tst_editor.moc"
