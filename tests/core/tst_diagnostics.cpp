// Turning libNVVM's log into diagnostics placed on module, line and column; the raw lines are
// real libNVVM 13.0 output.
#include <QtTest>

#include "core/nvvm/Diagnostic.h"

using namespace nvpg;

class TestDiagnostics : public QObject {
    Q_OBJECT

private slots:
    void parsesLogLines_data() {
        QTest::addColumn<QString>("log");
        QTest::addColumn<bool>("failed");
        QTest::addColumn<QString>("module");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("severity");
        QTest::addColumn<QString>("message");
        QTest::newRow("parse error") << "bad.ll (8, 7): parse expected instruction opcode" << true << "bad.ll" << 8 << 8
                                     << "error"
                                     << "parse expected instruction opcode";
        QTest::newRow("undefined value") << "b.ll (9, 14): parse use of undefined value '%q'\n"
                                         << true << "b.ll" << 9 << 15 << "error"
                                         << "parse use of undefined value '%q'";
        QTest::newRow("name with spaces and parens")
            << "my kernel (v2).ll (3, 0): parse expected type" << true << "my kernel (v2).ll" << 3 << 1 << "error"
            << "parse expected type";
        QTest::newRow("module-level error")
            << "two.ll: error: incompatible IR detected. Possible mix of compiler/IR from different releases." << true
            << "two.ll" << 0 << 0 << "error"
            << "incompatible IR detected. Possible mix of compiler/IR from different releases.";
        QTest::newRow("option error") << "libnvvm : error: -arch=compute_70 is an unsupported option" << true << "" << 0
                                      << 0 << "error"
                                      << "-arch=compute_70 is an unsupported option";
        QTest::newRow("unplaced on failure")
            << "IR version 1.0 incompatible with current version 2.0" << true << "" << 0 << 0 << "error"
            << "IR version 1.0 incompatible with current version 2.0";
        QTest::newRow("unplaced on success") << "something to note" << false << "" << 0 << 0 << "warning"
                                             << "something to note";
        QTest::newRow("tagged warning") << "a.ll: warning: deprecated" << true << "a.ll" << 0 << 0 << "warning"
                                        << "deprecated";
        // Two modules defining one symbol: libNVVM names the second, before "link error".
        QTest::newRow("link error")
            << "b.ll: link error: error: Linking globals named 'k': symbol multiply defined!\n\n"
            << true << "b.ll" << 0 << 0 << "error"
            << "Linking globals named 'k': symbol multiply defined!";
        QTest::newRow("log ends with NUL")
            << QString("a.ll (1, 2): x") + QChar(0) << true << "a.ll" << 1 << 3 << "error"
            << "x";
    }
    void parsesLogLines() {
        QFETCH(QString, log);
        QFETCH(bool, failed);
        QFETCH(QString, module);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, severity);
        QFETCH(QString, message);
        const std::vector<std::string> names = {"bad.ll", "b.ll", "two.ll", "a.ll", "my kernel (v2).ll"};
        const auto diags = nvvm::parseNvvmLog(log.toStdString(), failed, names);
        QCOMPARE(int(diags.size()), 1);
        const auto& d = diags[0];
        QCOMPARE(QString::fromStdString(d.module), module);
        QCOMPARE(d.line, line);
        QCOMPARE(d.column, column);
        QCOMPARE(QString::fromStdString(std::string(nvvm::severityName(d.severity))), severity);
        QCOMPARE(QString::fromStdString(d.message), message);
    }

    void unknownNameIsNotTakenForAModule() {
        // A "(line, col)" after a name that is not a module stays unplaced rather than misplaced.
        const auto diags = nvvm::parseNvvmLog("other.ll (3, 4): oops", true, {"a.ll"});
        QCOMPARE(int(diags.size()), 1);
        QVERIFY(diags[0].module.empty());
        QCOMPARE(diags[0].message, std::string("other.ll (3, 4): oops"));
    }

    void indentedLinesBelongToTheMessageAbove() {
        const auto diags = nvvm::parseNvvmLog(
            "Allocation instruction pointer not in the stack address space!\n"
            "  %p = alloca float, addrspace(3)\n\n",
            true, {"k.ll"});
        QCOMPARE(int(diags.size()), 1);
        QVERIFY(diags[0].message.find("\n  %p = alloca") != std::string::npos);
    }

    void quotedInstructionPlacesTheMessage() {
        std::vector<nvvm::Diagnostic> diags = {
            {"", 0, 0, nvvm::Severity::Error, "bad alloca\n  %p = alloca float, addrspace(3)"}};
        const std::vector<nvvm::Module> modules = {
            {"a.ll", "define void @a() {\n  ret void\n}\n"},
            {"b.ll", "define void @b() {\nentry:\n    %p = alloca float, addrspace(3)\n  ret void\n}\n"}};
        nvvm::placeQuotedIr(diags, modules);
        QCOMPARE(diags[0].module, std::string("b.ll"));
        QCOMPARE(diags[0].line, 3);
        QCOMPARE(diags[0].column, 5);
    }

    void ambiguousQuoteStaysUnplaced() {
        std::vector<nvvm::Diagnostic> diags = {{"", 0, 0, nvvm::Severity::Error, "x\n  ret void"}};
        const std::vector<nvvm::Module> modules = {{"a.ll", "  ret void\n"}, {"b.ll", "  ret void\n"}};
        nvvm::placeQuotedIr(diags, modules);
        QVERIFY(diags[0].module.empty());
    }

    // libNVVM's own verifier says where, quotes the IR after "context:", and says what below it
    // (CUDA 13.0, compute_75). The first line, which the Problems row, the banner and `nvpg`'s
    // location line show, says what; every line libNVVM gave is still in the message.
    void verifierExplanationComesUpToTheFirstLine_data() {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("message");
        QTest::newRow("shared initializer")
            << QString(
                   "error: Error: : Global Variable `tile': \n"
                   "  context: @tile = internal addrspace(3) global [256 x float] zeroinitializer, align 4\n"
                   "  Shared variables can't be initialized\n\n") +
                   QChar(0)
            << "Global Variable `tile': Shared variables can't be initialized\n"
               "  context: @tile = internal addrspace(3) global [256 x float] zeroinitializer, align 4";
        QTest::newRow("i8 atomic") << QString(
                                          "error: Error: :  Function `count' Basic Block `entry': \n"
                                          "  context:   %old = atomicrmw add i8* %p, i8 1 seq_cst\n"
                                          "  Atomic operations on non-i32/i64/i128 types are not supported\n\n")
                                   << "Function `count' Basic Block `entry': Atomic operations on non-i32/i64/i128 "
                                      "types are not supported\n"
                                      "  context:   %old = atomicrmw add i8* %p, i8 1 seq_cst";
    }
    void verifierExplanationComesUpToTheFirstLine() {
        QFETCH(QString, log);
        QFETCH(QString, message);
        const auto diags = nvvm::parseNvvmLog(log.toStdString(), true, {"reverse.ll"});
        QCOMPARE(int(diags.size()), 1);
        QCOMPARE(QString::fromStdString(diags[0].message), message);
        QCOMPARE(diags[0].severity, nvvm::Severity::Error);
    }

    // A verifier message that libNVVM shapes otherwise stays as it came.
    void otherIndentedMessagesStayAsTheyCame() {
        const std::string log = "Error: : Global Variable `g': \n  something new\n";
        const auto diags = nvvm::parseNvvmLog(log, true, {});
        QCOMPARE(diags[0].message, std::string("Error: : Global Variable `g':\n  something new"));
    }

    // The verifier names the global but no place: the message goes on its definition, in the
    // one module that defines it, at the '@'.
    void namedGlobalIsPlacedOnItsDefinition() {
        std::vector<nvvm::Diagnostic> diags = {
            {"", 0, 0, nvvm::Severity::Error,
             "Global Variable `tile': Shared variables can't be initialized\n"
             "  context: @tile = internal addrspace(3) global [256 x float] zeroinitializer, align 4"}};
        const std::vector<nvvm::Module> modules = {
            {"a.ll", "define void @a() {\n  ret void\n}\n"},
            // Written otherwise than libNVVM prints it: blanks, a comment, a use before it.
            {"b.ll",
             "; uses @tile\n@tiles = global i32 0\n  @tile  =  internal addrspace(3) global [256 x float] "
             "zeroinitializer, align 4 ; the tile\n"}};
        nvvm::placeNamedGlobals(diags, modules);
        QCOMPARE(diags[0].module, std::string("b.ll"));
        QCOMPARE(diags[0].line, 3);
        QCOMPARE(diags[0].column, 3);
        const auto line = nvvm::formatDiagnostic(diags[0]);
        QVERIFY2(line.starts_with("b.ll:3:3: error: Global Variable `tile': Shared variables can't be initialized\n"),
                 line.c_str());
    }

    // An internal global may have its name in two modules: the one whose line is the IR libNVVM
    // quotes is meant; where neither or both are, the message stays unplaced, not misplaced.
    void namedGlobalInTwoModulesGoesWhereTheQuoteIs() {
        const std::string message =
            "Global Variable `t': Shared variables can't be initialized\n"
            "  context: @t = internal addrspace(3) global i32 0, align 4";
        std::vector<nvvm::Diagnostic> diags = {{"", 0, 0, nvvm::Severity::Error, message}};
        const std::vector<nvvm::Module> modules = {{"a.ll", "@t = internal addrspace(3) global i32 undef, align 4\n"},
                                                   {"b.ll", "\n@t = internal addrspace(3) global i32 0, align 4\n"}};
        nvvm::placeNamedGlobals(diags, modules);
        QCOMPARE(diags[0].module, std::string("b.ll"));
        QCOMPARE(diags[0].line, 2);

        std::vector<nvvm::Diagnostic> unsure = {{"", 0, 0, nvvm::Severity::Error, message}};
        const std::vector<nvvm::Module> same = {{"a.ll", "@t = internal addrspace(3) global i32 0, align 4\n"},
                                                {"b.ll", "@t = internal addrspace(3) global i32 0, align 4\n"}};
        nvvm::placeNamedGlobals(unsure, same);
        QVERIFY(unsure[0].module.empty());
        QCOMPARE(unsure[0].line, 0);
    }

    // The instruction libNVVM's verifier quotes after "context:" places the message.
    void contextQuotePlacesTheMessage() {
        std::vector<nvvm::Diagnostic> diags = {
            {"", 0, 0, nvvm::Severity::Error,
             "Function `count' Basic Block `entry': Atomic operations on non-i32/i64/i128 types are not supported\n"
             "  context:   %old = atomicrmw add i8* %p, i8 1 seq_cst"}};
        const std::vector<nvvm::Module> modules = {
            {"k.ll", "define void @count(i8* %p) {\nentry:\n    %old = atomicrmw add i8*  %p, i8 1 seq_cst\n}\n"}};
        nvvm::placeQuotedIr(diags, modules);
        QCOMPARE(diags[0].module, std::string("k.ll"));
        QCOMPARE(diags[0].line, 3);
        QCOMPARE(diags[0].column, 5);
    }

    void formatsLikeACompiler() {
        QCOMPARE(nvvm::formatDiagnostic({"k.ll", 8, 8, nvvm::Severity::Error, "parse expected type"}),
                 std::string("k.ll:8:8: error: parse expected type"));
        QCOMPARE(nvvm::formatDiagnostic({"k.ll", 0, 0, nvvm::Severity::Warning, "w"}), std::string("k.ll: warning: w"));
        QCOMPARE(nvvm::formatDiagnostic({"", 0, 0, nvvm::Severity::Error, "e"}), std::string("error: e"));
    }

    // A module name set the terminal's title and cleared the screen; a newline in it forged a
    // line of its own. Names and messages come out escaped; a message's own lines (the IR the
    // verifier quotes below it) stay lines.
    void formatEscapesControlCharacters() {
        const nvvm::Diagnostic d{"k\x1b]0;pwned\a\x1b[2J\nerror: forged.ll", 3, 4, nvvm::Severity::Error,
                                 "bad \x1b[31mred\x1b[0m\xc2\x85\n  %p = alloca float"};
        const auto text = nvvm::formatDiagnostic(d);
        QCOMPARE(text, std::string("k\\x1b]0;pwned\\x07\\x1b[2J\\nerror: forged.ll:3:4: error: "
                                   "bad \\x1b[31mred\\x1b[0m\\u0085\n  %p = alloca float"));
    }
};

QTEST_APPLESS_MAIN(TestDiagnostics)
#include "tst_diagnostics.moc"
