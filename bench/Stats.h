#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace nvpg::bench {

// The figures every benchmark reports of its repetitions. NaN when there are none, so that a
// missing side prints as such instead of as a time.
inline double median(std::vector<double> v) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}
inline double minimum(const std::vector<double>& v) {
    return v.empty() ? NAN : *std::min_element(v.begin(), v.end());
}

}  // namespace nvpg::bench
