; kernels.ll: two kernels, scale and shift.
;
; Besides PTX, libNVVM can write LTO-IR (-gen-lto): optimised IR that nvJitLink links with
; other LTO-IR, optimises again as a whole program, and only then turns into PTX or a cubin.
; The app makes both: the PTX pane is libNVVM's PTX, the LTO PTX pane is nvJitLink's.

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; @llvm.used: symbols that no optimisation may delete. The host, which launches kernels, is
; not part of nvJitLink's link, so a kernel not listed here looks unused and is dropped.
; The section "llvm.metadata" keeps the array itself out of the output.
@llvm.used = appending global [2 x i8*] [i8* bitcast (void (float*, float, i32)* @scale to i8*), i8* bitcast (void (float*, float, i32)* @shift to i8*)], section "llvm.metadata"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define internal i32 @globalIndex() alwaysinline {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  ret i32 %i
}

; data[i] *= k
define void @scale(float* %data, float %k, i32 %n) {
entry:
  %i = call i32 @globalIndex()
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

; data[i] += k
define void @shift(float* %data, float %k, i32 %n) {
entry:
  %i = call i32 @globalIndex()
  %inside = icmp slt i32 %i, %n
  br i1 %inside, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds float, float* %data, i64 %idx
  %v = load float, float* %p, align 4
  %r = fadd float %v, %k
  store float %r, float* %p, align 4
  br label %done
done:
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (float*, float, i32)* @scale, !"kernel", i32 1}
!1 = !{void (float*, float, i32)* @shift, !"kernel", i32 1}

!nvvmir.version = !{!2}
!2 = !{i32 2, i32 0}
