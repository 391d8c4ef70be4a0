; bias.ll: data[i] = data[i] + 1.0
;
; Read the PTX pane next to this module: a kernel's parameters, its loads and its stores.

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

; __global__ void add_bias(float* data, int n)
define void @add_bias(float* %data, i32 %n) {
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
  %p = getelementptr inbounds float, float* %data, i64 %idx
  %v = load float, float* %p, align 4
  ; The constant 1.0 is written 0f3F800000 in the PTX: PTX writes a float as its bits in hex.
  %r = fadd float %v, 1.000000e+00
  store float %r, float* %p, align 4
  br label %done

done:
  ret void
}

; The function's type appears here and in !nvvm.annotations: both must match its definition.
@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*, i32)* @add_bias to i8*)], section "llvm.metadata"

!nvvm.annotations = !{!0}
!0 = !{void (float*, i32)* @add_bias, !"kernel", i32 1}

!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
