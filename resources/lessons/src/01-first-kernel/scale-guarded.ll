; scale.ll: data[i] = data[i] * k, one GPU thread per element.
;
; NVVM IR is LLVM IR (the LLVM 7 dialect: typed pointers such as float*) with the NVPTX
; target triple and datalayout below. libNVVM compiles it to PTX, the GPU's assembly.

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; threadIdx.x, blockIdx.x and blockDim.x, read through intrinsics: in the PTX each is a
; `mov.u32` from the special register %tid.x, %ctaid.x or %ntid.x.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

; In CUDA C++:
;   __global__ void scale(float* data, float k, int n) {
;     int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) data[i] *= k; }
; The __global__ is the !nvvm.annotations entry at the end.
define void @scale(float* %data, float %k, i32 %n) {
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
  %r = fmul float %v, %k
  store float %r, float* %p, align 4
  br label %done

done:
  ret void
}

; @llvm.used keeps @scale in the LTO pane's result (lesson 06 explains it).
@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*, float, i32)* @scale to i8*)], section "llvm.metadata"

; This is what makes @scale a kernel (__global__): a `.visible .entry scale` in the PTX.
!nvvm.annotations = !{!0}
!0 = !{void (float*, float, i32)* @scale, !"kernel", i32 1}

; The NVVM IR version this module is written for: libNVVM refuses a module without it.
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
