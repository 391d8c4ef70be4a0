#include "gui/help/Anchors.h"

#include <QHash>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

namespace nvpg::gui::help {

namespace {

// "notes" twice on a page: the second is "notes-1", as GitHub numbers them.
QString numbered(QHash<QString, int>& seen, const QString& slug) {
    const int n = seen.value(slug, 0);
    seen[slug] = n + 1;
    return n == 0 ? slug : slug + '-' + QString::number(n);
}

}  // namespace

QString githubSlug(const QString& headingText) {
    QString slug;
    for (const QChar c : headingText.trimmed().toLower()) {
        if (c.isLetterOrNumber() || c == '-' || c == '_')
            slug += c;
        else if (c == ' ')
            slug += '-';
    }
    return slug;
}

QString markdownHeadingText(const QString& line) {
    static const QRegularExpression heading(R"(^ {0,3}#{1,6}[ \t]+(.*?)[ \t]*#*[ \t]*$)");
    const auto m = heading.match(line);
    if (!m.hasMatch()) return {};
    auto text = m.captured(1);
    static const QRegularExpression link(R"(!?\[([^\]]*)\]\([^)]*\))");
    text.replace(link, "\\1");
    text.remove('`');
    static const QRegularExpression emphasis(R"((\*\*|__|\*|_)(\S(?:.*?\S)?)\1)");
    text.replace(emphasis, "\\2");
    return text;
}

QStringList markdownAnchors(const QString& markdown) {
    QStringList anchors;
    QHash<QString, int> seen;
    bool fenced = false;
    for (const auto& line : markdown.split('\n')) {
        if (line.trimmed().startsWith("```")) {
            fenced = !fenced;
            continue;
        }
        if (fenced) continue;
        const auto text = markdownHeadingText(line);
        if (!text.isEmpty()) anchors << numbered(seen, githubSlug(text));
    }
    return anchors;
}

QStringList addHeadingAnchors(QTextDocument* document) {
    QStringList anchors;
    QHash<QString, int> seen;
    for (auto block = document->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0 || block.length() <= 1) continue;
        const auto anchor = numbered(seen, githubSlug(block.text()));
        QTextCursor cursor(block);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        QTextCharFormat format;
        format.setAnchor(true);
        format.setAnchorNames({anchor});
        cursor.mergeCharFormat(format);
        anchors << anchor;
    }
    return anchors;
}

}  // namespace nvpg::gui::help
