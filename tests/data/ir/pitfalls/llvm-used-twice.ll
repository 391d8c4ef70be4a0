; The LTO hint followed twice in one module: each time a new @llvm.used was added, and libNVVM's
; parser stops at the second ("redefinition of global '@llvm.used'").
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*)* @first to i8*)], section "llvm.metadata"

define void @first(float* %out) {
entry:
  store float 1.0, float* %out
  ret void
}

@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*)* @second to i8*)], section "llvm.metadata"

define void @second(float* %out) {
entry:
  store float 2.0, float* %out
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (float*)* @first, !"kernel", i32 1}
!1 = !{void (float*)* @second, !"kernel", i32 1}
!nvvmir.version = !{!2}
!2 = !{i32 2, i32 0}
