// The data of a step's run checks: the references a lesson carries in its file, the runs a step
// needs, and what a run gives back as evidence.
#include "core/lesson/Lesson.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/gpu/Npy.h"
#include "core/support/Base64.h"
#include "core/support/Files.h"

namespace nvpg::lesson {

using ojson = nlohmann::ordered_json;

Embedded embedReferences(const ojson& lesson, const Lesson& read) {
    Embedded out{lesson, false, {}};
    std::set<std::string> done;
    for (const auto& step : read.steps)
        for (const auto& c : step.checks) {
            if (c.kind != CheckKind::Output || c.reference || !done.insert(c.equalsName).second) continue;
            if (out.lesson.contains("files") && out.lesson["files"].contains(c.equalsName)) continue;
            auto bytes = support::readFile(c.equals, kEmbeddedFileLimit);
            if (!bytes) {
                out.notes.push_back(
                    fmt::format("{}: not carried in the lesson ({}); the check looks for it beside "
                                "the lesson file",
                                c.equalsName, bytes.error().message));
                continue;
            }
            if (auto npy = gpu::readNpy(*bytes, c.equals.string()); !npy) {
                out.notes.push_back(
                    fmt::format("{}: not carried in the lesson: {}", c.equalsName, npy.error().message));
                continue;
            }
            if (!out.lesson.contains("files")) out.lesson["files"] = ojson::object();
            out.lesson["files"][c.equalsName] = support::base64Encode(*bytes);
            out.changed = true;
        }
    return out;
}

std::vector<std::string> runsNeeded(const Step& step) {
    std::vector<std::string> out;
    for (const auto& c : step.checks)
        if (c.needsGpu() && std::find(out.begin(), out.end(), c.run) == out.end()) out.push_back(c.run);
    return out;
}

RunEvidence runEvidence(std::string run, const gpu::RunOutcome* outcome, std::string error, support::ErrorKind kind) {
    RunEvidence ev;
    ev.run = std::move(run);
    if (!outcome && kind == support::ErrorKind::Environment) {
        ev.error = std::move(error);
        return ev;
    }
    ev.ran = true;
    if (!outcome) {
        ev.error = std::move(error);
        return ev;
    }
    for (const auto& b : outcome->buffers) {
        gpu::NpyArray a;
        a.type = b.type;
        a.shape = {b.count};
        a.data = b.bytes;
        ev.npyOutputs.emplace_back(b.arg, gpu::writeNpy(a));
    }
    return ev;
}

}  // namespace nvpg::lesson
