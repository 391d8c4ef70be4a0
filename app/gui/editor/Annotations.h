#pragma once

#include <functional>
#include <map>
#include <optional>
#include <vector>

#include <Qsci/qscistyledtext.h>
#include <QList>
#include <QString>
#include <QTimer>

#include "core/nvvm/Diagnostic.h"

class QsciScintilla;

namespace nvpg::gui {

// Annotations do not wrap: long messages (the LTO hint carries a whole line of IR) are broken
// at spaces so that they stay readable in a pane of ordinary width, and cut after `maxLines`: the
// LTO hint of an 85-kernel module is 5.7 KB, 60 lines under each of its 85 kernels, and wrapping
// all of them held the UI thread 60 ms per reply. Problems has the whole text.
QString wrapForAnnotation(const QString& text, int width = 96, int maxLines = 12);

// The boxes under an editor's lines (Scintilla annotations): the module's problems, each message
// in its severity's colours, and the line map's notes in a quieter style after them. A box
// pushes the code below it down, so problems given while the user types wait until the typing
// pauses and no completion list is open, and land where their lines have gone by then.
class Annotations {
public:
    // Typing within this many ms of the last key holds new boxes back.
    static constexpr int kPauseMs = 1000;

    struct Problem {
        nvvm::Severity severity;
        QString message;
    };

    // `sinceKey`: ms since the user's last key in `editor` (kPauseMs when there was none).
    Annotations(QsciScintilla* editor, std::function<qint64()> sinceKey);

    // The problems' boxes, per 0-based line in order: shown now, or with `wait` once the typing
    // pauses. Boxes already shown stay until then.
    void setProblems(const std::map<int, std::vector<Problem>>& problems, bool wait);
    // Drops the problems still waiting. Their lines carry a marker; `alsoDelete` is the caller's
    // markers to delete in the same walk over the lines (a walk reads every line of the module).
    void dropPending(unsigned alsoDelete = 0);
    // Removes every problem's box and stops waiting (after dropPending); the map notes stay.
    void clearProblems();
    // Notes from the line map under their lines (0-based line -> text); a line with both shows
    // the problems first. Replaces the earlier notes.
    void setMapNotes(const std::map<int, QString>& notes);

private:
    struct Note {
        int markerHandle;  // follows its line through edits made while it waits
        int line;          // where it was made
        QString text;
        int style;
    };
    void showPending();
    void annotateLine(int line);  // the problems shown and the map note of one line
    // Clears the boxes of the lines that have one, and only those: QScintilla's
    // clearAnnotations() touches each line of the module (with a notification each), ~50 ms at
    // 200,000 lines, after every compile.
    void clearAll();

    QsciScintilla* editor_;
    std::function<qint64()> sinceKey_;
    bool stylesSet_ = false;  // the error, warning and note boxes' styles
    int pendingMarker_ = -1;
    int annotatedMarker_ = -1;  // on every line that has a box (clearAll)
    std::vector<Note> pending_;
    bool notesPending_ = false;
    QTimer timer_;
    std::map<int, QList<QsciStyledText>> shownProblems_;  // per line, as last shown
    std::map<int, QString> mapNotes_;
    std::optional<bool> mapNoteStyleDark_;  // the palette the map notes' style was set for
};

}  // namespace nvpg::gui
