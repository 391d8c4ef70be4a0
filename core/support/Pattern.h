#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/support/Result.h"

namespace re2 {
class RE2;
}

namespace nvpg::support {

// The memory one compiled pattern may take (its program and its matching caches): a pattern
// whose program is larger is refused when it is compiled; a search that would need more falls
// back to a slower automaton, still linear in the text.
inline constexpr int64_t kPatternMemory = int64_t(8) << 20;

// A regular expression from a file someone handed over (a lesson's checks): RE2's syntax, the
// syntax of Go and of Python's re without backreferences and lookaround, matched in time linear
// in the text, without recursion and within kPatternMemory. std::regex recurses per character
// (a long line overflows the stack) and backtracks exponentially; this never does either.
// Copies share the compiled pattern; searching from several threads at once is safe.
class Pattern {
public:
    // The compiled pattern, or an error of kind Input with RE2's reason ("invalid escape
    // sequence: \1", "pattern too large - compile failed").
    static Result<Pattern> compile(std::string_view pattern);

    // Whether the pattern matches somewhere in `text`. `^` and `$` match at the text's start and
    // end only (a caller that wants lines searches each line).
    bool search(std::string_view text) const;
    const std::string& source() const;
    // Whether it holds a compiled pattern (a default-made Pattern does not, and matches nothing).
    bool compiled() const { return re_ != nullptr; }

private:
    std::shared_ptr<const re2::RE2> re_;
};

}  // namespace nvpg::support
