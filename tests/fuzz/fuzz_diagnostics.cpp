// libNVVM's log to Diagnostics on arbitrary text. The input is up to three parts separated by a
// line "---": the module names (one a line), the log, and the IR text of the first module (for
// the verifier's quoted instructions). Without a separator the whole input is the log.
#include <algorithm>

#include "FuzzSupport.h"
#include "core/engine/Messages.h"
#include "core/nvvm/Diagnostic.h"
#include "core/support/Text.h"

using namespace nvpg;
using fuzz::require;

namespace {

std::vector<std::string_view> parts(std::string_view in) {
    std::vector<std::string_view> out;
    for (size_t at; (at = in.find("\n---\n")) != std::string_view::npos && out.size() < 2;) {
        out.push_back(in.substr(0, at));
        in.remove_prefix(at + 5);
    }
    out.push_back(in);
    return out;
}

// JSON holds Unicode only: other bytes cannot cross the protocol as they are.
bool isUtf8(const std::string& s) {
    try {
        (void)nlohmann::json(s).dump();
        return true;
    } catch (const nlohmann::json::exception&) {
        return false;
    }
}

bool sameDiagnostic(const nvvm::Diagnostic& a, const nvvm::Diagnostic& b) {
    return a.module == b.module && a.line == b.line && a.column == b.column && a.severity == b.severity &&
           a.message == b.message && a.source == b.source;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto p = parts(fuzz::bytesOf(data, size));
    std::vector<std::string> names;
    std::string_view log = p.back();
    if (p.size() > 1) {
        for (auto n : support::splitLines(p[0])) names.emplace_back(n);
        log = p[1];
    }
    const auto failed = nvvm::parseNvvmLog(log, true, names);
    const auto passed = nvvm::parseNvvmLog(log, false, names);

    // `failed` only decides the severity of lines that name none.
    require(failed.size() == passed.size(), "the same lines whether the call failed or not");
    for (size_t i = 0; i < failed.size(); ++i) {
        const auto& f = failed[i];
        const auto& s = passed[i];
        require(f.module == s.module && f.line == s.line && f.column == s.column && f.message == s.message,
                "the same places and messages whether the call failed or not", f.message);
        require(
            f.severity == s.severity || (f.severity == nvvm::Severity::Error && s.severity == nvvm::Severity::Warning),
            "an unmarked line is an error on failure, else a warning", f.message);
        require(f.line >= 0 && f.column >= 0, "lines and columns are 1-based, 0 for none");
        if (!names.empty() && !f.module.empty())
            require(std::find(names.begin(), names.end(), f.module) != names.end(), "a module is one of the names",
                    f.module);
        (void)nvvm::formatDiagnostic(f);
    }

    // Named globals and quoted instructions are looked up in the first module's text.
    auto placed = failed;
    if (p.size() == 3 && !names.empty()) {
        const std::vector<nvvm::Module> modules = {{names[0], std::string(p[2]), false}};
        nvvm::placeNamedGlobals(placed, modules);
        nvvm::placeQuotedIr(placed, modules);
        const auto lines = support::splitLines(p[2]);
        for (size_t i = 0; i < placed.size(); ++i) {
            if (sameDiagnostic(placed[i], failed[i])) continue;
            require(failed[i].line == 0, "only diagnostics without a line are placed");
            require(placed[i].module == names[0], "placed in the module that holds the line");
            require(placed[i].line >= 1 && size_t(placed[i].line) <= lines.size(), "placed on a line of it");
            require(placed[i].column >= 1, "placed on a column");
            require(placed[i].message == failed[i].message, "the message stays as it was");
        }
    }

    // The engine sends diagnostics and the raw log to the front end: they arrive as they were.
    pipeline::CompileResult r;
    r.diagnostics = placed;
    r.nvvmLog = std::string(log);
    for (const auto& n : names) r.ltoIr.push_back({n, "lto"});
    auto sent = engine::decodeFrame(engine::encodeFrame(engine::makeCompileReply(r)));
    require(sent.ok(), "an encoded reply decodes", sent ? "" : sent.error().message);
    auto got = engine::readCompileReply(std::move(*sent));
    require(got.ok(), "a compile reply reads", got ? "" : got.error().message);
    require(got->diagnostics.size() == placed.size(), "every diagnostic arrives");
    require(got->ltoIr.size() == names.size(), "every LTO-IR blob arrives");
    if (!isUtf8(std::string(fuzz::bytesOf(data, size)))) return 0;
    require(got->nvvmLog == r.nvvmLog, "the log arrives as it was");
    for (size_t i = 0; i < placed.size(); ++i)
        require(sameDiagnostic(got->diagnostics[i], placed[i]), "a diagnostic arrives as it was",
                [&] { return nvvm::formatDiagnostic(placed[i]); });
    for (size_t i = 0; i < names.size(); ++i)
        require(got->ltoIr[i].name == names[i], "a module name arrives as it was");
    return 0;
}
