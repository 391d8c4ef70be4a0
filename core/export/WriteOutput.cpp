// Writing an export: never over one of its inputs, and never half of it.
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "core/export/Export.h"
#include "core/support/RemoveOnSignal.h"
#include "core/support/Text.h"

namespace fs = std::filesystem;

namespace nvpg::exporting {

using support::ErrorKind;
using support::makeError;

std::vector<fs::path> existingFiles(const Output& out, const fs::path& dir) {
    std::vector<fs::path> found;
    std::error_code ec;
    for (const auto& f : out.files)
        if (fs::exists(dir / f.path, ec)) found.push_back(dir / f.path);
    return found;
}

support::Status checkInputsKept(const Output& out, const fs::path& dir, std::string_view howToRedirect) {
    for (const auto& f : out.files) {
        const auto path = dir / f.path;
        if (const auto input = support::inputOverwrittenBy(path, out.inputs))
            return makeError(
                ErrorKind::Usage,
                fmt::format("nothing exported: writing {} would replace {}, which the export reads (the "
                            "same file through a link or another name); {}, or remove what links there",
                            support::printable(path.string()), support::printable(input->string()), howToRedirect));
    }
    return {};
}

namespace {

support::Status makeFolder(const fs::path& folder) {
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec)
        return makeError(ErrorKind::Environment, fmt::format("cannot make the folder {}: {}",
                                                             support::printable(folder.string()), ec.message()));
    return {};
}

// Moves the staged file into place. A new name, or a plain file with one name that may be
// written, is replaced by a rename; anything else (a link, a file with several names, a
// read-only file, a FIFO) is written by writeFileAtomic's rules, with the staged copy dropped.
support::Status place(const fs::path& staged, const fs::path& path, std::string_view bytes,
                      const support::WriteOptions& options) {
    struct stat st {};
    const bool exists = ::lstat(path.c_str(), &st) == 0;
    if (!exists ||
        (S_ISREG(st.st_mode) && st.st_nlink == 1 && (st.st_mode & 0222) != 0 && ::access(path.c_str(), W_OK) == 0)) {
        if (exists) ::chmod(staged.c_str(), st.st_mode & 07777);  // the replaced file's mode
        if (::rename(staged.c_str(), path.c_str()) == 0) return {};
        if (errno != EXDEV)
            return makeError(ErrorKind::Input, fmt::format("cannot write {}: {}", support::printable(path.string()),
                                                           std::strerror(errno)));
    }
    std::error_code ec;
    fs::remove(staged, ec);
    return support::writeFileAtomic(path, bytes, options);
}

}  // namespace

support::Status writeOutput(const Output& out, const fs::path& dir, const support::WriteOptions& options,
                            std::string_view howToRedirect) {
    if (auto st = checkInputsKept(out, dir, howToRedirect); !st) return st;
    if (auto st = makeFolder(dir); !st) return st;
    // Everything is written to the staging folder first: the slow part (buffers of hundreds of
    // MB) leaves nothing in `dir` when it fails or is interrupted.
    auto staging = support::Temporary::make(dir, ".nvpg-export-", "", support::Temporary::Kind::Folder);
    if (!staging) return staging.error();
    for (const auto& f : out.files) {
        const auto path = staging->path() / f.path;
        if (auto st = makeFolder(path.parent_path()); !st) return st;
        if (auto st = support::writeFileAtomic(path, f.bytes, {false, {}, /*durable=*/options.durable}); !st) return st;
    }
    for (const auto& f : out.files) {
        const auto path = dir / f.path;
        if (auto st = makeFolder(path.parent_path()); !st) return st;
        if (auto st = place(staging->path() / f.path, path, f.bytes, options); !st) return st;
    }
    return {};
}

}  // namespace nvpg::exporting
