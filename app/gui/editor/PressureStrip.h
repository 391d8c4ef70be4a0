#pragma once

#include <functional>
#include <vector>

#include <QPointer>
#include <QString>
#include <QWidget>

class QsciScintilla;

namespace nvpg::gui {

// The register-pressure strip: a narrow margin of an editor or output pane in which each line
// with a live-register figure has a heat colour, scaled to the kernel's register count (cool for
// few, red for as many as it has), and its figure on hover. It paints the lines on screen only, so
// a long text costs nothing more. Display only: the figures come from core (pipeline::LiveFigures).
class PressureStrip : public QWidget {
    Q_OBJECT

public:
    static constexpr int kMargin = 4;  // the editor margin it takes (0-2 are numbers, symbols, folds)

    explicit PressureStrip(QsciScintilla* editor);

    // Figures by 1-based line (index = line - 1): the general registers live there, -1 for none;
    // `scale`: the count that is drawn red (the kernel's registers). `tip` gives a line's hover
    // text (line, figure). Empty figures hide the strip and free its margin.
    void setFigures(std::vector<int> figures, int scale, std::function<QString(int line, int figure)> tip = {});
    void clear();
    // Lines (1-based) that read or write local memory: a dark tick at the strip's edge.
    void setMarks(std::vector<int> lines);
    const std::vector<int>& marks() const { return marks_; }
    // For tests and hovers: a 1-based line's figure, -1 for none; its colour.
    int figureOf(int line) const;
    QColor colourOf(int figure) const;
    bool isShown() const { return !figures_.empty() || !marks_.empty(); }
    const std::vector<int>& figures() const { return figures_; }

    static PressureStrip* of(QsciScintilla* editor);  // the editor's strip, made on first use

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void place();
    void refreshShown();
    int lineAt(int y) const;  // 1-based; 0 for none

    QPointer<QsciScintilla> editor_;
    std::vector<int> figures_;
    std::vector<int> marks_;  // sorted
    int scale_ = 1;
    std::function<QString(int, int)> tip_;
};

}  // namespace nvpg::gui
