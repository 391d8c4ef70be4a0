#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/nvvm/Diagnostic.h"
#include "core/nvvm/Module.h"
#include "core/nvvm/Options.h"
#include "core/toolkit/NvJitLinkApi.h"

namespace nvpg::lto {

struct LinkInput {
    std::string name;        // shown in nvJitLink's logs
    std::string_view bytes;  // must outlive the link call
    nvJitLinkInputType type = NVJITLINK_INPUT_LTOIR;
};

enum class LinkTarget { Ptx, Cubin };

struct LinkOutput {
    bool ok = false;
    nvJitLinkResult code = NVJITLINK_SUCCESS;
    std::string ptx;      // with LinkTarget::Ptx
    std::string cubin;    // with LinkTarget::Cubin
    std::string infoLog;  // -verbose: ptxas' register and spill lines (cubin links)
    std::string errorLog;
    std::vector<nvvm::Diagnostic> diagnostics;  // from the error log
    double seconds = 0;
};

// One nvJitLink link. LTO-IR inputs get -lto; PTX output needs -ptx, and nvJitLink then gives no
// cubin, so PTX and cubin are separate links. `smArch` is "sm_90" (see nvvm::smArchFor).
// `options` follow -arch and -lto (see linkOptionsFor).
LinkOutput link(const toolkit::NvJitLinkApi& api, std::string_view smArch, const std::vector<LinkInput>& inputs,
                LinkTarget target, const std::vector<std::string>& options = {});

// A libNVVM option that nvJitLink has too: nvJitLink optimises and generates code again at link
// time, so these decide the LTO output as much as the -gen-lto compile does.
struct LinkOption {
    std::string_view option;  // its name in nvvm::optionTable(), or an extra flag as written
    std::string_view flag;    // nvJitLink's spelling; a value follows one ending in '=' or "-O"
};
const std::vector<LinkOption>& linkOptions();
// The nvJitLink options for `options`, in linkOptions()' order: only those set, so that an
// unset one leaves nvJitLink's own default (-O3, no debug information).
std::vector<std::string> linkOptionsFor(const nvvm::Options& options);

// " (a libdevice function: link libdevice, ...)" for a message that names a missing __nv_
// function (nvJitLink's "Undefined reference", ptxas' "Unresolved extern function"); else empty.
std::string libdeviceHint(std::string_view message);

// The function an nvJitLink message says nothing defines ("__nv_sinf"), if it says so.
std::optional<std::string> undefinedFunction(std::string_view message);
// nvJitLink names an undefined function but no place: its diagnostic is placed at the first
// call of that function in the text modules (else at its declaration), so the module that
// needs it is marked and the line is one click away.
void placeUndefinedFunctions(std::vector<nvvm::Diagnostic>& diagnostics, const std::vector<nvvm::Module>& modules);

}  // namespace nvpg::lto
