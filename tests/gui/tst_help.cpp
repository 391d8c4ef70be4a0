// The documentation inside the app: every Help ▸ Guide entry of a real window opens its page in
// the Help browser, scrolled to its heading; links between pages and to headings resolve, in the
// browser and in the files (README.md and docs/**/*.md, as GitHub shows them); Back, Forward
// and Contents go where they say; no Help entry is greyed out without saying why.
#include <QtTest>

#include <QDirIterator>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>

#include "GuiTestSupport.h"
#include "TestSupport.h"
#include "gui/help/Anchors.h"
#include "gui/help/Guide.h"
#include "gui/help/HelpBrowser.h"
#include "gui/window/MainWindow.h"

using namespace nvpg;
using namespace nvpg::gui;

namespace {

QString sourceFile(const QString& relative) {
    return QDir(QString::fromStdString(test::sourceDir().string())).filePath(relative);
}

QString readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
    return QString::fromUtf8(f.readAll());
}

// README.md and every page under docs/, as paths relative to the source tree.
QStringList markdownFiles() {
    QStringList files{"README.md"};
    QDirIterator it(sourceFile("docs"), {"*.md"}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) files << QDir(sourceFile(".")).relativeFilePath(it.next());
    files.sort();
    return files;
}

// Each link target of a Markdown text outside code ("[text](target)", images too).
QStringList linkTargets(const QString& markdown) {
    QStringList targets;
    bool fenced = false;
    static const QRegularExpression code(R"(`[^`]*`)");
    // A plain literal: moc misreads this pattern as a raw string.
    static const QRegularExpression link("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    for (auto line : markdown.split('\n')) {
        if (line.trimmed().startsWith("```")) fenced = !fenced;
        if (fenced || line.startsWith("    ")) continue;
        line.remove(code);
        for (auto it = link.globalMatch(line); it.hasNext();) targets << it.next().captured(1);
    }
    return targets;
}

QList<QAction*> helpMenuActions(QMainWindow& w) {
    for (auto* top : w.menuBar()->actions())
        if (top->text().remove('&') == "Help" && top->menu()) return top->menu()->actions();
    return {};
}

// The heading `anchor` is at the top of the view, or the view is scrolled as far as it goes.
void checkScrolledTo(help::HelpView* view, const QString& anchor) {
    const int block = view->anchorBlock(anchor);
    QVERIFY2(block >= 0, qPrintable(anchor + " is no heading of " + view->source().toString()));
    const auto rect = view->cursorRect(QTextCursor(view->document()->findBlockByNumber(block)));
    auto* bar = view->verticalScrollBar();
    if (bar->value() == bar->maximum()) {  // the page ends within the view (or fits in it)
        QVERIFY2(rect.top() >= 0 && rect.bottom() <= view->viewport()->height(),
                 qPrintable(anchor + " is not on screen"));
    } else {
        QVERIFY2(rect.top() >= 0 && rect.top() < 60,
                 qPrintable(QString("%1 is at y %2, not at the top").arg(anchor).arg(rect.top())));
    }
}

}  // namespace

class TestHelp : public QObject {
    Q_OBJECT

    QStringList errors_;

private slots:
    void slugsAreGitHubs() {
        QCOMPARE(help::githubSlug("Workspaces (.nvpg)"), QString("workspaces-nvpg"));
        QCOMPARE(help::githubSlug("Things libNVVM does that you should know (checked on CUDA 13.0)"),
                 QString("things-libnvvm-does-that-you-should-know-checked-on-cuda-130"));
        QCOMPARE(help::githubSlug("Known pitfalls: a hint and a fix"), QString("known-pitfalls-a-hint-and-a-fix"));
        QCOMPARE(help::githubSlug("nvpg import numba: from numba-cuda to a workspace"),
                 QString("nvpg-import-numba-from-numba-cuda-to-a-workspace"));
        QCOMPARE(help::markdownHeadingText("## `nvpg compare`"), QString("nvpg compare"));
        QCOMPARE(help::markdownHeadingText("### Line maps (`--line-map`)"), QString("Line maps (--line-map)"));
        QCOMPARE(help::markdownHeadingText("not a heading"), QString());
        QCOMPARE(help::markdownAnchors("# A\n```\n# not\n```\n## Notes\n## Notes\n"),
                 QStringList({"a", "notes", "notes-1"}));
    }

    // Every relative link of README.md and docs/ names a file that exists and, where it names a
    // heading, a heading of that page.
    void everyLinkBetweenPagesResolves() {
        int checked = 0;
        for (const auto& file : markdownFiles()) {
            const auto path = sourceFile(file);
            const auto dir = QFileInfo(path).dir();
            for (const auto& target : linkTargets(readFile(path))) {
                if (target.contains("://") || target.startsWith("mailto:")) continue;
                const auto hash = target.indexOf('#');
                const auto filePart = hash < 0 ? target : target.left(hash);
                const auto anchor = hash < 0 ? QString() : target.mid(hash + 1);
                const auto resolved = filePart.isEmpty() ? path : QDir::cleanPath(dir.filePath(filePart));
                QVERIFY2(QFileInfo::exists(resolved), qPrintable(file + ": " + target + " does not exist"));
                if (!anchor.isEmpty()) {
                    QVERIFY2(resolved.endsWith(".md"), qPrintable(file + ": " + target + ": an anchor in no page"));
                    QVERIFY2(help::markdownAnchors(readFile(resolved)).contains(anchor),
                             qPrintable(file + ": " + target + ": no such heading"));
                }
                ++checked;
            }
        }
        QVERIFY(checked > 50);
    }

    // The browser gives each page's headings the anchors GitHub gives the same Markdown.
    void theBrowsersAnchorsAreTheFilesAnchors() {
        help::HelpView view;
        for (const auto& file : markdownFiles()) {
            view.setSource(QUrl::fromLocalFile(sourceFile(file)));
            QCOMPARE(view.anchors(), help::markdownAnchors(readFile(sourceFile(file))));
        }
    }

    // Help ▸ Guide on a real window: each entry opens its page in the Help browser at its heading.
    void everyGuideEntryOpensItsPageAtItsHeading() {
        auto w = test::makeWindow(&errors_, QSize(1400, 900));
        int guides = 0;
        for (auto* a : helpMenuActions(*w)) {
            if (!a->text().startsWith("Guide: ")) continue;
            ++guides;
            const auto url = a->data().toUrl();
            QVERIFY2(a->isEnabled(), qPrintable(a->text() + ": " + a->toolTip()));
            QVERIFY2(url.isLocalFile() && QFileInfo(url.toLocalFile()).isFile(), qPrintable(url.toString()));
            QVERIFY(!url.fragment().isEmpty());
            a->trigger();
            auto* browser = w->findChild<help::HelpBrowser*>();
            QVERIFY(browser);
            QVERIFY(browser->isVisible());
            QVERIFY(QTest::qWaitForWindowExposed(browser));
            auto* view = browser->view();
            QCOMPARE(QFileInfo(view->source().toLocalFile()).canonicalFilePath(),
                     QFileInfo(url.toLocalFile()).canonicalFilePath());
            QVERIFY2(view->anchors().contains(url.fragment()), qPrintable(a->text() + ": " + url.fragment()));
            checkScrolledTo(view, url.fragment());
            if (QTest::currentTestFailed()) return;
        }
        QVERIFY(guides >= 5);
        QCOMPARE(w->findChildren<help::HelpBrowser*>().size(), 1);  // one browser, reused
        QVERIFY(errors_.isEmpty());
    }

    void noHelpEntryIsGreyedOutWithoutSayingWhy() {
        auto w = test::makeWindow(&errors_);
        const auto actions = helpMenuActions(*w);
        QVERIFY(!actions.isEmpty());
        for (auto* a : actions) {
            if (a->isSeparator() || a->isEnabled()) continue;
            // A QAction's tooltip is its text unless one was set.
            QVERIFY2(!a->toolTip().isEmpty() && a->toolTip() != QString(a->text()).remove('&'), qPrintable(a->text()));
        }
    }

    // Links clicked in a page: to another page's heading, to a heading of the same page; then
    // Back, Forward and Contents.
    void linksBackForwardAndContents() {
        auto w = test::makeWindow(&errors_, QSize(1400, 900));
        auto* browser = help::HelpBrowser::of(w.get());
        const auto tour = help::pageUrl("docs/user/tour.md");
        QVERIFY(!tour.isEmpty());
        browser->open(tour);
        QVERIFY(QTest::qWaitForWindowExposed(browser));
        auto* view = browser->view();
        QVERIFY(!browser->backAction()->isEnabled());

        emit view->anchorClicked(QUrl("libnvvm.md#known-pitfalls-a-hint-and-a-fix"));
        QCOMPARE(view->source().fileName(), QString("libnvvm.md"));
        checkScrolledTo(view, "known-pitfalls-a-hint-and-a-fix");
        emit view->anchorClicked(QUrl("#things-libnvvm-does-that-you-should-know-checked-on-cuda-130"));
        QCOMPARE(view->source().fileName(), QString("libnvvm.md"));
        checkScrolledTo(view, "things-libnvvm-does-that-you-should-know-checked-on-cuda-130");
        // A heading in the middle of a long page comes to the top of the view.
        emit view->anchorClicked(QUrl("../dev/testing.md#sanitizers-and-fuzzing"));
        QCOMPARE(view->source().fileName(), QString("testing.md"));
        QVERIFY(view->verticalScrollBar()->value() > 0);
        QVERIFY(view->verticalScrollBar()->value() < view->verticalScrollBar()->maximum());
        checkScrolledTo(view, "sanitizers-and-fuzzing");
        emit view->anchorClicked(QUrl("../cli/compile.md#line-maps---line-map"));
        QCOMPARE(view->source().fileName(), QString("compile.md"));
        checkScrolledTo(view, "line-maps---line-map");

        QVERIFY(browser->backAction()->isEnabled());
        browser->backAction()->trigger();
        QCOMPARE(view->source().fileName(), QString("testing.md"));
        QVERIFY(browser->forwardAction()->isEnabled());
        browser->forwardAction()->trigger();
        QCOMPARE(view->source().fileName(), QString("compile.md"));
        browser->homeAction()->trigger();
        QCOMPARE(QFileInfo(view->source().toLocalFile()).canonicalFilePath(),
                 QFileInfo(sourceFile("docs/user/index.md")).canonicalFilePath());
        // The contents page links every user page and the command line's and developers' indexes.
        QVERIFY(view->toPlainText().contains("A short tour"));
    }

    // A page the installation lacks says so in the view instead of showing the last page.
    void aMissingPageSaysSo() {
        help::HelpView view;
        view.setSource(QUrl::fromLocalFile(sourceFile("docs/no-such-page.md")));
        QVERIFY(view.toPlainText().contains("no-such-page.md"));
        QVERIFY(view.anchors().isEmpty());
    }
};

QTEST_MAIN(TestHelp)
#include "tst_help.moc"
