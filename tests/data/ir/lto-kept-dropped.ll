; Two kernels; only "kept" is in @llvm.used, so nvJitLink's LTO drops "dropped".
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*, float)* @kept to i8*)], section "llvm.metadata"

define void @kept(float* %out, float %x) {
entry:
  store float %x, float* %out
  ret void
}

define void @dropped(float* nocapture %out, float %x) {
entry:
  %y = fadd float %x, 1.0
  store float %y, float* %out
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (float*, float)* @kept, !"kernel", i32 1}
!1 = !{void (float*, float)* @dropped, !"kernel", i32 1}
!nvvmir.version = !{!2}
!2 = !{i32 2, i32 0}
