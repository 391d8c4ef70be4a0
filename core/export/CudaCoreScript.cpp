#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/export/CodeText.h"
#include "core/export/Template.h"
#include "core/export/Writers.h"
#include "core/gpu/ElemType.h"
#include "core/lto/Linker.h"
#include "core/support/Text.h"

// The cuda.core target: a Python script over cuda.core's NVVM backend, from the template
// resources/export/script.py.in.
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
    TemplateFill fill;
    auto& v = fill.values;
    fill.sections = {{"not_carried", !notCarried.empty()},
                     {"run", in.run.has_value()},
                     {"lazy", anyLazy},
                     {"lto", lto},
                     {"lto_program", lto && in.ltoMode == lto::Mode::Program},
                     {"lto_separate", lto && in.ltoMode == lto::Mode::Separate},
                     {"libdevice", in.libdevice},
                     {"run_from_lto", in.run && in.run->fromLto}};
    v["head"] = headTitle(Comment::Hash, "# ", in, "cuda-core");
    const std::string outputs = outputsWritten(in, n, lto);
    v["about"] = commentLines(
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
    howToRun = fmt::format(
        "pip install cuda-core \"cuda-bindings==13.*\"{}\nCUDA_HOME=/usr/local/cuda python3 {} [OUTPUT_FOLDER]",
        in.run ? " \"numpy>=2.1\"" : "", script);
    v["how_to_run"] = "";
    for (const auto& l : support::splitLines(howToRun)) v["how_to_run"] += fmt::format("#   {}\n", l);
    v["exit_status"] =
        commentLines(Comment::Hash, "# ",
                     fmt::format("CUDA_HOME names the toolkit whose libNVVM and libdevice cuda.core "
                                 "uses. Exit status: 0 done, 1 the compile{} failed{}.",
                                 in.run ? " or the launch" : "", in.run ? ", 3 no GPU to launch on" : ""));
    if (!notCarried.empty()) {
        v["not_carried"] = commentLines(Comment::Hash, "# ",
                                        "Not carried: the playground used these, and cuda.core cannot express them, "
                                        "so the results here may differ from the playground's:");
        for (const auto& w : notCarried) v["not_carried"] += commentLines(Comment::Hash, "#   ", "- " + w, "  ");
    }
    v["modules"] = "";
    for (const auto& m : mods)
        v["modules"] += fmt::format("    ({}, {}, {}),\n", pyString(m.module->name), pyString(m.path),
                                    m.module->lazy ? "True" : "False");
    v["program_options"] = "";
    for (const auto& k : kw) v["program_options"] += fmt::format("        {},\n", k);
    v["ptx_file"] = pyString(n.ptx);
    if (lto) {
        if (in.ltoMode == lto::Mode::Separate) {
            v["ltoir_files"] = "";
            for (const auto& f : n.moduleLtoIr) v["ltoir_files"] += fmt::format("    {},\n", pyString(f));
        } else {
            v["ltoir_file"] = pyString(n.ltoIr);
        }
        v["link_options"] = "";
        for (const auto& k : linkKw) v["link_options"] += fmt::format("        {},\n", k);
        v["linked_ptx_file"] = pyString(n.linkedPtx);
        v["cubin_file"] = pyString(n.cubin);
    }
    if (in.run) {
        const auto& run = *in.run;
        v["kernel"] = pyString(run.kernel);
        v["grid"] = dims(run.grid);
        v["block"] = dims(run.block);
        v["shared_bytes"] = std::to_string(run.sharedBytes);
        v["args"] = "";
        for (const auto& a : args) {
            const std::string value = a.spec.kind == gpu::ArgSpec::Buffer        ? pyString(a.file)
                                      : a.spec.kind == gpu::ArgSpec::NullPointer ? "None"
                                                                                 : pyScalar(a);
            v["args"] += fmt::format("    {},  # {}\n", value, commentText(Comment::Hash, a.spec.text));
        }
    }
    return fillBuiltIn("script.py.in", fill);
}

}  // namespace nvpg::exporting::detail
