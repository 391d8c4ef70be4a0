#include "core/nvvm/Fix.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/support/Text.h"

namespace nvpg::nvvm {

namespace {

using support::ErrorKind;
using support::makeError;

Module* findModule(std::vector<Module>& modules, std::string_view name) {
    for (auto& m : modules)
        if (m.name == name) return &m;
    return nullptr;
}

// The module's lines, each with its own line end, so that a text put back together keeps its
// CRLFs and a last line without one.
std::vector<std::string> linesOf(std::string_view text) {
    const auto views = support::linesWithBreaks(text);
    return {views.begin(), views.end()};
}

std::string applyEdits(std::string_view text, std::vector<TextEdit> edits) {
    auto lines = linesOf(text);
    // From the bottom up: every edit's line numbers are those of the text as it was.
    std::stable_sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.line > b.line; });
    for (const auto& e : edits) {
        // Text after a last line without a line end starts a line of its own.
        if (e.line > int(lines.size()) && !lines.empty() && lines.back().back() != '\n') lines.back() += '\n';
        std::vector<std::string> added = linesOf(e.text);
        if (!added.empty() && added.back().back() != '\n') added.back() += '\n';
        const auto first = lines.begin() + (e.line - 1);
        lines.erase(first, lines.begin() + (e.endLine - 1));
        lines.insert(lines.begin() + (e.line - 1), added.begin(), added.end());
    }
    std::string out;
    for (const auto& l : lines) out += l;
    return out;
}

}  // namespace

const std::vector<std::string_view>& fixKinds() {
    using namespace fixkind;
    static const std::vector<std::string_view> kinds{
        kAddIrVersion,      kInsertDatalayout, kReplaceDatalayout, kCompute100,     kRewriteForLlvm7, kUnmarkLazy,
        kKeepOneDefinition, kMergeLlvmUsed,    kAddToLlvmUsed,     kAnnotateKernel, kLinkLibdevice};
    return kinds;
}

support::Status applyFix(const Fix& fix, std::vector<Module>& modules, Options& options, bool& libdevice) {
    // Everything is checked on copies first: a fix applies whole or not at all.
    Options newOptions = options;
    for (const auto& [name, value] : fix.options) {
        if (!findOption(name))
            return makeError(ErrorKind::Usage,
                             fmt::format("the fix \"{}\" sets an unknown option \"{}\"", fix.title, name));
        if (value.empty()) {
            newOptions.clear(name);
        } else if (auto st = newOptions.set(name, value); !st) {
            return makeError(ErrorKind::Usage, fmt::format("the fix \"{}\" cannot set {}={}: {}", fix.title, name,
                                                           value, st.error().message));
        }
    }
    std::vector<std::string> names;
    for (const auto& e : fix.edits)
        if (std::find(names.begin(), names.end(), e.module) == names.end()) names.push_back(e.module);
    std::vector<std::pair<Module*, std::string>> newTexts;
    for (const auto& name : names) {
        Module* m = findModule(modules, name);
        if (!m)
            return makeError(
                ErrorKind::Usage,
                fmt::format("the fix \"{}\" edits module {}, which the program does not have", fix.title, name));
        if (m->isBitcode())
            return makeError(
                ErrorKind::Usage,
                fmt::format("the fix \"{}\" edits module {}, which is bitcode: only a text module can be edited",
                            fix.title, name));
        const int count = int(support::splitLines(m->bytes).size());
        std::vector<TextEdit> mine;
        for (const auto& e : fix.edits) {
            if (e.module != name) continue;
            if (e.line < 1 || e.endLine < e.line || e.endLine > count + 1 ||
                (e.line == count + 1 && e.endLine != e.line))
                return makeError(
                    ErrorKind::Usage,
                    fmt::format("the fix \"{}\" edits lines {} to {} of {}, which has {} lines: the module "
                                "changed since the fix was offered; compile again for a new one",
                                fix.title, e.line, e.endLine - 1, name, count));
            mine.push_back(e);
        }
        newTexts.emplace_back(m, applyEdits(m->bytes, std::move(mine)));
    }
    for (const auto& [name, lazy] : fix.lazy)
        if (!findModule(modules, name))
            return makeError(
                ErrorKind::Usage,
                fmt::format("the fix \"{}\" marks module {} lazy or eager, which the program does not have", fix.title,
                            name));

    for (auto& [m, text] : newTexts) m->bytes = std::move(text);
    for (const auto& [name, lazy] : fix.lazy) findModule(modules, name)->lazy = lazy;
    options = std::move(newOptions);
    if (fix.libdevice) libdevice = *fix.libdevice;
    return {};
}

}  // namespace nvpg::nvvm
