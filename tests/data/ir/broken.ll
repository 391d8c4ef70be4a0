; Line 8 misspells "fadd" as "fad": libNVVM reports (8, 7), nvpg 8:8 (1-based columns).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @broken(float* %out, float %x) {
entry:
  %a = fadd float %x, 1.0
  %b = fad float %a, 2.0
  store float %b, float* %out
  ret void
}

!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
