#pragma once

#include <string>
#include <string_view>

namespace nvpg::nvvm {

enum class ModuleFormat { Text, Bitcode };

// One NVVM IR module as the user gave it: a name (what libNVVM puts in its log lines), the bytes
// (text or bitcode, told apart by their magic), and whether libNVVM should load it lazily.
struct Module {
    std::string name;
    std::string bytes;
    bool lazy = false;

    ModuleFormat format() const;
    bool isBitcode() const { return format() == ModuleFormat::Bitcode; }
};

// Raw bitcode starts with 'B' 'C' 0xC0 0xDE; wrapped bitcode with 0x0B17C0DE (little-endian).
bool looksLikeBitcode(std::string_view bytes);

}  // namespace nvpg::nvvm
