#pragma once

#include <QString>
#include <QWidget>

#include "core/pipeline/CompileResult.h"

class QLabel;
class QStackedWidget;
class QsciScintilla;

namespace nvpg::gui {

// The output view's second page: the unified diff of a compile's PTX and its LTO-linked PTX
// under a header that counts the lines and hunks, removed and added lines in whole-line
// colours, or a notice saying why there is no diff to show.
class DiffPage : public QWidget {
    Q_OBJECT

public:
    explicit DiffPage(QWidget* parent = nullptr);

    // Compares `result`'s PTX with its linked PTX (null: nothing compiled). `ltoNotice` is why
    // the LTO pane has no text, said under the notice when there is no linked PTX.
    void compare(const pipeline::CompileResult* result, const QString& ltoNotice);
    // Empties the diff pane (what the page says stays until the next compare).
    void clearText();

    QString header() const;
    QString text() const;
    QsciScintilla* editor() const { return edit_; }

private:
    void showNotice(const QString& header, const QString& text);

    QLabel* header_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    QLabel* notice_ = nullptr;
    QsciScintilla* edit_ = nullptr;
};

}  // namespace nvpg::gui
