#pragma once

#include <QString>
#include <QStringList>

#include "core/workspace/Workspace.h"

namespace nvpg::gui {

// Why the app will not read or replace `path` as a document: "PATH is a FIFO (named pipe), not a
// regular file" (reading a FIFO waits for a writer, /dev/zero never ends). Links are followed and
// named. Empty for a regular file, and for a path that does not exist (reading it says so; saving
// creates it).
QString notRegularFile(const QString& path);

// Why saving `ws` to `path` would replace a file it reads, as support::inputOverwrittenBy decides:
// one of `moduleFiles` (the files its modules were read from), or a buffer file of a run
// configuration, found from the folder of `path` and of `currentPath` (the workspace's file now,
// if any). Empty when it would not.
QString inputReplacedBy(const QString& path, const workspace::Workspace& ws, const QString& currentPath,
                        const QStringList& moduleFiles);

}  // namespace nvpg::gui
