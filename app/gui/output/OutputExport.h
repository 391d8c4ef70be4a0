#pragma once

#include <functional>
#include <memory>

#include <QObject>
#include <QString>
#include <QStringList>

#include "core/pipeline/CompileResult.h"
#include "core/pipeline/OutputNames.h"

class QAction;
class QToolButton;
class QWidget;

namespace nvpg::gui {

// What the output panes export: PTX, LTO-IR, linked PTX, cubin or SASS of the result on screen,
// to files named after the program's (program.ptx, program.cubin, ...), each written atomically.
// Its Export button (a menu of one action per kind, enabled as the result has that output) sits
// in the output view's toolbar; the save dialogs open over that view.
class OutputExport : public QObject {
    Q_OBJECT

public:
    using Kind = pipeline::Artifact;
    // The result on screen now (null before any).
    using ResultSource = std::function<std::shared_ptr<const pipeline::CompileResult>()>;

    // `view` is the dialogs' parent and the button's.
    OutputExport(QWidget* view, ResultSource result);

    QToolButton* button() const { return button_; }
    QAction* action(Kind kind) const { return actions_[int(kind)]; }
    // Enables each kind's action (and the button) as the result on screen has that output.
    void updateActions();

    bool canExport(Kind kind) const;
    // The files exportTo(kind, path) writes: `path` itself, or with several LTO-IR blobs one
    // per blob with the module's stem inserted (program.ltoir → program.helper.ltoir).
    QStringList exportPaths(Kind kind, const QString& path) const;
    // Writes without a dialog; each file atomically. False with `error` set on failure.
    bool exportTo(Kind kind, const QString& path, QString* error = nullptr);
    // Stem of the suggested export names ("program" → program.ptx, program.cubin, ...); an
    // absolute path also sets the folder the dialog opens in.
    void setBaseName(const QString& base);
    // Asks where (a save dialog over the view), then writes; a failure is shown in a message box.
    void exportWithDialog(Kind kind);

signals:
    void exported(const QStringList& paths);

private:
    QWidget* view_;
    ResultSource result_;
    QString base_ = QStringLiteral("program");
    QString dir_;
    QToolButton* button_ = nullptr;
    QAction* actions_[5] = {};
};

}  // namespace nvpg::gui
