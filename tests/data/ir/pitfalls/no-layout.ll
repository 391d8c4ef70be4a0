; No target datalayout: libNVVM needs one ("Empty target data layout, must exist").
target triple = "nvptx64-nvidia-cuda"

define void @twice(float* %out, float %x) {
entry:
  %y = fmul float %x, 2.0
  store float %y, float* %out
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float*, float)* @twice, !"kernel", i32 1}
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
