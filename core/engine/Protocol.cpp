#include "core/engine/Protocol.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "core/support/Json.h"

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::engine {

namespace {

constexpr char kMagic[4] = {'N', 'V', 'P', 'G'};
constexpr size_t kHeaderBytes = 4 + 2 + 2 + 4 + 8;

template <class T>
void put(std::string& out, T v) {
    for (size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<char>((uint64_t(v) >> (8 * i)) & 0xff));
}

template <class T>
T get(const char* p) {
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v |= uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
    return static_cast<T>(v);
}

support::Error bad(std::string what) {
    return makeError(ErrorKind::Input, "engine message: " + what);
}

// Checks the fixed header; returns the JSON length and blob count.
support::Result<std::pair<uint64_t, uint32_t>> checkHeader(const char* p, uint16_t& type) {
    if (std::memcmp(p, kMagic, 4) != 0) {
        // What came instead names the culprit ("y.y.y.y." is `yes`): printable ASCII as is,
        // anything else as '.', as hexdump -C shows bytes.
        std::string sent;
        for (size_t i = 0; i < kHeaderBytes; ++i) sent += p[i] >= 0x20 && p[i] < 0x7f ? p[i] : '.';
        return bad(
            fmt::format("not an NVVM Playground engine message (bad magic): it sent \"{}\" where one "
                        "starts \"NVPG\"",
                        sent));
    }
    const auto version = get<uint16_t>(p + 4);
    if (version != kProtocolVersion)
        return bad(
            fmt::format("protocol version {}, but this side speaks {}: the engine and the front end "
                        "come from different builds",
                        version, kProtocolVersion));
    type = get<uint16_t>(p + 6);
    const auto blobs = get<uint32_t>(p + 8);
    const auto jsonLen = get<uint64_t>(p + 12);
    if (blobs > kMaxBlobs) return bad(fmt::format("{} blobs is more than the {} allowed", blobs, kMaxBlobs));
    if (jsonLen > kMaxJsonBytes)
        return bad(fmt::format("a {}-byte header is more than the {} allowed", jsonLen, kMaxJsonBytes));
    return std::pair{jsonLen, blobs};
}

support::Result<nlohmann::json> parseJson(std::string_view text) {
    // Depth-limited like every JSON core reads: a header nested without end would overflow the
    // stack of whichever side copies or dumps it.
    auto parsed = support::parseJson(text);
    if (parsed.problem)
        return bad(fmt::format("its header is not valid JSON (line {}, column {}: {})", parsed.problem->line,
                               parsed.problem->column, parsed.problem->reason));
    return std::move(parsed.doc);
}

}  // namespace

std::string encodeFrame(const Frame& f) {
    // JSON text is Unicode: bytes that are not UTF-8 (a Latin-1 file name, a log quoting such
    // IR) arrive as U+FFFD rather than throwing out of core and killing the process that sends.
    const auto json = f.header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out(kMagic, 4);
    put<uint16_t>(out, kProtocolVersion);
    put<uint16_t>(out, f.type);
    put<uint32_t>(out, static_cast<uint32_t>(f.blobs.size()));
    put<uint64_t>(out, json.size());
    out += json;
    for (const auto& b : f.blobs) {
        put<uint64_t>(out, b.size());
        out += b;
    }
    return out;
}

support::Result<Frame> decodeFrame(std::string_view bytes) {
    if (bytes.size() < kHeaderBytes)
        return bad(fmt::format("truncated: {} bytes, not even the {}-byte header", bytes.size(), kHeaderBytes));
    Frame f;
    auto sizes = checkHeader(bytes.data(), f.type);
    if (!sizes) return sizes.error();
    auto [jsonLen, blobs] = *sizes;
    size_t pos = kHeaderBytes;
    if (bytes.size() - pos < jsonLen) return bad("truncated in its header");
    auto j = parseJson(bytes.substr(pos, jsonLen));
    if (!j) return j.error();
    f.header = std::move(*j);
    pos += jsonLen;
    for (uint32_t i = 0; i < blobs; ++i) {
        if (bytes.size() - pos < 8) return bad(fmt::format("truncated before blob {}", i));
        const auto len = get<uint64_t>(bytes.data() + pos);
        pos += 8;
        if (len > kMaxBlobBytes) return bad(fmt::format("blob {} of {} bytes is over the limit", i, len));
        if (bytes.size() - pos < len) return bad(fmt::format("truncated in blob {}", i));
        f.blobs.emplace_back(bytes.substr(pos, len));
        pos += len;
    }
    if (pos != bytes.size()) return bad(fmt::format("{} bytes after the end of the message", bytes.size() - pos));
    return f;
}

namespace {

support::Error woken() {
    return makeError(ErrorKind::Internal, "stopped waiting for the engine");
}

// Whether the other thread asked the wait to end.
bool isWoken(const pollfd& wake) {
    return wake.fd >= 0 && (wake.revents & (POLLIN | POLLERR | POLLHUP));
}

}  // namespace

support::Status writeFrame(int fd, const Frame& frame, std::optional<std::chrono::steady_clock::time_point> deadline,
                           int wakeFd) {
    const auto bytes = encodeFrame(frame);
    size_t done = 0;
    while (done < bytes.size()) {
        if (deadline) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return makeError(ErrorKind::Timeout, "timed out sending to the engine");
            pollfd pfd[2] = {{fd, POLLOUT, 0}, {wakeFd, POLLIN, 0}};
            const int ready = ::poll(pfd, wakeFd >= 0 ? 2 : 1, int(std::min<long long>(left.count(), 1000)));
            if (ready > 0 && isWoken(pfd[1])) return woken();
            if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
        }
        // send() with MSG_NOSIGNAL on a socket: a peer that died must give an error, not SIGPIPE.
        const int flags = MSG_NOSIGNAL | (deadline ? MSG_DONTWAIT : 0);
        ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, flags);
        if (n < 0 && errno == ENOTSOCK) n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return makeError(ErrorKind::Internal, fmt::format("writing to the engine: {}", std::strerror(errno)));
        }
        done += size_t(n);
    }
    return {};
}

namespace {

// Reads exactly `n` bytes, or fails on end of file, an error or the deadline.
support::Status readExact(int fd, char* p, size_t n, std::optional<std::chrono::steady_clock::time_point> deadline,
                          bool atStart, int wakeFd) {
    size_t done = 0;
    while (done < n) {
        int waitMs = -1;
        if (deadline) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return makeError(ErrorKind::Timeout, "timed out waiting for the engine");
            waitMs = int(std::min<long long>(left.count(), 1000));
        }
        pollfd pfd[2] = {{fd, POLLIN, 0}, {wakeFd, POLLIN, 0}};
        const int ready = ::poll(pfd, wakeFd >= 0 ? 2 : 1, waitMs);
        if (ready < 0 && errno != EINTR)
            return makeError(ErrorKind::Internal, fmt::format("waiting for the engine: {}", std::strerror(errno)));
        if (ready > 0 && isWoken(pfd[1])) return woken();
        if (ready <= 0 || !(pfd[0].revents & (POLLIN | POLLERR | POLLHUP))) continue;
        const ssize_t got = ::read(fd, p + done, n - done);
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return makeError(ErrorKind::Internal, fmt::format("reading from the engine: {}", std::strerror(errno)));
        }
        if (got == 0)
            return makeError(ErrorKind::Internal, atStart && done == 0 ? "the other side ended (closed its pipe)"
                                                                       : "engine message: truncated (the pipe closed)");
        done += size_t(got);
    }
    return {};
}

}  // namespace

support::Result<Frame> readFrame(int fd, std::optional<std::chrono::steady_clock::time_point> deadline, int wakeFd) {
    char head[kHeaderBytes];
    if (auto st = readExact(fd, head, sizeof head, deadline, true, wakeFd); !st) return st.error();
    Frame f;
    auto sizes = checkHeader(head, f.type);
    if (!sizes) return sizes.error();
    auto [jsonLen, blobs] = *sizes;
    // Lengths come from the other side: grow buffers as bytes arrive rather than trusting them.
    auto readBlob = [&](uint64_t len, std::string& into) -> support::Status {
        constexpr uint64_t kChunk = 1 << 20;
        while (into.size() < len) {
            const size_t old = into.size();
            into.resize(old + size_t(std::min(kChunk, len - old)));
            if (auto st = readExact(fd, into.data() + old, into.size() - old, deadline, false, wakeFd); !st) return st;
        }
        return {};
    };
    std::string json;
    if (auto st = readBlob(jsonLen, json); !st) return st.error();
    auto j = parseJson(json);
    if (!j) return j.error();
    f.header = std::move(*j);
    for (uint32_t i = 0; i < blobs; ++i) {
        char lenBytes[8];
        if (auto st = readExact(fd, lenBytes, 8, deadline, false, wakeFd); !st) return st.error();
        const auto len = get<uint64_t>(lenBytes);
        if (len > kMaxBlobBytes) return bad(fmt::format("blob {} of {} bytes is over the limit", i, len));
        std::string blob;
        if (auto st = readBlob(len, blob); !st) return st.error();
        f.blobs.push_back(std::move(blob));
    }
    return f;
}

}  // namespace nvpg::engine
