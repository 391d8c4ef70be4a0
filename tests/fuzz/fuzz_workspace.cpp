// The .nvpg reader on arbitrary bytes: a workspace or an error, never a crash; and a workspace it
// read saves to a file it reads back as the same workspace (what the app does on every save).
#include "FuzzSupport.h"
#include "core/workspace/Workspace.h"

using namespace nvpg;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto ws = workspace::parseWorkspace(fuzz::bytesOf(data, size), "fuzz.nvpg");
    if (!ws) {
        require(ws.error().kind == support::ErrorKind::Input, "a bad workspace is an input error", ws.error().message);
        require(ws.error().message.starts_with("fuzz.nvpg: "), "the error names the file", ws.error().message);
        return 0;
    }
    const std::string saved = workspace::serializeWorkspace(*ws);
    auto again = workspace::parseWorkspace(saved, "saved.nvpg");
    require(again.ok(), "a saved workspace reads back",
            [&] { return again ? saved : again.error().message + "\n" + saved; });
    require(again->name == ws->name && again->description == ws->description, "name and description survive");
    require(again->modules.size() == ws->modules.size(), "every module survives");
    for (size_t i = 0; i < ws->modules.size(); ++i) {
        const auto& a = ws->modules[i];
        const auto& b = again->modules[i];
        require(a.name == b.name && a.bytes == b.bytes && a.lazy == b.lazy, "a module survives as it was", a.name);
    }
    require(again->options == ws->options, "the options survive");
    require(again->libdevice == ws->libdevice && again->ltoMode == ws->ltoMode, "libdevice and LTO mode survive");
    require(workspace::serializeWorkspace(*again) == saved, "saving again writes the same bytes", saved);
    return 0;
}
