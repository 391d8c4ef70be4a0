; saxpy: y[i] = a * x[i] + y[i], one GPU thread per element.
;
; NVVM IR is LLVM 7 IR with typed pointers (float*, not ptr), the NVPTX triple and
; datalayout below, and two named metadata nodes at the end that libNVVM relies on.

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The PTX special registers %tid.x, %ctaid.x and %ntid.x are read through intrinsics.
; In the PTX each call becomes one `mov.u32 %r, %tid.x` (or %ctaid.x, %ntid.x).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()    ; thread index within the block
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()  ; block index within the grid
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()   ; threads per block

define void @saxpy(i32 %n, float %a, float* %x, float* %y) {
entry:
  ; i = blockIdx.x * blockDim.x + threadIdx.x
  ; Look for `mad.lo.s32` in the PTX: the multiply and the add become one instruction.
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid

  ; The grid is rounded up to whole blocks, so the last block has threads past the end:
  ; they must not touch memory. In the PTX this is a `setp.ge.s32` and a predicated `bra`.
  %inside = icmp slt i32 %i, %n
  br i1 %inside, label %body, label %done

body:
  ; Kernel pointer arguments point into global memory, but the IR type float* only says
  ; "generic". The addrspacecast to addrspace(1) says "global", and the PTX uses
  ; `cvta.to.global.u64` and `ld.global.f32` / `st.global.f32`. For kernel parameters
  ; libNVVM works this out by itself (delete the casts: the PTX stays the same); in a
  ; device function a float* may point anywhere and is read with a generic `ld.f32`.
  %xg = addrspacecast float* %x to float addrspace(1)*
  %yg = addrspacecast float* %y to float addrspace(1)*
  %idx = sext i32 %i to i64
  %xp = getelementptr inbounds float, float addrspace(1)* %xg, i64 %idx
  %yp = getelementptr inbounds float, float addrspace(1)* %yg, i64 %idx
  %xv = load float, float addrspace(1)* %xp, align 4
  %yv = load float, float addrspace(1)* %yp, align 4

  ; A separate multiply and add in the IR. With "fma" on (libNVVM's default) the PTX has a
  ; single `fma.rn.f32`; set "fma" to off in the options and recompile to see
  ; `mul.rn.f32` and `add.rn.f32` (the .rn stops ptxas from fusing them after all).
  %ax = fmul float %a, %xv
  %sum = fadd float %ax, %yv
  store float %sum, float addrspace(1)* %yp, align 4
  br label %done

done:
  ret void
}
; @llvm.used keeps @saxpy through nvJitLink's link-time optimisation (the LTO pane):
; LTO drops every kernel it does not list, while libNVVM and nvJitLink both report
; success. The lto-dropped example shows what happens without it.
@llvm.used = appending global [1 x i8*] [i8* bitcast (void (i32, float, float*, float*)* @saxpy to i8*)], section "llvm.metadata"

; This annotation is what makes @saxpy a kernel: a `.visible .entry saxpy(...)` in the PTX
; that the host can launch. Without it @saxpy would be an ordinary device function.
!nvvm.annotations = !{!0}
!0 = !{void (i32, float, float*, float*)* @saxpy, !"kernel", i32 1}

; The NVVM IR version this module is written for. Without it libNVVM refuses the module
; ("IR version 1.0 incompatible").
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
