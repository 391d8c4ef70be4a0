#include "core/support/RemoveOnSignal.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <random>

#include <fmt/format.h>

namespace nvpg::support {

namespace {

enum State : int { Free = 0, Filling = 1, File = 2, Folder = 3 };

struct Slot {
    std::atomic<int> state{Free};
    char path[PATH_MAX];
};

constexpr int kSlots = 32;
Slot gSlots[kSlots];

struct LinuxDirent64 {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[1];
};

// Removes what folder `fd` holds (and closes it) with system calls only: getdents64, unlinkat
// and openat, not the library's opendir (which allocates). Nested folders are opened without
// following links, so nothing outside the folder is touched.
void removeContents(int fd, int depth) noexcept {
    alignas(8) char buf[4096];
    for (;;) {
        const long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (n <= 0) break;
        bool removed = false;
        for (long at = 0; at < n;) {
            const auto* e = reinterpret_cast<const LinuxDirent64*>(buf + at);
            at += e->reclen;
            const char* name = e->name;
            if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
            if (::unlinkat(fd, name, 0) == 0) {
                removed = true;
                continue;
            }
            if ((errno != EISDIR && errno != EPERM) || depth > 16) continue;
            const int sub = ::openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0) continue;
            removeContents(sub, depth + 1);
            if (::unlinkat(fd, name, AT_REMOVEDIR) == 0) removed = true;
        }
        // Entries removed while reading: read the folder again from its start.
        if (removed) ::lseek(fd, 0, SEEK_SET);
    }
    ::close(fd);
}

// A writer on another thread may add a file between the emptying and the rmdir: a few tries.
void removeTree(const char* path) noexcept {
    for (int attempt = 0; attempt < 4; ++attempt) {
        const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) return;
        removeContents(fd, 0);
        if (::rmdir(path) == 0 || errno == ENOENT) return;
    }
}

}  // namespace

RemovedOnSignal::RemovedOnSignal(const std::string& path, bool isFolder) {
    if (path.empty() || path.size() >= PATH_MAX) return;
    for (int i = 0; i < kSlots; ++i) {
        int expected = Free;
        if (!gSlots[i].state.compare_exchange_strong(expected, Filling)) continue;
        std::memcpy(gSlots[i].path, path.c_str(), path.size() + 1);
        gSlots[i].state.store(isFolder ? Folder : File);
        slot_ = i;
        return;
    }
}

RemovedOnSignal::~RemovedOnSignal() {
    if (slot_ >= 0) gSlots[slot_].state.store(Free);
}

void removeRegisteredNow() noexcept {
    const int saved = errno;
    for (auto& slot : gSlots) {
        const int state = slot.state.load();
        if (state == File) ::unlink(slot.path);
        if (state == Folder) removeTree(slot.path);
    }
    errno = saved;
}

Result<Temporary> Temporary::make(const std::filesystem::path& parent, std::string_view prefix, std::string_view suffix,
                                  Kind kind) {
    static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    thread_local std::mt19937_64 random{std::random_device{}()};
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string name(prefix);
        for (int i = 0; i < 6; ++i) name += kLetters[random() % (sizeof kLetters - 1)];
        name += suffix;
        const std::string path = (parent / name).string();
        if (path.size() >= PATH_MAX)
            return makeError(ErrorKind::Environment, fmt::format("the temporary name {} is too long", path));
        auto guard = std::make_unique<RemovedOnSignal>(path, kind == Kind::Folder);
        int made = -1;
        if (kind == Kind::Folder) {
            made = ::mkdir(path.c_str(), 0700);
        } else {
            made = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            if (made >= 0) made = ::close(made);
        }
        if (made == 0) return Temporary(path, kind, std::move(guard));
        if (errno == EEXIST) continue;  // not ours: the guard goes without removing it
        return makeError(ErrorKind::Environment,
                         fmt::format("cannot make a temporary {} in {}: {}", kind == Kind::Folder ? "folder" : "file",
                                     parent.string(), std::strerror(errno)));
    }
    return makeError(ErrorKind::Environment, fmt::format("cannot find a free temporary name in {}", parent.string()));
}

Temporary::~Temporary() {
    if (!guard_) return;
    // Still registered while it goes: a signal that comes meanwhile removes the rest.
    if (kind_ == Kind::Folder)
        removeTree(path_.c_str());
    else
        ::unlink(path_.c_str());
}

}  // namespace nvpg::support
