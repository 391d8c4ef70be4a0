#pragma once

#include <string>
#include <vector>

#include <QObject>
#include <QPoint>
#include <QString>
#include <QTimer>

#include "core/inspect/Docs.h"

class QLabel;
class QWidget;
class QsciScintilla;

namespace nvpg::gui {

// Hover docs on one editor or output pane: the mouse rests on a word (Scintilla's dwell), core
// says which word that is and what it means (inspect::wordAt, Docs::explain), and a small popup
// under the word shows inspect::formatExplanation's text with its link clickable. The pane only
// displays: which words have entries, and their text, are core's. Nothing shows for a word
// without an entry. The popup stays while the mouse moves onto it (to click the link) and goes
// when the mouse leaves it, on a key, a scroll or an edit.
class HoverDocs : public QObject {
    Q_OBJECT

public:
    // How long the mouse rests before the popup shows: as long as a tooltip waits.
    static constexpr int kDwellMs = 500;

    // Gives `pane` hover docs for words read in `context`; the helper is the pane's child.
    static HoverDocs* install(QsciScintilla* pane, inspect::DocContext context);
    // The helper install() gave `pane`; null when it has none.
    static HoverDocs* of(const QsciScintilla* pane);

    // The popup's rich text for `explanations`: core's text, escaped, first lines bold, links live.
    static QString html(const std::vector<inspect::Explanation>& explanations);
    // The same popup for a view's info button: opened under `anchor` by a click, it stays until a
    // click elsewhere or Esc (a popup window). The entries of `key` in `context`; null when none.
    static QLabel* popover(QWidget* anchor, const std::string& key, inspect::DocContext context);

    inspect::DocContext context() const { return context_; }
    // What a hover on the character at byte `position` of the pane shows, as plain text (the
    // explanations of its word, in core's form); empty when the word has no entry.
    QString textAt(int position) const;
    // The popup while it shows, else null; its text as shown (plain, links as their address).
    QLabel* popup() const;
    QString shownText() const;

public slots:
    // What the dwell does: the popup for the word at `position`, under it; hidden when none.
    void showAt(int position);
    void hide();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    HoverDocs(QsciScintilla* pane, inspect::DocContext context);
    void onDwellStart(int position, int x, int y);
    void onDwellEnd();

    QsciScintilla* pane_;
    inspect::DocContext context_;
    QLabel* popup_ = nullptr;  // made on the first hover that shows something
    QString shown_;
    QTimer hideTimer_;  // the mouse left the word: the popup goes unless it reached the popup
};

}  // namespace nvpg::gui
