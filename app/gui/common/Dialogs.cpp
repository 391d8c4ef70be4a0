#include "gui/common/Dialogs.h"

#include <algorithm>

#include <QAbstractButton>
#include <QPushButton>

namespace nvpg::gui {

int askThreeWay(QWidget* parent, QMessageBox::Icon icon, const QString& title, const QString& text,
                const std::vector<std::pair<QString, QMessageBox::ButtonRole>>& answers, int defaultAnswer) {
    QMessageBox box(icon, title, text, QMessageBox::NoButton, parent);
    std::vector<QAbstractButton*> buttons;
    for (const auto& [label, role] : answers) buttons.push_back(box.addButton(label, role));
    box.setDefaultButton(static_cast<QPushButton*>(buttons[size_t(defaultAnswer)]));
    box.setEscapeButton(buttons[2]);
    box.exec();
    const auto it = std::find(buttons.begin(), buttons.end(), box.clickedButton());
    return it == buttons.end() ? 2 : int(it - buttons.begin());
}

}  // namespace nvpg::gui
