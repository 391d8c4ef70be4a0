; The modern dialect (opaque pointers): libNVVM 13.0 reads it from compute_100 on only.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @twice(ptr %out, float %x) {
entry:
  %y = fmul float %x, 2.0
  store float %y, ptr %out
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @twice, !"kernel", i32 1}
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
