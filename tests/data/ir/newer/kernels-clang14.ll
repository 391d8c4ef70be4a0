; ModuleID = 'kernels.cu'
source_filename = "kernels.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ9block_sumE4tile = internal unnamed_addr addrspace(3) global [256 x float] undef, align 4

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn
define dso_local void @saxpy(float noundef %0, float* nocapture noundef readonly %1, float* nocapture noundef %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %6 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %7 = mul nsw i32 %5, %6
  %8 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %9 = add nsw i32 %7, %8
  %10 = icmp slt i32 %9, %3
  br i1 %10, label %11, label %19

11:                                               ; preds = %4
  %12 = sext i32 %9 to i64
  %13 = getelementptr inbounds float, float* %1, i64 %12
  %14 = load float, float* %13, align 4, !tbaa !6
  %15 = fmul contract float %14, %0
  %16 = getelementptr inbounds float, float* %2, i64 %12
  %17 = load float, float* %16, align 4, !tbaa !6
  %18 = fadd contract float %15, %17
  store float %18, float* %16, align 4, !tbaa !6
  br label %19

19:                                               ; preds = %11, %4
  ret void
}

; Function Attrs: nofree nosync nounwind readnone speculatable
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nofree nosync nounwind readnone speculatable
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: nofree nosync nounwind readnone speculatable
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @block_sum(float* nocapture noundef readonly %0, float* nocapture noundef writeonly %1) local_unnamed_addr #2 {
  %3 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %5 = shl i32 %4, 8
  %6 = add i32 %5, %3
  %7 = zext i32 %6 to i64
  %8 = getelementptr inbounds float, float* %0, i64 %7
  %9 = load float, float* %8, align 4, !tbaa !6
  %10 = zext i32 %3 to i64
  %11 = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @_ZZ9block_sumE4tile, i64 0, i64 %10
  %12 = addrspacecast float addrspace(3)* %11 to float*
  store float %9, float* %12, align 4, !tbaa !6
  tail call void @llvm.nvvm.barrier0()
  %13 = icmp ult i32 %3, 128
  br i1 %13, label %14, label %21

14:                                               ; preds = %2
  %15 = add nuw nsw i32 %3, 128
  %16 = zext i32 %15 to i64
  %17 = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @_ZZ9block_sumE4tile, i64 0, i64 %16
  %18 = addrspacecast float addrspace(3)* %17 to float*
  %19 = load float, float* %18, align 4, !tbaa !6
  %20 = fadd contract float %19, %9
  store float %20, float* %12, align 4, !tbaa !6
  br label %21

21:                                               ; preds = %14, %2
  %22 = phi float [ %20, %14 ], [ %9, %2 ]
  tail call void @llvm.nvvm.barrier0()
  %23 = icmp ult i32 %3, 64
  br i1 %23, label %24, label %31

24:                                               ; preds = %21
  %25 = add nuw nsw i32 %3, 64
  %26 = zext i32 %25 to i64
  %27 = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @_ZZ9block_sumE4tile, i64 0, i64 %26
  %28 = addrspacecast float addrspace(3)* %27 to float*
  %29 = load float, float* %28, align 4, !tbaa !6
  %30 = fadd contract float %29, %22
  store float %30, float* %12, align 4, !tbaa !6
  br label %31

31:                                               ; preds = %24, %21
  %32 = phi float [ %30, %24 ], [ %22, %21 ]
  tail call void @llvm.nvvm.barrier0()
  %33 = icmp ult i32 %3, 32
  br i1 %33, label %34, label %41

34:                                               ; preds = %31
  %35 = add nuw nsw i32 %3, 32
  %36 = zext i32 %35 to i64
  %37 = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @_ZZ9block_sumE4tile, i64 0, i64 %36
  %38 = addrspacecast float addrspace(3)* %37 to float*
  %39 = load float, float* %38, align 4, !tbaa !6
  %40 = fadd contract float %39, %32
  store float %40, float* %12, align 4, !tbaa !6
  br label %41

41:                                               ; preds = %34, %31
  %42 = phi float [ %40, %34 ], [ %32, %31 ]
  tail call void @llvm.nvvm.barrier0()
  %43 = icmp ult i32 %3, 16
  br i1 %43, label %44, label %51

44:                                               ; preds = %41
  %45 = add nuw nsw i32 %3, 16
  %46 = zext i32 %45 to i64
  %47 = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @_ZZ9block_sumE4tile, i64 0, i64 %46
  %48 = addrspacecast float addrspace(3)* %47 to float*
  %49 = load float, float* %48, align 4, !tbaa !6
  %50 = fadd contract float %49, %42
  store float %50, float* %12, align 4, !tbaa !6
  br label %51

51:                                               ; preds = %44, %41
  %52 = phi float [ %50, %44 ], [ %42, %41 ]
  tail call void @llvm.nvvm.barrier0()
  %53 = icmp ult i32 %3, 8
  br i1 %53, label %54, label %61

54:                                               ; preds = %51
  %55 = add nuw nsw i32 %3, 8
  %56 = zext i32 %55 to i64
  %57 = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @_ZZ9block_sumE4tile, i64 0, i64 %56
  %58 = addrspacecast float addrspace(3)* %57 to float*
  %59 = load float, float* %58, align 4, !tbaa !6
  %60 = fadd contract float %59, %52
  store float %60, float* %12, align 4, !tbaa !6
  br label %61

61:                                               ; preds = %54, %51
  %62 = phi float [ %60, %54 ], [ %52, %51 ]
  tail call void @llvm.nvvm.barrier0()
  %63 = icmp ult i32 %3, 4
  br i1 %63, label %64, label %71

64:                                               ; preds = %61
  %65 = add nuw nsw i32 %3, 4
  %66 = zext i32 %65 to i64
  %67 = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @_ZZ9block_sumE4tile, i64 0, i64 %66
  %68 = addrspacecast float addrspace(3)* %67 to float*
  %69 = load float, float* %68, align 4, !tbaa !6
  %70 = fadd contract float %69, %62
  store float %70, float* %12, align 4, !tbaa !6
  br label %71

71:                                               ; preds = %64, %61
  %72 = phi float [ %70, %64 ], [ %62, %61 ]
  tail call void @llvm.nvvm.barrier0()
  %73 = icmp ult i32 %3, 2
  br i1 %73, label %74, label %81

74:                                               ; preds = %71
  %75 = add nuw nsw i32 %3, 2
  %76 = zext i32 %75 to i64
  %77 = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @_ZZ9block_sumE4tile, i64 0, i64 %76
  %78 = addrspacecast float addrspace(3)* %77 to float*
  %79 = load float, float* %78, align 4, !tbaa !6
  %80 = fadd contract float %79, %72
  store float %80, float* %12, align 4, !tbaa !6
  br label %81

81:                                               ; preds = %74, %71
  %82 = phi float [ %80, %74 ], [ %72, %71 ]
  tail call void @llvm.nvvm.barrier0()
  %83 = icmp eq i32 %3, 0
  br i1 %83, label %84, label %91

84:                                               ; preds = %81
  %85 = add nuw nsw i32 %3, 1
  %86 = zext i32 %85 to i64
  %87 = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @_ZZ9block_sumE4tile, i64 0, i64 %86
  %88 = addrspacecast float addrspace(3)* %87 to float*
  %89 = load float, float* %88, align 4, !tbaa !6
  %90 = fadd contract float %89, %82
  store float %90, float* %12, align 4, !tbaa !6
  br label %91

91:                                               ; preds = %84, %81
  tail call void @llvm.nvvm.barrier0()
  %92 = icmp eq i32 %3, 0
  br i1 %92, label %93, label %97

93:                                               ; preds = %91
  %94 = zext i32 %4 to i64
  %95 = getelementptr inbounds float, float* %1, i64 %94
  %96 = load float, float* getelementptr inbounds ([256 x float], [256 x float]* addrspacecast ([256 x float] addrspace(3)* @_ZZ9block_sumE4tile to [256 x float]*), i64 0, i64 0), align 4, !tbaa !6
  store float %96, float* %95, align 4, !tbaa !6
  br label %97

97:                                               ; preds = %93, %91
  ret void
}

; Function Attrs: convergent nounwind
declare void @llvm.nvvm.barrier0() #3

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_70" "target-features"="+ptx32,+sm_70" }
attributes #1 = { nofree nosync nounwind readnone speculatable }
attributes #2 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_70" "target-features"="+ptx32,+sm_70" }
attributes #3 = { convergent nounwind }

!nvvm.annotations = !{!0, !1}
!llvm.module.flags = !{!2, !3, !4}
!llvm.ident = !{!5}

!0 = !{void (float, float*, float*, i32)* @saxpy, !"kernel", i32 1}
!1 = !{void (float*, float*)* @block_sum, !"kernel", i32 1}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 14.0.6"}
!6 = !{!7, !7, i64 0}
!7 = !{!"float", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C++ TBAA"}
