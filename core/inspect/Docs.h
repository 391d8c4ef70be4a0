#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nvpg::inspect {

// Where a word was read: it decides which entries a word can name ("ret" is a PTX instruction
// in PTX and an LLVM instruction in IR). Ir reads IR and libdevice entries, Ptx PTX and
// libdevice entries (libdevice functions appear as .func in PTX) and the arch of `.target sm_90`,
// Sass SASS entries, View the
// entries of the app's views (a chart's info button), Options the archs and libNVVM options (the
// Options dock; "-ftz=1", "sm_90"), Any all.
enum class DocContext { Ir, Ptx, Sass, View, Options, Any };

// The domain an entry belongs to, one per resources/docs/*.json file.
// View: what a figure the app or nvpg shows is ("occupancy", "instruction-mix"): how it is
// computed and from what. Arch: an -arch value libNVVM lists ("compute_90a"), Option: a libNVVM
// option of nvvm::optionTable() ("prec-div"), keyed without its dash and value.
enum class DocDomain { Ptx, Ir, Libdevice, Sass, View, Arch, Option };

// One documented word, as the project's own text in resources/docs/ (embedded in the binary at
// build time). `key` is the word without its modifiers: "fma", ".entry", "%tid", "getelementptr",
// "addrspace(1)", "llvm.nvvm.read.ptx.sreg.tid", "__nv_sinf", "FFMA".
struct DocEntry {
    std::string key;
    DocDomain domain = DocDomain::Ptx;
    std::string kind;     // "instruction", "directive", "state space", "special register",
                          // "modifier", "intrinsic", "metadata", "address space", "function", "opcode"
    std::string title;    // one line: "fma — fused multiply-add"
    std::string summary;  // one or two sentences, for a student seeing it for the first time
    std::string details;  // the exact rule, for a compiler author; may be empty
    std::string syntax;   // "fma.rnd{.ftz}{.sat}.f32 d, a, b, c;" or a signature; may be empty
    std::vector<std::pair<std::string, std::string>> modifiers;  // ".rn" → what it means here
    // libdevice only: maximum error as libdevice's documentation gives it ("2 ulp", "0 (exact)"),
    // and how -ftz / -prec-div / -prec-sqrt / fast math change it ("" when they do not).
    std::string accuracy;
    std::string optionEffect;
    // Arch only: the SASS target it means ("sm_90"), its compute capability ("9.0"), the PTX ISA
    // version that introduced the target, and what it adds over the arch before it that NVVM IR
    // can reach.
    std::string sass;
    std::string computeCapability;
    std::string ptxIsa;
    std::string adds;
    // Option only: each value with its meaning ("0" → "keep denormals"), libNVVM's default, and
    // what flipping the option changes in the PTX, for a learner: the paragraph the Options
    // dock's "Show effect" shows from this data.
    std::vector<std::pair<std::string, std::string>> values;
    std::string defaultValue;
    std::string effect;
    std::string link;    // the section of NVIDIA's document to read (https://docs.nvidia.com/...)
    std::string source;  // that section's name: "PTX ISA 9.7.3.6 fma"
};

// A word explained: the entry it names and what each of its modifiers means.
struct Explanation {
    std::string word;  // as written: "fma.rn.f32"
    const DocEntry* entry = nullptr;
    // How the word reached an entry it does not spell: "sm_90 is the SASS target of compute_90".
    std::string note;
    // Each modifier of the word with its meaning, from the entry's own list first, then the
    // domain's "modifier" entries; "" when neither knows it.
    std::vector<std::pair<std::string, std::string>> modifiers;
};

class Docs {
public:
    // The entries built into this binary (resources/docs/*.json).
    static const Docs& builtIn();
    // Reads entries from JSON texts of the resources/docs format; the error names the text and
    // the entry that is wrong.
    static std::optional<Docs> fromJson(const std::vector<std::pair<std::string, std::string>>& namedTexts,
                                        std::string* error);

    // Every entry `word` names in `context`, best first: the exact key, else the longest key that
    // the word starts with at a '.' boundary ("fma.rn.f32" → "fma" + .rn .f32; "%tid.x" → "%tid").
    // Sigils that only mark a name in IR ('@', '!', '%' before a name) are dropped first.
    std::vector<Explanation> explain(std::string_view word, DocContext context = DocContext::Any) const;
    // The keys nearest to an unknown word (edit distance, then shared prefix), at most `n`.
    std::vector<std::string> nearest(std::string_view word, std::size_t n = 5) const;
    const std::vector<DocEntry>& entries() const { return entries_; }

private:
    void indexKeys();

    std::vector<DocEntry> entries_;
    // The first entry of each key (a key may name entries of several domains), for nearest().
    std::vector<size_t> uniqueKeys_;
};

// The word a hover at byte `column` (0-based) of `line` points at, as explain() takes it:
// "fma.rn.f32", "%tid.x", "@__nv_sinf", "addrspace(1)", "!nvvm.annotations"; empty on none.
std::string wordAt(std::string_view line, std::size_t column, DocContext context);

// What changing `option` (an nvvm::optionTable() name) to `value` does, for "Show effect": the
// option's `effect` paragraph from the docs data, and for an arch what that arch adds ("compute_90:
// adds …"). Empty when the docs have neither.
std::string optionEffectText(std::string_view option, std::string_view value);

// The one text form of an explanation, for `nvpg explain` and the app's hover (which shows the
// same text, with the link clickable).
std::string formatExplanation(const Explanation& e);

}  // namespace nvpg::inspect
