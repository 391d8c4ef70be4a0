// The line map in the app, with the real engine and the real map: clicking an IR line marks
// exactly the output lines the map gives, clicking a PTX line shows its IR line in the right
// module tab, the libdevice label of a `call @__nv_sinf` line, the SASS pane, and the View >
// Line map toggle (off: no map asked for, the same PTX).
#include <QtTest>

#include <QTabWidget>
#include <QTableWidget>

#include <Qsci/qsciscintilla.h>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/LineMapLinks.h"
#include "gui/output/OutputView.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {

struct Compiled {
    EngineReply reply;                                        // the plain reply, shown before the SASS and the map
    std::shared_ptr<const pipeline::CompileResult> complete;  // with its SASS and map
    std::shared_ptr<const inspect::LineMap> map;
};

// Opens an example and waits for its plain reply, then the rest of it and its map.
Compiled openAndMap(MainWindow& w, const QString& example) {
    QSignalSpy replies(w.controller(), &CompileController::replyShown);
    QSignalSpy lates(w.controller(), &CompileController::lateShown);
    QSignalSpy maps(w.controller(), &CompileController::lineMapShown);
    if (!w.openExample(example)) qFatal("cannot open %s", qPrintable(example));
    if (replies.isEmpty() && !replies.wait(120000)) qFatal("no compile result");
    if (maps.isEmpty() && !maps.wait(120000)) qFatal("no line map");
    if (lates.isEmpty()) qFatal("the map came without the complete result");
    Compiled c;
    c.reply = replies.last().at(0).value<EngineReply>();
    c.complete = lates.last().at(1).value<std::shared_ptr<const pipeline::CompileResult>>();
    c.map = maps.last().at(1).value<std::shared_ptr<const inspect::LineMap>>();
    return c;
}

// A real left click on 0-based line `line` of an editor, as a person does it.
void clickLine(QsciScintilla* e, int line) {
    e->ensureLineVisible(line);
    const long pos = e->positionFromLineIndex(line, 0);
    const int x = int(e->SendScintilla(QsciScintillaBase::SCI_POINTXFROMPOSITION, 0UL, pos));
    const int y = int(e->SendScintilla(QsciScintillaBase::SCI_POINTYFROMPOSITION, 0UL, pos));
    const int h = int(e->SendScintilla(QsciScintillaBase::SCI_TEXTHEIGHT, line));
    QTest::mouseClick(e->viewport(), Qt::LeftButton, {}, QPoint(x + 2, y + h / 2));
}

bool onScreen(QsciScintilla* e, int line1) {
    const long first = e->SendScintilla(QsciScintillaBase::SCI_GETFIRSTVISIBLELINE);
    const long n = e->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN);
    const long visible = e->SendScintilla(QsciScintillaBase::SCI_VISIBLEFROMDOCLINE, line1 - 1);
    return visible >= first && visible < first + n;
}

}  // namespace

class TestLineMap : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> makeWindow() { return test::makeWindow(); }

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_linemap");
    }

    void clickingAnIrLineMarksExactlyItsPtxLines() {
        auto w = makeWindow();
        const auto c = openAndMap(*w, "libdevice-math");
        QVERIFY(c.map);
        QVERIFY2(c.map->ptx.available(), c.map->ptx.unavailable.c_str());
        auto* editor = w->editors()->currentEditor();
        const QString module = QString::fromStdString(w->document()->module(w->editors()->currentModule()).name);
        const int call = test::lineContaining(editor, QStringLiteral("call float @__nv_sinf"));
        QVERIFY(call >= 0);
        const auto expected = test::expand(c.map->ptx.rangesOf(module.toStdString(), call + 1));
        QVERIFY(expected.size() >= 30);  // sinf's body
        clickLine(editor, call);
        QCOMPARE(LineMapLinks::focusedLines(w->output()->ptxEditor()), expected);
        QVERIFY(onScreen(w->output()->ptxEditor(), expected.front()));
        QCOMPARE(LineMapLinks::focusedLines(editor), std::vector<int>{call + 1});
        // The band: every PTX line of that call shares the call line's colour.
        const int band = LineMapLinks::bandOf(editor, call + 1);
        QVERIFY(band >= 0);
        for (int l : expected) QCOMPARE(LineMapLinks::bandOf(w->output()->ptxEditor(), l), band);
        // An unmapped output line (the PTX's header comment) stays plain.
        QCOMPARE(c.map->ptx.originOf(1).module, -1);
        QCOMPARE(LineMapLinks::bandOf(w->output()->ptxEditor(), 1), -1);
        // Another line, by keys: the marks follow the caret.
        const int load = test::lineContaining(editor, QStringLiteral("load float"));
        QVERIFY(load >= 0);
        editor->setFocus();
        editor->setCursorPosition(load, 0);
        QTest::keyClick(editor, Qt::Key_End);
        QCOMPARE(LineMapLinks::focusedLines(w->output()->ptxEditor()),
                 test::expand(c.map->ptx.rangesOf(module.toStdString(), load + 1)));
        // Hover says where it went, in LineMap::describe's words, on either side.
        const QString words = QString::fromStdString(c.map->describe(module.toStdString(), call + 1));
        QVERIFY(words.startsWith(QStringLiteral("IR ") + module + QStringLiteral(":%1 → PTX ").arg(call + 1)));
        QVERIFY(w->lineMapLinks()->hoverText(editor, call + 1).startsWith(words));
        QVERIFY(w->lineMapLinks()->hoverText(w->output()->ptxEditor(), expected.front()).startsWith(words));
    }

    void theSinfCallLineSaysWhatLibdevicePutThere() {
        auto w = makeWindow();
        const auto c = openAndMap(*w, "libdevice-math");
        QVERIFY(c.map);
        auto* editor = w->editors()->currentEditor();
        const QString module = QString::fromStdString(w->document()->module(w->editors()->currentModule()).name);
        const int call = test::lineContaining(editor, QStringLiteral("call float @__nv_sinf"));
        const int lines = int(test::expand(c.map->ptx.rangesOf(module.toStdString(), call + 1)).size());
        const QString label = w->lineMapLinks()->libdeviceLabel(module, call + 1);
        QVERIFY2(label.startsWith(QStringLiteral("__nv_sinf (libdevice): %1 PTX lines").arg(lines)), qPrintable(label));
        // Shown beside the line in the editor.
        QVERIFY2(static_cast<ModuleEditor*>(editor)->annotationText(call).contains(label),
                 qPrintable(static_cast<ModuleEditor*>(editor)->annotationText(call)));
        // Editing takes the bands away (they are of the old text); the next map brings them back.
        QSignalSpy maps(w->controller(), &CompileController::lineMapShown);
        editor->insertAt(QStringLiteral("; a comment\n"), 0, 0);
        QVERIFY(LineMapLinks::bandedLines(editor).empty());
        QVERIFY(LineMapLinks::bandedLines(w->output()->ptxEditor()).empty());
        QVERIFY(maps.wait(120000));
        QCOMPARE(LineMapLinks::bandOf(editor, call + 2) >= 0, true);
    }

    void clickingAPtxLineShowsItsIrLineInTheRightTab() {
        auto w = makeWindow();
        const auto c = openAndMap(*w, "two-modules");
        QVERIFY(c.map);
        QVERIFY2(c.map->ptx.available(), c.map->ptx.unavailable.c_str());
        const int helper = w->document()->indexOf(QStringLiteral("helper.ll"));
        QVERIFY(helper >= 0);
        QVERIFY(w->editors()->currentModule() != helper);
        const int helperInMap = c.map->moduleIndex("helper.ll");
        QVERIFY(helperInMap >= 0);
        int ptxLine = 0;
        for (int l = 1; l <= int(c.map->ptx.origin.size()) && !ptxLine; ++l)
            if (c.map->ptx.originOf(l).module == helperInMap) ptxLine = l;
        QVERIFY(ptxLine > 0);
        const int irLine = c.map->ptx.originOf(ptxLine).line;
        clickLine(w->output()->ptxEditor(), ptxLine - 1);
        QCOMPARE(w->editors()->currentModule(), helper);
        auto* editor = w->editors()->editor(helper);
        int line = 0, index = 0;
        editor->getCursorPosition(&line, &index);
        QCOMPARE(line + 1, irLine);
        QCOMPARE(LineMapLinks::focusedLines(editor), std::vector<int>{irLine});
        // A line of smoothstep's body.
        const int define = test::lineContaining(editor, QStringLiteral("define float @smoothstep"));
        QVERIFY(define >= 0 && define < irLine - 1);
        QVERIFY(editor->text(irLine - 1).trimmed().startsWith(QLatin1Char('%')) ||
                editor->text(irLine - 1).contains(QStringLiteral("ret ")));
        // The clicked line is marked with its siblings, and the PTX pane did not jump away.
        const auto siblings = LineMapLinks::focusedLines(w->output()->ptxEditor());
        QVERIFY(std::find(siblings.begin(), siblings.end(), ptxLine) != siblings.end());
        QCOMPARE(siblings, test::expand(c.map->ptx.rangesOf("helper.ll", irLine)));
        // Switching tabs keeps the bands.
        w->editors()->showLocation(QStringLiteral("main.ll"), 1, 1);
        QVERIFY(!LineMapLinks::bandedLines(w->editors()->editor(helper)).empty());
        QVERIFY(!LineMapLinks::bandedLines(w->output()->ptxEditor()).empty());
    }

    void theSassPaneShowsTheResultsSass() {
        auto w = makeWindow();
        const auto c = openAndMap(*w, "libdevice-math");
        QVERIFY(c.complete);
        const auto& r = *c.complete;
        // The PTX did not wait for nvdisasm: the plain reply came with the SASS still to come.
        QVERIFY(!c.reply.result->ptx.empty());
        QCOMPARE(c.reply.result->ptx, r.ptx);
        if (!r.sass.empty()) {
            QVERIFY(c.reply.result->sassPending);
            QVERIFY(c.reply.result->sass.empty());
        }
        if (r.sass.empty()) {
            // Without nvdisasm the pane says how to get it.
            QVERIFY(w->output()->sassNotice().contains(QStringLiteral("nvdisasm")));
            QSKIP("nvdisasm is not here: the SASS pane shows how to get it");
        }
        QCOMPARE(w->output()->sassText().toStdString(), r.sass);
        int instructions = 0;
        for (const auto& f : r.sassFunctions) instructions += f.instructions;
        QVERIFY(instructions > 0);
        QVERIFY2(w->output()->sassHeader().contains(QStringLiteral("%1 instructions").arg(instructions)),
                 qPrintable(w->output()->sassHeader()));
        auto* table = w->output()->sassFiguresTable();
        QCOMPARE(table->rowCount(), int(r.sassFunctions.size()));
        QCOMPARE(table->item(0, 2)->text(), QString::number(r.sassFunctions[0].instructions));
        if (c.map && c.map->sass.available()) QVERIFY(!LineMapLinks::bandedLines(w->output()->sassEditor()).empty());
    }

    // A map that could not be made is never shown silently: the pane says why, uncoloured.
    void anUnavailableMapSaysWhyUnderItsHeader() {
        auto w = makeWindow();
        const auto c = openAndMap(*w, "saxpy");
        QVERIFY(c.map);
        auto handMade = std::make_shared<inspect::LineMap>(*c.map);
        handMade->ptx = {};
        handMade->ptx.unavailable = "the line-annotated compile gave other PTX than the plain one at -opt=0";
        w->lineMapLinks()->setMap(handMade);
        QCOMPARE(w->output()->mapNote(inspect::MappedOutput::Ptx),
                 QStringLiteral("No line map: the line-annotated compile gave other PTX than the plain one at -opt=0"));
        QVERIFY(LineMapLinks::bandedLines(w->output()->ptxEditor()).empty());
        // A map that never came (the twin's engine died) says so too.
        w->lineMapLinks()->setMap(nullptr);
        QVERIFY(w->output()->mapNote(inspect::MappedOutput::Ptx).startsWith(QStringLiteral("No line map: ")));
        // A module the map could not cover says why under its first line.
        auto bitcode = std::make_shared<inspect::LineMap>(*c.map);
        bitcode->modules[0].unmapped = "bitcode: llvm-dis-14 is not installed";
        w->lineMapLinks()->setMap(bitcode);
        auto* editor = static_cast<ModuleEditor*>(w->editors()->editor(0));
        QVERIFY2(editor->annotationText(0).contains(QStringLiteral("llvm-dis-14 is not installed")),
                 qPrintable(editor->annotationText(0)));
        QVERIFY(LineMapLinks::bandedLines(editor).empty());
    }

    void withTheToggleOffNoMapIsAskedForAndThePtxIsTheSame() {
        auto w = makeWindow();
        QVERIFY(w->lineMapAction()->isChecked());
        const auto on = openAndMap(*w, "saxpy");
        QVERIFY(on.map);
        const QString ptxOn = w->output()->ptxText();
        QCOMPARE(ptxOn.toStdString(), on.reply.result->ptx);
        QSignalSpy replies(w->controller(), &CompileController::replyShown);
        QSignalSpy maps(w->controller(), &CompileController::lineMapShown);
        w->lineMapAction()->setChecked(false);
        QVERIFY(!w->controller()->lineMap());
        w->controller()->compileNow();
        QVERIFY(replies.wait(120000));
        const auto off = replies.last().at(0).value<EngineReply>();
        QVERIFY(off.result);
        QVERIFY(!off.result->lineMap);  // the engine was not asked for one
        QTest::qWait(200);
        QCOMPARE(maps.size(), 0);
        QCOMPARE(w->output()->ptxText(), ptxOn);
        QVERIFY(LineMapLinks::bandedLines(w->output()->ptxEditor()).empty());
        QVERIFY(w->output()->mapNote(inspect::MappedOutput::Ptx).isEmpty());
        // Remembered for the next window.
        QVERIFY(!QSettings().value("view/lineMap", true).toBool());
        w->lineMapAction()->setChecked(true);
    }
};

QTEST_MAIN(TestLineMap)
#include "tst_linemap.moc"
