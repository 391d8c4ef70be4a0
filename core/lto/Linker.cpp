#include "core/lto/Linker.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "core/nvvm/IrScan.h"
#include "core/nvvm/Libdevice.h"
#include "core/support/Stopwatch.h"
#include "core/support/Text.h"

namespace nvpg::lto {

namespace {

std::string readLog(nvJitLinkHandle h, nvJitLinkResult (*sizeFn)(nvJitLinkHandle, size_t*),
                    nvJitLinkResult (*logFn)(nvJitLinkHandle, char*)) {
    size_t size = 0;
    if (sizeFn(h, &size) != NVJITLINK_SUCCESS || size == 0) return {};
    std::string log(size, '\0');
    if (logFn(h, log.data()) != NVJITLINK_SUCCESS) return {};
    while (!log.empty() && log.back() == '\0') log.pop_back();
    return log;
}

// How nvJitLink names a function nothing defines: at the LTO link ("Undefined reference to
// '__nv_sinf' in ...") and from ptxas at the cubin link ("Unresolved extern function '__nv_sinf'").
constexpr std::string_view kUndefinedSaid[] = {"Undefined reference to '", "Unresolved extern function '"};

}  // namespace

std::optional<std::string> undefinedFunction(std::string_view message) {
    for (const auto said : kUndefinedSaid) {
        const auto at = message.find(said);
        if (at == std::string_view::npos) continue;
        const auto from = at + said.size();
        const auto to = message.find('\'', from);
        if (to == std::string_view::npos || to == from) continue;
        return std::string(message.substr(from, to - from));
    }
    return std::nullopt;
}

void placeUndefinedFunctions(std::vector<nvvm::Diagnostic>& diagnostics, const std::vector<nvvm::Module>& modules) {
    for (auto& d : diagnostics) {
        const auto fn = undefinedFunction(d.message);
        if (!fn) continue;
        // A libdevice function that nothing defines: libdevice was not linked.
        if (nvvm::findLibdeviceFunction(*fn)) {
            nvvm::Fix fix{"Link libdevice", {}, {}, true, {}, std::string(nvvm::fixkind::kLinkLibdevice)};
            if (std::find(d.fixes.begin(), d.fixes.end(), fix) == d.fixes.end()) d.fixes.push_back(std::move(fix));
        }
        if (!d.module.empty()) continue;
        // The first call is what to fix (or what libdevice supplies); a module that only
        // declares it is the place when none calls it. Quoted names (numba's @"__nv_sinf") too.
        std::optional<nvvm::Diagnostic> call, declare;
        for (const auto& m : modules) {
            if (m.isBitcode()) continue;
            const auto use = nvvm::firstUse(m.bytes, *fn);
            if (!use || (!use->call && !use->declaration)) continue;
            auto& slot = use->call ? call : declare;
            if (slot) continue;
            slot = d;
            slot->module = m.name;
            slot->line = use->line;
            slot->column = use->column;
            if (call) break;
        }
        if (call)
            d = *call;
        else if (declare)
            d = *declare;
    }
}

namespace {

void addFailure(LinkOutput& out, std::string_view step) {
    for (auto line : support::splitLines(out.errorLog)) {
        const auto text = support::trim(line);
        if (text.empty()) continue;
        nvvm::Diagnostic d;
        d.source = "nvJitLink";
        const bool warning =
            text.find("warning") != std::string_view::npos && text.find("error") == std::string_view::npos;
        d.severity = warning ? nvvm::Severity::Warning : nvvm::Severity::Error;
        d.message = std::string(text);
        d.message += libdeviceHint(text);
        out.diagnostics.push_back(std::move(d));
    }
    if (!out.ok && out.diagnostics.empty())
        out.diagnostics.push_back(
            {"", 0, 0, nvvm::Severity::Error,
             fmt::format("nvJitLink failed in {} with {}", step, toolkit::nvJitLinkResultName(out.code)), "nvJitLink"});
}

}  // namespace

std::string libdeviceHint(std::string_view message) {
    // libdevice's functions are all named __nv_*: the likely fix is to link it.
    if (const auto fn = undefinedFunction(message); !fn || !support::startsWith(*fn, "__nv_")) return {};
    return " (a libdevice function: link libdevice, e.g. nvpg --libdevice or the Options dock's \"link libdevice\")";
}

const std::vector<LinkOption>& linkOptions() {
    // nvJitLink's options (nvJitLink.h, "Supported Link Options"); -O takes only 0 and 3, as
    // libNVVM's -opt does.
    static const std::vector<LinkOption> table = {
        {"opt", "-O"},
        {"g", "-g"},
        {"ftz", "-ftz="},
        {"prec-div", "-prec-div="},
        {"prec-sqrt", "-prec-sqrt="},
        {"fma", "-fma="},
        {"jump-table-density", "-jump-table-density="},
        {"-generate-line-info", "-lineinfo"},
    };
    return table;
}

std::vector<std::string> linkOptionsFor(const nvvm::Options& options) {
    std::vector<std::string> out;
    for (const auto& [option, flag] : linkOptions()) {
        if (support::startsWith(option, "-")) {
            if (std::find(options.extraFlags.begin(), options.extraFlags.end(), option) != options.extraFlags.end())
                out.emplace_back(flag);
            continue;
        }
        const auto value = options.get(option);
        if (!value) continue;
        const auto* info = nvvm::findOption(option);
        if (info && info->kind == nvvm::OptionKind::Switch) {
            if (*value == "on") out.emplace_back(flag);
        } else {
            out.push_back(std::string(flag) + *value);
        }
    }
    return out;
}

LinkOutput link(const toolkit::NvJitLinkApi& api, std::string_view smArch, const std::vector<LinkInput>& inputs,
                LinkTarget target, const std::vector<std::string>& options) {
    support::Stopwatch watch;
    LinkOutput out;
    std::vector<std::string> opts = {fmt::format("-arch={}", smArch)};
    bool anyLto = false;
    for (const auto& in : inputs) anyLto = anyLto || in.type == NVJITLINK_INPUT_LTOIR;
    if (anyLto) opts.push_back("-lto");
    opts.insert(opts.end(), options.begin(), options.end());
    if (target == LinkTarget::Ptx)
        opts.push_back("-ptx");
    else
        opts.push_back("-verbose");
    std::vector<const char*> argv;
    for (const auto& o : opts) argv.push_back(o.c_str());

    nvJitLinkHandle h = nullptr;
    out.code = api.create(&h, static_cast<uint32_t>(argv.size()), argv.data());
    if (out.code != NVJITLINK_SUCCESS) {
        addFailure(out, "nvJitLinkCreate (" + support::join(opts, " ") + ")");
        out.seconds = watch.seconds();
        return out;
    }
    auto finish = [&](std::string_view step) {
        out.errorLog = readLog(h, api.getErrorLogSize, api.getErrorLog);
        out.infoLog = readLog(h, api.getInfoLogSize, api.getInfoLog);
        addFailure(out, step);
        api.destroy(&h);
        out.seconds = watch.seconds();
        return out;
    };
    for (const auto& in : inputs) {
        out.code = api.addData(h, in.type, in.bytes.data(), in.bytes.size(), in.name.c_str());
        if (out.code != NVJITLINK_SUCCESS) return finish("nvJitLinkAddData (" + in.name + ")");
    }
    out.code = api.complete(h);
    if (out.code != NVJITLINK_SUCCESS) return finish("nvJitLinkComplete");

    size_t size = 0;
    if (target == LinkTarget::Ptx) {
        out.code = api.getLinkedPtxSize(h, &size);
        if (out.code == NVJITLINK_SUCCESS && size > 0) {
            out.ptx.resize(size);
            out.code = api.getLinkedPtx(h, out.ptx.data());
            while (!out.ptx.empty() && out.ptx.back() == '\0') out.ptx.pop_back();
        }
    } else {
        out.code = api.getLinkedCubinSize(h, &size);
        if (out.code == NVJITLINK_SUCCESS && size > 0) {
            out.cubin.resize(size);
            out.code = api.getLinkedCubin(h, out.cubin.data());
        }
    }
    out.ok = out.code == NVJITLINK_SUCCESS;
    return finish("reading the linked output");
}

}  // namespace nvpg::lto
