#include "core/support/Files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <stdexcept>

#include <fmt/format.h>

#include "core/support/Text.h"

namespace nvpg::support {

namespace {

// Closes a descriptor on every way out of a function.
class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    // Closes now, for the caller to see the error (close can report a delayed write error).
    int close() {
        const int fd = fd_;
        fd_ = -1;
        return ::close(fd);
    }

private:
    int fd_;
};

std::string_view typeName(mode_t mode) {
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISDIR(mode)) return "a folder";
    return "a special file";
}

Error inputError(const std::string& message) {
    return makeError(ErrorKind::Input, message);
}

Error notRegular(const std::string& name, mode_t mode) {
    if (S_ISDIR(mode)) return inputError(fmt::format("cannot read {}: it is a directory", name));
    return inputError(
        fmt::format("{} is {}, not a regular file; inputs are read from regular files only (save "
                    "what it gives to a file and use that)",
                    name, typeName(mode)));
}

}  // namespace

std::optional<std::string> notRegularFileReason(const std::filesystem::path& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return std::nullopt;
    std::error_code ec;
    if (std::filesystem::is_symlink(path, ec)) {
        const auto target = std::filesystem::read_symlink(path, ec);
        return fmt::format("{} is a link to {}, {}, not a regular file", path.string(), target.string(),
                           typeName(st.st_mode));
    }
    return fmt::format("{} is {}, not a regular file", path.string(), typeName(st.st_mode));
}

Result<std::string> readFile(const std::filesystem::path& path, SizeLimit limit) {
    const std::string name = path.string();
    auto failed = [&](int err) { return inputError(fmt::format("cannot read {}: {}", name, std::strerror(err))); };
    // The type first, without opening: opening a FIFO waits for a writer, and a device may have
    // effects of its own.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return failed(errno);
    if (!S_ISREG(st.st_mode)) return notRegular(name, st.st_mode);
    // O_NONBLOCK: should the name have become a FIFO since, open does not wait for a writer.
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    if (fd.get() < 0) return failed(errno);
    if (::fstat(fd.get(), &st) != 0) return failed(errno);
    if (!S_ISREG(st.st_mode)) return notRegular(name, st.st_mode);
    const auto size = uint64_t(st.st_size);
    if (size > limit.bytes)
        return inputError(fmt::format("{} is {} ({} bytes), more than the {} ({} bytes) {} may be", name,
                                      formatBytes(size), size, formatBytes(limit.bytes), limit.bytes, limit.what));
    std::string bytes;
    try {
        bytes.resize(size);
    } catch (const std::bad_alloc&) {
        return inputError(fmt::format("not enough memory to read {} ({} bytes)", name, size));
    } catch (const std::length_error&) {
        return inputError(fmt::format("not enough memory to read {} ({} bytes)", name, size));
    }
    size_t got = 0;
    while (got < bytes.size()) {
        const ssize_t n = ::read(fd.get(), bytes.data() + got, bytes.size() - got);
        if (n < 0) {
            if (errno == EINTR) continue;
            return failed(errno);
        }
        if (n == 0) break;
        got += size_t(n);
    }
    // A file written while it is read gives neither the old contents nor the new.
    char more = 0;
    ssize_t extra = 0;
    while ((extra = ::read(fd.get(), &more, 1)) < 0 && errno == EINTR) {
    }
    if (got != size || extra > 0)
        return inputError(
            fmt::format("cannot read {}: it changed size while it was read ({} bytes at the start, {} "
                        "read); read it again once nothing writes to it",
                        name, size, got + size_t(extra > 0)));
    return bytes;
}

namespace {

Error outputError(const std::string& message) {
    return makeError(ErrorKind::Input, message);
}

// Writing to /dev/null, a FIFO or a terminal: there is nothing to replace, so write in place.
Status writeInPlace(const std::filesystem::path& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary);
    if (!out) return outputError(fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) return outputError(fmt::format("cannot write {}: write error", path.string()));
    return {};
}

// All of `bytes` at `fd`'s offset; 0 or the errno.
int writeAll(int fd, std::string_view bytes) {
    const char* p = bytes.data();
    size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        p += n;
        left -= size_t(n);
    }
    return 0;
}

// The file a chain of symbolic links ends at, which need not exist (a link may name a file to
// be made). A relative link is relative to the folder it is in.
Result<std::filesystem::path> followLinks(const std::filesystem::path& requested) {
    auto path = requested;
    for (int hops = 0; hops < 40; ++hops) {
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0) {
            if (errno == ENOENT) return path;
            return outputError(fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
        }
        if (!S_ISLNK(st.st_mode)) return path;
        std::error_code ec;
        const auto target = std::filesystem::read_symlink(path, ec);
        if (ec) return outputError(fmt::format("cannot write {}: {}", path.string(), ec.message()));
        path = target.is_absolute() ? target : path.parent_path() / target;
    }
    return outputError(fmt::format("cannot write {}: {}", requested.string(), std::strerror(ELOOP)));
}

bool readOnly(const std::filesystem::path& path, const struct stat& st) {
    // The mode bits too: root may write anything, but a file made 0444 says "keep this".
    return (st.st_mode & 0222) == 0 || (::access(path.c_str(), W_OK) != 0 && errno == EACCES);
}

// A file with several names: replacing it by rename would leave the other names on the old
// contents, so it is written where it is. Its new size is reserved first, so that a full disk
// fails before the old contents are touched.
Status rewriteInPlace(const std::filesystem::path& path, const std::string& where, std::string_view bytes) {
    auto failed = [&](int err) { return outputError(fmt::format("cannot write {}: {}", where, std::strerror(err))); };
    Fd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY));
    if (fd.get() < 0) return failed(errno);
    if (!bytes.empty()) {
        const int err = ::posix_fallocate(fd.get(), 0, off_t(bytes.size()));
        if (err != 0 && err != EOPNOTSUPP && err != EINVAL) return failed(err);
    }
    if (const int err = writeAll(fd.get(), bytes)) return failed(err);
    if (::ftruncate(fd.get(), off_t(bytes.size())) != 0 || ::fsync(fd.get()) != 0) return failed(errno);
    if (fd.close() != 0) return failed(errno);
    return {};
}

}  // namespace

Status writeFileAtomic(const std::filesystem::path& requested, std::string_view bytes, const WriteOptions& options) {
    struct stat st {};
    if (::stat(requested.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return outputError(fmt::format("cannot write {}: it is a directory", requested.string()));
        if (!S_ISREG(st.st_mode)) return writeInPlace(requested, bytes);
    }
    // Through symbolic links, the file they name is written and the links stay.
    auto resolved = followLinks(requested);
    if (!resolved) return resolved.error();
    const auto& path = *resolved;
    const std::string where =
        path == requested ? path.string() : fmt::format("{} (the file {} links to)", path.string(), requested.string());
    auto failed = [&](int err) { return outputError(fmt::format("cannot write {}: {}", where, std::strerror(err))); };

    const bool exists = ::stat(path.c_str(), &st) == 0;
    if (!exists && errno != ENOENT) return failed(errno);
    if (exists) {
        if (S_ISDIR(st.st_mode)) return outputError(fmt::format("cannot write {}: it is a directory", where));
        if (readOnly(path, st) && !options.replaceReadOnly)
            return outputError(fmt::format(
                "{} is read-only (mode {:04o}), so it was not replaced; make it writable{}", where, st.st_mode & 07777,
                options.howToReplaceReadOnly.empty() ? std::string()
                                                     : fmt::format(", or {}", options.howToReplaceReadOnly)));
        if (st.st_nlink > 1) {
            auto st2 = rewriteInPlace(path, where, bytes);
            // A read-only file the user asked to replace cannot be opened for writing: it is
            // replaced instead (its other names keep the old contents).
            if (st2 || !options.replaceReadOnly) return st2;
        }
    }

    const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    std::string tmpl = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
    Fd fd(::mkstemp(tmpl.data()));
    if (fd.get() < 0) return failed(errno);
    auto discard = [&](int err) {
        ::unlink(tmpl.c_str());
        return failed(err);
    };
    if (const int err = writeAll(fd.get(), bytes)) return discard(err);
    if (exists) {
        // The file replaced keeps its mode, and its owner where this process may give it.
        ::fchmod(fd.get(), st.st_mode & 07777);
        if (st.st_uid != ::geteuid() || st.st_gid != ::getegid())
            if (::fchown(fd.get(), st.st_uid, st.st_gid) != 0) ::fchmod(fd.get(), st.st_mode & 0777);
    } else {
        // The permissions a plain create would have given (mkstemp makes 0600).
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::fchmod(fd.get(), 0666 & ~mask);
    }
    if (options.durable && ::fsync(fd.get()) != 0) return discard(errno);
    if (fd.close() != 0) return discard(errno);
    if (::rename(tmpl.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmpl.c_str());
        return outputError(fmt::format("cannot replace {}: {}", where, std::strerror(err)));
    }
    return {};
}

bool sameFile(const std::filesystem::path& a, const std::filesystem::path& b) {
    struct stat sa {
    }, sb{};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

std::optional<std::filesystem::path> inputOverwrittenBy(const std::filesystem::path& output,
                                                        const std::vector<std::filesystem::path>& inputs,
                                                        bool outputIsFolder) {
    std::error_code ec;
    auto folder = outputIsFolder ? std::filesystem::weakly_canonical(output, ec) : std::filesystem::path();
    if (!folder.empty() && folder.filename().empty()) folder = folder.parent_path();  // "out/"
    for (const auto& input : inputs) {
        if (sameFile(output, input)) return input;
        if (!outputIsFolder || ec || !std::filesystem::exists(input)) continue;
        std::error_code inputError;
        const auto real = std::filesystem::canonical(input, inputError);
        if (inputError) continue;
        // Inside: the folder's components are a prefix of the input's.
        auto [f, r] = std::mismatch(folder.begin(), folder.end(), real.begin(), real.end());
        if (f == folder.end()) return input;
    }
    return std::nullopt;
}

std::filesystem::path userCacheDir() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && *xdg && std::filesystem::path(xdg).is_absolute()) return std::filesystem::path(xdg) / "nvvm-playground";
    const char* home = std::getenv("HOME");
    if (home && *home && std::filesystem::path(home).is_absolute())
        return std::filesystem::path(home) / ".cache" / "nvvm-playground";
    return {};
}

}  // namespace nvpg::support
