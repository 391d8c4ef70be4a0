; mathlib.ll: the source of mathlib.bc. The workspace holds this module as bitcode,
; assembled with Debian's LLVM 14 assembler:  llvm-as-14 < mathlib.ll > mathlib.bc
; (make_lessons.py does that). Bitcode keeps no comments; this file is here to be read.
;
; libNVVM's reader is LLVM 7.0.1, yet it reads this LLVM 14 bitcode, because the IR uses
; only what LLVM 7 knows: typed pointers (float*), no opaque `ptr`. Bitcode is NVIDIA's
; preferred input (text IR is deprecated), and what front ends such as numba hand over.

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; lerp(a, b, t) = a + t * (b - a)
define float @lerp(float %a, float %b, float %t) {
  %d = fsub float %b, %a
  %td = fmul float %t, %d
  %r = fadd float %a, %td
  ret float %r
}

; clampf(x, lo, hi) = min(max(x, lo), hi)
;
; Written with fcmp and select, not with the llvm.maxnum / llvm.minnum intrinsics that
; two-modules uses in text form: llvm-as-14 gives intrinsic declarations attributes that
; LLVM 7 does not know (nofree, nosync, willreturn), and libNVVM then aborts the whole
; process while reading the bitcode ("Unknown attribute kind (62) (Producer: 'LLVM14.0.6'
; Reader: 'LLVM 7.0.1')"). In the PTX each compare and select is a `setp` and a `selp.f32`.
define float @clampf(float %x, float %lo, float %hi) {
  %below = fcmp olt float %x, %lo
  %m = select i1 %below, float %lo, float %x
  %above = fcmp ogt float %m, %hi
  %r = select i1 %above, float %hi, float %m
  ret float %r
}

; Nothing calls @cube. Added whole, mathlib.bc is compiled whole: `.visible .func cube` is in
; the PTX (and so are lerp and clampf, as external functions). Added lazily, libNVVM takes from
; it only what the other modules use, and cube is gone.
define float @cube(float %x) {
  %x2 = fmul float %x, %x
  %x3 = fmul float %x2, %x
  ret float %x3
}

!nvvmir.version = !{!0}
!0 = !{i32 2, i32 0}
