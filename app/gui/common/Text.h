#pragma once

#include <string_view>

#include <QString>

namespace nvpg::gui {

// Core's strings (UTF-8) as Qt's: names, messages and text that core hands the GUI.
inline QString qstr(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// "1 kernel", "3 kernels".
inline QString plural(qsizetype n, const QString& one, const QString& many) {
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

}  // namespace nvpg::gui
