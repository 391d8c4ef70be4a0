#include "gui/panels/LibdevicePanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/inspect/Docs.h"
#include "gui/common/Text.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"

namespace nvpg::gui {

namespace {

constexpr int kUseRole = Qt::UserRole;         // index into uses_
constexpr int kLineRole = Qt::UserRole + 1;    // a call row's line; 0 on a function's row
constexpr int kModuleRole = Qt::UserRole + 2;  // a call row's module

QString joined(const std::vector<std::string>& names) {
    QStringList list;
    for (const auto& n : names) list << qstr(n);
    return list.join(QStringLiteral(", "));
}

// The cell of one output's figure: the count, or a dash whose tooltip says why there is none.
void setSize(QTreeWidgetItem* item, int column, const pipeline::LibdeviceSize& size, const QString& unit) {
    if (size.known()) {
        item->setText(column, QStringLiteral("%1 %2").arg(size.count).arg(unit));
        item->setToolTip(column, qstr(size.how));
    } else {
        item->setText(column, QStringLiteral("–"));
        item->setToolTip(column, qstr(size.unavailable));
    }
    item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
}

QString sizeHtml(const QString& what, const pipeline::LibdeviceSize& size, const QString& unit) {
    if (!size.known()) return QStringLiteral("<p><b>%1</b>: %2</p>").arg(what, qstr(size.unavailable).toHtmlEscaped());
    return QStringLiteral("<p><b>%1</b>: %2 %3 (%4)</p>")
        .arg(what)
        .arg(size.count)
        .arg(unit, qstr(size.how).toHtmlEscaped());
}

}  // namespace

LibdevicePanel::LibdevicePanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    header_ = new QLabel(this);
    header_->setObjectName(QStringLiteral("libdeviceHeader"));
    header_->setContentsMargins(4, 2, 4, 0);
    header_->setWordWrap(true);
    layout->addWidget(header_);

    auto* split = new QSplitter(Qt::Horizontal, this);
    tree_ = new QTreeWidget(split);
    tree_->setObjectName(QStringLiteral("libdeviceTree"));
    tree_->setColumnCount(5);
    tree_->setHeaderLabels({tr("Function"), tr("Called at"), tr("PTX"), tr("SASS"), tr("Pulls in")});
    tree_->setRootIsDecorated(true);
    tree_->setUniformRowHeights(true);
    tree_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    tree_->header()->setStretchLastSection(true);
    tree_->header()->setSectionResizeMode(QHeaderView::Interactive);
    // A call row jumps on one click, as a link would; Enter and double-click too.
    auto jump = [this](QTreeWidgetItem* item) {
        if (!item || item->data(0, kLineRole).toInt() <= 0) return;
        emit activated(item->data(0, kModuleRole).toString(), item->data(0, kLineRole).toInt(), 1);
    };
    connect(tree_, &QTreeWidget::itemClicked, this, [jump](QTreeWidgetItem* item, int) { jump(item); });
    connect(tree_, &QTreeWidget::itemActivated, this, [jump](QTreeWidgetItem* item, int) { jump(item); });
    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item, QTreeWidgetItem*) {
        if (!item) return;
        const int use = item->data(0, kUseRole).toInt();
        if (use < 0 || use >= int(uses_.size())) return;
        showDetails(use);
        emit ptxLinesSelected(uses_[size_t(use)].ptx.lines);
    });
    details_ = new QTextBrowser(split);
    details_->setObjectName(QStringLiteral("libdeviceDetails"));
    details_->setOpenExternalLinks(true);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    clear();
}

void LibdevicePanel::setResult(pipeline::Job job, std::shared_ptr<const pipeline::CompileResult> result) {
    job_ = std::move(job);
    result_ = std::move(result);
    rebuild();
}

void LibdevicePanel::setLateResult(std::shared_ptr<const pipeline::CompileResult> result) {
    if (!result_) return;
    result_ = std::move(result);
    rebuild();
}

void LibdevicePanel::setLineMap(std::shared_ptr<const inspect::LineMap> map) {
    if (!result_ || result_->lineMap == map) return;
    auto withMap = std::make_shared<pipeline::CompileResult>(*result_);
    withMap->lineMap = std::move(map);
    result_ = std::move(withMap);
    rebuild();
}

void LibdevicePanel::clear() {
    job_ = {};
    result_.reset();
    rebuild();
}

QTreeWidgetItem* LibdevicePanel::functionItem(const QString& name) const {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i)
        if (tree_->topLevelItem(i)->text(NameColumn) == name) return tree_->topLevelItem(i);
    return nullptr;
}

void LibdevicePanel::rebuild() {
    const QString selected = tree_->currentItem() ? tree_->currentItem()->text(NameColumn) : QString();
    tree_->clear();
    details_->clear();
    uses_ = result_ ? pipeline::libdeviceUses(job_, *result_) : std::vector<pipeline::LibdeviceUse>{};
    if (!result_)
        header_->setText(tr("No compile yet."));
    else if (!job_.libdevice)
        header_->setText(tr("libdevice is off: __nv_ calls stay unresolved (Options > libdevice)."));
    else if (uses_.empty())
        header_->setText(tr("libdevice is on, and the program calls none of its functions."));
    else
        header_->setText((uses_.size() == 1 ? tr("1 libdevice function linked.")
                                            : tr("%1 libdevice functions linked.").arg(uses_.size())) +
                         tr(" Select one to mark its PTX lines; click a call to go to it."));
    for (size_t i = 0; i < uses_.size(); ++i) {
        const auto& u = uses_[i];
        auto* item = new QTreeWidgetItem(tree_);
        item->setText(NameColumn, qstr(u.name));
        item->setToolTip(NameColumn, qstr(u.signature));
        item->setData(0, kUseRole, int(i));
        item->setData(0, kLineRole, 0);
        QStringList at;
        for (const auto& c : u.calls) at << QStringLiteral("%1:%2").arg(qstr(c.module)).arg(c.line);
        item->setText(CallsColumn, at.isEmpty()
                                       ? (u.pulledInBy.empty() ? tr("—") : tr("via %1").arg(joined(u.pulledInBy)))
                                       : at.join(QStringLiteral(", ")));
        setSize(item, PtxColumn, u.ptx, tr("lines"));
        setSize(item, SassColumn, u.sass, tr("instr"));
        item->setText(PullsColumn, joined(u.pulls));
        for (const auto& c : u.calls) {
            auto* call = new QTreeWidgetItem(item);
            call->setText(NameColumn, tr("call"));
            call->setText(CallsColumn, QStringLiteral("%1:%2").arg(qstr(c.module)).arg(c.line));
            call->setToolTip(CallsColumn, tr("Go to this call"));
            call->setForeground(CallsColumn, palette().link());
            call->setData(0, kUseRole, int(i));
            call->setData(0, kLineRole, c.line);
            call->setData(0, kModuleRole, qstr(c.module));
        }
        item->setExpanded(true);
    }
    for (int c = 0; c < PullsColumn; ++c) tree_->resizeColumnToContents(c);
    if (auto* again = functionItem(selected)) {
        const QSignalBlocker quiet(tree_);  // a new result keeps the row without marking again
        tree_->setCurrentItem(again);
        showDetails(again->data(0, kUseRole).toInt());
    }
}

void LibdevicePanel::showDetails(int index) {
    const auto& u = uses_.at(size_t(index));
    QString html = QStringLiteral("<p><b><code>%1</code></b></p>")
                       .arg(qstr(u.signature.empty() ? u.name : u.signature).toHtmlEscaped());
    // The doc entry in the one text form of `nvpg explain` and the hover, its link clickable;
    // until there is an entry, the signature above is what is known.
    const auto explained = inspect::Docs::builtIn().explain(u.name, inspect::DocContext::Ir);
    if (!explained.empty() && explained.front().entry) {
        QString doc = qstr(inspect::formatExplanation(explained.front())).toHtmlEscaped();
        const QString link = qstr(explained.front().entry->link).toHtmlEscaped();
        if (!link.isEmpty()) doc.replace(link, QStringLiteral("<a href=\"%1\">%1</a>").arg(link));
        html += QStringLiteral("<p style=\"white-space: pre-wrap\">%1</p>").arg(doc);
    } else {
        html +=
            QStringLiteral("<p><i>%1</i></p>").arg(tr("No doc entry for %1 yet.").arg(qstr(u.name).toHtmlEscaped()));
    }
    QStringList calls;
    for (const auto& c : u.calls) calls << QStringLiteral("%1:%2").arg(qstr(c.module).toHtmlEscaped()).arg(c.line);
    html += QStringLiteral("<p><b>Called at</b>: %1</p>").arg(calls.isEmpty() ? tr("no IR line") : calls.join(", "));
    html += sizeHtml(tr("PTX"), u.ptx, tr("lines"));
    html += sizeHtml(tr("SASS"), u.sass, tr("instructions"));
    if (!u.pulls.empty()) html += QStringLiteral("<p><b>Pulls in</b>: %1</p>").arg(joined(u.pulls).toHtmlEscaped());
    if (!u.pulledInBy.empty())
        html += QStringLiteral("<p><b>Pulled in by</b>: %1</p>").arg(joined(u.pulledInBy).toHtmlEscaped());
    details_->setHtml(html);
}

void LibdevicePanel::attach(CompileController* controller, WorkspaceDocument* document) {
    connect(controller, &CompileController::replyShown, this, [this, controller, document](const EngineReply& reply) {
        if (!reply.result) {
            clear();
            return;
        }
        const auto& ws = document->workspace();
        pipeline::Job job;
        job.modules = ws.modules;
        job.libdevice = ws.libdevice;
        job.lineMap = controller->lineMap();
        setResult(std::move(job), reply.result);
    });
    connect(controller, &CompileController::lateShown, this,
            [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) {
                if (result) setLateResult(std::move(result));
            });
    connect(controller, &CompileController::lineMapShown, this,
            [this](quint64, std::shared_ptr<const inspect::LineMap> map) { setLineMap(std::move(map)); });
}

}  // namespace nvpg::gui
