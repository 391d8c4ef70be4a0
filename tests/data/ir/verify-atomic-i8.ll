; An atomicrmw on an i8: libNVVM's verifier names the function and its block, quotes the
; instruction after "context:" and says why below it.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @count(i8* %p) {
entry:
  %old = atomicrmw add i8* %p, i8 1 seq_cst
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i8*)* @count, !"kernel", i32 1}
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
