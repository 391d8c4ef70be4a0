#include "document/FileChecks.h"

#include <sys/stat.h>

#include <QFile>
#include <QFileInfo>

namespace nvpg::gui {

QString notRegularFile(const QString& path) {
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0 || S_ISREG(st.st_mode)) return {};
    const QString what = S_ISFIFO(st.st_mode)   ? QStringLiteral("a FIFO (named pipe)")
                         : S_ISCHR(st.st_mode)  ? QStringLiteral("a character device")
                         : S_ISBLK(st.st_mode)  ? QStringLiteral("a block device")
                         : S_ISSOCK(st.st_mode) ? QStringLiteral("a socket")
                         : S_ISDIR(st.st_mode)  ? QStringLiteral("a folder")
                                                : QStringLiteral("neither a file nor a folder");
    const QFileInfo info(path);
    if (info.isSymLink())
        return QStringLiteral("%1 is a link to %2, %3, not a regular file").arg(path, info.symLinkTarget(), what);
    return QStringLiteral("%1 is %2, not a regular file").arg(path, what);
}

}  // namespace nvpg::gui
