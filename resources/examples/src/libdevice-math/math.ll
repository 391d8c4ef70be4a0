; libdevice-math: out[i] = sin(x[i]) + exp(x[i]) * pow(x[i], 2.5)
;
; The math comes from libdevice (libdevice.10.bc, shipped with the CUDA toolkit): a library
; of __nv_* device functions in NVVM IR. This module only declares them; with "libdevice"
; on, the app adds libdevice to the program lazily, so libNVVM links in just the
; functions used here and inlines them.

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Declared, not defined: libdevice supplies the bodies.
declare float @__nv_sinf(float)
declare float @__nv_expf(float)
declare float @__nv_powf(float, float)

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

  ; Look at the PTX: there is no `.extern .func __nv_sinf` (nor __nv_expf, __nv_powf),
  ; and no `call`. The bodies were linked from libdevice and inlined into @wave. Some of
  ; libdevice came along with them: the `.global __cudart_i2opi_f` table (digits of 2/pi)
  ; and the `.local __local_depot0` are sinf's slow path for huge arguments, and the one
  ; `ex2.approx.ftz.f32` is the core of expf.
  ; Turn "libdevice" off and compile again: the PTX now has
  ; `.extern .func (.param .b32 func_retval0) __nv_sinf` and friends, and calls them.
  ; libNVVM still reports success, but nothing will ever supply those functions, so
  ; ptxas or the driver fails later with an unresolved symbol.
  %s = call float @__nv_sinf(float %v)
  %e = call float @__nv_expf(float %v)
  %p = call float @__nv_powf(float %v, float 2.500000e+00)
  %ep = fmul float %e, %p
  %r = fadd float %s, %ep

  ; libdevice asks the compiler about -ftz through __nvvm_reflect("__CUDA_FTZ") and picks
  ; a code path when it is linked. Set "ftz" on: nearly every float instruction of the
  ; kernel turns into its flush-to-zero form (`fma.rn.ftz.f32`, `mul.ftz.f32`, ...).
  %op = getelementptr inbounds float, float* %out, i64 %idx
  store float %r, float* %op, align 4
  br label %done

done:
  ret void
}
; @llvm.used keeps @wave through nvJitLink's link-time optimisation (the LTO pane):
; LTO drops every kernel it does not list, while libNVVM and nvJitLink both report
; success. The lto-dropped example shows what happens without it.
@llvm.used = appending global [1 x i8*] [i8* bitcast (void (i32, float*, float*)* @wave to i8*)], section "llvm.metadata"

!nvvm.annotations = !{!0}
!0 = !{void (i32, float*, float*)* @wave, !"kernel", i32 1}

!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
