#include "core/workspace/Workspace.h"

#include "core/gpu/RunConfig.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <variant>

#include <fmt/format.h>

#include "core/nvvm/IrScan.h"
#include "core/nvvm/Libdevice.h"
#include "core/support/Base64.h"
#include "core/support/Files.h"
#include "core/support/Json.h"
#include "core/support/Text.h"

using nlohmann::json;
using nvpg::support::Error;
using nvpg::support::ErrorKind;

namespace nvpg::workspace {

namespace {

// Every error of one parse carries the file name in front; the pointer says where inside it.
class Reader {
public:
    explicit Reader(std::string_view sourceName) : source_(sourceName) {}

    Error error(std::string_view pointer, std::string_view what) const {
        std::string m;
        if (!source_.empty()) m = fmt::format("{}: ", source_);
        if (!pointer.empty()) m += fmt::format("{}: ", pointer);
        m += what;
        return support::makeError(ErrorKind::Input, std::move(m));
    }

private:
    std::string source_;
};

std::string describe(const json& j) {
    switch (j.type()) {
        case json::value_t::null:
            return "null";
        case json::value_t::boolean:
            return fmt::format("a boolean ({})", j.get<bool>());
        case json::value_t::string: {
            const auto& s = j.get_ref<const std::string&>();
            if (s.size() > 40) return "a string";
            return fmt::format("a string (\"{}\")", s);
        }
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float:
            return fmt::format("a number ({})", j.dump());
        case json::value_t::object:
            return "an object";
        case json::value_t::array:
            return "an array";
        default:
            return "a value of another kind";
    }
}

std::string expected(std::string_view what, const json& got) {
    return fmt::format("expected {}, got {}", what, describe(got));
}

std::string child(std::string_view pointer, std::string_view key) {
    // RFC 6901 escaping, so that a pointer to an odd key can still be followed.
    std::string k;
    for (char c : key) {
        if (c == '~')
            k += "~0";
        else if (c == '/')
            k += "~1";
        else
            k += c;
    }
    return fmt::format("{}/{}", pointer, k);
}
std::string child(std::string_view pointer, size_t index) {
    return fmt::format("{}/{}", pointer, index);
}

struct Parsed {
    json doc;
    std::optional<Error> error;
};

Parsed parseJson(std::string_view text, const Reader& r) {
    auto parsed = support::parseJson(text);
    if (!parsed.problem) return {std::move(parsed.doc), std::nullopt};
    const auto& pr = *parsed.problem;
    return {nullptr, r.error(fmt::format("line {}, column {}", pr.line, pr.column),
                             fmt::format("not valid JSON: {}; fix the file or save it again from NVVM "
                                         "Playground",
                                         pr.reason))};
}

std::optional<Error> readString(const json& obj, std::string_view key, std::string_view pointer, const Reader& r,
                                std::string& out) {
    const auto it = obj.find(key);
    if (it == obj.end()) return std::nullopt;
    if (!it->is_string()) return r.error(child(pointer, key), expected("a string", *it));
    out = it->get<std::string>();
    return std::nullopt;
}

std::optional<Error> readBool(const json& obj, std::string_view key, std::string_view pointer, const Reader& r,
                              bool& out) {
    const auto it = obj.find(key);
    if (it == obj.end()) return std::nullopt;
    if (!it->is_boolean()) return r.error(child(pointer, key), expected("true or false", *it));
    out = it->get<bool>();
    return std::nullopt;
}

std::optional<Error> readModule(const json& m, std::string_view pointer, const Reader& r, nvvm::Module& out) {
    if (!m.is_object()) return r.error(pointer, expected("an object with \"name\" and \"text\" or \"bitcode\"", m));
    const auto name = m.find("name");
    if (name == m.end()) return r.error(pointer, "the module has no \"name\"; give it one, such as \"kernel.ll\"");
    if (!name->is_string()) return r.error(child(pointer, "name"), expected("a string", *name));
    out.name = name->get<std::string>();
    if (out.name.empty())
        return r.error(child(pointer, "name"),
                       "the module name is empty; give it a name such as \"kernel.ll\" (libNVVM "
                       "reports errors by module name)");
    if (auto problem = nvvm::moduleNameProblem(out.name))
        return r.error(child(pointer, "name"),
                       fmt::format("{}; rename the module ({})", *problem, nvvm::kModuleNameAdvice));

    const auto text = m.find("text");
    const auto bitcode = m.find("bitcode");
    if (text != m.end() && bitcode != m.end())
        return r.error(pointer, "the module has both \"text\" and \"bitcode\"; keep exactly one of them");
    if (text == m.end() && bitcode == m.end())
        return r.error(pointer,
                       "the module has neither \"text\" nor \"bitcode\"; add its IR text under "
                       "\"text\" or its base64 bitcode under \"bitcode\"");
    if (text != m.end()) {
        const auto p = child(pointer, "text");
        if (!text->is_string()) return r.error(p, expected("a string", *text));
        out.bytes = text->get<std::string>();
        if (nvvm::looksLikeBitcode(out.bytes))
            return r.error(p,
                           "the text starts with the LLVM bitcode magic; store bitcode "
                           "base64-encoded under \"bitcode\" instead");
    } else {
        const auto p = child(pointer, "bitcode");
        if (!bitcode->is_string()) return r.error(p, expected("a base64 string", *bitcode));
        auto decoded = support::base64Decode(bitcode->get_ref<const std::string&>());
        if (!decoded) return r.error(p, decoded.error().message);
        out.bytes = std::move(*decoded);
        if (!nvvm::looksLikeBitcode(out.bytes))
            return r.error(p, fmt::format("decodes to {} bytes that are not LLVM bitcode (no 'BC' "
                                          "0xC0DE magic); store IR text under \"text\" instead",
                                          out.bytes.size()));
    }
    out.lazy = false;
    return readBool(m, "lazy", pointer, r, out.lazy);
}

std::optional<Error> readModules(const json& doc, const Reader& r, std::vector<nvvm::Module>& out,
                                 std::string_view at = "") {
    const auto pointer = child(at, "modules");
    const auto it = doc.find("modules");
    if (it == doc.end())
        return r.error(pointer,
                       "missing; a workspace lists its IR modules under \"modules\" "
                       "(an empty list is allowed)");
    if (!it->is_array()) return r.error(pointer, expected("an array of modules", *it));
    // Each name's index, so that a workspace of many modules is checked in linear time (a scan
    // of the earlier names for each took minutes for 100,000).
    std::unordered_map<std::string, size_t> used;
    used.reserve(it->size());
    out.reserve(it->size());
    for (size_t i = 0; i < it->size(); ++i) {
        const auto p = child(pointer, i);
        nvvm::Module m;
        if (auto e = readModule((*it)[i], p, r, m)) return e;
        if (const auto [earlier, fresh] = used.try_emplace(m.name, i); !fresh)
            return r.error(child(p, "name"), fmt::format("the name \"{}\" is already used by {}/{}; give "
                                                         "each module its own name (libNVVM reports errors by "
                                                         "module name)",
                                                         m.name, pointer, earlier->second));
        out.push_back(std::move(m));
    }
    return std::nullopt;
}

// The typed options a workspace stores are the option table's, in its order. gen-lto is not
// among them: it picks the kind of output, which is the caller's choice on each compile.
bool storedInWorkspace(const nvvm::OptionInfo& info) {
    return !info.outputChoice;
}
constexpr std::string_view kExtraFlags = "extra-flags";

std::string knownOptionNames() {
    std::string s;
    for (const auto& k : nvvm::optionTable())
        if (storedInWorkspace(k)) s += fmt::format("\"{}\", ", k.name);
    return s + fmt::format("\"{}\"", kExtraFlags);
}

std::optional<Error> readOptions(const json& doc, const Reader& r, nvvm::Options& out, std::string_view at = "") {
    const auto pointer = child(at, "options");
    const auto it = doc.find("options");
    if (it == doc.end()) return std::nullopt;
    if (!it->is_object()) return r.error(pointer, expected("an object", *it));
    // Unlike the top level, an unknown option is an error: silently dropping one would compile
    // something other than what the file asks for, and a hand-written typo would go unnoticed.
    for (const auto& [key, value] : it->items()) {
        const auto p = child(pointer, key);
        if (key == kExtraFlags) {
            if (!value.is_array()) return r.error(p, expected("an array of strings", value));
            for (size_t i = 0; i < value.size(); ++i) {
                const auto& f = value[i];
                const auto fp = child(p, i);
                if (!f.is_string()) return r.error(fp, expected("a string", f));
                nvvm::Options one;
                one.extraFlags.push_back(f.get<std::string>());
                // In a file the option is set by its own key, beside extra-flags.
                const nvvm::OptionPlace place = [](const nvvm::OptionInfo& info) {
                    return fmt::format("its own key \"{}\" in \"options\"", info.name);
                };
                if (auto s = one.checkExtraFlags(place); !s) return r.error(fp, s.error().message);
                out.extraFlags.push_back(f.get<std::string>());
            }
            continue;
        }
        const auto* known = nvvm::findOption(key);
        if (!known || !storedInWorkspace(*known)) {
            if (known)
                return r.error(p, fmt::format("{} is not stored in a workspace: it chooses the kind of "
                                              "output for one compile; remove the key",
                                              key));
            return r.error(p, fmt::format("unknown option; the options are {}", knownOptionNames()));
        }
        // The JSON type is the field's: a string for the arch, an integer for a number, true or
        // false for an on/off option; set() then checks the value as it does for nvpg's.
        std::string text;
        switch (known->kind) {
            case nvvm::OptionKind::Arch:
                if (!value.is_string()) return r.error(p, expected("a string", value));
                text = value.get<std::string>();
                // Options::set trims: blanks alone would be saved as "" and refused on reopening.
                if (support::trim(text).empty()) return r.error(p, "empty; remove the key to use the default");
                break;
            case nvvm::OptionKind::Enum:
            case nvvm::OptionKind::IntRange:
                if (!value.is_number_integer()) return r.error(p, expected("an integer", value));
                text = value.dump();
                break;
            case nvvm::OptionKind::Bool:
            case nvvm::OptionKind::Switch:
                if (!value.is_boolean()) return r.error(p, expected("true or false", value));
                text = value.get<bool>() ? "1" : "0";
                break;
        }
        if (auto s = out.set(key, text); !s) return r.error(p, s.error().message);
    }
    return std::nullopt;
}

std::optional<Error> readLto(const json& doc, const Reader& r, lto::Mode& out) {
    const auto it = doc.find("lto");
    if (it == doc.end()) return std::nullopt;
    if (!it->is_object()) return r.error("/lto", expected("an object", *it));
    const auto mode = it->find("mode");
    if (mode == it->end()) return std::nullopt;
    if (!mode->is_string()) return r.error("/lto/mode", expected("a string", *mode));
    const auto parsed = lto::parseMode(mode->get_ref<const std::string&>());
    if (!parsed)
        return r.error("/lto/mode", fmt::format("\"{}\" is not an LTO mode; use \"program\" or "
                                                "\"separate\"",
                                                mode->get<std::string>()));
    out = *parsed;
    return std::nullopt;
}

std::optional<Error> readHeader(const json& doc, const Reader& r) {
    const std::string notOurs = fmt::format(
        "this is not an NVVM Playground workspace file (a workspace has \"format\": \"{}\"); "
        "open a .nvpg file",
        kFormatName);
    if (!doc.is_object()) return r.error("", fmt::format("{}; {}", expected("an object", doc), notOurs));
    const auto format = doc.find("format");
    if (format == doc.end()) return r.error("/format", "missing; " + notOurs);
    if (!format->is_string() || format->get_ref<const std::string&>() != kFormatName)
        return r.error("/format",
                       fmt::format("{}; {}", expected(fmt::format("\"{}\"", kFormatName), *format), notOurs));

    const auto version = doc.find("version");
    if (version == doc.end())
        return r.error("/version", fmt::format("missing; a workspace says which format version "
                                               "it uses (this NVVM Playground writes {})",
                                               kFormatVersion));
    if (!version->is_number_integer())
        return r.error("/version", fmt::format("{}; the format version is a whole number (this "
                                               "NVVM Playground writes {})",
                                               expected("an integer", *version), kFormatVersion));
    const bool huge =
        version->is_number_unsigned() && version->get<std::uint64_t>() > static_cast<std::uint64_t>(INT32_MAX);
    const std::int64_t v = huge ? INT32_MAX : version->get<std::int64_t>();
    if (v < 1)
        return r.error("/version", fmt::format("{} is not a format version; versions start at 1", version->dump()));
    if (v > kFormatVersion)
        return r.error("/version", fmt::format("written by a newer NVVM Playground (format version {}); this "
                                               "one reads up to version {} — update NVVM Playground",
                                               version->dump(), kFormatVersion));
    return std::nullopt;
}

// A list of named entries (pins, variants) under `key`, each read by `readOne`; names unique.
template <class T, class ReadOne>
std::optional<Error> readNamedList(const json& doc, const Reader& r, const char* key, std::vector<T>& out,
                                   ReadOne readOne) {
    const auto it = doc.find(key);
    if (it == doc.end()) return std::nullopt;
    const auto pointer = child("", key);
    if (!it->is_array()) return r.error(pointer, expected("an array", *it));
    // Each name to the index that has it: one lookup per entry (80,000 variants took 47.9 s
    // when each name was compared with every earlier one).
    std::unordered_map<std::string, size_t> named;
    for (size_t k = 0; k < out.size(); ++k) named.emplace(out[k].name, k);
    for (size_t i = 0; i < it->size(); ++i) {
        const auto& o = (*it)[i];
        const auto p = child(pointer, i);
        if (!o.is_object()) return r.error(p, expected("an object", o));
        T one;
        if (auto e = readString(o, "name", p, r, one.name)) return e;
        if (support::trim(one.name).empty()) return r.error(child(p, "name"), "missing or empty; give it a name");
        if (const auto [at, fresh] = named.emplace(one.name, out.size()); !fresh)
            return r.error(child(p, "name"), fmt::format("\"{}\" is already the name of {}/{}; give each its own",
                                                         one.name, pointer, at->second));
        if (auto e = readOne(o, p, one)) return e;
        out.push_back(std::move(one));
    }
    return std::nullopt;
}

std::optional<Error> readToolkit(const json& o, std::string_view p, const Reader& r, std::string& root,
                                 std::string& release) {
    const auto it = o.find("toolkit");
    if (it == o.end()) return std::nullopt;
    const auto tp = child(p, "toolkit");
    if (!it->is_object()) return r.error(tp, expected("an object with \"path\" and \"release\"", *it));
    if (auto e = readString(*it, "path", tp, r, root)) return e;
    return readString(*it, "release", tp, r, release);
}

std::optional<Error> readPins(const json& doc, const Reader& r, std::vector<Pin>& out) {
    return readNamedList(
        doc, r, "pins", out, [&](const json& o, const std::string& p, Pin& pin) -> std::optional<Error> {
            if (auto e = readString(o, "pinned", p, r, pin.pinned)) return e;
            if (auto e = readModules(o, r, pin.modules, p)) return e;
            if (auto e = readOptions(o, r, pin.options, p)) return e;
            if (auto e = readBool(o, "libdevice", p, r, pin.libdevice)) return e;
            if (auto e = readToolkit(o, p, r, pin.toolkit, pin.toolkitRelease)) return e;
            const auto result = o.find("result");
            if (result == o.end() || !result->is_object())
                return r.error(child(p, "result"), result == o.end() ? "missing; a pin keeps the result it pinned"
                                                                     : expected("an object", *result));
            pin.result = *result;
            if (const auto outputs = o.find("outputs"); outputs != o.end()) {
                const auto op = child(p, "outputs");
                if (!outputs->is_object()) return r.error(op, expected("an object of texts", *outputs));
                for (const auto& [name, text] : outputs->items()) {
                    if (!text.is_string()) return r.error(child(op, name), expected("a string", text));
                    pin.outputs[name] = text.get<std::string>();
                }
            }
            return std::nullopt;
        });
}

std::optional<Error> readVariants(const json& doc, const Reader& r, std::vector<Variant>& out) {
    return readNamedList(doc, r, "variants", out,
                         [&](const json& o, const std::string& p, Variant& v) -> std::optional<Error> {
                             if (auto e = readOptions(o, r, v.options, p)) return e;
                             if (o.contains("modules"))
                                 if (auto e = readModules(o, r, v.modules, p)) return e;
                             return readToolkit(o, p, r, v.toolkit, v.toolkitRelease);
                         });
}

std::optional<Error> readWorkspace(const json& doc, const Reader& r, Workspace& ws) {
    if (auto e = readHeader(doc, r)) return e;
    // Top-level keys this version does not know are ignored, so that a file from a newer
    // version that only added keys (and kept the version number) still opens here.
    if (auto e = readString(doc, "name", "", r, ws.name)) return e;
    if (auto e = readString(doc, "description", "", r, ws.description)) return e;
    if (auto e = readModules(doc, r, ws.modules)) return e;
    if (auto e = readOptions(doc, r, ws.options)) return e;
    if (auto e = readBool(doc, "libdevice", "", r, ws.libdevice)) return e;
    ws.libdeviceSaved = doc.contains("libdevice");
    if (auto e = readBool(doc, "verify", "", r, ws.verify)) return e;
    if (auto e = readLto(doc, r, ws.ltoMode)) return e;
    if (const auto runs = doc.find("runs"); runs != doc.end()) {
        if (!runs->is_array()) return r.error("/runs", expected("an array", *runs));
        // Each run configuration is checked now, so a bad one is reported where it is.
        for (size_t i = 0; i < runs->size(); ++i) {
            auto config = gpu::runConfigFromJson((*runs)[i], "");
            if (config) {
                ws.runs.push_back(std::move(*config));
                continue;
            }
            const auto& msg = config.error().message;  // "/key: what" (or ": what" for the entry)
            const auto split = msg.find(": ");
            return r.error(fmt::format("/runs/{}{}", i, msg.substr(0, split)),
                           split == std::string::npos ? msg : msg.substr(split + 2));
        }
    }
    if (auto e = readPins(doc, r, ws.pins)) return e;
    if (auto e = readVariants(doc, r, ws.variants)) return e;
    if (const auto lesson = doc.find("lesson"); lesson != doc.end() && !lesson->is_object())
        return r.error("/lesson", expected("an object (a lesson's id, title and steps)", *lesson));
    return std::nullopt;
}

}  // namespace

support::Result<Workspace> parseWorkspace(std::string_view text, std::string_view sourceName) {
    const Reader r(sourceName);
    Workspace ws;
    try {
        auto parsed = parseJson(text, r);
        if (parsed.error) return *parsed.error;
        if (auto e = readWorkspace(parsed.doc, r, ws)) return *e;
        // Read again keeping its keys' order, so that a saved lesson reads as its author wrote it.
        if (parsed.doc.contains("lesson")) ws.lesson = nlohmann::ordered_json::parse(text)["lesson"];
    } catch (const std::exception& e) {
        // Every access above is checked first; this only keeps a missed case (or bad_alloc)
        // inside core.
        return r.error("", fmt::format("cannot read the workspace: {}", e.what()));
    }
    applyLibdeviceRule(ws);
    return ws;
}

std::vector<std::string> libdeviceCallsOf(const std::vector<nvvm::Module>& modules) {
    // Sets, not lists: a workspace of 4,093 modules each defining a kernel and declaring a few
    // libdevice functions would compare every declaration with every definition.
    std::unordered_set<std::string> defined, listed;
    std::vector<std::string> out;
    for (const auto& m : modules)
        if (!m.isBitcode())
            for (const auto& f : nvvm::scanFunctions(m.bytes))
                if (f.isDefinition) defined.insert(f.name);
    const auto add = [&](const std::string& name) {
        if (!defined.count(name) && listed.insert(name).second) out.push_back(name);
    };
    for (const auto& m : modules) {
        if (!m.isBitcode()) {
            for (const auto& f : nvvm::scanFunctions(m.bytes))
                if (!f.isDefinition && nvvm::findLibdeviceFunction(f.name)) add(f.name);
            continue;
        }
        // What a lazy add would link, of which the __nv_ ones are what the module names itself
        // (the others are libdevice's own helpers).
        for (const auto& name : nvvm::libdeviceFunctionsUsedBy({m}))
            if (support::startsWith(name, "__nv_")) add(name);
    }
    return out;
}

std::vector<std::string> applyLibdeviceRule(Workspace& ws) {
    if (ws.libdeviceSaved || ws.libdevice) return {};
    auto calls = libdeviceCallsOf(ws.modules);
    if (!calls.empty()) ws.libdevice = true;
    return calls;
}

std::string libdeviceRuleNote(const std::vector<std::string>& functions) {
    std::vector<std::string> named(functions.begin(), functions.begin() + long(std::min<size_t>(functions.size(), 3)));
    std::string list = support::join(named, ", ");
    if (functions.size() > named.size()) list += fmt::format(" and {} more", functions.size() - named.size());
    return fmt::format("libdevice linked: the modules call {}", list);
}

support::Result<Workspace> loadWorkspace(const std::filesystem::path& path) {
    auto bytes = support::readFile(path, support::kWorkspaceFileLimit);
    if (!bytes) return bytes.error();
    return parseWorkspace(*bytes, path.string());
}

namespace {

using ojson = nlohmann::ordered_json;

ojson modulesJson(const std::vector<nvvm::Module>& list) {
    ojson modules = ojson::array();
    for (const auto& m : list) {
        ojson o = ojson::object();
        o["name"] = m.name;
        if (m.isBitcode())
            o["bitcode"] = support::base64Encode(m.bytes);
        else
            o["text"] = m.bytes;
        o["lazy"] = m.lazy;
        modules.push_back(std::move(o));
    }
    return modules;
}

ojson optionsJson(const nvvm::Options& opt) {
    ojson options = ojson::object();
    for (const auto& info : nvvm::optionTable()) {
        if (!storedInWorkspace(info)) continue;
        // The JSON type follows the field's: the arch a string, numbers integers, on/off options
        // true or false; a switch is written only when on.
        std::visit(
            [&](auto member) {
                const auto& v = opt.*member;
                if constexpr (std::is_same_v<std::decay_t<decltype(v)>, bool>) {
                    if (v) options[std::string(info.name)] = true;
                } else if (v) {
                    options[std::string(info.name)] = *v;
                }
            },
            info.field);
    }
    if (!opt.extraFlags.empty()) options[std::string(kExtraFlags)] = opt.extraFlags;
    return options;
}

ojson toolkitJson(const std::string& root, const std::string& release) {
    return ojson{{"path", root}, {"release", release}};
}

}  // namespace

std::string serializeWorkspace(const Workspace& ws) {
    ojson doc = ojson::object();
    doc["format"] = kFormatName;
    const bool otherModules =
        std::any_of(ws.variants.begin(), ws.variants.end(), [](const Variant& v) { return !v.modules.empty(); });
    doc["version"] = otherModules ? 4 : !ws.lesson.is_null() ? 3 : ws.pins.empty() && ws.variants.empty() ? 1 : 2;
    doc["name"] = ws.name;
    doc["description"] = ws.description;
    doc["modules"] = modulesJson(ws.modules);
    doc["options"] = optionsJson(ws.options);

    doc["libdevice"] = ws.libdevice;
    // Written only when off, so that files saved before it existed (on) save back the same.
    if (!ws.verify) doc["verify"] = false;
    doc["lto"] = ojson{{"mode", lto::modeName(ws.ltoMode)}};
    // Replace, not throw: serializing cannot fail, and saveWorkspace refuses non-UTF-8 text
    // before it gets here.
    const auto replace = json::error_handler_t::replace;
    // Each entry's keys in the order earlier versions wrote them (sorted), so files saved
    // before runs were typed save back the same.
    json runs = json::array();
    for (const auto& run : ws.runs) runs.push_back(gpu::runConfigToJson(run));
    doc["runs"] = ojson::parse(runs.dump(-1, ' ', false, replace), nullptr, false);
    if (!ws.pins.empty()) {
        ojson pins = ojson::array();
        for (const auto& pin : ws.pins) {
            ojson o = ojson::object();
            o["name"] = pin.name;
            o["pinned"] = pin.pinned;
            o["modules"] = modulesJson(pin.modules);
            o["options"] = optionsJson(pin.options);
            o["libdevice"] = pin.libdevice;
            if (!pin.toolkit.empty() || !pin.toolkitRelease.empty())
                o["toolkit"] = toolkitJson(pin.toolkit, pin.toolkitRelease);
            o["result"] = ojson::parse(pin.result.dump(-1, ' ', false, replace), nullptr, false);
            ojson outputs = ojson::object();
            for (const auto& [name, text] : pin.outputs)
                if (!support::firstNonUtf8(text)) outputs[name] = text;
            o["outputs"] = std::move(outputs);
            pins.push_back(std::move(o));
        }
        doc["pins"] = std::move(pins);
    }
    if (!ws.variants.empty()) {
        ojson variants = ojson::array();
        for (const auto& v : ws.variants) {
            ojson o = ojson::object();
            o["name"] = v.name;
            o["options"] = optionsJson(v.options);
            if (!v.toolkit.empty() || !v.toolkitRelease.empty())
                o["toolkit"] = toolkitJson(v.toolkit, v.toolkitRelease);
            if (!v.modules.empty()) o["modules"] = modulesJson(v.modules);
            variants.push_back(std::move(o));
        }
        doc["variants"] = std::move(variants);
    }
    if (!ws.lesson.is_null()) doc["lesson"] = ws.lesson;
    return doc.dump(2, ' ', false, replace) + "\n";
}

support::Result<std::string> workspaceFileBytes(const Workspace& ws, const std::filesystem::path& path) {
    // JSON holds Unicode text only; refuse here rather than let the serializer replace bytes.
    auto notUtf8 = [&](std::string_view what, std::string_view s) -> std::optional<Error> {
        const auto at = support::firstNonUtf8(s);
        if (!at) return std::nullopt;
        return support::makeError(ErrorKind::Input,
                                  fmt::format("cannot save {}: {} has a byte that is not UTF-8 at offset {}; a "
                                              "workspace stores text as UTF-8, so fix that byte",
                                              path.string(), what, *at));
    };
    if (auto e = notUtf8("the name", ws.name)) return *e;
    if (auto e = notUtf8("the description", ws.description)) return *e;
    for (const auto& m : ws.modules) {
        if (auto e = notUtf8(fmt::format("the name of module {}", m.name), m.name)) return *e;
        if (m.isBitcode()) continue;
        if (auto e = notUtf8(fmt::format("module {}", m.name), m.bytes)) return *e;
    }
    for (const auto& f : ws.options.extraFlags)
        if (auto e = notUtf8(fmt::format("the extra flag {}", f), f)) return *e;
    for (const auto& pin : ws.pins) {
        if (auto e = notUtf8(fmt::format("the name of pin {}", pin.name), pin.name)) return *e;
        for (const auto& m : pin.modules)
            if (!m.isBitcode())
                if (auto e = notUtf8(fmt::format("module {} of pin {}", m.name, pin.name), m.bytes)) return *e;
        // PTX and SASS are ASCII; a pinned output that is not UTF-8 is left out rather than
        // stop the save (the pin keeps the others and its figures).
    }
    for (const auto& v : ws.variants) {
        if (auto e = notUtf8(fmt::format("the name of variant {}", v.name), v.name)) return *e;
        for (const auto& m : v.modules)
            if (!m.isBitcode())
                if (auto e = notUtf8(fmt::format("module {} of variant {}", m.name, v.name), m.bytes)) return *e;
    }
    return serializeWorkspace(ws);
}

size_t putRun(std::vector<gpu::RunConfig>& runs, gpu::RunConfig config) {
    for (size_t i = 0; i < runs.size(); ++i)
        if (runs[i].name == config.name) {
            runs[i] = std::move(config);
            return i;
        }
    runs.push_back(std::move(config));
    return runs.size() - 1;
}

std::string runLabel(const std::vector<gpu::RunConfig>& runs, size_t index) {
    const auto& name = index < runs.size() ? runs[index].name : std::string();
    return name.empty() ? fmt::format("#{}", index) : name;
}

support::Status saveWorkspace(const Workspace& ws, const std::filesystem::path& path) {
    auto bytes = workspaceFileBytes(ws, path);
    if (!bytes) return bytes.error();
    return support::writeFileAtomic(path, *bytes);
}

std::vector<OutsideFile> filesOutsideFolder(const std::vector<gpu::RunConfig>& runs,
                                            const std::filesystem::path& folder) {
    namespace fs = std::filesystem;
    std::error_code ec;
    // Links resolved on both sides, so that neither a link to the folder nor one inside it
    // that points out decides wrongly; a part that does not exist yet is taken as written.
    const fs::path base = fs::weakly_canonical(fs::absolute(folder, ec), ec);
    std::vector<OutsideFile> out;
    for (size_t r = 0; r < runs.size(); ++r) {
        for (size_t a = 0; a < runs[r].args.size(); ++a) {
            const auto& arg = runs[r].args[a];
            if (arg.kind != gpu::ArgSpec::Buffer) continue;
            if (arg.init.kind != gpu::BufferInit::NpyFile && arg.init.kind != gpu::BufferInit::RawFile) continue;
            const fs::path file = fs::weakly_canonical(base / arg.init.file, ec);
            const fs::path rel = file.lexically_relative(base);
            const bool inside = !rel.empty() && *rel.begin() != "..";
            if (!inside) out.push_back({r, a, file});
        }
    }
    return out;
}

std::string describeOutsideFile(const std::vector<gpu::RunConfig>& runs, const OutsideFile& file,
                                const std::filesystem::path& folder) {
    const auto& arg = runs.at(file.run).args.at(file.arg);
    const std::string label =
        runs[file.run].name.empty() ? runLabel(runs, file.run) : fmt::format("\"{}\"", runs[file.run].name);
    std::error_code ec;
    const auto base = std::filesystem::weakly_canonical(std::filesystem::absolute(folder, ec), ec);
    return fmt::format("run configuration {}, argument {} ({}) reads {}, which is outside the workspace's folder {}",
                       label, file.arg, arg.text.empty() ? gpu::formatArgSpec(arg) : arg.text, file.path.string(),
                       base.string());
}

}  // namespace nvpg::workspace
