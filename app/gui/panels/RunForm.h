#pragma once

#include <QCoreApplication>
#include <QString>

class QComboBox;
class QDoubleSpinBox;
class QIcon;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QWidget;

namespace nvpg::gui {

class ArgTableModel;
class RunHistory;

// The Runs dock's widgets, laid out by build(): on the left the configuration (the saved
// configurations, the kernel and its launch, a row per parameter, the configuration's problems
// under them), in the middle Run with what stops it beside it and the results under it, on the
// right the run history. What they do is RunPanel's.
class RunForm {
public:
    // Lays the form out in `panel` (a splitter that fills it), the parameter rows showing `args`
    // and the Run button `runIcon`.
    static RunForm build(QWidget* panel, ArgTableModel* args, const QIcon& runIcon);
    // How an error reads (the configuration's problems, a failed run).
    static QString errorStyle() { return QStringLiteral("color: #b00020;"); }

    QComboBox* saved = nullptr;
    QLineEdit* name = nullptr;
    QPushButton* save = nullptr;
    QPushButton* remove = nullptr;
    QComboBox* kernel = nullptr;
    QComboBox* from = nullptr;
    QLineEdit* grid = nullptr;
    QLineEdit* block = nullptr;
    QSpinBox* shared = nullptr;
    QSpinBox* repeat = nullptr;
    QDoubleSpinBox* timeout = nullptr;
    QTableView* argView = nullptr;
    QLabel* message = nullptr;
    QPushButton* run = nullptr;
    QLabel* note = nullptr;
    QLabel* summary = nullptr;
    QTabWidget* buffers = nullptr;
    RunHistory* history = nullptr;

    // The panel's texts: one translation context with RunPanel's.
    Q_DECLARE_TR_FUNCTIONS(nvpg::gui::RunPanel)
};

}  // namespace nvpg::gui
