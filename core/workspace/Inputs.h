#pragma once
// The modules a list of input files makes: one .nvpg workspace, or .ll/.bc modules. nvpg reads
// its INPUTs (and compare's --against) through this, and the app the files of an "other modules"
// variant, so that both take and refuse the same files with the same words.
#include <optional>
#include <string>
#include <vector>

#include "core/nvvm/Module.h"
#include "core/support/Result.h"
#include "core/workspace/Workspace.h"

namespace nvpg::workspace {

// How a module read from a file is named (libNVVM's log and every message name modules).
enum class ModuleNaming {
    AsGiven,   // the path as given: what a command line wrote ("v2/kernel.ll")
    FileName,  // the file's name alone: what the app's editors call an opened module ("kernel.ll")
};

struct Inputs {
    std::vector<nvvm::Module> modules;
    std::vector<std::string> names;      // each module's name, in order
    std::optional<Workspace> workspace;  // when the input was one .nvpg: all of it
};

// Reads `files`: one .nvpg (its modules, and the workspace for its options and runs), or .ll
// (text) and .bc (bitcode) modules, in order. A name that breaks the rule for module names, any
// other extension, a workspace among modules, a .bc file without bitcode's magic, two modules
// of one name (ModuleNaming::FileName) and an unreadable file are refused, naming the file and
// what to do.
support::Result<Inputs> readInputs(const std::vector<std::string>& files, ModuleNaming naming = ModuleNaming::AsGiven);

}  // namespace nvpg::workspace
