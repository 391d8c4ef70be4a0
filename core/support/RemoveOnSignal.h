#pragma once
// Temporary files and folders that a stop signal must not leave behind: a front end's SIGINT,
// SIGTERM and SIGHUP handler calls removeRegisteredNow() before the process ends. Registration
// takes no lock and the removal is async-signal-safe (unlink, and for a folder the files
// directly in it, then rmdir): a fixed table of slots, each a path and its state.
#include <string>

namespace nvpg::support {

// While it lives, `path` is removed if a stop signal ends the process. A folder (`isFolder`) is
// emptied of the files directly in it, then removed. Destruction only forgets the path: the
// owner removes it in the ordinary way. With the table full (32 at once), nothing is registered.
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

}  // namespace nvpg::support
