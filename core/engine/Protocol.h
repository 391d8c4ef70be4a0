#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/support/Result.h"

namespace nvpg::engine {

// The messages between a front end and its engine process: a versioned, length-prefixed frame
// holding a JSON header and binary blobs (modules, images, buffers), so that large data never
// goes through JSON.
//
//   "NVPG"  u16 version  u16 type  u32 blob count  u64 JSON length  JSON
//   then per blob: u64 length, bytes                        (all integers little-endian)
struct Frame {
    uint16_t type = 0;
    nlohmann::json header;
    std::vector<std::string> blobs;
};

inline constexpr uint16_t kProtocolVersion = 1;
// A frame of this type says what the engine is doing before it answers (see Messages.h).
inline constexpr uint16_t kProgressFrame = 5;
// Limits that a garbage or hostile length cannot get past.
inline constexpr uint64_t kMaxJsonBytes = 64ull << 20;
inline constexpr uint64_t kMaxBlobBytes = 16ull << 30;
inline constexpr uint32_t kMaxBlobs = 4096;
// A request's header field: the seconds the front end waits for the answer. The engine ends by
// itself a little after that (its front end may be stopped or hung and unable to end it).
inline constexpr const char* kDeadlineField = "deadline_s";

std::string encodeFrame(const Frame& frame);
// Decodes one whole frame from `bytes` (which must hold exactly one). The error says what is
// wrong: a bad magic, another version, a truncated or oversized part, JSON that does not parse.
support::Result<Frame> decodeFrame(std::string_view bytes);

// Writes a frame to a file descriptor (a socket or pipe), all of it, by `deadline` if given (a
// peer that stopped reading must not block the writer for ever). Passing the deadline is a
// Timeout error. With a deadline, a readable `wakeFd` (an eventfd another thread writes) stops
// the wait too, with an Internal error: the caller knows why it woke it.
support::Status writeFrame(int fd, const Frame& frame,
                           std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt,
                           int wakeFd = -1);
// Reads one frame, waiting at most until `deadline` (none: no limit; passing it is a Timeout
// error) or until `wakeFd` is readable, as for writeFrame. A closed pipe is an Internal error
// saying the other side ended; bytes that are not a frame (a bad magic, another version, sizes
// over the limits, a header that is not JSON) are an Input error.
support::Result<Frame> readFrame(int fd, std::optional<std::chrono::steady_clock::time_point> deadline,
                                 int wakeFd = -1);

}  // namespace nvpg::engine
