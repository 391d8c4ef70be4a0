#include "core/engine/Server.h"

#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <system_error>
#include <thread>

#include "core/engine/EngineProcess.h"
#include "core/engine/Messages.h"
#include "core/engine/ToolkitProbe.h"
#include "core/gpu/Session.h"
#include "core/pipeline/LineMapping.h"
#include "core/pipeline/Pipeline.h"
#include "core/support/Text.h"

namespace nvpg::engine {

namespace {

// Seconds an engine may run past its front end's deadline: the front end kills it at the
// deadline; this is for a front end that cannot (stopped, hung).
constexpr double kDeadlineMargin = 2;

// How long the engine waits, idle after a compile, before it hands the memory glibc keeps for
// reuse back to the system: long enough that a burst of edits never pays for it.
constexpr int kIdleTrimMs = 150;

// Waits up to kIdleTrimMs for the front end's next message; when none comes, trims the heaps of
// every arena (glibc's malloc_trim returns the free pages inside them too, not only at the top).
// An engine lives for thousands of compiles, each of which frees a few MB of libNVVM's memory in
// chunks the next compile may not fit, so without this its RSS drifts up with what the allocator
// holds free, not with what the engine uses (tst_gui_stress watches it).
void trimWhenIdle(int in) {
    pollfd p{in, POLLIN, 0};
    if (::poll(&p, 1, kIdleTrimMs) == 0) ::malloc_trim(0);
}

// Ends this process with its front end. The kernel sends SIGKILL when the parent dies; a parent
// that died before that was asked is seen by its id (when the front end said it: a wrapper
// command in NVPG_ENGINE may stand between them, and then that wrapper is the parent watched).
void endWithTheFrontEnd() {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    const char* parent = std::getenv(kEngineParentVariable);
    long long pid = 0;
    if (!parent || !support::parseInt(parent, pid) || pid <= 0) return;
    if (::getppid() != pid_t(pid) && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH) ::_exit(0);
}

// Ends this process when the front end closes its end of the socket, even while libNVVM is busy
// with a request (between requests the read sees it). Without a thread (a limit on threads was
// reached) the engine still ends with its front end and at its deadlines.
void watchTheSocket(int in) {
    try {
        std::thread([in] {
            while (true) {
                pollfd p{in, POLLRDHUP, 0};
                const int ready = ::poll(&p, 1, -1);
                if (ready < 0 && errno == EINTR) continue;
                if (ready < 0 || (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL))) ::_exit(0);
            }
        }).detach();
    } catch (const std::system_error&) {
    }
}

// Arms SIGALRM (whose default is to end the process) for the request's deadline plus a margin;
// no deadline disarms it.
void limitTo(const Frame& request) {
    const auto it = request.header.is_object() ? request.header.find(kDeadlineField) : request.header.end();
    if (it == request.header.end() || !it->is_number()) {
        ::alarm(0);
        return;
    }
    const double seconds = it->get<double>() + kDeadlineMargin;
    // alarm() takes whole seconds, at least one; an absurd deadline is no deadline.
    ::alarm(std::isfinite(seconds) && seconds < 1e6 ? unsigned(std::ceil(std::max(seconds, 1.0))) : 0);
}

// The late reply of a compile that did not run: its map (when asked for) says why.
Frame lateReplyOf(const pipeline::Job& job, const support::Error& error) {
    pipeline::CompileResult failed;
    failed.lineMap = std::make_shared<const inspect::LineMap>(pipeline::unavailableLineMap(job, error.message));
    return makeLateReply(failed, job.lineMap);
}

}  // namespace

int serveEngine(int in, int out) {
    return serveEngine(in, out, nullptr, std::nullopt);
}

int serveEngine(int in, int out, std::shared_ptr<const toolkit::Toolkit> loaded,
                std::optional<std::filesystem::path> loadedPath, bool oneRequest) {
    endWithTheFrontEnd();
    // One request's engine has no watcher: its front end (nvpg) ends it by ending, and a thread
    // would make every malloc of libNVVM's take the multi-threaded path (2-3% of a compile).
    if (!oneRequest) watchTheSocket(in);
    // The LTO chain and its links run on worker threads beside the PTX compile, and
    // glibc gives threads arenas of their own, up to 8 per core, each keeping what it freed. Two
    // arenas serve the two chains; an engine lives for thousands of compiles and must not grow
    // (tst_gui_stress checks its RSS).
    ::mallopt(M_ARENA_MAX, 2);
    // Compiles.
    std::shared_ptr<const toolkit::Toolkit> toolkit;
    std::optional<std::filesystem::path> toolkitPath;
    std::unique_ptr<pipeline::Pipeline> pipe;
    if (loaded) {
        toolkit = std::move(loaded);
        toolkitPath = std::move(loadedPath);
        pipe = std::make_unique<pipeline::Pipeline>(toolkit);
    }
    // Runs.
    std::shared_ptr<const toolkit::Driver> driver;
    std::unique_ptr<gpu::Session> session;
    int sessionDevice = -1;

    bool trimPending = false;
    for (bool first = true;; first = false) {
        if (oneRequest && !first) return 0;
        ::alarm(0);  // idle: the front end decides how long it keeps an engine
        if (trimPending) {
            trimWhenIdle(in);
            trimPending = false;
        }
        auto request = readFrame(in, std::nullopt);
        if (!request) {
            // A front end of another protocol version hears this one's, in a frame of this
            // version, so that it can name both; the rest is a closed socket: nothing more to do.
            if (support::startsWith(request.error().message, "protocol version"))
                (void)writeFrame(out, makeErrorReply(kCompileReply, request.error()));
            return 0;
        }
        limitTo(*request);
        if (request->type == kCompileRequest) {
            // A front end that asked for late outputs waits for their reply after the compile
            // reply, whatever the reply.
            const bool lateWanted = wantsLateReply(request->header);
            pipeline::Job asked;
            if (const auto& h = request->header; h.is_object()) {
                const auto it = h.find("line_map");
                asked.lineMap = it != h.end() && it->is_boolean() && it->get<bool>();
            }
            auto req = parseCompileRequest(std::move(*request));
            if (!req) {
                (void)writeFrame(out, makeErrorReply(kCompileReply, req.error()));
                if (lateWanted) (void)writeFrame(out, lateReplyOf(asked, req.error()));
                continue;
            }
            const bool late = pipeline::hasLateOutputs(req->job);
            trimPending = true;
            if (!pipe || req->cudaPath != toolkitPath) {
                toolkit::SearchConfig search;
                search.explicitRoot = req->cudaPath;
                auto tk = toolkit::Toolkit::load(search);
                if (!tk) {
                    (void)writeFrame(out, makeErrorReply(kCompileReply, tk.error()));
                    if (late) (void)writeFrame(out, lateReplyOf(req->job, tk.error()));
                    continue;
                }
                toolkit = *tk;
                toolkitPath = req->cudaPath;
                pipe = std::make_unique<pipeline::Pipeline>(toolkit);
            }
            // With late outputs the plain reply goes as soon as the plain result is complete, and
            // the SASS and the map follow in a reply of their own.
            bool replied = false;
            auto result = pipe->run(
                req->job,
                [&](const pipeline::StageEvent& stage) {
                    // A front end that is gone wants nothing more: stop before the next stage.
                    if (!writeFrame(out, makeProgress(stage))) ::_exit(0);
                },
                [&](const pipeline::CompileResult& plain) {
                    if (!late) return;
                    if (!writeFrame(out, makeCompileReply(plain))) ::_exit(0);
                    replied = true;
                },
                // The PTX part goes first, while the LTO chain is still at work.
                req->ptxFirst ? pipeline::Pipeline::ResultListener([&](const pipeline::CompileResult& partial) {
                    if (!writeFrame(out, makePtxReply(partial))) ::_exit(0);
                })
                              : pipeline::Pipeline::ResultListener(),
                // The listing goes before the live registers, the graph and the map.
                late && req->sassFirst ? pipeline::Pipeline::ResultListener([&](const pipeline::CompileResult& r) {
                    if (!writeFrame(out, makeSassReply(r))) ::_exit(0);
                })
                                       : pipeline::Pipeline::ResultListener());
            if (!replied && !writeFrame(out, makeCompileReply(result))) return 0;
            if (late && !writeFrame(out, result ? makeLateReply(*result, req->job.lineMap)
                                                : lateReplyOf(req->job, result.error())))
                return 0;
            continue;
        }
        if (request->type == kToolkitRequest) {
            // The front end's toolkit, opened here: a library that dies loading ends this process.
            const auto cudaPath = toolkitRequestPath(*request);
            if (!pipe || cudaPath != toolkitPath) {
                toolkit::SearchConfig search;
                search.explicitRoot = cudaPath;
                auto tk = toolkit::Toolkit::load(search);
                if (!tk) {
                    (void)writeFrame(out, makeToolkitReply(tk.error()));
                    continue;
                }
                toolkit = *tk;
                toolkitPath = cudaPath;
                pipe = std::make_unique<pipeline::Pipeline>(toolkit);
            }
            if (!writeFrame(out, makeToolkitReply(toolkit, &*request))) return 0;
            continue;
        }
        if (request->type == kRunRequest) {
            auto req = parseRunRequest(std::move(*request));
            if (!req) {
                (void)writeFrame(out, makeRunReply(req.error(), false));
                continue;
            }
            if (!session || sessionDevice != req->device) {
                if (!driver) {
                    toolkit::LibraryReport report;
                    auto d = toolkit::openDriver(report);
                    if (!d) {
                        (void)writeFrame(out, makeRunReply(d.error(), false));
                        continue;
                    }
                    driver = *d;
                }
                session.reset();
                auto s = gpu::Session::open(driver, req->device);
                if (!s) {
                    (void)writeFrame(out, makeRunReply(s.error(), false));
                    continue;
                }
                session = std::move(*s);
                sessionDevice = req->device;
            }
            auto ran = session->run(req->image, req->cubin, req->kernel, req->config, req->initial);
            const bool fatal = !ran && session->unusable();
            if (!writeFrame(out, makeRunReply(std::move(ran), fatal))) return 0;
            if (fatal) return 3;  // the driver frees the context when this process is gone
            continue;
        }
        (void)writeFrame(
            out, makeErrorReply(kCompileReply, support::makeError(support::ErrorKind::Internal,
                                                                  "the engine got a message it does not know")));
    }
}

}  // namespace nvpg::engine
