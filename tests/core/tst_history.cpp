// The session's compile history: each compile's cause said as a person would
// (the module and lines edited, the option changed), the limits on entries and memory held over
// a thousand compiles, and the timeline's figures from a real compile.
#include <QtTest>

#include "TestSupport.h"
#include "core/pipeline/History.h"
#include "core/pipeline/Pipeline.h"

using namespace nvpg;
using pipeline::CompileHistory;
using pipeline::Job;

namespace {

Job jobOf(std::vector<nvvm::Module> modules) {
    Job j;
    j.modules = std::move(modules);
    return j;
}

std::shared_ptr<const pipeline::CompileResult> resultOfSize(size_t ptxBytes) {
    auto r = std::make_shared<pipeline::CompileResult>();
    r->ok = true;
    r->ptx.assign(ptxBytes, 'x');
    return r;
}

const std::string kText = "line 1\nline 2\nline 3\nline 4\nline 5\n";

}  // namespace

class TestHistory : public QObject {
    Q_OBJECT

private slots:
    void causesSayWhatChanged() {
        const auto a = jobOf({{"math.ll", kText, false}, {"helper.ll", "h\n", false}});
        auto edited = a;
        edited.modules[0].bytes = "line 1\nline 2\nline three\nline 4\nline 5\n";
        QCOMPARE(pipeline::describeChange(a, edited), std::string("math.ll: line 3 edited"));
        auto several = a;
        several.modules[0].bytes = "line 1\nnew\nline 2\nline 3\nline 4 changed\nline 5\n";
        QCOMPARE(pipeline::describeChange(a, several), std::string("math.ll: lines 2–5 edited"));
        auto removed = a;
        removed.modules[0].bytes = "line 1\nline 2\nline 5\n";
        QCOMPARE(pipeline::describeChange(a, removed), std::string("math.ll: line 3 edited"));
        auto options = a;
        options.options.ftz = true;
        QCOMPARE(pipeline::describeChange(a, options), std::string("ftz default → 1"));
        auto back = options;
        back.options.ftz = false;
        QCOMPARE(pipeline::describeChange(options, back), std::string("ftz 1 → 0"));
        auto arch = a;
        arch.options.arch = "compute_90";
        QCOMPARE(pipeline::describeChange(a, arch), std::string("arch default → compute_90"));
        auto modules = a;
        modules.modules.push_back({"more.ll", "m\n", false});
        modules.modules.erase(modules.modules.begin() + 1);
        QCOMPARE(pipeline::describeChange(a, modules), std::string("more.ll added; helper.ll removed"));
        auto swapped = a;
        std::swap(swapped.modules[0], swapped.modules[1]);
        QCOMPARE(pipeline::describeChange(a, swapped), std::string("modules reordered"));
        auto libdevice = a;
        libdevice.libdevice = true;
        QCOMPARE(pipeline::describeChange(a, libdevice), std::string("libdevice on"));
        QCOMPARE(pipeline::describeChange(a, a), std::string("compiled again"));
    }

    void entriesAreNewestFirstWithTheirCause() {
        CompileHistory h;
        const auto a = jobOf({{"math.ll", kText, false}});
        auto b = a;
        b.modules[0].bytes = "line 1\nline 2\nline 3\nline 4\nline 5 edited\n";
        const auto first = h.add(a, resultOfSize(10));
        QVERIFY(!h.previous());
        const auto second = h.add(b, resultOfSize(20));
        QCOMPARE(h.entries().size(), size_t(2));
        QCOMPARE(h.entries().front().id, second);
        QCOMPARE(h.entries().front().cause, std::string("math.ll: line 5 edited"));
        QCOMPARE(h.entries().back().cause, std::string("first compile"));
        QVERIFY(h.previous());
        QCOMPARE(h.previous()->id, first);
        // A fix says itself; the complete result (SASS, map) replaces the plain one.
        h.add(a, resultOfSize(30), "fix: declare @__nv_sinf");
        QCOMPARE(h.entries().front().cause, std::string("fix: declare @__nv_sinf"));
        QVERIFY(h.complete(second, resultOfSize(1000)));
        QCOMPARE(h.find(second)->result->ptx.size(), size_t(1000));
        QVERIFY(!h.complete(12345, resultOfSize(1)));
    }

    // Two workspaces in one session: a compile is compared with its own workspace's compiles
    // only. Opening another workspace is its first compile, not its modules added and the
    // other's removed; back in the first, an edit is that edit.
    void eachWorkspaceIsComparedWithItsOwnCompiles() {
        CompileHistory h;
        const pipeline::HistoryWorkspace first{"file:/w/first.nvpg", "first"}, second{"new:2", "longname"};
        const auto a = jobOf({{"module0.ll", kText, false}, {"longname.ll", "l\n", false}});
        const auto b = jobOf({{"math.ll", "m\n", false}});
        const auto idA = h.add(a, resultOfSize(10), {}, first);
        QCOMPARE(h.entries().front().cause, std::string("first compile of first"));
        h.add(b, resultOfSize(10), {}, second);
        QCOMPARE(h.entries().front().cause, std::string("first compile of longname"));
        QCOMPARE(h.entries().front().workspace.name, std::string("longname"));
        QVERIFY(!h.previous());  // nothing earlier of this workspace
        auto edited = a;
        edited.modules[0].bytes = "line 1\nline 2\nline three\nline 4\nline 5\n";
        h.add(edited, resultOfSize(10), {}, first);
        QCOMPARE(h.entries().front().cause, std::string("module0.ll: line 3 edited"));
        QVERIFY(h.previous());
        QCOMPARE(h.previous()->id, idA);  // the first workspace's, not the one compiled between
        h.add(b, resultOfSize(10), {}, second);
        QCOMPARE(h.entries().front().cause, std::string("compiled again"));
        // No cause names a module of the other workspace.
        for (const auto& e : h.entries())
            QVERIFY2(e.cause.find("added") == std::string::npos && e.cause.find("removed") == std::string::npos,
                     e.cause.c_str());
        // No workspace given: all compiles are of one, and the first says "first compile".
        CompileHistory plain;
        plain.add(a, resultOfSize(1));
        QCOMPARE(plain.entries().front().cause, std::string("first compile"));
        // A workspace whose compiles all left the history starts again.
        CompileHistory two({2, size_t(1) << 30});
        two.add(a, resultOfSize(1), {}, first);
        two.add(b, resultOfSize(1), {}, second);
        two.add(b, resultOfSize(1), {}, second);
        QCOMPARE(two.entries().size(), size_t(2));
        two.add(a, resultOfSize(1), {}, first);
        QCOMPARE(two.entries().front().cause, std::string("first compile of first"));
    }

    // Over 1,000 compiles the history holds at most its entries and its bytes (the newest always).
    void memoryStaysWithinItsBound() {
        CompileHistory h({50, size_t(64) << 20});
        auto job = jobOf({{"math.ll", kText, false}});
        size_t most = 0;
        for (int i = 0; i < 1000; ++i) {
            job.modules[0].bytes = kText + std::to_string(i) + "\n";
            // Small results, then from the 500th every 10th a large one (a big module's SASS and map).
            const size_t size = i >= 500 && i % 10 == 9 ? (size_t(20) << 20) : (size_t(100) << 10);
            const auto id = h.add(job, resultOfSize(size));
            if (i % 3 == 0) h.complete(id, resultOfSize(size * 2));
            QVERIFY(h.entries().size() <= 50);
            QVERIFY2(h.bytes() <= (size_t(64) << 20) || h.entries().size() == 1,
                     qPrintable(QString::number(h.bytes())));
            size_t sum = 0;
            for (const auto& e : h.entries()) sum += e.bytes;
            QCOMPARE(h.bytes(), sum);
            QCOMPARE(h.entries().front().id, uint64_t(i + 1));
            most = std::max(most, h.entries().size());
            if (i == 499) QCOMPARE(most, size_t(50));
        }
        // The large ones made it drop below 50 entries to stay within its bytes.
        QVERIFY(h.entries().size() < 50);
        // One result larger than the bound: kept alone, as the newest.
        h.add(job, resultOfSize(size_t(100) << 20));
        QCOMPARE(h.entries().size(), size_t(1));
    }

    // The timeline's figures of a real compile of the libdevice example.
    void figuresOfARealCompile() {
        const auto ws = test::loadExample("libdevice-math");
        pipeline::Pipeline p(test::realToolkit());
        Job job;
        job.modules = ws.modules;
        job.libdevice = true;
        job.options.arch = "compute_90";
        job.archFromGpu = false;
        job.outputs = pipeline::kPtx | pipeline::kFigures | pipeline::kLtoIr | pipeline::kCubin | pipeline::kLtoPtx;
        auto r = p.run(job);
        QVERIFY(r && r->ok);
        const auto f = pipeline::historyFigures(*r);
        QVERIFY(f.registers && *f.registers > 0);
        QCOMPARE(*f.ptxBytes, r->ptx.size());
        QVERIFY(f.ltoIrBytes && f.cubinBytes && f.linkedPtxBytes);
        QVERIFY(pipeline::resultBytes(*r) > r->ptx.size() + r->cubin.size());
    }
};

QTEST_GUILESS_MAIN(TestHistory)
#include "tst_history.moc"
