// Hover docs: the mouse resting on a word of a module's editor or of an output pane shows core's
// entry for that word (its title, its text, its link, clickable), and nothing for a word without one.
#include <QtTest>

#include <QDesktopServices>
#include <QLabel>
#include <QToolTip>

#include <Qsci/qsciscintilla.h>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "core/inspect/Docs.h"
#include "gui/compile/CompileController.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/HoverDocs.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/OutputView.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using gui::HoverDocs;

namespace {

// What Scintilla does when the mouse rests: SCN_DWELLSTART with the position and the point
// (over the middle of the character, as a person's pointer is).
void dwell(QsciScintilla* pane, int position) {
    const long line = pane->SendScintilla(QsciScintillaBase::SCI_LINEFROMPOSITION, position);
    pane->setFirstVisibleLine(int(std::max(0L, line - 3)));
    QTest::qWait(50);  // painted there (the scroll is not the user's, once it is done)
    const int x = int(pane->SendScintilla(QsciScintillaBase::SCI_POINTXFROMPOSITION, 0UL, long(position))) + 3;
    const int y = int(pane->SendScintilla(QsciScintillaBase::SCI_POINTYFROMPOSITION, 0UL, long(position))) +
                  int(pane->SendScintilla(QsciScintillaBase::SCI_TEXTHEIGHT, line)) / 2;
    emit pane->SCN_DWELLSTART(position, x, y);
}

// The byte offset of `needle` within the text of `pane`, a few bytes in (inside the word).
int positionOf(QsciScintilla* pane, const QByteArray& needle, int into = 2) {
    const int at = int(pane->text().toUtf8().indexOf(needle));
    return at < 0 ? -1 : at + into;
}

// Core's text of the entry `word` names in `context`: what the popup must show.
std::string titleOf(const char* word, inspect::DocContext context) {
    const auto found = inspect::Docs::builtIn().explain(word, context);
    return found.empty() || !found.front().entry ? std::string() : found.front().entry->title;
}

// Receives what the popup's link opens, instead of a browser.
class UrlSink : public QObject {
    Q_OBJECT
public:
    QList<QUrl> opened;
public slots:
    void open(const QUrl& url) { opened << url; }
};

std::unique_ptr<gui::MainWindow> windowOnExample(const char* name) {
    auto w = test::makeWindow();
    if (!QTest::qWaitForWindowExposed(w.get())) return nullptr;
    QSignalSpy shown(w->controller(), &gui::CompileController::replyShown);
    if (!w->openExample(name) || (shown.isEmpty() && !shown.wait(120000))) return nullptr;
    return w;
}

}  // namespace

class TestHover : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::useNvpgAsEngine();
        test::isolateAppData("tst_gui_hover");
    }

    // Every pane reads its words in its own language: the editors as IR, PTX and LTO PTX as
    // PTX, SASS as SASS.
    void everyPaneHasHoverDocs() {
        auto w = test::makeWindow();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        const auto* out = w->output();
        QVERIFY(HoverDocs::of(out->ptxEditor()));
        QCOMPARE(HoverDocs::of(out->ptxEditor())->context(), inspect::DocContext::Ptx);
        QCOMPARE(HoverDocs::of(out->ltoEditor())->context(), inspect::DocContext::Ptx);
        QCOMPARE(HoverDocs::of(out->sassEditor())->context(), inspect::DocContext::Sass);
        w->addModuleFiles({QString::fromStdString((test::dataDir() / "ir" / "sinf.ll").string())});
        QVERIFY(w->editors()->editor(0));
        QCOMPARE(HoverDocs::of(w->editors()->editor(0))->context(), inspect::DocContext::Ir);
    }

    // With the line map on screen a mapped line has a hover of its own (where its IR came from):
    // on a word with a doc entry the doc shows alone, elsewhere on the line the map's text does.
    void docWordHidesTheLineMapTip() {
        auto w = test::makeWindow();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QSignalSpy mapped(w->controller(), &gui::CompileController::lineMapShown);
        QVERIFY(w->openExample("saxpy"));
        QVERIFY(mapped.wait(120000));
        auto* pane = w->output()->ptxEditor();
        const int at = positionOf(pane, "fma.rn.f32");
        QVERIFY(at >= 0);
        dwell(pane, at);
        QTRY_VERIFY(HoverDocs::of(pane)->popup() && HoverDocs::of(pane)->popup()->isVisible());
        QTest::qWait(100);
        QVERIFY2(!QToolTip::isVisible(), qPrintable(QToolTip::text()));
        // The register operand of the same line has no entry: the map says where the line came from.
        const int reg = int(pane->text().toUtf8().indexOf("%f", at));
        QVERIFY(reg > at);
        dwell(pane, reg + 1);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains("saxpy.ll"), qPrintable(QToolTip::text()));
        QToolTip::hideText();
    }

    // saxpy's PTX has `fma.rn.f32`: resting on it shows fma's entry, with the link to its PTX
    // ISA section, and clicking the link opens that address.
    void ptxPaneExplainsFma() {
        auto w = windowOnExample("saxpy");
        QVERIFY(w);
        const std::string title = titleOf("fma.rn.f32", inspect::DocContext::Ptx);
        QVERIFY2(QString::fromStdString(title).startsWith("fma"), title.c_str());

        auto* pane = w->output()->ptxEditor();
        const int at = positionOf(pane, "fma.rn.f32");
        QVERIFY2(at >= 0, "saxpy's PTX has no fma.rn.f32");
        auto* hover = HoverDocs::of(pane);
        dwell(pane, at);
        QTRY_VERIFY(hover->popup());
        QVERIFY(hover->popup()->isVisible());
        const QString shown = hover->shownText();
        QVERIFY2(shown.contains(QString::fromStdString(title)), qPrintable(shown));
        QCOMPARE(shown, hover->textAt(at));
        // The text is core's one form, whole.
        const auto e = inspect::Docs::builtIn().explain("fma.rn.f32", inspect::DocContext::Ptx);
        QVERIFY(!e.empty());
        QVERIFY(shown.startsWith(QString::fromStdString(inspect::formatExplanation(e.front())).trimmed()));
        // The popup lies under the word (above it where the screen has no room below), on the
        // pane's screen.
        const QPoint word = pane->viewport()->mapToGlobal(
            QPoint(int(pane->SendScintilla(QsciScintillaBase::SCI_POINTXFROMPOSITION, 0UL, long(at))),
                   int(pane->SendScintilla(QsciScintillaBase::SCI_POINTYFROMPOSITION, 0UL, long(at)))));
        QVERIFY2(hover->popup()->y() > word.y() || hover->popup()->geometry().bottom() < word.y(),
                 "the popup covers the word");
        QVERIFY(pane->screen()->availableGeometry().contains(hover->popup()->geometry()));

        const std::string link = e.front().entry->link;
        QVERIFY2(link.rfind("https://docs.nvidia.com/", 0) == 0, link.c_str());
        QVERIFY2(hover->popup()->text().contains(QStringLiteral("<a href=\"%1\">").arg(QString::fromStdString(link))),
                 qPrintable(hover->popup()->text()));
        UrlSink sink;
        QDesktopServices::setUrlHandler("https", &sink, "open");
        emit hover->popup()->linkActivated(QString::fromStdString(link));
        QDesktopServices::unsetUrlHandler("https");
        QCOMPARE(sink.opened, QList<QUrl>{QUrl(QString::fromStdString(link))});
        QVERIFY(!hover->popup());  // gone once its link is followed

        // A key or a new text takes it away.
        dwell(pane, at);
        QTRY_VERIFY(hover->popup());
        QTest::keyClick(pane, Qt::Key_Down);
        QVERIFY(!hover->popup());
    }

    // In the libdevice-math example's IR, resting on `@__nv_sinf` (the call) shows the entry
    // for libdevice's sinf.
    void irEditorExplainsSinf() {
        auto w = windowOnExample("libdevice-math");
        QVERIFY(w);
        auto* editor = w->editors()->editor(0);
        QVERIFY(editor);
        const std::string title = titleOf("@__nv_sinf", inspect::DocContext::Ir);
        QVERIFY2(QString::fromStdString(title).contains("sinf"), title.c_str());
        const int at = positionOf(editor, "call float @__nv_sinf", 14);
        QVERIFY(at >= 0);
        auto* hover = HoverDocs::of(editor);
        dwell(editor, at);
        QTRY_VERIFY(hover->popup());
        QVERIFY2(hover->shownText().contains(QString::fromStdString(title)), qPrintable(hover->shownText()));
    }

    // A word without an entry (the kernel's own name, a comment's prose) shows nothing, and
    // takes away what was shown.
    void unknownWordShowsNothing() {
        auto w = windowOnExample("libdevice-math");
        QVERIFY(w);
        auto* editor = w->editors()->editor(0);
        auto* hover = HoverDocs::of(editor);
        const int sinf = positionOf(editor, "call float @__nv_sinf", 14);
        dwell(editor, sinf);
        QTRY_VERIFY(hover->popup());

        const int wave = positionOf(editor, "@wave(", 2);
        QVERIFY(wave >= 0);
        QVERIFY2(hover->textAt(wave).isEmpty(), qPrintable(hover->textAt(wave)));
        dwell(editor, wave);
        QVERIFY(!hover->popup());
        QVERIFY(hover->shownText().isEmpty());

        const int prose = positionOf(editor, "Declared, not defined", 3);
        QVERIFY(prose >= 0);
        dwell(editor, prose);
        QVERIFY(!hover->popup());

        auto* ptx = w->output()->ptxEditor();
        const int entry = positionOf(ptx, ".entry wave", 9);  // the kernel's name
        QVERIFY(entry >= 0);
        dwell(ptx, entry);
        QVERIFY(!HoverDocs::of(ptx)->popup());
    }
};

QTEST_MAIN(TestHover)
#include "tst_hover.moc"
