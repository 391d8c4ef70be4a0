#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/inspect/LineMap.h"

namespace nvpg::inspect {

// One run of nvdisasm on a cubin.
struct DisassemblyRun {
    bool ok = false;
    std::string command;  // "nvdisasm -c -g" as a person would retype it (without the file)
    std::string text;     // what nvdisasm printed
    std::string error;    // when not ok: why
    double seconds = 0;
    int parts = 1;  // nvdisasm runs (-fun groups) whose texts make `text`
};

// What nvdisasm is asked to print of a cubin.
enum class Listing {
    Plain,        // -c: the listing the SASS pane shows and --emit sass writes
    LineInfo,     // -c -g: marks instructions `//## File "m.ll", line N` (the twin's, for the line map)
    LiveRanges,   // -c -lrm count: a column of live registers per instruction (nvdisasm ignores -g then)
    BasicBlocks,  // -bbcfg: the control-flow graph of basic blocks, as Graphviz DOT
};

// A cubin's code sections: for each `.text.*` section, the index of the first function symbol in
// it (what nvdisasm's -fun takes) and the section's size. Empty when the ELF cannot be read.
struct CodeSection {
    unsigned symbol = 0;
    unsigned long long bytes = 0;
};
std::vector<CodeSection> codeSections(std::string_view cubin);
// The code sections split into at most `parts` groups of about equal size (largest first into the
// lightest group); a group of symbols is one nvdisasm -fun argument.
std::vector<std::vector<unsigned>> splitSections(std::vector<CodeSection> sections, size_t parts);

// nvdisasm of `cubin` (through a temporary file under TMPDIR).
DisassemblyRun disassemble(const std::filesystem::path& nvdisasm, std::string_view cubin, Listing what);
// Several listings of one cubin, written once, each nvdisasm run side by side: the extra listings
// cost the wall time of the longest run, not the sum. In `what`'s order. The live-range listing
// (slower than -c by a third or more on large programs) and the graph are each split over the
// cubin's code sections (-fun) into runs side by side when the program is large and cores are
// free; the text is then the parts one after another (labels numbered per part: the live figures
// are per function and offset, and cfgFromSass names the graph's labels as the listing does, so
// both read as one run's).
std::vector<DisassemblyRun> disassembleEach(const std::filesystem::path& nvdisasm, std::string_view cubin,
                                            const std::vector<Listing>& what);

// nvdisasm's text, read.
struct SassInstruction {
    int line = 0;          // 1-based line of the text
    std::string function;  // the kernel or device function it is in
    std::string offset;    // "00f0": its address in the function, as the listing writes it
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
