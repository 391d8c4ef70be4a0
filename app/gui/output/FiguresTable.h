#pragma once

#include <string>
#include <vector>

#include <QStringList>
#include <QTableWidget>

#include "core/pipeline/Summary.h"

class QLabel;

namespace nvpg::gui {

// A pane's per-kernel figures (registers, spills, ...) under its header: a compact read-only
// table, as tall as its rows up to a few (then it scrolls), and the caption over it that says
// where they come from. The first column holds kernel names: at most kNameColumnChars wide, cut
// in the middle (the tooltip has it whole), and a person can drag it wider; the figures take
// their contents' width, and a table wider than its pane scrolls rather than widening the window.
// Hidden while it has no rows (the caption while it has no text).
class FiguresTable : public QTableWidget {
public:
    static constexpr int kNameColumnChars = 36;

    // `caption` is the label over the table, laid out by the pane.
    FiguresTable(QWidget* parent, const QString& objectName, QLabel* caption);

    // Shows `figures`; the rows' first cells are symbols, shown as SymbolNames says with
    // `suffixes` (by row) after them.
    void fill(const pipeline::FiguresTable& figures, const QStringList& suffixes = {});
    // The same, unless the table shows these very figures already (the PTX part and the whole
    // reply of one compile have the same).
    void fillIfChanged(const pipeline::FiguresTable& figures);
    // The next fillIfChanged fills the table whatever it shows (other names, another font).
    void forget() { shown_.clear(); }
    // Rows as tall as the font's lines, after a zoom.
    void followFont();
    // The name column's width: its contents', at most kNameColumnChars, and short of the visible
    // width by its first figure. Done again whenever the visible width changes (the splitter, the
    // window, a dock): the cap set when the rows came in was for the width the table had then.
    void capNameColumn();

private:
    QLabel* caption_;
    std::vector<std::string> shown_;  // fillIfChanged's figures, flattened; empty: refill
};

}  // namespace nvpg::gui
