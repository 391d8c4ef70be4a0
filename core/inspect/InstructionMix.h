#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/inspect/Sass.h"

namespace nvpg::inspect {

// What a kernel spends its instructions on, one class per instruction. Moves, selects and
// predicate logic count as integer (they run on the integer units and compute nothing in
// floating point); generic loads and stores, textures and surfaces count as global memory.
enum class MixClass {
    GlobalMemory,
    SharedMemory,
    LocalMemory,
    ConstantMemory,
    Fp32,
    Fp64,
    Fp16,  // FP16 and BF16
    Integer,
    Conversion,
    ControlFlow,
    SyncSpecial,  // barriers, fences, warp votes and shuffles, special registers
    Tensor,
    Other,
};
inline constexpr size_t kMixClasses = size_t(MixClass::Other) + 1;

// "global", "shared", "local", "constant", "fp32", "fp64", "fp16", "integer", "conversion",
// "control", "sync", "tensor", "other": the keys of the report's "classes".
std::string_view mixClassName(MixClass c);

// One row of the SASS table: an opcode as nvdisasm writes it, without its modifiers (IMAD of
// IMAD.WIDE.U32), and its class.
struct SassOpcodeClass {
    std::string_view opcode;
    MixClass mixClass;
};
// The whole SASS table, sorted by opcode.
std::span<const SassOpcodeClass> sassOpcodeTable();

// The class of one SASS instruction as readSass gives it ("@!P0 IMAD.WIDE R2, R0, R5, c[0x0][0x210]").
// Beside the table, two idioms that only move a constant are integer: `HFMA2.MMA Rd, -RZ, RZ, a, b`
// and `CS2R Rd, SRZ`. An opcode the table lacks is Other.
MixClass classifySass(std::string_view code);
// The class of one PTX instruction ("@%p1 bra $L__BB0_2", "ld.global.nc.f32 %f1, [%rd4]"), by
// its opcode, state space and type.
MixClass classifyPtx(std::string_view instruction);

struct InstructionMix {
    std::string function;
    bool isEntry = false;
    std::array<int, kMixClasses> counts{};

    int& operator[](MixClass c) { return counts[size_t(c)]; }
    int operator[](MixClass c) const { return counts[size_t(c)]; }
    int total() const;
};

// Per function of the listing, in its order; each counts the function's instructions as readSass
// counts them (the padding after the last one left out).
std::vector<InstructionMix> sassMix(const SassListing& listing);
// Per .entry and .func with a body, in the PTX's order.
std::vector<InstructionMix> ptxMix(std::string_view ptx);

}  // namespace nvpg::inspect
