#include "gui/output/SymbolNames.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QFontMetrics>
#include <QSettings>
#include <QStyledItemDelegate>
#include <QTableWidgetItem>

#include "core/support/Symbols.h"

namespace nvpg::gui {

namespace {

const QString kSetting = QStringLiteral("view/rawSymbolNames");

// Paints a name cell with SymbolNames::elided to the room the style gives its text.
class NameDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        const QWidget* widget = opt.widget;
        QStyle* style = widget ? widget->style() : QApplication::style();
        // The style keeps a margin each side of the text (QCommonStyle's textMargin).
        const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, &opt, widget) + 1;
        const int room = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget).width() - 2 * margin;
        opt.text = SymbolNames::elided(opt.text, opt.fontMetrics, room);
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    }
};

}  // namespace

SymbolNames::SymbolNames() : raw_(QSettings().value(kSetting, false).toBool()) {}

SymbolNames* SymbolNames::instance() {
    static SymbolNames* names = new SymbolNames;  // lives as long as the process
    return names;
}

void SymbolNames::setRaw(bool raw) {
    if (raw == raw_) return;
    raw_ = raw;
    QSettings().setValue(kSetting, raw);
    emit rawChanged(raw);
}

QString SymbolNames::shown(std::string_view symbol) {
    return QString::fromStdString(support::readableName(symbol, instance()->raw()));
}

QString SymbolNames::toolTip(std::string_view symbol) {
    const QString readable = QString::fromStdString(support::readableName(symbol));
    const QString raw = QString::fromUtf8(symbol.data(), qsizetype(symbol.size()));
    if (readable == raw) return raw;
    return tr("%1\nsymbol: %2").arg(readable, raw);
}

QString SymbolNames::elided(const QString& name, const QFontMetrics& metrics, int width) {
    if (metrics.horizontalAdvance(name) <= width) return name;
    return QString::fromStdString(support::elideName(name.toStdString(), width, [&metrics](std::string_view s) {
        return double(metrics.horizontalAdvance(QString::fromUtf8(s.data(), qsizetype(s.size()))));
    }));
}

void SymbolNames::elideColumn(QAbstractItemView* view, int column) {
    view->setItemDelegateForColumn(column, new NameDelegate(view));
}

void SymbolNames::setCell(QTableWidgetItem* item, std::string_view symbol, const QString& suffix) {
    item->setText(shown(symbol) + suffix);
    item->setToolTip(toolTip(symbol));
    item->setData(Qt::UserRole, QString::fromUtf8(symbol.data(), qsizetype(symbol.size())));
}

}  // namespace nvpg::gui
