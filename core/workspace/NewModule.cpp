#include "core/workspace/NewModule.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/gpu/ArgSpec.h"
#include "core/lto/DroppedKernels.h"
#include "core/nvvm/IrScan.h"

namespace nvpg::workspace {

namespace {

bool defined(const std::vector<nvvm::Module>& modules, const std::string& function) {
    return std::any_of(modules.begin(), modules.end(), [&](const nvvm::Module& m) {
        if (m.isBitcode()) return false;
        const auto fs = nvvm::scanFunctions(m.bytes);
        return std::any_of(fs.begin(), fs.end(), [&](const nvvm::IrFunction& f) { return f.name == function; });
    });
}

}  // namespace

ModuleTemplate newModuleTemplate(const std::string& name, const std::vector<nvvm::Module>& others,
                                 nvvm::IrVersion version) {
    std::string kernel = "scale";
    for (int k = 2; defined(others, kernel); ++k) kernel = "scale_" + std::to_string(k);
    const std::vector<std::string> params{"float*", "float", "i32"};
    ModuleTemplate t;
    t.module.name = name;
    t.module.bytes = fmt::format(
        R"(; {name}: a complete small kernel, data[i] *= k for i < n. It compiles and runs as it is:
; Ctrl+B compiles it, and the Runs dock holds "{kernel} from PTX", which launches it on 1024 floats.

; What libNVVM expects of every module: this datalayout (i128:128:128 included; its verifier
; refuses others) and the NVPTX triple.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; nvJitLink's LTO keeps only the kernels listed here (see the lto-dropped example).
{used}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define void @{kernel}(float* %data, float %k, i32 %n) {{
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %inside = icmp slt i32 %i, %n
  br i1 %inside, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds float, float* %data, i64 %idx
  %v = load float, float* %p, align 4
  %r = fmul float %v, %k
  store float %r, float* %p, align 4
  br label %done
done:
  ret void
}}

; A kernel is a function this annotation marks: libNVVM makes it a .entry.
!nvvm.annotations = !{{!0}}
!0 = !{{void (float*, float, i32)* @{kernel}, !"kernel", i32 1}}

; The NVVM IR version of the libNVVM in use (nvvmIRVersion).
!nvvmir.version = !{{!1}}
!1 = !{{i32 {major}, i32 {minor}}}
)",
        fmt::arg("name", name), fmt::arg("kernel", kernel), fmt::arg("major", version.major),
        fmt::arg("minor", version.minor), fmt::arg("used", lto::llvmUsedLine(kernel, params, false)));
    t.run.name = kernel + " from PTX";
    t.run.kernel = kernel;
    t.run.grid = {4, 1, 1};
    t.run.block = {256, 1, 1};
    for (const char* spec : {"buf:f32:1024:iota", "f32:2", "i32:1024"}) t.run.args.push_back(*gpu::parseArgSpec(spec));
    return t;
}

}  // namespace nvpg::workspace
