#include "core/support/Symbols.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <vector>

#include <cxxabi.h>

#include "core/support/Text.h"

namespace nvpg::support {

std::optional<std::string> demangle(std::string_view symbol) {
    // Itanium names start with _Z; anything else (C names, PTX entry names) is shown as it is.
    if (symbol.size() < 3 || symbol.substr(0, 2) != "_Z") return std::nullopt;
    const std::string copy(symbol);
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(copy.c_str(), nullptr, nullptr, &status), std::free);
    if (status != 0 || !out) return std::nullopt;
    return std::string(out.get());
}

namespace {

// "a[abi:v1][abi:cw51c...](x)" -> "a(x)".
std::string withoutAbiTags(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        if (s.compare(i, 5, "[abi:") == 0) {
            const auto close = s.find(']', i);
            if (close == std::string_view::npos) break;
            i = close + 1;
            continue;
        }
        out += s[i++];
    }
    return out;
}

// The byte offsets where each UTF-8 character of `s` starts.
std::vector<size_t> characterStarts(std::string_view s) {
    std::vector<size_t> starts;
    for (size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
    return starts;
}

// Terminal columns, as TextWidth measures.
double columnsOf(std::string_view s) {
    return double(displayWidth(s));
}

// The index of the ')' that closes the '(' at `open`; npos when none does.
size_t closing(std::string_view s, size_t open) {
    int depth = 0;
    for (size_t i = open; i < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')' && --depth == 0) return i;
    }
    return std::string_view::npos;
}

}  // namespace

std::string readableName(std::string_view symbol, bool raw) {
    if (raw) return std::string(symbol);
    // ptxas names a function it keeps local to one kernel "$<kernel>$<function>" (nvdisasm lists
    // libdevice's __internal_accurate_pow so): the function, then the kernel it belongs to.
    if (symbol.size() > 2 && symbol[0] == '$') {
        const auto split = symbol.find('$', 1);
        if (split != std::string_view::npos && split > 1 && split + 1 < symbol.size())
            return readableName(symbol.substr(split + 1)) + " (in " + readableName(symbol.substr(1, split - 1)) + ")";
    }
    if (auto d = demangle(symbol)) return withoutAbiTags(*d);
    return std::string(symbol);
}

std::string elideSymbolIn(std::string_view text, std::string_view symbol) {
    if (symbol.empty() || text.find(symbol) == std::string_view::npos || !demangle(symbol)) return std::string(text);
    std::string out;
    size_t from = 0;
    for (size_t at = text.find(symbol); at != std::string_view::npos; at = text.find(symbol, from)) {
        out += text.substr(from, at - from);
        out += "\u2026";
        from = at + symbol.size();
    }
    out += text.substr(from);
    return out;
}

std::string elideMiddle(std::string_view s, double room, const TextWidth& width) {
    if (width(s) <= room) return std::string(s);
    const auto starts = characterStarts(s);
    const size_t n = starts.size();
    if (n == 0) return {};
    // `keep` characters: the start gets the extra one of an odd count.
    auto cut = [&](size_t keep) {
        const size_t head = (keep + 1) / 2, tail = keep / 2;
        std::string out(s.substr(0, head < n ? starts[head] : s.size()));
        out += "\u2026";
        if (tail) out += s.substr(starts[n - tail]);
        return out;
    };
    // The most characters that fit (each one kept only adds width).
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        const size_t mid = (lo + hi + 1) / 2;
        if (width(cut(mid)) <= room)
            lo = mid;
        else
            hi = mid - 1;
    }
    return cut(lo);
}

std::string elideMiddle(std::string_view s, size_t columns) {
    return elideMiddle(s, double(std::max<size_t>(columns, 3)), columnsOf);
}

std::string elideName(std::string_view name, double room, const TextWidth& width) {
    if (width(name) <= room) return std::string(name);
    const auto open = name.find('(');
    const auto close = open != std::string_view::npos && open > 0 ? closing(name, open) : std::string_view::npos;
    if (close != std::string_view::npos) {
        const std::string head(name.substr(0, open + 1)), tail(name.substr(close));
        const double left = room - width(head + tail);
        if (left >= width("x\u2026x"))
            return head + elideMiddle(name.substr(open + 1, close - open - 1), left, width) + tail;
    }
    return elideMiddle(name, room, width);
}

std::string elideName(std::string_view name, size_t columns) {
    return elideName(name, double(std::max<size_t>(columns, 3)), columnsOf);
}

std::string tableName(std::string_view symbol, NameStyle style) {
    const auto name = readableName(symbol, style.raw);
    return style.wide ? name : elideName(name, kTableNameColumns);
}

}  // namespace nvpg::support
