#pragma once

#include <optional>
#include <vector>

#include <QAbstractTableModel>
#include <QStringList>

#include "core/ptx/Ptx.h"

namespace nvpg::gui {

// The Run panel's argument table: one row per kernel parameter (#, IR name, PTX name, PTX type
// and size)
// with the argument's SPEC, the only editable column. Problems the panel finds are shown on
// the cell (a red background, the message as its tooltip); a guessed SPEC gets a hint instead.
class ArgTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { IndexColumn, IrColumn, ParamColumn, PtxColumn, ArgColumn, ColumnCount };

    struct Row {
        std::optional<ptx::Param> param;  // none while the kernel is not in the compile
        QString irType;                   // the IR's type of the parameter, when known
        QString spec;
        QString hint;      // why the SPEC is only a guess; cleared by an edit
        QString error;     // set by the panel's checks
        QString irName{};  // the parameter's name in the kernel's define ("%n"), when known
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setRows(std::vector<Row> rows);
    const std::vector<Row>& rows() const { return rows_; }
    QStringList specs() const;
    // Marks the problem of each row (empty: none); changes only the cells' looks.
    void setErrors(const QStringList& errors);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // ".u64 (8 B)", ".b8[12] (12 B)".
    static QString describe(const ptx::Param& p);

signals:
    void specEdited(int row);

private:
    std::vector<Row> rows_;
};

}  // namespace nvpg::gui
