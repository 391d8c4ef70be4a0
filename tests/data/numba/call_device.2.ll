; ModuleID = "saxpy_dev$5"
target triple = "nvptx64-nvidia-cuda"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"

@"_ZN08NumbaEnv8__main__9saxpy_devB2v5B100cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3CwAkMXLaJtQYkOIgxJU0gCqOkEJoHkbttqdSBL3UrBWEdBHRauQC7YhbWaAA_3d_3dEfff" = common global i8* null
define linkonce_odr i32 @"_ZN8__main__9saxpy_devB2v5B100cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3CwAkMXLaJtQYkOIgxJU0gCqOkEJoHkbttqdSBL3UrBWEdBHRauQC7YhbWaAA_3d_3dEfff"(float* %".ret", float %"a", float %"x", float %"y")
{
entry:
  br label %"B0"
B0:
  %".6" = fmul float %"a", %"x"
  %".7" = fadd float %".6", %"y"
  store float %".7", float* %".ret"
  ret i32 0
}

!nvvmir.version = !{ !0 }
!0 = !{ i32 2, i32 0, i32 3, i32 2 }