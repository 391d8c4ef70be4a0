#include "support/Staging.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

#include <fmt/format.h>

namespace nvpg::support {

namespace {

// The folders a signal handler removes: fixed storage, so that the handler allocates nothing.
struct Slot {
    std::atomic<bool> used{false};   // claimed by a StagingFolder
    std::atomic<bool> ready{false};  // `path` is written: the handler may remove it
    char path[4096] = {};
};
std::array<Slot, 16> gSlots;

struct LinuxDirent64 {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[1];
};

// Removes what folder `fd` holds (and closes it), with system calls only (async-signal-safe).
// Nested folders are opened without following links, so nothing outside the folder is touched.
void removeContents(int fd, int depth) {
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

void removeTree(const char* path) {
    const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return;
    removeContents(fd, 0);
    ::rmdir(path);
}

}  // namespace

Result<StagingFolder> StagingFolder::make(const std::filesystem::path& parent, std::string_view what) {
    std::string tmpl = (parent / fmt::format(".nvpg-{}-XXXXXX", what)).string();
    if (tmpl.size() >= sizeof(Slot::path))
        return makeError(ErrorKind::Environment, fmt::format("the folder name {} is too long", tmpl));
    int slot = -1;
    for (size_t i = 0; i < gSlots.size() && slot < 0; ++i)
        if (!gSlots[i].used.exchange(true)) slot = int(i);
    if (slot < 0) return makeError(ErrorKind::Internal, "too many staging folders at once");
    if (!::mkdtemp(tmpl.data())) {
        const int err = errno;
        gSlots[size_t(slot)].used.store(false);
        return makeError(ErrorKind::Environment,
                         fmt::format("cannot make a folder in {}: {}", parent.string(), std::strerror(err)));
    }
    auto& s = gSlots[size_t(slot)];
    std::memcpy(s.path, tmpl.c_str(), tmpl.size() + 1);
    s.ready.store(true);
    return StagingFolder(tmpl, slot);
}

StagingFolder::StagingFolder(StagingFolder&& other) noexcept
    : path_(std::move(other.path_)), slot_(std::exchange(other.slot_, -1)) {}

StagingFolder::~StagingFolder() {
    if (slot_ < 0) return;
    auto& s = gSlots[size_t(slot_)];
    // Listed until it is gone: a signal that comes meanwhile removes the rest before the end.
    removeTree(s.path);
    s.ready.store(false);
    s.used.store(false);
}

void removeStagingFolders() noexcept {
    const int saved = errno;
    for (auto& s : gSlots)
        if (s.ready.load()) removeTree(s.path);
    errno = saved;
}

}  // namespace nvpg::support
