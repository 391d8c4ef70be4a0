#pragma once

#include <optional>
#include <string_view>

namespace nvpg::lto {

// How LTO-IR is made before nvJitLink links it.
enum class Mode {
    Program,   // the Program that made the PTX is compiled again with -gen-lto (libdevice once)
    Separate,  // each module is its own Program (libdevice lazily in each); all LTO-IR linked
};

inline std::string_view modeName(Mode m) {
    return m == Mode::Program ? "program" : "separate";
}
inline std::optional<Mode> parseMode(std::string_view s) {
    if (s == "program") return Mode::Program;
    if (s == "separate") return Mode::Separate;
    return std::nullopt;
}

}  // namespace nvpg::lto
