; Waits for a flag nobody sets: the kernel never ends unless it is stopped.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @spin(i32* %flag) {
entry:
  br label %loop
loop:
  %v = load volatile i32, i32* %flag, align 4
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %loop, label %done
done:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32*)* @spin, !"kernel", i32 1}
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
