target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@lv = internal addrspace(5) global [16 x float] zeroinitializer, align 4
define void @lm(float* %out, i32 %i) {
  %ix = zext i32 %i to i64
  %p = getelementptr inbounds [16 x float], [16 x float] addrspace(5)* @lv, i64 0, i64 %ix
  %v = load float, float* %out
  store float %v, float addrspace(5)* %p
  %q = getelementptr inbounds [16 x float], [16 x float] addrspace(5)* @lv, i64 0, i64 3
  %w = load float, float addrspace(5)* %q
  store float %w, float* %out
  ret void
}
@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*, i32)* @lm to i8*)], section "llvm.metadata"
!nvvm.annotations = !{!0}
!0 = !{void (float*, i32)* @lm, !"kernel", i32 1}
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
