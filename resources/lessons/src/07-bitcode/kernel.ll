; kernel.ll: out[i] = clampf(lerp(a[i], b[i], t), 0, 1), with lerp and clampf from mathlib.bc.
;
; Written in the LLVM 7 dialect that libNVVM reads for every arch: typed pointers (float*).

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Defined in mathlib.bc.
declare float @lerp(float, float, float)
declare float @clampf(float, float, float)

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define void @blend(i32 %n, float %t, float* %a, float* %b, float* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %inside = icmp slt i32 %i, %n
  br i1 %inside, label %body, label %done

body:
  %idx = sext i32 %i to i64
  %ap = getelementptr inbounds float, float* %a, i64 %idx
  %bp = getelementptr inbounds float, float* %b, i64 %idx
  %av = load float, float* %ap, align 4
  %bv = load float, float* %bp, align 4
  %l = call float @lerp(float %av, float %bv, float %t)
  %c = call float @clampf(float %l, float 0.000000e+00, float 1.000000e+00)
  %op = getelementptr inbounds float, float* %out, i64 %idx
  store float %c, float* %op, align 4
  br label %done

done:
  ret void
}

@llvm.used = appending global [1 x i8*] [i8* bitcast (void (i32, float, float*, float*, float*)* @blend to i8*)], section "llvm.metadata"

!nvvm.annotations = !{!0}
!0 = !{void (i32, float, float*, float*, float*)* @blend, !"kernel", i32 1}

!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
