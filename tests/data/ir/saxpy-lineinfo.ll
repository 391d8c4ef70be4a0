; saxpy with a device function, annotated by hand as the line map's twin is: every instruction
; has a !dbg location whose line is its own line in this file, one DISubprogram per define, a
; compile unit with emissionKind: DebugDirectivesOnly, and the debug pair in !nvvmir.version.
; Compiled with -generate-line-info, its PTX has .loc lines naming this file's lines; ptxas
; -lineinfo and nvdisasm -g then mark the SASS with them (tests/core/tst_sass.cpp).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define float @axpy(float %a, float %x, float %y) noinline !dbg !7 {
  %ax = fmul float %a, %x, !dbg !9
  %sum = fadd float %ax, %y, !dbg !10
  ret float %sum, !dbg !11
}

define void @saxpy(i32 %n, float %a, float* %x, float* %y) !dbg !8 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !12
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !13
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !14
  %base = mul i32 %ctaid, %ntid, !dbg !15
  %i = add i32 %base, %tid, !dbg !16
  %inside = icmp slt i32 %i, %n, !dbg !17
  br i1 %inside, label %body, label %done, !dbg !18

body:
  %idx = sext i32 %i to i64, !dbg !19
  %xp = getelementptr inbounds float, float* %x, i64 %idx, !dbg !20
  %yp = getelementptr inbounds float, float* %y, i64 %idx, !dbg !21
  %xv = load float, float* %xp, align 4, !dbg !22
  %yv = load float, float* %yp, align 4, !dbg !23
  %r = call float @axpy(float %a, float %xv, float %yv), !dbg !24
  store float %r, float* %yp, align 4, !dbg !25
  br label %done, !dbg !26

done:
  ret void, !dbg !27
}

!nvvm.annotations = !{!0}
!0 = !{void (i32, float, float*, float*)* @saxpy, !"kernel", i32 1}
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0, i32 3, i32 1}
!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!3}
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !4, producer: "nvpg", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly)
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DIFile(filename: "saxpy-lineinfo.ll", directory: "")
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = distinct !DISubprogram(name: "axpy", scope: !4, file: !4, line: 13, type: !5, isLocal: false, isDefinition: true, scopeLine: 13, isOptimized: true, unit: !2)
!8 = distinct !DISubprogram(name: "saxpy", scope: !4, file: !4, line: 19, type: !5, isLocal: false, isDefinition: true, scopeLine: 19, isOptimized: true, unit: !2)
!9 = !DILocation(line: 14, column: 1, scope: !7)
!10 = !DILocation(line: 15, column: 1, scope: !7)
!11 = !DILocation(line: 16, column: 1, scope: !7)
!12 = !DILocation(line: 21, column: 1, scope: !8)
!13 = !DILocation(line: 22, column: 1, scope: !8)
!14 = !DILocation(line: 23, column: 1, scope: !8)
!15 = !DILocation(line: 24, column: 1, scope: !8)
!16 = !DILocation(line: 25, column: 1, scope: !8)
!17 = !DILocation(line: 26, column: 1, scope: !8)
!18 = !DILocation(line: 27, column: 1, scope: !8)
!19 = !DILocation(line: 30, column: 1, scope: !8)
!20 = !DILocation(line: 31, column: 1, scope: !8)
!21 = !DILocation(line: 32, column: 1, scope: !8)
!22 = !DILocation(line: 33, column: 1, scope: !8)
!23 = !DILocation(line: 34, column: 1, scope: !8)
!24 = !DILocation(line: 35, column: 1, scope: !8)
!25 = !DILocation(line: 36, column: 1, scope: !8)
!26 = !DILocation(line: 37, column: 1, scope: !8)
!27 = !DILocation(line: 40, column: 1, scope: !8)
