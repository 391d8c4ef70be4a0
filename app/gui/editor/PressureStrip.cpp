#include "gui/editor/PressureStrip.h"

#include <algorithm>

#include <Qsci/qsciscintilla.h>
#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>

namespace nvpg::gui {

namespace {

constexpr int kWidth = 7;

long send(QsciScintilla* e, unsigned msg, unsigned long w = 0, long l = 0) {
    return e->SendScintilla(msg, w, l);
}

}  // namespace

PressureStrip::PressureStrip(QsciScintilla* editor) : QWidget(editor->viewport()), editor_(editor) {
    setObjectName(QStringLiteral("pressureStrip"));
    setAttribute(Qt::WA_OpaquePaintEvent, false);
    setMouseTracking(true);
    hide();
    editor->viewport()->installEventFilter(this);
    // Scrolling and zoom move the lines under the strip.
    connect(editor->verticalScrollBar(), &QScrollBar::valueChanged, this, [this] { update(); });
    connect(editor, &QsciScintilla::SCN_ZOOM, this, [this] { update(); });
    connect(editor, &QsciScintilla::SCN_UPDATEUI, this, [this](int) {
        place();
        update();
    });
}

PressureStrip* PressureStrip::of(QsciScintilla* editor) {
    if (auto* existing = editor->viewport()->findChild<PressureStrip*>(QString(), Qt::FindDirectChildrenOnly))
        return existing;
    return new PressureStrip(editor);
}

void PressureStrip::setFigures(std::vector<int> figures, int scale, std::function<QString(int, int)> tip) {
    const bool any = std::any_of(figures.begin(), figures.end(), [](int f) { return f >= 0; });
    figures_ = any ? std::move(figures) : std::vector<int>{};
    scale_ = std::max(scale, 1);
    tip_ = std::move(tip);
    refreshShown();
}

void PressureStrip::setMarks(std::vector<int> lines) {
    std::sort(lines.begin(), lines.end());
    marks_ = std::move(lines);
    refreshShown();
}

void PressureStrip::clear() {
    figures_.clear();
    marks_.clear();
    tip_ = {};
    refreshShown();
}

void PressureStrip::refreshShown() {
    const bool shown = !figures_.empty() || !marks_.empty();
    if (editor_ && editor_->marginWidth(kMargin) != (shown ? kWidth : 0))
        editor_->setMarginWidth(kMargin, shown ? kWidth : 0);
    setVisible(shown);
    if (shown) {
        place();
        update();
    }
}

int PressureStrip::figureOf(int line) const {
    return line >= 1 && size_t(line) <= figures_.size() ? figures_[size_t(line) - 1] : -1;
}

QColor PressureStrip::colourOf(int figure) const {
    // Blue (few live) through green and yellow to red (as many as the kernel has).
    const double t = std::clamp(double(figure) / double(scale_), 0.0, 1.0);
    return QColor::fromHsvF(float((1.0 - t) * 0.66), 0.85f, 0.95f);
}

void PressureStrip::place() {
    if (!editor_) return;
    int x = 0;
    for (int m = 0; m < kMargin; ++m) x += editor_->marginWidth(m);
    setGeometry(x, 0, kWidth, editor_->viewport()->height());
}

int PressureStrip::lineAt(int y) const {
    if (!editor_) return 0;
    const long pos = send(editor_, QsciScintillaBase::SCI_POSITIONFROMPOINT, 0, y);
    if (pos < 0) return 0;
    return int(send(editor_, QsciScintillaBase::SCI_LINEFROMPOSITION, static_cast<unsigned long>(pos))) + 1;
}

void PressureStrip::paintEvent(QPaintEvent*) {
    if (!editor_ || figures_.empty()) return;
    QPainter p(this);
    const int firstVisible = int(send(editor_, QsciScintillaBase::SCI_GETFIRSTVISIBLELINE));
    int line = int(send(editor_, QsciScintillaBase::SCI_DOCLINEFROMVISIBLE, static_cast<unsigned long>(firstVisible)));
    const int lines = editor_->lines();
    for (; line < lines; ++line) {
        const long start = send(editor_, QsciScintillaBase::SCI_POSITIONFROMLINE, static_cast<unsigned long>(line));
        const int y = int(send(editor_, QsciScintillaBase::SCI_POINTYFROMPOSITION, 0, start));
        if (y > height()) break;
        const int figure = figureOf(line + 1);
        const bool local = std::binary_search(marks_.begin(), marks_.end(), line + 1);
        if (figure < 0 && !local) continue;
        const int h = int(send(editor_, QsciScintillaBase::SCI_TEXTHEIGHT, static_cast<unsigned long>(line)));
        if (figure >= 0) p.fillRect(QRect(0, y, width(), h), colourOf(figure));
        if (local) p.fillRect(QRect(0, y, 3, h), QColor(0x20, 0x20, 0x20));
    }
}

bool PressureStrip::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int line = lineAt(help->pos().y());
        const int figure = figureOf(line);
        const bool local = std::binary_search(marks_.begin(), marks_.end(), line);
        QString text;
        if (figure >= 0)
            text = tip_ ? tip_(line, figure)
                        : tr("%1 registers live at line %2 (of %3 the kernel has)").arg(figure).arg(line).arg(scale_);
        if (local)
            text += (text.isEmpty() ? QString() : QStringLiteral("\n")) +
                    tr("Local memory is read or written here (spills, or an array kept in local memory).");
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

bool PressureStrip::eventFilter(QObject* watched, QEvent* event) {
    if (editor_ && watched == editor_->viewport() && event->type() == QEvent::Resize) place();
    return QWidget::eventFilter(watched, event);
}

}  // namespace nvpg::gui
