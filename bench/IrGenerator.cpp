#include "IrGenerator.h"

#include <algorithm>

#include <fmt/format.h>

namespace nvpg::bench {

namespace {

// Float constants written so that LLVM 7's parser takes them: values exactly representable in
// single precision (multiples of 1/8 here), printed in the %e form.
std::string fconst(int k) {
    return fmt::format("{:e}", 0.125 * (k % 23 + 1));
}

struct LibdeviceCall {
    const char* name;
    int args;  // 1 or 2 float arguments
};
constexpr LibdeviceCall kCalls[] = {
    {"__nv_expf", 1},  {"__nv_sinf", 1}, {"__nv_logf", 1}, {"__nv_sqrtf", 1},
    {"__nv_tanhf", 1}, {"__nv_powf", 2}, {"__nv_cosf", 1}, {"__nv_fmaxf", 2},
};

// The entry block every kernel shares: idx = ctaid.x * ntid.x + tid.x; if (idx < n) ...
std::string prologue() {
    return "entry:\n"
           "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
           "  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
           "  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
           "  %base = mul i32 %ctaid, %ntid\n"
           "  %idx = add i32 %base, %tid\n"
           "  %inb = icmp slt i32 %idx, %n\n"
           "  br i1 %inb, label %body, label %exit\n"
           "body:\n"
           "  %idx64 = sext i32 %idx to i64\n";
}

// `%v` (float) becomes `%r`, through a libdevice call when asked.
std::string finish(int k, bool libdevice) {
    if (!libdevice) return "  %r = fadd float %v, " + fconst(k + 5) + "\n";
    const auto& c = kCalls[k % std::size(kCalls)];
    if (c.args == 1) return fmt::format("  %r = call float @{}(float %v)\n", c.name);
    return fmt::format("  %r = call float @{}(float %v, float {})\n", c.name, fconst(k + 3));
}

std::string kernel(int k, bool libdevice) {
    std::string s;
    const int trip = 4 + k % 13;
    switch (k % 4) {
        case 0:  // out[i] = polynomial of in[i], iterated `trip` times
            s += fmt::format("define void @k{}(float* %out, float* %in, i32 %n) {{\n", k);
            s += prologue();
            s += "  %pin = getelementptr inbounds float, float* %in, i64 %idx64\n"
                 "  %x = load float, float* %pin, align 4\n"
                 "  br label %loop\n"
                 "loop:\n"
                 "  %i = phi i32 [ 0, %body ], [ %i.next, %loop ]\n"
                 "  %acc = phi float [ %x, %body ], [ %acc.next, %loop ]\n";
            s += fmt::format("  %t = fmul float %acc, {}\n", fconst(k));
            s += fmt::format("  %acc.next = fadd float %t, {}\n", fconst(k + 1));
            s += "  %i.next = add nuw nsw i32 %i, 1\n";
            s += fmt::format("  %done = icmp eq i32 %i.next, {}\n", trip);
            s += "  br i1 %done, label %store, label %loop\n"
                 "store:\n"
                 "  %v = fmul float %acc.next, %x\n";
            s += finish(k, libdevice);
            s += "  %pout = getelementptr inbounds float, float* %out, i64 %idx64\n"
                 "  store float %r, float* %pout, align 4\n"
                 "  br label %exit\n";
            break;
        case 1:  // out[i] = sum over j < m of in[i * m + j] * w
            s += fmt::format("define void @k{}(float* %out, float* %in, i32 %n, i32 %m) {{\n", k);
            s += prologue();
            s += "  %row = mul i32 %idx, %m\n"
                 "  %any = icmp sgt i32 %m, 0\n"
                 "  br i1 %any, label %loop, label %store\n"
                 "loop:\n"
                 "  %j = phi i32 [ 0, %body ], [ %j.next, %loop ]\n"
                 "  %sum = phi float [ 0.000000e+00, %body ], [ %sum.next, %loop ]\n"
                 "  %at = add i32 %row, %j\n"
                 "  %at64 = sext i32 %at to i64\n"
                 "  %p = getelementptr inbounds float, float* %in, i64 %at64\n"
                 "  %e = load float, float* %p, align 4\n";
            s += fmt::format("  %w = fmul float %e, {}\n", fconst(k));
            s += "  %sum.next = fadd float %sum, %w\n"
                 "  %j.next = add nsw i32 %j, 1\n"
                 "  %more = icmp slt i32 %j.next, %m\n"
                 "  br i1 %more, label %loop, label %store\n"
                 "store:\n"
                 "  %v = phi float [ 0.000000e+00, %body ], [ %sum.next, %loop ]\n";
            s += finish(k, libdevice);
            s += "  %pout = getelementptr inbounds float, float* %out, i64 %idx64\n"
                 "  store float %r, float* %pout, align 4\n"
                 "  br label %exit\n";
            break;
        case 2:  // saxpy with a clamp, repeated `trip` times: y[i] = clamp(a * x[i] + y[i])
            s += fmt::format("define void @k{}(float* %y, float* %x, float %a, i32 %n) {{\n", k);
            s += prologue();
            s += "  %px = getelementptr inbounds float, float* %x, i64 %idx64\n"
                 "  %py = getelementptr inbounds float, float* %y, i64 %idx64\n"
                 "  %xv = load float, float* %px, align 4\n"
                 "  %y0 = load float, float* %py, align 4\n"
                 "  br label %loop\n"
                 "loop:\n"
                 "  %i = phi i32 [ 0, %body ], [ %i.next, %loop ]\n"
                 "  %yv = phi float [ %y0, %body ], [ %y.next, %loop ]\n"
                 "  %ax = fmul float %a, %xv\n"
                 "  %s = fadd float %ax, %yv\n";
            s += fmt::format("  %big = fcmp ogt float %s, {}\n", fconst(k + 20));
            s += fmt::format("  %y.next = select i1 %big, float {}, float %s\n", fconst(k + 20));
            s += "  %i.next = add nuw nsw i32 %i, 1\n";
            s += fmt::format("  %done = icmp eq i32 %i.next, {}\n", trip);
            s += "  br i1 %done, label %store, label %loop\n"
                 "store:\n"
                 "  %v = fadd float %y.next, 0.000000e+00\n";
            s += finish(k, libdevice);
            s += "  store float %r, float* %py, align 4\n"
                 "  br label %exit\n";
            break;
        default:  // integer work converted to float: out[i] = sum of (idx * j mod 7) / (j + 1)
            s += fmt::format("define void @k{}(float* %out, i32 %n) {{\n", k);
            s += prologue();
            s += "  br label %loop\n"
                 "loop:\n"
                 "  %j = phi i32 [ 0, %body ], [ %j.next, %loop ]\n"
                 "  %acc = phi float [ 0.000000e+00, %body ], [ %acc.next, %loop ]\n"
                 "  %prod = mul i32 %idx, %j\n"
                 "  %mod = urem i32 %prod, 7\n"
                 "  %num = uitofp i32 %mod to float\n"
                 "  %j1 = add i32 %j, 1\n"
                 "  %den = sitofp i32 %j1 to float\n"
                 "  %q = fdiv float %num, %den\n"
                 "  %acc.next = fadd float %acc, %q\n"
                 "  %j.next = add nuw nsw i32 %j, 1\n";
            s += fmt::format("  %done = icmp eq i32 %j.next, {}\n", trip);
            s += "  br i1 %done, label %store, label %loop\n"
                 "store:\n";
            s += fmt::format("  %v = fmul float %acc.next, {}\n", fconst(k));
            s += finish(k, libdevice);
            s += "  %pout = getelementptr inbounds float, float* %out, i64 %idx64\n"
                 "  store float %r, float* %pout, align 4\n"
                 "  br label %exit\n";
            break;
    }
    s += "exit:\n  ret void\n}\n\n";
    return s;
}

const char* signature(int k) {
    switch (k % 4) {
        case 0:
            return "void (float*, float*, i32)*";
        case 1:
            return "void (float*, float*, i32, i32)*";
        case 2:
            return "void (float*, float*, float, i32)*";
        default:
            return "void (float*, i32)*";
    }
}

}  // namespace

std::string generateModule(int kernels, bool libdevice) {
    std::string s;
    s.reserve(static_cast<size_t>(kernels) * 1600 + 4096);
    s += fmt::format("; {} kernels{}, written by nvpg's bench generator\n", kernels,
                     libdevice ? " calling libdevice" : "");
    s += "target datalayout = \"e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-"
         "i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64\"\n"
         "target triple = \"nvptx64-nvidia-cuda\"\n\n"
         "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() nounwind readnone\n"
         "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() nounwind readnone\n"
         "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x() nounwind readnone\n";
    if (libdevice)
        for (const auto& c : kCalls)
            s += fmt::format("declare float @{}({})\n", c.name, c.args == 1 ? "float" : "float, float");
    s += "\n";
    for (int k = 0; k < kernels; ++k) s += kernel(k, libdevice);

    // Metadata: !0 .. !(kernels-1) are the kernel annotations, then the IR version.
    s += "!nvvm.annotations = !{";
    for (int k = 0; k < kernels; ++k) s += fmt::format("{}!{}", k ? ", " : "", k);
    s += "}\n";
    s += fmt::format("!nvvmir.version = !{{!{}}}\n\n", kernels);
    for (int k = 0; k < kernels; ++k) s += fmt::format("!{} = !{{{} @k{}, !\"kernel\", i32 1}}\n", k, signature(k), k);
    s += fmt::format("!{} = !{{i32 2, i32 0}}\n", kernels);
    return s;
}

int kernelsForLines(int lines, bool libdevice) {
    // Counted on the text itself, so it stays right when the kernels' shapes change: the header
    // (the first line plus declarations), then per kernel its text and its annotation line, and
    // the three metadata lines that do not grow.
    auto count = [](const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); };
    int total = count(generateModule(1, libdevice)) - count(kernel(0, libdevice)) - 1;
    int k = 0;
    while (total < lines) total += count(kernel(k++, libdevice)) + 1;
    return std::max(k, 1);
}

// One define of about `instructions` instructions in blocks of about `perBlock`: per section a
// head (h), two arms (t, e) and a join (j) that loops back to the head or goes on to the next.
std::string generateBranchyKernel(int instructions, int perBlock) {
    const int fill = std::max(0, perBlock - 2);  // each block also has its own 1 to 3 instructions
    const int sections = std::max(1, instructions / (4 * (fill + 2)));
    std::string ir =
        "target datalayout = \"e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-"
        "f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64\"\n"
        "target triple = \"nvptx64-nvidia-cuda\"\n\n"
        "define void @large(float* %out, float %x) {\nentry:\n  %p0 = fadd float %x, 0.0\n  br label %h1\n";
    auto filler = [&](const std::string& block, const std::string& from) {
        std::string last = from;
        for (int k = 0; k < fill; ++k) {
            const auto name = fmt::format("%{}.f{}", block, k);
            ir += fmt::format("  {} = fmul float {}, 1.5\n", name, last);
            last = name;
        }
        return last;
    };
    for (int s = 1; s <= sections; ++s) {
        const auto next = s == sections ? std::string("exit") : fmt::format("h{}", s + 1);
        ir += fmt::format("h{}:\n", s);
        const auto a = filler(fmt::format("h{}", s), fmt::format("%p{}", s - 1));
        ir += fmt::format("  %c{0} = fcmp olt float {1}, 100.0\n  br i1 %c{0}, label %t{0}, label %e{0}\n", s, a);
        ir += fmt::format("t{}:\n", s);
        const auto t = filler(fmt::format("t{}", s), a);
        ir += fmt::format("  %x{0} = fmul float {1}, 2.0\n  br label %j{0}\n", s, t);
        ir += fmt::format("e{}:\n", s);
        const auto e = filler(fmt::format("e{}", s), a);
        ir += fmt::format("  %y{0} = fsub float {1}, 3.0\n  br label %j{0}\n", s, e);
        ir += fmt::format("j{0}:\n  %p{0} = phi float [ %x{0}, %t{0} ], [ %y{0}, %e{0} ]\n", s);
        const auto j = filler(fmt::format("j{}", s), fmt::format("%p{}", s));
        ir += fmt::format("  %l{0} = fcmp ogt float {1}, 1000.0\n  br i1 %l{0}, label %h{0}, label %{2}\n", s, j, next);
    }
    ir += fmt::format("exit:\n  store float %p{}, float* %out\n  ret void\n}}\n", sections);
    // A kernel that compiles as it is, so that the app's panes show it too (kept by an LTO link).
    ir +=
        "@llvm.used = appending global [1 x i8*] [i8* bitcast (void (float*, float)* @large to i8*)], "
        "section \"llvm.metadata\"\n";
    ir +=
        "!nvvm.annotations = !{!0}\n!nvvmir.version = !{!1}\n"
        "!0 = !{void (float*, float)* @large, !\"kernel\", i32 1}\n!1 = !{i32 2, i32 0}\n";
    return ir;
}

}  // namespace nvpg::bench
