#include "core/lesson/Lesson.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/gpu/Npy.h"
#include "core/nvvm/Fix.h"
#include "core/nvvm/IrScan.h"
#include "core/pipeline/LibdeviceUse.h"
#include "core/support/Base64.h"
#include "core/support/Files.h"
#include "core/support/Text.h"

namespace nvpg::lesson {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;
using support::ErrorKind;

namespace {

struct KindInfo {
    CheckKind kind;
    std::string_view name;
    // The fields it takes besides "check" and "message": required ones first, then optional.
    std::vector<std::string_view> required, optional;
};

const std::vector<KindInfo>& kinds() {
    static const std::vector<KindInfo> table{
        {CheckKind::Compiles, "compiles", {}, {}},
        {CheckKind::NoDiagnostics, "no-diagnostics", {}, {}},
        {CheckKind::PtxContains, "ptx-contains", {"pattern"}, {"kernel", "output"}},
        {CheckKind::PtxLacks, "ptx-lacks", {"pattern"}, {"kernel", "output"}},
        {CheckKind::SassContains, "sass-contains", {"pattern"}, {"kernel"}},
        {CheckKind::SassLacks, "sass-lacks", {"pattern"}, {"kernel"}},
        {CheckKind::KernelExists, "kernel-exists", {"kernel"}, {"in"}},
        {CheckKind::Registers, "registers", {"kernel", "max"}, {}},
        {CheckKind::Spills, "spills", {"kernel"}, {}},
        {CheckKind::LibdeviceUses, "libdevice-uses", {"function"}, {}},
        {CheckKind::LibdeviceUnused, "libdevice-unused", {}, {}},
        {CheckKind::Option, "option", {"name", "value"}, {}},
        {CheckKind::Runs, "runs", {"run"}, {"kernel"}},
        {CheckKind::Output, "output", {"run", "arg", "equals"}, {"tolerance"}},
    };
    return table;
}

const KindInfo& infoOf(CheckKind k) {
    for (const auto& i : kinds())
        if (i.kind == k) return i;
    return kinds().front();
}

// The workspace keys a state may set.
constexpr std::string_view kStateKeys[] = {"modules", "options", "libdevice", "verify", "lto", "runs"};

std::string describe(const ojson& j) {
    if (j.is_string()) return fmt::format("the string \"{}\"", j.get<std::string>());
    if (j.is_object()) return "an object";
    if (j.is_array()) return "an array";
    if (j.is_null()) return "null";
    return j.dump();
}

class Reader {
public:
    explicit Reader(const fs::path& file) : file_(file.filename().string()) {}
    support::Error error(const std::string& pointer, const std::string& what) const {
        return support::makeError(ErrorKind::Input, fmt::format("{}: {}: {}", file_, pointer, what));
    }
    const std::string& file() const { return file_; }

private:
    std::string file_;
};

std::optional<support::Error> readString(const ojson& o, std::string_view key, const std::string& pointer,
                                         const Reader& r, std::string& out, bool required) {
    const auto it = o.find(std::string(key));
    if (it == o.end()) {
        if (required) return r.error(fmt::format("{}/{}", pointer, key), "missing; add it (a string)");
        return std::nullopt;
    }
    if (!it->is_string())
        return r.error(fmt::format("{}/{}", pointer, key), fmt::format("expected a string, found {}", describe(*it)));
    out = it->get<std::string>();
    return std::nullopt;
}

// A state's JSON over `base`: the keys it sets replace base's.
support::Result<ojson> mergeState(const ojson& base, const ojson& state, const std::string& pointer, const Reader& r) {
    if (!state.is_object())
        return r.error(pointer, fmt::format("expected an object (modules, options, libdevice, lto, runs){}, found {}",
                                            pointer.ends_with("/start") ? " or \"continue\"" : "", describe(state)));
    ojson merged = base;
    for (const auto& [key, value] : state.items()) {
        if (std::find(std::begin(kStateKeys), std::end(kStateKeys), key) == std::end(kStateKeys))
            return r.error(fmt::format("{}/{}", pointer, key),
                           "not a key of a state; a state sets modules, options, libdevice, verify, lto or runs");
        merged[key] = value;
    }
    return merged;
}

// A state as a whole workspace, read by the workspace's own reader (so a module or option in a
// step says what is wrong exactly as in a workspace, with the step's pointer in front).
support::Result<workspace::Workspace> stateOf(const ojson& merged, const std::string& pointer, const Reader& r) {
    ojson doc = ojson::object();
    doc["format"] = workspace::kFormatName;
    doc["version"] = workspace::kFormatVersion;
    for (const auto& [k, v] : merged.items()) doc[k] = v;
    // A key left out is a new workspace's: for the modules, none (the workspace reader requires
    // the key).
    if (!doc.contains("modules")) doc["modules"] = ojson::array();
    auto ws = workspace::parseWorkspace(doc.dump(), fmt::format("{}: {}", r.file(), pointer));
    if (!ws) return ws.error();
    return ws;
}

// At most `max` bytes of `text`, cut at a character's start, with "…" after a cut.
std::string cutTo(std::string_view text, size_t max) {
    if (text.size() <= max) return std::string(text);
    size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return std::string(text.substr(0, cut)) + "…";
}
// A matched line as a verdict shows it: a PTX line holding a global's initialiser may be megabytes.
std::string shortened(std::string_view line, size_t max) {
    if (line.size() <= max) return std::string(line);
    return fmt::format("{} ({} bytes)", cutTo(line, max), line.size());
}
// A pattern as an error quotes it: whole when short, else its start and its length.
std::string quotedPattern(std::string_view pattern) {
    constexpr size_t kShown = 120;
    const auto quoted = fmt::format("\"{}\"", cutTo(pattern, kShown));
    return pattern.size() <= kShown ? quoted : fmt::format("{} ({} bytes)", quoted, pattern.size());
}
constexpr size_t kFoundLineBytes = 200;

// The check's pattern compiled; a pattern RE2 cannot take is an error naming the step, the check,
// the pattern and RE2's reason.
support::Result<support::Pattern> compilePattern(const std::string& pattern, const std::string& pointer,
                                                 const std::string& place, const Reader& r) {
    auto compiled = support::Pattern::compile(pattern);
    if (compiled) return compiled;
    return r.error(pointer + "/pattern",
                   fmt::format("{} is not a valid regular expression for {} ({}); patterns are RE2 syntax (Go's, "
                               "or Python's re without backreferences and lookaround), searched in each line",
                               quotedPattern(pattern), place, compiled.error().message));
}

std::optional<support::Error> readCheck(const ojson& c, const std::string& pointer, const std::string& place,
                                        const Reader& r, const fs::path& folder, Check& out) {
    if (!c.is_object())
        return r.error(pointer,
                       fmt::format("expected an object with \"check\" and \"message\", found {}", describe(c)));
    std::string name;
    if (auto e = readString(c, "check", pointer, r, name, true)) return e;
    const auto kind = parseCheckKind(name);
    if (!kind)
        return r.error(pointer + "/check",
                       fmt::format("unknown check \"{}\"; the checks are {}", name, checkKindNames()));
    out.kind = *kind;
    out.pointer = pointer;
    const auto& info = infoOf(*kind);
    for (const auto& [key, value] : c.items()) {
        if (key == "check" || key == "message" || key == "description") continue;
        const bool known = std::find(info.required.begin(), info.required.end(), key) != info.required.end() ||
                           std::find(info.optional.begin(), info.optional.end(), key) != info.optional.end();
        if (!known) {
            std::vector<std::string> fields;
            for (auto f : info.required) fields.emplace_back(f);
            for (auto f : info.optional) fields.push_back(std::string(f) + " (optional)");
            return r.error(pointer + "/" + key,
                           fmt::format("\"{}\" is not a field of a {} check; it takes {}", key, name,
                                       fields.empty() ? "only \"message\" and \"description\""
                                                      : support::join(fields, ", ") + ", message and description"));
        }
    }
    for (auto field : info.required)
        if (!c.contains(std::string(field)))
            return r.error(fmt::format("{}/{}", pointer, field), fmt::format("missing; a {} check needs it", name));
    if (auto e = readString(c, "message", pointer, r, out.message, true)) return e;
    if (out.message.empty())
        return r.error(pointer + "/message", "empty; say what the learner should look at or change");
    if (c.contains("description")) {
        if (auto e = readString(c, "description", pointer, r, out.description, false)) return e;
        if (support::trim(out.description).empty())
            return r.error(pointer + "/description",
                           "empty; say in plain words what the check asks (\"the PTX loads the scale "
                           "parameter\"), or leave the field out");
    }
    auto str = [&](std::string_view key, std::string& into) { return readString(c, key, pointer, r, into, false); };
    if (auto e = str("kernel", out.kernel)) return e;
    if (auto e = str("function", out.function)) return e;
    if (auto e = str("run", out.run)) return e;
    if (auto e = str("name", out.option)) return e;
    if (c.contains("pattern")) {
        if (auto e = str("pattern", out.pattern)) return e;
        auto compiled = compilePattern(out.pattern, pointer, place, r);
        if (!compiled) return compiled.error();
        out.matcher = std::move(*compiled);
    }
    if (c.contains("output")) {
        std::string o;
        if (auto e = str("output", o)) return e;
        if (o == "ptx")
            out.where = Where::Ptx;
        else if (o == "lto-ptx")
            out.where = Where::LtoPtx;
        else
            return r.error(pointer + "/output", fmt::format("\"{}\" is not an output; use \"ptx\" or \"lto-ptx\"", o));
    }
    if (*kind == CheckKind::KernelExists) {
        out.where = Where::Both;
        if (c.contains("in")) {
            std::string o;
            if (auto e = str("in", o)) return e;
            if (o == "ptx")
                out.where = Where::Ptx;
            else if (o == "lto-ptx")
                out.where = Where::LtoPtx;
            else if (o == "both")
                out.where = Where::Both;
            else
                return r.error(pointer + "/in",
                               fmt::format("\"{}\" is not a place; use \"ptx\", \"lto-ptx\" or \"both\"", o));
        }
    }
    auto integer = [&](std::string_view key, int& into, int min) -> std::optional<support::Error> {
        const auto& v = c.at(std::string(key));
        if (!v.is_number_integer() || v.get<int64_t>() < min || v.get<int64_t>() > 1 << 20)
            return r.error(fmt::format("{}/{}", pointer, key),
                           fmt::format("expected a whole number from {}, found {}", min, describe(v)));
        into = int(v.get<int64_t>());
        return std::nullopt;
    };
    if (*kind == CheckKind::Registers)
        if (auto e = integer("max", out.max, 0)) return e;
    if (*kind == CheckKind::Output) {
        if (auto e = integer("arg", out.arg, 1)) return e;
        std::string equals;
        if (auto e = str("equals", equals)) return e;
        if (!equals.ends_with(".npy"))
            return r.error(pointer + "/equals",
                           fmt::format("\"{}\" is not a .npy file; name the expected buffer's .npy", equals));
        out.equalsName = equals;
        out.equals = folder / equals;
        if (c.contains("tolerance")) {
            const auto& t = c.at("tolerance");
            if (!t.is_number() || t.get<double>() < 0)
                return r.error(pointer + "/tolerance", fmt::format("expected a number ≥ 0, found {}", describe(t)));
            out.tolerance = t.get<double>();
        }
    }
    if (*kind == CheckKind::Option) {
        const auto* opt = nvvm::findOption(out.option);
        if (!opt || opt->outputChoice) {
            std::vector<std::string> names;
            for (const auto& o : nvvm::optionTable())
                if (!o.outputChoice) names.emplace_back(o.name);
            return r.error(pointer + "/name", fmt::format("\"{}\" is not an option; the options are {}", out.option,
                                                          support::join(names, ", ")));
        }
        const auto& v = c.at("value");
        if (v.is_boolean())
            out.value = std::string(1, v.get<bool>() ? '1' : '0');
        else if (v.is_number_integer())
            out.value = std::to_string(v.get<int64_t>());
        else if (v.is_string())
            out.value = v.get<std::string>();
        else
            return r.error(pointer + "/value",
                           fmt::format("expected a boolean, a number or a string, found {}", describe(v)));
        nvvm::Options probe;
        if (auto st = probe.set(out.option, out.value); !st) return r.error(pointer + "/value", st.error().message);
        out.value = *probe.get(out.option);
    }
    return std::nullopt;
}

// The lines of `text` from `range` (1-based, both included), each with its number.
std::optional<std::string> searchLines(std::string_view text, int first, int last, const support::Pattern& re) {
    int n = 0;
    for (auto line : support::splitLines(text)) {
        ++n;
        if (n < first) continue;
        if (last > 0 && n > last) break;
        if (re.search(line)) return fmt::format("line {}: {}", n, shortened(support::trim(line), kFoundLineBytes));
    }
    return std::nullopt;
}

bool definesKernel(const workspace::Workspace& ws, const std::string& kernel) {
    for (const auto& m : ws.modules) {
        if (m.isBitcode()) {
            // The bitcode's string table has its names; a kernel is trusted to be there.
            if (m.bytes.find(kernel) != std::string::npos) return true;
            continue;
        }
        for (const auto& f : nvvm::scanFunctions(m.bytes))
            if (f.isDefinition && f.name == kernel) return true;
    }
    return false;
}

const ptx::ResourceUsage* usageOf(const pipeline::CompileResult& r, const std::string& kernel) {
    if (const auto* u = r.ptxFigures.find(kernel)) return u;
    for (const auto& k : r.kernels)
        if (k.name == kernel && k.usage) return &*k.usage;
    return r.ltoFigures.find(kernel);
}

CheckOutcome failed(const Check& c, std::string found) {
    return {&c, Verdict::Failed, c.message, std::move(found)};
}
CheckOutcome passed(const Check& c, std::string found = {}) {
    return {&c, Verdict::Passed, {}, std::move(found)};
}
CheckOutcome notChecked(const Check& c, std::string why) {
    return {&c, Verdict::NotChecked, std::move(why), {}};
}

// A JSON pointer's token for `key` (RFC 6901): "~" as "~0", "/" as "~1".
std::string pointerToken(std::string_view key) {
    std::string out;
    for (char ch : key) {
        if (ch == '~')
            out += "~0";
        else if (ch == '/')
            out += "~1";
        else
            out += ch;
    }
    return out;
}

// A name as an output check's "equals" gives it: a .npy file below the lesson's folder.
bool isReferenceName(std::string_view name) {
    if (!name.ends_with(".npy") || name.starts_with('/') || name.find('\\') != std::string_view::npos) return false;
    for (const auto& part : fs::path(name))
        if (part == "..") return false;
    return true;
}

using CarriedFiles = std::map<std::string, std::shared_ptr<const std::string>>;

// The lesson's "files": each a .npy an output check compares with, base64. Data only: each is
// decoded within kEmbeddedFileLimit (its size is checked before it is decoded) and read as a .npy
// here, so that a damaged one is the teacher's error with its pointer, not a learner's failed check.
support::Result<CarriedFiles> readCarriedFiles(const ojson& l, const Reader& r) {
    CarriedFiles out;
    const auto it = l.find("files");
    if (it == l.end()) return out;
    if (!it->is_object())
        return r.error("/lesson/files", fmt::format("expected an object (a .npy file's name: its bytes in base64), "
                                                    "found {}",
                                                    describe(*it)));
    const auto& limit = kEmbeddedFileLimit;
    for (const auto& [name, value] : it->items()) {
        const std::string p = "/lesson/files/" + pointerToken(name);
        if (!isReferenceName(name))
            return r.error(p, fmt::format("\"{}\" is not the name of a .npy file below the lesson's folder; name it "
                                          "as the output check's \"equals\" does",
                                          support::printable(name)));
        if (!value.is_string())
            return r.error(p, fmt::format("expected the file's bytes as a base64 string, found {}", describe(value)));
        const auto& text = value.get_ref<const std::string&>();
        const auto tooBig = [&](uint64_t bytes) {
            return r.error(p, fmt::format("{} of data, more than the {} {} may hold; compare with a smaller buffer",
                                          support::formatBytes(bytes), support::formatBytes(limit.bytes), limit.what));
        };
        if (text.size() / 4 * 3 > limit.bytes + 3) return tooBig(text.size() / 4 * 3);
        auto bytes = support::base64Decode(text);
        if (!bytes) return r.error(p, bytes.error().message);
        if (bytes->size() > limit.bytes) return tooBig(bytes->size());
        if (auto npy = gpu::readNpy(*bytes, name); !npy)
            return r.error(p, npy.error().message + "; carry the file as numpy.save writes it");
        out[name] = std::make_shared<const std::string>(std::move(*bytes));
    }
    return out;
}

// The check's compiled pattern: readLesson's, or compiled here for a check made in code.
support::Result<support::Pattern> matcherOf(const Check& c) {
    if (c.matcher.compiled() && c.matcher.source() == c.pattern) return c.matcher;
    auto compiled = support::Pattern::compile(c.pattern);
    if (!compiled)
        return support::makeError(ErrorKind::Input,
                                  fmt::format("{}/pattern: {} is not a valid regular expression ({})", c.pointer,
                                              quotedPattern(c.pattern), compiled.error().message));
    return compiled;
}

}  // namespace

support::Result<gpu::NpyArray> readReference(const Check& c) {
    const auto name = c.equalsName.empty() ? c.equals.filename().string() : c.equalsName;
    const auto cannot = [&](const std::string& why) {
        return support::makeError(ErrorKind::Input, fmt::format("cannot read reference {} ({})", name, why));
    };
    std::string read;
    std::string_view bytes;
    if (c.reference) {
        bytes = *c.reference;
    } else {
        auto file = support::readFile(c.equals, support::kBufferFileLimit);
        if (!file) return cannot(file.error().message);
        read = std::move(*file);
        bytes = read;
    }
    auto npy = gpu::readNpy(bytes, name);
    if (!npy) return cannot(npy.error().message);
    return npy;
}

namespace {

CheckOutcome evaluateOne(const Check& c, const workspace::Workspace& state, const Evidence& ev) {
    const auto* r = ev.compile;
    const std::string noCompile =
        r ? "" : fmt::format("the compile did not run: {}", ev.compileError.empty() ? "unknown" : ev.compileError);
    switch (c.kind) {
        case CheckKind::Compiles: {
            if (!r) return failed(c, noCompile);
            if (r->ok) return passed(c);
            for (const auto& d : r->diagnostics)
                if (d.severity == nvvm::Severity::Error) return failed(c, nvvm::formatDiagnostic(d));
            return failed(c, "the compile failed");
        }
        case CheckKind::NoDiagnostics: {
            if (!r) return failed(c, noCompile);
            for (const auto& d : r->diagnostics)
                if (d.severity != nvvm::Severity::Note) return failed(c, nvvm::formatDiagnostic(d));
            return passed(c);
        }
        case CheckKind::PtxContains:
        case CheckKind::PtxLacks: {
            if (!r) return failed(c, noCompile);
            const auto re = matcherOf(c);
            if (!re) return failed(c, re.error().message);
            const bool lto = c.where == Where::LtoPtx;
            const std::string& text = lto ? r->linkedPtx : r->ptx;
            const char* what = lto ? "LTO-linked PTX" : "PTX";
            if (text.empty()) return failed(c, fmt::format("there is no {} (the compile failed)", what));
            int first = 1, last = 0;
            if (!c.kernel.empty()) {
                const auto range = pipeline::ptxFunctionLines(lto ? r->linkedPtxModule : r->ptxModule, text, c.kernel);
                if (range.first == 0) return failed(c, fmt::format("there is no kernel {} in the {}", c.kernel, what));
                first = range.first;
                last = range.last;
            }
            const auto hit = searchLines(text, first, last, *re);
            const bool wantHit = c.kind == CheckKind::PtxContains;
            if (hit.has_value() == wantHit)
                return passed(c, hit ? *hit : fmt::format("no line of the {} matches", what));
            return failed(c, hit ? fmt::format("found at {}", *hit)
                                 : fmt::format("no line of the {}{} matches /{}/", what,
                                               c.kernel.empty() ? "" : " of " + c.kernel, c.pattern));
        }
        case CheckKind::SassContains:
        case CheckKind::SassLacks: {
            if (!r) return failed(c, noCompile);
            const auto re = matcherOf(c);
            if (!re) return failed(c, re.error().message);
            if (r->sass.empty()) {
                if (!r->ok) return failed(c, "there is no SASS (the compile failed)");
                return notChecked(c, fmt::format("not checked: needs nvdisasm ({})",
                                                 r->sassUnavailable.empty() ? "no SASS was made" : r->sassUnavailable));
            }
            std::optional<std::string> hit;
            bool kernelSeen = c.kernel.empty();
            for (const auto& ins : inspect::readSass(r->sass).instructions) {
                if (!c.kernel.empty() && ins.function != c.kernel) continue;
                kernelSeen = true;
                if (re->search(ins.code)) {
                    hit = fmt::format("line {}: {}", ins.line, shortened(ins.code, kFoundLineBytes));
                    break;
                }
            }
            if (!kernelSeen) return failed(c, fmt::format("there is no kernel {} in the SASS", c.kernel));
            const bool wantHit = c.kind == CheckKind::SassContains;
            if (hit.has_value() == wantHit) return passed(c, hit ? *hit : "no SASS instruction matches");
            return failed(c, hit ? fmt::format("found at {}", *hit)
                                 : fmt::format("no SASS instruction{} matches /{}/",
                                               c.kernel.empty() ? "" : " of " + c.kernel, c.pattern));
        }
        case CheckKind::KernelExists: {
            if (!r) return failed(c, noCompile);
            auto has = [&](const ptx::PtxModule& m) {
                const auto* f = m.find(c.kernel);
                return f && f->isEntry && !f->isExtern;
            };
            const bool inPtx = has(r->ptxModule), inLto = has(r->linkedPtxModule);
            const bool linked = !r->linkedPtx.empty();
            if ((c.where != Where::LtoPtx) && !inPtx)
                return failed(c, fmt::format("the PTX has no .entry {}", c.kernel));
            if (c.where != Where::Ptx) {
                if (!linked) {
                    if (c.where == Where::LtoPtx || !r->ok)
                        return failed(c, "there is no LTO-linked PTX (the compile or the link failed)");
                    return passed(c, fmt::format(".entry {} in the PTX (no LTO link was made)", c.kernel));
                }
                if (!inLto)
                    return failed(c,
                                  fmt::format("the LTO-linked PTX has no .entry {}: nvJitLink dropped it", c.kernel));
            }
            return passed(c, fmt::format(".entry {} found", c.kernel));
        }
        case CheckKind::Registers:
        case CheckKind::Spills: {
            if (!r) return failed(c, noCompile);
            const auto* u = usageOf(*r, c.kernel);
            if (!u) {
                if (!r->ok) return failed(c, "there are no figures (the compile failed)");
                if (!r->ptxFigures.unavailable.empty() && r->ptxFigures.functions.empty())
                    return notChecked(c, "not checked: " + r->ptxFigures.unavailable);
                return failed(c, fmt::format("ptxas reports no kernel {}", c.kernel));
            }
            if (c.kind == CheckKind::Registers) {
                const auto found =
                    fmt::format("{} uses {} registers per thread (at most {} asked)", c.kernel, u->registers, c.max);
                return u->registers <= c.max ? passed(c, found) : failed(c, found);
            }
            const auto found = fmt::format("{} spills {} bytes to local memory and loads {} back", c.kernel,
                                           u->spillStores, u->spillLoads);
            return u->spillStores == 0 && u->spillLoads == 0 ? passed(c, found) : failed(c, found);
        }
        case CheckKind::LibdeviceUses:
        case CheckKind::LibdeviceUnused: {
            if (!r) return failed(c, noCompile);
            if (!r->ok) return failed(c, "the compile failed, so nothing was linked");
            const auto& used = r->libdeviceFunctions;
            if (c.kind == CheckKind::LibdeviceUnused) {
                if (used.empty()) return passed(c, "no libdevice function was linked");
                return failed(c, fmt::format("libdevice supplied {}", support::join(used, ", ")));
            }
            if (std::find(used.begin(), used.end(), c.function) != used.end())
                return passed(c, fmt::format("libdevice supplied {}", c.function));
            if (!state.libdevice) return failed(c, "libdevice is off");
            return failed(c, used.empty() ? "libdevice supplied nothing"
                                          : fmt::format("libdevice supplied {}", support::join(used, ", ")));
        }
        case CheckKind::Option: {
            auto value = state.options.get(c.option);
            std::string shown = value ? *value : "";
            if (!value) {
                const auto* info = nvvm::findOption(c.option);
                if (info && !info->libnvvmDefault.empty()) value = std::string(info->libnvvmDefault);
                shown = value ? *value + " (libNVVM's default)" : "unset";
            }
            const auto found = fmt::format("{} is {}", c.option, shown);
            return value && *value == c.value ? passed(c, found) : failed(c, found);
        }
        case CheckKind::Runs:
        case CheckKind::Output: {
            const auto* config = [&]() -> const gpu::RunConfig* {
                for (const auto& run : state.runs)
                    if (run.name == c.run) return &run;
                return nullptr;
            }();
            if (!config)
                return failed(c,
                              fmt::format("there is no run configuration \"{}\" (it was removed or renamed)", c.run));
            if (!c.kernel.empty() && config->kernel != c.kernel)
                return failed(
                    c, fmt::format("run configuration \"{}\" launches {}, not {}", c.run, config->kernel, c.kernel));
            // The expected buffer first, on any machine: a reference that cannot be read is the
            // lesson's problem, never a verdict on the learner's kernel.
            std::optional<gpu::NpyArray> want;
            if (c.kind == CheckKind::Output) {
                auto read = readReference(c);
                if (!read) return notChecked(c, "not checked: " + read.error().message);
                want = std::move(*read);
            }
            const auto needsGpu = [](const std::string& why) {
                return why.empty() ? std::string("not checked: needs a GPU")
                                   : fmt::format("not checked: needs a GPU ({})", why);
            };
            if (!ev.gpuAvailable) return notChecked(c, needsGpu(ev.noGpu));
            if (!r || !r->ok) return failed(c, "the compile failed, so nothing ran");
            const RunEvidence* run = nullptr;
            for (const auto& e : ev.runs)
                if (e.run == c.run) run = &e;
            if (!run) return notChecked(c, "not checked: the run was not made");
            if (!run->ran) return notChecked(c, needsGpu(run->error));
            if (!run->error.empty()) return failed(c, run->error);
            if (c.kind == CheckKind::Runs) return passed(c, fmt::format("{} ran", config->kernel));
            const std::string* bytes = nullptr;
            for (const auto& [arg, npy] : run->npyOutputs)
                if (arg + 1 == size_t(c.arg)) bytes = &npy;
            if (!bytes) return failed(c, fmt::format("argument {} is not a buffer the run copies back", c.arg));
            auto got = gpu::readNpy(*bytes, fmt::format("argument {}", c.arg));
            if (!got) return failed(c, got.error().message);
            if (got->count() != want->count())
                return failed(c, fmt::format("argument {} has {} elements, {} has {}", c.arg, got->count(),
                                             fs::path(c.equalsName).filename().string(), want->count()));
            const auto& gi = gpu::elemInfo(got->type);
            const auto& wi = gpu::elemInfo(want->type);
            for (size_t i = 0; i < got->count(); ++i) {
                const double a = gpu::elementAsDouble(got->type, got->data.data() + i * gi.size);
                const double b = gpu::elementAsDouble(want->type, want->data.data() + i * wi.size);
                if (!(std::fabs(a - b) <= c.tolerance) && !(std::isnan(a) && std::isnan(b)))
                    return failed(c, fmt::format("element {} is {}, expected {} (tolerance {})", i, a, b, c.tolerance));
            }
            return passed(c, fmt::format("all {} elements of argument {} match", got->count(), c.arg));
        }
    }
    return failed(c, "unknown check");
}

}  // namespace

std::string_view checkKindName(CheckKind kind) {
    return infoOf(kind).name;
}

std::optional<CheckKind> parseCheckKind(std::string_view name) {
    for (const auto& i : kinds())
        if (i.name == name) return i.kind;
    return std::nullopt;
}

std::string checkKindNames() {
    std::vector<std::string> names;
    for (const auto& i : kinds()) names.emplace_back(i.name);
    return support::join(names, ", ");
}

std::string_view verdictName(Verdict v) {
    switch (v) {
        case Verdict::Passed:
            return "passed";
        case Verdict::Failed:
            return "failed";
        case Verdict::NotChecked:
            return "not checked";
    }
    return "failed";
}

support::Result<Lesson> readLesson(const workspace::Workspace& ws, const fs::path& file) {
    const Reader r(file);
    const ojson& l = ws.lesson;
    if (l.is_null())
        return support::makeError(
            ErrorKind::Input, fmt::format("{}: this workspace is not a lesson (it has no \"lesson\" object); open a "
                                          "lesson file, e.g. one from File > Lessons",
                                          r.file()));
    if (!l.is_object()) return r.error("/lesson", fmt::format("expected an object, found {}", describe(l)));
    Lesson out;
    out.folder = file.parent_path();
    for (const auto& [key, value] : l.items())
        if (key != "id" && key != "title" && key != "summary" && key != "steps" && key != "files" && key != "current")
            return r.error("/lesson/" + key,
                           "not a key of a lesson; a lesson has id, title, summary, steps, files and current");
    if (auto e = readString(l, "id", "/lesson", r, out.id, true)) return *e;
    if (out.id.empty()) return r.error("/lesson/id", "empty; give the lesson a stable id (\"course/01-name\")");
    if (auto e = readString(l, "title", "/lesson", r, out.title, true)) return *e;
    if (auto e = readString(l, "summary", "/lesson", r, out.summary, false)) return *e;
    const auto steps = l.find("steps");
    if (steps == l.end()) return r.error("/lesson/steps", "missing; a lesson has at least one step");
    if (!steps->is_array() || steps->empty())
        return r.error("/lesson/steps", fmt::format("expected a non-empty array of steps, found {}", describe(*steps)));
    if (steps->size() > kMaxLessonSteps)
        return r.error("/lesson/steps",
                       fmt::format("{} steps, more than the {} a lesson may have; split it into "
                                   "several lessons (a course)",
                                   support::formatCount(steps->size()), support::formatCount(kMaxLessonSteps)));
    auto carried = readCarriedFiles(l, r);
    if (!carried) return carried.error();
    std::set<std::string> used;
    ojson prevStart = ojson::object(), prevReference = ojson::object();
    for (size_t i = 0; i < steps->size(); ++i) {
        const auto& s = (*steps)[i];
        const std::string p = fmt::format("/lesson/steps/{}", i);
        if (!s.is_object())
            return r.error(p, fmt::format("expected an object (step {}), found {}", i + 1, describe(s)));
        Step step;
        for (const auto& [key, value] : s.items())
            if (key != "title" && key != "instructions" && key != "start" && key != "hints" && key != "solution" &&
                key != "checks" && key != "hide-fixes")
                return r.error(p + "/" + key, fmt::format("not a key of a step (step {}); a step has title, "
                                                          "instructions, start, hints, solution, checks and "
                                                          "hide-fixes",
                                                          i + 1));
        if (auto e = readString(s, "title", p, r, step.title, true)) return *e;
        if (auto e = readString(s, "instructions", p, r, step.instructions, true)) return *e;
        const auto start = s.find("start");
        if (start == s.end())
            return r.error(p + "/start", fmt::format("missing (step {}); give a state or \"continue\"", i + 1));
        ojson startJson;
        if (start->is_string()) {
            if (start->get<std::string>() != "continue")
                return r.error(p + "/start", fmt::format("\"{}\" is not a start; use a state object or \"continue\"",
                                                         start->get<std::string>()));
            if (i == 0)
                return r.error(p + "/start",
                               "the first step cannot continue: there is no step before it; give its "
                               "starting state");
            step.continues = true;
            startJson = prevReference;
            step.start = out.steps.back().reference();
        } else {
            auto merged = mergeState(prevStart, *start, p + "/start", r);
            if (!merged) return merged.error();
            startJson = std::move(*merged);
            auto state = stateOf(startJson, p + "/start", r);
            if (!state) return state.error();
            step.start = std::move(*state);
        }
        ojson referenceJson = startJson;
        if (const auto sol = s.find("solution"); sol != s.end()) {
            auto merged = mergeState(startJson, *sol, p + "/solution", r);
            if (!merged) return merged.error();
            referenceJson = std::move(*merged);
            auto state = stateOf(referenceJson, p + "/solution", r);
            if (!state) return state.error();
            step.solution = std::move(*state);
        }
        if (const auto hints = s.find("hints"); hints != s.end()) {
            if (!hints->is_array())
                return r.error(p + "/hints", fmt::format("expected an array of strings, found {}", describe(*hints)));
            for (size_t h = 0; h < hints->size(); ++h) {
                if (!(*hints)[h].is_string())
                    return r.error(fmt::format("{}/hints/{}", p, h),
                                   fmt::format("expected a string, found {}", describe((*hints)[h])));
                step.hints.push_back((*hints)[h].get<std::string>());
            }
        }
        if (const auto hide = s.find("hide-fixes"); hide != s.end()) {
            const auto& kinds = nvvm::fixKinds();
            const auto names = [&] {
                std::vector<std::string> all(kinds.begin(), kinds.end());
                return support::join(all, ", ");
            };
            if (!hide->is_array())
                return r.error(p + "/hide-fixes",
                               fmt::format("expected an array of fix kinds ({}), found {}", names(), describe(*hide)));
            for (size_t h = 0; h < hide->size(); ++h) {
                const auto& k = (*hide)[h];
                if (!k.is_string() || std::find(kinds.begin(), kinds.end(), k.get<std::string>()) == kinds.end())
                    return r.error(fmt::format("{}/hide-fixes/{}", p, h),
                                   fmt::format("{} is not a kind of fix; the kinds are {}", describe(k), names()));
                step.hiddenFixes.push_back(k.get<std::string>());
            }
        }
        const auto checks = s.find("checks");
        if (checks == s.end() || !checks->is_array() || checks->empty())
            return r.error(p + "/checks",
                           fmt::format("{} (step {}); a step needs at least one check",
                                       checks == s.end() ? "missing" : "expected a non-empty array", i + 1));
        for (size_t c = 0; c < checks->size(); ++c) {
            Check check;
            if (auto e = readCheck((*checks)[c], fmt::format("{}/checks/{}", p, c),
                                   fmt::format("step {}, check {}", i + 1, c + 1), r, out.folder, check))
                return *e;
            if (check.kind == CheckKind::Output) {
                if (const auto f = carried->find(check.equalsName); f != carried->end()) check.reference = f->second;
                used.insert(check.equalsName);
            }
            step.checks.push_back(std::move(check));
        }
        // A check's state must have the run configuration it names.
        for (const auto& check : step.checks) {
            if (check.run.empty()) continue;
            auto has = [&](const workspace::Workspace& w) {
                return std::any_of(w.runs.begin(), w.runs.end(), [&](const auto& rc) { return rc.name == check.run; });
            };
            if (!has(step.start) && !(step.solution && has(*step.solution)))
                return r.error(check.pointer + "/run",
                               fmt::format("there is no run configuration \"{}\" in step {}'s start or solution; add "
                                           "it to the state's \"runs\"",
                                           check.run, i + 1));
        }
        prevStart = std::move(startJson);
        prevReference = std::move(referenceJson);
        out.steps.push_back(std::move(step));
    }
    for (const auto& [name, bytes] : *carried)
        if (!used.count(name))
            return r.error("/lesson/files/" + pointerToken(name),
                           fmt::format("no output check compares with \"{}\"; remove it, or name it in a check's "
                                       "\"equals\"",
                                       support::printable(name)));
    if (const auto cur = l.find("current"); cur != l.end()) {
        if (!cur->is_number_integer() || cur->get<int64_t>() < 1 || cur->get<int64_t>() > int64_t(out.steps.size()))
            return r.error("/lesson/current", fmt::format("expected a step number from 1 to {}, found {}",
                                                          out.steps.size(), describe(*cur)));
        out.current = int(cur->get<int64_t>());
    }
    return out;
}

support::Result<LessonFile> loadLesson(const fs::path& file) {
    // Its size is checked before a byte is read, its steps before one is read (readLesson).
    auto bytes = support::readFile(file, kLessonFileLimit);
    if (!bytes) return bytes.error();
    auto ws = workspace::parseWorkspace(*bytes, file.string());
    if (!ws) return ws.error();
    auto lesson = readLesson(*ws, file);
    if (!lesson) return lesson.error();
    return LessonFile{std::move(*ws), std::move(*lesson)};
}

std::vector<std::string> kernelProblems(const Lesson& lesson) {
    std::vector<std::string> out;
    for (size_t i = 0; i < lesson.steps.size(); ++i) {
        const auto& step = lesson.steps[i];
        for (const auto& c : step.checks) {
            if (c.kernel.empty()) continue;
            if (definesKernel(step.start, c.kernel) || (step.solution && definesKernel(*step.solution, c.kernel)))
                continue;
            out.push_back(
                fmt::format("{}/kernel: kernel \"{}\" is defined in neither the start nor the solution "
                            "of step {} (\"{}\"); name a kernel the step's modules define",
                            c.pointer, c.kernel, i + 1, step.title));
        }
    }
    return out;
}

workspace::Workspace withState(const workspace::Workspace& ws, const workspace::Workspace& state) {
    workspace::Workspace out = ws;
    out.modules = state.modules;
    out.options = state.options;
    out.libdevice = state.libdevice;
    out.libdeviceSaved = true;
    out.verify = state.verify;
    out.ltoMode = state.ltoMode;
    out.runs = state.runs;
    return out;
}

ojson withCurrent(const ojson& lesson, int step) {
    ojson out = lesson;
    out["current"] = step;
    return out;
}

pipeline::Job checkJob(const Step& step, const workspace::Workspace& state, bool haveNvJitLink,
                       const std::string& arch) {
    pipeline::Job job;
    job.modules = state.modules;
    job.options = state.options;
    if (!arch.empty() && !job.options.arch) job.options.arch = arch;
    job.libdevice = state.libdevice;
    job.verify = state.verify;
    job.ltoMode = state.ltoMode;
    job.outputs = pipeline::kPtx | pipeline::kFigures;
    if (haveNvJitLink) job.outputs |= pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin;
    if (std::any_of(step.checks.begin(), step.checks.end(), [](const Check& c) { return c.needsSass(); }))
        job.outputs |= pipeline::kSass;
    return job;
}

std::vector<CheckOutcome> evaluate(const Step& step, const workspace::Workspace& state, const Evidence& evidence) {
    std::vector<CheckOutcome> out;
    out.reserve(step.checks.size());
    for (const auto& c : step.checks) out.push_back(evaluateOne(c, state, evidence));
    return out;
}

bool allPassed(const std::vector<CheckOutcome>& outcomes) {
    return std::all_of(outcomes.begin(), outcomes.end(), [](const auto& o) { return o.verdict == Verdict::Passed; });
}

}  // namespace nvpg::lesson
