; rows.ll: each thread normalises one row of 64 floats: row /= sum(row).
;
; In CUDA C++:
;   __global__ void normalize_rows(float* data, int rows) {
;     int r = blockIdx.x * blockDim.x + threadIdx.x;
;     if (r >= rows) return;
;     float* p = data + r * 64;
;     float s = 0;
;     for (int k = 0; k < 64; ++k) s += p[k];
;     float inv = 1.0f / s;
;     for (int j = 0; j < 64; ++j) p[j] *= inv;
;   }

target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define void @normalize_rows(float* %data, i32 %rows) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %row = add i32 %base, %tid
  %inside = icmp slt i32 %row, %rows
  br i1 %inside, label %body, label %done

body:
  %r64 = sext i32 %row to i64
  %first = mul i64 %r64, 64
  %p = getelementptr inbounds float, float* %data, i64 %first
  br label %sum

sum:                                    ; for (k = 0; k < 64; ++k) s += p[k];
  %k = phi i64 [ 0, %body ], [ %k1, %sum ]
  %s = phi float [ 0.000000e+00, %body ], [ %s1, %sum ]
  %pk = getelementptr inbounds float, float* %p, i64 %k
  %x = load float, float* %pk, align 4
  %s1 = fadd float %s, %x
  %k1 = add i64 %k, 1
  %more = icmp ult i64 %k1, 64
  br i1 %more, label %sum, label %scale0

scale0:
  %inv = fdiv float 1.000000e+00, %s1
  br label %scale

scale:                                  ; for (j = 0; j < 64; ++j) p[j] *= inv;
  %j = phi i64 [ 0, %scale0 ], [ %j1, %scale ]
  %pj = getelementptr inbounds float, float* %p, i64 %j
  %y = load float, float* %pj, align 4
  %z = fmul float %y, %inv
  store float %z, float* %pj, align 4
  %j1 = add i64 %j, 1
  %more2 = icmp ult i64 %j1, 64
  br i1 %more2, label %scale, label %done

done:
  ret void
}

@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*, i32)* @normalize_rows to i8*)], section "llvm.metadata"

; "maxntidx" 1024 is __launch_bounds__(1024): `.maxntid 1024, 1, 1` in the PTX.
!nvvm.annotations = !{!0, !2}
!0 = !{void (float*, i32)* @normalize_rows, !"kernel", i32 1}
!2 = !{void (float*, i32)* @normalize_rows, !"maxntidx", i32 1024}

!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
