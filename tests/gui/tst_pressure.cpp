// Live registers and local memory in the app, with the real engine,
// nvdisasm and line map: the pressure strips of the SASS, PTX and IR panes carry core's figures
// line by line, the note under the headers names the peak and goes there, and local memory is
// marked on its lines and stepped through. Needs nvdisasm (the pip wheel ctest fetches).
#include <QtTest>

#include <QFontInfo>
#include <QFontMetrics>
#include <QLabel>
#include <QRegularExpression>
#include <QTextDocument>

#include <Qsci/qsciscintilla.h>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "core/pipeline/LiveFigures.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/editor/PressureStrip.h"
#include "gui/output/LineMapLinks.h"
#include "gui/output/OutputView.h"
#include "gui/output/Pressure.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;
using inspect::MappedOutput;

namespace {

// Waits for the complete result (SASS and map) of what the window just opened.
std::shared_ptr<const pipeline::CompileResult> waitForLate(MainWindow& w, const std::function<bool()>& open) {
    QSignalSpy lates(w.controller(), &CompileController::lateShown);
    if (!open()) qFatal("cannot open");
    if (lates.isEmpty() && !lates.wait(120000)) qFatal("no complete result");
    return lates.last().at(1).value<std::shared_ptr<const pipeline::CompileResult>>();
}

int lineOfCaret(QsciScintilla* e) {
    int line = 0, index = 0;
    e->getCursorPosition(&line, &index);
    return line + 1;
}

}  // namespace

class TestPressure : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_pressure");
    }

    void stripsCarryTheLiveFiguresOfEachLine() {
        NEED_NVDISASM_FOUND();
        auto w = test::makeWindow();
        const auto r = waitForLate(*w, [&] { return w->openExample("libdevice-math"); });
        QVERIFY(r && r->lineMap && !r->sass.empty());
        const auto live = pipeline::liveFigures(*r);
        QVERIFY2(live.available(), live.unavailable.c_str());
        QCOMPARE(live.kernels.size(), size_t(1));
        const auto& peak = live.kernels[0];
        const int most = peak.registers.value_or(peak.gpr);

        // SASS: each shown instruction line has its instruction's figure.
        auto* sass = PressureStrip::of(w->output()->sassEditor());
        QVERIFY(sass->isShown());
        QCOMPARE(w->output()->sassEditor()->marginWidth(PressureStrip::kMargin), 7);
        const auto view = w->output()->sassView();
        QVERIFY(view);
        int withFigure = 0;
        for (size_t i = 0; i < live.counts.size(); ++i) {
            if (!live.counts[i].known) continue;
            const int shown = view->shownLine(live.listing.instructions[i].line);
            QCOMPARE(sass->figureOf(shown), live.counts[i].gpr);
            ++withFigure;
        }
        QVERIFY(withFigure > 100);
        // The colour scale: the peak is the reddest line, few live is cool.
        QVERIFY(sass->colourOf(most).hueF() < sass->colourOf(1).hueF());
        // The nvdisasm listing toggle: the strip follows the listing's own lines.
        w->output()->setSassRaw(true);
        for (size_t i = 0; i < live.counts.size(); ++i)
            if (live.counts[i].known) QCOMPARE(sass->figureOf(live.listing.instructions[i].line), live.counts[i].gpr);
        w->output()->setSassRaw(false);

        // PTX: the figures of the IR lines they came from.
        auto* ptx = PressureStrip::of(w->output()->ptxEditor());
        QVERIFY(ptx->isShown());
        QCOMPARE(ptx->figures(), live.ptxLines);

        // IR: the sinf call line has the figure of sinf's inlined body; an edit takes them away.
        auto* editor = w->editors()->currentEditor();
        auto* ir = PressureStrip::of(editor);
        QVERIFY(ir->isShown());
        const int call = test::lineContaining(editor, QStringLiteral("call float @__nv_sinf")) + 1;
        QVERIFY(call > 0);
        QCOMPARE(ir->figureOf(call), live.irLine(0, call));
        QVERIFY(ir->figureOf(call) > 0);
        QCOMPARE(ir->figureOf(peak.line), peak.gpr);

        // The note under the PTX header names the peak; its link shows the IR line.
        const QString note = w->output()->pressureNote(MappedOutput::Ptx);
        QVERIFY2(note.contains(QStringLiteral("peak %1 live at").arg(peak.gpr)), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("math.ll:%1").arg(peak.line)), qPrintable(note));
        QVERIFY(w->output()->pressureLabel(MappedOutput::Ptx)->isVisible());
        QMetaObject::invokeMethod(w->output()->pressureLabel(MappedOutput::Ptx), "linkActivated",
                                  Q_ARG(QString, QStringLiteral("peak")));
        QCOMPARE(lineOfCaret(editor), peak.line);
        // From the SASS pane's note: the peak's instruction.
        QMetaObject::invokeMethod(w->output()->pressureLabel(MappedOutput::Sass), "linkActivated",
                                  Q_ARG(QString, QStringLiteral("peak")));
        QCOMPARE(lineOfCaret(w->output()->sassEditor()), view->shownLine(peak.sassLine));

        // "about": the docs' entry on these figures, what they are, how they are made and their source.
        QVERIFY(note.contains(QStringLiteral("href=\"about\"")));
        QMetaObject::invokeMethod(w->output()->pressureLabel(MappedOutput::Ptx), "linkActivated",
                                  Q_ARG(QString, QStringLiteral("about")));
        QLabel* popover = nullptr;
        QTRY_VERIFY((popover = w->output()->findChild<QLabel*>("docPopover")) && popover->isVisible());
        QVERIFY2(popover->text().contains(QStringLiteral("live registers")), qPrintable(popover->text()));
        QVERIFY(popover->text().contains(QStringLiteral("nvdisasm -c -lrm count")));
        popover->close();

        editor->setCursorPosition(0, 0);
        editor->insert(QStringLiteral("; a comment\n"));
        QTRY_VERIFY(!ir->isShown());
        QCOMPARE(editor->marginWidth(PressureStrip::kMargin), 0);
    }

    // The SASS pane gets its listing before the live registers, the graph and the map are made
    // (they add nothing to the listing's wait), with no strip of another compile on it;
    // the figures then come onto the same text.
    void theListingIsShownBeforeItsFigures() {
        NEED_NVDISASM_FOUND();
        auto w = test::makeWindow();
        bool lateCame = false, listedBeforeLate = false, stripWhileListed = true;
        QString listedText;
        connect(w->controller(), &CompileController::sassShown, this, [&] {
            listedBeforeLate = !lateCame;
            listedText = w->output()->sassEditor()->text();
            stripWhileListed = PressureStrip::of(w->output()->sassEditor())->isShown();
        });
        connect(w->controller(), &CompileController::lateShown, this, [&] { lateCame = true; });
        const auto r = waitForLate(*w, [&] { return w->openExample("libdevice-math"); });
        QVERIFY(r && !r->sass.empty() && !r->sassLive.empty());
        QVERIFY(listedBeforeLate);
        QVERIFY(listedText.contains(QStringLiteral("EXIT")));
        QVERIFY(!stripWhileListed);
        QCOMPARE(w->output()->sassEditor()->text(), listedText);
        QVERIFY(PressureStrip::of(w->output()->sassEditor())->isShown());
    }

    void localMemoryIsMarkedAndSteppedThrough() {
        NEED_NVDISASM_FOUND();
        auto w = test::makeWindow();
        const auto path = QString::fromStdString((test::dataDir() / "ir/local-array.ll").string());
        const auto r = waitForLate(*w, [&] { return w->openPaths({path}); });
        QVERIFY(r && !r->sass.empty());
        const auto& places = w->pressure()->localMemory();
        // (Its SASS is the LTO link's, which drops the kernel that no @llvm.used keeps: none there.)
        QVERIFY2(!places.ptx.empty() && !places.ir.empty(),
                 qPrintable(QStringLiteral("ptx %1, sass %2, ir %3; %4")
                                .arg(places.ptx.size())
                                .arg(places.sass.size())
                                .arg(places.ir.size())
                                .arg(QString::fromStdString(r->lineMap ? r->lineMap->ptx.unavailable : "no map"))));
        // Marked in the PTX and IR panes.
        QCOMPARE(PressureStrip::of(w->output()->ptxEditor())->marks(), places.ptx);
        auto* editor = w->editors()->currentEditor();
        const auto irMarks = PressureStrip::of(editor)->marks();
        QVERIFY(!irMarks.empty());
        for (const int l : irMarks)
            QVERIFY2(editor->text(l - 1).contains(QStringLiteral("volatile")), qPrintable(editor->text(l - 1)));
        // The PTX note's link steps through the ld.local/st.local lines, and round again.
        const QString note = w->output()->pressureNote(MappedOutput::Ptx);
        QVERIFY2(note.contains(QStringLiteral("local memory")), qPrintable(note));
        auto* label = w->output()->pressureLabel(MappedOutput::Ptx);
        // Every character of the note is drawn by the label's font: after "local memory: N lines ·"
        // the docs' link is a word, not a circled i (U+24D8), which DejaVu Sans lacks (a box).
        QTextDocument shown;
        shown.setHtml(label->text());
        const QString words = shown.toPlainText();
        QVERIFY2(!words.contains(QChar(0x24D8)) && !note.contains(QChar(0x24D8)), qPrintable(words));
        QVERIFY2(words.contains(QRegularExpression(QStringLiteral("local memory: \\d+ lines? · about$"))),
                 qPrintable(words));
        if (!QFontInfo(label->font()).family().isEmpty()) {
            const QFontMetrics metrics(label->font());
            for (const char32_t c : words.toUcs4())
                QVERIFY2(metrics.inFontUcs4(c), qPrintable(QStringLiteral("U+%1 of \"%2\" is not in %3")
                                                               .arg(uint(c), 4, 16, QLatin1Char('0'))
                                                               .arg(words, QFontInfo(label->font()).family())));
        }
        for (size_t k = 0; k <= places.ptx.size(); ++k) {
            QMetaObject::invokeMethod(label, "linkActivated", Q_ARG(QString, QStringLiteral("local")));
            const int expected = places.ptx[k % places.ptx.size()];
            QCOMPARE(w->pressure()->localMemoryShown(MappedOutput::Ptx), expected);
            QCOMPARE(lineOfCaret(w->output()->ptxEditor()), expected);
            const auto text = w->output()->ptxEditor()->text(expected - 1).trimmed();
            QVERIFY2(text.startsWith(QStringLiteral("ld.local")) || text.startsWith(QStringLiteral("st.local")),
                     qPrintable(text));
        }
        // A kernel without local memory says nothing of it.
        const auto s = waitForLate(*w, [&] { return w->openExample("saxpy"); });
        QVERIFY(s);
        QVERIFY(!w->output()->pressureNote(MappedOutput::Ptx).contains(QStringLiteral("local memory")));
        QVERIFY(PressureStrip::of(w->output()->ptxEditor())->marks().empty());
    }
};

QTEST_MAIN(TestPressure)
#include "tst_pressure.moc"
