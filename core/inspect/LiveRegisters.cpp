#include "core/inspect/LiveRegisters.h"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "core/inspect/SassView.h"
#include "core/support/Text.h"

namespace nvpg::inspect {

namespace {

enum class Column { Gpr, Pred, Ugpr, Upred, Other };

Column columnNamed(std::string_view name) {
    if (name == "GPR") return Column::Gpr;
    if (name == "PRED") return Column::Pred;
    if (name == "UGPR") return Column::Ugpr;
    if (name == "UPRED") return Column::Upred;
    return Column::Other;
}

// "// |  17   |   1    |   4    |    1    |" -> the cells between the bars.
std::vector<std::string_view> cells(std::string_view details) {
    std::vector<std::string_view> out;
    const auto first = details.find('|');
    if (first == std::string_view::npos) return out;
    auto parts = support::split(details.substr(first + 1), '|');
    if (!parts.empty() && support::trim(parts.back()).empty()) parts.pop_back();
    for (auto p : parts) out.push_back(support::trim(p));
    return out;
}

// "        .type           k,@function" -> "k", as readSass reads it.
std::string functionOf(std::string_view line) {
    if (!support::startsWith(line, ".type")) return {};
    line = support::trim(line.substr(5));
    constexpr std::string_view tail = ",@function";
    const auto at = line.find(tail);
    if (at == std::string_view::npos) return {};
    return std::string(support::trim(line.substr(0, at)));
}

bool isLocalSassAccess(std::string_view code) {
    // The opcode follows an optional predicate ("@P0 ", "@!P1 ").
    if (support::startsWith(code, "@")) {
        const auto space = code.find(' ');
        if (space == std::string_view::npos) return false;
        code = support::trim(code.substr(space + 1));
    }
    const auto opcode = code.substr(0, code.find_first_of(" ."));
    return opcode == "LDL" || opcode == "STL";
}

}  // namespace

support::Result<std::vector<LiveCount>> readLiveRanges(std::string_view lifeRangeListing, const SassListing& plain) {
    // The header names the columns ("| GPR | PRED | UGPR | UPRED |"); the order is taken from it.
    std::vector<Column> columns{Column::Gpr, Column::Pred, Column::Ugpr, Column::Upred};
    std::map<std::pair<std::string, std::string>, LiveCount> byPlace;  // (function, offset)
    std::string function;
    bool sawColumn = false;
    for (auto raw : support::splitLines(lifeRangeListing)) {
        const auto line = support::trim(raw);
        if (line.empty()) continue;
        if (auto name = functionOf(line); !name.empty()) {
            function = std::move(name);
            continue;
        }
        if (support::startsWith(line, "// |") && line.find("GPR") != std::string_view::npos) {
            columns.clear();
            for (auto c : cells(line)) columns.push_back(columnNamed(c));
            continue;
        }
        const auto row = splitSassRow(raw);
        if (row.kind != SassRow::Kind::Instruction) continue;
        const auto values = cells(row.details);
        if (values.empty()) continue;
        LiveCount count;
        count.known = true;
        for (size_t i = 0; i < values.size() && i < columns.size(); ++i) {
            long long n = 0;
            if (!values[i].empty() && !support::parseInt(values[i], n))
                return support::makeError(
                    support::ErrorKind::Internal,
                    fmt::format("nvdisasm -lrm count: an unreadable figure '{}' at {} in {}", values[i], row.offset,
                                function.empty() ? std::string("(no function)") : function));
            switch (columns[i]) {
                case Column::Gpr:
                    count.gpr = int(n);
                    break;
                case Column::Pred:
                    count.pred = int(n);
                    break;
                case Column::Ugpr:
                    count.ugpr = int(n);
                    break;
                case Column::Upred:
                    count.upred = int(n);
                    break;
                case Column::Other:
                    break;
            }
        }
        sawColumn = true;
        byPlace[{function, row.offset}] = count;
    }
    if (!sawColumn && !plain.instructions.empty())
        return support::makeError(support::ErrorKind::Internal,
                                  "nvdisasm -lrm count printed no live-register column: this nvdisasm may not "
                                  "support --print-life-ranges");
    std::vector<LiveCount> out;
    out.reserve(plain.instructions.size());
    for (const auto& in : plain.instructions) {
        const auto it = byPlace.find({in.function, in.offset});
        out.push_back(it == byPlace.end() ? LiveCount{} : it->second);
    }
    return out;
}

std::vector<LivePeak> livePeaks(const SassListing& listing, const std::vector<LiveCount>& counts) {
    std::vector<LivePeak> out;
    const size_t n = std::min(listing.instructions.size(), counts.size());
    for (size_t i = 0; i < n; ++i) {
        if (!counts[i].known) continue;
        const auto& in = listing.instructions[i];
        auto it = std::find_if(out.begin(), out.end(), [&](const LivePeak& p) { return p.function == in.function; });
        if (it == out.end()) {
            LivePeak p{in.function, false, counts[i].gpr, i, in.line};
            for (const auto& f : listing.functions)
                if (f.name == in.function) p.isEntry = f.isEntry;
            out.push_back(std::move(p));
        } else if (counts[i].gpr > it->gpr) {
            it->gpr = counts[i].gpr;
            it->instruction = i;
            it->line = in.line;
        }
    }
    return out;
}

std::vector<int> localMemorySassLines(const SassListing& listing) {
    std::vector<int> out;
    for (const auto& in : listing.instructions)
        if (isLocalSassAccess(in.code)) out.push_back(in.line);
    return out;
}

std::vector<int> localMemoryPtxLines(std::string_view ptx) {
    std::vector<int> out;
    int lineNo = 0;
    for (auto raw : support::splitLines(ptx)) {
        ++lineNo;
        auto line = support::trim(raw);
        if (support::startsWith(line, "@")) {
            const auto space = line.find_first_of(" \t");
            if (space == std::string_view::npos) continue;
            line = support::trim(line.substr(space + 1));
        }
        if (support::startsWith(line, "ld.local") || support::startsWith(line, "st.local")) out.push_back(lineNo);
    }
    return out;
}

std::vector<IrLineLive> liveByIrLine(const OutputMap& sassMap, const SassListing& listing,
                                     const std::vector<LiveCount>& counts) {
    std::map<std::pair<int, int>, int> peak;
    if (!sassMap.available()) return {};
    const size_t n = std::min(listing.instructions.size(), counts.size());
    for (size_t i = 0; i < n; ++i) {
        if (!counts[i].known) continue;
        const auto origin = sassMap.originOf(listing.instructions[i].line);
        if (origin.module < 0) continue;
        auto [it, added] = peak.try_emplace({origin.module, origin.line}, counts[i].gpr);
        if (!added) it->second = std::max(it->second, counts[i].gpr);
    }
    std::vector<IrLineLive> out;
    out.reserve(peak.size());
    for (const auto& [at, gpr] : peak) out.push_back({at.first, at.second, gpr});
    return out;
}

std::vector<int> liveByOutputLine(const OutputMap& outputMap, const std::vector<IrLineLive>& byIrLine) {
    std::vector<int> out(outputMap.origin.size(), -1);
    if (!outputMap.available()) return out;
    std::map<std::pair<int, int>, int> figure;
    for (const auto& l : byIrLine) figure[{l.module, l.line}] = l.gpr;
    for (size_t i = 0; i < outputMap.origin.size(); ++i) {
        const auto& o = outputMap.origin[i];
        if (o.module < 0) continue;
        if (const auto it = figure.find({o.module, o.line}); it != figure.end()) out[i] = it->second;
    }
    return out;
}

}  // namespace nvpg::inspect
