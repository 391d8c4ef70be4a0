#pragma once

#include <QString>

namespace nvpg::gui {

// Why the app will not read or replace `path` as a document: "PATH is a FIFO (named pipe), not a
// regular file" (reading a FIFO waits for a writer, /dev/zero never ends). Links are followed and
// named. Empty for a regular file, and for a path that does not exist (reading it says so; saving
// creates it).
QString notRegularFile(const QString& path);

}  // namespace nvpg::gui
