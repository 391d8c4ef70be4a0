#pragma once
// Help ▸ Guide: the documentation's pages that the Help menu lists, and where they are: installed
// beside the app (share/doc/nvvm-playground), or the source tree's when the app runs from its
// build tree.

#include <QString>
#include <QUrl>
#include <vector>

class QMenu;
class QWidget;

namespace nvpg::gui::help {

struct GuideEntry {
    QString title;   // the menu's text: "Guide: A Short Tour"
    QString page;    // under the documentation's folder: "docs/user/tour.md"
    QString anchor;  // a heading's GitHub anchor on it
};

// The Help menu's guide entries, in menu order.
const std::vector<GuideEntry>& guideEntries();

// The folder that holds README.md and docs/: share/doc/nvvm-playground under the install prefix,
// else the source tree for a program run from its build tree. Empty when neither holds README.md.
QString documentationRoot();

// The file URL of `page` (under documentationRoot()) with `anchor` as its fragment; empty when
// the page is not there.
QUrl pageUrl(const QString& page, const QString& anchor = {});

// Adds the guide entries to `menu`: each opens its page at its heading in `window`'s
// HelpBrowser. An entry whose page is missing is disabled, its tooltip saying which file and
// where it was looked for.
void addGuideEntries(QMenu* menu, QWidget* window);

}  // namespace nvpg::gui::help
