#pragma once

#include <string_view>

#include <QFont>
#include <QString>

class QLabel;
class QWidget;
class QsciLexer;
class QsciScintilla;

namespace nvpg::gui {

// The read-only text panes of the output (PTX, LTO, SASS, diffs), made and filled one way.
QFont monoFont();
// Columns of PTX operands must line up: a style in a proportional font gets the monospace one,
// keeping its weight and slant. Fonts the lexer already chose monospace stay.
void useMonoFont(QsciLexer* lexer, const QFont& mono);
// A read-only pane with line numbers, `lexer` (owned by the pane) and, when asked, folding.
QsciScintilla* makePane(QWidget* parent, QsciLexer* lexer, bool folding);
// Replaces a read-only pane's text. People compare PTX as they edit, so the view stays on the
// same lines (and column offset) rather than jumping to the top on every compile.
// The UTF-8 form takes the compile's bytes as they are: no QString on the way, and no copy of the
// pane's text to compare (a 50,000-line PTX costs milliseconds per conversion).
void setPaneText(QsciScintilla* e, std::string_view utf8);
void setPaneText(QsciScintilla* e, const QString& text);

// Labels whose text can hold kernel names or a libNVVM message: they wrap to the width they get
// and never ask for more (a word-wrapping label asks for its longest word: a mangled symbol).
void neverWiden(QLabel* l);
// The bold line over a pane that names it and its figures.
QLabel* makeHeader(QWidget* parent, const QString& objectName);
// What a pane shows in place of its text when it has none: why, centred and quiet.
QLabel* makeNotice(QWidget* parent, const QString& objectName);

}  // namespace nvpg::gui
