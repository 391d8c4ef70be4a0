#pragma once

#include <optional>
#include <span>
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

// What is wrong with a module name, if anything: a control character (C0, DEL, C1). Names go
// into libNVVM's log and onto terminals, where an ESC sequence rewrites the screen, a newline
// forges a line of its own and a NUL cuts the name short. The text shows the name escaped;
// kModuleNameAdvice says what to do.
inline constexpr std::string_view kModuleNameAdvice =
    "names are shown in messages and in libNVVM's log, where such a character would rewrite the terminal or "
    "start a line of its own";
std::optional<std::string> moduleNameProblem(std::string_view name);

// The kinds of file a module is read from, by the suffix of the file's name: what File > Open,
// Add Module Files, drops, the app's command line and `nvpg compile` take as modules. The one
// list: a new kind of module file is added here.
struct ModuleFileKind {
    std::string_view suffix;  // without the dot: "ll"
    std::string_view what;    // in messages: "text"
};
std::span<const ModuleFileKind> moduleFileKinds();
// True when the file name of `path` ends in one of moduleFileKinds()' suffixes ("k.ll").
bool isModuleFileName(std::string_view path);
// The kinds for a message: ".ll (text) or .bc (bitcode)".
std::string moduleFileKindsText();

// Raw bitcode starts with 'B' 'C' 0xC0 0xDE; wrapped bitcode with 0x0B17C0DE (little-endian).
bool looksLikeBitcode(std::string_view bytes);

}  // namespace nvpg::nvvm
