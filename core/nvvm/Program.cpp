#include "core/nvvm/Program.h"

#include <algorithm>
#include <optional>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "core/nvvm/IrScan.h"
#include "core/support/Stopwatch.h"
#include "core/support/Text.h"

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::nvvm {

support::Result<std::unique_ptr<Program>> Program::create(const toolkit::NvvmApi& api) {
    std::unique_ptr<Program> p(new Program(api));
    if (nvvmResult r = api.createProgram(&p->handle_); r != NVVM_SUCCESS)
        return makeError(ErrorKind::Internal,
                         fmt::format("libNVVM could not create a program: {}", api.getErrorString(r)));
    return p;
}

Program::~Program() {
    if (handle_) api_.destroyProgram(&handle_);
}

std::string Program::programLog() {
    size_t size = 0;
    if (api_.getProgramLogSize(handle_, &size) != NVVM_SUCCESS || size == 0) return {};
    std::string log(size, '\0');
    if (api_.getProgramLog(handle_, log.data()) != NVVM_SUCCESS) return {};
    while (!log.empty() && log.back() == '\0') log.pop_back();
    return log;
}

support::Status Program::addModule(const Module& module) {
    std::lock_guard lock(mu_);
    // libNVVM takes a lazy text module without complaint, then fails the compile with an empty
    // log (checked on CUDA 13.0): lazy loading reads bitcode only.
    if (module.lazy && !module.isBitcode())
        return makeError(ErrorKind::Usage, fmt::format("module {} is marked lazy but is text IR: libNVVM loads lazy "
                                                       "modules only as bitcode (it would fail the compile with an "
                                                       "empty log). Unmark it as lazy, or give it as bitcode "
                                                       "(llvm-as-14 {} -o out.bc).",
                                                       module.name, module.name));
    const auto add = module.lazy ? api_.lazyAddModuleToProgram : api_.addModuleToProgram;
    if (!add)
        return makeError(ErrorKind::Environment, fmt::format("module {} is marked lazy, but this libNVVM has no "
                                                             "nvvmLazyAddModuleToProgram (CUDA 10 or later has it)",
                                                             module.name));
    const nvvmResult r = add(handle_, module.bytes.data(), module.bytes.size(), module.name.c_str());
    if (r != NVVM_SUCCESS) {
        std::string why = programLog();
        if (why.empty()) why = api_.getErrorString(r);
        return makeError(ErrorKind::Compile,
                         fmt::format("libNVVM rejected module {} ({} bytes of {}): {}", module.name,
                                     module.bytes.size(), module.isBitcode() ? "bitcode" : "text", why));
    }
    modules_.push_back(module.isBitcode() ? Module{module.name, {}, module.lazy} : module);
    if (module.isBitcode()) unreadBitcode_.push_back(module);
    anyEager_ = anyEager_ || !module.lazy;
    return {};
}

void Program::useLibdevice(std::shared_ptr<const std::string> bitcode, std::string name) {
    std::lock_guard lock(mu_);
    if (libdeviceAdded_) return;
    libdevice_ = std::move(bitcode);
    libdeviceName_ = std::move(name);
}

bool Program::libdeviceAdded() const {
    std::lock_guard lock(mu_);
    return libdeviceAdded_;
}

std::vector<std::string> Program::moduleNames() const {
    std::lock_guard lock(mu_);
    std::vector<std::string> names;
    for (const auto& m : modules_) names.push_back(m.name);
    return names;
}

// Called with mu_ held: the check and the add are one step, so two threads compiling the same
// Program cannot both add libdevice (the race the call-once flag alone had in cuda.core).
bool Program::ensureLibdevice(CompileOutput& out) {
    if (!libdevice_ || libdeviceAdded_) return true;
    const auto add = api_.lazyAddModuleToProgram ? api_.lazyAddModuleToProgram : api_.addModuleToProgram;
    const nvvmResult r = add(handle_, libdevice_->data(), libdevice_->size(), libdeviceName_.c_str());
    if (r != NVVM_SUCCESS) {
        out.code = r;
        out.log = programLog();
        out.diagnostics.push_back({libdeviceName_, 0, 0, Severity::Error,
                                   fmt::format("libNVVM rejected libdevice: {}", api_.getErrorString(r))});
        return false;
    }
    libdeviceAdded_ = true;
    out.addedLibdevice = true;
    return true;
}

namespace {

// "target datalayout = ..." and "target triple = ..." of text IR, as written; empty when absent.
std::pair<std::string, std::string> targetLines(std::string_view ir) {
    std::string layout, triple;
    for (auto line : support::splitLines(ir)) {
        line = support::trim(line);
        if (!support::startsWith(line, "target ")) continue;
        const auto rest = support::trim(line.substr(7));
        if (support::startsWith(rest, "datalayout"))
            layout = std::string(line);
        else if (support::startsWith(rest, "triple"))
            triple = std::string(line);
    }
    return {layout, triple};
}

// What a `target ... = "value"` line sets.
std::string_view quotedValue(std::string_view line) {
    const auto open = line.find('"');
    const auto close = line.rfind('"');
    return open == std::string_view::npos || close <= open ? std::string_view()
                                                           : line.substr(open + 1, close - open - 1);
}

// A datalayout LLVM certainly parses, with a triple libNVVM knows (or none): reading it alone
// would tell nothing, and costs a compile of its own (half a millisecond or more).
bool surelyReadable(std::string_view layout, std::string_view triple) {
    const auto t = quotedValue(triple);
    const bool knownTriple = triple.empty() || t == "nvptx64-nvidia-cuda" || t == "nvptx-nvidia-cuda";
    return knownTriple && dataLayoutParses(quotedValue(layout));
}

}  // namespace

namespace {

// Inputs that a compile of their own has read, for the process: the usual datalayout, and
// bitcode modules, which the app shows read-only, are read once.
std::mutex g_readMu;
std::unordered_set<std::string> g_read;

std::string readKey(std::string_view kind, std::string_view bytes) {
    return fmt::format("{}:{}:{:x}", kind, bytes.size(), std::hash<std::string_view>{}(bytes));
}

}  // namespace

// Called with mu_ held. libNVVM's verifier ends the process on input that its compile reports
// as unreadable with no place: a datalayout LLVM cannot parse ("Unknown specifier in datalayout
// string"), damaged bitcode ("Invalid abbrev number", "Invalid encoding"; CUDA 13.0). So each
// text module's datalayout line (with its triple, which libNVVM wants) and each bitcode module
// is first compiled alone, at -opt=0, unless its datalayout is one LLVM surely parses.
std::optional<std::string> Program::unreadableModule() {
    int major = 2, minor = 0, debugMajor = 0, debugMinor = 0;
    if (api_.irVersion) api_.irVersion(&major, &minor, &debugMajor, &debugMinor);
    if (unreadable_) return unreadable_;
    struct Probe {
        std::string key, bytes, module;
    };
    std::vector<Probe> probes;
    for (const auto& m : modules_) {
        if (m.isBitcode() || m.bytes.empty()) continue;
        auto [layout, triple] = targetLines(m.bytes);
        if (layout.empty() || surelyReadable(layout, triple)) continue;
        if (triple.empty()) triple = "target triple = \"nvptx64-nvidia-cuda\"";
        auto probe =
            fmt::format("{}\n{}\n!nvvmir.version = !{{!0}}\n!0 = !{{i32 {}, i32 {}}}\n", layout, triple, major, minor);
        probes.push_back({readKey("layout", probe), std::move(probe), m.name});
    }
    for (auto& m : unreadBitcode_) probes.push_back({readKey("bitcode", m.bytes), std::move(m.bytes), m.name});
    unreadBitcode_.clear();
    for (const auto& [key, bytes, module] : probes) {
        {
            std::lock_guard lock(g_readMu);
            if (g_read.count(key)) continue;
        }
        nvvmProgram p = nullptr;
        if (api_.createProgram(&p) != NVVM_SUCCESS) return module;
        const char* flags[] = {"-opt=0"};
        const bool read = api_.addModuleToProgram(p, bytes.data(), bytes.size(), "probe") == NVVM_SUCCESS &&
                          api_.compileProgram(p, 1, flags) == NVVM_SUCCESS;
        api_.destroyProgram(&p);
        if (!read) {
            unreadable_ = module;
            return unreadable_;
        }
        std::lock_guard lock(g_readMu);
        g_read.insert(key);
    }
    return std::nullopt;
}

CompileOutput Program::compile(const Options& options) {
    return run(options, true);
}
CompileOutput Program::verify(const Options& options) {
    return run(options, false);
}

CompileOutput Program::run(const Options& options, bool compile) {
    std::lock_guard lock(mu_);
    support::Stopwatch watch;
    CompileOutput out;
    if (!anyEager_) {
        out.code = NVVM_ERROR_NO_MODULE_IN_PROGRAM;
        std::string message;
        if (modules_.empty())
            message = "the program has no modules: add at least one NVVM IR module";
        else
            message = fmt::format(
                "every module of this program is marked lazy ({}), and libNVVM needs at least one "
                "module added normally: a lazy module only supplies what other modules use. Unmark "
                "the module that holds your kernels as lazy.",
                modules_.size() == 1 ? modules_[0].name : fmt::format("{} modules", modules_.size()));
        out.diagnostics.push_back({modules_.empty() ? "" : modules_[0].name, 0, 0, Severity::Error, message, "nvpg"});
        return out;
    }
    if (compile && !ensureLibdevice(out)) return out;

    const auto flags = options.flags();
    std::vector<const char*> argv;
    for (const auto& f : flags) argv.push_back(f.c_str());
    const int argc = static_cast<int>(argv.size());
    std::optional<std::string> unreadable;
    if (compile) {
        out.code = api_.compileProgram(handle_, argc, argv.data());
    } else if (unreadable = unreadableModule(); !unreadable) {
        out.code = api_.verifyProgram(handle_, argc, argv.data());
    } else {
        // A compile says what it cannot read, in libNVVM's words; its result is not kept.
        // Where it reads everything after all, the verifier is safe to run.
        out.code = api_.compileProgram(handle_, argc, argv.data());
        if (out.code == NVVM_SUCCESS) out.code = api_.verifyProgram(handle_, argc, argv.data());
    }
    out.ok = out.code == NVVM_SUCCESS;
    out.log = programLog();
    if (out.ok && compile) {
        size_t size = 0;
        if (api_.getCompiledResultSize(handle_, &size) == NVVM_SUCCESS && size > 0) {
            out.result.resize(size);
            if (api_.getCompiledResult(handle_, out.result.data()) != NVVM_SUCCESS) out.result.clear();
            // PTX comes NUL-terminated; LTO-IR is binary and kept whole.
            if (!options.genLto)
                while (!out.result.empty() && out.result.back() == '\0') out.result.pop_back();
        }
    }
    std::vector<std::string> names;
    for (const auto& m : modules_) names.push_back(m.name);
    out.diagnostics = parseNvvmLog(out.log, !out.ok, names);
    placeNamedGlobals(out.diagnostics, modules_);
    placeQuotedIr(out.diagnostics, modules_);
    // The module that failed to be read alone is the one an unplaced error is about: named
    // here, it is not read again to find that out (damaged bitcode read again and again can
    // bring libNVVM down).
    if (unreadable && !out.ok)
        for (auto& d : out.diagnostics)
            if (d.module.empty() && d.severity == Severity::Error) d.module = *unreadable;
    if (!out.ok && out.diagnostics.empty())
        out.diagnostics.push_back(
            {"", 0, 0, Severity::Error,
             fmt::format("libNVVM failed with {} and left no log", api_.getErrorString(out.code))});
    out.seconds = watch.seconds();
    return out;
}

namespace {

// Modules tried alone for an error libNVVM gave without a module; past this many the error says
// "in one of" them instead, so that a failed compile of thousands of modules stays quick.
constexpr size_t kMaxModulesTriedAlone = 64;

// "Linking globals named 'k': symbol multiply defined!" -> "k".
std::optional<std::string> multiplyDefinedSymbol(std::string_view message) {
    constexpr std::string_view head = "Linking globals named '";
    const auto at = message.find(head);
    if (at == std::string_view::npos) return std::nullopt;
    const auto start = at + head.size();
    const auto end = message.find('\'', start);
    if (end == std::string_view::npos || message.find("multiply defined", end) == std::string_view::npos)
        return std::nullopt;
    return std::string(message.substr(start, end - start));
}

// Whether text IR defines `symbol`: a function with a body, or a global variable that is not
// only declared (`@g = external global`).
bool definesSymbol(const Module& m, const std::string& symbol) {
    if (m.isBitcode()) return false;
    for (const auto& f : scanFunctions(m.bytes))
        if (f.isDefinition && f.name == symbol) return true;
    const std::string plain = "@" + symbol + " =", quoted = "@\"" + symbol + "\" =";
    for (auto line : support::splitLines(m.bytes)) {
        line = support::trim(line);
        if (!support::startsWith(line, plain) && !support::startsWith(line, quoted)) continue;
        if (line.find(" external ") == std::string_view::npos) return true;
    }
    return false;
}

std::string namesOf(const std::vector<const Module*>& modules) {
    std::vector<std::string> names;
    for (const auto* m : modules) names.push_back(m->name);
    if (names.size() == 2) return fmt::format("both {} and {}", names[0], names[1]);
    std::vector<std::string> head(names.begin(), names.end() - 1);
    return support::join(head, ", ") + " and " + names.back();
}

void nameDefiners(Diagnostic& d, const std::string& symbol, const std::vector<Module>& modules) {
    std::vector<const Module*> definers;
    for (const auto& m : modules)
        if (definesSymbol(m, symbol)) definers.push_back(&m);
    if (d.module.empty() && !definers.empty()) d.module = definers.back()->name;
    if (definers.size() == 2 && definers[0]->name == definers[1]->name) {
        d.message += fmt::format(" @{} is defined twice: {} is given twice; give it once", symbol, definers[0]->name);
        return;
    }
    std::string where;
    if (definers.size() >= 2)
        where = fmt::format("@{} is defined in {}", symbol, namesOf(definers));
    else
        // Bitcode cannot be read here: the other definition is in one of its modules.
        where = fmt::format("@{} is defined in {} and in another module", symbol,
                            d.module.empty() ? std::string("one module") : d.module);
    d.message += fmt::format(" {}; keep one definition (declare it in the others)", where);
}

}  // namespace

void nameModulesOfErrors(CompileOutput& out, const std::vector<Module>& modules, const toolkit::NvvmApi& api,
                         bool verifier) {
    std::vector<Diagnostic*> unnamed;
    for (auto& d : out.diagnostics) {
        if (d.severity != Severity::Error || d.source != "libNVVM") continue;
        if (auto symbol = multiplyDefinedSymbol(d.message)) {
            nameDefiners(d, *symbol, modules);
            continue;
        }
        // An option error names libNVVM itself, which is right.
        if (d.module.empty() && out.log.find("libnvvm : error: " + d.message) == std::string::npos)
            unnamed.push_back(&d);
    }
    // libNVVM stops at the first module it cannot read, so the first that fails alone with the
    // message is the one.
    if (!unnamed.empty() && modules.size() > 1 && modules.size() <= kMaxModulesTriedAlone) {
        for (const auto& m : modules) {
            if (std::all_of(unnamed.begin(), unnamed.end(), [](const Diagnostic* d) { return !d->module.empty(); }))
                break;
            auto alone = Program::create(api);
            if (!alone) break;
            Module eager = m;
            eager.lazy = false;
            const auto added = (*alone)->addModule(eager);
            // The verifier's messages come from verifying alone, the others from compiling.
            const auto v = !added     ? CompileOutput{}
                           : verifier ? (*alone)->verify(Options{})
                                      : (*alone)->compile(Options{});
            for (auto* d : unnamed) {
                if (!d->module.empty()) continue;
                const bool same = added ? std::any_of(v.diagnostics.begin(), v.diagnostics.end(),
                                                      [&](const Diagnostic& e) { return e.message == d->message; })
                                        : added.error().message.find(d->message) != std::string::npos;
                if (same) d->module = m.name;
            }
        }
    }
    for (auto* d : unnamed) {
        if (!d->module.empty() || modules.empty()) continue;
        if (modules.size() == 1) {
            d->module = modules[0].name;
        } else {
            std::vector<std::string> names;
            for (const auto& m : modules) names.push_back(m.name);
            d->message += fmt::format(" (in one of {})", support::joinShort(names, /*alternatives=*/true));
        }
    }
    placeLayoutErrors(out.diagnostics, modules);
}

}  // namespace nvpg::nvvm
