#pragma once

#include <string>

namespace nvpg::bench {

// One line per speed goal, in one form for every benchmark, so that bench/run_gpu.sh can gather
// them into the goals table of docs/dev/performance.md:
//   GOAL | nvpg compile --arch / raw libNVVM (whole process) | 1.031x | <= 1.05x | met
// `unit` follows the figure ("x", " ms"); `atMost` says whether the target is a ceiling (<=)
// or a floor (>=). A figure that could not be measured (NaN) prints "not measured".
void printGoal(const std::string& what, double measured, const std::string& unit, bool atMost, double target);

}  // namespace nvpg::bench
