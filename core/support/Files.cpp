#include "support/Files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace nvpg::support {

Result<std::string> readFile(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return makeError(ErrorKind::Input, fmt::format("cannot read {}: it is a directory", path.string()));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorKind::Input,
                         fmt::format("cannot read {}: {}", path.string(), std::strerror(errno)));
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad())
        return makeError(ErrorKind::Input, fmt::format("cannot read {}: read error", path.string()));
    return ss.str();
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
