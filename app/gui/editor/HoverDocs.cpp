#include "gui/editor/HoverDocs.h"

#include <algorithm>
#include <string>

#include <Qsci/qsciscintilla.h>
#include <QApplication>
#include <QCursor>
#include <QDesktopServices>
#include <QEvent>
#include <QFontMetrics>
#include <QLabel>
#include <QRegularExpression>
#include <QScreen>
#include <QUrl>

namespace nvpg::gui {

namespace {

constexpr const char* kProperty = "nvpgHoverDocs";
// How many explanations one hover shows: a word rarely names more than one entry in its context.
constexpr size_t kMaxExplanations = 3;
constexpr int kPopupWidth = 560;

struct Hover {
    std::string word;
    long start = 0;  // the word's first byte in the pane
    std::vector<inspect::Explanation> explanations;
};

Hover hoverAt(const QsciScintilla* pane, int position, inspect::DocContext context) {
    Hover h;
    const long length = pane->SendScintilla(QsciScintillaBase::SCI_GETLENGTH);
    if (position < 0 || position >= length) return h;
    const long line = pane->SendScintilla(QsciScintillaBase::SCI_LINEFROMPOSITION, position);
    const long start = pane->SendScintilla(QsciScintillaBase::SCI_POSITIONFROMLINE, line);
    const long end = pane->SendScintilla(QsciScintillaBase::SCI_GETLINEENDPOSITION, line);
    QByteArray bytes = pane->bytes(int(start), int(end));
    bytes.chop(1);  // QsciScintilla::bytes() ends with Scintilla's terminating NUL
    const std::string text(bytes.constData(), size_t(bytes.size()));
    const size_t column = size_t(position - start);
    h.word = inspect::wordAt(text, column, context);
    if (h.word.empty()) return h;
    h.explanations = inspect::Docs::builtIn().explain(h.word, context);
    if (h.explanations.size() > kMaxExplanations) h.explanations.resize(kMaxExplanations);
    // Where the word begins, for placing the popup: the occurrence that covers the column.
    h.start = position;
    for (size_t at = text.find(h.word); at != std::string::npos; at = text.find(h.word, at + 1)) {
        if (at <= column && column < at + h.word.size()) {
            h.start = start + long(at);
            break;
        }
    }
    return h;
}

QString plainText(const Hover& h) {
    QStringList parts;
    for (const auto& e : h.explanations) parts << QString::fromStdString(inspect::formatExplanation(e)).trimmed();
    return parts.join(QStringLiteral("\n\n"));
}

}  // namespace

// Core's text as it is, escaped, with its first line bold and its addresses as links.
QString HoverDocs::html(const std::vector<inspect::Explanation>& explanations) {
    static const QRegularExpression url(QStringLiteral("(https?://[^\\s<>\"]+)"));
    QStringList parts;
    for (const auto& e : explanations) {
        QString text = QString::fromStdString(inspect::formatExplanation(e)).trimmed().toHtmlEscaped();
        text.replace(url, QStringLiteral("<a href=\"\\1\">\\1</a>"));
        const qsizetype firstEnd = text.indexOf(QLatin1Char('\n'));
        if (firstEnd < 0)
            text = QStringLiteral("<b>%1</b>").arg(text);
        else
            text = QStringLiteral("<b>%1</b>%2").arg(text.left(firstEnd), text.mid(firstEnd));
        parts << QStringLiteral("<div style=\"white-space: pre-wrap;\">%1</div>").arg(text);
    }
    return parts.join(QStringLiteral("<hr/>"));
}

namespace {

QString richText(const Hover& h) {
    return HoverDocs::html(h.explanations);
}

// The popup's look, the hover's and the info buttons' alike.
void stylePopup(QLabel* popup) {
    popup->setTextFormat(Qt::RichText);
    popup->setWordWrap(true);
    popup->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::TextSelectableByMouse);
    popup->setOpenExternalLinks(false);
    popup->setMargin(8);
    popup->setForegroundRole(QPalette::ToolTipText);
    popup->setBackgroundRole(QPalette::ToolTipBase);
    popup->setAutoFillBackground(true);
    popup->setFrameStyle(QFrame::Box | QFrame::Plain);
}

}  // namespace

QLabel* HoverDocs::popover(QWidget* anchor, const std::string& key, inspect::DocContext context) {
    const auto explanations = inspect::Docs::builtIn().explain(key, context);
    if (explanations.empty()) return nullptr;
    auto* popup = new QLabel(anchor, Qt::Popup | Qt::FramelessWindowHint);
    popup->setObjectName(QStringLiteral("docPopover"));
    popup->setAttribute(Qt::WA_DeleteOnClose);
    stylePopup(popup);
    connect(popup, &QLabel::linkActivated, popup, [popup](const QString& link) {
        QDesktopServices::openUrl(QUrl(link));
        popup->close();
    });
    // A window does not inherit its parent's font: the zoomed one around the anchor.
    popup->setFont(anchor->font());
    popup->setText(html(explanations));
    const QScreen* screen = anchor->screen();
    const QRect room = screen ? screen->availableGeometry() : QRect(0, 0, 1 << 20, 1 << 20);
    const double scale = QFontMetrics(anchor->font()).averageCharWidth() /
                         double(std::max(1, QFontMetrics(QApplication::font()).averageCharWidth()));
    const int width = std::min(room.width(), int(kPopupWidth * std::max(1.0, scale)));
    popup->setFixedWidth(width);
    popup->setFixedHeight(std::min(popup->heightForWidth(width), room.height()));
    QPoint at = anchor->mapToGlobal(QPoint(0, anchor->height() + 2));
    if (at.y() + popup->height() > room.bottom() + 1) at.setY(anchor->mapToGlobal(QPoint()).y() - popup->height() - 2);
    at.setX(std::clamp(at.x(), room.left(), std::max(room.left(), room.right() + 1 - popup->width())));
    at.setY(std::clamp(at.y(), room.top(), std::max(room.top(), room.bottom() + 1 - popup->height())));
    popup->move(at);
    popup->show();
    return popup;
}

HoverDocs* HoverDocs::install(QsciScintilla* pane, inspect::DocContext context) {
    if (auto* existing = of(pane)) return existing;
    return new HoverDocs(pane, context);
}

HoverDocs* HoverDocs::of(const QsciScintilla* pane) {
    return pane ? qobject_cast<HoverDocs*>(pane->property(kProperty).value<QObject*>()) : nullptr;
}

HoverDocs::HoverDocs(QsciScintilla* pane, inspect::DocContext context) : QObject(pane), pane_(pane), context_(context) {
    pane_->setProperty(kProperty, QVariant::fromValue(static_cast<QObject*>(this)));
    pane_->SendScintilla(QsciScintillaBase::SCI_SETMOUSEDWELLTIME, kDwellMs);
    connect(pane_, &QsciScintillaBase::SCN_DWELLSTART, this, &HoverDocs::onDwellStart);
    connect(pane_, &QsciScintillaBase::SCN_DWELLEND, this, &HoverDocs::onDwellEnd);
    // The word under the popup may be gone or elsewhere after these.
    connect(pane_, &QsciScintilla::textChanged, this, &HoverDocs::hide);
    connect(pane_, &QsciScintillaBase::SCN_UPDATEUI, this, [this](int updated) {
        if (updated & (QsciScintillaBase::SC_UPDATE_H_SCROLL | QsciScintillaBase::SC_UPDATE_V_SCROLL)) hide();
    });
    pane_->installEventFilter(this);
    pane_->viewport()->installEventFilter(this);
    hideTimer_.setSingleShot(true);
    hideTimer_.setInterval(300);
    connect(&hideTimer_, &QTimer::timeout, this, [this] {
        if (popup_ && popup_->isVisible() && popup_->geometry().contains(QCursor::pos())) return;
        hide();
    });
}

QString HoverDocs::textAt(int position) const {
    return plainText(hoverAt(pane_, position, context_));
}

QLabel* HoverDocs::popup() const {
    return popup_ && popup_->isVisible() ? popup_ : nullptr;
}

QString HoverDocs::shownText() const {
    return popup() ? shown_ : QString();
}

void HoverDocs::showAt(int position) {
    hideTimer_.stop();
    const Hover h = hoverAt(pane_, position, context_);
    if (h.explanations.empty()) {
        hide();
        return;
    }
    if (!popup_) {
        // A tool-tip window of its own (not QToolTip): QToolTip hides as the mouse moves to it,
        // so its link could never be clicked.
        popup_ = new QLabel(pane_, Qt::ToolTip | Qt::FramelessWindowHint);
        popup_->setObjectName(QStringLiteral("hoverDocs"));
        stylePopup(popup_);
        popup_->installEventFilter(this);
        connect(popup_, &QLabel::linkActivated, this, [this](const QString& link) {
            QDesktopServices::openUrl(QUrl(link));
            hide();
        });
    }
    // The text around the pane's: a window does not inherit its parent's font, and the window's
    // zoom is set there.
    QFont font = pane_->parentWidget() ? pane_->parentWidget()->font() : QApplication::font();
    const QScreen* screen = pane_->screen();
    const QRect room = screen ? screen->availableGeometry() : QRect(0, 0, 1 << 20, 1 << 20);
    // As wide as a few dozen words at its font, within the screen, and as tall as its wrapped
    // text. Where the screen is too short for it (a zoomed popup on a projector): wider, then
    // fewer explanations (each one whole), then a smaller font, down to the application's.
    Hover shown = h;
    int width = 0;
    const auto fits = [&] {
        popup_->setFont(font);
        popup_->setText(richText(shown));
        const double scale = QFontMetrics(font).averageCharWidth() /
                             double(std::max(1, QFontMetrics(QApplication::font()).averageCharWidth()));
        const int widest = std::min(room.width(), int(kPopupWidth * std::max(1.0, scale) * 1.5));
        width = std::min({int(kPopupWidth * std::max(1.0, scale)), room.width(),
                          std::max(popup_->minimumSizeHint().width(), int(320 * std::max(1.0, scale)))});
        while (popup_->heightForWidth(width) > room.height() && width < widest)
            width = std::min(widest, width + width / 4);
        return popup_->heightForWidth(width) <= room.height();
    };
    while (!fits()) {
        if (shown.explanations.size() > 1) {
            shown.explanations.pop_back();
        } else if (font.pointSizeF() > QApplication::font().pointSizeF()) {
            font.setPointSizeF(std::max(QApplication::font().pointSizeF(), font.pointSizeF() - 1));
        } else {
            break;  // the application's font on a screen this small: its top part
        }
    }
    shown_ = plainText(shown);
    popup_->setFixedWidth(width);
    popup_->setFixedHeight(std::min(popup_->heightForWidth(width), room.height()));
    // Under the word's line, from the word's first character, kept on the screen: above the
    // line where there is no room below it.
    const long line = pane_->SendScintilla(QsciScintillaBase::SCI_LINEFROMPOSITION, h.start);
    const int lineHeight = int(pane_->SendScintilla(QsciScintillaBase::SCI_TEXTHEIGHT, line));
    const int x = int(pane_->SendScintilla(QsciScintillaBase::SCI_POINTXFROMPOSITION, 0UL, h.start));
    const int y = int(pane_->SendScintilla(QsciScintillaBase::SCI_POINTYFROMPOSITION, 0UL, h.start)) + lineHeight;
    QPoint at = pane_->viewport()->mapToGlobal(QPoint(x, y + 2));
    if (at.y() + popup_->height() > room.bottom() + 1) at.setY(at.y() - popup_->height() - lineHeight - 4);
    at.setX(std::clamp(at.x(), room.left(), std::max(room.left(), room.right() + 1 - popup_->width())));
    at.setY(std::clamp(at.y(), room.top(), std::max(room.top(), room.bottom() + 1 - popup_->height())));
    popup_->move(at);
    popup_->show();
    popup_->raise();
}

void HoverDocs::hide() {
    hideTimer_.stop();
    if (popup_) popup_->hide();
    shown_.clear();
}

void HoverDocs::onDwellStart(int position, int x, int y) {
    // A completion list or call tip is the user's business at that moment.
    if (pane_->isListActive() || pane_->isCallTipActive()) return;
    // Scintilla's dwell names the gap nearest the mouse (after a character hovered on its right
    // half); the character under it is what the user points at. Without a point (a test, or a
    // point off the text) the position is taken as it is.
    const long under = pane_->SendScintilla(QsciScintillaBase::SCI_CHARPOSITIONFROMPOINTCLOSE, x, y);
    const bool near = under >= 0 && (under == position || under + 1 == position);
    showAt(near ? int(under) : position);
}

void HoverDocs::onDwellEnd() {
    if (popup()) hideTimer_.start();
}

bool HoverDocs::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
        case QEvent::KeyPress:
        case QEvent::Wheel:
        case QEvent::FocusOut:
        case QEvent::Hide:
            if (watched != popup_) hide();
            break;
        case QEvent::Leave:
            // Leaving the pane towards the popup keeps it; leaving the popup ends it.
            if (watched == popup_)
                hide();
            else if (popup())
                hideTimer_.start();
            break;
        case QEvent::Enter:
            if (watched == popup_) hideTimer_.stop();
            break;
        default:
            break;
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace nvpg::gui
