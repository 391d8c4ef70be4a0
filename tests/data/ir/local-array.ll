; A kernel whose array is indexed by a value known only at run time: it stays in local memory, so the
; PTX has ld.local/st.local and the SASS LDL/STL (local-memory traffic placed on its lines).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @local_array(float* %out, float* %in, i32 %n, i32 %pick) {
entry:
  %buf = alloca [256 x float], align 4
  br label %fill

fill:
  %i = phi i32 [ 0, %entry ], [ %next, %fill ]
  %src = getelementptr float, float* %in, i32 %i
  %v = load float, float* %src
  %slot = getelementptr [256 x float], [256 x float]* %buf, i32 0, i32 %i
  store volatile float %v, float* %slot
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %fill, label %done

done:
  %at = getelementptr [256 x float], [256 x float]* %buf, i32 0, i32 %pick
  %r = load volatile float, float* %at
  store float %r, float* %out
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float*, float*, i32, i32)* @local_array, !"kernel", i32 1}
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
