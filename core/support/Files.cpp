#include "support/Files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <new>
#include <stdexcept>

#include <fmt/format.h>

#include "support/Text.h"

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
    return "a special file";
}

Error inputError(const std::string& message) { return makeError(ErrorKind::Input, message); }

Error notRegular(const std::string& name, mode_t mode) {
    if (S_ISDIR(mode)) return inputError(fmt::format("cannot read {}: it is a directory", name));
    return inputError(fmt::format("{} is {}, not a regular file; inputs are read from regular files only (save "
                                  "what it gives to a file and use that)",
                                  name, typeName(mode)));
}

}  // namespace

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
        return inputError(fmt::format("cannot read {}: it changed size while it was read ({} bytes at the start, {} "
                                      "read); read it again once nothing writes to it",
                                      name, size, got + size_t(extra > 0)));
    return bytes;
}

namespace {

// Writing to /dev/null, a FIFO or a terminal: there is nothing to replace, so write in place.
Status writeInPlace(const std::filesystem::path& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary);
    if (!out)
        return makeError(ErrorKind::Input, fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) return makeError(ErrorKind::Input, fmt::format("cannot write {}: write error", path.string()));
    return {};
}

}  // namespace

Status writeFileAtomic(const std::filesystem::path& requested, std::string_view bytes) {
    std::error_code ec;
    const auto status = std::filesystem::status(requested, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        return writeInPlace(requested, bytes);
    // Through a symbolic link, replace the file it points to, not the link.
    auto path = requested;
    if (std::filesystem::is_symlink(requested, ec)) {
        auto target = std::filesystem::canonical(requested, ec);
        if (!ec) path = target;
    }
    const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    std::string tmpl = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0)
        return makeError(ErrorKind::Input, fmt::format("cannot write {}: {}", path.string(),
                                                       std::strerror(errno)));
    const char* p = bytes.data();
    size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            const int err = errno;
            ::close(fd);
            ::unlink(tmpl.c_str());
            return makeError(ErrorKind::Input,
                             fmt::format("cannot write {}: {}", path.string(), std::strerror(err)));
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
    // Keep the permissions a plain create would have given (mkstemp makes 0600).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmpl.c_str());
        return makeError(ErrorKind::Input,
                         fmt::format("cannot write {}: {}", path.string(), std::strerror(err)));
    }
    if (::rename(tmpl.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmpl.c_str());
        return makeError(ErrorKind::Input,
                         fmt::format("cannot replace {}: {}", path.string(), std::strerror(err)));
    }
    return {};
}

}  // namespace nvpg::support
