#include "core/interop/NumbaImport.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/gpu/ArgSpec.h"
#include "core/gpu/DeviceCache.h"
#include "core/gpu/ElemType.h"
#include "core/nvvm/Options.h"
#include "core/support/Files.h"
#include "core/support/Installed.h"
#include "core/support/Process.h"
#include "core/support/RemoveOnSignal.h"
#include "core/support/Symbols.h"
#include "core/support/Text.h"

namespace fs = std::filesystem;

namespace nvpg::interop {

namespace {

using support::ErrorKind;
using support::makeError;
using json = nlohmann::json;

// The helper's exit status when numba-cuda is not installed for the Python that ran it.
constexpr int kHelperNoNumba = 3;

std::string pipHint(const std::string& python) {
    return fmt::format(
        "numba-cuda is not installed for {0}: install it with `{0} -m pip install \"numba-cuda[cu13]\"` "
        "(\"numba-cuda[cu12]\" for CUDA 12; in a virtual environment: python3 -m venv ENV, then "
        "ENV/bin/pip install \"numba-cuda[cu13]\"), or name a Python that has it with --python",
        python);
}

// What the request is about, for the front of every message.
std::string what(const NumbaImportRequest& r) {
    return fmt::format("{} ({}, \"{}\")", r.function, r.file.string(), r.signature);
}

// A numba scalar type as the kernel takes it: one or two SPEC types ("complex64": two f32).
std::vector<std::string> scalarSpecTypes(const std::string& numbaType) {
    static const std::vector<std::pair<std::string, std::vector<std::string>>> table = {
        {"int8", {"i8"}},
        {"int16", {"i16"}},
        {"int32", {"i32"}},
        {"int64", {"i64"}},
        {"uint8", {"u8"}},
        {"uint16", {"u16"}},
        {"uint32", {"u32"}},
        {"uint64", {"u64"}},
        {"float16", {"u16"}},
        {"float32", {"f32"}},
        {"float64", {"f64"}},
        {"boolean", {"u8"}},
        {"bool", {"u8"}},
        {"complex64", {"f32", "f32"}},
        {"complex128", {"f64", "f64"}},
    };
    for (const auto& [name, specs] : table)
        if (name == numbaType) return specs;
    return {};
}

// "1024" for an integer, "2.5" for a float: the shortest text that reads back the same.
std::string valueText(const json& v, bool isFloat) {
    if (isFloat) return fmt::format("{}", v.get<double>());
    if (v.is_number_unsigned()) return fmt::format("{}", v.get<uint64_t>());
    if (v.is_number_integer()) return fmt::format("{}", v.get<int64_t>());
    return fmt::format("{}", static_cast<int64_t>(v.get<double>()));
}

std::vector<size_t> defaultShape(int ndim) {
    switch (ndim) {
        case 1:
            return {kNumbaDefaultElements};
        case 2:
            return {32, 32};
        case 3:
            return {16, 8, 8};
        default: {
            std::vector<size_t> s(size_t(ndim), 1);
            if (ndim > 0) s[0] = kNumbaDefaultElements;
            return s;
        }
    }
}

// Strides in bytes of a contiguous array: C order, or Fortran order for numba's 'F' layout.
std::vector<int64_t> contiguousStrides(const std::vector<size_t>& shape, size_t itemsize, bool fortran) {
    std::vector<int64_t> s(shape.size());
    int64_t step = int64_t(itemsize);
    if (fortran) {
        for (size_t i = 0; i < shape.size(); ++i) {
            s[i] = step;
            step *= int64_t(std::max<size_t>(shape[i], 1));
        }
    } else {
        for (size_t i = shape.size(); i-- > 0;) {
            s[i] = step;
            step *= int64_t(std::max<size_t>(shape[i], 1));
        }
    }
    return s;
}

// `word` as a POSIX shell reads it back: as it is when it is plain, else in single quotes.
std::string shellWord(const std::string& word) {
    const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("/._-+=:,@%").find(c) != std::string_view::npos;
    });
    if (plain) return word;
    std::string out = "'";
    for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// What the helper may print (the user's file at import, numba's warnings) before it is stopped.
constexpr size_t kNumbaOutputLimit = size_t(4) << 20;

// Why writing `target` (the workspace, or an array of --args beside it) would replace a file the
// import reads: the Python file or the .npz. Nothing when it would not.
std::optional<std::string> outputReplacesInput(const fs::path& target, const NumbaImportRequest& r) {
    std::vector<fs::path> inputs{r.file};
    if (!r.argsNpz.empty()) inputs.push_back(r.argsNpz);
    const auto input = support::inputOverwrittenBy(target, inputs);
    if (!input) return std::nullopt;
    const bool isPython = *input == r.file;
    return fmt::format(
        "{} is {} {} that the import reads: writing {} there would replace it (--force does not allow that); "
        "write the workspace to another file, such as -o {}.nvpg",
        target.string(), isPython ? "the Python file" : "the --args file", input->string(),
        target == r.output ? "the workspace" : "an array of --args", r.function);
}

unsigned blocksFor(size_t n, unsigned threads) {
    const size_t b = (n + threads - 1) / threads;
    return unsigned(std::clamp<size_t>(b, 1, 0x7fffffff));
}

}  // namespace

std::optional<std::string> numbaOutputReplacesInput(const NumbaImportRequest& request) {
    return outputReplacesInput(request.output, request);
}

fs::path numbaHelperScript() {
    const auto dir = support::dataDir();
    if (dir.empty()) return {};
    auto p = dir / "python" / "nvpg_numba_import.py";
    std::error_code ec;
    return fs::is_regular_file(p, ec) ? p : fs::path();
}

ArchChoice numbaDefaultArch(const toolkit::Toolkit* toolkit, bool askDriver) {
    gpu::LocalGpuSource source;
    if (!askDriver)
        source.askDriver = []() -> support::Result<gpu::LocalGpus> {
            return makeError(ErrorKind::Environment, "the GPU cache file does not say");
        };
    if (toolkit)
        if (auto gpus = gpu::localGpus(*toolkit, source); gpus) {
            const auto& d = gpus->devices.front();
            if (auto a =
                    nvvm::archForComputeCapability(d.ccMajor, d.ccMinor, [toolkit] { return toolkit->cudaMajor(); }))
                return {*a, fmt::format("the local GPU {} (sm_{}{})", d.name, d.ccMajor, d.ccMinor)};
        }
    return {kNumbaDefaultArch, fmt::format("no local GPU: {}", kNumbaDefaultArch)};
}

std::optional<std::string> ccOfArch(std::string_view arch) {
    // compute_<major><minor>, an `a` or `f` after it: the last digit is the minor version.
    constexpr std::string_view prefix = "compute_";
    if (!arch.starts_with(prefix)) return std::nullopt;
    std::string_view digits = arch.substr(prefix.size());
    if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f')) digits.remove_suffix(1);
    if (digits.size() < 2 || !std::all_of(digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
        return std::nullopt;
    return fmt::format("{}.{}", digits.substr(0, digits.size() - 1), digits.back());
}

support::Result<workspace::Workspace> numbaWorkspaceFromJson(std::string_view text, const NumbaImportRequest& request) {
    json j;
    try {
        j = json::parse(text);
    } catch (const std::exception& e) {
        return makeError(ErrorKind::Environment, fmt::format("the numba helper's answer is not JSON ({}): {}", e.what(),
                                                             support::printable(std::string(text.substr(0, 200)))));
    }
    try {
        workspace::Workspace ws;
        const auto function = j.at("function").get<std::string>();
        const auto kernel = j.at("kernel").get<std::string>();
        const auto signature = j.at("signature").get<std::string>();
        ws.name = function;

        const auto& modules = j.at("modules");
        for (size_t k = 0; k < modules.size(); ++k) {
            nvvm::Module m;
            m.name = modules.size() == 1 ? fmt::format("{}.ll", function) : fmt::format("{}.{}.ll", function, k + 1);
            m.bytes = modules[k].get<std::string>();
            ws.modules.push_back(std::move(m));
        }
        if (ws.modules.empty())
            return makeError(ErrorKind::Environment, fmt::format("numba added no module for {}", what(request)));
        const auto flags = j.at("options").get<std::vector<std::string>>();
        auto options = nvvm::optionsFromFlags(flags);
        if (!options)
            return makeError(ErrorKind::Environment,
                             fmt::format("numba's libNVVM options for {}: {}", what(request), options.error().message));
        ws.options = *options;
        ws.libdevice = j.value("libdevice", false);
        ws.libdeviceSaved = true;
        ws.verify = true;

        // The run configuration: numba's kernel ABI (numba.cuda.dispatcher's _prepare_args):
        // each array is meminfo, parent (null pointers), nitems, itemsize (i64), data (the
        // buffer), shape[ndim], strides[ndim] (i64, bytes); scalars as their type, complex as
        // two floats.
        gpu::RunConfig run;
        run.name = "numba";
        run.kernel = kernel;
        std::vector<std::string> specs;
        std::vector<std::string> argNotes;
        std::vector<size_t> launchShape;
        size_t firstCount = 0;
        for (const auto& a : j.at("args")) {
            const auto name = a.at("name").get<std::string>();
            const auto type = a.at("type").get<std::string>();
            const auto kind = a.at("kind").get<std::string>();
            const size_t first = specs.size();
            if (kind == "array") {
                const int ndim = a.at("ndim").get<int>();
                const auto descr = a.at("dtype").get<std::string>();
                const auto elem = descr == "|b1" ? std::optional(gpu::ElemType::U8) : gpu::elemTypeFromNpyDescr(descr);
                if (!elem)
                    return makeError(ErrorKind::Usage,
                                     fmt::format("argument {} of {} is {}: nvpg run passes arrays of {} only", name,
                                                 what(request), type, gpu::elemTypeList()));
                const size_t itemsize = gpu::elemInfo(*elem).size;
                std::vector<size_t> shape;
                std::vector<int64_t> strides;
                if (a.contains("shape")) {
                    shape = a.at("shape").get<std::vector<size_t>>();
                    strides = a.at("strides").get<std::vector<int64_t>>();
                } else {
                    shape = defaultShape(ndim);
                    strides = contiguousStrides(shape, itemsize, a.value("layout", "C") == "F");
                }
                size_t nitems = 1;
                for (auto s : shape) nitems *= s;
                specs.push_back("ptr:null");
                specs.push_back("ptr:null");
                specs.push_back(fmt::format("i64:{}", nitems));
                specs.push_back(fmt::format("i64:{}", itemsize));
                if (a.contains("npy"))
                    specs.push_back("buf:@" + a.at("npy").get<std::string>());
                else
                    specs.push_back(fmt::format("buf:{}:{}:zeros", gpu::elemInfo(*elem).name, nitems));
                for (auto s : shape) specs.push_back(fmt::format("i64:{}", s));
                for (auto s : strides) specs.push_back(fmt::format("i64:{}", s));
                if (shape.size() > launchShape.size()) launchShape = shape;
                if (firstCount == 0) firstCount = nitems;
            } else if (kind == "scalar") {
                const auto numbaType = a.at("dtype").get<std::string>();
                const auto types = scalarSpecTypes(numbaType);
                if (types.empty())
                    return makeError(
                        ErrorKind::Usage,
                        fmt::format("argument {} of {} is {}, which nvpg run cannot pass", name, what(request), type));
                for (size_t part = 0; part < types.size(); ++part) {
                    const auto elem = *gpu::parseElemType(types[part]);
                    const auto& info = gpu::elemInfo(elem);
                    std::string value;
                    if (numbaType == "float16") {
                        // numba passes a half as the u16 of its bits (c_uint16), and the PTX
                        // parameter is a .u16.
                        const double v = a.contains("value") ? a.at("value").get<double>() : 1.0;
                        value = fmt::format("{}", gpu::halfFromDouble(v));
                    } else if (a.contains("value")) {
                        const auto& v = a.at("value");
                        value = valueText(v.is_array() ? v.at(part) : v, info.isFloat);
                    } else if (info.isFloat) {
                        value = part == 0 ? "1" : "0";  // complex: 1 + 0i
                    } else if (numbaType == "boolean" || numbaType == "bool" || info.size < 4) {
                        value = "1";
                    } else {
                        value = fmt::format("{}", firstCount ? firstCount : kNumbaDefaultElements);
                    }
                    specs.push_back(fmt::format("{}:{}", info.name, value));
                }
            } else {
                return makeError(ErrorKind::Usage,
                                 fmt::format("argument {} of {} is {}: nvpg run passes arrays and numbers only", name,
                                             what(request), type));
            }
            argNotes.push_back(fmt::format("  {}: {} -> kernel parameters {}{}", name, type, first,
                                           specs.size() - first > 1 ? fmt::format("..{}", specs.size() - 1) : ""));
        }
        for (const auto& s : specs) {
            auto parsed = gpu::parseArgSpec(s);
            if (!parsed) return parsed.error();
            run.args.push_back(std::move(*parsed));
        }
        // The launch: one thread per element of the first array of the highest rank.
        if (launchShape.size() >= 3) {
            run.block = {8, 8, 4};
            run.grid = {blocksFor(launchShape[0], 8), blocksFor(launchShape[1], 8), blocksFor(launchShape[2], 4)};
        } else if (launchShape.size() == 2) {
            run.block = {16, 16, 1};
            run.grid = {blocksFor(launchShape[0], 16), blocksFor(launchShape[1], 16), 1};
        } else if (launchShape.size() == 1) {
            run.block = {256, 1, 1};
            run.grid = {blocksFor(launchShape[0], 256), 1, 1};
        }
        ws.runs.push_back(std::move(run));

        // The notes: the workspace's description, which it keeps across saves.
        const auto demangled = support::demangle(kernel);
        std::vector<std::string> versions;
        if (const auto v = j.find("versions"); v != j.end() && v->is_object())
            for (const auto& [k, val] : v->items())
                if (val.is_string()) versions.push_back(fmt::format("{} {}", k, val.get<std::string>()));
        const auto python = j.value("python", request.python);
        std::string rerun =
            fmt::format("nvpg import numba {} {} --sig {} --arch {}", shellWord(fs::absolute(request.file).string()),
                        shellWord(function), shellWord(signature), shellWord(request.arch));
        if (!request.argsNpz.empty()) rerun += " --args " + shellWord(fs::absolute(request.argsNpz).string());
        if (!python.empty()) rerun += " --python " + shellWord(python);
        rerun += " -o " + shellWord(fs::absolute(request.output).string());
        ws.description = fmt::format(
            "Imported from numba-cuda: {}.{} for {}, compiled by numba for {} ({}).\n"
            "Kernel: {}\n"
            "Demangled: {}\n"
            "Symbol: {}\n"
            "numba's libNVVM options: {}; libdevice {}.\n"
            "Arguments, as numba's kernel ABI passes them (an array is meminfo, parent, nitems, itemsize, data, "
            "shape[ndim], strides[ndim] in bytes):\n{}\n"
            "Made with {}.\n"
            "Again: {}",
            j.value("module", ""), function, signature, request.arch, j.value("python", request.python),
            support::readableName(kernel), demangled ? *demangled : kernel, kernel, support::join(flags, " "),
            ws.libdevice ? "added lazily" : "not added", support::join(argNotes, "\n"), support::join(versions, ", "),
            rerun);
        return ws;
    } catch (const std::exception& e) {
        return makeError(
            ErrorKind::Environment,
            fmt::format("the numba helper's answer for {} lacks what nvpg needs: {}", what(request), e.what()));
    }
}

support::Result<NumbaImport> importNumba(const NumbaImportRequest& request, const std::atomic<bool>* cancel) {
    NumbaImport out;
    const std::string pythonName = request.python.empty() ? "python3" : request.python;
    out.python = pythonName.find('/') == std::string::npos ? support::findInPath(pythonName) : pythonName;
    if (out.python.empty())
        return makeError(ErrorKind::Environment,
                         fmt::format("{} is not on PATH; name a Python that has numba-cuda with --python", pythonName));
    if (::access(out.python.c_str(), X_OK) != 0)
        return makeError(ErrorKind::Environment,
                         fmt::format("the Python {} cannot be run: {}", out.python, std::strerror(errno)));
    const fs::path helper = request.helper.empty() ? numbaHelperScript() : request.helper;
    if (helper.empty())
        return makeError(ErrorKind::Environment,
                         "the numba helper script (python/nvpg_numba_import.py in nvpg's data folder) is missing; "
                         "reinstall the nvvm-playground package, or set NVPG_DATA_DIR to a folder that holds it");
    const auto cc = ccOfArch(request.arch);
    if (!cc)
        return makeError(ErrorKind::Usage,
                         fmt::format("arch '{}': numba compiles for a compute capability, so the arch is "
                                     "compute_NN (compute_90)",
                                     request.arch));
    std::error_code ec;
    if (!fs::is_regular_file(request.file, ec))
        return makeError(ErrorKind::Usage, fmt::format("{}: no such file", request.file.string()));
    if (!request.argsNpz.empty() && !fs::is_regular_file(request.argsNpz, ec))
        return makeError(ErrorKind::Usage, fmt::format("--args {}: no such file", request.argsNpz.string()));
    if (request.output.empty()) return makeError(ErrorKind::Usage, "no workspace file to write");
    // numba reads the signature as text, and its answer comes back as JSON, which holds text only.
    for (const auto& [given, text] : std::initializer_list<std::pair<const char*, const std::string*>>{
             {"--sig", &request.signature}, {"FUNCTION", &request.function}})
        if (const auto at = support::firstNonUtf8(*text))
            return makeError(
                ErrorKind::Usage,
                fmt::format("{} has a byte 0x{:02X} at offset {} that is not UTF-8: write it as UTF-8 text "
                            "(numba's type names and Python's identifiers are)",
                            given, static_cast<unsigned char>((*text)[*at]), *at));
    if (auto why = numbaOutputReplacesInput(request)) return makeError(ErrorKind::Usage, *why);
    const fs::path outDir = fs::absolute(request.output, ec).parent_path();
    if (!fs::is_directory(outDir, ec))
        return makeError(ErrorKind::Usage,
                         fmt::format("{}: the folder {} does not exist", request.output.string(), outDir.string()));

    // The helper's answer goes to a file of its own: the user's code may print anything. A stop
    // signal (Ctrl-C, kill) removes it too.
    auto answerFile =
        support::Temporary::make(fs::temp_directory_path(ec), "nvpg-numba-", ".json", support::Temporary::Kind::File);
    if (!answerFile) return answerFile.error();
    const std::string answerPath = answerFile->path().string();

    std::vector<std::string> args = {out.python,   helper.string(),
                                     "--file",     fs::absolute(request.file).string(),
                                     "--function", request.function,
                                     "--sig",      request.signature,
                                     "--cc",       *cc,
                                     "--out",      answerPath};
    if (!request.cudaHome.empty()) args.insert(args.end(), {"--cuda-home", request.cudaHome.string()});
    const std::string stem = request.output.stem().string();
    // The arrays of --args are written into a hidden folder beside the workspace, then each is
    // moved to its place once nothing it would replace is an input.
    std::optional<support::Temporary> stagingFolder;
    std::string staging;
    if (!request.argsNpz.empty()) {
        auto folder = support::Temporary::make(outDir, ".nvpg-numba-", "", support::Temporary::Kind::Folder);
        if (!folder)
            return makeError(ErrorKind::Environment,
                             fmt::format("cannot make a folder for the arrays of --args: {}", folder.error().message));
        stagingFolder.emplace(std::move(*folder));
        staging = stagingFolder->path().string();
        args.insert(args.end(), {"--args", fs::absolute(request.argsNpz).string(), "--args-dir", staging,
                                 "--args-prefix", stem + "."});
    }

    const auto ran = support::runProbe(args, request.timeoutSeconds, kNumbaOutputLimit, true, cancel,
                                       /*findLeftRunning=*/true);
    // A failed import says too what the file left running.
    const auto leftNoted = [&](support::Error e) {
        for (const auto& process : ran.leftRunning)
            e.message +=
                fmt::format("\n{} left a process running ({}); nvpg did not stop it", request.file.string(), process);
        return e;
    };
    const auto tail = [&] {
        auto t = support::trim(ran.output);
        if (t.size() > 4000) t = t.substr(t.size() - 4000);
        return std::string(t);
    };
    if (ran.cancelled)
        return leftNoted(makeError(ErrorKind::Run, fmt::format("the import of {} was cancelled", what(request))));
    if (ran.timedOut)
        return leftNoted(makeError(ErrorKind::Timeout, fmt::format("numba did not finish {} within {} s ({})",
                                                                   what(request), request.timeoutSeconds, out.python)));
    if (ran.tooLong)
        return leftNoted(
            makeError(ErrorKind::Usage,
                      fmt::format("{} printed more than {} (the most nvpg reads of what the file and numba print "
                                  "as it is imported and compiled), so the import was stopped: print less when the "
                                  "file is imported, for example only under `if __name__ == \"__main__\":`",
                                  what(request), support::formatBytes(kNumbaOutputLimit))));
    for (const auto& process : ran.leftRunning)
        out.warnings.push_back(
            fmt::format("{} left a process running when it was imported ({}); nvpg did not stop "
                        "it: end it with kill if it should not run on",
                        request.file.string(), process));
    if (ran.status == kHelperNoNumba) return leftNoted(makeError(ErrorKind::Environment, pipHint(out.python)));
    if (ran.signal != 0 && ran.status == -2)
        return leftNoted(makeError(
            ErrorKind::Environment,
            fmt::format("the numba helper ({} {}) for {} was killed by signal {} (SIG{}) and gave no "
                        "answer{}{}",
                        out.python, helper.string(), what(request), ran.signal,
                        ::sigabbrev_np(ran.signal) ? ::sigabbrev_np(ran.signal) : "?",
                        ran.signal == SIGKILL ? " (by the user's code, or by the system when memory ran out)" : "",
                        tail().empty() ? "" : ":\n" + tail())));
    auto answer = support::readFile(answerPath, support::kWorkspaceFileLimit);
    if (!answer || support::trim(*answer).empty())
        return leftNoted(makeError(ErrorKind::Environment,
                                   fmt::format("the numba helper ({} {}) ended with status {} and no answer:\n{}",
                                               out.python, helper.string(), ran.status, tail())));
    json j;
    try {
        j = json::parse(*answer);
    } catch (const std::exception& e) {
        return leftNoted(
            makeError(ErrorKind::Environment, fmt::format("the numba helper's answer is not JSON: {}", e.what())));
    }
    if (!j.value("ok", false)) {
        const auto kind = j.value("kind", "");
        const auto message = j.value("message", "");
        const auto errorKind = kind == "no-numba"  ? ErrorKind::Environment
                               : kind == "compile" ? ErrorKind::Compile
                                                   : ErrorKind::Usage;
        if (kind == "no-numba") return leftNoted(makeError(errorKind, pipHint(out.python) + "\n(" + message + ")"));
        std::string text = fmt::format("{} (with {}):\n{}", what(request), out.python, message);
        if (kind == "compile" && !ran.output.empty()) text += "\n" + tail();
        return leftNoted(makeError(errorKind, text));
    }
    auto ws = numbaWorkspaceFromJson(*answer, request);
    if (!ws) return leftNoted(ws.error());
    out.workspace = std::move(*ws);
    out.kernel = j.value("kernel", "");
    for (const auto& a : j.value("args", json::array()))
        if (a.contains("npy")) {
            const auto name = fs::path(a.at("npy").get<std::string>()).filename();
            const auto target = outDir / name;
            if (auto why = outputReplacesInput(target, request)) return leftNoted(makeError(ErrorKind::Usage, *why));
            if (staging.empty() || ::rename((fs::path(staging) / name).c_str(), target.c_str()) != 0)
                return leftNoted(makeError(ErrorKind::Environment, fmt::format("cannot put {} in place: {}",
                                                                               target.string(), std::strerror(errno))));
            out.npy.push_back(target);
        }
    for (const auto& u : j.value("unused_args", json::array()))
        out.warnings.push_back(fmt::format("--args {}: no argument of {} is called {} (nor arr_K), so it is not used",
                                           request.argsNpz.string(), request.function, u.get<std::string>()));
    if (auto st = workspace::saveWorkspace(out.workspace, request.output); !st) return leftNoted(st.error());
    out.written = request.output;
    return out;
}

}  // namespace nvpg::interop
