#pragma once

#include <string_view>

#include <QObject>
#include <QString>

class QAbstractItemView;
class QFontMetrics;
class QTableWidgetItem;

namespace nvpg::gui {

// How the app shows kernel and function names: readable (demangled where Itanium-mangled, ABI
// tags dropped: support::readableName) unless View > Raw Symbol Names asks for the symbols as
// the PTX has them. A name is a label beside the symbol: the tooltip always has both. One
// instance per process; the choice is kept in QSettings.
class SymbolNames : public QObject {
    Q_OBJECT

public:
    static SymbolNames* instance();

    bool raw() const { return raw_; }
    void setRaw(bool raw);

    // The name to show for `symbol`, whole: views elide it to their width (elided()).
    static QString shown(std::string_view symbol);
    // `name` cut to `width` pixels by core's rule (support::elideName): a function's name stays
    // whole where it can and its parameters are cut ("__main__::axpy(Array<float, …, aligned>)").
    static QString elided(const QString& name, const QFontMetrics& metrics, int width);
    // Column `column` of `view` holds names: its cells are painted elided() to the column's width.
    static void elideColumn(QAbstractItemView* view, int column);
    // The readable name and, where it differs, the raw symbol: a tooltip's text.
    static QString toolTip(std::string_view symbol);
    // A table cell of a name: the shown name with `suffix` after it, both names in its tooltip.
    static void setCell(QTableWidgetItem* item, std::string_view symbol, const QString& suffix = {});

signals:
    void rawChanged(bool raw);

private:
    SymbolNames();
    bool raw_ = false;
};

}  // namespace nvpg::gui
