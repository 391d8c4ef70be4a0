#include "gui/output/DiffPage.h"

#include <string_view>

#include <Qsci/qscilexerdiff.h>
#include <Qsci/qsciscintilla.h>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "core/support/Diff.h"
#include "gui/common/Text.h"
#include "gui/output/Pane.h"

namespace nvpg::gui {

DiffPage::DiffPage(QWidget* parent) : QWidget(parent) {
    auto* dv = new QVBoxLayout(this);
    dv->setContentsMargins(0, 0, 0, 0);
    dv->setSpacing(0);
    header_ = makeHeader(this, QStringLiteral("diffHeader"));
    dv->addWidget(header_);
    stack_ = new QStackedWidget(this);
    auto* diffLexer = new QsciLexerDiff();
    // Whole-line backgrounds, as code review tools show diffs: removed and added lines stand out
    // at a glance in a long PTX.
    const struct {
        int style;
        QColor fore, paper;
    } diffColours[] = {
        {QsciLexerDiff::LineRemoved, QColor(0x82, 0x07, 0x1e), QColor(0xff, 0xeb, 0xe9)},
        {QsciLexerDiff::LineAdded, QColor(0x11, 0x63, 0x29), QColor(0xe6, 0xff, 0xec)},
        {QsciLexerDiff::Position, QColor(0x57, 0x60, 0x6a), QColor(0xdd, 0xf4, 0xff)},
    };
    for (const auto& c : diffColours) {
        diffLexer->setColor(c.fore, c.style);
        diffLexer->setPaper(c.paper, c.style);
        diffLexer->setEolFill(true, c.style);
    }
    edit_ = makePane(stack_, diffLexer, /*folding=*/true);
    edit_->setObjectName(QStringLiteral("diffEditor"));
    notice_ = makeNotice(stack_, QStringLiteral("diffNotice"));
    stack_->addWidget(edit_);
    stack_->addWidget(notice_);
    dv->addWidget(stack_, 1);
}

QString DiffPage::header() const {
    return header_->text();
}

QString DiffPage::text() const {
    return edit_->text();
}

void DiffPage::clearText() {
    setPaneText(edit_, std::string_view{});
}

void DiffPage::showNotice(const QString& header, const QString& text) {
    setPaneText(edit_, std::string_view{});
    header_->setText(header);
    notice_->setText(text);
    stack_->setCurrentWidget(notice_);
}

void DiffPage::compare(const pipeline::CompileResult* result, const QString& ltoNotice) {
    const QString title = tr("PTX → linked PTX");
    if (!result) return showNotice(title, tr("Nothing compiled yet."));
    if (result->ptx.empty()) return showNotice(title, tr("No PTX to compare."));
    if (result->linkedPtx.empty()) {
        return showNotice(title, tr("No linked PTX to compare the PTX with.") +
                                     (ltoNotice.isEmpty() ? QString() : QStringLiteral("\n\n") + ltoNotice));
    }
    const auto diff = support::unifiedDiff(result->ptx, result->linkedPtx, tr("PTX (libNVVM)").toStdString(),
                                           tr("linked PTX (nvJitLink LTO)").toStdString());
    if (diff.text.empty()) return showNotice(title, tr("The linked PTX is the same as the PTX."));
    header_->setText(QStringLiteral("%1%2−%3 +%4 lines in %5")
                         .arg(title, QStringLiteral(" · "))
                         .arg(diff.removed)
                         .arg(diff.added)
                         .arg(plural(diff.hunks, tr("hunk"), tr("hunks"))));
    setPaneText(edit_, std::string_view(diff.text));
    stack_->setCurrentWidget(edit_);
}

}  // namespace nvpg::gui
