#pragma once
// Heading anchors as GitHub makes them, so that a link written for the repository's pages
// (`toolkits.md#where-the-cuda-libraries-come-from`) lands on the same heading in the app.

#include <QString>
#include <QStringList>

class QTextDocument;

namespace nvpg::gui::help {

// GitHub's slug of a heading's text as it reads: lower case, every character that is not a
// letter, digit, space, '-' or '_' dropped, spaces made '-'. "Workspaces (.nvpg)" gives
// "workspaces-nvpg".
QString githubSlug(const QString& headingText);

// A Markdown heading line's text as it reads ("## `nvpg compare`" gives "nvpg compare"): inline
// code marks, emphasis and link targets removed. Empty for a line that is no ATX heading.
QString markdownHeadingText(const QString& line);

// The anchors of a Markdown page's headings, in order, a repeated one numbered as GitHub does
// ("notes", "notes-1"); fenced code blocks are skipped.
QStringList markdownAnchors(const QString& markdown);

// Gives every heading block of a document read from Markdown its GitHub anchor (Qt's Markdown
// reader makes none), so that QTextBrowser::scrollToAnchor finds it. Returns the anchors made.
QStringList addHeadingAnchors(QTextDocument* document);

}  // namespace nvpg::gui::help
