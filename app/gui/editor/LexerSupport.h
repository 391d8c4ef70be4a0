#pragma once

#include <string_view>

#include <Qsci/qscilexercustom.h>
#include <Qsci/qsciscintilla.h>
#include <QByteArray>
#include <QColor>
#include <QFont>
#include <QFontDatabase>

#include <initializer_list>
#include <vector>

namespace nvpg::gui::lexer_support {

// The common half of both custom lexers: Scintilla asks for [start, end) with `start` at a line
// start. Whole lines up to the one holding end-1 are styled from one copy of their bytes, each
// line from the state the previous one left in Scintilla's line state, and the styles go back in
// a single SCI_SETSTYLINGEX rather than one message per token.
//   perLine(std::string_view text, char* styles, int& state) -> fold level
// `text` holds no line end; line ends are given style 0. Returns the number of bytes styled.
template <class PerLine>
long styleLines(QsciLexerCustom& lexer, int start, int end, PerLine perLine) {
    QsciScintilla* ed = lexer.editor();
    if (!ed || end <= start) return 0;
    using B = QsciScintillaBase;
    const long length = ed->SendScintilla(B::SCI_GETLENGTH);
    if (end > length) end = static_cast<int>(length);
    const long firstLine = ed->SendScintilla(B::SCI_LINEFROMPOSITION, start);
    const long lastLine = ed->SendScintilla(B::SCI_LINEFROMPOSITION, end - 1);
    const long lineCount = ed->SendScintilla(B::SCI_GETLINECOUNT);
    const long rangeStart = ed->SendScintilla(B::SCI_POSITIONFROMLINE, firstLine);
    const long rangeEnd = lastLine + 1 < lineCount ? ed->SendScintilla(B::SCI_POSITIONFROMLINE, lastLine + 1) : length;
    if (rangeEnd <= rangeStart) return 0;

    QByteArray text(static_cast<int>(rangeEnd - rangeStart) + 1, '\0');
    ed->SendScintilla(B::SCI_GETTEXTRANGE, rangeStart, rangeEnd, text.data());
    QByteArray styles(static_cast<int>(rangeEnd - rangeStart), '\0');

    int state = firstLine > 0 ? static_cast<int>(ed->SendScintilla(B::SCI_GETLINESTATE, firstLine - 1)) : 0;
    const char* p = text.constData();
    const int n = static_cast<int>(rangeEnd - rangeStart);
    int i = 0;
    for (long line = firstLine; line <= lastLine && i < n; ++line) {
        int j = i;
        while (j < n && p[j] != '\n' && p[j] != '\r') ++j;
        const int level = perLine(std::string_view(p + i, j - i), styles.data() + i, state);
        // Line ends: \n, \r or \r\n.
        if (j < n && p[j] == '\r') ++j;
        if (j < n && p[j] == '\n') ++j;
        ed->SendScintilla(B::SCI_SETLINESTATE, line, state);
        ed->SendScintilla(B::SCI_SETFOLDLEVEL, line, level);
        i = j;
    }
    lexer.startStyling(static_cast<int>(rangeStart));
    ed->SendScintilla(B::SCI_SETSTYLINGEX, static_cast<uintptr_t>(n), styles.constData());
    return n;
}

inline bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
inline bool isAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
inline bool isAlnum(char c) {
    return isAlpha(c) || isDigit(c);
}
inline bool isHex(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
inline bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

}  // namespace nvpg::gui::lexer_support

namespace nvpg::gui {

// What both custom lexers share: the system's fixed font (comments italic, the styles a lexer
// names bold), white paper, and styling whole lines through lexer_support::styleLines, with the
// bytes styled counted so that tests can see that an edit restyles a window around it and not
// the whole text. A lexer says how one line is styled.
class LineLexer : public QsciLexerCustom {
public:
    LineLexer(QObject* parent, int commentStyle, std::initializer_list<int> boldStyles)
        : QsciLexerCustom(parent),
          font_(QFontDatabase::systemFont(QFontDatabase::FixedFont)),
          commentStyle_(commentStyle),
          boldStyles_(boldStyles) {}

    QColor defaultPaper(int) const override { return QColor(Qt::white); }
    QFont defaultFont(int style) const override {
        QFont f = font_;
        if (style == commentStyle_) f.setItalic(true);
        for (int bold : boldStyles_)
            if (style == bold) f.setBold(true);
        return f;
    }
    void styleText(int start, int end) override {
        styledBytes_ += lexer_support::styleLines(
            *this, start, end,
            [this](std::string_view text, char* styles, int& state) { return styleOneLine(text, styles, state); });
    }
    long styledBytes() const { return styledBytes_; }

protected:
    // One line's styles (one per byte of `text`, which holds no line end), from the state the
    // previous line left in `state`, which it updates for the next; returns the line's fold level.
    virtual int styleOneLine(std::string_view text, char* styles, int& state) const = 0;

private:
    QFont font_;
    int commentStyle_;
    std::vector<int> boldStyles_;
    long styledBytes_ = 0;
};

}  // namespace nvpg::gui
