// Writes the seed frames of tests/fuzz/corpus/protocol: one of each message the front ends and
// the engine exchange, made by the real encoders so that the seeds follow the format as it is.
//   build-sanitize/tests/fuzz/make_protocol_corpus tests/fuzz/corpus/protocol
#include <cstdio>
#include <filesystem>

#include "core/engine/Messages.h"
#include "core/support/Files.h"

using namespace nvpg;

namespace {

void write(const std::filesystem::path& dir, const char* name, const std::string& bytes) {
    if (auto st = support::writeFileAtomic(dir / name, bytes); !st) {
        std::fprintf(stderr, "%s\n", st.error().message.c_str());
        std::exit(1);
    }
}

ptx::Function saxpyKernel() {
    ptx::Function k;
    k.name = "saxpy";
    k.isEntry = true;
    k.params = {{"saxpy_param_0", ".u32", 4, 4, 0, false, "", 0},
                {"saxpy_param_1", ".f32", 4, 4, 0, false, "", 0},
                {"saxpy_param_2", ".u64", 8, 8, 0, true, ".global", 4},
                {"saxpy_param_3", ".u64", 8, 8, 0, true, ".global", 4}};
    return k;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    using engine::encodeFrame;

    pipeline::Job job;
    job.modules = {{"main.ll", "define void @k() {\n  ret void\n}\n", false},
                   {"helper.bc", std::string("BC\xC0\xDE\x35\x14\x00\x00", 8), true}};
    (void)job.options.set("arch", "compute_90");
    (void)job.options.set("opt", "3");
    (void)job.options.set("ftz", "1");
    job.options.extraFlags = {"-lineinfo"};
    job.libdevice = true;
    job.ltoMode = lto::Mode::Separate;
    job.outputs = pipeline::kPtx | pipeline::kLtoPtx | pipeline::kFigures;
    job.generation = 7;
    write(dir, "compile-request",
          encodeFrame(engine::makeCompileRequest(job, std::filesystem::path("/usr/local/cuda"))));

    pipeline::CompileResult r;
    r.generation = 7;
    r.ok = false;
    r.arch = "compute_90";
    r.archSource = "options";
    r.flags = {"-arch=compute_90", "-opt=3"};
    r.ptx =
        ".version 9.0\n.target sm_90\n.address_size 64\n\n.visible .entry saxpy(\n\t.param .u32 "
        "saxpy_param_0,\n"
        "\t.param .f32 saxpy_param_1,\n\t.param .u64 .ptr .global .align 4 "
        "saxpy_param_2\n)\n{\n\tret;\n}\n";
    r.linkedPtx = r.ptx;
    r.ltoIr = {{"main.ll", "lto-ir"}, {"helper.bc", "lto-ir 2"}};
    ptx::ResourceUsage u;
    u.function = "saxpy";
    u.arch = "sm_90";
    u.isEntry = true;
    u.registers = 12;
    u.constBytes = 540;
    r.kernels = {{"saxpy", {}, u}, {"other", {}, std::nullopt}};
    r.libdeviceFunctions = {"__nv_expf", "__nv_fast_expf"};
    r.diagnostics = {{"main.ll", 8, 8, nvvm::Severity::Error, "parse expected instruction opcode", "libNVVM"},
                     {"main.ll", 3, 0, nvvm::Severity::Warning, "kernel k is not in @llvm.used", "nvpg"}};
    r.stages = {{pipeline::StageId::CompilePtx, 0.25}, {pipeline::StageId::LinkLtoPtx, 0.5}};
    r.nvvmLog = "main.ll (8, 7): parse expected instruction opcode\n";
    r.linkInfoLog = "info    : used 12 registers, used 0 barriers, 540 bytes cmem[0]\n";
    r.seconds = 0.75;
    write(dir, "compile-reply", encodeFrame(engine::makeCompileReply(r)));
    write(dir, "compile-reply-error",
          encodeFrame(engine::makeCompileReply(support::makeError(support::ErrorKind::Compile, "libNVVM said no"))));

    gpu::RunConfig config;
    config.name = "saxpy 4096";
    config.kernel = "saxpy";
    config.grid = {16, 1, 1};
    config.block = {256, 1, 1};
    for (const char* spec : {"i32:4096", "f32:2", "buf:f32:4:iota", "buf:f32:4:const:1"})
        config.args.push_back(*gpu::parseArgSpec(spec));
    const std::string four(16, '\0');
    const auto runRequest =
        encodeFrame(engine::makeRunRequest(0, r.ptx, false, saxpyKernel(), config, {"", "", four, four}));
    write(dir, "run-request", runRequest);

    gpu::RunOutcome out;
    out.kernel = "saxpy";
    out.device = "NVIDIA H200";
    out.kernelMs = 0.01;
    out.launchMs = {0.01, 0.02};
    out.bytesIn = 32;
    out.bytesOut = 32;
    out.buffers = {{2, gpu::ElemType::F32, 4, four}, {3, gpu::ElemType::F32, 4, four}};
    write(dir, "run-reply", encodeFrame(engine::makeRunReply(out, false)));
    write(dir, "run-reply-fatal",
          encodeFrame(
              engine::makeRunReply(support::makeError(support::ErrorKind::Run, "CUDA_ERROR_ILLEGAL_ADDRESS"), true)));

    // What readFrame meets on a socket: progress before the answer, and a frame cut short.
    const auto progress = encodeFrame(engine::makeProgress({pipeline::StageId::CompilePtx, {}}));
    write(dir, "progress-then-reply", progress + encodeFrame(engine::makeCompileReply(r)));
    write(dir, "truncated", runRequest.substr(0, runRequest.size() / 2));
    return 0;
}
