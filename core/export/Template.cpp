#include "core/export/Template.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "core/export/TemplatesEmbedded.h"

using nvpg::support::ErrorKind;
using nvpg::support::makeError;

namespace nvpg::exporting {

namespace {

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// `@name@` at `at` (which holds '@'): the name, or empty when there is none there.
std::string_view markAt(std::string_view line, size_t at) {
    size_t end = at + 1;
    while (end < line.size() && isNameChar(line[end])) ++end;
    if (end == at + 1 || end >= line.size() || line[end] != '@') return {};
    return line.substr(at + 1, end - at - 1);
}

// A line that is only a mark ("@if name@", "@name@"): its keyword ("" for a block) and name.
struct LineMark {
    std::string_view keyword, name;
};
std::optional<LineMark> lineMark(std::string_view line) {
    if (line.size() < 3 || line.front() != '@' || line.back() != '@') return std::nullopt;
    const auto inner = line.substr(1, line.size() - 2);
    for (const std::string_view keyword : {"if ", "else ", "end "})
        if (inner.substr(0, keyword.size()) == keyword) {
            const auto name = inner.substr(keyword.size());
            if (name.empty() || !std::all_of(name.begin(), name.end(), isNameChar)) return std::nullopt;
            return LineMark{keyword.substr(0, keyword.size() - 1), name};
        }
    if (!std::all_of(inner.begin(), inner.end(), isNameChar)) return std::nullopt;
    return LineMark{{}, inner};
}

struct Open {
    std::string name;
    bool keep;  // this branch's lines are kept (when every enclosing one's are)
    bool inElse = false;
};

// Walks `text`, line by line; with `fill`, writes the output to `out`, else only collects the
// marks.
support::Result<TemplateMarks> walk(std::string_view text, const TemplateFill* fill, std::string* out) {
    TemplateMarks marks;
    std::vector<Open> open;
    const auto kept = [&] { return std::all_of(open.begin(), open.end(), [](const Open& o) { return o.keep; }); };
    const auto fail = [](size_t lineNo, const std::string& what) {
        return makeError(ErrorKind::Internal, fmt::format("template line {}: {}", lineNo, what));
    };
    const auto valueOf = [&](std::string_view name) -> const std::string* {
        const auto it = fill->values.find(std::string(name));
        return it == fill->values.end() ? nullptr : &it->second;
    };
    size_t lineNo = 0;
    for (size_t start = 0; start < text.size();) {
        ++lineNo;
        const auto nl = text.find('\n', start);
        const auto end = nl == std::string_view::npos ? text.size() : nl;
        const auto line = text.substr(start, end - start);
        const bool lineBreak = nl != std::string_view::npos;
        start = lineBreak ? nl + 1 : text.size();
        if (const auto m = lineMark(line)) {
            const std::string name(m->name);
            if (m->keyword.empty()) {  // a block
                marks.places.insert(name);
                if (!fill || !kept()) continue;
                const auto* v = valueOf(name);
                if (!v) return fail(lineNo, fmt::format("@{}@ has no value", name));
                if (!v->empty() && v->back() != '\n')
                    return fail(lineNo, fmt::format("the block @{}@ does not end with a line break", name));
                *out += *v;
                continue;
            }
            if (m->keyword == "if") {
                marks.sections.insert(name);
                bool on = false;
                if (fill) {
                    const auto it = fill->sections.find(name);
                    if (it == fill->sections.end()) return fail(lineNo, fmt::format("section {} is not set", name));
                    on = it->second;
                }
                open.push_back({name, on});
            } else if (open.empty() || open.back().name != name) {
                return fail(lineNo, fmt::format("@{} {}@ closes no open section {}", m->keyword, name, name));
            } else if (m->keyword == "else") {
                if (open.back().inElse) return fail(lineNo, fmt::format("a second @else {}@", name));
                open.back().inElse = true;
                open.back().keep = !open.back().keep;
            } else {
                open.pop_back();
            }
            continue;
        }
        std::string filled;
        for (size_t i = 0; i < line.size(); ++i) {
            if (line[i] != '@') {
                filled += line[i];
                continue;
            }
            if (i + 1 < line.size() && line[i + 1] == '@') {  // "@@": one '@'
                filled += '@';
                ++i;
                continue;
            }
            const auto name = markAt(line, i);
            if (name.empty() || name == "if" || name == "else" || name == "end")
                return fail(lineNo, "an '@' that starts no @name@");
            marks.places.insert(std::string(name));
            i += name.size() + 1;
            if (!fill || !kept()) continue;
            const auto* v = valueOf(name);
            if (!v) return fail(lineNo, fmt::format("@{}@ has no value", name));
            if (v->find('\n') != std::string::npos)
                return fail(lineNo, fmt::format("the value of @{}@ has a line break", name));
            filled += *v;
        }
        if (fill && kept()) {
            *out += filled;
            if (lineBreak) *out += '\n';
        }
    }
    if (!open.empty()) return fail(lineNo, fmt::format("section {} does not close", open.back().name));
    return marks;
}

}  // namespace

support::Result<TemplateMarks> templateMarks(std::string_view text) {
    return walk(text, nullptr, nullptr);
}

support::Result<std::string> fillTemplate(std::string_view text, const TemplateFill& fill) {
    std::string out;
    auto marks = walk(text, &fill, &out);
    if (!marks) return marks.error();
    for (const auto& [name, value] : fill.values)
        if (!marks->places.contains(name))
            return makeError(ErrorKind::Internal,
                             fmt::format("a value for @{}@, which the template does not have", name));
    for (const auto& [name, on] : fill.sections)
        if (!marks->sections.contains(name))
            return makeError(ErrorKind::Internal,
                             fmt::format("section {} is set, which the template does not have", name));
    return out;
}

std::string_view builtInTemplate(std::string_view name) {
    const std::string path = "resources/export/" + std::string(name);
    for (const auto* d = detail::embeddedDocs(); d->name; ++d)
        if (d->name == path) return {d->data, d->size};
    throw std::logic_error(fmt::format("no built-in template {}", name));
}

std::vector<std::string> builtInTemplateNames() {
    std::vector<std::string> names;
    for (const auto* d = detail::embeddedDocs(); d->name; ++d)
        names.push_back(std::string(d->name).substr(std::string_view("resources/export/").size()));
    return names;
}

std::string fillBuiltIn(std::string_view name, const TemplateFill& fill) {
    auto filled = fillTemplate(builtInTemplate(name), fill);
    if (!filled) throw std::logic_error(fmt::format("template {}: {}", name, filled.error().message));
    return std::move(*filled);
}

}  // namespace nvpg::exporting
