#include "core/support/Symbols.h"

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

std::string elideMiddle(std::string_view s, size_t columns) {
    if (columns < 3) columns = 3;
    if (displayWidth(s) <= columns) return std::string(s);
    const auto starts = characterStarts(s);
    // One column for the ellipsis; the start gets the extra column of an odd split.
    const size_t keep = columns - 1;
    const size_t head = (keep + 1) / 2, tail = keep / 2;
    std::string out(s.substr(0, starts[head]));
    out += "\u2026";
    out += s.substr(starts[starts.size() - tail]);
    return out;
}

}  // namespace nvpg::support
