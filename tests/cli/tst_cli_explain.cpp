// `nvpg explain WORD...`: the built-in doc entries in a terminal, as the hover shows them; exit 1
// with the nearest known entries for a word it does not know.
#include <QtTest>

#include "TestSupport.h"
#include "core/support/Text.h"

using namespace nvpg;

namespace {

struct Run {
    int exitCode = -1;
    QString out, err;
};

Run explain(const QStringList& args) {
    QProcess p;
    p.start(QString::fromStdString(test::nvpgPath()), QStringList{"explain"} + args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit)
        qFatal("nvpg explain did not finish: %s", qPrintable(args.join(' ')));
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

}  // namespace

class TestCliExplain : public QObject {
    Q_OBJECT

private slots:
    void helpListsIt() {
        QProcess p;
        p.start(QString::fromStdString(test::nvpgPath()), {"--help"});
        QVERIFY(p.waitForFinished(60000));
        const auto out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(out.contains(QRegularExpression("\\n\\s+explain\\s")), qPrintable(out));
    }

    void ptxWordWithModifiers() {
        const auto r = explain({"fma.rn.f32"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        QVERIFY2(r.out.startsWith("fma — fused multiply-add"), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("\\n  \\.rn\\s+round to nearest")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("\\n  \\.f32\\s+32-bit")), qPrintable(r.out));
        QVERIFY2(r.out.contains("Read: PTX ISA") &&
                     r.out.contains("https://docs.nvidia.com/cuda/parallel-thread-execution/index.html#"),
                 qPrintable(r.out));
    }

    // A word of IR newer than LLVM 7.0.1 says what the compile error says: what it is, the LLVM
    // release that added it, which archs read it, and what to do.
    void aWordNewerThanLlvm7() {
        const auto r = explain({"noundef", "freeze"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("noundef — an attribute newer than LLVM 7.0.1 (added in LLVM 11)"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("below compute_100"), qPrintable(r.out));
        QVERIFY2(r.out.contains("Rewrite ... for LLVM 7.0.1"), qPrintable(r.out));
        // freeze keeps its own entry, and says it has no LLVM 7.0.1 form.
        QVERIFY2(r.out.contains("freeze — stop poison"), qPrintable(r.out));
        QVERIFY2(r.out.contains("`freeze` is an instruction newer than LLVM 7.0.1 (added in LLVM 10)"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("LLVM 7.0.1 has nothing to write in its place"), qPrintable(r.out));
    }

    // The issue's own command line: every word known (IR and libdevice words from ir.json and
    // libdevice.json), each printed, exit 0.
    void theIssuesCommand() {
        const auto r = explain({"fma.rn.f32", "%tid.x", "__nv_sinf", "llvm.nvvm.read.ptx.sreg.tid.x", "addrspace"});
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        QCOMPARE(r.exitCode, 0);
        for (const char* title : {"fma —", "%tid —", "__nv_sinf", "llvm.nvvm.read.ptx.sreg.tid", "addrspace"})
            QVERIFY2(r.out.contains(title), qPrintable(QString(title) + " missing in:\n" + r.out));
        QVERIFY(r.out.count("Read: ") >= 5);
    }

    void unknownWordSaysTheNearest() {
        const auto r = explain({"fmaa.rn.f32", "%tid.x"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no entry for 'fmaa.rn.f32'") && r.err.contains("nearest known:"), qPrintable(r.err));
        QVERIFY2(r.err.contains(QRegularExpression("nearest known:.*\\bfma\\b")), qPrintable(r.err));
        // The word it knows is still explained.
        QVERIFY2(r.out.contains("%tid —"), qPrintable(r.out));
        QVERIFY(!r.out.contains("fmaa"));
    }

    // What the user typed is shown escaped, as names are everywhere: an escape
    // sequence, a bell or bytes that are not UTF-8 in the word reach neither stdout nor stderr.
    void theWordIsEscapedOnBothStreams() {
        QProcess p;
        p.start("/bin/sh", {"-c", QString("exec '%1' explain \"$(printf 'zz\\033[2Jq\\377')\" "
                                          "\"$(printf 'fma.rn.f32.\\033]0;x\\007')\"")
                                      .arg(QString::fromStdString(test::nvpgPath()))});
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput(), err = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 1);
        for (const auto& stream : {out, err}) {
            QVERIFY2(!stream.contains('\x1b') && !stream.contains('\x07') && !stream.contains('\xff'),
                     stream.toHex().constData());
            QVERIFY(!support::firstNonUtf8(stream.toStdString()));
        }
        QVERIFY2(err.contains("no entry for 'zz\\x1b[2Jq\\xff'"), err.constData());
        QVERIFY2(out.contains("fma \xe2\x80\x94") && out.contains("\\x1b]0;x\\x07"), out.constData());
    }

    // A word far longer than any key is not measured against them (a 131 KB word took 6.3 s).
    void aHugeUnknownWordIsReportedWithoutSuggestions() {
        // One argument may be at most 128 KiB (MAX_ARG_STRLEN).
        const auto r = explain({QString(130000, 'q')});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("no entry for 'qqqq"));
        QVERIFY2(!r.err.contains("nearest known"), qPrintable(r.err.right(200)));
    }

    // Thousands of unknown words (20,000 took 19 s) are each reported, with suggestions for the
    // first hundred only, and a line that says so.
    void suggestionsAreBoundedForManyUnknownWords() {
        QStringList words;
        // Each close to a key in spelling (a word like none gets no suggestions at all).
        for (int i = 0; i < 150; ++i) words << QString("__nv_sinfq%1").arg(i);
        words << "fma.rn.f32";
        const auto r = explain(words);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err.count("no entry for '"), 150);
        QCOMPARE(r.err.count("nearest known:"), 100);
        QVERIFY2(r.err.contains("150 words unknown; the nearest known entries were looked up for the first 100"),
                 qPrintable(r.err.right(300)));
        QVERIFY(r.out.startsWith("fma \u2014"));
    }

    // Archs and libNVVM options, as people write them.
    void archesByTheirComputeAndSmNames() {
        const auto r = explain({"compute_90"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        QVERIFY2(r.out.startsWith("compute_90 — Hopper"), qPrintable(r.out));
        QVERIFY2(r.out.contains("SASS target: sm_90 (compute capability 9.0)"), qPrintable(r.out));
        QVERIFY2(
            r.out.contains("PTX ISA 7.8") && r.out.contains("Adds: ") && r.out.contains("distributed shared memory"),
            qPrintable(r.out));
        QVERIFY2(r.out.contains("Read: CUDA C++ Programming Guide") && r.out.contains("https://docs.nvidia.com/"),
                 qPrintable(r.out));
        // The SASS name finds the same entry and says which.
        const auto sm = explain({"sm_90"});
        QCOMPARE(sm.exitCode, 0);
        QVERIFY2(sm.out.startsWith("compute_90 — Hopper"), qPrintable(sm.out));
        QVERIFY2(sm.out.contains("sm_90 is the SASS target of compute_90"), qPrintable(sm.out));
        const auto a = explain({"compute_90a"});
        QCOMPARE(a.exitCode, 0);
        QVERIFY2(a.out.contains("wgmma") && a.out.contains("setmaxnreg") && a.out.contains("arch-specific"),
                 qPrintable(a.out));
    }

    // "-ftz" is a libNVVM option to explain, not one of nvpg's; the words keep their order.
    void optionsAsLibnvvmWritesThem() {
        const auto r = explain({"-ftz"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        QVERIFY2(r.out.startsWith("ftz — flush single-precision denormals"), qPrintable(r.out));
        QVERIFY2(r.out.contains("Default: 0") && r.out.contains("Effect: ") && r.out.contains("add.ftz.f32"),
                 qPrintable(r.out));
        const auto several = explain({"-opt=0", "prec-div", "-ftz=1", "--prec-sqrt"});
        QCOMPARE(several.exitCode, 0);
        const auto opt = several.out.indexOf("opt — "), div = several.out.indexOf("prec-div — "),
                   ftz = several.out.indexOf("ftz — "), sqrt = several.out.indexOf("prec-sqrt — ");
        QVERIFY2(opt == 0 && opt < div && div < ftz && ftz < sqrt, qPrintable(several.out));
        QVERIFY2(several.out.contains(QRegularExpression("Value given:\\n  =1\\s+flush")), qPrintable(several.out));
        // After "--" as before it.
        const auto dashes = explain({"--", "-ftz"});
        QCOMPARE(dashes.exitCode, 0);
        QVERIFY2(dashes.err.isEmpty() && dashes.out.startsWith("ftz — "), qPrintable(dashes.err + dashes.out));
    }

    // A misspelling is answered with the words close to it, never with unrelated ones.
    void misspellingsGetCloseSuggestions() {
        const auto arch = explain({"compute_91"});
        QCOMPARE(arch.exitCode, 1);
        QVERIFY2(arch.err.contains("no entry for 'compute_91'; nearest known: compute_90, "), qPrintable(arch.err));
        QVERIFY2(arch.err.contains(QRegularExpression("nearest known:.*\\bcompute_90a\\b")), qPrintable(arch.err));
        const auto ftz = explain({"ftzz"});
        QCOMPARE(ftz.exitCode, 1);
        QVERIFY2(ftz.err.contains("nearest known: ftz\n"), qPrintable(ftz.err));
        const auto none = explain({"zq5xw"});
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains("no entry for 'zq5xw'") && !none.err.contains("nearest known"),
                 qPrintable(none.err));
    }

    void contextPicksTheDomain() {
        const auto sass = explain({"--context", "sass", "ffma.ftz"});
        QCOMPARE(sass.exitCode, 0);
        QVERIFY2(sass.out.startsWith("FFMA —") && sass.out.contains(".FTZ"), qPrintable(sass.out));
        const auto ptx = explain({"--context", "ptx", "FFMA"});
        QCOMPARE(ptx.exitCode, 1);
        QVERIFY(ptx.out.isEmpty());
        const auto bad = explain({"--context", "cuda", "fma"});
        QCOMPARE(bad.exitCode, 2);
        const auto none = explain({});
        QCOMPARE(none.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliExplain)
#include "tst_cli_explain.moc"
