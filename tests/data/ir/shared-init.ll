; reverse.ll: reverses each block of 256 elements of data, in place, through a tile.
;
; In CUDA C++:
;   __global__ void reverse(float* data) {
;     __shared__ float tile[256];
;     int i = blockIdx.x * 256 + threadIdx.x;
;     tile[threadIdx.x] = data[i];
;     __syncthreads();
;     data[i] = tile[255 - threadIdx.x];
;   }
; @tile is __shared__ now, but its initializer is left from the global version:
; libNVVM says "Shared variables can't be initialized" (the learner's step 3 of lesson 2).

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; A module-level array. Its address space says where it lives:
; addrspace(1) global, addrspace(3) shared, addrspace(4) constant, addrspace(5) local.
@tile = internal addrspace(3) global [256 x float] zeroinitializer, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; __syncthreads(): `bar.sync 0` in the PTX.
declare void @llvm.nvvm.barrier0()

define void @reverse(float* %data) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %b, 256
  %i = add i32 %base, %t
  %i64 = sext i32 %i to i64
  %p = getelementptr inbounds float, float* %data, i64 %i64
  %v = load float, float* %p, align 4

  ; tile[threadIdx.x] = v
  %t64 = sext i32 %t to i64
  %slot = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @tile, i64 0, i64 %t64
  store float %v, float addrspace(3)* %slot, align 4
  call void @llvm.nvvm.barrier0()

  ; data[i] = tile[255 - threadIdx.x]
  %rt = sub i32 255, %t
  %rt64 = sext i32 %rt to i64
  %rslot = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @tile, i64 0, i64 %rt64
  %w = load float, float addrspace(3)* %rslot, align 4
  store float %w, float* %p, align 4
  ret void
}

@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*)* @reverse to i8*)], section "llvm.metadata"

!nvvm.annotations = !{!0}
!0 = !{void (float*)* @reverse, !"kernel", i32 1}

!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
