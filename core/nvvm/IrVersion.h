#pragma once

namespace nvpg::toolkit {
class Toolkit;
}

namespace nvpg::nvvm {

// The NVVM IR version a libNVVM reads (nvvmIRVersion): what a module's !nvvmir.version names,
// and the debug metadata version that a module with debug info adds as a second pair.
struct IrVersion {
    int major = 2, minor = 0;
    int debugMajor = 3, debugMinor = 1;
};
IrVersion irVersionOf(const toolkit::Toolkit& toolkit);

}  // namespace nvpg::nvvm
