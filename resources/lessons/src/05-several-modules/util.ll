; util.ll: a colleague's helpers, with a copy of smoothstep they made long ago.

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; lerp(a, b, t) = a + t * (b - a)
define float @lerp(float %a, float %b, float %t) {
  %d = fsub float %b, %a
  %td = fmul float %t, %d
  %r = fadd float %a, %td
  ret float %r
}

; The same name as helper.ll's smoothstep, but `internal`: visible only inside util.ll, so
; the two no longer clash. Nothing in util.ll calls it, so it is not even compiled.
define internal float @smoothstep(float %e0, float %e1, float %x) {
  %num = fsub float %x, %e0
  %den = fsub float %e1, %e0
  %q = fdiv float %num, %den
  %below = fcmp olt float %q, 0.000000e+00
  %lo = select i1 %below, float 0.000000e+00, float %q
  %above = fcmp ogt float %lo, 1.000000e+00
  %t = select i1 %above, float 1.000000e+00, float %lo
  %t2 = fmul float %t, 2.000000e+00
  %k = fsub float 3.000000e+00, %t2
  %tt = fmul float %t, %t
  %r = fmul float %tt, %k
  ret float %r
}

!nvvmir.version = !{!0}
!0 = !{i32 2, i32 0}
