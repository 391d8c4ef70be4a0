; A kernel with one loop whose trip count is a parameter, so that no -opt level can unroll it away:
; its graph has a back edge in the IR, in the PTX and in the SASS (tests/core/tst_cfg.cpp). The
; block after the loop ("done") and the early exit ("skip") make branches that are not loops.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @prefix_sum(float* %a, i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %body, label %skip

body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %acc, %body ]
  %p = getelementptr float, float* %a, i32 %i
  %x = load volatile float, float* %p
  %acc = fadd float %sum, %x
  store volatile float %acc, float* %p
  %next = add nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %body, label %done

done:
  store float %acc, float* %a
  br label %skip

skip:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float*, i32)* @prefix_sum, !"kernel", i32 1}
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
