#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "support/Result.h"

namespace nvpg::support {

// A hidden folder that a writer of several files fills first and then moves the files out of, so
// that a failure or an interruption leaves no half-written output behind: it is removed when the
// writer is done or fails (the destructor), and when a stop signal ends the process (the front
// end's handler calls removeStagingFolders; engine::endEnginesOnStopSignals does).
class StagingFolder {
public:
    // A new folder ".nvpg-WHAT-XXXXXX" inside `parent` (which must exist): there, renames into
    // `parent` stay on one file system.
    static Result<StagingFolder> make(const std::filesystem::path& parent, std::string_view what);
    StagingFolder(StagingFolder&& other) noexcept;
    StagingFolder& operator=(StagingFolder&&) = delete;
    StagingFolder(const StagingFolder&) = delete;
    ~StagingFolder();
    const std::filesystem::path& path() const { return path_; }

private:
    StagingFolder(std::filesystem::path path, int slot) : path_(std::move(path)), slot_(slot) {}
    std::filesystem::path path_;
    int slot_ = -1;  // its place in the list the signal handler removes; -1: moved from
};

// Removes every staging folder this process has (with what is in it). Async-signal-safe: for a
// handler of SIGINT, SIGTERM and SIGHUP, before it ends the process.
void removeStagingFolders() noexcept;

}  // namespace nvpg::support
