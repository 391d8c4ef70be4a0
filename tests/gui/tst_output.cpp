// The output view on real results of the pipeline: PTX and LTO-linked PTX side by side, their
// headers, the diff, exports, error replies and scroll positions across compiles.
#include <QtTest>

#include <QAction>
#include <QLabel>
#include <QTableWidget>
#include <QTemporaryDir>

#include <tuple>

#include <Qsci/qsciscintilla.h>

#include "TestSupport.h"
#include "core/pipeline/Pipeline.h"
#include "gui/output/OutputView.h"
#include "gui/output/Turns.h"

using namespace nvpg;
using nvpg::gui::EngineReply;
using nvpg::gui::OutputView;

namespace {

std::shared_ptr<const pipeline::CompileResult> compile(const std::vector<nvvm::Module>& modules,
                                                       lto::Mode mode = lto::Mode::Program) {
    pipeline::Pipeline p(test::realToolkit());
    pipeline::Job job;
    job.modules = modules;
    job.options.arch = "compute_90";
    job.ltoMode = mode;
    job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin | pipeline::kFigures;
    auto r = p.run(job);
    if (!r) qFatal("%s", r.error().message.c_str());
    return std::make_shared<const pipeline::CompileResult>(std::move(*r));
}

EngineReply reply(std::shared_ptr<const pipeline::CompileResult> r, quint64 generation = 1) {
    EngineReply e;
    e.generation = generation;
    e.result = std::move(r);
    return e;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll();
}

QByteArray bytes(const std::string& s) {
    return QByteArray(s.data(), qsizetype(s.size()));
}

// A long PTX with many kernels, so that the panes can scroll.
std::string manyKernelsIr(int kernels) {
    std::string ir =
        "target datalayout = \"e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-"
        "i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64\"\n"
        "target triple = \"nvptx64-nvidia-cuda\"\n";
    std::string annotations;
    std::string names;
    for (int i = 0; i < kernels; ++i) {
        const std::string k = "k" + std::to_string(i);
        ir += "define void @" + k + "(float* %out, float %x) {\nentry:\n  %y = fmul float %x, " +
              std::to_string(i + 2) + ".0\n  store float %y, float* %out\n  ret void\n}\n";
        annotations += "!" + std::to_string(i) + " = !{void (float*, float)* @" + k + ", !\"kernel\", i32 1}\n";
        names += (i ? ", !" : "!") + std::to_string(i);
    }
    ir += "!nvvm.annotations = !{" + names + "}\n" + annotations;
    ir += "!nvvmir.version = !{!" + std::to_string(kernels) + "}\n!" + std::to_string(kernels) + " = !{i32 2, i32 0}\n";
    return ir;
}

}  // namespace

class TestOutput : public QObject {
    Q_OBJECT

private:
    std::shared_ptr<const pipeline::CompileResult> keptDropped_;

private slots:
    void initTestCase() { keptDropped_ = compile({test::irFixture("lto-kept-dropped.ll")}); }

    void panesShowPtxAndLinkedPtx() {
        OutputView v;
        v.showReply(reply(keptDropped_));
        QVERIFY(v.ptxText().contains(".entry kept"));
        QVERIFY(v.ptxText().contains(".entry dropped"));
        QVERIFY(v.ltoText().contains(".entry kept"));
        QVERIFY(!v.ltoText().contains("dropped"));
        QVERIFY(v.ltoNotice().isEmpty());
        QVERIFY(v.errorText().isEmpty());
        QVERIFY(v.ptxEditor()->isReadOnly());
        QVERIFY(v.ltoEditor()->isReadOnly());
        QVERIFY(v.ptxEditor()->lexer());
    }

    void headersGiveSizesTimesAndFigures() {
        OutputView v;
        v.showReply(reply(keptDropped_));
        const auto& r = *keptDropped_;
        const QString ptx = v.ptxHeader();
        QVERIFY2(ptx.contains("2 kernels"), qPrintable(ptx));
        QVERIFY2(ptx.contains("libNVVM"), qPrintable(ptx));
        QVERIFY2(ptx.contains("compute_90 (options)"), qPrintable(ptx));
        QVERIFY2(ptx.contains(" B") || ptx.contains(" KiB"), qPrintable(ptx));

        const QString lto = v.ltoHeader();
        QVERIFY(!r.cubin.empty());
        QVERIFY2(lto.contains("linked PTX"), qPrintable(lto));
        QVERIFY2(lto.contains("cubin"), qPrintable(lto));
        QVERIFY2(lto.contains("link→PTX"), qPrintable(lto));
        QVERIFY2(lto.contains("link→cubin"), qPrintable(lto));
        QVERIFY2(lto.contains("LTO-IR"), qPrintable(lto));
        const auto kept =
            std::find_if(r.kernels.begin(), r.kernels.end(), [](const auto& k) { return k.name == "kept"; });
        QVERIFY(kept != r.kernels.end() && kept->usage);
        const QString figures = QStringLiteral("kept: %1 regs, 0 spill").arg(kept->usage->registers);
        QVERIFY2(lto.contains(figures), qPrintable(lto));
        QVERIFY2(lto.contains("dropped by LTO: dropped"), qPrintable(lto));
        QVERIFY2(v.ltoHeaderToolTip().contains("kept:"), qPrintable(v.ltoHeaderToolTip()));
    }

    // Each pane shows its own kernels' figures in a table a person can read without hovering,
    // with where they come from: the PTX as the driver loads it, and the LTO cubin.
    void figuresTablesShowTheKernelsOfEachOutput() {
        OutputView v;
        v.resize(1400, 800);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.showReply(reply(keptDropped_));
        const auto& r = *keptDropped_;
        auto* ptx = v.findChild<QTableWidget*>(QStringLiteral("ptxFigures"));
        auto* lto = v.findChild<QTableWidget*>(QStringLiteral("ltoFigures"));
        QVERIFY(ptx && lto);
        QVERIFY(ptx->isVisible() && lto->isVisible());
        auto headers = [](QTableWidget* t) {
            QStringList h;
            for (int c = 0; c < t->columnCount(); ++c) h << t->horizontalHeaderItem(c)->text();
            return h;
        };
        const QStringList columns = {"kernel", "regs", "spill st", "spill ld", "stack", "shared", "local", "const"};
        QCOMPARE(headers(ptx), columns);
        QCOMPARE(headers(lto), columns);
        auto cell = [](QTableWidget* t, int row, int col) {
            return t->item(row, col) ? t->item(row, col)->text() : QString();
        };

        // The PTX has both kernels; its figures are ptxas' whole-program ones.
        QCOMPARE(ptx->rowCount(), 2);
        QCOMPARE(cell(ptx, 0, 0), QStringLiteral("kept"));
        QCOMPARE(cell(ptx, 1, 0), QStringLiteral("dropped"));
        QVERIFY(r.ptxFigures.find("kept"));
        QCOMPARE(cell(ptx, 0, 1), QString::number(r.ptxFigures.find("kept")->registers));
        QCOMPARE(cell(ptx, 0, 2), QStringLiteral("0 B"));
        const auto ptxCaption = v.findChild<QLabel*>(QStringLiteral("ptxFiguresCaption"));
        QVERIFY(ptxCaption && ptxCaption->isVisible());
        QVERIFY2(ptxCaption->text().contains("ptxas -arch=sm_90 -v") && ptxCaption->text().contains("whole program"),
                 qPrintable(ptxCaption->text()));

        // LTO dropped a kernel: its table has the one kernel of the cubin.
        QCOMPARE(lto->rowCount(), 1);
        QCOMPARE(cell(lto, 0, 0), QStringLiteral("kept"));
        const auto kept =
            std::find_if(r.kernels.begin(), r.kernels.end(), [](const auto& k) { return k.name == "kept"; });
        QVERIFY(kept != r.kernels.end() && kept->usage);
        QCOMPARE(cell(lto, 0, 1), QString::number(kept->usage->registers));
        QVERIFY2(cell(lto, 0, 7).endsWith(" B") && cell(lto, 0, 7) != "0 B", qPrintable(cell(lto, 0, 7)));  // cmem[0]
        const auto ltoCaption = v.findChild<QLabel*>(QStringLiteral("ltoFiguresCaption"));
        QVERIFY(ltoCaption && ltoCaption->isVisible());
        QVERIFY2(ltoCaption->text().contains("nvJitLink -arch=sm_90 -lto"), qPrintable(ltoCaption->text()));

        // Nothing compiled: no tables.
        v.clear();
        QVERIFY(!ptx->isVisible() && !lto->isVisible());
    }

    // nvJitLink optimises again when it links: the LTO header says so and with which of the
    // options, and they change what it links.
    void ltoHeaderSaysWhatNvJitLinkWasGiven() {
        OutputView v;
        v.showReply(reply(keptDropped_));
        QVERIFY2(v.ltoHeader().contains("nvJitLink optimises at link time: -O3 (its default)"),
                 qPrintable(v.ltoHeader()));
        QVERIFY2(v.ltoHeaderToolTip().contains("reach nvJitLink") && v.ltoHeaderToolTip().contains("-lineinfo"),
                 qPrintable(v.ltoHeaderToolTip()));

        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("lto-kept-dropped.ll")};
        job.options.arch = "compute_90";
        job.options.opt = 0;
        job.options.debug = true;
        job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin | pipeline::kFigures;
        auto r = p.run(job);
        QVERIFY(r && r->ok);
        QVERIFY(r->linkedPtx != keptDropped_->linkedPtx);
        v.showReply(reply(std::make_shared<const pipeline::CompileResult>(std::move(*r)), 2));
        QVERIFY2(v.ltoHeader().contains("nvJitLink optimises at link time: -O0 -g"), qPrintable(v.ltoHeader()));
    }

    void manyKernelsAreSummarisedWithTheListInTheTooltip() {
        // Without @llvm.used LTO drops every kernel, so figures come from the PTX alone here.
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {{"many.ll", manyKernelsIr(5), false}};
        job.options.arch = "compute_90";
        job.outputs = pipeline::kPtx | pipeline::kFigures;
        auto r = p.run(job);
        QVERIFY(r);
        OutputView v;
        v.showReply(reply(std::make_shared<const pipeline::CompileResult>(std::move(*r))));
        QVERIFY2(v.ptxHeader().contains("5 kernels: up to"), qPrintable(v.ptxHeader()));
        for (int i = 0; i < 5; ++i)
            QVERIFY2(v.ptxHeaderToolTip().contains(QStringLiteral("k%1:").arg(i)), qPrintable(v.ptxHeaderToolTip()));
    }

    // A large module's figures table (a row per kernel) is filled in a later
    // turn of the event loop, after the reply's panes; a newer reply that comes before that turn
    // is the one whose figures the table gets. A small table is filled at once (the test above).
    void aLargeFiguresTableComesInALaterTurn() {
        auto figuresOf = [](int kernels) {
            pipeline::Pipeline p(test::realToolkit());
            pipeline::Job job;
            job.modules = {{"many.ll", manyKernelsIr(kernels), false}};
            job.options.arch = "compute_90";
            job.outputs = pipeline::kPtx | pipeline::kFigures;
            auto r = p.run(job);
            if (!r) qFatal("%s", r.error().message.c_str());
            return std::make_shared<const pipeline::CompileResult>(std::move(*r));
        };
        const int many = int(gui::kRowsPerTurn) + 8;
        const auto large = figuresOf(many), larger = figuresOf(many + 3);
        OutputView v;
        v.resize(1400, 800);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        auto* ptx = v.findChild<QTableWidget*>(QStringLiteral("ptxFigures"));
        QVERIFY(ptx);
        v.showReply(reply(large, 1));
        QCOMPARE(v.ptxText().toStdString(), large->ptx);  // the pane at once
        QCOMPARE(ptx->rowCount(), 0);                     // its table a turn later
        v.showReply(reply(larger, 2));
        QTRY_COMPARE(ptx->rowCount(), many + 3);
        QTest::qWait(50);  // the first reply's turn, had it been kept
        QCOMPARE(ptx->rowCount(), many + 3);
        QCOMPARE(ptx->item(many + 2, 0)->text(), QStringLiteral("k%1").arg(many + 2));
    }

    // The later turns run their pieces in the order given, not all in the turn that gave them,
    // and drop those whose owner is gone.
    void laterTurnsRunInOrderAndSkipTheGone() {
        std::vector<int> ran;
        QObject keeps;
        auto* goes = new QObject;
        gui::runInLaterTurn(&keeps, [&] { ran.push_back(1); });
        gui::runInLaterTurn(goes, [&] { ran.push_back(2); });
        gui::runInLaterTurn(&keeps, [&] { ran.push_back(3); });
        QVERIFY(ran.empty());
        delete goes;
        QTRY_COMPARE(ran.size(), size_t(2));
        QCOMPARE(ran, (std::vector<int>{1, 3}));
    }

    void libdeviceFunctionsAreCountedWithTheListInTheTooltip() {
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {test::irFixture("sinf.ll")};
        job.libdevice = true;
        job.options.arch = "compute_90";
        auto r = p.run(job);
        QVERIFY(r);
        QVERIFY(!r->libdeviceFunctions.empty());
        const auto first = QString::fromStdString(r->libdeviceFunctions.front());
        OutputView v;
        v.showReply(reply(std::make_shared<const pipeline::CompileResult>(std::move(*r))));
        QVERIFY2(v.ptxHeader().contains("libdevice:"), qPrintable(v.ptxHeader()));
        QVERIFY2(v.ptxHeaderToolTip().contains(first), qPrintable(v.ptxHeaderToolTip()));
        // PTX only: the LTO pane says why it is empty.
        QVERIFY(v.ltoText().isEmpty());
        QVERIFY2(v.ltoNotice().contains("nvJitLink"), qPrintable(v.ltoNotice()));
        v.setLtoUnavailableReason("nvJitLink: not in /opt/cuda");
        QCOMPARE(v.ltoNotice(), QString("nvJitLink: not in /opt/cuda"));
        QVERIFY(!v.exportAction(OutputView::Kind::Cubin)->isEnabled());
        QVERIFY(!v.exportAction(OutputView::Kind::LinkedPtx)->isEnabled());
        QVERIFY(v.exportAction(OutputView::Kind::Ptx)->isEnabled());
    }

    void diffModeShowsTheDroppedKernelAsRemoved() {
        OutputView v;
        v.showReply(reply(keptDropped_));
        QVERIFY(!v.diffMode());
        v.setDiffMode(true);
        QVERIFY(v.diffMode());
        QVERIFY(v.diffAction()->isChecked());
        const QString diff = v.diffText();
        QVERIFY2(diff.startsWith("--- "), qPrintable(diff));
        QVERIFY2(diff.contains("\n@@ -"), qPrintable(diff));
        bool droppedRemoved = false;
        for (const QString& line : diff.split('\n'))
            if (line.startsWith('-') && line.contains(".entry dropped")) droppedRemoved = true;
        QVERIFY2(droppedRemoved, qPrintable(diff));
        QVERIFY(!diff.contains(QRegularExpression("^\\+.*\\.entry kept", QRegularExpression::MultilineOption)));
        QVERIFY(v.diffEditor()->lexer());
        QVERIFY2(v.diffHeader().contains("hunk"), qPrintable(v.diffHeader()));
        v.diffAction()->toggle();
        QVERIFY(!v.diffMode());
    }

    void exportWritesTheResultBytes() {
        OutputView v;
        for (auto k :
             {OutputView::Kind::Ptx, OutputView::Kind::LtoIr, OutputView::Kind::LinkedPtx, OutputView::Kind::Cubin})
            QVERIFY(!v.exportAction(k)->isEnabled());
        QString error;
        QTemporaryDir dir;
        QVERIFY(!v.exportTo(OutputView::Kind::Ptx, dir.filePath("x.ptx"), &error));
        QVERIFY(!error.isEmpty());

        v.showReply(reply(keptDropped_));
        const auto& r = *keptDropped_;
        QSignalSpy exported(&v, &OutputView::exported);
        struct Case {
            OutputView::Kind kind;
            const char* name;
            QByteArray expected;
        };
        const Case cases[] = {
            {OutputView::Kind::Ptx, "program.ptx", bytes(r.ptx)},
            {OutputView::Kind::LtoIr, "program.ltoir", bytes(r.ltoIr.at(0).bytes)},
            {OutputView::Kind::LinkedPtx, "program.lto.ptx", bytes(r.linkedPtx)},
            {OutputView::Kind::Cubin, "program.cubin", bytes(r.cubin)},
        };
        for (const auto& c : cases) {
            QVERIFY(v.exportAction(c.kind)->isEnabled());
            const QString path = dir.filePath(c.name);
            QVERIFY2(v.exportTo(c.kind, path, &error), qPrintable(error));
            QCOMPARE(readAll(path), c.expected);
        }
        QCOMPARE(exported.count(), 4);
        QVERIFY(readAll(dir.filePath("program.cubin"))
                    .startsWith("\x7f"
                                "ELF"));
        QVERIFY(!v.exportTo(OutputView::Kind::Ptx, dir.filePath("no/such/dir/x.ptx"), &error));
        QVERIFY(error.contains("x.ptx"));
    }

    void separateModeExportsOneLtoIrFilePerModule() {
        auto r = compile({test::irFixture("caller.ll"), test::irFixture("callee.ll")}, lto::Mode::Separate);
        QCOMPARE(r->ltoIr.size(), size_t(2));
        OutputView v;
        v.showReply(reply(r));
        QVERIFY2(v.ltoHeader().contains("LTO-IR (2 modules)"), qPrintable(v.ltoHeader()));
        QTemporaryDir dir;
        const QString path = dir.filePath("program.ltoir");
        const QStringList paths = v.exportPaths(OutputView::Kind::LtoIr, path);
        QCOMPARE(paths, QStringList({dir.filePath("program.caller.ltoir"), dir.filePath("program.callee.ltoir")}));
        QString error;
        QVERIFY2(v.exportTo(OutputView::Kind::LtoIr, path, &error), qPrintable(error));
        QVERIFY(!QFile::exists(path));
        QCOMPARE(readAll(paths[0]), bytes(r->ltoIr[0].bytes));
        QCOMPARE(readAll(paths[1]), bytes(r->ltoIr[1].bytes));
    }

    void separateModeExportNeverWritesTwoModulesToOnePath() {
        // nvpg's rule (pipeline::perModulePaths): one stem in two folders, and names of folders.
        auto caller = test::irFixture("caller.ll"), callee = test::irFixture("callee.ll");
        QTemporaryDir dir;
        for (const auto& [first, second, files] :
             {std::tuple{"d1/k.ll", "d2/k.ll", QStringList{"p.k.ltoir", "p.k-2.ltoir"}},
              {"..", "x/..", QStringList{"p.module.ltoir", "p.module-2.ltoir"}}}) {
            caller.name = first;
            callee.name = second;
            auto r = compile({caller, callee}, lto::Mode::Separate);
            OutputView v;
            v.showReply(reply(r));
            QTemporaryDir out(dir.filePath("out-XXXXXX"));
            QString error;
            QVERIFY2(v.exportTo(OutputView::Kind::LtoIr, out.filePath("p.ltoir"), &error), qPrintable(error));
            QCOMPARE(QDir(out.path()).entryList(QDir::Files, QDir::Name | QDir::Reversed), files);
            QCOMPARE(readAll(out.filePath(files[0])), bytes(r->ltoIr[0].bytes));
            QCOMPARE(readAll(out.filePath(files[1])), bytes(r->ltoIr[1].bytes));
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList());
    }

    void errorReplyShowsABannerAndKeepsTheOutput() {
        OutputView v;
        v.showReply(reply(keptDropped_, 1));
        const QString ptx = v.ptxText();
        EngineReply bad;
        bad.generation = 2;
        bad.error = "libNVVM takes virtual archs: compute_90, not sm_90";
        v.showReply(bad);
        QVERIFY2(v.errorText().contains("not sm_90"), qPrintable(v.errorText()));
        QVERIFY(v.findChild<QLabel*>("errorBanner")->isVisibleTo(&v));
        QCOMPARE(v.ptxText(), ptx);
        QVERIFY(v.exportAction(OutputView::Kind::Ptx)->isEnabled());

        // A compile rejected by libNVVM keeps the output too; the banner names the first error.
        auto broken = compile({test::irFixture("broken.ll")});
        QVERIFY(broken->hasErrors());
        v.showReply(reply(broken, 3));
        QVERIFY2(v.errorText().contains("broken.ll"), qPrintable(v.errorText()));
        QCOMPARE(v.ptxText(), ptx);

        v.showReply(reply(keptDropped_, 4));
        QVERIFY(v.errorText().isEmpty());
        QVERIFY(!v.findChild<QLabel*>("errorBanner")->isVisibleTo(&v));
    }

    // A stage after the PTX that fails (here ptxas at the cubin link: __nv_sinf without
    // libdevice) is shown like a parse error: a banner naming it, and the pane its output
    // belongs in marked failed. This compile's PTX is shown, so the banner does not say the
    // output is older. A parse error marks the PTX pane; a good compile clears both.
    void failedStagesAreMarkedOnTheirPane() {
        OutputView v;
        v.showReply(reply(compile({test::irFixture("sinf-kept.ll")}), 1));
        QVERIFY2(v.errorText().contains("'__nv_sinf'") && v.errorText().contains("link libdevice"),
                 qPrintable(v.errorText()));
        QVERIFY2(v.errorText().startsWith("Link LTO-IR to"), qPrintable(v.errorText()));
        QVERIFY2(!v.errorText().contains("last successful"), qPrintable(v.errorText()));
        QVERIFY(v.findChild<QLabel*>("errorBanner")->isVisibleTo(&v));
        QVERIFY2(v.ltoHeader().startsWith("LTO · ✗ link LTO-IR to"), qPrintable(v.ltoHeader()));
        QVERIFY(v.findChild<QLabel*>("ltoHeader")->property("failed").toBool());
        QVERIFY2(!v.ptxHeader().contains("✗"), qPrintable(v.ptxHeader()));
        QVERIFY(v.ptxText().contains(".entry sin_kernel"));

        v.showReply(reply(compile({test::irFixture("broken.ll")}), 2));
        QVERIFY2(v.ptxHeader().contains("✗") && v.ptxHeader().contains("failed"), qPrintable(v.ptxHeader()));
        QVERIFY2(!v.ltoHeader().contains("✗"), qPrintable(v.ltoHeader()));
        QVERIFY(v.errorText().contains("last successful"));

        v.showReply(reply(keptDropped_, 3));
        QVERIFY(v.errorText().isEmpty());
        QVERIFY(!v.ptxHeader().contains("✗") && !v.ltoHeader().contains("✗"));
        QVERIFY(!v.findChild<QLabel*>("ltoHeader")->property("failed").toBool());
    }

    void firstVisibleLineIsKeptAcrossResults() {
        OutputView v;
        // 300 pixels of editor-and-header as before the figures tables, which take up to 4 rows.
        v.resize(1200, 380);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.showReply(reply(compile({{"many.ll", manyKernelsIr(12), false}}), 1));
        auto* e = v.ptxEditor();
        QVERIFY2(e->lines() > 100, qPrintable(QString::number(e->lines())));
        e->setFirstVisibleLine(40);
        QCOMPARE(e->firstVisibleLine(), 40);
        // An edit elsewhere (one more kernel at the end): the view stays where it was.
        v.showReply(reply(compile({{"many.ll", manyKernelsIr(13), false}}), 2));
        QCOMPARE(e->firstVisibleLine(), 40);
        // Shorter output: as close as it can get.
        v.showReply(reply(keptDropped_, 3));
        QVERIFY(e->firstVisibleLine() < 40);
    }

    void clearEmptiesEverything() {
        OutputView v;
        v.showReply(reply(keptDropped_));
        v.clear();
        QVERIFY(v.ptxText().isEmpty());
        QVERIFY(v.ltoText().isEmpty());
        QVERIFY(!v.result());
        QVERIFY(!v.exportAction(OutputView::Kind::Ptx)->isEnabled());
    }

    // The SASS tab beside the LTO one: nvdisasm's text byte for byte, a header with its size,
    // kernels and instructions, a table of each function's registers (from the figures of the
    // same cubin) and instructions; without nvdisasm, the pane says why and how to get it.
    void sassPaneShowsTheSassWithCountsOrSaysWhyNot() {
        auto withSass = std::make_shared<pipeline::CompileResult>(*keptDropped_);
        withSass->sass =
            "\t.headerflags\t@\"EF_CUDA_SM90\"\n\t.text.kept:\n"
            "        /*0000*/                   MOV R1, c[0x0][0x28] ;\n"
            "        /*0010*/                   EXIT ;\n";
        withSass->sassFunctions = {{"kept", 2, true}};
        withSass->sassSource = "nvdisasm -c of the LTO-linked cubin";
        OutputView v;
        v.showReply(reply(withSass));
        QCOMPARE(v.sassText().toStdString(), withSass->sass);
        QVERIFY(v.sassNotice().isEmpty());
        QVERIFY2(v.sassHeader().startsWith("SASS"), qPrintable(v.sassHeader()));
        QVERIFY2(v.sassHeader().contains("1 kernel"), qPrintable(v.sassHeader()));
        QVERIFY2(v.sassHeader().contains("2 instructions"), qPrintable(v.sassHeader()));
        auto* table = v.sassFiguresTable();
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, 0)->text(), QString("kept"));
        const auto* usage = withSass->ltoFigures.find("kept");
        QVERIFY(usage);
        QCOMPARE(table->item(0, 1)->text(), QString::number(usage->registers));
        QCOMPARE(table->item(0, 2)->text(), QString("2"));
        QVERIFY(v.sassEditor()->isReadOnly());
        // Exported as .sass, byte for byte.
        QVERIFY(v.canExport(OutputView::Kind::Sass));
        QTemporaryDir dir;
        const QString path =
            dir.filePath(QString::fromStdString(pipeline::defaultOutputName("program", OutputView::Kind::Sass)));
        QVERIFY(path.endsWith(".sass"));
        QVERIFY(v.exportTo(OutputView::Kind::Sass, path));
        QCOMPARE(readAll(path), bytes(withSass->sass));

        auto without = std::make_shared<pipeline::CompileResult>(*keptDropped_);
        without->sassUnavailable = "nvdisasm was not found: pip install nvidia-cuda-nvdisasm";
        v.showReply(reply(without, 2));
        QVERIFY(v.sassText().isEmpty());
        QCOMPARE(v.sassNotice(), QString::fromStdString(without->sassUnavailable));
        QCOMPARE(v.sassHeader(), QString("SASS"));
        QVERIFY(v.sassFiguresTable()->isHidden());
        QVERIFY(!v.canExport(OutputView::Kind::Sass));
        // The PTX panes are as before.
        QCOMPARE(v.ptxText().toStdString(), keptDropped_->ptx);
    }

    // Each pane's line-map note: shown with its text, hidden when empty, and gone on clear.
    void mapNotesShowAndHide() {
        OutputView v;
        v.showReply(reply(keptDropped_));
        QVERIFY(v.mapNote(inspect::MappedOutput::Ptx).isEmpty());
        v.setMapNote(inspect::MappedOutput::LtoPtx, "No line map: the twin's PTX differs at line 12");
        QCOMPARE(v.mapNote(inspect::MappedOutput::LtoPtx), QString("No line map: the twin's PTX differs at line 12"));
        QVERIFY(v.mapNote(inspect::MappedOutput::Ptx).isEmpty());
        QCOMPARE(v.outputEditor(inspect::MappedOutput::Sass), v.sassEditor());
        v.clear();
        QVERIFY(v.mapNote(inspect::MappedOutput::LtoPtx).isEmpty());
    }
};

QTEST_MAIN(TestOutput)
#include "tst_output.moc"
