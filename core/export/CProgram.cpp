#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "core/export/CodeText.h"
#include "core/export/Writers.h"
#include "core/gpu/ElemType.h"
#include "core/gpu/Npy.h"
#include "core/lto/Linker.h"

// The C target: a C program over libNVVM, nvJitLink and the CUDA driver API, and its
// CMakeLists.txt.
namespace nvpg::exporting::detail {

namespace {

std::string cArray(const std::vector<std::string>& items, std::string_view indent) {
    std::string s;
    for (const auto& i : items) s += fmt::format("{}{},\n", indent, cString(i));
    return s;
}

// The bits of a scalar as the kernel parameter holds them.
std::string cScalar(const Arg& a, size_t k) {
    const auto size = gpu::elemInfo(a.spec.type).size;
    const char* type = size == 1 ? "uint8_t" : size == 2 ? "uint16_t" : size == 4 ? "uint32_t" : "uint64_t";
    const uint64_t mask = size == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * size)) - 1;
    return fmt::format("static const {} arg{} = 0x{:x}u; /* {} {} */", type, k, a.spec.bits & mask,
                       gpu::elemInfo(a.spec.type).name, commentText(Comment::C, a.value));
}

// The .npy header NumPy would write before these bytes (the one npy writer's).
std::string npyHeader(gpu::ElemType type, size_t count) {
    gpu::NpyArray a;
    a.type = type;
    a.shape = {count};
    return gpu::writeNpy(a);  // no data: the header alone
}

}  // namespace

std::string cProgram(const Input& in, const Names& n, const std::vector<ModuleFile>& mods, const std::vector<Arg>& args,
                     bool lto) {
    const auto flags = in.options.flags();
    auto ltoOptions = in.options;
    ltoOptions.genLto = true;
    const auto ltoFlags = ltoOptions.flags();
    const std::string sm = nvvm::smArchFor(*in.options.arch);
    std::vector<std::string> linkFlags{"-arch=" + sm, "-lto"};
    for (const auto& f : lto::linkOptionsFor(in.options)) linkFlags.push_back(f);
    auto ptxLinkFlags = linkFlags;
    ptxLinkFlags.push_back("-ptx");

    std::string s;
    const auto line = [&s](std::string_view l = {}) {
        s += l;
        s += '\n';
    };
    line("/*");
    s += headTitle(Comment::C, " * ", in, "c");
    line(" *");
    const std::string outputs = outputsWritten(in, n, lto);
    s += commentLines(
        Comment::C, " * ",
        fmt::format("The same program with libNVVM (the modules in the workspace's order, the verifier "
                    "first{}){}, and the CUDA driver API, every call checked and its log printed. It writes "
                    "{} to OUTPUT_FOLDER (default: the current folder) before it looks for a GPU.{} The "
                    "driver (libcuda.so.1) is opened at run time, so the program starts where there is none.",
                    in.libdevice ? ", then libdevice added lazily" : "", lto ? ", nvJitLink" : "", outputs,
                    in.run ? fmt::format(" With one, it {}, and writes each buffer after the launch as "
                                         "outputs/argK.npy there.",
                                         runSentence(*in.run))
                           : std::string()));
    line(" *");
    line(" *   cmake -S . -B build -DCUDA_HOME=/usr/local/cuda && cmake --build build");
    line(fmt::format(" *   ./build/{} [OUTPUT_FOLDER]", n.stem));  // codeStem: letters, digits, _ + -
    line(" *");
    s += commentLines(Comment::C, " * ",
                      fmt::format("Exit status: 0 done, 1 a compile{} failed, 2 a file could not be read or "
                                  "written{}.",
                                  in.run ? ", link or launch" : " or link", in.run ? ", 3 no GPU to launch on" : ""));
    line(" */");
    line("#define _POSIX_C_SOURCE 200809L /* dlopen, mkdir */");
    line("#include <dlfcn.h>");
    line("#include <errno.h>");
    line("#include <stdint.h>");
    line("#include <stdio.h>");
    line("#include <stdlib.h>");
    line("#include <string.h>");
    line("#include <sys/stat.h>");
    line();
    line("#include <cuda.h>");
    if (lto) line("#include <nvJitLink.h>");
    line("#include <nvvm.h>");
    line();
    line("/* Where modules/ and inputs/ are (CMakeLists.txt sets it to this folder) and libdevice. */");
    line("#ifndef EXPORT_DIR");
    line("#define EXPORT_DIR \".\"");
    line("#endif");
    line("#ifndef LIBDEVICE_PATH");
    line("#define LIBDEVICE_PATH \"/usr/local/cuda/nvvm/libdevice/libdevice.10.bc\"");
    line("#endif");
    line();
    line("struct module {");
    line("    const char *name; /* what libNVVM calls it in its log */");
    line("    const char *file; /* relative to EXPORT_DIR */");
    line("    int lazy;         /* nvvmLazyAddModuleToProgram: only what the others use is linked */");
    line("};");
    line("static const struct module modules[] = {");
    for (const auto& m : mods)
        line(fmt::format("    {{{}, {}, {}}},", cString(m.module->name), cString(m.path), m.module->lazy ? 1 : 0));
    line("};");
    line("#define NUM_MODULES (sizeof modules / sizeof modules[0])");
    line(fmt::format("static const int use_libdevice = {};", in.libdevice ? 1 : 0));
    line(fmt::format("static const int verify = {};", in.verify ? 1 : 0));
    line("static const char *const options[] = {");
    s += cArray(flags, "    ");
    line("};");
    if (lto) {
        line(fmt::format("/* LTO mode '{}'{}. */", lto::modeName(in.ltoMode),
                         in.ltoMode == lto::Mode::Program ? ": the program compiled again with -gen-lto"
                                                          : ": each module a program of its own, linked together"));
        line("static const char *const lto_options[] = {");
        s += cArray(ltoFlags, "    ");
        line("};");
        line("static const char *const link_options[] = {");
        s += cArray(linkFlags, "    ");
        line("};");
        line("static const char *const ptx_link_options[] = {");
        s += cArray(ptxLinkFlags, "    ");
        line("};");
        if (in.ltoMode == lto::Mode::Separate) {
            line("static const char *const ltoir_files[] = {");
            s += cArray(n.moduleLtoIr, "    ");
            line("};");
        }
    }
    line("#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))");
    line();
    line("static const char *out_dir = \".\";");
    line();
    line(R"(static char *read_file(const char *file, size_t *size) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", EXPORT_DIR, file);
    if (file[0] == '/') snprintf(path, sizeof path, "%s", file);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot read %s: %s\n", path, strerror(errno));
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc(n > 0 ? (size_t)n : 1);
    if (!data || n < 0 || fread(data, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

static void write_file(const char *name, const void *header, size_t header_size, const void *data, size_t size) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", out_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(header, 1, header_size, f) != header_size || fwrite(data, 1, size, f) != size || fclose(f)) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(2);
    }
    printf("wrote %s\n", path);
}

#define CHECK_NVVM(call)                                                                          \
    do {                                                                                          \
        nvvmResult r_ = (call);                                                                   \
        if (r_ != NVVM_SUCCESS) {                                                                 \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, nvvmGetErrorString(r_)); \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

/* libNVVM's log of the last verify or compile, printed when it says anything. */
static void print_nvvm_log(nvvmProgram program) {
    size_t size = 0;
    CHECK_NVVM(nvvmGetProgramLogSize(program, &size));
    char *log = malloc(size + 1);
    CHECK_NVVM(nvvmGetProgramLog(program, log));
    log[size] = 0;
    if (log[0]) fprintf(stderr, "%s\n", log);
    free(log);
}

static void add_module(nvvmProgram program, const char *name, const char *file, int lazy) {
    size_t size = 0;
    char *data = read_file(file, &size);
    if (lazy)
        CHECK_NVVM(nvvmLazyAddModuleToProgram(program, data, size, name));
    else
        CHECK_NVVM(nvvmAddModuleToProgram(program, data, size, name));
    free(data);
}

/* Compiles with `opts`; the result (text ends with a NUL: see text_size). */
static char *compile(nvvmProgram program, const char *const *opts, int n, size_t *size) {
    nvvmResult r = nvvmCompileProgram(program, n, (const char **)opts);
    print_nvvm_log(program);
    if (r != NVVM_SUCCESS) {
        fprintf(stderr, "nvvmCompileProgram failed: %s\n", nvvmGetErrorString(r));
        exit(1);
    }
    CHECK_NVVM(nvvmGetCompiledResultSize(program, size));
    char *result = malloc(*size + 1);
    CHECK_NVVM(nvvmGetCompiledResult(program, result));
    return result;
}

static void add_libdevice(nvvmProgram program) {
    if (use_libdevice) add_module(program, "libdevice.10.bc", LIBDEVICE_PATH, 1);
}

static size_t text_size(const char *text, size_t size) {
    while (size > 0 && text[size - 1] == 0) --size;
    return size;
})");
    if (lto) {
        line();
        line(R"(#define CHECK_LINK(handle, call)                                                         \
    do {                                                                                   \
        nvJitLinkResult r_ = (call);                                                       \
        if (r_ != NVJITLINK_SUCCESS) {                                                     \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, (int)r_); \
            print_link_logs(handle);                                                       \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

static void print_link_logs(nvJitLinkHandle handle) {
    size_t size = 0;
    if (nvJitLinkGetErrorLogSize(handle, &size) == NVJITLINK_SUCCESS && size > 1) {
        char *log = malloc(size);
        if (nvJitLinkGetErrorLog(handle, log) == NVJITLINK_SUCCESS) fprintf(stderr, "%s\n", log);
        free(log);
    }
    if (nvJitLinkGetInfoLogSize(handle, &size) == NVJITLINK_SUCCESS && size > 1) {
        char *log = malloc(size);
        if (nvJitLinkGetInfoLog(handle, log) == NVJITLINK_SUCCESS) fprintf(stderr, "%s\n", log);
        free(log);
    }
}

/* nvJitLink's link of the LTO-IR, to PTX (-ptx) or to a cubin. nvJitLink drops every kernel that is
 * not in @llvm.used, and says nothing. */
static char *link_ltoir(char **ltoirs, const size_t *sizes, int count, const char *const *opts, int n, int ptx,
                        size_t *size) {
    nvJitLinkHandle handle;
    nvJitLinkResult r = nvJitLinkCreate(&handle, (uint32_t)n, (const char **)opts);
    if (r != NVJITLINK_SUCCESS) {
        fprintf(stderr, "nvJitLinkCreate failed: %d\n", (int)r);
        exit(1);
    }
    for (int i = 0; i < count; ++i)
        CHECK_LINK(handle, nvJitLinkAddData(handle, NVJITLINK_INPUT_LTOIR, ltoirs[i], sizes[i], "ltoir"));
    CHECK_LINK(handle, nvJitLinkComplete(handle));
    print_link_logs(handle);
    char *out;
    if (ptx) {
        CHECK_LINK(handle, nvJitLinkGetLinkedPtxSize(handle, size));
        out = malloc(*size + 1);
        CHECK_LINK(handle, nvJitLinkGetLinkedPtx(handle, out));
    } else {
        CHECK_LINK(handle, nvJitLinkGetLinkedCubinSize(handle, size));
        out = malloc(*size + 1);
        CHECK_LINK(handle, nvJitLinkGetLinkedCubin(handle, out));
    }
    r = nvJitLinkDestroy(&handle);
    if (r != NVJITLINK_SUCCESS) {
        fprintf(stderr, "nvJitLinkDestroy failed: %d\n", (int)r);
        exit(1);
    }
    return out;
})");
    }
    if (in.run) {
        const auto& run = *in.run;
        line();
        line(R"(/* The CUDA driver, opened at run time (never linked: the program must start without it). */
struct driver {
    CUresult (*Init)(unsigned int);
    CUresult (*DeviceGetCount)(int *);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*DevicePrimaryCtxRelease)(CUdevice);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*CtxSynchronize)(void);
    CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned int, CUjit_option *, void **);
    CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*ModuleUnload)(CUmodule);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*LaunchKernel)(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,
                             unsigned int, unsigned int, CUstream, void **, void **);
    CUresult (*GetErrorName)(CUresult, const char **);
    CUresult (*GetErrorString)(CUresult, const char **);
};
static struct driver cu;

static void check_cu(CUresult r, const char *call, int line) {
    if (r == CUDA_SUCCESS) return;
    const char *name = "?", *text = "?";
    cu.GetErrorName(r, &name);
    cu.GetErrorString(r, &text);
    fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, line, call, name, text);
    exit(1);
}
#define CHECK_CU(call) check_cu((call), #call, __LINE__)

/* 0 with the driver's functions in `cu`; otherwise says why there is no GPU to launch on. */
static int open_driver(void) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "no GPU to launch on: the CUDA driver (libcuda.so.1) is not installed: %s\n", dlerror());
        return 3;
    }
    const struct {
        void **fn;
        const char *name;
    } symbols[] = {
        {(void **)&cu.Init, "cuInit"},
        {(void **)&cu.DeviceGetCount, "cuDeviceGetCount"},
        {(void **)&cu.DeviceGet, "cuDeviceGet"},
        {(void **)&cu.DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
        {(void **)&cu.DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"},
        {(void **)&cu.CtxSetCurrent, "cuCtxSetCurrent"},
        {(void **)&cu.CtxSynchronize, "cuCtxSynchronize"},
        {(void **)&cu.ModuleLoadDataEx, "cuModuleLoadDataEx"},
        {(void **)&cu.ModuleGetFunction, "cuModuleGetFunction"},
        {(void **)&cu.ModuleUnload, "cuModuleUnload"},
        {(void **)&cu.MemAlloc, "cuMemAlloc_v2"},
        {(void **)&cu.MemFree, "cuMemFree_v2"},
        {(void **)&cu.MemcpyHtoD, "cuMemcpyHtoD_v2"},
        {(void **)&cu.MemcpyDtoH, "cuMemcpyDtoH_v2"},
        {(void **)&cu.LaunchKernel, "cuLaunchKernel"},
        {(void **)&cu.GetErrorName, "cuGetErrorName"},
        {(void **)&cu.GetErrorString, "cuGetErrorString"},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; ++i)
        if (!(*symbols[i].fn = dlsym(lib, symbols[i].name))) {
            fprintf(stderr, "the CUDA driver has no %s: %s\n", symbols[i].name, dlerror());
            return 1;
        }
    CUresult r = cu.Init(0);
    int count = 0;
    if (r == CUDA_SUCCESS) r = cu.DeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count == 0) {
        const char *name = "no device";
        if (r != CUDA_SUCCESS) cu.GetErrorName(r, &name);
        fprintf(stderr, "no GPU to launch on: cuInit or cuDeviceGetCount says %s\n", name);
        return 3;
    }
    return 0;
}

/* The data of a .npy file written by nvpg export: its header is skipped. */
static char *read_npy(const char *file, size_t expected, size_t *size) {
    size_t n = 0;
    char *bytes = read_file(file, &n);
    size_t header = 0;
    if (n >= 10 && memcmp(bytes, "\223NUMPY", 6) == 0)
        header = bytes[6] == 1 ? 10 + (size_t)(unsigned char)bytes[8] + 256 * (size_t)(unsigned char)bytes[9]
                               : 12 + (size_t)(unsigned char)bytes[8] + 256 * (size_t)(unsigned char)bytes[9] +
                                     65536 * (size_t)(unsigned char)bytes[10] +
                                     16777216 * (size_t)(unsigned char)bytes[11];
    if (header == 0 || n < header || n - header != expected) {
        fprintf(stderr, "%s/%s: expected a .npy file with %zu bytes of data\n", EXPORT_DIR, file, expected);
        exit(2);
    }
    *size = n - header;
    memmove(bytes, bytes + header, *size);
    return bytes;
})");
        line();
        line(fmt::format("static const char kernel_name[] = {};", cString(run.kernel)));
        line("/* The run configuration's arguments: buffers from inputs/argK.npy, scalars as their bits. */");
        for (size_t k = 0; k < args.size(); ++k)
            if (args[k].spec.kind == gpu::ArgSpec::Scalar) line(cScalar(args[k], k));
        line();
        line("static int launch_kernel(const void *image) {");
        line("    int status = open_driver();");
        line("    if (status != 0) return status;");
        line("    CUdevice device;");
        line("    CUcontext context;");
        line("    CHECK_CU(cu.DeviceGet(&device, 0));");
        line("    CHECK_CU(cu.DevicePrimaryCtxRetain(&context, device));");
        line("    CHECK_CU(cu.CtxSetCurrent(context));");
        line("    char jit_log[8192] = \"\";");
        line("    CUjit_option jit_options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};");
        line("    void *jit_values[] = {jit_log, (void *)(uintptr_t)sizeof jit_log};");
        line("    CUmodule module;");
        line("    CUresult r = cu.ModuleLoadDataEx(&module, image, 2, jit_options, jit_values);");
        line("    if (r != CUDA_SUCCESS) fprintf(stderr, \"%s\\n\", jit_log);");
        line("    CHECK_CU(r);");
        line("    CUfunction kernel;");
        line("    CHECK_CU(cu.ModuleGetFunction(&kernel, module, kernel_name));");
        line(fmt::format("    void *params[{}];", std::max<size_t>(args.size(), 1)));
        size_t buffers = 0;
        for (const auto& a : args)
            if (a.spec.kind != gpu::ArgSpec::Scalar) ++buffers;
        line(fmt::format("    CUdeviceptr device_ptr[{}] = {{0}};", std::max<size_t>(buffers, 1)));
        line(fmt::format("    char *host[{}] = {{0}};", std::max<size_t>(buffers, 1)));
        size_t b = 0;
        std::vector<std::pair<size_t, size_t>> bufferArgs;  // (argument, its slot)
        for (size_t k = 0; k < args.size(); ++k) {
            const auto& a = args[k];
            if (a.spec.kind == gpu::ArgSpec::Scalar) {
                line(fmt::format("    params[{}] = (void *)&arg{};", k, k));
            } else if (a.spec.kind == gpu::ArgSpec::NullPointer) {
                line(fmt::format("    params[{}] = &device_ptr[{}]; /* null */", k, b++));
            } else {
                const size_t bytes = a.spec.count * gpu::elemInfo(a.spec.type).size;
                line(fmt::format("    {{ /* argument {}: {} */", k, commentText(Comment::C, a.spec.text)));
                line("        size_t size = 0;");
                line(fmt::format("        host[{}] = read_npy({}, {}u, &size);", b, cString(a.file), bytes));
                line(fmt::format("        CHECK_CU(cu.MemAlloc(&device_ptr[{}], size));", b));
                line(fmt::format("        CHECK_CU(cu.MemcpyHtoD(device_ptr[{}], host[{}], size));", b, b));
                line(fmt::format("        params[{}] = &device_ptr[{}];", k, b));
                line("    }");
                bufferArgs.emplace_back(k, b++);
            }
        }
        line(fmt::format("    CHECK_CU(cu.LaunchKernel(kernel, {}, {}, {}, {}, {}, {}, {}u, NULL, params, NULL));",
                         run.grid.x, run.grid.y, run.grid.z, run.block.x, run.block.y, run.block.z, run.sharedBytes));
        line("    CHECK_CU(cu.CtxSynchronize());");
        line("    char outputs[4096];");
        line("    snprintf(outputs, sizeof outputs, \"%s/outputs\", out_dir);");
        line("    mkdir(outputs, 0777);");
        for (const auto& [k, slot] : bufferArgs) {
            const auto& a = args[k];
            const size_t bytes = a.spec.count * gpu::elemInfo(a.spec.type).size;
            const auto header = npyHeader(a.spec.type, a.spec.count);
            line(fmt::format("    CHECK_CU(cu.MemcpyDtoH(host[{}], device_ptr[{}], {}u));", slot, slot, bytes));
            line(fmt::format("    write_file(\"outputs/arg{}.npy\", {}, {}u, host[{}], {}u);", k, cString(header),
                             header.size(), slot, bytes));
            line(fmt::format("    CHECK_CU(cu.MemFree(device_ptr[{}]));", slot));
            line(fmt::format("    free(host[{}]);", slot));
        }
        line("    CHECK_CU(cu.ModuleUnload(module));");
        line("    CHECK_CU(cu.DevicePrimaryCtxRelease(device));");
        line("    return 0;");
        line("}");
    }
    line();
    line("int main(int argc, char **argv) {");
    line("    if (argc > 1) out_dir = argv[1];");
    line("    mkdir(out_dir, 0777);");
    line("    nvvmProgram program;");
    line("    CHECK_NVVM(nvvmCreateProgram(&program));");
    line("    for (size_t i = 0; i < NUM_MODULES; ++i)");
    line("        add_module(program, modules[i].name, modules[i].file, modules[i].lazy);");
    line("    /* The verifier sees the modules as written; libdevice comes after it, as cuda.core adds it. */");
    line("    if (verify) {");
    line("        nvvmResult r = nvvmVerifyProgram(program, COUNT(options), (const char **)options);");
    line("        print_nvvm_log(program);");
    line("        if (r != NVVM_SUCCESS) {");
    line("            fprintf(stderr, \"nvvmVerifyProgram failed: %s\\n\", nvvmGetErrorString(r));");
    line("            return 1;");
    line("        }");
    line("    }");
    line("    add_libdevice(program);");
    line("    size_t ptx_size = 0;");
    line("    char *ptx = compile(program, options, COUNT(options), &ptx_size);");
    line("    ptx_size = text_size(ptx, ptx_size);");
    line(fmt::format("    write_file({}, \"\", 0, ptx, ptx_size);", cString(n.ptx)));
    line("    ptx[ptx_size] = 0;");
    if (lto) {
        if (in.ltoMode == lto::Mode::Program) {
            line("    char *ltoirs[1];");
            line("    size_t ltoir_sizes[1];");
            line("    ltoirs[0] = compile(program, lto_options, COUNT(lto_options), &ltoir_sizes[0]);");
            line(fmt::format("    write_file({}, \"\", 0, ltoirs[0], ltoir_sizes[0]);", cString(n.ltoIr)));
            line("    const int num_ltoirs = 1;");
        } else {
            line("    char *ltoirs[NUM_MODULES];");
            line("    size_t ltoir_sizes[NUM_MODULES];");
            line("    for (size_t i = 0; i < NUM_MODULES; ++i) {");
            line("        /* Alone in its program a module has nothing to be lazy for: it is added eagerly. */");
            line("        nvvmProgram one;");
            line("        CHECK_NVVM(nvvmCreateProgram(&one));");
            line("        add_module(one, modules[i].name, modules[i].file, 0);");
            line("        add_libdevice(one);");
            line("        ltoirs[i] = compile(one, lto_options, COUNT(lto_options), &ltoir_sizes[i]);");
            line("        write_file(ltoir_files[i], \"\", 0, ltoirs[i], ltoir_sizes[i]);");
            line("        CHECK_NVVM(nvvmDestroyProgram(&one));");
            line("    }");
            line("    const int num_ltoirs = (int)NUM_MODULES;");
        }
        line("    size_t linked_size = 0, cubin_size = 0;");
        line(
            "    char *linked = link_ltoir(ltoirs, ltoir_sizes, num_ltoirs, ptx_link_options, COUNT(ptx_link_options), "
            "1, &linked_size);");
        line("    linked_size = text_size(linked, linked_size);");
        line(fmt::format("    write_file({}, \"\", 0, linked, linked_size);", cString(n.linkedPtx)));
        line(
            "    char *cubin = link_ltoir(ltoirs, ltoir_sizes, num_ltoirs, link_options, COUNT(link_options), 0, "
            "&cubin_size);");
        line(fmt::format("    write_file({}, \"\", 0, cubin, cubin_size);", cString(n.cubin)));
    }
    line("    CHECK_NVVM(nvvmDestroyProgram(&program));");
    if (in.run)
        line(fmt::format("    return launch_kernel({});", lto && in.run->fromLto ? "cubin" : "ptx"));
    else
        line("    return 0;");
    line("}");
    return s;
}

std::string cmakeLists(const Input& in, const Names& n, bool lto) {
    std::string s;
    s += "# Exported from NVVM Playground (nvpg export --as c).\n";
    s += "#   cmake -S . -B build -DCUDA_HOME=/usr/local/cuda && cmake --build build\n";
    s += commentLines(Comment::Hash, "# ", "Name: " + in.name);
    s += "cmake_minimum_required(VERSION 3.18)\n";
    s += fmt::format("project({} LANGUAGES C)\n\n", n.stem);
    s += "set(CUDA_HOME \"/usr/local/cuda\" CACHE PATH \"the CUDA toolkit: libNVVM, nvJitLink, libdevice, cuda.h\")\n";
    s += "# A standard toolkit has libNVVM under nvvm/; pip-wheel-style trees have it in lib64/.\n";
    s += "find_path(NVVM_INCLUDE_DIR nvvm.h HINTS ${CUDA_HOME}/nvvm/include ${CUDA_HOME}/include REQUIRED)\n";
    s += "find_path(CUDA_INCLUDE_DIR cuda.h HINTS ${CUDA_HOME}/include REQUIRED)\n";
    s += "find_library(NVVM_LIBRARY nvvm HINTS ${CUDA_HOME}/nvvm/lib64 ${CUDA_HOME}/lib64 REQUIRED)\n";
    if (lto) s += "find_library(NVJITLINK_LIBRARY nvJitLink HINTS ${CUDA_HOME}/lib64 REQUIRED)\n";
    s += "find_file(LIBDEVICE libdevice.10.bc HINTS ${CUDA_HOME}/nvvm/libdevice REQUIRED)\n\n";
    s += fmt::format("add_executable({0} {0}.c)\n", n.stem);
    s += fmt::format("set_target_properties({} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)\n", n.stem);
    s += fmt::format("target_include_directories({} PRIVATE ${{NVVM_INCLUDE_DIR}} ${{CUDA_INCLUDE_DIR}})\n", n.stem);
    s += fmt::format(
        "target_compile_definitions({} PRIVATE EXPORT_DIR=\"${{CMAKE_CURRENT_SOURCE_DIR}}\" "
        "LIBDEVICE_PATH=\"${{LIBDEVICE}}\")\n",
        n.stem);
    s += "# The driver (libcuda.so.1) is opened with dlopen, so that the program starts where there is none.\n";
    s += fmt::format("target_link_libraries({} PRIVATE ${{NVVM_LIBRARY}}{} ${{CMAKE_DL_LIBS}})\n", n.stem,
                     lto ? " ${NVJITLINK_LIBRARY}" : "");
    return s;
}

}  // namespace nvpg::exporting::detail
