// nvpg compare: one set of modules under two option sets, arches or CUDA toolkits, or two versions
// of the modules (--against); a unified diff of the chosen output, with registers and labels
// renamed so that renumbering is not a change (--raw: byte for byte), and the per-kernel figures
// of both, as a compiler author bisecting a release, a DSL author diffing what two versions of
// their generator emit, or a teacher showing what a flag does would read them.
#include <cstdio>
#include <thread>

#include <fmt/format.h>

#include "cli/Commands.h"
#include "cli/Output.h"
#include "core/pipeline/Comparison.h"
#include "core/pipeline/Report.h"
#include "core/pipeline/Summary.h"
#include "core/support/Text.h"

namespace nvpg::cli {

namespace {

struct Side {
    char letter = 'A';
    std::string given;   // the side's options as written
    std::string inputs;  // with --against: the side's inputs, as written
    std::optional<std::string> cudaPath;
    pipeline::Job job;
    std::shared_ptr<toolkit::Toolkit> toolkit;
    std::optional<engine::FarToolkit> far;  // with --on: the far engine's
    support::Result<pipeline::CompileResult> result = support::makeError(support::ErrorKind::Internal, "not compiled");

    std::string label() const {
        std::string words = !inputs.empty() && given.empty() ? inputs
                            : !inputs.empty()                ? inputs + " " + given
                            : given.empty()                  ? std::string("the common options")
                                                             : given;
        words += " · " + (toolkit && toolkit->release() ? "CUDA " + toolkit->release()->version
                          : toolkit                     ? toolkit->nvvmReport().path.parent_path().string()
                          : far                         ? far->release + " on " + far->host
                                                        : std::string("?"));
        if (result && !result->arch.empty()) words += " · " + result->arch;
        return words;
    }
};

// A side's options: the nvvm options of compile and run, and --cuda-path.
support::Status parseSide(const std::string& text, char letter, CompileOptions& options,
                          std::optional<std::string>& cudaPath) {
    CLI::App side{fmt::format("side {}", letter)};
    addNvvmOptions(side, options);
    side.add_option("--cuda-path", cudaPath, "this side's CUDA toolkit (a toolkit root or a pip nvidia folder)")
        ->check(CLI::ExistingDirectory);
    try {
        side.parse(text, /*program_name_included=*/false);
    } catch (const CLI::ParseError& e) {
        return support::makeError(support::ErrorKind::Usage,
                                  fmt::format("--{} \"{}\": {}", char(std::tolower(letter)), text, e.what()));
    }
    return {};
}

unsigned outputsFor(const std::string& emit, bool sass) {
    unsigned outputs = pipeline::kPtx | pipeline::kFigures;
    if (emit == "lto-ptx") outputs |= pipeline::kLtoPtx;
    if (emit == "sass" || sass) outputs |= pipeline::kSass;
    return outputs;
}

}  // namespace

void addCompareOptions(CLI::App& cmd, CompareOptions& o) {
    cmd.add_option("INPUT", o.common.inputs, kInputHelp)->required();
    addNvvmOptions(cmd, o.common);
    cmd.add_option("--a", o.a,
                   "side A's options, over the common ones: \"--ftz 0\", \"--cuda-path DIR --arch "
                   "compute_90\" (needed without --against)");
    cmd.add_option("--b", o.b, "side B's options, as --a");
    cmd.add_option("--against", o.against,
                   "side B's inputs: a second version of INPUT's modules (or workspace), compiled with the same "
                   "options; INPUT is side A")
        ->expected(1, -1);
    cmd.add_flag("--raw", o.raw,
                 "diff byte for byte (by default registers, labels and SASS offsets are renamed by order of first "
                 "use within each function, so that renumbering is no change, and an edited line is one changed "
                 "line)");
    cmd.add_option("--emit", o.emit, "what to diff: ptx, lto-ptx or sass")
        ->check(CLI::IsMember({"ptx", "lto-ptx", "sass"}));
    cmd.add_flag("--no-cache", o.common.noCache,
                 "compile even when the result cache holds these inputs' result, and do not store it there");
    cmd.add_option("--report", o.report, "write a JSON report of both sides and the comparison");
    cmd.add_option("-o,--output", o.output, "write the diff to this file (default: stdout)");
    addNameOptions(cmd, o.names);
}

int runCompare(const CommonOptions& common, const CompareOptions& o) {
    const bool versions = !o.against.empty();
    if (!versions && (!o.a || !o.b))
        return usage(
            "compare needs either --a and --b (the same inputs under two option sets) or --against NEW... (two "
            "versions of the inputs under the same options)");
    auto inputs = jobFromArgs(o.common);
    if (!inputs) return usage(inputs.error().message);
    std::optional<JobInputs> inputsB;
    if (versions) {
        CompileOptions b = o.common;
        b.inputs = o.against;
        auto r = jobFromArgs(b);
        if (!r) return usage("--against: " + r.error().message);
        inputsB = std::move(*r);
    }
    std::vector<std::pair<std::string, std::string>> outputs;
    if (o.output && *o.output != "-") outputs.emplace_back("-o", *o.output);
    if (o.report) outputs.emplace_back("--report", *o.report);
    auto allFiles = inputs->files;
    if (inputsB) allFiles.insert(allFiles.end(), inputsB->files.begin(), inputsB->files.end());
    if (auto onto = outputOntoInput(outputs, allFiles)) return usage(*onto);
    noteLibdeviceRule(*inputs);
    if (inputsB) noteLibdeviceRule(*inputsB);
    Side sides[2];
    sides[0].letter = 'A';
    sides[1].letter = 'B';
    sides[0].given = o.a.value_or("");
    sides[1].given = o.b.value_or("");
    if (versions) {
        const auto join = [](const std::vector<std::string>& v) {
            std::string out;
            for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
            return out;
        };
        sides[0].inputs = join(o.common.inputs);
        sides[1].inputs = join(o.against);
    }
    for (auto& s : sides) {
        CompileOptions options;
        if (auto st = parseSide(s.given, s.letter, options, s.cudaPath); !st) return usage(st.error().message);
        if (!s.cudaPath) s.cudaPath = common.cudaPath;
        s.job = s.letter == 'B' && inputsB ? inputsB->job : inputs->job;
        if (auto st = applyNvvmOptions(options, s.job); !st)
            return usage(fmt::format("side {}: {}", s.letter, st.error().message));
        if (common.far) {
            // The far engine's toolkit for both sides: its nvdisasm, if any, gives the SASS.
            if (s.cudaPath)
                return usage(
                    fmt::format("side {}: --cuda-path names a folder on this machine; with --on the far "
                                "nvpg's toolkit search decides",
                                s.letter));
            s.job.outputs = outputsFor(o.emit, true);
            s.job.generation = 1;
            continue;
        }
        // Each toolkit is only located here: its engine opens it.
        toolkit::SearchConfig search;
        if (s.cudaPath) search.explicitRoot = *s.cudaPath;
        auto tk = toolkit::Toolkit::locate(search);
        if (!tk) return usage(fmt::format("side {}: {}", s.letter, tk.error().message));
        s.toolkit = *tk;
        if (o.emit == "sass" && !s.toolkit->nvdisasm())
            return usage(fmt::format("side {}: --emit sass: {}", s.letter, s.toolkit->nvdisasmReport().problem));
        s.job.outputs = outputsFor(o.emit, s.toolkit->nvdisasm() != nullptr);
        s.job.generation = 1;
    }
    if (common.inProcess && !common.far && sides[0].toolkit->nvvmReport().path != sides[1].toolkit->nvvmReport().path)
        return usage(
            "--in-process compares one toolkit only: two libNVVMs cannot share a process (they "
            "share a "
            "soname); leave it out, and each side gets an engine process of its own");

    // Each side on an engine process of its own (its own libNVVM), both at once.
    auto compile = [&](Side& s) {
        std::optional<std::filesystem::path> path;
        if (s.cudaPath) path = *s.cudaPath;
        engine::Compiler compiler = common.far ? makeCompiler(common, nullptr, !o.common.noCache)
                                               : engine::Compiler(s.toolkit, path,
                                                                  common.inProcess ? std::vector<std::string>{}
                                                                                   : engine::engineCommand("engine"),
                                                                  common.engineTimeout);
        if (!common.far && !o.common.noCache) compiler.setCache(cache::ResultCache::openDefault(/*memoryBytes=*/0));
        if (common.far) {
            auto far = compiler.describeFar();
            if (!far) {
                s.result = far.error();
                return;
            }
            s.far = std::move(*far);
        }
        s.result = compiler.run(s.job);
    };
    if (common.inProcess) {
        for (auto& s : sides) compile(s);
    } else {
        std::thread other([&] { compile(sides[0]); });
        compile(sides[1]);
        other.join();
    }

    bool failed = false;
    for (auto& s : sides) {
        if (!s.result) {
            std::fprintf(stderr, "nvpg: side %c (%s) failed: %s\n", s.letter, support::printable(s.label()).c_str(),
                         support::printable(s.result.error().message, true).c_str());
            failed = true;
            continue;
        }
        for (const auto& d : s.result->diagnostics) {
            std::fputs(fmt::format("{}: {}\n", s.letter, nvvm::formatDiagnostic(d)).c_str(), stderr);
            for (const auto& f : d.fixes)
                std::fputs(fmt::format("{}:   fix: {}\n", s.letter, support::printable(f.title, true)).c_str(), stderr);
        }
        if (!s.result->ok) {
            std::fprintf(
                stderr, "nvpg: side %c (%s) failed: %s\n", s.letter, support::printable(s.label()).c_str(),
                support::printable(pipeline::failureSummary(*s.result, /*pointAtProblems=*/false), true).c_str());
            failed = true;
        }
    }
    const auto what = o.emit == "lto-ptx" ? pipeline::CompareOutput::LtoPtx
                      : o.emit == "sass"  ? pipeline::CompareOutput::Sass
                                          : pipeline::CompareOutput::Ptx;
    std::optional<pipeline::Comparison> comparison;
    if (!failed)
        comparison =
            pipeline::compareResults(*sides[0].result, *sides[1].result, what, sides[0].label(), sides[1].label(),
                                     o.raw ? pipeline::DiffStyle::Raw : pipeline::DiffStyle::Normalized);
    if (o.report) {
        nlohmann::ordered_json j;
        for (auto& s : sides) {
            const auto& names = s.letter == 'B' && inputsB ? inputsB->names : inputs->names;
            auto side = s.result ? pipeline::reportJson(s.job, *s.result, names)
                                 : nlohmann::ordered_json{{"error", s.result.error().message}};
            side["options"] = s.given;
            if (!s.inputs.empty()) side["inputs"] = s.inputs;
            if (s.toolkit)
                side["toolkit"] = toolkitJson(*s.toolkit);
            else if (s.far)
                side["toolkit"] = farToolkitJson(*common.far->far, *s.far);
            j[s.letter == 'A' ? "a" : "b"] = std::move(side);
        }
        if (comparison) j["comparison"] = pipeline::comparisonJson(*comparison);
        const auto text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        if (auto st = support::writeFileAtomic(*o.report, text, outputWriting(o.common)); !st)
            return usage(st.error().message);
    }
    if (failed) return kCompileError;

    const auto& c = *comparison;
    if (!c.missingA.empty() || !c.missingB.empty()) {
        std::fprintf(stderr, "nvpg: %s\n", support::printable(pipeline::comparisonVerdict(c), true).c_str());
        return kCompileError;
    }
    if (o.output && *o.output != "-") {
        if (auto st = support::writeFileAtomic(*o.output, pipeline::diffText(c), outputWriting(o.common)); !st)
            return usage(st.error().message);
    } else if (auto failedOut = writeStdout(pipeline::diffText(c))) {
        return usage(*failedOut);
    }
    const auto summary =
        fmt::format("\n{}\n\n{}", pipeline::comparisonVerdict(c), pipeline::formatComparisonTable(c, o.names));
    if (auto failedOut = writeStdout(summary)) return usage(*failedOut);
    return kOk;
}

}  // namespace nvpg::cli
