#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/export/CodeText.h"
#include "core/export/Export.h"
#include "core/gpu/ArgSpec.h"

// What the writers of export's targets share (Export.cpp, CudaCoreScript.cpp, CProgram.cpp):
// internal to core/export, not for its users.
namespace nvpg::exporting::detail {

struct ModuleFile {
    const nvvm::Module* module;
    std::string path;  // "modules/saxpy.ll"
};

// One argument of the run as the code passes it.
struct Arg {
    gpu::ArgSpec spec;
    std::string file;   // Buffer: "inputs/argK.npy"
    std::string value;  // Scalar: the value as text (formatElement: reads back as the same value)
};

// The names of the outputs, by the one naming rule (pipeline/OutputNames).
struct Names {
    std::string stem, ptx, ltoIr, linkedPtx, cubin;
    std::vector<std::string> moduleLtoIr;  // separate LTO mode: one per module
};

// A Dim3 as "(x, y, z)"; a run configuration's name, or "(unnamed)".
std::string dims(const gpu::Dim3& d);
std::string runName(const gpu::RunConfig& run);

// The head of an exported file: where it came from, the name and the workspace's description, as
// comment lines. What made the file comes first, in nvpg's own words: workspace text never stands
// on a file's first two lines, where Python reads an encoding declaration.
std::string headTitle(Comment kind, std::string_view prefix, const Input& in, std::string_view as);
// The files an exported program writes, as a phrase for its head comment.
std::string outputsWritten(const Input& in, const Names& n, bool lto);
// Workspace text in a sentence for commentLines, which escapes it.
std::string runSentence(const gpu::RunConfig& run);

// The cuda.core script (STEM.py); what it cannot carry goes to `notCarried`, its commands to
// `howToRun`.
std::string cudaCoreScript(const Input& in, const Names& n, const std::vector<ModuleFile>& mods,
                           const std::vector<Arg>& args, bool lto, std::vector<std::string>& notCarried,
                           std::string& howToRun);
// The C program (STEM.c) and the CMakeLists.txt that builds it.
std::string cProgram(const Input& in, const Names& n, const std::vector<ModuleFile>& mods, const std::vector<Arg>& args,
                     bool lto);
std::string cmakeLists(const Input& in, const Names& n, bool lto);

}  // namespace nvpg::exporting::detail
