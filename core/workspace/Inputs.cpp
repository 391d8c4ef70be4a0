#include "core/workspace/Inputs.h"

#include <filesystem>
#include <unordered_set>

#include <fmt/format.h>

#include "core/support/Files.h"

namespace nvpg::workspace {

namespace fs = std::filesystem;

support::Result<Inputs> readInputs(const std::vector<std::string>& files, ModuleNaming naming) {
    auto bad = [](std::string message) { return support::makeError(support::ErrorKind::Usage, std::move(message)); };
    Inputs in;
    for (const auto& input : files)
        if (fs::path(input).extension() == ".nvpg" && files.size() > 1)
            return bad(fmt::format("{}: a workspace is used alone; give either one .nvpg or .ll/.bc modules", input));
    if (files.size() == 1 && fs::path(files[0]).extension() == ".nvpg") {
        auto ws = loadWorkspace(files[0]);
        if (!ws) return bad(ws.error().message);
        in.modules = ws->modules;
        for (const auto& m : in.modules) in.names.push_back(m.name);
        in.workspace = std::move(*ws);
        return in;
    }
    std::unordered_set<std::string> taken;
    for (size_t i = 0; i < files.size(); ++i) {
        const auto& input = files[i];
        const std::string name = naming == ModuleNaming::FileName ? fs::path(input).filename().string() : input;
        // The file name is the module's name, so it is held to the rule for module names.
        if (auto problem = nvvm::moduleNameProblem(name))
            return bad(fmt::format("input {}: {}; rename the file ({})", i + 1, *problem, nvvm::kModuleNameAdvice));
        // The name first: what is not a module is not read at all.
        const auto ext = fs::path(input).extension();
        if (!nvvm::isModuleFileName(input))
            return bad(
                fmt::format("{}: expected a {} module, or a .nvpg workspace", input, nvvm::moduleFileKindsText()));
        if (naming == ModuleNaming::FileName && !taken.insert(name).second)
            return bad(
                fmt::format("{}: another input is also named {}; libNVVM reports errors by module name, so "
                            "give each module a name of its own",
                            input, name));
        auto bytes = support::readFile(input, support::kModuleFileLimit);
        if (!bytes) return bad(bytes.error().message);
        nvvm::Module m{name, std::move(*bytes), false};
        if (ext == ".bc" && !m.isBitcode())
            return bad(
                fmt::format("{}: named .bc but does not start with bitcode magic (BC C0 DE); is it text IR?", input));
        in.modules.push_back(std::move(m));
        in.names.push_back(name);
    }
    return in;
}

}  // namespace nvpg::workspace
