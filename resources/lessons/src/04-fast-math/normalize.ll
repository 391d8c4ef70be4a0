; normalize.ll: (ux[i], uy[i]) = (x[i], y[i]) / sqrt(x[i]*x[i] + y[i]*y[i])
;
; Nothing in this lesson changes the IR: the options do. Each one lets libNVVM pick a faster
; instruction that rounds differently. Watch the PTX of the four float operations below.

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; sqrtf(x) in CUDA C++: libdevice's __nv_sqrtf (this workspace links libdevice). It asks
; the compiler about prec-sqrt (__nvvm_reflect("__CUDA_PREC_SQRT")) and picks its code.
declare float @__nv_sqrtf(float)

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define void @normalize(i32 %n, float* %x, float* %y, float* %ux, float* %uy) {
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
  %yp = getelementptr inbounds float, float* %y, i64 %idx
  %xv = load float, float* %xp, align 4
  %yv = load float, float* %yp, align 4

  ; A multiply-add: with fma on, `fma.rn.f32` (one rounding); off, `mul.rn.f32` + `add.rn.f32`.
  %xx = fmul float %xv, %xv
  %yy = fmul float %yv, %yv
  %ss = fadd float %xx, %yy
  ; prec-sqrt on: `sqrt.rn.f32` (IEEE); off: `sqrt.approx.f32`.
  %len = call float @__nv_sqrtf(float %ss)
  ; prec-div on: `div.rn.f32` (IEEE); off: `div.full.f32`.
  %a = fdiv float %xv, %len
  %b = fdiv float %yv, %len

  %uxp = getelementptr inbounds float, float* %ux, i64 %idx
  %uyp = getelementptr inbounds float, float* %uy, i64 %idx
  store float %a, float* %uxp, align 4
  store float %b, float* %uyp, align 4
  br label %done

done:
  ret void
}

@llvm.used = appending global [1 x i8*] [i8* bitcast (void (i32, float*, float*, float*, float*)* @normalize to i8*)], section "llvm.metadata"

!nvvm.annotations = !{!0}
!0 = !{void (i32, float*, float*, float*, float*)* @normalize, !"kernel", i32 1}

!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
