// The engine protocol on arbitrary bytes, as a front end or an engine would receive them:
// decodeFrame on the bytes, readFrame on the same bytes from a file descriptor, and the message
// readers on every frame that decodes. Nothing may crash; decodeFrame and readFrame must agree;
// a frame encodes back to the same frame; and a message a reader accepts, made again from what
// it read, reads the same (nothing is lost on the way between the processes).
#include <sys/mman.h>
#include <unistd.h>

#include "FuzzSupport.h"
#include "core/engine/Messages.h"

using namespace nvpg;
using fuzz::require;

namespace {

bool sameFrame(const engine::Frame& a, const engine::Frame& b) {
    return a.type == b.type && a.header == b.header && a.blobs == b.blobs;
}

std::string encoded(const engine::Frame& f) {
    return engine::encodeFrame(f);
}

// Each reader, and the message made again from what it read: making it again from that
// message must give the same bytes.
void checkMessages(const engine::Frame& frame) {
    if (auto req = engine::parseCompileRequest(frame)) {
        const auto made = engine::makeCompileRequest(req->job, req->cudaPath);
        auto again = engine::parseCompileRequest(made);
        require(again.ok(), "a compile request made from one read reads", again ? "" : again.error().message);
        require(encoded(engine::makeCompileRequest(again->job, again->cudaPath)) == encoded(made),
                "a compile request survives", [&] { return made.header.dump(); });
    }
    if (auto req = engine::parseRunRequest(frame)) {
        const auto made =
            engine::makeRunRequest(req->device, req->image, req->cubin, req->kernel, req->config, req->initial);
        auto again = engine::parseRunRequest(made);
        require(again.ok(), "a run request made from one read reads", again ? "" : again.error().message);
        require(encoded(engine::makeRunRequest(again->device, again->image, again->cubin, again->kernel, again->config,
                                               again->initial)) == encoded(made),
                "a run request survives", [&] { return made.header.dump(); });
    }
    if (auto stage = engine::readProgress(frame)) {
        auto again = engine::readProgress(engine::makeProgress(*stage));
        require(again.ok() && *again == *stage, "a progress message survives", [&] { return frame.header.dump(); });
    }
    if (frame.type == engine::kCompileReply) {
        const auto made = engine::makeCompileReply(engine::readCompileReply(frame));
        require(encoded(engine::makeCompileReply(engine::readCompileReply(made))) == encoded(made),
                "a compile reply survives", [&] { return made.header.dump(); });
    }
    if (frame.type == engine::kRunReply) {
        bool fatal = false;
        auto outcome = engine::readRunReply(frame, fatal);
        const auto made = engine::makeRunReply(std::move(outcome), fatal);
        bool fatalAgain = false;
        auto again = engine::readRunReply(made, fatalAgain);
        require(fatalAgain == fatal, "a run reply keeps its fatal flag");
        require(encoded(engine::makeRunReply(std::move(again), fatalAgain)) == encoded(made), "a run reply survives",
                [&] { return made.header.dump(); });
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto bytes = fuzz::bytesOf(data, size);
    auto decoded = engine::decodeFrame(bytes);
    if (decoded) {
        const auto again = engine::decodeFrame(engine::encodeFrame(*decoded));
        require(again.ok() && sameFrame(*again, *decoded), "an encoded frame decodes to the same frame");
        checkMessages(*decoded);
    }

    // The same bytes through a file descriptor, frame after frame, as the engine reads its socket.
    static const int fd = ::memfd_create("fuzz-frames", 0);
    require(fd >= 0, "memfd_create");
    require(::ftruncate(fd, 0) == 0 && ::pwrite(fd, data, size, 0) == ssize_t(size) && ::lseek(fd, 0, SEEK_SET) == 0,
            "writing the input to the memfd");
    for (int n = 0;; ++n) {
        auto frame = engine::readFrame(fd, std::nullopt);
        const auto at = ::lseek(fd, 0, SEEK_CUR);
        if (!frame) {
            // A whole frame is exactly what decodeFrame takes.
            require(n > 0 || !decoded, "readFrame reads what decodeFrame decodes", frame.error().message);
            break;
        }
        if (n == 0) {
            require(!decoded == (size_t(at) != size), "decodeFrame decodes exactly one whole frame");
            if (decoded) require(sameFrame(*frame, *decoded), "readFrame and decodeFrame give the same frame");
        }
        checkMessages(*frame);
    }
    return 0;
}
