#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "core/export/CodeText.h"
#include "core/export/Template.h"
#include "core/export/Writers.h"
#include "core/gpu/ElemType.h"
#include "core/gpu/Npy.h"
#include "core/lto/Linker.h"

// The C target: a C program over libNVVM, nvJitLink and the CUDA driver API, and its
// CMakeLists.txt, from the templates resources/export/program.c.in and CMakeLists.txt.in.
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

    TemplateFill fill;
    auto& v = fill.values;
    fill.sections = {{"lto", lto},
                     {"lto_program", lto && in.ltoMode == lto::Mode::Program},
                     {"lto_separate", lto && in.ltoMode == lto::Mode::Separate},
                     {"run", in.run.has_value()}};
    v["head"] = headTitle(Comment::C, " * ", in, "c");
    const std::string outputs = outputsWritten(in, n, lto);
    v["about"] = commentLines(
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
    v["stem"] = n.stem;  // codeStem: letters, digits, _ + -
    v["exit_status"] =
        commentLines(Comment::C, " * ",
                     fmt::format("Exit status: 0 done, 1 a compile{} failed, 2 a file could not be read or "
                                 "written{}.",
                                 in.run ? ", link or launch" : " or link", in.run ? ", 3 no GPU to launch on" : ""));
    v["modules"] = "";
    for (const auto& m : mods)
        v["modules"] +=
            fmt::format("    {{{}, {}, {}}},\n", cString(m.module->name), cString(m.path), m.module->lazy ? 1 : 0);
    v["use_libdevice"] = in.libdevice ? "1" : "0";
    v["verify"] = in.verify ? "1" : "0";
    v["options"] = cArray(flags, "    ");
    v["ptx_file"] = cString(n.ptx);
    if (lto) {
        v["lto_options"] = cArray(ltoFlags, "    ");
        v["link_options"] = cArray(linkFlags, "    ");
        v["ptx_link_options"] = cArray(ptxLinkFlags, "    ");
        if (in.ltoMode == lto::Mode::Separate)
            v["ltoir_files"] = cArray(n.moduleLtoIr, "    ");
        else
            v["ltoir_file"] = cString(n.ltoIr);
        v["linked_ptx_file"] = cString(n.linkedPtx);
        v["cubin_file"] = cString(n.cubin);
    }
    if (in.run) {
        const auto& run = *in.run;
        v["kernel_name"] = cString(run.kernel);
        v["scalar_args"] = "";
        for (size_t k = 0; k < args.size(); ++k)
            if (args[k].spec.kind == gpu::ArgSpec::Scalar) v["scalar_args"] += cScalar(args[k], k) + '\n';
        size_t buffers = 0;
        for (const auto& a : args)
            if (a.spec.kind != gpu::ArgSpec::Scalar) ++buffers;
        v["num_params"] = std::to_string(std::max<size_t>(args.size(), 1));
        v["num_buffers"] = std::to_string(std::max<size_t>(buffers, 1));
        // Each argument into params[]: a scalar's bits, a null pointer, or a buffer read from its
        // .npy file and copied to the GPU; after the launch, each buffer back into outputs/.
        std::string pass, readBack;
        const auto line = [](std::string& to, std::string_view l) {
            to += l;
            to += '\n';
        };
        size_t b = 0;
        std::vector<std::pair<size_t, size_t>> bufferArgs;  // (argument, its slot)
        for (size_t k = 0; k < args.size(); ++k) {
            const auto& a = args[k];
            if (a.spec.kind == gpu::ArgSpec::Scalar) {
                line(pass, fmt::format("    params[{}] = (void *)&arg{};", k, k));
            } else if (a.spec.kind == gpu::ArgSpec::NullPointer) {
                line(pass, fmt::format("    params[{}] = &device_ptr[{}]; /* null */", k, b++));
            } else {
                const size_t bytes = a.spec.count * gpu::elemInfo(a.spec.type).size;
                line(pass, fmt::format("    {{ /* argument {}: {} */", k, commentText(Comment::C, a.spec.text)));
                line(pass, "        size_t size = 0;");
                line(pass, fmt::format("        host[{}] = read_npy({}, {}u, &size);", b, cString(a.file), bytes));
                line(pass, fmt::format("        CHECK_CU(cu.MemAlloc(&device_ptr[{}], size));", b));
                line(pass, fmt::format("        CHECK_CU(cu.MemcpyHtoD(device_ptr[{}], host[{}], size));", b, b));
                line(pass, fmt::format("        params[{}] = &device_ptr[{}];", k, b));
                line(pass, "    }");
                bufferArgs.emplace_back(k, b++);
            }
        }
        for (const auto& [k, slot] : bufferArgs) {
            const auto& a = args[k];
            const size_t bytes = a.spec.count * gpu::elemInfo(a.spec.type).size;
            const auto header = npyHeader(a.spec.type, a.spec.count);
            line(readBack,
                 fmt::format("    CHECK_CU(cu.MemcpyDtoH(host[{}], device_ptr[{}], {}u));", slot, slot, bytes));
            line(readBack, fmt::format("    write_file(\"outputs/arg{}.npy\", {}, {}u, host[{}], {}u);", k,
                                       cString(header), header.size(), slot, bytes));
            line(readBack, fmt::format("    CHECK_CU(cu.MemFree(device_ptr[{}]));", slot));
            line(readBack, fmt::format("    free(host[{}]);", slot));
        }
        v["pass_args"] = pass;
        v["read_back"] = readBack;
        v["grid"] = fmt::format("{}, {}, {}", run.grid.x, run.grid.y, run.grid.z);
        v["block"] = fmt::format("{}, {}, {}", run.block.x, run.block.y, run.block.z);
        v["shared_bytes"] = std::to_string(run.sharedBytes);
        v["launch_image"] = lto && run.fromLto ? "cubin" : "ptx";
    }
    return fillBuiltIn("program.c.in", fill);
}

std::string cmakeLists(const Input& in, const Names& n, bool lto) {
    TemplateFill fill;
    fill.sections = {{"lto", lto}};
    fill.values = {{"name", commentLines(Comment::Hash, "# ", "Name: " + in.name)}, {"stem", n.stem}};
    return fillBuiltIn("CMakeLists.txt.in", fill);
}

}  // namespace nvpg::exporting::detail
