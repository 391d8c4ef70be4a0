// The SASS pane's compact view, apart from Sass.cpp: reading rows is shared, the view is not
// needed to read a listing.
#include "core/inspect/SassView.h"

#include <algorithm>
#include <cctype>

#include "core/support/Text.h"

namespace nvpg::inspect {

namespace {

bool isHex(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

void append(std::string& to, std::string_view what) {
    if (what.empty()) return;
    if (!to.empty()) to += ' ';
    to += what;
}

// Control codes ("&wr=0x1", "&req={0,1}", "?trans1", "?WAIT3_END_GROUP") are scheduling details
// that nvdisasm prints among the operands; no operand starts with '&' or '?'.
bool isControlCode(std::string_view token) {
    return token.size() > 1 &&
           (token[0] == '&' || (token[0] == '?' && std::isalpha(static_cast<unsigned char>(token[1]))));
}

}  // namespace

SassRow splitSassRow(std::string_view raw) {
    SassRow row;
    const auto line = support::trim(raw);
    const auto close = line.find("*/");
    if (support::startsWith(line, "/*") && close != std::string_view::npos && isHex(line.substr(2, close - 2))) {
        std::string_view rest = support::trim(line.substr(close + 2));
        // The instruction ends at its ';' (or, without one, where a comment starts).
        size_t end = rest.find(';');
        if (end != std::string_view::npos) {
            ++end;
        } else {
            end = std::min(rest.find("/*"), rest.find("//"));
            if (end == std::string_view::npos) end = rest.size();
        }
        const std::string_view instruction = support::trim(rest.substr(0, end));
        row.kind = SassRow::Kind::Instruction;
        row.offset = std::string(line.substr(2, close - 2));
        std::string controls;
        size_t at = 0;
        while (at < instruction.size()) {
            const size_t next = std::min(instruction.find(' ', at), instruction.size());
            const auto token = instruction.substr(at, next - at);
            if (isControlCode(token))
                append(controls, token);
            else
                append(row.instruction, token);  // operands keep their single spaces
            at = next + 1;
        }
        row.details = controls;
        append(row.details, support::trim(rest.substr(end)));
        if (!row.instruction.empty() && row.instruction != ";") return row;
        row = {};
    }
    if (support::startsWith(line, "/*") || support::startsWith(line, "//##")) {
        // "/* 0x000fe20000000800 */", the second word of an encoding; "//## File …" marks.
        row.kind = SassRow::Kind::Detail;
        row.details = std::string(line);
        return row;
    }
    row.kind = SassRow::Kind::Other;
    // ".type           k,@function" -> ".type k,@function": the columns nvdisasm pads to are wide.
    if (support::startsWith(line, ".")) {
        const auto space = line.find_first_of(" \t");
        if (space != std::string_view::npos) {
            row.text = std::string(line.substr(0, space)) + ' ' + std::string(support::trim(line.substr(space)));
            return row;
        }
    }
    row.text = std::string(line);
    return row;
}

int SassView::shownLine(int listingLine) const {
    if (listingLine < 1 || listingLine > int(shownOf.size())) return 0;
    return shownOf[size_t(listingLine - 1)];
}

SassView compactSass(std::string_view listing) {
    SassView view;
    int listingLine = 0;
    bool lastBlank = true;  // no blank line at the top
    for (auto raw : support::splitLines(listing)) {
        ++listingLine;
        const auto row = splitSassRow(raw);
        int shown = 0;
        auto show = [&](std::string_view text, std::string offset) {
            view.text += text;
            view.text += '\n';
            view.offsets.push_back(std::move(offset));
            view.listingLines.push_back(listingLine);
            shown = int(view.listingLines.size());
        };
        switch (row.kind) {
            case SassRow::Kind::Instruction:
                show(row.instruction, row.offset);
                lastBlank = false;
                break;
            case SassRow::Kind::Detail:
                // Shown with the row it belongs to (an encoding's second word, the mark above).
                shown = int(view.listingLines.size());
                break;
            case SassRow::Kind::Other:
                if (row.text.empty()) {
                    if (!lastBlank) show({}, {});
                    lastBlank = true;
                } else {
                    show(row.text, {});
                    lastBlank = false;
                }
                break;
        }
        view.shownOf.push_back(shown);
    }
    return view;
}

OutputMap mapThroughView(const OutputMap& map, const SassView& view, const std::vector<MappedModule>& modules) {
    OutputMap out;
    out.unavailable = map.unavailable;
    if (!map.available()) return out;
    out.origin.assign(view.listingLines.size(), IrLine{});
    for (size_t i = 0; i < view.listingLines.size(); ++i) {
        const int listed = view.listingLines[i];
        if (listed >= 1 && listed <= int(map.origin.size())) out.origin[i] = map.origin[size_t(listed - 1)];
    }
    fillRanges(out, modules);
    return out;
}

}  // namespace nvpg::inspect
