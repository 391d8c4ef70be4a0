#pragma once

#include <string_view>

#include <Qsci/qscilexercustom.h>
#include <Qsci/qsciscintilla.h>
#include <QByteArray>
#include <QColor>
#include <QFont>
#include <QFontDatabase>

#include <chrono>
#include <initializer_list>
#include <optional>
#include <vector>

namespace nvpg::gui::lexer_support {

// The common half of both custom lexers: Scintilla asks for [start, end) with `start` at a line
// start. Whole lines up to the one holding end-1 are styled from one copy of their bytes, each
// line from the state the previous one left in Scintilla's line state, and the styles go back in
// a single SCI_SETSTYLINGEX rather than one message per token.
//   perLine(std::string_view text, char* styles, int& state) -> fold level
// `text` holds no line end; line ends are given style 0. Returns the number of bytes styled.
// With a `budget`, styling stops at the first line end after that much time: the lines after it
// keep the styles they had, and Scintilla asks for them again (see LineLexer::styleText).
template <class PerLine>
long styleLines(QsciLexerCustom& lexer, int start, int end, PerLine perLine,
                std::optional<std::chrono::steady_clock::duration> budget = std::nullopt) {
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
    const auto deadline = budget ? std::chrono::steady_clock::now() + *budget : std::chrono::steady_clock::time_point{};
    for (long line = firstLine; line <= lastLine && i < n; ++line) {
        if (budget && line > firstLine && (line - firstLine) % 64 == 0 && std::chrono::steady_clock::now() > deadline)
            break;
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
    ed->SendScintilla(B::SCI_SETSTYLINGEX, static_cast<uintptr_t>(i), styles.constData());
    return i;
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
    // Where the editor styles in idle time (a long module: ModuleEditor::kIdleStylingLines),
    // Scintilla hands out up to 20 ms of lines at a time to a paint or an idle turn, which ask
    // for no more than the screen, and the window stands still that long. A
    // few milliseconds at a time instead: Scintilla asks again for the rest in the next turn,
    // and lines not yet restyled keep the styles they had. A request past the screen (a
    // SCI_COLOURISE of the whole text) is served whole.
    static constexpr std::chrono::milliseconds kIdleBudget{4};
    void styleText(int start, int end) override {
        const long styled = lexer_support::styleLines(
            *this, start, end,
            [this](std::string_view text, char* styles, int& state) { return styleOneLine(text, styles, state); },
            forTheScreen(end) ? std::optional<std::chrono::steady_clock::duration>(stepBudget_) : std::nullopt);
        styledBytes_ += styled;
        if (styled > 0 && start + styled < end && editor() && start + styled < editor()->length()) ++stepsCut_;
    }
    long styledBytes() const { return styledBytes_; }
    long stepsCut() const { return stepsCut_; }  // requests left for the next turn, for tests
    // The time a step of styling for the screen may take (kIdleBudget); 0 for tests: 64 lines.
    void setStepBudget(std::chrono::steady_clock::duration budget) { stepBudget_ = budget; }

protected:
    // One line's styles (one per byte of `text`, which holds no line end), from the state the
    // previous line left in `state`, which it updates for the next; returns the line's fold level.
    virtual int styleOneLine(std::string_view text, char* styles, int& state) const = 0;

private:
    // Whether styling up to `end` is a paint's or an idle turn's, in an editor that styles in idle.
    bool forTheScreen(int end) const {
        QsciScintilla* ed = editor();
        using B = QsciScintillaBase;
        if (!ed || ed->SendScintilla(B::SCI_GETIDLESTYLING) == B::SC_IDLESTYLING_NONE) return false;
        const long lastShown = ed->SendScintilla(B::SCI_GETFIRSTVISIBLELINE) + ed->SendScintilla(B::SCI_LINESONSCREEN);
        const long afterScreen = ed->SendScintilla(B::SCI_DOCLINEFROMVISIBLE, lastShown + 2);
        return end <= ed->SendScintilla(B::SCI_GETLINEENDPOSITION, afterScreen);
    }

    QFont font_;
    int commentStyle_;
    std::vector<int> boldStyles_;
    long styledBytes_ = 0;
    long stepsCut_ = 0;
    std::chrono::steady_clock::duration stepBudget_ = kIdleBudget;
};

}  // namespace nvpg::gui
