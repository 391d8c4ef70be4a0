#include "Goals.h"

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace nvpg::bench {

void printGoal(const std::string& what, double measured, const std::string& unit, bool atMost, double target) {
    const std::string goal = fmt::format("{} {:.{}f}{}", atMost ? "<=" : ">=", target, unit == "x" ? 2 : 0, unit);
    if (std::isnan(measured)) {
        std::printf("GOAL | %s | not measured | %s | -\n", what.c_str(), goal.c_str());
        return;
    }
    const bool met = atMost ? measured <= target : measured >= target;
    std::printf("GOAL | %s | %s | %s | %s\n", what.c_str(),
                fmt::format("{:.{}f}{}", measured, unit == "x" ? 3 : 1, unit).c_str(), goal.c_str(),
                met ? "met" : "missed");
    std::fflush(stdout);
}

}  // namespace nvpg::bench
