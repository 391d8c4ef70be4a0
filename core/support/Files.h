#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "support/Result.h"

namespace nvpg::support {

// The whole file as bytes; the error names the file and the reason.
Result<std::string> readFile(const std::filesystem::path& path);
// Writes to a temporary file beside `path`, then renames it over `path`, so that a crash or a
// full disk never leaves a half-written file where the old one was. A symbolic link is followed
// (its target is replaced); a device or FIFO (/dev/null, /dev/stdout) is written in place.
Status writeFileAtomic(const std::filesystem::path& path, std::string_view bytes);

}  // namespace nvpg::support
