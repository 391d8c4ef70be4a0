; two-modules: the kernel lives here; the device function it calls lives in helper.ll.
;
; libNVVM compiles all modules of a program together as one whole program: it links them
; in the order they were added, then optimises and generates a single PTX file. So a
; function may be declared in one module and defined in another, as with C and a linker.

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Only a declaration: helper.ll has the body. Rename it here (or there) and compile: the
; names no longer meet, and the PTX gets an `.extern .func` that nothing defines.
declare float @smoothstep(float, float, float)

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define void @fade(i32 %n, float %lo, float %hi, float* %x, float* %out) {
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
  ; A call across modules. Because libNVVM sees both modules at once, it inlines
  ; @smoothstep here: the kernel in the PTX has no `call`, just the arithmetic.
  %s = call float @smoothstep(float %lo, float %hi, float %v)
  %op = getelementptr inbounds float, float* %out, i64 %idx
  store float %s, float* %op, align 4
  br label %done

done:
  ret void
}
; @llvm.used keeps @fade through nvJitLink's link-time optimisation (the LTO pane):
; LTO drops every kernel it does not list, while libNVVM and nvJitLink both report
; success. The lto-dropped example shows what happens without it.
@llvm.used = appending global [1 x i8*] [i8* bitcast (void (i32, float, float, float*, float*)* @fade to i8*)], section "llvm.metadata"

!nvvm.annotations = !{!0}
!0 = !{void (i32, float, float, float*, float*)* @fade, !"kernel", i32 1}

!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
