#pragma once

#include <utility>
#include <vector>

#include <QMessageBox>
#include <QString>

class QWidget;

namespace nvpg::gui {

// A question with three labelled answers: the index of the one clicked (the third for Esc).
int askThreeWay(QWidget* parent, QMessageBox::Icon icon, const QString& title, const QString& text,
                const std::vector<std::pair<QString, QMessageBox::ButtonRole>>& answers, int defaultAnswer);

}  // namespace nvpg::gui
