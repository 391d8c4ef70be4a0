// Shared by the libFuzzer targets: invariant checks that stop the run so libFuzzer keeps the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <type_traits>

namespace nvpg::fuzz {

inline std::string_view bytesOf(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// abort() rather than an exception: libFuzzer treats the signal as a crash, saves the input as
// crash-<hash> and prints this message above the stack.
inline void require(bool ok, const char* what, std::string_view detail = {}) {
    if (ok) return;
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    if (!detail.empty()) std::fprintf(stderr, "  %.*s\n", int(detail.size()), detail.data());
    std::abort();
}

// The same with a detail that costs something to make, made only when the check fails.
template <class Detail>
requires std::is_invocable_v<Detail>
inline void require(bool ok, const char* what, Detail detail) {
    if (!ok) require(false, what, std::string_view(detail()));
}

}  // namespace nvpg::fuzz
