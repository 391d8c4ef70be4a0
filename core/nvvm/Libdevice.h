#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/nvvm/Module.h"

namespace nvpg::nvvm {

// A function that libdevice.10.bc defines (table generated from it by gen_libdevice_table.py).
struct LibdeviceFunction {
    std::string_view name;        // "__nv_sinf"
    std::string_view returnType;  // "float"
    std::string_view params;      // "float %a"
    std::string_view callees;     // other libdevice functions it calls, space-separated
};

std::span<const LibdeviceFunction> libdeviceFunctions();
const LibdeviceFunction* findLibdeviceFunction(std::string_view name);

// The libdevice functions that `modules` call, with what those call in turn: what a lazy add
// of libdevice links into the program. Sorted. Text modules are read exactly; bitcode modules
// through their string table (LLVM 5 and later), where names are stored back to back.
std::vector<std::string> libdeviceFunctionsUsedBy(const std::vector<Module>& modules);

}  // namespace nvpg::nvvm
