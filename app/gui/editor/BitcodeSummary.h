#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nvpg::gui {

// What can be said about a bitcode module without LLVM: read from its bitstream (the
// IDENTIFICATION block's producer, the module's triple and its functions and globals, named
// through the string table or, before LLVM 5, the value symbol table). The producer string is
// stored 6 bits a character, so a plain byte search would not find it. Malformed input only
// shortens the summary: every read is bounds-checked and nothing is trusted.
struct BitcodeSummary {
    std::string producer;  // "LLVM14.0.6"; empty when absent
    std::string triple;
    std::string sourceFileName;
    std::vector<std::string> definedFunctions;
    std::vector<std::string> declaredFunctions;
    std::vector<std::string> globals;
    // Set when the module block could not be read: ASCII identifier runs (3 characters or more)
    // from the end of the file, where the string table lives. A guess, labelled as one.
    std::vector<std::string> guessedNames;
};

BitcodeSummary summarizeBitcode(std::string_view bytes);

}  // namespace nvpg::gui
