; helper.ll: a device function for main.ll. No kernel here, so no !nvvm.annotations; every
; module still needs the triple, the datalayout and !nvvmir.version.

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)

; smoothstep(e0, e1, x): t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 * t)
; External linkage (no `internal`): other modules can call it.
define float @smoothstep(float %e0, float %e1, float %x) {
  %num = fsub float %x, %e0
  %den = fsub float %e1, %e0
  %q = fdiv float %num, %den
  %lo = call float @llvm.maxnum.f32(float %q, float 0.000000e+00)
  %t = call float @llvm.minnum.f32(float %lo, float 1.000000e+00)
  %t2 = fmul float %t, 2.000000e+00
  %k = fsub float 3.000000e+00, %t2
  %tt = fmul float %t, %t
  %r = fmul float %tt, %k
  ret float %r
}

!nvvmir.version = !{!0}
!0 = !{i32 2, i32 0}
