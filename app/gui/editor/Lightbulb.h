#pragma once

#include <QColor>
#include <QIcon>
#include <QImage>

namespace nvpg::gui {

// The mark of a problem that has a fix: a light bulb (the editor margin's marker and the Problems
// panel's icon), with a dot in the problem's severity colour when `severity` is valid.
QImage lightbulbImage(const QColor& severity = {}, int size = 14);
QIcon lightbulbIcon();

}  // namespace nvpg::gui
