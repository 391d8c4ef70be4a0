#include "core/export/Export.h"

#include <set>

#include <fmt/format.h>

#include "core/export/CodeText.h"
#include "core/export/Writers.h"
#include "core/gpu/ArgSpec.h"
#include "core/gpu/Npy.h"
#include "core/pipeline/OutputNames.h"
#include "core/ptx/Ptx.h"
#include "core/support/Text.h"

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

namespace detail {

std::string dims(const gpu::Dim3& d) {
    return fmt::format("({}, {}, {})", d.x, d.y, d.z);
}

std::string runName(const gpu::RunConfig& run) {
    return run.name.empty() ? "(unnamed)" : run.name;
}

std::string headTitle(Comment kind, std::string_view prefix, const Input& in, std::string_view as) {
    std::string s = fmt::format("{}Exported from NVVM Playground (nvpg export --as {}).\n", prefix, as);
    s += commentLines(kind, prefix, "Name: " + in.name);
    if (!in.description.empty()) s += commentLines(kind, prefix, in.description);
    return s;
}

std::string outputsWritten(const Input& in, const Names& n, bool lto) {
    if (!lto) return std::string(n.ptx);
    return fmt::format("{}, {}, {} and {}", n.ptx,
                       in.ltoMode == lto::Mode::Program ? n.ltoIr : std::string("one LTO-IR per module"), n.linkedPtx,
                       n.cubin);
}

std::string runSentence(const gpu::RunConfig& run) {
    return fmt::format(
        "launches {} as run configuration '{}' does (grid {}, block {}, {} bytes of dynamic shared "
        "memory)",
        run.kernel, runName(run), dims(run.grid), dims(run.block), run.sharedBytes);
}

namespace {

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

}  // namespace
}  // namespace detail

support::Result<Output> generate(Target target, const Input& in) {
    using namespace detail;
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
