; helper.ll: a device function for main.ll. No kernels here, so no !nvvm.annotations;
; every module still needs the triple, the datalayout and !nvvmir.version.
;
; Errors in this module are reported under its name, e.g. `helper.ll (12, 3): ...`:
; the module name is how libNVVM tells you which module a message is about.

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)

; smoothstep(e0, e1, x): t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 * t)
;
; @smoothstep has external linkage: that is what lets main.ll's declaration find it. It is
; inlined into the kernel, and also stays in the PTX as `.visible .func smoothstep`.
; Make it `internal` and it becomes invisible to other modules: main.ll's call then goes
; to an `.extern .func smoothstep` that nothing defines, and libNVVM still succeeds.
define float @smoothstep(float %e0, float %e1, float %x) {
  %num = fsub float %x, %e0
  %den = fsub float %e1, %e0
  ; An IEEE division by default ("prec-div" on): look for `div.rn.f32` in the PTX, then
  ; set "prec-div" off and see the faster, approximate `div.full.f32` instead.
  %q = fdiv float %num, %den
  ; min and max map to single PTX instructions: `max.f32` and `min.f32`.
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
