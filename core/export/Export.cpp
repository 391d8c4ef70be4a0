#include "export/Export.h"

#include <algorithm>
#include <set>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "export/CodeText.h"
#include "gpu/ArgSpec.h"
#include "gpu/ElemType.h"
#include "gpu/Npy.h"
#include "lto/Linker.h"
#include "pipeline/OutputNames.h"
#include "ptx/Ptx.h"
#include "support/Text.h"

namespace fs = std::filesystem;

namespace nvpg::exporting {

using support::ErrorKind;
using support::makeError;

std::optional<Target> parseTarget(std::string_view name) {
    if (name == "cuda-core") return Target::CudaCore;
    if (name == "c") return Target::C;
    return std::nullopt;
}

std::string_view targetName(Target target) {
    return target == Target::CudaCore ? "cuda-core" : "c";
}

const std::vector<CudaCoreField>& cudaCoreFields() {
    // cuda.core's ProgramOptions._prepare_nvvm_options (cuda-core 1.2): arch -> -arch=,
    // device_code_optimize -> -opt=3/0, ftz/prec_sqrt/prec_div/fma -> -X=1/0, debug -> -g.
    static const std::vector<CudaCoreField> table = {
        {"arch", "arch"},         {"opt", "device_code_optimize"}, {"ftz", "ftz"},
        {"prec-div", "prec_div"}, {"prec-sqrt", "prec_sqrt"},      {"fma", "fma"},
        {"g", "debug"},
    };
    return table;
}

namespace {

struct ModuleFile {
    const nvvm::Module* module;
    std::string path;  // "modules/saxpy.ll"
};

// Each module as a file under modules/: its name's stem (the one file-name rule), .ll or .bc
// by its bytes, -2, -3, ... where two would share a name.
std::vector<ModuleFile> moduleFiles(const std::vector<nvvm::Module>& modules) {
    std::vector<ModuleFile> out;
    std::set<std::string> taken;
    for (const auto& m : modules) {
        const std::string stem = pipeline::fileStemOf(m.name);
        const std::string ext = m.isBitcode() ? ".bc" : ".ll";
        std::string name = stem + ext;
        for (int n = 2; taken.contains(name); ++n) name = fmt::format("{}-{}{}", stem, n, ext);
        taken.insert(name);
        out.push_back({&m, "modules/" + name});
    }
    return out;
}

// One argument of the run as the code passes it.
struct Arg {
    gpu::ArgSpec spec;
    std::string file;   // Buffer: "inputs/argK.npy"
    std::string value;  // Scalar: the value as text (formatElement: reads back as the same value)
};

std::string dims(const gpu::Dim3& d) {
    return fmt::format("({}, {}, {})", d.x, d.y, d.z);
}

std::string runName(const gpu::RunConfig& run) {
    return run.name.empty() ? "(unnamed)" : run.name;
}

// The run's buffers as .npy files beside the code (the one npy writer), its scalars as values.
support::Result<std::vector<Arg>> runArgs(const Input& in, std::vector<File>& files) {
    std::vector<Arg> out;
    const auto& run = *in.run;
    for (size_t k = 0; k < run.args.size(); ++k) {
        Arg a{run.args[k], {}, {}};
        if (a.spec.kind == gpu::ArgSpec::Buffer) {
            auto bytes = gpu::loadBuffer(a.spec, in.baseDir);
            if (!bytes)
                return makeError(bytes.error().kind, fmt::format("run configuration '{}', argument {} ({}): {}",
                                                                 runName(run), k, a.spec.text, bytes.error().message));
            gpu::NpyArray array;
            array.type = a.spec.type;
            array.shape = {a.spec.count};
            array.data = std::move(*bytes);
            a.file = fmt::format("inputs/arg{}.npy", k);
            files.push_back({a.file, gpu::writeNpy(array)});
        } else if (a.spec.kind == gpu::ArgSpec::Scalar) {
            a.value = gpu::formatElement(a.spec.type, &a.spec.bits);
        }
        out.push_back(std::move(a));
    }
    return out;
}

// The names of the outputs, by the one naming rule (pipeline/OutputNames).
struct Names {
    std::string stem, ptx, ltoIr, linkedPtx, cubin;
    std::vector<std::string> moduleLtoIr;  // separate LTO mode: one per module
};

Names namesFor(const Input& in) {
    Names n;
    n.stem = codeStem(in.name);
    n.ptx = pipeline::defaultOutputName(n.stem, pipeline::Artifact::Ptx);
    n.ltoIr = pipeline::defaultOutputName(n.stem, pipeline::Artifact::LtoIr);
    n.linkedPtx = pipeline::defaultOutputName(n.stem, pipeline::Artifact::LinkedPtx);
    n.cubin = pipeline::defaultOutputName(n.stem, pipeline::Artifact::Cubin);
    std::vector<std::string> names;
    for (const auto& m : in.modules) names.push_back(m.name);
    n.moduleLtoIr = pipeline::perModulePaths(n.ltoIr, names);
    return n;
}

// The head of an exported file: where it came from, the name and the workspace's description, as
// comment lines. What made the file comes first, in nvpg's own words: workspace text never stands
// on a file's first two lines, where Python reads an encoding declaration.
std::string headTitle(Comment kind, std::string_view prefix, const Input& in, std::string_view as) {
    std::string s = fmt::format("{}Exported from NVVM Playground (nvpg export --as {}).\n", prefix, as);
    s += commentLines(kind, prefix, "Name: " + in.name);
    if (!in.description.empty()) s += commentLines(kind, prefix, in.description);
    return s;
}

// The files an exported program writes, as a phrase for its head comment.
std::string outputsWritten(const Input& in, const Names& n, bool lto) {
    if (!lto) return std::string(n.ptx);
    return fmt::format("{}, {}, {} and {}", n.ptx,
                       in.ltoMode == lto::Mode::Program ? n.ltoIr : std::string("one LTO-IR per module"), n.linkedPtx,
                       n.cubin);
}

// Workspace text in a sentence for commentLines, which escapes it.
std::string runSentence(const gpu::RunConfig& run) {
    return fmt::format(
        "launches {} as run configuration '{}' does (grid {}, block {}, {} bytes of dynamic shared "
        "memory)",
        run.kernel, runName(run), dims(run.grid), dims(run.block), run.sharedBytes);
}

// ---------------------------------------------------------------------------------------------
// cuda.core

std::string pyBool(std::string_view value) {
    return value == "1" || value == "on" || value == "true" ? "True" : "False";
}

// ProgramOptions' keyword arguments for the typed options, and what they leave out.
std::vector<std::string> programKeywords(const Input& in, std::vector<std::string>& notCarried) {
    std::vector<std::string> kw;
    for (const auto& info : nvvm::optionTable()) {
        if (info.outputChoice) continue;
        const auto value = in.options.get(info.name);
        if (!value) continue;
        const auto field = std::find_if(cudaCoreFields().begin(), cudaCoreFields().end(),
                                        [&](const CudaCoreField& f) { return f.option == info.name; });
        if (field == cudaCoreFields().end()) {
            notCarried.push_back(fmt::format("{}{}: cuda.core's ProgramOptions has no field that passes it to libNVVM",
                                             info.flag, info.kind == nvvm::OptionKind::Switch ? "" : *value));
            continue;
        }
        std::string v;
        if (info.kind == nvvm::OptionKind::Arch)
            v = pyString(*value);
        else if (info.name == "opt")
            v = *value == "0" ? "False" : "True";  // -opt=3 / -opt=0
        else
            v = pyBool(*value);
        kw.push_back(fmt::format("{}={}", field->field, v));
    }
    for (const auto& f : in.options.extraFlags)
        notCarried.push_back(
            fmt::format("the extra libNVVM flag {}: cuda.core's ProgramOptions passes only its own fields", f));
    if (!in.verify)
        notCarried.push_back(
            "verify off: cuda.core always runs libNVVM's verifier before it compiles, so IR that only the verifier "
            "refuses fails there");
    if (in.modules.front().lazy)
        notCarried.push_back(
            fmt::format("module {} is added lazily in the playground; as the first module it is "
                        "cuda.core's program, which it adds eagerly",
                        in.modules.front().name));
    // The lazy ones go in after the eager ones (cuda.core adds extra_sources when it makes the Program).
    bool eagerAfterLazy = false, lazySeen = false;
    for (size_t i = 1; i < in.modules.size(); ++i) {
        eagerAfterLazy |= lazySeen && !in.modules[i].lazy;
        lazySeen |= in.modules[i].lazy;
    }
    if (eagerAfterLazy)
        notCarried.push_back(
            "the module order: cuda.core adds the eager modules (extra_sources) when it makes the Program, so the "
            "lazy ones go in after all of them, not between them as in the playground");
    return kw;
}

// LinkerOptions' keyword arguments from nvJitLink's options as the playground passes them
// (lto::linkOptionsFor, the one table of them).
std::vector<std::string> linkerKeywords(const Input& in, std::vector<std::string>& notCarried) {
    std::vector<std::string> kw{fmt::format("arch={}", pyString(nvvm::smArchFor(*in.options.arch))),
                                "link_time_optimization=True"};
    for (const auto& flag : lto::linkOptionsFor(in.options)) {
        const auto eq = flag.find('=');
        const std::string name = flag.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : flag.substr(eq + 1);
        if (support::startsWith(flag, "-O"))
            kw.push_back("optimization_level=" + flag.substr(2));
        else if (flag == "-g")
            kw.push_back("debug=True");
        else if (flag == "-lineinfo")
            kw.push_back("lineinfo=True");
        else if (name == "-ftz" || name == "-prec-div" || name == "-prec-sqrt" || name == "-fma")
            // cuda-core 1.2 writes LinkerOptions(fma=True) as -fma=true, which the libNVVM inside
            // nvJitLink refuses ("-fma=true is an unsupported option"): the link goes without it.
            notCarried.push_back(fmt::format(
                "nvJitLink's {}: cuda.core's LinkerOptions writes it as {}={}, which nvJitLink's LTO refuses, so "
                "the link goes without it",
                flag, name, value == "1" ? "true" : "false"));
        else
            notCarried.push_back(
                fmt::format("nvJitLink's {}: cuda.core's LinkerOptions has no field that passes it", flag));
    }
    return kw;
}

std::string pyScalar(const Arg& a) {
    const auto& info = gpu::elemInfo(a.spec.type);
    static const std::map<gpu::ElemType, std::string_view> numpy = {
        {gpu::ElemType::I8, "int8"},     {gpu::ElemType::I16, "int16"},   {gpu::ElemType::I32, "int32"},
        {gpu::ElemType::I64, "int64"},   {gpu::ElemType::U8, "uint8"},    {gpu::ElemType::U16, "uint16"},
        {gpu::ElemType::U32, "uint32"},  {gpu::ElemType::U64, "uint64"},  {gpu::ElemType::F16, "float16"},
        {gpu::ElemType::F32, "float32"}, {gpu::ElemType::F64, "float64"},
    };
    // Floats as text: the shortest digits read back as the same value, and "inf", "nan" too.
    return fmt::format("np.{}({})", numpy.at(a.spec.type), info.isFloat ? pyString(a.value) : a.value);
}

std::string cudaCoreScript(const Input& in, const Names& n, const std::vector<ModuleFile>& mods,
                           const std::vector<Arg>& args, bool lto, std::vector<std::string>& notCarried,
                           std::string& howToRun) {
    const auto kw = programKeywords(in, notCarried);
    const auto linkKw = lto ? linkerKeywords(in, notCarried) : std::vector<std::string>{};
    const std::string script = n.stem + ".py";
    const bool anyLazy = std::any_of(in.modules.begin() + 1, in.modules.end(), [](const auto& m) { return m.lazy; });
    std::string s;
    const auto line = [&s](std::string_view l = {}) {
        s += l;
        s += '\n';
    };
    line("#!/usr/bin/env python3");
    line("# -*- coding: utf-8 -*-");
    s += headTitle(Comment::Hash, "# ", in, "cuda-core");
    line("#");
    const std::string outputs = outputsWritten(in, n, lto);
    s += commentLines(
        Comment::Hash, "# ",
        fmt::format("The same program built with cuda.core's NVVM backend: Program(..., \"nvvm\") over the "
                    "modules in the workspace's order (the first is the program, the rest its "
                    "extra_sources), with the options the playground compiled it with. It writes {} to "
                    "OUTPUT_FOLDER (default: the current folder) {}",
                    outputs,
                    in.run ? fmt::format("before it looks for a GPU; with one, it {}, and writes each "
                                         "buffer after the launch as outputs/argK.npy there.",
                                         runSentence(*in.run))
                           : std::string("and needs no GPU.")));
    line("#");
    howToRun = fmt::format(
        "pip install cuda-core \"cuda-bindings==13.*\"{}\nCUDA_HOME=/usr/local/cuda python3 {} [OUTPUT_FOLDER]",
        in.run ? " \"numpy>=2.1\"" : "", script);
    for (const auto& l : support::splitLines(howToRun)) line(fmt::format("#   {}", l));
    line("#");
    s += commentLines(Comment::Hash, "# ",
                      fmt::format("CUDA_HOME names the toolkit whose libNVVM and libdevice cuda.core uses. Exit "
                                  "status: 0 done, 1 the compile{} failed{}.",
                                  in.run ? " or the launch" : "", in.run ? ", 3 no GPU to launch on" : ""));
    if (!notCarried.empty()) {
        line("#");
        s += commentLines(Comment::Hash, "# ",
                          "Not carried: the playground used these, and cuda.core cannot express them, so the results "
                          "here may differ from the playground's:");
        for (const auto& w : notCarried) s += commentLines(Comment::Hash, "#   ", "- " + w, "  ");
    }
    line();
    line("import sys");
    line("from pathlib import Path");
    line();
    if (in.run) line("import numpy as np");
    if (anyLazy) line("from cuda.bindings import nvvm");
    line(lto ? "from cuda.core import Linker, LinkerOptions, Program, ProgramOptions"
             : "from cuda.core import Program, ProgramOptions");
    line();
    line("HERE = Path(__file__).resolve().parent");
    line("# (the name libNVVM knows the module by, its file, whether it is added lazily), in the workspace's order.");
    line("MODULES = [");
    for (const auto& m : mods)
        line(fmt::format("    ({}, {}, {}),", pyString(m.module->name), pyString(m.path),
                         m.module->lazy ? "True" : "False"));
    line("]");
    if (lto && in.ltoMode == lto::Mode::Separate) {
        line("# LTO mode 'separate': each module is a program of its own, and nvJitLink links their LTO-IR.");
        line("LTOIR_FILES = [");
        for (const auto& f : n.moduleLtoIr) line(fmt::format("    {},", pyString(f)));
        line("]");
    }
    line();
    line();
    line("def source(path):");
    line("    \"\"\"Text IR as str, bitcode as bytes, as cuda.core tells them apart.\"\"\"");
    line("    data = (HERE / path).read_bytes()");
    line("    return data if path.endswith(\".bc\") else data.decode(\"utf-8\")");
    line();
    line();
    line("def program(modules):");
    line("    options = ProgramOptions(");
    line("        name=modules[0][0],");
    for (const auto& k : kw) line(fmt::format("        {},", k));
    if (in.libdevice) line("        use_libdevice=True,  # added lazily: only what the modules call is linked");
    line("        extra_sources=[(name, source(path)) for name, path, lazy in modules[1:] if not lazy] or None,");
    line("    )");
    if (!anyLazy) {
        line("    return Program(source(modules[0][1]), \"nvvm\", options=options)");
    } else {
        line("    whole = Program(source(modules[0][1]), \"nvvm\", options=options)");
        line("    # cuda.core has no option for a lazily added module; libNVVM's own call (cuda.bindings) does it.");
        line("    for name, path, lazy in modules[1:]:");
        line("        if lazy:");
        line("            data = (HERE / path).read_bytes()");
        line("            nvvm.lazy_add_module_to_program(int(whole.handle), data, len(data), name)");
        line("    return whole");
    }
    line();
    line();
    line("def write(out, name, data):");
    line("    (out / name).write_bytes(data)");
    line("    print(f\"wrote {out / name}\")");
    line();
    line();
    line("def build(out):");
    line("    \"\"\"Compiles (and links) the program and writes its outputs; the code to launch.\"\"\"");
    line("    whole = program(MODULES)");
    line("    ptx = whole.compile(\"ptx\", logs=sys.stderr)");
    line("    # libNVVM's result ends with a NUL that is no part of the PTX text.");
    line(fmt::format("    write(out, {}, bytes(ptx.code).rstrip(b\"\\0\"))", pyString(n.ptx)));
    if (lto) {
        if (in.ltoMode == lto::Mode::Program) {
            line("    # LTO-IR of the same program (cuda.core adds -gen-lto).");
            line("    ltoirs = [whole.compile(\"ltoir\", logs=sys.stderr)]");
            line(fmt::format("    write(out, {}, bytes(ltoirs[0].code))", pyString(n.ltoIr)));
        } else {
            line("    ltoirs = []");
            line("    for (module, path, lazy), name in zip(MODULES, LTOIR_FILES):");
            line("        # Alone in its program a module has nothing to be lazy for: it is added eagerly.");
            line("        ltoirs.append(program([(module, path, False)]).compile(\"ltoir\", logs=sys.stderr))");
            line("        write(out, name, bytes(ltoirs[-1].code))");
        }
        line("    # nvJitLink drops every kernel that is not in @llvm.used, and says nothing.");
        line("    link = dict(");
        for (const auto& k : linkKw) line(fmt::format("        {},", k));
        line("    )");
        line("    linked = Linker(*ltoirs, options=LinkerOptions(ptx=True, **link)).link(\"ptx\")");
        line(fmt::format("    write(out, {}, bytes(linked.code).rstrip(b\"\\0\"))", pyString(n.linkedPtx)));
        line("    cubin = Linker(*ltoirs, options=LinkerOptions(**link)).link(\"cubin\")");
        line(fmt::format("    write(out, {}, bytes(cubin.code))", pyString(n.cubin)));
        line(in.run && in.run->fromLto ? "    return cubin" : "    return ptx");
    } else {
        line("    return ptx");
    }
    if (in.run) {
        const auto& run = *in.run;
        line();
        line();
        line(fmt::format("KERNEL = {}", pyString(run.kernel)));
        line(fmt::format("GRID = {}", dims(run.grid)));
        line(fmt::format("BLOCK = {}", dims(run.block)));
        line(fmt::format("SHARED_BYTES = {}", run.sharedBytes));
        line("# The arguments as the run configuration's SPECs give them: a buffer is the .npy file of its");
        line("# starting contents, None a null pointer.");
        line("ARGS = [");
        for (const auto& a : args) {
            std::string v = a.spec.kind == gpu::ArgSpec::Buffer        ? pyString(a.file)
                            : a.spec.kind == gpu::ArgSpec::NullPointer ? "None"
                                                                       : pyScalar(a);
            line(fmt::format("    {},  # {}", v, commentText(Comment::Hash, a.spec.text)));
        }
        line("]");
        line();
        line();
        line("def launch_kernel(out, code):");
        line("    try:");
        line("        from cuda.core import Device, LaunchConfig, LegacyPinnedMemoryResource, launch");
        line();
        line("        device = Device(0)");
        line("        device.set_current()");
        line("    except Exception as e:  # no driver, no device");
        line("        print(f\"no GPU to launch {KERNEL} on: {e}; the outputs above are written\", file=sys.stderr)");
        line("        return 3");
        line("    stream = device.create_stream()");
        line("    pinned = LegacyPinnedMemoryResource()");
        line("    kernel = code.get_kernel(KERNEL)");
        line("    args, buffers = [], []");
        line("    for k, arg in enumerate(ARGS):");
        line("        if isinstance(arg, str):");
        line("            data = np.load(HERE / arg)");
        line("            host = pinned.allocate(data.nbytes)");
        line("            np.from_dlpack(host).view(data.dtype)[:] = data.reshape(-1)");
        line("            buffer = device.allocate(data.nbytes, stream=stream)");
        line("            buffer.copy_from(host, stream=stream)");
        line("            buffers.append((k, data, host, buffer))");
        line("            args.append(buffer)");
        line("        else:");
        line("            args.append(np.uint64(0) if arg is None else arg)  # None: a null pointer");
        line("    config = LaunchConfig(grid=GRID, block=BLOCK, shmem_size=SHARED_BYTES)");
        line("    launch(stream, config, kernel, *args)");
        line("    for k, data, host, buffer in buffers:");
        line("        buffer.copy_to(host, stream=stream)");
        line("    stream.sync()");
        line("    (out / \"outputs\").mkdir(parents=True, exist_ok=True)");
        line("    for k, data, host, buffer in buffers:");
        line("        result = np.from_dlpack(host).view(data.dtype).reshape(data.shape).copy()");
        line("        np.save(out / \"outputs\" / f\"arg{k}.npy\", result)");
        line("        print(f\"wrote {out / 'outputs' / f'arg{k}.npy'}\")");
        line("    return 0");
    }
    line();
    line();
    line("def main():");
    line("    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd()");
    line("    out.mkdir(parents=True, exist_ok=True)");
    line("    try:");
    line("        code = build(out)");
    line("    except Exception as e:  # libNVVM's or nvJitLink's log is in the message");
    line("        print(f\"the compile failed: {e}\", file=sys.stderr)");
    line("        return 1");
    if (in.run) {
        line("    try:");
        line("        return launch_kernel(out, code)");
        line("    except Exception as e:");
        line("        print(f\"the launch failed: {e}\", file=sys.stderr)");
        line("        return 1");
    } else {
        line("    return 0 if code else 1");
    }
    line();
    line();
    line("if __name__ == \"__main__\":");
    line("    sys.exit(main())");
    return s;
}

// ---------------------------------------------------------------------------------------------
// C

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

}  // namespace

support::Result<Output> generate(Target target, const Input& in) {
    if (in.modules.empty())
        return makeError(ErrorKind::Usage, "nothing to export: the workspace has no modules; add one, then export");
    if (!in.options.arch || in.options.arch->empty())
        return makeError(ErrorKind::Usage,
                         "the export needs the arch the program is compiled for (compile it first, or give --arch)");
    if (in.options.genLto)
        return makeError(ErrorKind::Usage, "gen-lto is chosen through the LTO outputs (--lto), not as an option");
    const bool lto = in.lto || (in.run && in.run->fromLto);
    if (in.run && !in.ptx.empty()) {
        const auto parsed = ptx::readPtx(in.ptx);
        const auto* kernel = parsed.find(in.run->kernel);
        if (!kernel) {
            std::vector<std::string> kernels;
            for (const auto& f : parsed.functions)
                if (f.isEntry) kernels.push_back(f.name);
            return makeError(
                ErrorKind::Usage,
                fmt::format("run configuration '{}' launches {}, which the PTX does not have (its "
                            "kernels: {}); choose another run configuration, or --no-run",
                            runName(*in.run), in.run->kernel, kernels.empty() ? "none" : support::join(kernels, ", ")));
        }
        if (auto st = gpu::checkRunConfig(*in.run, *kernel); !st)
            return makeError(st.error().kind,
                             fmt::format("run configuration '{}': {}", runName(*in.run), st.error().message));
    }

    Output out;
    const auto names = namesFor(in);
    const auto mods = moduleFiles(in.modules);
    std::vector<Arg> args;
    std::vector<File> inputs;
    out.inputs = in.sources;
    if (in.run)
        for (const auto& a : in.run->args)
            if (a.kind == gpu::ArgSpec::Buffer &&
                (a.init.kind == gpu::BufferInit::NpyFile || a.init.kind == gpu::BufferInit::RawFile))
                out.inputs.push_back(in.baseDir / a.init.file);
    if (in.run) {
        auto got = runArgs(in, inputs);
        if (!got) return got.error();
        args = std::move(*got);
    }
    if (target == Target::CudaCore) {
        out.entry = names.stem + ".py";
        out.files.push_back({out.entry, cudaCoreScript(in, names, mods, args, lto, out.warnings, out.howToRun)});
    } else {
        out.entry = "CMakeLists.txt";
        out.files.push_back({names.stem + ".c", cProgram(in, names, mods, args, lto)});
        out.files.push_back({"CMakeLists.txt", cmakeLists(in, names, lto)});
        out.howToRun = fmt::format(
            "cmake -S . -B build -DCUDA_HOME=/usr/local/cuda && cmake --build build\n./build/{} [OUTPUT_FOLDER]",
            names.stem);
    }
    for (const auto& m : mods) out.files.push_back({m.path, m.module->bytes});
    for (auto& f : inputs) out.files.push_back(std::move(f));
    return out;
}

}  // namespace nvpg::exporting
