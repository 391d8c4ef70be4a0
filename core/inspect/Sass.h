#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "inspect/LineMap.h"

namespace nvpg::inspect {

// One run of nvdisasm on a cubin.
struct DisassemblyRun {
    bool ok = false;
    std::string command;  // "nvdisasm -c -g" as a person would retype it (without the file)
    std::string text;     // what nvdisasm printed
    std::string error;    // when not ok: why
    double seconds = 0;
};

// `nvdisasm -c` of `cubin` (through a temporary file under TMPDIR); with `lineInfo`, `-g` too,
// which marks instructions `//## File "m.ll", line N`.
DisassemblyRun disassemble(const std::filesystem::path& nvdisasm, std::string_view cubin, bool lineInfo);

// nvdisasm's text, read.
struct SassInstruction {
    int line = 0;          // 1-based line of the text
    std::string function;  // the kernel or device function it is in
    std::string code;      // "IMAD.WIDE R2, R0, R5, c[0x0][0x210]": no address, no comment
    std::string file;      // with -g: the marked source file; empty when unmarked
    int sourceLine = 0;
};
struct SassFunction {
    std::string name;
    int instructions = 0;
    bool isEntry = false;
};
struct SassListing {
    std::vector<SassInstruction> instructions;
    std::vector<SassFunction> functions;  // in the text's order
};
SassListing readSass(std::string_view text);

// The map of the plain SASS (nvdisasm -c of the plain cubin) through the twin's (nvdisasm -c -g
// of its -lineinfo cubin): when both have the same instructions in the same order, each plain
// instruction line gets the twin instruction's mark. Otherwise unavailable, saying where they
// first differ. Ends with fillRanges.
OutputMap mapSass(std::string_view plainSass, std::string_view twinSass, const std::vector<MappedModule>& modules);

}  // namespace nvpg::inspect
