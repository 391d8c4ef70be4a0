#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "cli/Commands.h"
#include "cli/Output.h"
#include "core/cache/ResultCache.h"
#include "core/engine/Compiler.h"
#include "core/inspect/ControlFlow.h"
#include "core/inspect/LineMap.h"
#include "core/nvvm/Diagnostic.h"
#include "core/nvvm/Options.h"
#include "core/pipeline/LiveFigures.h"
#include "core/pipeline/OccupancyReport.h"
#include "core/pipeline/OutputNames.h"
#include "core/pipeline/Pipeline.h"
#include "core/pipeline/Report.h"
#include "core/support/Files.h"
#include "core/support/Text.h"
#include "core/toolkit/Toolkit.h"
#include "core/workspace/Examples.h"
#include "core/workspace/Inputs.h"
#include "core/workspace/Workspace.h"

namespace fs = std::filesystem;

namespace nvpg::cli {

namespace {

// nvpg's option for a table option: its name, with one dash for one letter (-g), else two.
std::string cliOptionName(const nvvm::OptionInfo& info) {
    return (info.name.size() == 1 ? "-" : "--") + std::string(info.name);
}

// What --emit can write, in --help's order: the names it takes, and what some of them are.
struct EmitChoice {
    const char* name;
    const char* help;
};
constexpr EmitChoice kEmitChoices[] = {
    {"ptx", ""},
    {"ltoir", ""},
    {"lto-ptx", ""},
    {"cubin", ""},
    {"sass", "nvdisasm of the PTX's whole-program cubin"},
    {"cfg", "control-flow graphs as Graphviz DOT, one digraph per function, of the output --cfg-of names"},
};

}  // namespace

void addNvvmOptions(CLI::App& cmd, CompileOptions& o) {
    auto* on = cmd.add_flag("--libdevice", o.libdevice,
                            "link libdevice (lazily: only what the modules use); without --libdevice or "
                            "--no-libdevice, a workspace's saved choice, else linked when the modules call __nv_ "
                            "functions");
    cmd.add_flag("--no-libdevice", o.noLibdevice, "do not link libdevice, even where the modules call __nv_ functions")
        ->excludes(on);
    cmd.add_flag("--no-verify", o.noVerify,
                 "do not run libNVVM's verifier before compiling: compile IR that only the verifier refuses");
    // One option per libNVVM option of the table, under its name: --opt, --prec-div, and -g
    // (one letter, one dash). Their values are checked by Options::set, as a workspace's are.
    for (const auto& info : nvvm::optionTable()) {
        if (info.outputChoice) continue;  // gen-lto is --emit ltoir
        const std::string name(info.name);
        const std::string cliName = cliOptionName(info);
        std::string help(info.help);
        if (info.kind == nvvm::OptionKind::Arch)
            help += ": " + nvvm::allowedValues(info) + "; default: the local GPU's, else libNVVM's default";
        else if (info.kind != nvvm::OptionKind::Switch)
            help += fmt::format(": {} (libNVVM's default: {})", nvvm::allowedValues(info), info.libnvvmDefault);
        if (info.kind == nvvm::OptionKind::Switch)
            cmd.add_flag_callback(
                cliName, [&o, name] { o.nvvmOptions[name] = "on"; }, help);
        else
            cmd.add_option_function<std::string>(
                cliName, [&o, name](const std::string& v) { o.nvvmOptions[name] = v; }, help);
    }
    cmd.add_option("--nvvm-flag", o.nvvmFlags,
                   "an extra libNVVM flag, passed as written; write it with '=': --nvvm-flag=-foo")
        ->allow_extra_args(false);
    cmd.add_option("--lto-mode", o.ltoMode,
                   "program: recompile the PTX's Program with -gen-lto (default); separate: one Program per module")
        ->check(CLI::IsMember({"program", "separate"}));
}

void addInputOptions(CLI::App& cmd, CompileOptions& o) {
    cmd.add_option("INPUT", o.inputs, kInputHelp)->required();
    addNvvmOptions(cmd, o);
    cmd.add_flag("--no-cache", o.noCache,
                 "compile even when the result cache holds these inputs' result, and do not store it there");
}

void addNameOptions(CLI::App& cmd, support::NameStyle& names) {
    cmd.add_flag("--wide", names.wide,
                 fmt::format("kernel names whole in the table (by default cut in the middle to {} columns)",
                             support::kTableNameColumns));
    cmd.add_flag("--raw-names", names.raw,
                 "kernel symbols as they are in the PTX (by default demangled, without ABI tags)");
}

void addCompileOptions(CLI::App& cmd, CompileOptions& o, bool forRun) {
    addInputOptions(cmd, o);
    cmd.add_flag("--force", o.force, "replace output files that are read-only");
    if (forRun) return;
    std::vector<std::string> emitNames;
    std::string emitHelp = "what to write: ";
    for (size_t i = 0; i < std::size(kEmitChoices); ++i) {
        emitNames.emplace_back(kEmitChoices[i].name);
        emitHelp += (i == 0                             ? ""
                     : i + 1 == std::size(kEmitChoices) ? " or "
                                                        : ", ") +
                    std::string(kEmitChoices[i].name);
        if (*kEmitChoices[i].help) emitHelp += fmt::format(" ({})", kEmitChoices[i].help);
    }
    cmd.add_option("--emit", o.emit, emitHelp)->check(CLI::IsMember(emitNames));
    cmd.add_option("--cfg-of", o.cfgOf,
                   "with --emit cfg, the output whose control-flow graphs to write: ptx (default), sass (nvdisasm "
                   "-bbcfg of the SASS --emit sass writes) or ir")
        ->check(CLI::IsMember({"ptx", "sass", "ir"}));
    cmd.add_flag("--verify-only", o.verifyOnly, "run libNVVM's verifier only; write nothing");
    cmd.add_option("--report", o.report,
                   "write a JSON report: kernels, figures, libdevice functions, diagnostics, timings");
    cmd.add_option("--line-map", o.lineMap,
                   "write a JSON line map: the output lines each IR line became, in the outputs -o writes, and the "
                   "registers live at each line (from the SASS, where nvdisasm is found)");
    cmd.add_flag("--live", o.live,
                 "with --emit sass: write the registers live at each instruction beside it (nvdisasm -lrm count)");
    cmd.add_option("-o,--output", o.output, "output file; default: stdout for text outputs");
}

namespace {

bool writeOut(const std::optional<std::string>& path, const std::string& bytes, bool binary,
              const support::WriteOptions& options, std::string& error) {
    if (!path || *path == "-") {
        if (binary && ::isatty(STDOUT_FILENO)) {
            error = "this output is binary: write it to a file with -o FILE";
            return false;
        }
        if (auto failed = writeStdout(bytes)) {
            error = *failed;
            return false;
        }
        return true;
    }
    if (auto st = support::writeFileAtomic(*path, bytes, options); !st) {
        error = st.error().message;
        return false;
    }
    return true;
}

}  // namespace

// An output onto an input would replace the source with what it compiled to; two outputs onto
// one file would leave only the second. Files are compared by identity (device and inode), so
// a link or another spelling of the input's name is caught too.
std::optional<std::string> outputOntoInput(const std::vector<std::pair<std::string, std::string>>& outputs,
                                           const std::vector<std::string>& inputs) {
    const std::vector<fs::path> inputPaths(inputs.begin(), inputs.end());
    for (const auto& [option, file] : outputs)
        if (const auto input = support::inputOverwrittenBy(file, inputPaths))
            return fmt::format("{} {} is the input {}: writing there would replace it; write to another file", option,
                               file, input->string());
    for (size_t i = 0; i < outputs.size(); ++i)
        for (size_t k = i + 1; k < outputs.size(); ++k) {
            const auto& a = outputs[i].second;
            const auto& b = outputs[k].second;
            if (support::sameFile(a, b) || fs::absolute(a).lexically_normal() == fs::absolute(b).lexically_normal())
                return fmt::format("{} and {} name the same file ({}): give each its own", outputs[i].first,
                                   outputs[k].first, b);
        }
    return std::nullopt;
}

namespace {

// Every file this compile will write: the options' own and the ones derived from -o (one LTO-IR
// per module in separate LTO mode: out.MODULE.ltoir, which can be an input's name).
std::vector<std::pair<std::string, std::string>> compileOutputs(const CompileOptions& o, const pipeline::Job& job) {
    std::vector<std::pair<std::string, std::string>> outputs;
    if (o.output && *o.output != "-") {
        if (o.emit == "ltoir" && job.ltoMode == lto::Mode::Separate && job.modules.size() > 1) {
            std::vector<std::string> names;
            for (const auto& m : job.modules) names.push_back(m.name);
            for (const auto& path : pipeline::perModulePaths(*o.output, names))
                outputs.emplace_back("-o (with --lto-mode separate, one LTO-IR per module)", path);
        } else {
            outputs.emplace_back("-o", *o.output);
        }
    }
    if (o.report) outputs.emplace_back("--report", *o.report);
    if (o.lineMap) outputs.emplace_back("--line-map", *o.lineMap);
    return outputs;
}

// The inputs as files: a bare name (no folder) that is no file but a bundled example's name is
// that example's .nvpg; a file of that name wins. The rest stay as written, for the checks in
// jobFromArgs to report on.
support::Result<std::vector<std::string>> inputFiles(const std::vector<std::string>& inputs) {
    std::vector<std::string> files;
    for (const auto& input : inputs) {
        const fs::path given(input);
        if (input.empty() || given.has_parent_path()) {
            files.push_back(input);
        } else if (auto file = workspace::workspaceArgument(input)) {
            files.push_back(file->string());
        } else if (const auto ext = given.extension(); ext.empty() || ext == ".nvpg") {
            // Written as an example's name is; a missing .ll or .bc keeps the error its read gives.
            return support::makeError(
                support::ErrorKind::Usage,
                fmt::format("{}: no such file, and no bundled example has that name; `nvpg examples` lists them",
                            input));
        } else {
            files.push_back(input);
        }
    }
    return files;
}

// Each kernel's occupancy at the workspace's run configurations' blocks, else at 128 and 256.
void addOccupancy(nlohmann::ordered_json& report, const pipeline::CompileResult& r, const JobInputs& inputs) {
    const std::vector<gpu::RunConfig> noRuns;
    const auto& runs = inputs.workspace ? inputs.workspace->runs : noRuns;
    report["occupancy"] = pipeline::occupancyJson(pipeline::kernelOccupancy(
        r, [&](const std::string& kernel) { return pipeline::reportLaunches(kernel, runs); }));
}

// --emit cfg: the graphs of each function of the PTX, or of each text module's defines.
support::Result<std::string> cfgDot(const std::string& of, const pipeline::Job& job, const pipeline::CompileResult& r) {
    if (of == "ptx") return inspect::toDot(inspect::cfgFromPtx(r.ptx));
    if (of == "sass") {
        if (r.sass.empty()) return support::makeError(support::ErrorKind::Environment, "no SASS: " + r.sassUnavailable);
        if (r.sassGraph.empty())
            return support::makeError(support::ErrorKind::Environment,
                                      "no SASS control-flow graph: " + r.sassGraphUnavailable);
        return inspect::toDot(inspect::cfgFromSass(r.sassGraph, r.sass));
    }
    std::string dot;
    for (const auto& m : job.modules) {
        if (m.isBitcode())
            return support::makeError(
                support::ErrorKind::Usage,
                fmt::format("--cfg-of ir: {} is bitcode; give its text (llvm-dis-14 writes it), or --cfg-of ptx",
                            m.name));
        dot += inspect::toDot(inspect::cfgFromIr(m.bytes));
    }
    return dot;
}

}  // namespace

support::WriteOptions outputWriting(const CompileOptions& o) {
    return {o.force, "give --force to replace it anyway", /*durable=*/false};
}

support::Result<JobInputs> jobFromArgs(const CompileOptions& o) {
    // The job: modules from the files or the workspace, then the command line's choices on top.
    JobInputs in;
    auto& job = in.job;
    auto files = inputFiles(o.inputs);
    if (!files) return files.error();
    in.files = std::move(*files);
    auto read = workspace::readInputs(in.files);
    if (!read) return read.error();
    job.modules = std::move(read->modules);
    in.names = std::move(read->names);
    if (read->workspace) {
        const auto& ws = *read->workspace;
        job.options = ws.options;
        job.libdevice = ws.libdevice;
        job.verify = ws.verify;
        job.ltoMode = ws.ltoMode;
        in.baseDir = fs::absolute(in.files[0]).parent_path();
        in.workspace = std::move(read->workspace);
    } else {
        in.baseDir = fs::current_path();
    }
    job.verifyOnly = o.verifyOnly;
    if (auto st = applyNvvmOptions(o, job); !st) return st.error();
    // No choice given or saved: the modules decide, as they do in the app.
    if (!o.libdevice && !o.noLibdevice && (!in.workspace || !in.workspace->libdeviceSaved)) {
        in.libdeviceRule = workspace::libdeviceCallsOf(job.modules);
        if (!in.libdeviceRule.empty()) job.libdevice = true;
    }
    return in;
}

void noteLibdeviceRule(const JobInputs& inputs) {
    if (inputs.libdeviceRule.empty()) return;
    std::fprintf(stderr, "nvpg: %s (--no-libdevice compiles without it)\n",
                 support::printable(workspace::libdeviceRuleNote(inputs.libdeviceRule)).c_str());
}

support::Status applyNvvmOptions(const CompileOptions& o, pipeline::Job& job) {
    job.libdevice = !o.noLibdevice && (job.libdevice || o.libdevice);
    if (o.ltoMode) job.ltoMode = *lto::parseMode(*o.ltoMode);
    if (o.noVerify) job.verify = false;
    // In the table's order, which is --help's: of two bad values, the first listed is reported.
    for (const auto& info : nvvm::optionTable())
        if (const auto it = o.nvvmOptions.find(std::string(info.name)); it != o.nvvmOptions.end())
            if (auto st = job.options.set(info.name, it->second); !st) return st.error();
    job.options.extraFlags.insert(job.options.extraFlags.end(), o.nvvmFlags.begin(), o.nvvmFlags.end());
    // Checked here, before the pipeline's own check, so that the advice speaks of nvpg's options.
    return job.options.checkExtraFlags(
        [](const nvvm::OptionInfo& info) { return "its own nvpg option " + cliOptionName(info); });
}

bool forkedEngine(const CommonOptions& common) {
    const char* chosen = std::getenv("NVPG_ENGINE");
    return !common.inProcess && !common.far && (!chosen || !*chosen);
}

support::Status resolveEngine(CommonOptions& common, std::string_view command) {
    std::string given = "--on";
    std::optional<std::string> dest = common.on;
    if (!dest)
        if (const char* env = std::getenv(engine::kOnVariable); env && *env) {
            dest = env;
            given = engine::kOnVariable;
        }
    if (!dest) return {};
    auto bad = [](std::string message) { return support::makeError(support::ErrorKind::Usage, std::move(message)); };
    static const std::vector<std::string> kFar{"compile", "run", "compare", "check", "info", "occupancy", "export"};
    if (std::find(kFar.begin(), kFar.end(), command) == kFar.end()) {
        // NVPG_ON says where engines run; this command starts none there.
        if (given == engine::kOnVariable) return {};
        return bad(fmt::format("nvpg {} runs on this machine: --on is for {}", command, support::join(kFar, ", ")));
    }
    if (auto st = engine::checkDestination(*dest, given); !st) return st;
    if (common.inProcess)
        return bad(given + " runs the engine on another machine; --in-process runs it here: give one");
    if (const char* chosen = std::getenv("NVPG_ENGINE"); chosen && *chosen)
        return bad(fmt::format("NVPG_ENGINE and {} both say how the engine starts: unset one", given));
    if (common.cudaPath)
        return bad(fmt::format(
            "--cuda-path names a folder on this machine; with {} the far nvpg's own toolkit search decides (its "
            "CUDA_PATH, /usr/local/cuda)",
            given));
    engine::FarEnd far{*dest, common.remoteNvpg};
    auto launcher = engine::engineLauncher("engine", far);
    if (!launcher) return launcher.error();
    common.far = std::move(*launcher);
    return {};
}

engine::Compiler makeCompiler(const CommonOptions& common, std::shared_ptr<const toolkit::Toolkit> toolkit,
                              bool useCache) {
    // libNVVM works in an engine process (nvpg itself), so input that crashes it is reported
    // as a compile error rather than killing nvpg.
    std::optional<std::filesystem::path> cudaPath;
    if (common.cudaPath) cudaPath = *common.cudaPath;
    // The engine is a fork of this process, which has no other thread yet: no exec. With a
    // toolkit that was only located, the engine opens libNVVM and nvpg never does. NVPG_ENGINE
    // (a wrapper command, "inprocess") is obeyed.
    auto compiler = [&] {
        if (common.far) {
            engine::Compiler far(nullptr, std::nullopt, common.far->argv, common.engineTimeout);
            far.setFarEnd(*common.far->far);
            return far;
        }
        if (forkedEngine(common))
            return engine::Compiler(std::move(toolkit), cudaPath, engine::Compiler::Fork{/*oneJob=*/true},
                                    common.engineTimeout);
        return engine::Compiler(std::move(toolkit), cudaPath,
                                common.inProcess ? std::vector<std::string>{} : engine::engineCommand("engine"),
                                common.engineTimeout);
    }();
    // On disk only: one nvpg compiles once, so a copy in memory would never be read.
    if (useCache) compiler.setCache(cache::ResultCache::openDefault(/*memoryBytes=*/0));
    return compiler;
}

support::Result<std::shared_ptr<toolkit::Toolkit>> loadToolkit(const CommonOptions& common, bool open) {
    if (common.far) return std::shared_ptr<toolkit::Toolkit>();
    toolkit::SearchConfig search;
    if (common.cudaPath) search.explicitRoot = *common.cudaPath;
    return open ? toolkit::Toolkit::load(search) : toolkit::Toolkit::locate(search);
}

void printDiagnostics(const std::vector<nvvm::Diagnostic>& diags) {
    for (const auto& d : diags) {
        std::fputs((nvvm::formatDiagnostic(d) + "\n").c_str(), stderr);
        // The app offers these as one-click fixes; here they say what to change.
        for (const auto& f : d.fixes)
            std::fputs(("  fix: " + support::printable(f.title, true) + "\n").c_str(), stderr);
    }
}

int usage(const std::string& message) {
    // Messages quote file and module names, which must not drive the terminal.
    std::fprintf(stderr, "nvpg: %s\n", support::printable(message, true).c_str());
    return kUsageError;
}

int compileFailed(const support::Error& error) {
    // A compile that ran out of time is the input's doing, like one libNVVM rejected or crashed on.
    if (error.kind != support::ErrorKind::Timeout) return usage(error.message);
    std::fprintf(stderr, "nvpg: %s\n", support::printable(error.message, true).c_str());
    return kCompileError;
}

int runCompile(const CommonOptions& common, const CompileOptions& o) {
    auto inputs = jobFromArgs(o);
    if (!inputs) return usage(inputs.error().message);
    if (auto onto = outputOntoInput(compileOutputs(o, inputs->job), inputs->files)) return usage(*onto);
    noteLibdeviceRule(*inputs);
    auto& job = inputs->job;
    const auto& inputNames = inputs->names;
    const auto writing = outputWriting(o);

    if (o.emit == "ptx")
        job.outputs = pipeline::kPtx;
    else if (o.emit == "ltoir")
        job.outputs = pipeline::kLtoIr;
    else if (o.emit == "lto-ptx")
        job.outputs = pipeline::kPtx | pipeline::kLtoPtx;
    else if (o.emit == "sass")
        job.outputs = pipeline::kPtx | pipeline::kSass;
    else if (o.emit == "cfg" && o.cfgOf == "sass")
        job.outputs = pipeline::kPtx | pipeline::kSass | pipeline::kSassGraph;
    else if (o.emit == "cfg")
        job.outputs = pipeline::kPtx;  // of --cfg-of ir too: the IR is compiled, so it is checked as for PTX
    else
        job.outputs = pipeline::kPtx | pipeline::kCubin;
    if (o.live && o.emit != "sass") return usage("--live writes the live registers beside the SASS: add --emit sass");
    if (o.live) job.outputs |= pipeline::kLiveRegisters;
    // The report counts each kernel's SASS instructions and its live registers where nvdisasm is
    // there, else says why not.
    if (o.report) job.outputs |= pipeline::kFigures | pipeline::kSass | pipeline::kLiveRegisters;
    // The report's PTX and SASS per libdevice function and the IR line of each kernel's live peak
    // come from the line map; the twin it is made from never changes the outputs written.
    job.lineMap = o.lineMap.has_value() || (o.report && !o.verifyOnly);

    // A forked engine opens the libraries; this process only names them (for the result cache).
    // A far engine's toolkit is the far machine's: none is looked for here.
    auto found = loadToolkit(common, /*open=*/!forkedEngine(common));
    if (!found) return usage(found.error().message);
    const auto tk = *found;
    auto compiler = makeCompiler(common, tk, !o.noCache);
    std::optional<engine::FarToolkit> far;
    if (common.far) {
        auto described = compiler.describeFar();
        if (!described) return usage(described.error().message);
        far = std::move(*described);
    }
    // Looked for only when needed: finding nvdisasm may ask python3 for its pip wheels.
    const auto nvdisasmThere = [&] { return far ? far->hasNvdisasm : tk->nvdisasm() != nullptr; };
    // The line map's live figures come from the SASS, so it is made where nvdisasm is.
    if (o.lineMap && !o.verifyOnly && nvdisasmThere()) job.outputs |= pipeline::kSass | pipeline::kLiveRegisters;
    if ((o.emit == "sass" || (o.emit == "cfg" && o.cfgOf == "sass")) && !o.verifyOnly && !nvdisasmThere()) {
        const auto what = o.emit == "sass" ? "sass" : "cfg --cfg-of sass";
        if (far) return usage(fmt::format("--emit {}: on {}: {}", what, far->host, far->nvdisasmProblem));
        const auto& nvdisasm = tk->nvdisasmReport();
        return usage(fmt::format("--emit {}: {} Places tried:\n{}", what, nvdisasm.problem,
                                 toolkit::formatTried(nvdisasm.tried)));
    }
    auto ran = compiler.run(job);
    if (!ran) return compileFailed(ran.error());
    const auto& r = *ran;
    printDiagnostics(r.diagnostics);

    if (o.report) {
        auto report = pipeline::reportJson(job, r, inputNames);
        addOccupancy(report, r, *inputs);
        // Which file of which folder: a pip nvidia folder given as --cuda-path holds several.
        report["toolkit"] = far ? farToolkitJson(*common.far->far, *far) : toolkitJson(*tk);
        const auto text = report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        if (auto st = support::writeFileAtomic(*o.report, text, writing); !st) return usage(st.error().message);
    }
    if (!r.ok) return kCompileError;
    if (o.verifyOnly) return kOk;

    std::string error;
    bool written = true;
    if (o.emit == "ptx")
        written = writeOut(o.output, r.ptx, false, writing, error);
    else if (o.emit == "lto-ptx")
        written = writeOut(o.output, r.linkedPtx, false, writing, error);
    else if (o.emit == "cubin")
        written = writeOut(o.output, r.cubin, true, writing, error);
    else if (o.emit == "sass") {
        if (r.sass.empty()) {
            // A disassembly past --engine-timeout is a compile that did not finish in time (1), as
            // for libNVVM; no nvdisasm, or one that fails, is the environment's (2).
            if (!compiler.timedOutLastRun()) return usage("no SASS: " + r.sassUnavailable);
            std::fprintf(stderr, "nvpg: no SASS: %s\n", support::printable(r.sassUnavailable, true).c_str());
            return kCompileError;
        }
        if (o.live) {
            const auto live = pipeline::liveFigures(r);
            if (!live.available()) return usage("--live: " + live.unavailable);
            written = writeOut(o.output, pipeline::sassWithLiveColumn(r.sass, live), false, writing, error);
        } else {
            written = writeOut(o.output, r.sass, false, writing, error);
        }
    } else if (o.emit == "cfg") {
        auto dot = cfgDot(o.cfgOf, job, r);
        if (!dot) return usage(dot.error().message);
        written = writeOut(o.output, *dot, false, writing, error);
    } else if (r.ltoIr.size() == 1)
        written = writeOut(o.output, r.ltoIr.front().bytes, true, writing, error);
    else {
        if (!o.output || *o.output == "-")
            return usage(
                "--lto-mode separate makes one LTO-IR per module: give -o FILE, and each is "
                "written as FILE's name with the module's inserted (out.MODULE.ltoir)");
        std::vector<std::string> modules;
        for (const auto& blob : r.ltoIr) modules.push_back(blob.name);
        const auto paths = pipeline::perModulePaths(*o.output, modules);
        for (size_t i = 0; i < r.ltoIr.size(); ++i) {
            const auto& blob = r.ltoIr[i];
            if (!(written = writeOut(paths[i], blob.bytes, true, writing, error))) break;
            std::fprintf(stderr, "nvpg: wrote %s (LTO-IR of %s)\n", support::printable(paths[i]).c_str(),
                         support::printable(blob.name).c_str());
        }
    }
    if (!written) return usage(error);
    if (o.lineMap && r.lineMap) {
        auto json = nlohmann::ordered_json(inspect::toJson(*r.lineMap));
        json["live"] = pipeline::liveJson(pipeline::liveFigures(r), r.lineMap.get());
        json["local-memory"] = pipeline::localMemoryJson(pipeline::localMemoryPlaces(r), r.lineMap.get());
        const auto text = json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        if (auto st = support::writeFileAtomic(*o.lineMap, text, writing); !st) return usage(st.error().message);
    }
    return kOk;
}

}  // namespace nvpg::cli
