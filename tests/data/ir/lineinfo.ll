; ModuleID = "axpy_lineinfo$1"
; A kernel as numba-cuda writes it with lineinfo=True: typed pointers, quoted names, a compile
; unit with emissionKind DebugDirectivesOnly, and !dbg locations that name lines of kernels.py
; (lines 1000 and up, so that no .py line is a line of this file). The line map must name this
; file's own lines, never the .py's. tst_inspect adds an llvm.dbg.value call, as -g writes them,
; for the variable !10.
target triple = "nvptx64-nvidia-cuda"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"

define void @"axpy_lineinfo"(float* %"r", float %"a", float* %"x", float* %"y", i32 %"n") !dbg !5
{
entry:
  %"tid" = call i32 @"llvm.nvvm.read.ptx.sreg.tid.x"(), !dbg !7
  %"ctaid" = call i32 @"llvm.nvvm.read.ptx.sreg.ctaid.x"(), !dbg !7
  %"ntid" = call i32 @"llvm.nvvm.read.ptx.sreg.ntid.x"(), !dbg !7
  %"base" = mul i32 %"ctaid", %"ntid", !dbg !7
  %"i" = add i32 %"base", %"tid", !dbg !7
  %"inside" = icmp slt i32 %"i", %"n", !dbg !8
  br i1 %"inside", label %"body", label %"done", !dbg !8
body:
  %"idx" = sext i32 %"i" to i64, !dbg !9
  %"xp" = getelementptr inbounds float, float* %"x", i64 %"idx", !dbg !9
  %"yp" = getelementptr inbounds float, float* %"y", i64 %"idx", !dbg !9
  %"rp" = getelementptr inbounds float, float* %"r", i64 %"idx", !dbg !9
  %"xv" = load float, float* %"xp", align 4, !dbg !9
  %"yv" = load float, float* %"yp", align 4, !dbg !9
  %"ax" = fmul float %"a", %"xv", !dbg !9
  %"sum" = fadd float %"ax", %"yv", !dbg !9
  store float %"sum", float* %"rp", align 4, !dbg !9
  br label %"done", !dbg !9
done:
  ret void, !dbg !11
}

declare i32 @"llvm.nvvm.read.ptx.sreg.tid.x"()

declare i32 @"llvm.nvvm.read.ptx.sreg.ntid.x"()

declare i32 @"llvm.nvvm.read.ptx.sreg.ctaid.x"()

declare void @"llvm.dbg.value"(metadata, metadata, metadata)

@"llvm.used" = appending global [1 x i8*] [i8* bitcast (void (float*, float, float*, float*, i32)* @"axpy_lineinfo" to i8*)], section "llvm.metadata"
!llvm.dbg.cu = !{ !2 }
!llvm.module.flags = !{ !0, !1 }
!nvvmir.version = !{ !12 }
!nvvm.annotations = !{ !13 }
!0 = !{ i32 2, !"Dwarf Version", i32 4 }
!1 = !{ i32 2, !"Debug Info Version", i32 3 }
!2 = distinct !DICompileUnit(emissionKind: DebugDirectivesOnly, file: !3, isOptimized: true, language: DW_LANG_Python, producer: "clang (Numba)", runtimeVersion: 0)
!3 = !DIFile(directory: "/home/user/project", filename: "kernels.py")
!4 = !{  }
!5 = distinct !DISubprogram(file: !3, isDefinition: true, isLocal: false, isOptimized: true, line: 1000, linkageName: "axpy_lineinfo", name: "axpy", scope: !3, scopeLine: 1000, type: !6, unit: !2)
!6 = !DISubroutineType(types: !4)
!7 = !DILocation(column: 1, line: 1002, scope: !5)
!8 = !DILocation(column: 1, line: 1003, scope: !5)
!9 = !DILocation(column: 1, line: 1004, scope: !5)
!10 = !DILocalVariable(name: "a", arg: 2, scope: !5, file: !3, line: 1000, type: !14)
!11 = !DILocation(column: 1, line: 1005, scope: !5)
!12 = !{ i32 2, i32 0, i32 3, i32 2 }
!13 = !{ void (float*, float, float*, float*, i32)* @"axpy_lineinfo", !"kernel", i32 1 }
!14 = !DIBasicType(name: "float32", size: 32, encoding: DW_ATE_float)
