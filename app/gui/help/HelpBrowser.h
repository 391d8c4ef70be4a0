#pragma once
// The documentation inside the app: the Markdown pages of docs/ (and README.md) rendered by a
// QTextBrowser, with relative links between pages, #anchors that land on their heading, and
// back, forward and home.

#include <QTextBrowser>
#include <QUrl>
#include <QWidget>

class QAction;

namespace nvpg::gui::help {

// The page view: a QTextBrowser that gives Markdown headings their GitHub anchors as a page is
// read, scales wide images to the page, and opens what is not a page (a web address, a source
// file) outside.
class HelpView : public QTextBrowser {
    Q_OBJECT

public:
    explicit HelpView(QWidget* parent = nullptr);
    // The anchors of the page shown, as addHeadingAnchors made them.
    const QStringList& anchors() const { return anchors_; }
    // The heading block that holds `anchor` on the page shown; -1 when none does.
    int anchorBlock(const QString& anchor) const;
    // Scrolls the heading `anchor` of the page shown to the top (as far as the page goes).
    void scrollToHeading(const QString& anchor);

    QVariant loadResource(int type, const QUrl& name) override;

protected:
    void doSetSource(const QUrl& name, QTextDocument::ResourceType type) override;

private:
    void follow(const QUrl& link);

    QStringList anchors_;
};

// The Help window: a toolbar (Back, Forward, Home) over a HelpView. One per main window, made on
// first use (HelpBrowser::of).
class HelpBrowser : public QWidget {
    Q_OBJECT

public:
    explicit HelpBrowser(QWidget* parent = nullptr);
    // The window's browser, made and kept as its child on first use.
    static HelpBrowser* of(QWidget* window);

    // Shows `page` (a local .md file, with or without a #fragment), raising the window.
    void open(const QUrl& page);
    HelpView* view() const { return view_; }
    QAction* backAction() const { return back_; }
    QAction* forwardAction() const { return forward_; }
    QAction* homeAction() const { return home_; }

private:
    HelpView* view_;
    QAction* back_;
    QAction* forward_;
    QAction* home_;
};

}  // namespace nvpg::gui::help
