#include "gui/help/HelpBrowser.h"

#include <algorithm>

#include <QAction>
#include <QDesktopServices>
#include <QFileInfo>
#include <QImage>
#include <QScrollBar>
#include <QTextBlock>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include "gui/help/Anchors.h"
#include "gui/help/Guide.h"

namespace nvpg::gui::help {

namespace {

bool isPage(const QUrl& url) {
    const auto suffix = QFileInfo(url.path()).suffix().toLower();
    return url.isLocalFile() && (suffix == "md" || suffix == "markdown");
}

// The widest an image is drawn (screenshots are 1600 pixels wide), and the least it is narrowed to.
constexpr int kImageWidth = 900;
constexpr int kMinImageWidth = 400;

}  // namespace

HelpView::HelpView(QWidget* parent) : QTextBrowser(parent) {
    setObjectName("helpView");
    // Links are followed here: pages in this view, everything else (web addresses, source files,
    // images) by the desktop.
    setOpenLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, &HelpView::follow);
}

void HelpView::follow(const QUrl& link) {
    const auto url = link.isRelative() ? source().resolved(link) : link;
    if (isPage(url))
        setSource(url);
    else
        QDesktopServices::openUrl(url);
}

void HelpView::doSetSource(const QUrl& name, QTextDocument::ResourceType type) {
    if (name.isLocalFile() && !QFileInfo(name.toLocalFile()).isFile()) {
        // A page this installation lacks: say so in place of the page.
        setHtml(tr("<h2>Not here</h2><p><code>%1</code> is not part of the documentation found beside the "
                   "app.</p>")
                    .arg(name.toLocalFile().toHtmlEscaped()));
        anchors_.clear();
        return;
    }
    QTextBrowser::doSetSource(name, isPage(name) ? QTextDocument::MarkdownResource : type);
    // Qt's Markdown reader gives headings no anchors. Made again on every visit: the same page's
    // anchors are the same, and a page read again has lost them.
    anchors_ = addHeadingAnchors(document());
    if (!name.fragment().isEmpty()) {
        scrollToHeading(name.fragment());
        // Once the window has its size (a page opened as the window shows), the place is final.
        QTimer::singleShot(0, this, [this, name] {
            if (source() == name) scrollToHeading(name.fragment());
        });
    }
}

void HelpView::scrollToHeading(const QString& anchor) {
    // The layout of a long page runs on in idle time; the anchor's place is known once it is done.
    document()->size();
    scrollToAnchor(anchor);
}

QVariant HelpView::loadResource(int type, const QUrl& name) {
    auto resource = QTextBrowser::loadResource(type, name);
    if (type != QTextDocument::ImageResource) return resource;
    QImage image;
    if (resource.typeId() == QMetaType::QByteArray)
        image.loadFromData(resource.toByteArray());
    else if (resource.canConvert<QImage>())
        image = resource.value<QImage>();
    // As wide as the page less a list's indent: a screenshot drawn wider than the view scrolls sideways.
    const int widest = std::clamp(viewport()->width() - 96, kMinImageWidth, kImageWidth);
    if (image.isNull() || image.width() <= widest) return resource;
    return image.scaledToWidth(widest, Qt::SmoothTransformation);
}

int HelpView::anchorBlock(const QString& anchor) const {
    for (auto block = document()->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().anchorNames().contains(anchor)) return block.blockNumber();
    return -1;
}

HelpBrowser::HelpBrowser(QWidget* parent) : QWidget(parent, Qt::Window) {
    setObjectName("helpBrowser");
    setWindowTitle(tr("NVVM Playground Help"));
    resize(900, 760);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* bar = new QToolBar(this);
    view_ = new HelpView(this);
    back_ = bar->addAction(QIcon::fromTheme("go-previous"), tr("Back"), view_, &QTextBrowser::backward);
    back_->setShortcut(QKeySequence::Back);
    forward_ = bar->addAction(QIcon::fromTheme("go-next"), tr("Forward"), view_, &QTextBrowser::forward);
    forward_->setShortcut(QKeySequence::Forward);
    home_ = bar->addAction(QIcon::fromTheme("go-home"), tr("Contents"), this,
                           [this] { open(pageUrl(guideEntries().front().page)); });
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    back_->setEnabled(false);
    forward_->setEnabled(false);
    connect(view_, &QTextBrowser::backwardAvailable, back_, &QAction::setEnabled);
    connect(view_, &QTextBrowser::forwardAvailable, forward_, &QAction::setEnabled);
    connect(view_, &QTextBrowser::sourceChanged, this, [this] {
        const auto title = view_->documentTitle();
        const auto heading = view_->document()->begin().text();
        setWindowTitle(tr("%1 — NVVM Playground Help").arg(title.isEmpty() ? heading : title));
    });
    layout->addWidget(bar);
    layout->addWidget(view_);
}

HelpBrowser* HelpBrowser::of(QWidget* window) {
    if (auto* browser = window->findChild<HelpBrowser*>(QString(), Qt::FindDirectChildrenOnly)) return browser;
    return new HelpBrowser(window);
}

void HelpBrowser::open(const QUrl& page) {
    show();
    raise();
    activateWindow();
    if (page.isEmpty()) return;
    view_->setSource(page);
    // A page already shown at this address is not read again: go to the anchor all the same.
    if (!page.fragment().isEmpty()) view_->scrollToHeading(page.fragment());
}

}  // namespace nvpg::gui::help
