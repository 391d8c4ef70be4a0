; wave.ll: out[i] = __sinf(x[i])   (CUDA's fast intrinsic)
;
; CUDA's math functions (sinf, expf, sqrt, ...) come from libdevice: a library of __nv_*
; functions that NVIDIA ships as NVVM IR (nvvm/libdevice/libdevice.10.bc in the toolkit).
; This module only declares the one it calls; libdevice must supply the body.

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; __sinf(float): declared, not defined.
declare float @__nv_fast_sinf(float)

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define void @wave(i32 %n, float* %x, float* %out) {
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
  %xp = getelementptr inbounds float, float* %x, i64 %idx
  %v = load float, float* %xp, align 4
  %s = call float @__nv_fast_sinf(float %v)
  %op = getelementptr inbounds float, float* %out, i64 %idx
  store float %s, float* %op, align 4
  br label %done

done:
  ret void
}

@llvm.used = appending global [1 x i8*] [i8* bitcast (void (i32, float*, float*)* @wave to i8*)], section "llvm.metadata"

!nvvm.annotations = !{!0}
!0 = !{void (i32, float*, float*)* @wave, !"kernel", i32 1}

!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
