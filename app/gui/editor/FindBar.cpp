#include "gui/editor/FindBar.h"

#include <Qsci/qsciscintilla.h>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace nvpg::gui {

namespace {
using B = QsciScintillaBase;
}

FindBar::FindBar(QWidget* parent) : QWidget(parent) {
    findEdit_ = new QLineEdit(this);
    findEdit_->setPlaceholderText(tr("Find"));
    findEdit_->setClearButtonEnabled(true);
    replaceEdit_ = new QLineEdit(this);
    replaceEdit_->setPlaceholderText(tr("Replace with"));
    // Room for a typical search (a register name, an instruction with its type) even beside a
    // narrow pane.
    for (QLineEdit* e : {findEdit_, replaceEdit_}) e->setMinimumWidth(e->fontMetrics().averageCharWidth() * 26);
    // The bar sits under one side of the window (the editors, or the output panes) and must fit
    // the narrower side at 1280 px: the choices are small toggles, as in most editors' find bars,
    // and the status takes what room is left.
    const auto toggle = [this](const QString& text, const QString& tip, const QString& name) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setObjectName(name);
        b->setCheckable(true);
        b->setAutoRaise(true);
        return b;
    };
    matchCase_ = toggle(QStringLiteral("Aa"), tr("Match case"), QStringLiteral("findMatchCase"));
    regex_ = toggle(QStringLiteral(".*"), tr("Regular expression (ECMAScript; \\1 in a replacement is a group)"),
                    QStringLiteral("findRegex"));
    status_ = new QLabel(this);
    status_->setMinimumWidth(0);
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    const auto arrow = [this](Qt::ArrowType type, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setArrowType(type);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        return b;
    };
    auto* previous = arrow(Qt::UpArrow, tr("Previous match (Shift+Enter)"));
    auto* next = arrow(Qt::DownArrow, tr("Next match (Enter)"));
    auto* replace = new QPushButton(tr("Replace"), this);
    auto* replaceAllButton = new QPushButton(tr("Replace all"), this);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("\u2715"));
    close->setToolTip(tr("Close (Esc)"));
    close->setAutoRaise(true);
    for (QPushButton* b : {replace, replaceAllButton}) b->setAutoDefault(false);

    auto* findRow = new QHBoxLayout;
    findRow->setContentsMargins(0, 0, 0, 0);
    findRow->setSpacing(2);
    findRow->addWidget(findEdit_, 2);
    findRow->addWidget(previous);
    findRow->addWidget(next);
    findRow->addWidget(matchCase_);
    findRow->addWidget(regex_);
    findRow->addWidget(status_, 1);
    findRow->addWidget(close);

    replaceRow_ = new QWidget(this);
    auto* replaceLayout = new QHBoxLayout(replaceRow_);
    replaceLayout->setContentsMargins(0, 0, 0, 0);
    replaceLayout->addWidget(replaceEdit_, 1);
    replaceLayout->addWidget(replace);
    replaceLayout->addWidget(replaceAllButton);
    replaceLayout->addStretch(0);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addLayout(findRow);
    layout->addWidget(replaceRow_);

    connect(next, &QToolButton::clicked, this, &FindBar::findNext);
    connect(previous, &QToolButton::clicked, this, &FindBar::findPrevious);
    connect(replace, &QPushButton::clicked, this, &FindBar::replaceCurrent);
    connect(replaceAllButton, &QPushButton::clicked, this, &FindBar::replaceAll);
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        if (editor_) editor_->setFocus();
    });
    // Find as you type: the match grows from where the current one starts.
    connect(findEdit_, &QLineEdit::textEdited, this, [this] {
        if (!editor_) return;
        editor_->SendScintilla(B::SCI_SETEMPTYSELECTION, editor_->SendScintilla(B::SCI_GETSELECTIONSTART));
        findNext();
    });
    // Opening the bar never widens its side of the window (and so never narrows the other): its
    // minimum does not count, and the side's width is what it gets.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    // Every part of the bar, so that Esc closes it from whichever has focus.
    for (QWidget* w : findChildren<QWidget*>()) w->installEventFilter(this);
    replaceRow_->hide();
}

void FindBar::attach(QsciScintilla* editor) {
    editor_ = editor;
}

void FindBar::setFindText(const QString& text) {
    findEdit_->setText(text);
}
QString FindBar::findText() const {
    return findEdit_->text();
}
void FindBar::setReplaceText(const QString& text) {
    replaceEdit_->setText(text);
}
void FindBar::setMatchCase(bool on) {
    matchCase_->setChecked(on);
}
void FindBar::setRegex(bool on) {
    regex_->setChecked(on);
}
QString FindBar::status() const {
    return status_->text();
}

void FindBar::showFind() {
    open(false);
}
void FindBar::showReplace() {
    open(true);
}

void FindBar::open(bool withReplace) {
    replaceRow_->setVisible(withReplace);
    // A one-line selection is what the user wants to look for.
    if (editor_ && editor_->hasSelectedText()) {
        const QString sel = editor_->selectedText();
        if (!sel.contains(QLatin1Char('\n'))) findEdit_->setText(sel);
    }
    show();
    findEdit_->setFocus();
    findEdit_->selectAll();
}

int FindBar::searchFlags() const {
    int flags = 0;
    if (matchCase_->isChecked()) flags |= B::SCFIND_MATCHCASE;
    if (regex_->isChecked()) flags |= B::SCFIND_REGEXP | B::SCFIND_CXX11REGEX;
    return flags;
}

long FindBar::search(long from, long to) {
    const QByteArray pattern = findEdit_->text().toUtf8();
    editor_->SendScintilla(B::SCI_SETSEARCHFLAGS, searchFlags());
    editor_->SendScintilla(B::SCI_SETTARGETSTART, from);
    editor_->SendScintilla(B::SCI_SETTARGETEND, to);
    editor_->SendScintilla(B::SCI_SETSTATUS, static_cast<int>(B::SC_STATUS_OK));
    const long at =
        editor_->SendScintilla(B::SCI_SEARCHINTARGET, static_cast<uintptr_t>(pattern.size()), pattern.constData());
    // This Scintilla reports a bad regular expression as "not found" plus a warning status.
    if (editor_->SendScintilla(B::SCI_GETSTATUS) == B::SC_STATUS_WARNREGEX) {
        editor_->SendScintilla(B::SCI_SETSTATUS, static_cast<int>(B::SC_STATUS_OK));
        return -2;
    }
    return at;
}

void FindBar::setStatus(const QString& text, bool failed) {
    status_->setText(text);
    status_->setToolTip(text);  // whole, where the bar is too narrow for it
    status_->setStyleSheet(failed ? QStringLiteral("color: #b00020;") : QString());
    findEdit_->setStyleSheet(
        failed && !findEdit_->text().isEmpty() ? QStringLiteral("QLineEdit { background: #fde7e7; }") : QString());
}

bool FindBar::find(bool forward) {
    if (!editor_ || findEdit_->text().isEmpty()) {
        setStatus({});
        return false;
    }
    const long length = editor_->SendScintilla(B::SCI_GETLENGTH);
    const long selStart = editor_->SendScintilla(B::SCI_GETSELECTIONSTART);
    const long selEnd = editor_->SendScintilla(B::SCI_GETSELECTIONEND);
    bool wrapped = false;
    long at;
    if (forward) {
        at = search(selEnd, length);
        // An empty match where the last one ended would be found forever: step past it.
        if (at == selEnd && selStart == selEnd && editor_->SendScintilla(B::SCI_GETTARGETEND) == at && at < length)
            at = search(editor_->SendScintilla(B::SCI_POSITIONAFTER, at), length);
        if (at == -1) {
            at = search(0, selEnd);
            wrapped = true;
        }
    } else {
        at = search(selStart, 0);
        if (at == -1) {
            at = search(length, selStart);
            wrapped = true;
        }
    }
    if (at == -2) {
        setStatus(tr("invalid regular expression"), true);
        return false;
    }
    if (at < 0) {
        setStatus(tr("no match"), true);
        return false;
    }
    const long start = editor_->SendScintilla(B::SCI_GETTARGETSTART);
    const long end = editor_->SendScintilla(B::SCI_GETTARGETEND);
    const long line = editor_->SendScintilla(B::SCI_LINEFROMPOSITION, start);
    editor_->SendScintilla(B::SCI_ENSUREVISIBLEENFORCEPOLICY, line);  // unfold if folded
    editor_->SendScintilla(B::SCI_SETSEL, start, end);
    editor_->SendScintilla(B::SCI_SCROLLRANGE, end, start);
    setStatus(wrapped ? tr("wrapped around") : QString());
    return true;
}

bool FindBar::findNext() {
    return find(true);
}
bool FindBar::findPrevious() {
    return find(false);
}

bool FindBar::replaceCurrent() {
    if (!editor_ || findEdit_->text().isEmpty()) return false;
    if (editor_->isReadOnly()) {
        setStatus(tr("read-only"), true);
        return false;
    }
    const long selStart = editor_->SendScintilla(B::SCI_GETSELECTIONSTART);
    const long selEnd = editor_->SendScintilla(B::SCI_GETSELECTIONEND);
    bool replaced = false;
    // Only a selection that is itself a whole match is replaced; otherwise this just finds.
    if (search(selStart, selEnd) == selStart && editor_->SendScintilla(B::SCI_GETTARGETEND) == selEnd) {
        const QByteArray replacement = replaceEdit_->text().toUtf8();
        const int message = regex_->isChecked() ? B::SCI_REPLACETARGETRE : B::SCI_REPLACETARGET;
        const long written =
            editor_->SendScintilla(message, static_cast<uintptr_t>(replacement.size()), replacement.constData());
        editor_->SendScintilla(B::SCI_SETEMPTYSELECTION, selStart + written);
        replaced = true;
    }
    find(true);
    return replaced;
}

int FindBar::replaceAll() {
    if (!editor_ || findEdit_->text().isEmpty()) return 0;
    if (editor_->isReadOnly()) {
        setStatus(tr("read-only"), true);
        return 0;
    }
    const QByteArray replacement = replaceEdit_->text().toUtf8();
    const int message = regex_->isChecked() ? B::SCI_REPLACETARGETRE : B::SCI_REPLACETARGET;
    int count = 0;
    long pos = 0;
    bool invalid = false;
    editor_->SendScintilla(B::SCI_BEGINUNDOACTION);
    for (;;) {
        const long length = editor_->SendScintilla(B::SCI_GETLENGTH);
        const long at = search(pos, length);
        if (at < 0) {
            invalid = at == -2;
            break;
        }
        const long start = editor_->SendScintilla(B::SCI_GETTARGETSTART);
        const long end = editor_->SendScintilla(B::SCI_GETTARGETEND);
        const long written =
            editor_->SendScintilla(message, static_cast<uintptr_t>(replacement.size()), replacement.constData());
        ++count;
        pos = start + written;
        if (end == start) {  // an empty match: move on one character or it repeats forever
            if (pos >= editor_->SendScintilla(B::SCI_GETLENGTH)) break;
            pos = editor_->SendScintilla(B::SCI_POSITIONAFTER, pos);
        }
    }
    editor_->SendScintilla(B::SCI_ENDUNDOACTION);
    if (invalid)
        setStatus(tr("invalid regular expression"), true);
    else
        setStatus(count ? tr("%n replaced", nullptr, count) : tr("no match"), count == 0);
    return count;
}

bool FindBar::eventFilter(QObject* watched, QEvent* event) {
    // Esc is also the window's shortcut (Build > Cancel): in the bar it closes the bar.
    if (event->type() == QEvent::ShortcutOverride && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        event->accept();
        return true;
    }
    if (event->type() == QEvent::KeyPress && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        hide();
        if (editor_) editor_->setFocus();
        return true;
    }
    if (event->type() == QEvent::KeyPress && (watched == findEdit_ || watched == replaceEdit_)) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            if (watched == replaceEdit_)
                replaceCurrent();
            else if (key->modifiers() & Qt::ShiftModifier)
                findPrevious();
            else
                findNext();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void FindBar::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape) {
        hide();
        if (editor_) editor_->setFocus();
        return;
    }
    QWidget::keyPressEvent(event);
}

}  // namespace nvpg::gui
