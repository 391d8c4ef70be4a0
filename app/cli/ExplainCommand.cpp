#include <cstdio>

#include <fmt/format.h>

#include "cli/Commands.h"
#include "core/inspect/Docs.h"
#include "core/support/Text.h"

namespace nvpg::cli {

int runExplain(const std::vector<std::string>& words, const std::string& context) {
    if (words.empty()) return usage("explain: give at least one word (nvpg explain fma.rn.f32 compute_90 -ftz)");
    inspect::DocContext ctx = inspect::DocContext::Any;
    if (context == "ir")
        ctx = inspect::DocContext::Ir;
    else if (context == "ptx")
        ctx = inspect::DocContext::Ptx;
    else if (context == "sass")
        ctx = inspect::DocContext::Sass;
    const auto& docs = inspect::Docs::builtIn();
    int status = kOk;
    bool first = true;
    // Suggestions cost a measurement against every key (~0.5 ms a word): given for the first
    // unknown words only, so that thousands of them (a file pasted as words) are still answered
    // at once; nobody reads that many suggestions.
    constexpr int kSuggestedWords = 100;
    int unknown = 0;
    for (const auto& word : words) {
        const auto found = docs.explain(word, ctx);
        if (found.empty()) {
            std::string near;
            if (++unknown <= kSuggestedWords)
                for (const auto& key : docs.nearest(word)) near += (near.empty() ? "" : ", ") + key;
            std::fprintf(stderr, "nvpg explain: no entry for '%s'%s%s\n", support::printable(word).c_str(),
                         near.empty() ? "" : "; nearest known: ", near.c_str());
            status = kCompileError;  // 1: a word it does not know, as the other words still print
            continue;
        }
        for (const auto& e : found) {
            if (!first) std::fputs("\n", stdout);
            first = false;
            std::fputs(inspect::formatExplanation(e).c_str(), stdout);
        }
    }
    if (unknown > kSuggestedWords)
        std::fprintf(stderr,
                     "nvpg explain: %d words unknown; the nearest known entries were looked up for the first %d\n",
                     unknown, kSuggestedWords);
    return status;
}

}  // namespace nvpg::cli
