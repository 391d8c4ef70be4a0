#include "gui/output/Pane.h"

#include <algorithm>

#include <Qsci/qscilexer.h>
#include <Qsci/qsciscintilla.h>
#include <QFontDatabase>
#include <QFontInfo>
#include <QLabel>

namespace nvpg::gui {

QFont monoFont() {
    QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    f.setStyleHint(QFont::Monospace);
    return f;
}

void useMonoFont(QsciLexer* lexer, const QFont& mono) {
    lexer->setDefaultFont(mono);
    for (int style = 0; style < 128; ++style) {
        if (lexer->description(style).isEmpty()) continue;
        const QFont had = lexer->font(style);
        if (QFontInfo(had).fixedPitch()) continue;
        QFont f = mono;
        f.setBold(had.bold());
        f.setItalic(had.italic());
        f.setUnderline(had.underline());
        lexer->setFont(f, style);
    }
}

QsciScintilla* makePane(QWidget* parent, QsciLexer* lexer, bool folding) {
    auto* e = new QsciScintilla(parent);
    const QFont mono = monoFont();
    e->setFont(mono);
    if (lexer) {
        lexer->setParent(e);
        useMonoFont(lexer, mono);
        e->setLexer(lexer);
    }
    e->setUtf8(true);
    e->setReadOnly(true);
    e->setWrapMode(QsciScintilla::WrapNone);
    // PTX is tab-indented (libNVVM's and nvJitLink's): at 8 columns a tab costs a projector's
    // screen a tenth of a pane. Display only: the text keeps its tabs, copies and exports too.
    e->setTabWidth(4);
    e->setCaretLineVisible(true);
    e->setMarginsFont(mono);
    e->setMarginType(0, QsciScintilla::NumberMargin);
    e->setMarginLineNumbers(0, true);
    e->setMarginWidth(0, QStringLiteral("0999"));
    e->setMarginWidth(1, 0);
    if (folding) e->setFolding(QsciScintilla::BoxedTreeFoldStyle, 2);
    return e;
}

void setPaneText(QsciScintilla* e, std::string_view utf8) {
    // SCI_GETCHARACTERPOINTER gives the document's own bytes, contiguous: nothing is copied.
    if (e->SendScintilla(QsciScintillaBase::SCI_GETLENGTH) == long(utf8.size())) {
        const auto* doc = reinterpret_cast<const char*>(e->SendScintilla(QsciScintillaBase::SCI_GETCHARACTERPOINTER));
        if (doc && std::string_view(doc, utf8.size()) == utf8) return;
    }
    const long visible = e->SendScintilla(QsciScintillaBase::SCI_GETFIRSTVISIBLELINE);
    const long firstLine = e->SendScintilla(QsciScintillaBase::SCI_DOCLINEFROMVISIBLE, visible);
    const long xOffset = e->SendScintilla(QsciScintillaBase::SCI_GETXOFFSET);
    int line = 0, index = 0;
    e->getCursorPosition(&line, &index);

    // Scintilla refuses to modify a read-only document, even through SCI_SETTEXT.
    e->setReadOnly(false);
    // CLEARALL and APPENDTEXT take a length: the bytes go in once, without a NUL-ended copy.
    e->SendScintilla(QsciScintillaBase::SCI_CLEARALL);
    if (!utf8.empty()) e->SendScintilla(QsciScintillaBase::SCI_APPENDTEXT, utf8.size(), utf8.data());
    e->setReadOnly(true);
    e->setModified(false);
    // Nobody undoes into a previous compile's output.
    e->SendScintilla(QsciScintillaBase::SCI_EMPTYUNDOBUFFER);

    const int lines = std::max(1, e->lines());
    int digits = 1;
    for (int n = lines; n >= 10; n /= 10) ++digits;
    e->setMarginWidth(0, QStringLiteral("0") + QString(std::max(digits, 3), QLatin1Char('9')));

    line = std::min(line, lines - 1);
    index = std::min(index, std::max(0, e->lineLength(line)));
    // SETEMPTYSELECTION, unlike setCursorPosition, does not scroll the caret into view.
    e->SendScintilla(QsciScintillaBase::SCI_SETEMPTYSELECTION, e->positionFromLineIndex(line, index));
    const long target = std::min<long>(firstLine, lines - 1);
    e->setFirstVisibleLine(int(e->SendScintilla(QsciScintillaBase::SCI_VISIBLEFROMDOCLINE, target)));
    e->SendScintilla(QsciScintillaBase::SCI_SETXOFFSET, xOffset);
}

void setPaneText(QsciScintilla* e, const QString& text) {
    const QByteArray utf8 = text.toUtf8();
    setPaneText(e, std::string_view(utf8.constData(), size_t(utf8.size())));
}

void neverWiden(QLabel* l) {
    l->setWordWrap(true);
    l->setSizePolicy(QSizePolicy::Ignored, l->sizePolicy().verticalPolicy());
}

QLabel* makeHeader(QWidget* parent, const QString& objectName) {
    auto* l = new QLabel(parent);
    l->setObjectName(objectName);
    neverWiden(l);
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setContentsMargins(4, 2, 4, 2);
    QFont f = l->font();
    f.setBold(true);
    l->setFont(f);
    return l;
}

QLabel* makeNotice(QWidget* parent, const QString& objectName) {
    auto* l = new QLabel(parent);
    l->setObjectName(objectName);
    neverWiden(l);
    l->setTextFormat(Qt::PlainText);
    l->setAlignment(Qt::AlignCenter);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setMargin(16);
    l->setForegroundRole(QPalette::PlaceholderText);
    return l;
}

}  // namespace nvpg::gui
