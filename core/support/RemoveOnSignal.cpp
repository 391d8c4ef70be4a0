#include "support/RemoveOnSignal.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace nvpg::support {

namespace {

enum State : int { Free = 0, Filling = 1, File = 2, Folder = 3 };

struct Slot {
    std::atomic<int> state{Free};
    char path[PATH_MAX];
};

constexpr int kSlots = 32;
Slot gSlots[kSlots];

// The files directly in `dir`, then `dir`: getdents64 and unlinkat, which are system calls, not
// the library's opendir (which allocates).
void removeFolder(const char* dir) noexcept {
    const int fd = ::open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        alignas(8) char buf[4096];
        for (;;) {
            const long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
            if (n <= 0) break;
            for (long at = 0; at < n;) {
                struct Entry {
                    uint64_t ino;
                    int64_t off;
                    unsigned short reclen;
                    unsigned char type;
                    char name[1];
                };
                const auto* e = reinterpret_cast<const Entry*>(buf + at);
                if (std::strcmp(e->name, ".") != 0 && std::strcmp(e->name, "..") != 0) ::unlinkat(fd, e->name, 0);
                at += e->reclen;
            }
        }
        ::close(fd);
    }
    ::rmdir(dir);
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
    for (auto& slot : gSlots) {
        const int state = slot.state.load();
        if (state == File) ::unlink(slot.path);
        if (state == Folder) removeFolder(slot.path);
    }
}

}  // namespace nvpg::support
