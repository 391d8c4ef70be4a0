; ModuleID = "stencil_2d$8"
target triple = "nvptx64-nvidia-cuda"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"

@"_ZN08NumbaEnv8__main__10stencil_2dB2v8B92cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3CwAkMXLaJtQYkOIgxJU0gCqOkEJoHkbttqdVhoqlspQGNFHSgJ5BnXagIAE5ArrayIfLi2E1C7mutable7alignedE5ArrayIfLi2E1C7mutable7alignedE" = common global i8* null
define void @"_ZN8__main__10stencil_2dB2v8B92cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3CwAkMXLaJtQYkOIgxJU0gCqOkEJoHkbttqdVhoqlspQGNFHSgJ5BnXagIAE5ArrayIfLi2E1C7mutable7alignedE5ArrayIfLi2E1C7mutable7alignedE"(i8* %"out.0", i8* %"out.1", i64 %"out.2", i64 %"out.3", float* %"out.4", i64 %"out.5.0", i64 %"out.5.1", i64 %"out.6.0", i64 %"out.6.1", i8* %"a.0", i8* %"a.1", i64 %"a.2", i64 %"a.3", float* %"a.4", i64 %"a.5.0", i64 %"a.5.1", i64 %"a.6.0", i64 %"a.6.1")
{
entry:
  %"inserted.meminfo" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} undef, i8* %"out.0", 0
  %"inserted.parent" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.meminfo", i8* %"out.1", 1
  %"inserted.nitems" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.parent", i64 %"out.2", 2
  %"inserted.itemsize" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.nitems", i64 %"out.3", 3
  %"inserted.data" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.itemsize", float* %"out.4", 4
  %".21" = insertvalue [2 x i64] undef, i64 %"out.5.0", 0
  %".22" = insertvalue [2 x i64] %".21", i64 %"out.5.1", 1
  %"inserted.shape" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.data", [2 x i64] %".22", 5
  %".23" = insertvalue [2 x i64] undef, i64 %"out.6.0", 0
  %".24" = insertvalue [2 x i64] %".23", i64 %"out.6.1", 1
  %"inserted.strides" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.shape", [2 x i64] %".24", 6
  %"inserted.meminfo.1" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} undef, i8* %"a.0", 0
  %"inserted.parent.1" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.meminfo.1", i8* %"a.1", 1
  %"inserted.nitems.1" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.parent.1", i64 %"a.2", 2
  %"inserted.itemsize.1" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.nitems.1", i64 %"a.3", 3
  %"inserted.data.1" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.itemsize.1", float* %"a.4", 4
  %".25" = insertvalue [2 x i64] undef, i64 %"a.5.0", 0
  %".26" = insertvalue [2 x i64] %".25", i64 %"a.5.1", 1
  %"inserted.shape.1" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.data.1", [2 x i64] %".26", 5
  %".27" = insertvalue [2 x i64] undef, i64 %"a.6.0", 0
  %".28" = insertvalue [2 x i64] %".27", i64 %"a.6.1", 1
  %"inserted.strides.1" = insertvalue {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.shape.1", [2 x i64] %".28", 6
  %"out" = alloca {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"out"
  %"a" = alloca {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  %"i" = alloca i64
  store i64 0, i64* %"i"
  %"j" = alloca i64
  store i64 0, i64* %"j"
  %"$64pred" = alloca i1
  store i1 0, i1* %"$64pred"
  %"$phi66.0" = alloca i64
  store i64 0, i64* %"$phi66.0"
  %".74" = alloca {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".74"
  %"$102pred" = alloca i1
  store i1 0, i1* %"$102pred"
  %"$126pred" = alloca i1
  store i1 0, i1* %"$126pred"
  %"$phi128.0" = alloca i64
  store i64 0, i64* %"$phi128.0"
  %".127" = alloca {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".127"
  %"$164pred" = alloca i1
  store i1 0, i1* %"$164pred"
  %".172" = alloca {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".172"
  %".225" = alloca {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".225"
  %".279" = alloca {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".279"
  %".333" = alloca {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".333"
  %".388" = alloca {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".388"
  %".450" = alloca {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".450"
  br label %"B0"
B0:
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.strides", {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"out"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %"inserted.strides.1", {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  %".33" = trunc i64 2 to i32
  %".34" = call i32 @"llvm.nvvm.read.ptx.sreg.tid.x"()
  %".35" = sext i32 %".34" to i64
  %".36" = call i32 @"llvm.nvvm.read.ptx.sreg.ntid.x"()
  %".37" = sext i32 %".36" to i64
  %".38" = call i32 @"llvm.nvvm.read.ptx.sreg.ctaid.x"()
  %".39" = sext i32 %".38" to i64
  %".40" = mul i64 %".37", %".39"
  %".41" = add i64 %".40", %".35"
  %".42" = call i32 @"llvm.nvvm.read.ptx.sreg.tid.y"()
  %".43" = sext i32 %".42" to i64
  %".44" = call i32 @"llvm.nvvm.read.ptx.sreg.ntid.y"()
  %".45" = sext i32 %".44" to i64
  %".46" = call i32 @"llvm.nvvm.read.ptx.sreg.ctaid.y"()
  %".47" = sext i32 %".46" to i64
  %".48" = mul i64 %".45", %".47"
  %".49" = add i64 %".48", %".43"
  %".50" = insertvalue [2 x i64] undef, i64 %".41", 0
  %".51" = insertvalue [2 x i64] %".50", i64 %".49", 1
  %".52" = extractvalue [2 x i64] %".51", 0
  %".53" = extractvalue [2 x i64] %".51", 1
  %".55" = load i64, i64* %"i"
  store i64 %".52", i64* %"i"
  %".58" = load i64, i64* %"j"
  store i64 %".53", i64* %"j"
  %".60" = load i64, i64* %"i"
  %".61" = icmp slt i64 0, %".60"
  %".63" = load i1, i1* %"$64pred"
  store i1 %".61", i1* %"$64pred"
  %".65" = load i64, i64* %"i"
  %".67" = load i64, i64* %"$phi66.0"
  store i64 %".65", i64* %"$phi66.0"
  %".69" = load i1, i1* %"$64pred"
  br i1 %".69", label %"B66", label %"B106"
B66:
  %".71" = load i1, i1* %"$64pred"
  store i1 0, i1* %"$64pred"
  %".73" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".74"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %".73", {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".74"
  %".78" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".74", i32 0, i32 5
  %".79" = getelementptr inbounds [2 x i64], [2 x i64]* %".78", i32 0, i32 0
  %".80" = load i64, i64* %".79", !range !1
  %".81" = getelementptr inbounds [2 x i64], [2 x i64]* %".78", i32 0, i32 1
  %".82" = load i64, i64* %".81", !range !1
  %".83" = insertvalue [2 x i64] undef, i64 %".80", 0
  %".84" = insertvalue [2 x i64] %".83", i64 %".82", 1
  %".85" = extractvalue [2 x i64] %".84", 0
  %".86" = sub nsw i64 %".85", 1
  %".87" = load i64, i64* %"$phi66.0"
  %".88" = icmp slt i64 %".87", %".86"
  %".89" = load i64, i64* %"$phi66.0"
  store i64 0, i64* %"$phi66.0"
  %".92" = load i1, i1* %"$102pred"
  store i1 %".88", i1* %"$102pred"
  %".94" = load i1, i1* %"$102pred"
  br i1 %".94", label %"B104", label %"B326"
B104:
  %".96" = load i1, i1* %"$102pred"
  store i1 0, i1* %"$102pred"
  br label %"B112"
B106:
  %".99" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"out"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"out"
  %".101" = load i64, i64* %"j"
  store i64 0, i64* %"j"
  %".103" = load i64, i64* %"i"
  store i64 0, i64* %"i"
  %".105" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  %".107" = load i64, i64* %"$phi66.0"
  store i64 0, i64* %"$phi66.0"
  %".109" = load i1, i1* %"$64pred"
  store i1 0, i1* %"$64pred"
  ret void
B112:
  %".113" = load i64, i64* %"j"
  %".114" = icmp slt i64 0, %".113"
  %".116" = load i1, i1* %"$126pred"
  store i1 %".114", i1* %"$126pred"
  %".118" = load i64, i64* %"j"
  %".120" = load i64, i64* %"$phi128.0"
  store i64 %".118", i64* %"$phi128.0"
  %".122" = load i1, i1* %"$126pred"
  br i1 %".122", label %"B128", label %"B168"
B128:
  %".124" = load i1, i1* %"$126pred"
  store i1 0, i1* %"$126pred"
  %".126" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".127"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %".126", {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".127"
  %".131" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".127", i32 0, i32 5
  %".132" = getelementptr inbounds [2 x i64], [2 x i64]* %".131", i32 0, i32 0
  %".133" = load i64, i64* %".132", !range !1
  %".134" = getelementptr inbounds [2 x i64], [2 x i64]* %".131", i32 0, i32 1
  %".135" = load i64, i64* %".134", !range !1
  %".136" = insertvalue [2 x i64] undef, i64 %".133", 0
  %".137" = insertvalue [2 x i64] %".136", i64 %".135", 1
  %".138" = extractvalue [2 x i64] %".137", 1
  %".139" = sub nsw i64 %".138", 1
  %".140" = load i64, i64* %"$phi128.0"
  %".141" = icmp slt i64 %".140", %".139"
  %".142" = load i64, i64* %"$phi128.0"
  store i64 0, i64* %"$phi128.0"
  %".145" = load i1, i1* %"$164pred"
  store i1 %".141", i1* %"$164pred"
  %".147" = load i1, i1* %"$164pred"
  br i1 %".147", label %"B166", label %"B330"
B166:
  %".149" = load i1, i1* %"$164pred"
  store i1 0, i1* %"$164pred"
  br label %"B174"
B168:
  %".152" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"out"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"out"
  %".154" = load i64, i64* %"j"
  store i64 0, i64* %"j"
  %".156" = load i64, i64* %"i"
  store i64 0, i64* %"i"
  %".158" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  %".160" = load i64, i64* %"$phi128.0"
  store i64 0, i64* %"$phi128.0"
  %".162" = load i1, i1* %"$126pred"
  store i1 0, i1* %"$126pred"
  ret void
B174:
  %".166" = load i64, i64* %"i"
  %".167" = sub nsw i64 %".166", 1
  %".168" = load i64, i64* %"j"
  %".169" = insertvalue [2 x i64] undef, i64 %".167", 0
  %".170" = insertvalue [2 x i64] %".169", i64 %".168", 1
  %".171" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".172"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %".171", {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".172"
  %".176" = extractvalue [2 x i64] %".170", 0
  %".177" = extractvalue [2 x i64] %".170", 1
  %".178" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".172", i32 0, i32 5
  %".179" = getelementptr inbounds [2 x i64], [2 x i64]* %".178", i32 0, i32 0
  %".180" = load i64, i64* %".179", !range !1
  %".181" = getelementptr inbounds [2 x i64], [2 x i64]* %".178", i32 0, i32 1
  %".182" = load i64, i64* %".181", !range !1
  %".183" = insertvalue [2 x i64] undef, i64 %".180", 0
  %".184" = insertvalue [2 x i64] %".183", i64 %".182", 1
  %".185" = extractvalue [2 x i64] %".184", 0
  %".186" = extractvalue [2 x i64] %".184", 1
  %".187" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".172", i32 0, i32 6
  %".188" = load [2 x i64], [2 x i64]* %".187"
  %".189" = extractvalue [2 x i64] %".188", 0
  %".190" = extractvalue [2 x i64] %".188", 1
  %".191" = icmp slt i64 %".176", 0
  %".192" = add i64 %".176", %".185"
  %".193" = select  i1 %".191", i64 %".192", i64 %".176"
  %".194" = icmp slt i64 %".177", 0
  %".195" = add i64 %".177", %".186"
  %".196" = select  i1 %".194", i64 %".195", i64 %".177"
  %".197" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".172", i32 0, i32 5
  %".198" = getelementptr inbounds [2 x i64], [2 x i64]* %".197", i32 0, i32 0
  %".199" = load i64, i64* %".198", !range !1
  %".200" = getelementptr inbounds [2 x i64], [2 x i64]* %".197", i32 0, i32 1
  %".201" = load i64, i64* %".200", !range !1
  %".202" = insertvalue [2 x i64] undef, i64 %".199", 0
  %".203" = insertvalue [2 x i64] %".202", i64 %".201", 1
  %".204" = extractvalue [2 x i64] %".203", 0
  %".205" = extractvalue [2 x i64] %".203", 1
  %".206" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".172", i32 0, i32 6
  %".207" = load [2 x i64], [2 x i64]* %".206"
  %".208" = extractvalue [2 x i64] %".207", 0
  %".209" = extractvalue [2 x i64] %".207", 1
  %".210" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".172", i32 0, i32 4
  %".211" = load float*, float** %".210"
  %".212" = mul i64 1, %".205"
  %".213" = mul i64 %".193", %".212"
  %".214" = add i64 0, %".213"
  %".215" = mul i64 %".196", 1
  %".216" = add i64 %".214", %".215"
  %".217" = getelementptr float, float* %".211", i64 %".216"
  %".218" = load float, float* %".217"
  %".219" = load i64, i64* %"i"
  %".220" = add nsw i64 %".219", 1
  %".221" = load i64, i64* %"j"
  %".222" = insertvalue [2 x i64] undef, i64 %".220", 0
  %".223" = insertvalue [2 x i64] %".222", i64 %".221", 1
  %".224" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".225"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %".224", {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".225"
  %".229" = extractvalue [2 x i64] %".223", 0
  %".230" = extractvalue [2 x i64] %".223", 1
  %".231" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".225", i32 0, i32 5
  %".232" = getelementptr inbounds [2 x i64], [2 x i64]* %".231", i32 0, i32 0
  %".233" = load i64, i64* %".232", !range !1
  %".234" = getelementptr inbounds [2 x i64], [2 x i64]* %".231", i32 0, i32 1
  %".235" = load i64, i64* %".234", !range !1
  %".236" = insertvalue [2 x i64] undef, i64 %".233", 0
  %".237" = insertvalue [2 x i64] %".236", i64 %".235", 1
  %".238" = extractvalue [2 x i64] %".237", 0
  %".239" = extractvalue [2 x i64] %".237", 1
  %".240" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".225", i32 0, i32 6
  %".241" = load [2 x i64], [2 x i64]* %".240"
  %".242" = extractvalue [2 x i64] %".241", 0
  %".243" = extractvalue [2 x i64] %".241", 1
  %".244" = icmp slt i64 %".229", 0
  %".245" = add i64 %".229", %".238"
  %".246" = select  i1 %".244", i64 %".245", i64 %".229"
  %".247" = icmp slt i64 %".230", 0
  %".248" = add i64 %".230", %".239"
  %".249" = select  i1 %".247", i64 %".248", i64 %".230"
  %".250" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".225", i32 0, i32 5
  %".251" = getelementptr inbounds [2 x i64], [2 x i64]* %".250", i32 0, i32 0
  %".252" = load i64, i64* %".251", !range !1
  %".253" = getelementptr inbounds [2 x i64], [2 x i64]* %".250", i32 0, i32 1
  %".254" = load i64, i64* %".253", !range !1
  %".255" = insertvalue [2 x i64] undef, i64 %".252", 0
  %".256" = insertvalue [2 x i64] %".255", i64 %".254", 1
  %".257" = extractvalue [2 x i64] %".256", 0
  %".258" = extractvalue [2 x i64] %".256", 1
  %".259" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".225", i32 0, i32 6
  %".260" = load [2 x i64], [2 x i64]* %".259"
  %".261" = extractvalue [2 x i64] %".260", 0
  %".262" = extractvalue [2 x i64] %".260", 1
  %".263" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".225", i32 0, i32 4
  %".264" = load float*, float** %".263"
  %".265" = mul i64 1, %".258"
  %".266" = mul i64 %".246", %".265"
  %".267" = add i64 0, %".266"
  %".268" = mul i64 %".249", 1
  %".269" = add i64 %".267", %".268"
  %".270" = getelementptr float, float* %".264", i64 %".269"
  %".271" = load float, float* %".270"
  %".272" = fadd float %".218", %".271"
  %".273" = load i64, i64* %"j"
  %".274" = sub nsw i64 %".273", 1
  %".275" = load i64, i64* %"i"
  %".276" = insertvalue [2 x i64] undef, i64 %".275", 0
  %".277" = insertvalue [2 x i64] %".276", i64 %".274", 1
  %".278" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".279"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %".278", {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".279"
  %".283" = extractvalue [2 x i64] %".277", 0
  %".284" = extractvalue [2 x i64] %".277", 1
  %".285" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".279", i32 0, i32 5
  %".286" = getelementptr inbounds [2 x i64], [2 x i64]* %".285", i32 0, i32 0
  %".287" = load i64, i64* %".286", !range !1
  %".288" = getelementptr inbounds [2 x i64], [2 x i64]* %".285", i32 0, i32 1
  %".289" = load i64, i64* %".288", !range !1
  %".290" = insertvalue [2 x i64] undef, i64 %".287", 0
  %".291" = insertvalue [2 x i64] %".290", i64 %".289", 1
  %".292" = extractvalue [2 x i64] %".291", 0
  %".293" = extractvalue [2 x i64] %".291", 1
  %".294" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".279", i32 0, i32 6
  %".295" = load [2 x i64], [2 x i64]* %".294"
  %".296" = extractvalue [2 x i64] %".295", 0
  %".297" = extractvalue [2 x i64] %".295", 1
  %".298" = icmp slt i64 %".283", 0
  %".299" = add i64 %".283", %".292"
  %".300" = select  i1 %".298", i64 %".299", i64 %".283"
  %".301" = icmp slt i64 %".284", 0
  %".302" = add i64 %".284", %".293"
  %".303" = select  i1 %".301", i64 %".302", i64 %".284"
  %".304" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".279", i32 0, i32 5
  %".305" = getelementptr inbounds [2 x i64], [2 x i64]* %".304", i32 0, i32 0
  %".306" = load i64, i64* %".305", !range !1
  %".307" = getelementptr inbounds [2 x i64], [2 x i64]* %".304", i32 0, i32 1
  %".308" = load i64, i64* %".307", !range !1
  %".309" = insertvalue [2 x i64] undef, i64 %".306", 0
  %".310" = insertvalue [2 x i64] %".309", i64 %".308", 1
  %".311" = extractvalue [2 x i64] %".310", 0
  %".312" = extractvalue [2 x i64] %".310", 1
  %".313" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".279", i32 0, i32 6
  %".314" = load [2 x i64], [2 x i64]* %".313"
  %".315" = extractvalue [2 x i64] %".314", 0
  %".316" = extractvalue [2 x i64] %".314", 1
  %".317" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".279", i32 0, i32 4
  %".318" = load float*, float** %".317"
  %".319" = mul i64 1, %".312"
  %".320" = mul i64 %".300", %".319"
  %".321" = add i64 0, %".320"
  %".322" = mul i64 %".303", 1
  %".323" = add i64 %".321", %".322"
  %".324" = getelementptr float, float* %".318", i64 %".323"
  %".325" = load float, float* %".324"
  %".326" = fadd float %".272", %".325"
  %".327" = load i64, i64* %"j"
  %".328" = add nsw i64 %".327", 1
  %".329" = load i64, i64* %"i"
  %".330" = insertvalue [2 x i64] undef, i64 %".329", 0
  %".331" = insertvalue [2 x i64] %".330", i64 %".328", 1
  %".332" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".333"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %".332", {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".333"
  %".337" = extractvalue [2 x i64] %".331", 0
  %".338" = extractvalue [2 x i64] %".331", 1
  %".339" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".333", i32 0, i32 5
  %".340" = getelementptr inbounds [2 x i64], [2 x i64]* %".339", i32 0, i32 0
  %".341" = load i64, i64* %".340", !range !1
  %".342" = getelementptr inbounds [2 x i64], [2 x i64]* %".339", i32 0, i32 1
  %".343" = load i64, i64* %".342", !range !1
  %".344" = insertvalue [2 x i64] undef, i64 %".341", 0
  %".345" = insertvalue [2 x i64] %".344", i64 %".343", 1
  %".346" = extractvalue [2 x i64] %".345", 0
  %".347" = extractvalue [2 x i64] %".345", 1
  %".348" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".333", i32 0, i32 6
  %".349" = load [2 x i64], [2 x i64]* %".348"
  %".350" = extractvalue [2 x i64] %".349", 0
  %".351" = extractvalue [2 x i64] %".349", 1
  %".352" = icmp slt i64 %".337", 0
  %".353" = add i64 %".337", %".346"
  %".354" = select  i1 %".352", i64 %".353", i64 %".337"
  %".355" = icmp slt i64 %".338", 0
  %".356" = add i64 %".338", %".347"
  %".357" = select  i1 %".355", i64 %".356", i64 %".338"
  %".358" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".333", i32 0, i32 5
  %".359" = getelementptr inbounds [2 x i64], [2 x i64]* %".358", i32 0, i32 0
  %".360" = load i64, i64* %".359", !range !1
  %".361" = getelementptr inbounds [2 x i64], [2 x i64]* %".358", i32 0, i32 1
  %".362" = load i64, i64* %".361", !range !1
  %".363" = insertvalue [2 x i64] undef, i64 %".360", 0
  %".364" = insertvalue [2 x i64] %".363", i64 %".362", 1
  %".365" = extractvalue [2 x i64] %".364", 0
  %".366" = extractvalue [2 x i64] %".364", 1
  %".367" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".333", i32 0, i32 6
  %".368" = load [2 x i64], [2 x i64]* %".367"
  %".369" = extractvalue [2 x i64] %".368", 0
  %".370" = extractvalue [2 x i64] %".368", 1
  %".371" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".333", i32 0, i32 4
  %".372" = load float*, float** %".371"
  %".373" = mul i64 1, %".366"
  %".374" = mul i64 %".354", %".373"
  %".375" = add i64 0, %".374"
  %".376" = mul i64 %".357", 1
  %".377" = add i64 %".375", %".376"
  %".378" = getelementptr float, float* %".372", i64 %".377"
  %".379" = load float, float* %".378"
  %".380" = fadd float %".326", %".379"
  %".381" = fpext float %".380" to double
  %".382" = fmul double 0x3fd0000000000000, %".381"
  %".383" = load i64, i64* %"i"
  %".384" = load i64, i64* %"j"
  %".385" = insertvalue [2 x i64] undef, i64 %".383", 0
  %".386" = insertvalue [2 x i64] %".385", i64 %".384", 1
  %".387" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".388"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %".387", {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".388"
  %".392" = extractvalue [2 x i64] %".386", 0
  %".393" = extractvalue [2 x i64] %".386", 1
  %".394" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".388", i32 0, i32 5
  %".395" = getelementptr inbounds [2 x i64], [2 x i64]* %".394", i32 0, i32 0
  %".396" = load i64, i64* %".395", !range !1
  %".397" = getelementptr inbounds [2 x i64], [2 x i64]* %".394", i32 0, i32 1
  %".398" = load i64, i64* %".397", !range !1
  %".399" = insertvalue [2 x i64] undef, i64 %".396", 0
  %".400" = insertvalue [2 x i64] %".399", i64 %".398", 1
  %".401" = extractvalue [2 x i64] %".400", 0
  %".402" = extractvalue [2 x i64] %".400", 1
  %".403" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".388", i32 0, i32 6
  %".404" = load [2 x i64], [2 x i64]* %".403"
  %".405" = extractvalue [2 x i64] %".404", 0
  %".406" = extractvalue [2 x i64] %".404", 1
  %".407" = icmp slt i64 %".392", 0
  %".408" = add i64 %".392", %".401"
  %".409" = select  i1 %".407", i64 %".408", i64 %".392"
  %".410" = icmp slt i64 %".393", 0
  %".411" = add i64 %".393", %".402"
  %".412" = select  i1 %".410", i64 %".411", i64 %".393"
  %".413" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".388", i32 0, i32 5
  %".414" = getelementptr inbounds [2 x i64], [2 x i64]* %".413", i32 0, i32 0
  %".415" = load i64, i64* %".414", !range !1
  %".416" = getelementptr inbounds [2 x i64], [2 x i64]* %".413", i32 0, i32 1
  %".417" = load i64, i64* %".416", !range !1
  %".418" = insertvalue [2 x i64] undef, i64 %".415", 0
  %".419" = insertvalue [2 x i64] %".418", i64 %".417", 1
  %".420" = extractvalue [2 x i64] %".419", 0
  %".421" = extractvalue [2 x i64] %".419", 1
  %".422" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".388", i32 0, i32 6
  %".423" = load [2 x i64], [2 x i64]* %".422"
  %".424" = extractvalue [2 x i64] %".423", 0
  %".425" = extractvalue [2 x i64] %".423", 1
  %".426" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".388", i32 0, i32 4
  %".427" = load float*, float** %".426"
  %".428" = mul i64 1, %".421"
  %".429" = mul i64 %".409", %".428"
  %".430" = add i64 0, %".429"
  %".431" = mul i64 %".412", 1
  %".432" = add i64 %".430", %".431"
  %".433" = getelementptr float, float* %".427", i64 %".432"
  %".434" = load float, float* %".433"
  %".435" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  %".437" = fpext float %".434" to double
  %".438" = fsub double %".382", %".437"
  %".439" = load i64, i64* %"i"
  %".440" = load i64, i64* %"j"
  %".441" = insertvalue [2 x i64] undef, i64 %".439", 0
  %".442" = insertvalue [2 x i64] %".441", i64 %".440", 1
  %".443" = load i64, i64* %"j"
  store i64 0, i64* %"j"
  %".445" = load i64, i64* %"i"
  store i64 0, i64* %"i"
  %".447" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"out"
  %".448" = extractvalue [2 x i64] %".442", 0
  %".449" = extractvalue [2 x i64] %".442", 1
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".450"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} %".447", {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".450"
  %".454" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".450", i32 0, i32 5
  %".455" = getelementptr inbounds [2 x i64], [2 x i64]* %".454", i32 0, i32 0
  %".456" = load i64, i64* %".455", !range !1
  %".457" = getelementptr inbounds [2 x i64], [2 x i64]* %".454", i32 0, i32 1
  %".458" = load i64, i64* %".457", !range !1
  %".459" = insertvalue [2 x i64] undef, i64 %".456", 0
  %".460" = insertvalue [2 x i64] %".459", i64 %".458", 1
  %".461" = extractvalue [2 x i64] %".460", 0
  %".462" = extractvalue [2 x i64] %".460", 1
  %".463" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".450", i32 0, i32 6
  %".464" = load [2 x i64], [2 x i64]* %".463"
  %".465" = extractvalue [2 x i64] %".464", 0
  %".466" = extractvalue [2 x i64] %".464", 1
  %".467" = icmp slt i64 %".448", 0
  %".468" = add i64 %".448", %".461"
  %".469" = select  i1 %".467", i64 %".468", i64 %".448"
  %".470" = icmp slt i64 %".449", 0
  %".471" = add i64 %".449", %".462"
  %".472" = select  i1 %".470", i64 %".471", i64 %".449"
  %".473" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".450", i32 0, i32 5
  %".474" = getelementptr inbounds [2 x i64], [2 x i64]* %".473", i32 0, i32 0
  %".475" = load i64, i64* %".474", !range !1
  %".476" = getelementptr inbounds [2 x i64], [2 x i64]* %".473", i32 0, i32 1
  %".477" = load i64, i64* %".476", !range !1
  %".478" = insertvalue [2 x i64] undef, i64 %".475", 0
  %".479" = insertvalue [2 x i64] %".478", i64 %".477", 1
  %".480" = extractvalue [2 x i64] %".479", 0
  %".481" = extractvalue [2 x i64] %".479", 1
  %".482" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".450", i32 0, i32 6
  %".483" = load [2 x i64], [2 x i64]* %".482"
  %".484" = extractvalue [2 x i64] %".483", 0
  %".485" = extractvalue [2 x i64] %".483", 1
  %".486" = getelementptr inbounds {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %".450", i32 0, i32 4
  %".487" = load float*, float** %".486"
  %".488" = mul i64 1, %".481"
  %".489" = mul i64 %".469", %".488"
  %".490" = add i64 0, %".489"
  %".491" = mul i64 %".472", 1
  %".492" = add i64 %".490", %".491"
  %".493" = getelementptr float, float* %".487", i64 %".492"
  %".494" = fptrunc double %".438" to float
  store float %".494", float* %".493"
  %".496" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"out"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"out"
  ret void
B326:
  %".500" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"out"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"out"
  %".502" = load i64, i64* %"j"
  store i64 0, i64* %"j"
  %".504" = load i64, i64* %"i"
  store i64 0, i64* %"i"
  %".506" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  %".508" = load i1, i1* %"$102pred"
  store i1 0, i1* %"$102pred"
  ret void
B330:
  %".512" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"out"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"out"
  %".514" = load i64, i64* %"j"
  store i64 0, i64* %"j"
  %".516" = load i64, i64* %"i"
  store i64 0, i64* %"i"
  %".518" = load {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  store {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]} zeroinitializer, {i8*, i8*, i64, i64, float*, [2 x i64], [2 x i64]}* %"a"
  %".520" = load i1, i1* %"$164pred"
  store i1 0, i1* %"$164pred"
  ret void
}

declare i32 @"llvm.nvvm.read.ptx.sreg.tid.x"()

declare i32 @"llvm.nvvm.read.ptx.sreg.ntid.x"()

declare i32 @"llvm.nvvm.read.ptx.sreg.ctaid.x"()

declare i32 @"llvm.nvvm.read.ptx.sreg.tid.y"()

declare i32 @"llvm.nvvm.read.ptx.sreg.ntid.y"()

declare i32 @"llvm.nvvm.read.ptx.sreg.ctaid.y"()

@"llvm.used" = appending global [1 x i8*] [i8* bitcast (void (i8*, i8*, i64, i64, float*, i64, i64, i64, i64, i8*, i8*, i64, i64, float*, i64, i64, i64, i64)* @"_ZN8__main__10stencil_2dB2v8B92cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3CwAkMXLaJtQYkOIgxJU0gCqOkEJoHkbttqdVhoqlspQGNFHSgJ5BnXagIAE5ArrayIfLi2E1C7mutable7alignedE5ArrayIfLi2E1C7mutable7alignedE" to i8*)], section "llvm.metadata"
!nvvmir.version = !{ !0 }
!nvvm.annotations = !{ !2 }
!0 = !{ i32 2, i32 0, i32 3, i32 2 }
!1 = !{ i64 0, i64 9223372036854775807 }
!2 = !{ void (i8*, i8*, i64, i64, float*, i64, i64, i64, i64, i8*, i8*, i64, i64, float*, i64, i64, i64, i64)* @"_ZN8__main__10stencil_2dB2v8B92cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3CwAkMXLaJtQYkOIgxJU0gCqOkEJoHkbttqdVhoqlspQGNFHSgJ5BnXagIAE5ArrayIfLi2E1C7mutable7alignedE5ArrayIfLi2E1C7mutable7alignedE", !"kernel", i32 1 }