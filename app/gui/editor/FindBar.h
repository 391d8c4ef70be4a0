#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QToolButton;
class QsciScintilla;
class QWidget;

namespace nvpg::gui {

// The find / replace bar shown under an editor. It works on whichever editor it is attached
// to (the main window re-attaches it when the current module changes and binds Ctrl+F and
// Ctrl+H to showFind / showReplace). Searches wrap around; Enter finds the next match,
// Shift+Enter the previous one, Escape closes the bar. Regular expressions are ECMAScript
// (Scintilla's C++11 mode), and a replacement may use \1-style groups.
class FindBar : public QWidget {
    Q_OBJECT

public:
    explicit FindBar(QWidget* parent = nullptr);

    void attach(QsciScintilla* editor);
    QsciScintilla* editor() const { return editor_; }

    void setFindText(const QString& text);
    QString findText() const;
    void setReplaceText(const QString& text);
    void setMatchCase(bool on);
    void setRegex(bool on);
    // What the last action found or did ("3 replaced", "no match"), as shown in the bar.
    QString status() const;

public slots:
    void showFind();
    void showReplace();
    bool findNext();
    bool findPrevious();
    // Replaces the selection if it is a match, then selects the next match.
    bool replaceCurrent();
    int replaceAll();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    int searchFlags() const;
    // Searches [from, to) (backwards when from > to); returns the match start (the match is
    // then Scintilla's target), -1 for none, -2 for an invalid regular expression.
    long search(long from, long to);
    bool find(bool forward);
    void setStatus(const QString& text, bool failed = false);
    void open(bool withReplace);

    QPointer<QsciScintilla> editor_;
    QLineEdit* findEdit_ = nullptr;
    QLineEdit* replaceEdit_ = nullptr;
    QWidget* replaceRow_ = nullptr;
    QToolButton* matchCase_ = nullptr;
    QToolButton* regex_ = nullptr;
    QLabel* status_ = nullptr;
};

}  // namespace nvpg::gui
