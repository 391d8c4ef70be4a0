; The alloca on line 8 is in the shared address space, which the verifier rejects without a
; line number; nvpg finds the quoted instruction and places the error on line 8.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @bad_alloca(float* %out, float %x) {
entry:
  %p = alloca float, addrspace(3)
  store float %x, float* %out
  ret void
}

; A kernel LTO keeps, so that with the verifier off it compiles without a problem.
@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*, float)* @bad_alloca to i8*)], section "llvm.metadata"

!nvvmir.version = !{!1}
!nvvm.annotations = !{!2}
!1 = !{i32 2, i32 0}
!2 = !{void (float*, float)* @bad_alloca, !"kernel", i32 1}
