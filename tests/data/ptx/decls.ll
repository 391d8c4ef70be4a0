target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.R = type { float, i32 }

declare float @__nv_sinf(float)

define weak float @weak_fn(float %x) noinline {
  %r = call float @__nv_sinf(float %x)
  ret float %r
}

define void @global_ptrs(float addrspace(1)* %in, float addrspace(1)* %out, <4 x float> %v, i1 %flag) {
  %x = load float, float addrspace(1)* %in
  %y = call float @weak_fn(float %x)
  %r = call %struct.R @pair_fn(float %y, i32 3)
  %f0 = extractvalue %struct.R %r, 0
  %k = extractvalue %struct.R %r, 1
  %kf = sitofp i32 %k to float
  %f = fadd float %f0, %kf
  %e = extractelement <4 x float> %v, i32 2
  %s = fadd float %f, %e
  %z = select i1 %flag, float %s, float %x
  store float %z, float addrspace(1)* %out
  ret void
}

define void @no_params() {
  ret void
}

define void @bounded(i32* %p, i64 %n) {
  store i32 1, i32* %p
  ret void
}

define %struct.R @pair_fn(float %x, i32 %n) noinline {
  %a = insertvalue %struct.R undef, float %x, 0
  %b = insertvalue %struct.R %a, i32 %n, 1
  ret %struct.R %b
}

!nvvm.annotations = !{!0, !1, !2, !3, !4}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, <4 x float>, i1)* @global_ptrs, !"kernel", i32 1}
!1 = !{void ()* @no_params, !"kernel", i32 1}
!2 = !{void (i32*, i64)* @bounded, !"kernel", i32 1}
!3 = !{void (i32*, i64)* @bounded, !"maxntidx", i32 128}
!4 = !{void (i32*, i64)* @bounded, !"minctasm", i32 2}
!nvvmir.version = !{!5}
!5 = !{i32 2, i32 0}
