target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Pair = type { double, i64 }

@tile = internal addrspace(3) global [256 x float] undef, align 4
@coef = internal addrspace(4) global [4 x float] [float 1.0, float 2.0, float 3.0, float 4.0], align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

define float @helper(float %x, float %y) noinline {
  %a = fmul float %x, %y
  %b = fadd float %a, %x
  ret float %b
}

define void @shared_k(float* %out, i32 %n) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %p = getelementptr inbounds float, float* %out, i64 %ti
  %v = load float, float* %p
  %s = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @tile, i64 0, i64 %ti
  store float %v, float addrspace(3)* %s
  call void @llvm.nvvm.barrier0()
  %r = sub i32 255, %t
  %ri = zext i32 %r to i64
  %s2 = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @tile, i64 0, i64 %ri
  %w = load float, float addrspace(3)* %s2
  %ci = and i64 %ti, 3
  %cp = getelementptr inbounds [4 x float], [4 x float] addrspace(4)* @coef, i64 0, i64 %ci
  %c = load float, float addrspace(4)* %cp
  %wc = fmul float %w, %c
  store float %wc, float* %p
  ret void
}

define void @local_k(float* %out, i32 %idx, i8 %small, i16 %mid) {
  %arr = alloca [64 x float], align 4
  br label %fill
fill:
  %i = phi i64 [0, %0], [%in, %fill]
  %src = getelementptr inbounds float, float* %out, i64 %i
  %fi = load float, float* %src
  %idx64 = zext i32 %idx to i64
  %i7 = mul i64 %i, %idx64
  %j = and i64 %i7, 63
  %e = getelementptr inbounds [64 x float], [64 x float]* %arr, i64 0, i64 %j
  store float %fi, float* %e
  %in = add i64 %i, 1
  %done = icmp eq i64 %in, 64
  br i1 %done, label %read, label %fill
read:
  %ix = zext i32 %idx to i64
  %g = getelementptr inbounds [64 x float], [64 x float]* %arr, i64 0, i64 %ix
  %v = load float, float* %g
  %sm = sitofp i8 %small to float
  %md = sitofp i16 %mid to float
  %a = fadd float %v, %sm
  %b = fadd float %a, %md
  store float %b, float* %out
  ret void
}

define void @calls_helper(float* %out, float %x, double %d, half %h) {
  %v = load float, float* %out
  %r = call float @helper(float %v, float %x)
  %df = fptrunc double %d to float
  %hf = fpext half %h to float
  %s = fadd float %r, %df
  %s2 = fadd float %s, %hf
  store float %s2, float* %out
  ret void
}

define void @byval_k(%struct.Pair* byval align 8 %p, i64* %out, <2 x half> %hh) {
  %a = getelementptr inbounds %struct.Pair, %struct.Pair* %p, i32 0, i32 0
  %b = getelementptr inbounds %struct.Pair, %struct.Pair* %p, i32 0, i32 1
  %av = load double, double* %a
  %bv = load i64, i64* %b
  %ai = fptosi double %av to i64
  %s = add i64 %ai, %bv
  store i64 %s, i64* %out
  ret void
}

define void @spill_k(float* %in, float* %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  br label %loop
loop:
  %i = phi i64 [0, %0], [%in1, %loop]
  %acc0 = phi float [0.0, %0], [%n0, %loop]
  %acc1 = phi float [0.0, %0], [%n1, %loop]
  %acc2 = phi float [0.0, %0], [%n2, %loop]
  %acc3 = phi float [0.0, %0], [%n3, %loop]
  %acc4 = phi float [0.0, %0], [%n4, %loop]
  %acc5 = phi float [0.0, %0], [%n5, %loop]
  %acc6 = phi float [0.0, %0], [%n6, %loop]
  %acc7 = phi float [0.0, %0], [%n7, %loop]
  %acc8 = phi float [0.0, %0], [%n8, %loop]
  %acc9 = phi float [0.0, %0], [%n9, %loop]
  %acc10 = phi float [0.0, %0], [%n10, %loop]
  %acc11 = phi float [0.0, %0], [%n11, %loop]
  %acc12 = phi float [0.0, %0], [%n12, %loop]
  %acc13 = phi float [0.0, %0], [%n13, %loop]
  %acc14 = phi float [0.0, %0], [%n14, %loop]
  %acc15 = phi float [0.0, %0], [%n15, %loop]
  %acc16 = phi float [0.0, %0], [%n16, %loop]
  %acc17 = phi float [0.0, %0], [%n17, %loop]
  %acc18 = phi float [0.0, %0], [%n18, %loop]
  %acc19 = phi float [0.0, %0], [%n19, %loop]
  %acc20 = phi float [0.0, %0], [%n20, %loop]
  %acc21 = phi float [0.0, %0], [%n21, %loop]
  %acc22 = phi float [0.0, %0], [%n22, %loop]
  %acc23 = phi float [0.0, %0], [%n23, %loop]
  %base = mul i64 %i, 24
  %o0 = add i64 %base, 0
  %p0 = getelementptr inbounds float, float* %in, i64 %o0
  %v0 = load volatile float, float* %p0
  %n0 = fadd float %acc0, %v0
  %o1 = add i64 %base, 1
  %p1 = getelementptr inbounds float, float* %in, i64 %o1
  %v1 = load volatile float, float* %p1
  %n1 = fmul float %acc1, %v1
  %o2 = add i64 %base, 2
  %p2 = getelementptr inbounds float, float* %in, i64 %o2
  %v2 = load volatile float, float* %p2
  %n2 = fadd float %acc2, %v2
  %o3 = add i64 %base, 3
  %p3 = getelementptr inbounds float, float* %in, i64 %o3
  %v3 = load volatile float, float* %p3
  %n3 = fmul float %acc3, %v3
  %o4 = add i64 %base, 4
  %p4 = getelementptr inbounds float, float* %in, i64 %o4
  %v4 = load volatile float, float* %p4
  %n4 = fadd float %acc4, %v4
  %o5 = add i64 %base, 5
  %p5 = getelementptr inbounds float, float* %in, i64 %o5
  %v5 = load volatile float, float* %p5
  %n5 = fmul float %acc5, %v5
  %o6 = add i64 %base, 6
  %p6 = getelementptr inbounds float, float* %in, i64 %o6
  %v6 = load volatile float, float* %p6
  %n6 = fadd float %acc6, %v6
  %o7 = add i64 %base, 7
  %p7 = getelementptr inbounds float, float* %in, i64 %o7
  %v7 = load volatile float, float* %p7
  %n7 = fmul float %acc7, %v7
  %o8 = add i64 %base, 8
  %p8 = getelementptr inbounds float, float* %in, i64 %o8
  %v8 = load volatile float, float* %p8
  %n8 = fadd float %acc8, %v8
  %o9 = add i64 %base, 9
  %p9 = getelementptr inbounds float, float* %in, i64 %o9
  %v9 = load volatile float, float* %p9
  %n9 = fmul float %acc9, %v9
  %o10 = add i64 %base, 10
  %p10 = getelementptr inbounds float, float* %in, i64 %o10
  %v10 = load volatile float, float* %p10
  %n10 = fadd float %acc10, %v10
  %o11 = add i64 %base, 11
  %p11 = getelementptr inbounds float, float* %in, i64 %o11
  %v11 = load volatile float, float* %p11
  %n11 = fmul float %acc11, %v11
  %o12 = add i64 %base, 12
  %p12 = getelementptr inbounds float, float* %in, i64 %o12
  %v12 = load volatile float, float* %p12
  %n12 = fadd float %acc12, %v12
  %o13 = add i64 %base, 13
  %p13 = getelementptr inbounds float, float* %in, i64 %o13
  %v13 = load volatile float, float* %p13
  %n13 = fmul float %acc13, %v13
  %o14 = add i64 %base, 14
  %p14 = getelementptr inbounds float, float* %in, i64 %o14
  %v14 = load volatile float, float* %p14
  %n14 = fadd float %acc14, %v14
  %o15 = add i64 %base, 15
  %p15 = getelementptr inbounds float, float* %in, i64 %o15
  %v15 = load volatile float, float* %p15
  %n15 = fmul float %acc15, %v15
  %o16 = add i64 %base, 16
  %p16 = getelementptr inbounds float, float* %in, i64 %o16
  %v16 = load volatile float, float* %p16
  %n16 = fadd float %acc16, %v16
  %o17 = add i64 %base, 17
  %p17 = getelementptr inbounds float, float* %in, i64 %o17
  %v17 = load volatile float, float* %p17
  %n17 = fmul float %acc17, %v17
  %o18 = add i64 %base, 18
  %p18 = getelementptr inbounds float, float* %in, i64 %o18
  %v18 = load volatile float, float* %p18
  %n18 = fadd float %acc18, %v18
  %o19 = add i64 %base, 19
  %p19 = getelementptr inbounds float, float* %in, i64 %o19
  %v19 = load volatile float, float* %p19
  %n19 = fmul float %acc19, %v19
  %o20 = add i64 %base, 20
  %p20 = getelementptr inbounds float, float* %in, i64 %o20
  %v20 = load volatile float, float* %p20
  %n20 = fadd float %acc20, %v20
  %o21 = add i64 %base, 21
  %p21 = getelementptr inbounds float, float* %in, i64 %o21
  %v21 = load volatile float, float* %p21
  %n21 = fmul float %acc21, %v21
  %o22 = add i64 %base, 22
  %p22 = getelementptr inbounds float, float* %in, i64 %o22
  %v22 = load volatile float, float* %p22
  %n22 = fadd float %acc22, %v22
  %o23 = add i64 %base, 23
  %p23 = getelementptr inbounds float, float* %in, i64 %o23
  %v23 = load volatile float, float* %p23
  %n23 = fmul float %acc23, %v23
  %in1 = add i64 %i, 1
  %done = icmp eq i64 %in1, 100
  br i1 %done, label %exit, label %loop
exit:
  %q0 = getelementptr inbounds float, float* %out, i64 0
  store float %n0, float* %q0
  %q1 = getelementptr inbounds float, float* %out, i64 1
  store float %n1, float* %q1
  %q2 = getelementptr inbounds float, float* %out, i64 2
  store float %n2, float* %q2
  %q3 = getelementptr inbounds float, float* %out, i64 3
  store float %n3, float* %q3
  %q4 = getelementptr inbounds float, float* %out, i64 4
  store float %n4, float* %q4
  %q5 = getelementptr inbounds float, float* %out, i64 5
  store float %n5, float* %q5
  %q6 = getelementptr inbounds float, float* %out, i64 6
  store float %n6, float* %q6
  %q7 = getelementptr inbounds float, float* %out, i64 7
  store float %n7, float* %q7
  %q8 = getelementptr inbounds float, float* %out, i64 8
  store float %n8, float* %q8
  %q9 = getelementptr inbounds float, float* %out, i64 9
  store float %n9, float* %q9
  %q10 = getelementptr inbounds float, float* %out, i64 10
  store float %n10, float* %q10
  %q11 = getelementptr inbounds float, float* %out, i64 11
  store float %n11, float* %q11
  %q12 = getelementptr inbounds float, float* %out, i64 12
  store float %n12, float* %q12
  %q13 = getelementptr inbounds float, float* %out, i64 13
  store float %n13, float* %q13
  %q14 = getelementptr inbounds float, float* %out, i64 14
  store float %n14, float* %q14
  %q15 = getelementptr inbounds float, float* %out, i64 15
  store float %n15, float* %q15
  %q16 = getelementptr inbounds float, float* %out, i64 16
  store float %n16, float* %q16
  %q17 = getelementptr inbounds float, float* %out, i64 17
  store float %n17, float* %q17
  %q18 = getelementptr inbounds float, float* %out, i64 18
  store float %n18, float* %q18
  %q19 = getelementptr inbounds float, float* %out, i64 19
  store float %n19, float* %q19
  %q20 = getelementptr inbounds float, float* %out, i64 20
  store float %n20, float* %q20
  %q21 = getelementptr inbounds float, float* %out, i64 21
  store float %n21, float* %q21
  %q22 = getelementptr inbounds float, float* %out, i64 22
  store float %n22, float* %q22
  %q23 = getelementptr inbounds float, float* %out, i64 23
  store float %n23, float* %q23
  ret void
}

@llvm.used = appending global [6 x i8*] [i8* bitcast (void (float*, i32)* @shared_k to i8*), i8* bitcast (void (float*, i32, i8, i16)* @local_k to i8*), i8* bitcast (void (float*, float, double, half)* @calls_helper to i8*), i8* bitcast (void (%struct.Pair*, i64*, <2 x half>)* @byval_k to i8*), i8* bitcast (void (float*, float*)* @spill_k to i8*), i8* bitcast (float (float, float)* @helper to i8*)], section "llvm.metadata"

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5}
!0 = !{void (float*, i32)* @shared_k, !"kernel", i32 1}
!1 = !{void (float*, i32, i8, i16)* @local_k, !"kernel", i32 1}
!2 = !{void (float*, float, double, half)* @calls_helper, !"kernel", i32 1}
!3 = !{void (%struct.Pair*, i64*, <2 x half>)* @byval_k, !"kernel", i32 1}
!4 = !{void (float*, float*)* @spill_k, !"kernel", i32 1}
!5 = !{void (float*, float*)* @spill_k, !"maxnreg", i32 16}
!nvvmir.version = !{!6}
!6 = !{i32 2, i32 0}
