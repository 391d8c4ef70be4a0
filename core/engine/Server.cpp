#include "engine/Server.h"

#include <memory>
#include <optional>

#include "engine/Messages.h"
#include "gpu/Session.h"
#include "pipeline/Pipeline.h"

namespace nvpg::engine {

int serveEngine(int in, int out) {
    // Compiles.
    std::shared_ptr<toolkit::Toolkit> toolkit;
    std::optional<std::filesystem::path> toolkitPath;
    std::unique_ptr<pipeline::Pipeline> pipe;
    // Runs.
    std::shared_ptr<const toolkit::Driver> driver;
    std::unique_ptr<gpu::Session> session;
    int sessionDevice = -1;

    while (true) {
        auto request = readFrame(in, std::nullopt);
        if (!request) return 0;  // the front end closed the socket: nothing more to do
        if (request->type == kCompileRequest) {
            auto req = parseCompileRequest(std::move(*request));
            if (!req) {
                (void)writeFrame(out, makeErrorReply(kCompileReply, req.error()));
                continue;
            }
            if (!pipe || req->cudaPath != toolkitPath) {
                toolkit::SearchConfig search;
                search.explicitRoot = req->cudaPath;
                auto tk = toolkit::Toolkit::load(search);
                if (!tk) {
                    (void)writeFrame(out, makeErrorReply(kCompileReply, tk.error()));
                    continue;
                }
                toolkit = *tk;
                toolkitPath = req->cudaPath;
                pipe = std::make_unique<pipeline::Pipeline>(toolkit);
            }
            bool writable = true;
            auto result = pipe->run(req->job, [&](const pipeline::StageEvent& stage) {
                writable = writable && writeFrame(out, makeProgress(stage)).ok();
            });
            if (!writable || !writeFrame(out, makeCompileReply(result))) return 0;
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
        (void)writeFrame(out, makeErrorReply(kCompileReply,
                                             support::makeError(support::ErrorKind::Internal,
                                                                "the engine got a message it does not know")));
    }
}

}  // namespace nvpg::engine
