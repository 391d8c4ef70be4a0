// Seeded mutations of modules, for the tests and the fuzz run that feed libNVVM broken input:
// the same seed gives the same bytes on every machine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nvpg::test {

// splitmix64: small, and the same everywhere (std's distributions are not).
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    size_t below(size_t n) { return n ? size_t(next() % n) : 0; }

private:
    uint64_t state_;
};

// `count` random bytes replaced, past the first `keep` (which keeps bitcode's magic and header,
// so that libNVVM reads on into the damaged records).
inline std::string mutateBytes(std::string bytes, uint64_t seed, int count = 16, size_t keep = 64) {
    Rng rng(seed);
    if (bytes.size() <= keep) return bytes;
    for (int i = 0; i < count; ++i) bytes[keep + rng.below(bytes.size() - keep)] = char(rng.next() & 0xff);
    return bytes;
}

// A few edits of the kinds a person makes in IR text: a line dropped, duplicated or swapped, a
// token replaced by another from the same text, characters inserted or deleted.
inline std::string mutateText(const std::string& text, uint64_t seed, int edits = 3) {
    Rng rng(seed);
    std::vector<std::string> lines;
    for (size_t start = 0; start <= text.size();) {
        const auto nl = text.find('\n', start);
        const auto end = nl == std::string::npos ? text.size() : nl;
        lines.push_back(text.substr(start, end - start));
        if (nl == std::string::npos) break;
        start = nl + 1;
    }
    static const char* const kPieces[] = {"%",     "@",     "!",      "{", "}", "(",  ")",  ",",
                                          "i32",   "float", "ptr",    "*", "0", "-1", "\"", "addrspace(1)",
                                          "undef", "call",  "define", "\n"};
    for (int e = 0; e < edits && !lines.empty(); ++e) {
        auto& line = lines[rng.below(lines.size())];
        switch (rng.below(5)) {
            case 0:
                lines.erase(lines.begin() + long(rng.below(lines.size())));
                break;
            case 1: {
                const auto i = rng.below(lines.size());
                lines.insert(lines.begin() + long(i), lines[i]);
                break;
            }
            case 2:
                std::swap(lines[rng.below(lines.size())], lines[rng.below(lines.size())]);
                break;
            case 3:
                if (!line.empty()) line.erase(rng.below(line.size()), 1 + rng.below(4));
                break;
            default:
                line.insert(rng.below(line.size() + 1), kPieces[rng.below(std::size(kPieces))]);
                break;
        }
    }
    std::string out;
    for (size_t i = 0; i < lines.size(); ++i) out += lines[i] + (i + 1 < lines.size() ? "\n" : "");
    return out;
}

}  // namespace nvpg::test
