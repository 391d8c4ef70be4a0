#include <cstdio>

#include <fmt/format.h>

#include "Commands.h"
#include "inspect/Docs.h"

namespace nvpg::cli {

int runExplain(const std::vector<std::string>& words, const std::string& context) {
    inspect::DocContext ctx = inspect::DocContext::Any;
    if (context == "ir") ctx = inspect::DocContext::Ir;
    else if (context == "ptx") ctx = inspect::DocContext::Ptx;
    else if (context == "sass") ctx = inspect::DocContext::Sass;
    const auto& docs = inspect::Docs::builtIn();
    int status = kOk;
    bool first = true;
    for (const auto& word : words) {
        const auto found = docs.explain(word, ctx);
        if (found.empty()) {
            std::string near;
            for (const auto& key : docs.nearest(word)) near += (near.empty() ? "" : ", ") + key;
            std::fprintf(stderr, "nvpg explain: no entry for '%s'%s%s\n", word.c_str(),
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
    return status;
}

}  // namespace nvpg::cli
