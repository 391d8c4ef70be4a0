#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpu/RunConfig.h"
#include "core/lto/Mode.h"
#include "core/nvvm/Module.h"
#include "core/nvvm/Options.h"
#include "core/support/Result.h"

#include <nlohmann/json.hpp>

namespace nvpg::workspace {

// A compile result kept to compare later ones with (the app's Build > Pin Result): what made it
// and what it made. Saved in the workspace, so that it survives closing and reopening.
struct Pin {
    std::string name;    // unique among the workspace's pins
    std::string pinned;  // when, ISO 8601 local time ("2026-12-02T18:40:12")
    std::vector<nvvm::Module> modules;
    nvvm::Options options;
    bool libdevice = false;
    std::string toolkit;         // the toolkit it was compiled with (a root or pip nvidia folder); empty:
                                 // the app's
    std::string toolkitRelease;  // "13.0.88" then; empty when unknown
    // The result without its outputs, as pipeline::pinnedResultToJson writes it, and the text
    // outputs by name ("ptx", "lto_ptx", "sass"). The workspace keeps them as they are; the app
    // reads them with pipeline::pinnedResultFromJson.
    nlohmann::json result;
    std::map<std::string, std::string> outputs;
};

// A named option set, and optionally another CUDA toolkit or other modules, that the app compiles
// too, beside the workspace's own compile (the Compare dock shows two side by side).
struct Variant {
    std::string name;  // unique among the workspace's variants
    nvvm::Options options;
    std::string toolkit;         // a toolkit root or pip nvidia folder; empty: the app's toolkit
    std::string toolkitRelease;  // the release it had when chosen, to say which one went missing
    // Modules compiled in place of the workspace's (another version of them, as read from files
    // when chosen); empty: the workspace's modules, as they are edited.
    std::vector<nvvm::Module> modules;
};

// The workspace document: what the user edits and the app saves as a .nvpg file.
struct Workspace {
    std::string name;
    std::string description;
    std::vector<nvvm::Module> modules;  // in order; text or bitcode told apart by magic
    nvvm::Options options;              // genLto is never stored: it is an output choice
    bool libdevice = false;
    // `libdevice` is a choice the file saved (or the user made since): it wins. Otherwise it is
    // libdeviceRule's, for the modules there are (a workspace file without "libdevice", .ll
    // files opened as a workspace).
    bool libdeviceSaved = false;
    bool verify = true;  // libNVVM's verifier before each compile; the file says "verify": false only when off
    lto::Mode ltoMode = lto::Mode::Program;
    std::vector<gpu::RunConfig> runs;  // saved run configurations, read and checked with the file
    std::vector<Pin> pins;             // in the order they were pinned
    std::vector<Variant> variants;
    // A lesson's steps, checks and progress (core/lesson reads them), kept as the file had them
    // so that saving a learner's work keeps the lesson; null in a plain workspace.
    nlohmann::ordered_json lesson;
};

// The libdevice rule for modules that come without a libdevice choice: it is linked when they
// declare or call a libdevice function that none of them defines (numba's modules call __nv_*
// and expect libdevice, as nvcc does). The functions that say so, in the order of the modules;
// empty: libdevice stays off. Bitcode modules are read through their string table.
std::vector<std::string> libdeviceCallsOf(const std::vector<nvvm::Module>& modules);
// Applies the rule to `ws` unless its choice is saved, and only ever turns libdevice on: the
// functions that turned it on (empty when it stayed as it was).
std::vector<std::string> applyLibdeviceRule(Workspace& ws);
// "libdevice linked: the modules call __nv_sinf, __nv_expf" (three at most named), what both
// front ends say when the rule turned libdevice on.
std::string libdeviceRuleNote(const std::vector<std::string>& functions);

// The saved run configurations, kept one per name: `config` replaces the one of its name, or
// is added at the end. Its index.
size_t putRun(std::vector<gpu::RunConfig>& runs, gpu::RunConfig config);
// The display name of run `index`: its name, or "#index" for an unnamed one (as nvpg --config takes it).
std::string runLabel(const std::vector<gpu::RunConfig>& runs, size_t index);

// The format name and the newest version this build reads and writes. A workspace with pins or
// variants is written as version 2, one with a lesson as version 3, one with a variant of other
// modules as version 4, so that a build that reads only an older version refuses it instead of
// dropping them on its next save (or compiling the wrong modules); one without any of them is
// still written as version 1.
inline constexpr std::string_view kFormatName = "nvvm-playground-workspace";
inline constexpr int kFormatVersion = 4;

// Parses .nvpg JSON. Errors say what and where, with a JSON pointer ("/modules/1/text: expected
// a string") and `sourceName` (the file) in front; a newer version is refused, saying which.
support::Result<Workspace> parseWorkspace(std::string_view json, std::string_view sourceName);
support::Result<Workspace> loadWorkspace(const std::filesystem::path& path);
// Stable output (keys in a fixed order, 2-space indent, trailing newline) so files diff well.
std::string serializeWorkspace(const Workspace& ws);
// The bytes of a .nvpg file, refusing text that is not UTF-8 (JSON holds Unicode only);
// `path` names the file in that error.
support::Result<std::string> workspaceFileBytes(const Workspace& ws, const std::filesystem::path& path);
// Atomic: a temporary file beside `path`, then a rename.
support::Status saveWorkspace(const Workspace& ws, const std::filesystem::path& path);

// A buffer file that a saved run configuration reads from outside the workspace's folder: an
// absolute path, one that climbs out with "..", or a link inside the folder that leads out. A
// workspace from someone else should not read /etc/passwd or ~/.ssh into a GPU buffer (and on
// to --save-outputs) unnoticed, so front ends ask first: the app in a dialog, nvpg through
// --allow-outside-files.
struct OutsideFile {
    size_t run = 0;              // index into the runs
    size_t arg = 0;              // 0-based argument
    std::filesystem::path path;  // the file as it resolves
};
// The arguments of `runs` whose files lie outside `folder` (the workspace's folder), in order.
std::vector<OutsideFile> filesOutsideFolder(const std::vector<gpu::RunConfig>& runs,
                                            const std::filesystem::path& folder);
// "run configuration "saxpy 4096", argument 2 (buf:@../../etc/x.npy) reads /etc/x.npy, which is
// outside the workspace's folder /home/me/ws"
std::string describeOutsideFile(const std::vector<gpu::RunConfig>& runs, const OutsideFile& file,
                                const std::filesystem::path& folder);

}  // namespace nvpg::workspace
