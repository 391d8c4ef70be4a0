#pragma once
// Temporary files and folders that neither a failure nor a stop signal leaves behind: a front
// end's SIGINT, SIGTERM and SIGHUP handler calls removeRegisteredNow() before the process ends.
// Registration takes no lock and the removal is async-signal-safe (system calls only): a fixed
// table of slots, each a path and its state.
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "core/support/Result.h"

namespace nvpg::support {

// While it lives, `path` is removed if a stop signal ends the process: a file is unlinked, a
// folder removed with everything in it (links are removed, never followed). Destruction only
// forgets the path: the owner removes it in the ordinary way. With the table full (32 at once),
// nothing is registered.
class RemovedOnSignal {
public:
    explicit RemovedOnSignal(const std::string& path, bool isFolder = false);
    ~RemovedOnSignal();
    RemovedOnSignal(const RemovedOnSignal&) = delete;
    RemovedOnSignal& operator=(const RemovedOnSignal&) = delete;

private:
    int slot_ = -1;
};

// Removes every registered path. Async-signal-safe: for a signal handler.
void removeRegisteredNow() noexcept;

// A new file or folder of this process's own, "PREFIXxxxxxxSUFFIX" in `parent` (which must
// exist), removed when the Temporary goes (with what a folder holds) and when a stop signal ends
// the process. Its name is registered before it is made, so no signal comes between the two. A
// writer of several files fills a folder in the output's own folder first, then renames the files
// out of it (on one file system), so an interruption leaves nothing half-written.
class Temporary {
public:
    enum class Kind { File, Folder };
    static Result<Temporary> make(const std::filesystem::path& parent, std::string_view prefix, std::string_view suffix,
                                  Kind kind);
    Temporary(Temporary&&) noexcept = default;
    Temporary& operator=(Temporary&&) = delete;
    ~Temporary();
    const std::filesystem::path& path() const { return path_; }

private:
    Temporary(std::filesystem::path path, Kind kind, std::unique_ptr<RemovedOnSignal> guard)
        : path_(std::move(path)), kind_(kind), guard_(std::move(guard)) {}
    std::filesystem::path path_;
    Kind kind_;
    std::unique_ptr<RemovedOnSignal> guard_;  // null once moved from
};

}  // namespace nvpg::support
