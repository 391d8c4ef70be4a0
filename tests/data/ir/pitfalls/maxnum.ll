; Declares llvm.maxnum.f32: llvm-as-14 gives it attributes LLVM 7's reader does not know
; ("Unknown attribute kind (62)"). The test makes the bitcode with llvm-as-14.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare float @llvm.maxnum.f32(float, float)

define float @clamp0(float %x) {
  %r = call float @llvm.maxnum.f32(float %x, float 0.000000e+00)
  ret float %r
}

!nvvmir.version = !{!0}
!0 = !{i32 2, i32 0}
