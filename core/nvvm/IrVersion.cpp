#include "core/nvvm/IrVersion.h"

#include "core/toolkit/Toolkit.h"

namespace nvpg::nvvm {

IrVersion irVersionOf(const toolkit::Toolkit& toolkit) {
    IrVersion v;
    if (toolkit.nvvm().irVersion) toolkit.nvvm().irVersion(&v.major, &v.minor, &v.debugMajor, &v.debugMinor);
    return v;
}

}  // namespace nvpg::nvvm
