// The SASS map, apart from Sass.cpp: the plain SASS output (disassemble, readSass) needs no line map.
#include "core/inspect/Sass.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/support/Text.h"

namespace nvpg::inspect {

OutputMap mapSass(std::string_view plainSass, std::string_view twinSass, const std::vector<MappedModule>& modules) {
    OutputMap map;
    const auto plain = readSass(plainSass);
    const auto twin = readSass(twinSass);
    const size_t common = std::min(plain.instructions.size(), twin.instructions.size());
    size_t differ = 0;
    while (differ < common && plain.instructions[differ].code == twin.instructions[differ].code &&
           plain.instructions[differ].function == twin.instructions[differ].function)
        ++differ;
    if (differ < common || plain.instructions.size() != twin.instructions.size()) {
        // Worded as mapPtx words it, for the pane's note.
        if (differ < common) {
            const auto& p = plain.instructions[differ];
            map.unavailable = fmt::format(
                "the line-annotated compile gave other SASS than the plain one (first difference at instruction {}, "
                "SASS line {} in {}: `{}` vs `{}`), so its lines are not mapped",
                differ + 1, p.line, p.function.empty() ? "no function" : p.function, p.code,
                twin.instructions[differ].code);
        } else {
            map.unavailable = fmt::format(
                "the line-annotated compile gave other SASS than the plain one ({} instructions vs {}, the first {} "
                "the same), so its lines are not mapped",
                plain.instructions.size(), twin.instructions.size(), common);
        }
        return map;
    }
    const int lines = int(support::splitLines(plainSass).size());
    map.origin.assign(size_t(lines), IrLine{});
    for (size_t i = 0; i < plain.instructions.size(); ++i) {
        const auto& t = twin.instructions[i];
        if (t.file.empty() || t.sourceLine <= 0) continue;
        int module = -1;
        for (size_t m = 0; m < modules.size(); ++m)
            if (modules[m].name == t.file && modules[m].unmapped.empty()) {
                module = int(m);
                break;
            }
        if (module < 0) continue;
        const int at = plain.instructions[i].line;
        if (at >= 1 && at <= lines) map.origin[size_t(at - 1)] = {module, t.sourceLine};
    }
    fillRanges(map, modules);
    return map;
}

}  // namespace nvpg::inspect
