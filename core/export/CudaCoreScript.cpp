#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/export/CodeText.h"
#include "core/export/Writers.h"
#include "core/gpu/ElemType.h"
#include "core/lto/Linker.h"
#include "core/support/Text.h"

// The cuda.core target: a Python script over cuda.core's NVVM backend.
namespace nvpg::exporting::detail {

namespace {

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

}  // namespace

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

}  // namespace nvpg::exporting::detail
