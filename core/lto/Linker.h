#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "nvvm/Diagnostic.h"
#include "toolkit/NvJitLinkApi.h"

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
LinkOutput link(const toolkit::NvJitLinkApi& api, std::string_view smArch,
                const std::vector<LinkInput>& inputs, LinkTarget target);

}  // namespace nvpg::lto
