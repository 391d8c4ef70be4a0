#include "document/FileChecks.h"

#include <QFile>

#include "support/Files.h"

namespace nvpg::gui {

QString notRegularFile(const QString& path) {
    const auto reason = support::notRegularFileReason(QFile::encodeName(path).toStdString());
    return reason ? QString::fromStdString(*reason) : QString();
}

}  // namespace nvpg::gui
