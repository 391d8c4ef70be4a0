// IR written by a newer LLVM than the 7.0.1 whose dialect libNVVM reads below compute_100: the
// real libNVVM stops at what it does not know, nvpg says what that is and since which LLVM
// release, and its fix (dropping the optimisation hints, unnaming numbered arguments, making
// numbered labels comments) gets clang-14's output compiled. tests/data/ir/newer/README.md says
// how the fixture was made.
#include <QtTest>

#include <fmt/format.h>

#include "TestSupport.h"
#include "core/inspect/Docs.h"
#include "core/nvvm/Fix.h"
#include "core/nvvm/NewerIr.h"
#include "core/pipeline/Pipeline.h"
#include "core/support/Text.h"

using namespace nvpg;

namespace {

bool has(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}

constexpr std::string_view kLayout =
    "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-"
    "v32:32:32-v64:64:64-v128:128:128-n16:32:64";

// A kernel module of LLVM 7's dialect around `body` (the lines of @k after `entry:`), with
// `params` as @k's parameter list and `tail` after the function.
std::string kernelModule(std::string_view params, std::string_view body, std::string_view tail = "") {
    return fmt::format(
        "target datalayout = \"{}\"\ntarget triple = \"nvptx64-nvidia-cuda\"\n\n"
        "define void @k({}) {{\nentry:\n{}  ret void\n}}\n{}\n"
        "!nvvm.annotations = !{{!0}}\n!0 = !{{void (float*)* @k, !\"kernel\", i32 1}}\n"
        "!nvvmir.version = !{{!1}}\n!1 = !{{i32 2, i32 0}}\n",
        kLayout, params, body, tail);
}

pipeline::Job jobOf(std::vector<nvvm::Module> modules, const char* arch) {
    pipeline::Job job;
    job.modules = std::move(modules);
    job.options.arch = arch;
    job.archFromGpu = false;
    return job;
}

pipeline::CompileResult compile(const pipeline::Job& job) {
    pipeline::Pipeline p(test::realToolkit());
    auto r = p.run(job);
    if (!r) qFatal("the pipeline refused the job: %s", r.error().message.c_str());
    return std::move(*r);
}

std::string allMessages(const pipeline::CompileResult& r) {
    std::string s = r.nvvmLog + "\n";
    for (const auto& d : r.diagnostics) s += nvvm::formatDiagnostic(d) + "\n";
    return s;
}

const nvvm::Diagnostic* firstError(const pipeline::CompileResult& r) {
    for (const auto& d : r.diagnostics)
        if (d.severity == nvvm::Severity::Error) return &d;
    return nullptr;
}

nvvm::Module clang14() {
    return test::irFixture("kernels-clang14.ll", false, "ir/newer");
}

std::string replaced(std::string text, std::string_view from, std::string_view to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

}  // namespace

class TestNewerIr : public QObject {
    Q_OBJECT

private slots:
    void tableIsSortedAndItsReleasesAreNewerThanLlvm7() {
        const auto words = nvvm::newerIrWords();
        QVERIFY(words.size() > 10);
        for (size_t i = 0; i < words.size(); ++i) {
            if (i > 0) QVERIFY2(words[i - 1].word < words[i].word, std::string(words[i].word).c_str());
            QVERIFY(words[i].llvmRelease == 0 || words[i].llvmRelease > 7);
            QCOMPARE(nvvm::findNewerIrWord(words[i].word), &words[i]);
        }
        QVERIFY(!nvvm::findNewerIrWord("writeonly"));  // LLVM 7 knows it, on parameters too
        QCOMPARE(nvvm::describeNewerIrWord(*nvvm::findNewerIrWord("noundef")),
                 std::string("an attribute newer than LLVM 7.0.1 (added in LLVM 11)"));
        QCOMPARE(nvvm::describeNewerIrWord(*nvvm::findNewerIrWord("mustprogress")),
                 std::string("an attribute newer than LLVM 7.0.1"));
        QCOMPARE(nvvm::describeNewerIrWord(*nvvm::findNewerIrWord("poison")),
                 std::string("a constant newer than LLVM 7.0.1"));
    }

    // A hover on any word of the table explains it as IR, with the description the compile error
    // uses, and says whether the rewrite drops it.
    void everyWordIsExplainedAsIr() {
        for (const auto& w : nvvm::newerIrWords()) {
            const auto found = inspect::Docs::builtIn().explain(w.word, inspect::DocContext::Ir);
            const std::string word(w.word);
            QVERIFY2(!found.empty() && found.front().entry, word.c_str());
            const auto text = inspect::formatExplanation(found.front());
            QVERIFY2(text.find(nvvm::describeNewerIrWord(w)) != std::string::npos, text.c_str());
            QVERIFY2((text.find("Rewrite ... for LLVM 7.0.1") != std::string::npos) == w.removable, text.c_str());
        }
        const std::string line = "define void @k(float* noundef %p) {";
        QCOMPARE(inspect::wordAt(line, line.find("noundef") + 2, inspect::DocContext::Ir), std::string("noundef"));
    }

    // Every word of the table, where LLVM puts it: libNVVM 13.0 stops there for compute_75, and
    // the message there says what it is.
    void everyWordStopsLibnvvmBelowCompute100_data() {
        QTest::addColumn<QString>("word");
        for (const auto& w : nvvm::newerIrWords())
            QTest::newRow(std::string(w.word).c_str()) << QString::fromUtf8(w.word.data(), qsizetype(w.word.size()));
    }
    void everyWordStopsLibnvvmBelowCompute100() {
        QFETCH(QString, word);
        const auto* w = nvvm::findNewerIrWord(word.toStdString());
        QVERIFY(w);
        // What takes an argument is written with one.
        const std::map<std::string, std::string> written = {{"byref", "byref(float)"},
                                                            {"preallocated", "preallocated(float)"},
                                                            {"elementtype", "elementtype(float)"},
                                                            {"memory", "memory(none)"},
                                                            {"vscale_range", "vscale_range(1,16)"}};
        const std::string text =
            written.count(word.toStdString()) ? written.at(word.toStdString()) : word.toStdString();
        std::string ir;
        int line = 0, column = 0;
        if (w->kind == "attribute") {
            ir = kernelModule("float* " + text + " %p", "");
            line = 4;
            column = int(std::string("define void @k(float* ").size()) + 1;
        } else if (w->word == "freeze") {
            ir = kernelModule("float* %p", "  %x = freeze i32 0\n");
            line = 6;
            column = 8;
        } else if (w->word == "fneg") {
            ir = kernelModule("float* %p", "  %x = fneg float 1.0\n");
            line = 6;
            column = 8;
        } else {
            QCOMPARE(w->word, std::string_view("poison"));
            ir = kernelModule("float* %p", "  %x = add i32 poison, 1\n");
            line = 6;
            column = 16;
        }
        const auto r = compile(jobOf({{"w.ll", ir}}, "compute_75"));
        QVERIFY2(!r.ok, ir.c_str());
        const auto* d = firstError(r);
        QVERIFY2(d, allMessages(r).c_str());
        QVERIFY2(d->module == "w.ll" && d->line == line && d->column == column, allMessages(r).c_str());
        QVERIFY2(has(d->message, fmt::format("`{}` is {}", w->word, nvvm::describeNewerIrWord(*w))),
                 d->message.c_str());
        QVERIFY2(has(d->message, "compute_100"), d->message.c_str());
        // Whatever can be dropped is: the fix that does so compiles the module.
        if (w->removable) {
            QCOMPARE(int(d->fixes.size()), 2);
            auto job = jobOf({{"w.ll", ir}}, "compute_75");
            QVERIFY(nvvm::applyFix(d->fixes.front(), job.modules, job.options, job.libdevice));
            QVERIFY2(!has(job.modules[0].bytes, text), job.modules[0].bytes.c_str());
            const auto fixed = compile(job);
            QVERIFY2(fixed.ok, allMessages(fixed).c_str());
        } else {
            QCOMPARE(int(d->fixes.size()), 1);
            QCOMPARE(d->fixes.front().title, std::string("Compile for compute_100, which reads the modern dialect"));
        }
    }

    // clang-14's output stops at `noundef` (line 9). The first fix rewrites it for LLVM 7.0.1;
    // what is left is the missing !nvvmir.version, whose own fix makes it compile. Both kernels
    // are in the PTX.
    void clang14OutputCompilesAfterItsFixes() {
        auto job = jobOf({clang14()}, "compute_75");
        const auto r = compile(job);
        QVERIFY(!r.ok);
        QVERIFY2(has(r.nvvmLog, "kernels-clang14.ll (9, 35): parse expected ')' at end of argument list"),
                 r.nvvmLog.c_str());
        const auto* d = firstError(r);
        QVERIFY(d);
        QCOMPARE(d->module, std::string("kernels-clang14.ll"));
        QCOMPARE(d->line, 9);
        QCOMPARE(d->column, 36);  // the n of noundef
        QVERIFY2(has(d->message,
                     "; `noundef` is an attribute newer than LLVM 7.0.1 (added in LLVM 11): "
                     "kernels-clang14.ll was written by a newer LLVM, and compute_75 is below compute_100"),
                 d->message.c_str());
        QCOMPARE(int(d->fixes.size()), 2);
        const auto& rewrite = d->fixes[0];
        QCOMPARE(rewrite.title, std::string("Rewrite kernels-clang14.ll for LLVM 7.0.1"));
        QVERIFY2(has(d->message,
                     "Drop what LLVM 7.0.1 does not know (13 hint attributes (noundef, mustprogress, "
                     "nofree, nosync, willreturn), 6 argument numbers and 20 label numbers; "),
                 d->message.c_str());
        QCOMPARE(d->fixes[1].options, (std::vector<std::pair<std::string, std::string>>{{"arch", "compute_100"}}));

        QVERIFY(nvvm::applyFix(rewrite, job.modules, job.options, job.libdevice));
        const auto& text = job.modules[0].bytes;
        QVERIFY2(has(text, "define dso_local void @saxpy(float, float* nocapture readonly, float* nocapture, i32) "),
                 text.c_str());
        QVERIFY(has(text, "float* nocapture writeonly)"));  // LLVM 7 reads writeonly
        QVERIFY(has(text, "\n; <label>:11:"));
        QVERIFY(has(text, "attributes #1 = { nounwind readnone speculatable }"));
        QVERIFY(has(text, "; Function Attrs: mustprogress nofree"));  // comments stay
        const auto next = compile(job);
        QVERIFY(!next.ok);
        const auto* version = firstError(next);
        QVERIFY2(version && !version->fixes.empty() && has(version->message, "no !nvvmir.version"),
                 allMessages(next).c_str());
        QVERIFY(nvvm::applyFix(version->fixes.front(), job.modules, job.options, job.libdevice));
        const auto fixed = compile(job);
        QVERIFY2(fixed.ok, allMessages(fixed).c_str());
        QVERIFY(has(fixed.ptx, ".entry saxpy("));
        QVERIFY(has(fixed.ptx, ".entry block_sum("));
        QVERIFY(has(fixed.ptx, ".shared .align 4 .b8 _ZZ9block_sumE4tile[1024]"));
    }

    // Without the fix, each next stop is as clear: the numbered argument names, then the
    // numbered labels (placed on the label libNVVM misreads, not on the use it stops at).
    void numberedArgumentsAndLabelsAreNamed() {
        auto text = replaced(clang14().bytes, " noundef", "");
        auto r = compile(jobOf({{"k.ll", text}}, "compute_75"));
        auto* d = firstError(r);
        QVERIFY2(d && d->line == 9 && d->column == 36, allMessages(r).c_str());
        QVERIFY2(has(d->message,
                     "numbered argument names such as `%0` are syntax newer than LLVM 7.0.1 (LLVM "
                     "writes them since LLVM 10)"),
                 d->message.c_str());
        QVERIFY(d->fixes.size() == 2 && d->fixes[0].title == "Rewrite k.ll for LLVM 7.0.1");

        for (const char* arg : {" %0,", " %1,", " %2,", " %3)", " %1)"}) text = replaced(text, arg, arg + 3);
        r = compile(jobOf({{"k.ll", text}}, "compute_75"));
        d = firstError(r);
        QVERIFY2(has(r.nvvmLog, "k.ll (19, 2): parse instruction expected to be numbered '%11'"), r.nvvmLog.c_str());
        QVERIFY2(d && d->line == 18 && d->column == 1, allMessages(r).c_str());  // "11:"
        QVERIFY2(has(d->message,
                     "numbered block labels such as `11:` are syntax newer than LLVM 7.0.1 (LLVM reads "
                     "them since LLVM 9), which takes `11:` for a block named \"11\""),
                 d->message.c_str());
    }

    // compute_100 and later read the newer LLVM's IR: nothing of this is said there.
    void compute100ReadsItAsItIs() {
        const auto r = compile(jobOf({clang14()}, "compute_100"));
        QVERIFY(!r.ok);  // for the missing !nvvmir.version alone
        for (const auto& d : r.diagnostics) QVERIFY2(!has(d.message, "newer than LLVM 7.0.1"), d.message.c_str());
        QVERIFY2(has(allMessages(r), "no !nvvmir.version"), allMessages(r).c_str());
    }

    // The modern dialect (opaque `ptr`) from a newer LLVM: dropping attributes would not make
    // LLVM 7.0.1 read it, so the one fix is the arch that reads it.
    void modernDialectOffersCompute100Only() {
        const std::string ir = replaced(kernelModule("float noundef %x, ptr %p", "  store float %x, ptr %p\n"),
                                        "void (float*)* @k", "ptr @k");
        auto job = jobOf({{"m.ll", ir}}, "compute_90");
        const auto r = compile(job);
        const auto* d = firstError(r);
        QVERIFY2(d && d->line == 4 && d->column == 22, allMessages(r).c_str());
        QVERIFY2(has(d->message,
                     "`noundef` is an attribute newer than LLVM 7.0.1 (added in LLVM 11): m.ll was written "
                     "by a newer LLVM, in the modern dialect (opaque pointers, `ptr`), and compute_90 is "
                     "below compute_100"),
                 d->message.c_str());
        QCOMPARE(int(d->fixes.size()), 1);
        QCOMPARE(d->fixes[0].title, std::string("Compile for compute_100, which reads the modern dialect"));
        QVERIFY(nvvm::applyFix(d->fixes[0], job.modules, job.options, job.libdevice));
        const auto fixed = compile(job);
        QVERIFY2(fixed.ok, allMessages(fixed).c_str());
    }

    // The rewrite drops attributes only: names, strings, comments and labels that spell the
    // same words stay; a numbered type is not an argument's name; CRLF lines keep their ends.
    void rewriteTouchesAttributesOnly() {
        const std::string text =
            "%0 = type { i32 }\r\n"
            "@nofree = global i32 0 ; nofree here stays\r\n"
            "define void @\"nosync\"(%0 %1, i32 noundef %nofree, %0, i32 %2) nofree {\r\n"
            "nosync:\r\n"
            "  call void @f(i32 noundef 1) #0\r\n"
            "  ret void\r\n"
            "}\r\n"
            "attributes #0 = { nofree \"nosync\" memory(read) willreturn }\r\n"
            "attributes #1 = { willreturn }\r\n";
        const nvvm::Module m{"r.ll", text};
        const auto r = nvvm::rewriteForLlvm7(m);
        std::vector<nvvm::Module> modules{m};
        nvvm::Options options;
        bool libdevice = false;
        QVERIFY(nvvm::applyFix({"rewrite", r.edits}, modules, options, libdevice));
        QCOMPARE(modules[0].bytes, std::string("%0 = type { i32 }\r\n"
                                               "@nofree = global i32 0 ; nofree here stays\r\n"
                                               "define void @\"nosync\"(%0, i32 %nofree, %0, i32) {\r\n"
                                               "nosync:\r\n"
                                               "  call void @f(i32 1) #0\r\n"
                                               "  ret void\r\n"
                                               "}\r\n"
                                               "attributes #0 = { \"nosync\" }\r\n"
                                               "attributes #1 = { \"dropped-for-llvm7\"=\"willreturn\" }\r\n"));
        QCOMPARE(r.attributes, 7);
        QCOMPARE(r.arguments, 2);
        QCOMPARE(r.labels, 0);
        QCOMPARE(r.words, (std::vector<std::string>{"noundef", "nofree", "memory", "willreturn"}));
    }

    // LLVM 7 refuses an empty attribute group: one the rewrite empties keeps a string attribute
    // (which LLVM ignores) naming what it dropped, and libNVVM reads it.
    void emptiedAttributeGroupIsStillRead() {
        const auto ir =
            replaced(kernelModule("float* %p", ""), "define void @k(float* %p) {", "define void @k(float* %p) #0 {") +
            "attributes #0 = { willreturn memory(none) }\n";
        auto job = jobOf({{"e.ll", ir}}, "compute_75");
        const auto r = compile(job);
        const auto* d = firstError(r);
        QVERIFY2(d && !d->fixes.empty(), allMessages(r).c_str());
        QVERIFY(nvvm::applyFix(d->fixes.front(), job.modules, job.options, job.libdevice));
        QVERIFY2(has(job.modules[0].bytes, "attributes #0 = { \"dropped-for-llvm7\"=\"willreturn memory(none)\" }\n"),
                 job.modules[0].bytes.c_str());
        const auto fixed = compile(job);
        QVERIFY2(fixed.ok, allMessages(fixed).c_str());
    }
};

QTEST_GUILESS_MAIN(TestNewerIr)
#include "tst_newer_ir.moc"
