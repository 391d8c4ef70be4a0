#include "gui/panels/ArgTableModel.h"

#include <QColor>
#include <QFont>

#include "gui/output/SymbolNames.h"

namespace nvpg::gui {

namespace {

// PTX names a parameter after its kernel ("saxpy_param_2"); after a mangled kernel, whose
// symbol is 200-300 characters (numba's), the column shows "…_param_2" (the tooltip has it
// whole), unless View > Raw Symbol Names asks for the symbols.
QString paramLabel(const std::string& name) {
    const QString whole = QString::fromStdString(name);
    const qsizetype at = whole.lastIndexOf(QStringLiteral("_param_"));
    if (SymbolNames::instance()->raw() || !whole.startsWith(QStringLiteral("_Z")) || at <= 0) return whole;
    return QStringLiteral("…") + whole.mid(at);
}

}  // namespace

void ArgTableModel::setRows(std::vector<Row> rows) {
    if (rows.size() == rows_.size() && !rows.empty()) {
        // The same kernel compiled again: a reset would close a cell the user is typing in.
        rows_ = std::move(rows);
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

QStringList ArgTableModel::specs() const {
    QStringList out;
    for (const auto& r : rows_) out << r.spec;
    return out;
}

void ArgTableModel::setErrors(const QStringList& errors) {
    for (int i = 0; i < int(rows_.size()); ++i) {
        const QString e = i < errors.size() ? errors[i] : QString();
        if (rows_[size_t(i)].error == e) continue;
        rows_[size_t(i)].error = e;
        emit dataChanged(index(i, 0), index(i, ColumnCount - 1));
    }
}

int ArgTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int ArgTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString ArgTableModel::describe(const ptx::Param& p) {
    const auto type = QString::fromStdString(p.type);
    return p.arrayCount ? QStringLiteral("%1[%2] (%3 B)").arg(type).arg(p.arrayCount).arg(p.size)
                        : QStringLiteral("%1 (%2 B)").arg(type).arg(p.size);
}

QVariant ArgTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(rows_.size())) return {};
    const auto& r = rows_[size_t(index.row())];
    const int col = index.column();
    switch (role) {
        case Qt::DisplayRole:
        case Qt::EditRole:
            switch (col) {
                case IndexColumn:
                    return index.row();
                case IrColumn:
                    return r.irName.isEmpty() ? QStringLiteral("—") : r.irName;
                case ParamColumn:
                    return r.param ? paramLabel(r.param->name) : tr("?");
                case PtxColumn:
                    return r.param ? describe(*r.param) : QStringLiteral("—");
                case ArgColumn:
                    return r.spec;
            }
            break;
        case Qt::ToolTipRole:
            if (col == ArgColumn) {
                if (!r.error.isEmpty()) return r.error;
                if (!r.hint.isEmpty()) return r.hint;
                return tr(
                    "i32:5  f32:2.5  ptr:null  buf:f32:4096:zeros  buf:f32:4096:const:1.5  "
                    "buf:i32:4096:iota  buf:f64:4096:random:SEED  buf:@FILE.npy  "
                    "buf:f32:@FILE.bin");
            }
            if (col == IrColumn || col == ParamColumn || col == PtxColumn) {
                if (!r.param) return tr("the kernel is not in the current compile");
                QString tip =
                    r.irName.isEmpty()
                        ? QString::fromStdString(r.param->name)
                        : tr("%1 in the IR, %2 in the PTX").arg(r.irName, QString::fromStdString(r.param->name));
                if (r.param->isPointer) tip += tr("\n.ptr %1").arg(QString::fromStdString(r.param->pointerSpace));
                if (!r.irType.isEmpty()) tip += tr("\nIR type: %1").arg(r.irType);
                return tip;
            }
            break;
        case Qt::BackgroundRole:
            if (col == ArgColumn && !r.error.isEmpty()) return QColor(0xff, 0xd6, 0xd6);
            if (col == ArgColumn && !r.hint.isEmpty()) return QColor(0xff, 0xf4, 0xcc);
            break;
        case Qt::ForegroundRole:
            if (col == ArgColumn && !r.error.isEmpty()) return QColor(0xb0, 0x00, 0x20);
            break;
        case Qt::FontRole:
            if (col == ArgColumn || col == PtxColumn || col == IrColumn) {
                QFont f(QStringLiteral("monospace"));
                f.setStyleHint(QFont::TypeWriter);
                return f;
            }
            break;
        case Qt::TextAlignmentRole:
            if (col == IndexColumn) return int(Qt::AlignRight | Qt::AlignVCenter);
            break;
    }
    return {};
}

bool ArgTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || index.column() != ArgColumn || role != Qt::EditRole) return false;
    auto& r = rows_[size_t(index.row())];
    const QString spec = value.toString().trimmed();
    if (spec == r.spec) return false;
    r.spec = spec;
    r.hint.clear();  // the user's choice now, not our guess
    emit dataChanged(index, index);
    emit specEdited(index.row());
    return true;
}

Qt::ItemFlags ArgTableModel::flags(const QModelIndex& index) const {
    auto f = QAbstractTableModel::flags(index);
    if (index.column() == ArgColumn) f |= Qt::ItemIsEditable;
    return f;
}

QVariant ArgTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case IndexColumn:
            return tr("#");
        case IrColumn:
            return tr("IR");
        case ParamColumn:
            return tr("parameter");
        case PtxColumn:
            return tr("PTX");
        case ArgColumn:
            return tr("argument");
    }
    return {};
}

}  // namespace nvpg::gui
