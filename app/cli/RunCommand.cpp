#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "cli/Commands.h"
#include "cli/Output.h"
#include "core/engine/Runner.h"
#include "core/gpu/Npy.h"
#include "core/pipeline/Pipeline.h"
#include "core/support/Files.h"
#include "core/support/Symbols.h"
#include "core/support/Text.h"
#include "core/workspace/Workspace.h"

namespace fs = std::filesystem;

namespace nvpg::cli {

void addRunOptions(CLI::App& cmd, RunOptions& r) {
    cmd.add_option("--kernel", r.kernel, "the kernel (.entry) to launch");
    cmd.add_option("--grid", r.grid, "blocks: X[,Y[,Z]]");
    cmd.add_option("--block", r.block, "threads per block: X[,Y[,Z]]");
    cmd.add_option("--shared", r.shared, "bytes of dynamic shared memory (default 0)");
    cmd.add_option("--arg", r.args,
                   "one per kernel parameter, in order: i32:5 u64:4096 f32:2.5 f64:1e-3 ptr:null "
                   "buf:f32:4096:zeros buf:f32:4096:const:1.5 buf:i32:4096:iota buf:f64:4096:random:SEED "
                   "buf:@FILE.npy buf:f32:@FILE.bin")
        ->allow_extra_args(false);
    cmd.add_option("--repeat", r.repeat, "launch N times; the time is the median")->check(CLI::PositiveNumber);
    cmd.add_option("--save-outputs", r.saveOutputs, "write each buffer after the run to DIR/argK.npy");
    cmd.add_option("--from", r.from, "run the PTX (default) or the LTO cubin")->check(CLI::IsMember({"ptx", "lto"}));
    cmd.add_option("--config", r.config, "with a workspace: the run configuration to use (default: its first)");
    cmd.add_option("--timeout", r.timeout, "seconds a launch may take before it is stopped (default 10)")
        ->check(CLI::PositiveNumber);
    cmd.add_option("--device", r.device, "the GPU to use (default 0)")->check(CLI::NonNegativeNumber);
    cmd.add_flag("--allow-outside-files", r.allowOutsideFiles,
                 "let the workspace's run configuration read buffer files outside the workspace's folder "
                 "(absolute paths, '..', links that lead out)");
}

namespace {

std::string preview(const gpu::BufferOut& b) {
    const auto& info = gpu::elemInfo(b.type);
    std::vector<std::string> parts;
    auto at = [&](size_t i) { return gpu::formatElement(b.type, b.bytes.data() + i * info.size); };
    if (b.count <= 8) {
        for (size_t i = 0; i < b.count; ++i) parts.push_back(at(i));
    } else {
        for (size_t i = 0; i < 4; ++i) parts.push_back(at(i));
        parts.push_back("…");
        for (size_t i = b.count - 4; i < b.count; ++i) parts.push_back(at(i));
    }
    return support::join(parts, " ");
}

// Whether --save-outputs DIR can take the argK.npy files: checked before the compile and the run,
// so that a long run is not lost at its end. DIR need not exist yet; the folder it would be made
// in must be writable. The error says what is wrong.
std::optional<std::string> saveOutputsProblem(const std::string& dir) {
    const auto say = [&](const std::string& problem) {
        return fmt::format("--save-outputs {}: {}", dir.empty() ? "''" : dir, problem);
    };
    if (dir.empty()) return say("needs a folder for the argK.npy files");
    std::error_code ec;
    fs::path p(dir);
    if (fs::exists(fs::symlink_status(p, ec)) && !fs::exists(fs::status(p, ec)))
        return say("is a symbolic link to nothing; give a folder for the argK.npy files");
    // The folder itself, or the nearest folder above it that exists (where it would be made).
    fs::path existing = p;
    while (!existing.empty() && !fs::exists(fs::status(existing, ec))) existing = existing.parent_path();
    if (existing.empty()) existing = ".";
    if (!fs::is_directory(existing, ec)) {
        if (existing == p) return say("is a file, not a folder; give a folder for the argK.npy files");
        return say(fmt::format("cannot be made: {} is a file, not a folder", existing.string()));
    }
    if (::access(existing.c_str(), W_OK | X_OK) != 0) {
        const std::string why = std::strerror(errno);
        if (existing == p) return say(fmt::format("the folder is not writable ({})", why));
        return say(fmt::format("cannot be made in {} ({})", existing.string(), why));
    }
    return std::nullopt;
}

}  // namespace

support::Result<std::optional<gpu::RunConfig>> workspaceRun(const JobInputs& inputs, const std::string& input,
                                                            const std::optional<std::string>& config,
                                                            bool allowOutsideFiles, std::string_view verb) {
    const auto bad = [](std::string message) {
        return support::makeError(support::ErrorKind::Usage, std::move(message));
    };
    if (!inputs.workspace || inputs.workspace->runs.empty()) {
        if (config)
            return bad(fmt::format("--config {}: run configurations come from a workspace (.nvpg), and {} has none",
                                   *config, input));
        return std::optional<gpu::RunConfig>();
    }
    const auto& runs = inputs.workspace->runs;
    size_t pick = 0;
    bool found = !config;
    std::vector<std::string> names;
    for (size_t i = 0; i < runs.size(); ++i) {
        const auto& name = runs[i].name;
        names.push_back(workspace::runLabel(runs, i));
        if (config && (name == *config || fmt::format("#{}", i) == *config)) {
            pick = i;
            found = true;
        }
    }
    if (!found)
        return bad(fmt::format("no run configuration {} in {}; it has {}", *config, input, support::join(names, ", ")));
    if (!allowOutsideFiles)
        for (const auto& outside : workspace::filesOutsideFolder(runs, inputs.baseDir))
            if (outside.run == pick)
                return bad(fmt::format("{}: {}; give --allow-outside-files to read it", input,
                                       workspace::describeOutsideFile(runs, outside, inputs.baseDir)));
    if (!config && runs.size() > 1)
        std::fprintf(stderr, "nvpg: %s configuration %s (the first; --config picks another of %s)\n",
                     std::string(verb).c_str(), support::printable(names[0]).c_str(),
                     support::printable(support::join(names, ", ")).c_str());
    return std::optional<gpu::RunConfig>(runs[pick]);  // checked when the workspace was read
}

int runRun(const CommonOptions& common, const CompileOptions& o, const RunOptions& r) {
    auto inputs = jobFromArgs(o);
    if (!inputs) return usage(inputs.error().message);
    noteLibdeviceRule(*inputs);
    if (r.saveOutputs)
        if (auto problem = saveOutputsProblem(*r.saveOutputs)) return usage(*problem);

    // The configuration: the workspace's (when there is one), then the command line on top.
    // Files named by the workspace, not by the person typing: one from elsewhere is asked for.
    auto picked = workspaceRun(*inputs, o.inputs[0], r.config, !r.args.empty() || r.allowOutsideFiles, "running");
    if (!picked) return usage(picked.error().message);
    gpu::RunConfig config = picked->value_or(gpu::RunConfig{});
    if (r.kernel) config.kernel = *r.kernel;
    if (r.grid) {
        auto d = gpu::parseDim3(*r.grid, "--grid");
        if (!d) return usage(d.error().message);
        config.grid = *d;
    }
    if (r.block) {
        auto d = gpu::parseDim3(*r.block, "--block");
        if (!d) return usage(d.error().message);
        config.block = *d;
    }
    if (r.shared) config.sharedBytes = r.shared;
    if (!r.args.empty()) {
        config.args.clear();
        for (const auto& text : r.args) {
            auto spec = gpu::parseArgSpec(text);
            if (!spec) return usage(spec.error().message);
            config.args.push_back(std::move(*spec));
        }
    }
    // The argK.npy files --save-outputs will write must not replace an input: a module, or a
    // buffer's file (buf:@DIR/arg0.npy with --save-outputs DIR). Each argument that could be saved
    // is checked, before the compile and the run.
    if (r.saveOutputs) {
        std::vector<std::string> inputFiles = inputs->files;
        for (const auto& a : config.args)
            if (a.kind == gpu::ArgSpec::Buffer &&
                (a.init.kind == gpu::BufferInit::NpyFile || a.init.kind == gpu::BufferInit::RawFile))
                inputFiles.push_back(
                    (a.init.file.is_absolute() ? a.init.file : inputs->baseDir / a.init.file).string());
        std::vector<std::pair<std::string, std::string>> outputs;
        for (size_t k = 0; k < config.args.size(); ++k)
            if (config.args[k].kind == gpu::ArgSpec::Buffer)
                outputs.emplace_back("--save-outputs",
                                     (fs::path(*r.saveOutputs) / fmt::format("arg{}.npy", k)).string());
        if (auto onto = outputOntoInput(outputs, inputFiles)) return usage(*onto);
    }
    if (r.repeat != 1) config.repeat = r.repeat;
    if (r.timeout != 10) config.timeoutSeconds = r.timeout;
    if (r.from) config.fromLto = *r.from == "lto";

    auto& job = inputs->job;
    job.outputs = pipeline::kPtx | (config.fromLto ? pipeline::kLtoPtx | pipeline::kCubin : 0u);
    // With --on the far engine compiles and runs, on one connection: nothing of CUDA is used here.
    auto loaded = loadToolkit(common);
    if (!loaded) return usage(loaded.error().message);
    const auto tk = std::move(*loaded);
    auto compiler = makeCompiler(common, tk, !o.noCache);
    auto compiled = compiler.run(job);
    if (!compiled) return compileFailed(compiled.error());
    printDiagnostics(compiled->diagnostics);
    if (!compiled->ok) return kCompileError;

    // Kernels run in an engine process (this executable again), so that one that faults or hangs
    // cannot take this process, or the next run, with it.
    std::optional<engine::Runner> runner;
    if (common.far) {
        auto far = compiler.describeFar(/*withGpus=*/true);
        if (!far) return compileFailed(far.error());
        runner.emplace(*compiler.engineProcess(), *common.far->far, std::move(*far), r.device);
    } else {
        runner.emplace(tk, r.device, common.inProcess ? std::vector<std::string>{} : engine::engineCommand("engine"));
    }
    if (config.kernel.empty()) {
        std::vector<std::string> names;
        for (const auto* e : compiled->ptxModule.entries()) names.push_back(e->name);
        return usage(fmt::format("give --kernel NAME; the kernels are {}", support::join(names, ", ")));
    }
    auto ran = runner->run(*compiled, config, inputs->baseDir);
    if (!ran) {
        std::fprintf(stderr, "nvpg: %s\n", support::printable(ran.error().message, true).c_str());
        switch (ran.error().kind) {
            case support::ErrorKind::Environment:
                // The far connection's failures (it was cut) exit 2 as a compile's do; no GPU
                // there exits 3, as here.
                return common.far && !compiler.engineProcess()->running() ? kUsageError : kNoGpu;
            case support::ErrorKind::Usage:
            case support::ErrorKind::Input:
                return kUsageError;
            // A launch that failed or ran past its timeout, and everything else the engine said.
            case support::ErrorKind::Run:
            case support::ErrorKind::Timeout:
            default:
                return kCompileError;
        }
    }
    const auto& out = *ran;
    // The kernel as people read it (a numba symbol is 200-300 characters), cut as the tables are.
    fmt::print("{} on {}: {:.4f} ms{}, {} in, {} out, {:.1f} GB/s\n", support::tableName(out.kernel), out.device,
               out.kernelMs,
               out.launchMs.size() > 1 ? fmt::format(" (median of {} launches)", out.launchMs.size()) : "",
               support::formatBytes(out.bytesIn), support::formatBytes(out.bytesOut), out.gigabytesPerSecond());
    for (const auto& b : out.buffers)
        fmt::print("  arg {} {}[{}]: {}\n", b.arg, gpu::elemInfo(b.type).name, b.count, preview(b));
    if (r.saveOutputs) {
        std::error_code ec;
        fs::create_directories(*r.saveOutputs, ec);
        if (ec)
            return usage(fmt::format("--save-outputs {}: cannot make the folder: {}", *r.saveOutputs, ec.message()));
        for (const auto& b : out.buffers) {
            gpu::NpyArray a;
            a.type = b.type;
            a.shape = {b.count};
            a.data = b.bytes;
            const auto path = fs::path(*r.saveOutputs) / fmt::format("arg{}.npy", b.arg);
            if (auto st = support::writeFileAtomic(path, gpu::writeNpy(a), outputWriting(o)); !st)
                return usage(st.error().message);
        }
    }
    return flushStdout(kOk);
}

}  // namespace nvpg::cli
