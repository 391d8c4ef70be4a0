#include "gui/help/Guide.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMenu>

#include "core/support/Installed.h"
#include "gui/help/HelpBrowser.h"

namespace nvpg::gui::help {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("nvpg::gui::help::Guide", text);
}

}  // namespace

const std::vector<GuideEntry>& guideEntries() {
    static const std::vector<GuideEntry> entries = {
        {tr("Guide: Contents"), "docs/user/index.md", "the-documentation"},
        {tr("Guide: A Short Tour"), "docs/user/tour.md", "a-short-tour-of-the-app"},
        {tr("Guide: nvpg"), "docs/cli/index.md", "nvpg"},
        {tr("Guide: Workspaces"), "docs/user/workspaces.md", "workspaces-nvpg"},
        {tr("Guide: Where the CUDA Libraries Come From"), "docs/user/toolkits.md",
         "where-the-cuda-libraries-come-from"},
        {tr("Guide: Things libNVVM Does"), "docs/user/libnvvm.md",
         "things-libnvvm-does-that-you-should-know-checked-on-cuda-130"},
        {tr("Guide: Known Pitfalls"), "docs/user/libnvvm.md", "known-pitfalls-a-hint-and-a-fix"},
        {tr("Guide: Lessons"), "docs/user/lessons.md", "lessons-a-course-that-checks-itself"},
        {tr("Guide: The Engine and Crash Safety"), "docs/user/engine.md",
         "the-engine-process-broken-input-does-not-take-you-down"},
        {tr("Guide: Troubleshooting"), "docs/user/troubleshooting.md", "troubleshooting"},
    };
    return entries;
}

QString documentationRoot() {
    const auto readme = support::packageFile("share/doc/nvvm-playground/README.md", "README.md");
    if (readme.empty()) return {};
    return QFileInfo(QString::fromStdString(readme.parent_path().string())).canonicalFilePath();
}

QUrl pageUrl(const QString& page, const QString& anchor) {
    const auto root = documentationRoot();
    if (root.isEmpty()) return {};
    const QFileInfo file(QDir(root).filePath(page));
    if (!file.isFile()) return {};
    auto url = QUrl::fromLocalFile(file.canonicalFilePath());
    if (!anchor.isEmpty()) url.setFragment(anchor);
    return url;
}

void addGuideEntries(QMenu* menu, QWidget* window) {
    // A disabled entry says why in its tooltip, which a menu shows only when asked to.
    menu->setToolTipsVisible(true);
    const auto root = documentationRoot();
    for (const auto& entry : guideEntries()) {
        const auto url = pageUrl(entry.page, entry.anchor);
        auto* a = menu->addAction(entry.title, window, [window, url] { HelpBrowser::of(window)->open(url); });
        a->setData(url);
        if (url.isEmpty()) {
            a->setEnabled(false);
            const auto installed =
                QString::fromStdString((support::installPrefix() / "share/doc/nvvm-playground").string());
            a->setToolTip(
                root.isEmpty()
                    ? tr("The documentation is not installed beside the app (no README.md in %1)").arg(installed)
                    : tr("%1 is missing from the documentation in %2").arg(entry.page, root));
        } else {
            a->setToolTip(entry.page + '#' + entry.anchor);
        }
    }
}

}  // namespace nvpg::gui::help
