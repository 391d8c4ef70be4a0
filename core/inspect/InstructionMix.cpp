#include "core/inspect/InstructionMix.h"

#include <algorithm>
#include <iterator>
#include <numeric>

#include "core/ptx/PtxBody.h"
#include "core/support/Text.h"

namespace nvpg::inspect {

namespace {

using enum MixClass;

// SASS opcodes of sm_70 to sm_90 (Volta to Hopper) as nvdisasm names them, by what the kernel
// spends the instruction on. Every opcode the bundled examples and tests/data/numba compile to
// is here (tst_core_sass checks that none of them is Other). Choices beyond the obvious:
// - LDC/ULDC are constant memory: kernel parameters and the launch's sizes are read from there.
// - LD/ST/ATOM/RED (generic addresses) are global: what the compiler could not prove to be
//   shared or local is almost always global. Texture and surface accesses (TEX, TLD, SULD...)
//   are global too, as is LDGSTS (cp.async: a global read into shared memory).
// - LDSM/STSM (ldmatrix/stmatrix) are shared: they move tiles between shared memory and registers.
// - Moves, selects and predicate logic (MOV, SEL, PRMT, P2R, R2P, PLOP3, the uniform U* forms)
//   are integer, and so is FSEL's sibling SEL; FSEL, FSETP, FCHK, FRND and MUFU are fp32.
// - S2R/CS2R/S2UR (special registers: thread and block ids, clocks) are sync/special.
// - NOP inside a function is Other: it does nothing; the padding after a function is not counted.
constexpr SassOpcodeClass kSassTable[] = {
    {"ACQBULK", SyncSpecial},
    {"ARRIVES", SyncSpecial},
    {"ATOM", GlobalMemory},
    {"ATOMG", GlobalMemory},
    {"ATOMS", SharedMemory},
    {"B2R", SyncSpecial},
    {"BAR", SyncSpecial},
    {"BGMMA", Tensor},
    {"BMMA", Tensor},
    {"BMOV", ControlFlow},
    {"BMSK", Integer},
    {"BPT", ControlFlow},
    {"BRA", ControlFlow},
    {"BREAK", ControlFlow},
    {"BREV", Integer},
    {"BRX", ControlFlow},
    {"BRXU", ControlFlow},
    {"BSSY", ControlFlow},
    {"BSYNC", ControlFlow},
    {"CALL", ControlFlow},
    {"CCTL", GlobalMemory},
    {"CCTLL", LocalMemory},
    {"CS2R", SyncSpecial},
    {"DADD", Fp64},
    {"DEPBAR", SyncSpecial},
    {"DFMA", Fp64},
    {"DMMA", Tensor},
    {"DMUL", Fp64},
    {"DSETP", Fp64},
    {"ELECT", SyncSpecial},
    {"ENDCOLLECTIVE", SyncSpecial},
    {"ERRBAR", SyncSpecial},
    {"EXIT", ControlFlow},
    {"F2F", Conversion},
    {"F2FP", Conversion},
    {"F2I", Conversion},
    {"F2IP", Conversion},
    {"FADD", Fp32},
    {"FADD32I", Fp32},
    {"FCHK", Fp32},
    {"FENCE", SyncSpecial},
    {"FFMA", Fp32},
    {"FFMA32I", Fp32},
    {"FLO", Integer},
    {"FMNMX", Fp32},
    {"FMUL", Fp32},
    {"FMUL32I", Fp32},
    {"FRND", Fp32},
    {"FSEL", Fp32},
    {"FSET", Fp32},
    {"FSETP", Fp32},
    {"FSWZADD", Fp32},
    {"HADD2", Fp16},
    {"HADD2_32I", Fp16},
    {"HFMA2", Fp16},
    {"HFMA2_32I", Fp16},
    {"HGMMA", Tensor},
    {"HMMA", Tensor},
    {"HMNMX2", Fp16},
    {"HMUL2", Fp16},
    {"HMUL2_32I", Fp16},
    {"HSET2", Fp16},
    {"HSETP2", Fp16},
    {"I2F", Conversion},
    {"I2FP", Conversion},
    {"I2I", Conversion},
    {"I2IP", Conversion},
    {"IABS", Integer},
    {"IADD", Integer},
    {"IADD3", Integer},
    {"IADD32I", Integer},
    {"IDP", Integer},
    {"IDP4A", Integer},
    {"IGMMA", Tensor},
    {"IMAD", Integer},
    {"IMMA", Tensor},
    {"IMNMX", Integer},
    {"IMUL", Integer},
    {"IMUL32I", Integer},
    {"ISCADD", Integer},
    {"ISETP", Integer},
    {"JMP", ControlFlow},
    {"JMX", ControlFlow},
    {"KILL", ControlFlow},
    {"LD", GlobalMemory},
    {"LDC", ConstantMemory},
    {"LDG", GlobalMemory},
    {"LDGDEPBAR", SyncSpecial},
    {"LDGSTS", GlobalMemory},
    {"LDL", LocalMemory},
    {"LDS", SharedMemory},
    {"LDSM", SharedMemory},
    {"LEA", Integer},
    {"LEPC", Integer},
    {"LOP", Integer},
    {"LOP3", Integer},
    {"LOP32I", Integer},
    {"MATCH", SyncSpecial},
    {"MEMBAR", SyncSpecial},
    {"MOV", Integer},
    {"MOV32I", Integer},
    {"MOVM", Tensor},
    {"MUFU", Fp32},
    {"NANOSLEEP", SyncSpecial},
    {"NOP", Other},
    {"P2R", Integer},
    {"PLOP3", Integer},
    {"PMTRIG", SyncSpecial},
    {"POPC", Integer},
    {"PRMT", Integer},
    {"QGMMA", Tensor},
    {"QSPC", Integer},
    {"R2B", SyncSpecial},
    {"R2P", Integer},
    {"R2UR", Integer},
    {"RED", GlobalMemory},
    {"REDG", GlobalMemory},
    {"REDUX", SyncSpecial},
    {"RET", ControlFlow},
    {"RPCMOV", ControlFlow},
    {"S2R", SyncSpecial},
    {"S2UR", SyncSpecial},
    {"SEL", Integer},
    {"SETCTAID", SyncSpecial},
    {"SETLMEMBASE", SyncSpecial},
    {"SGXT", Integer},
    {"SHF", Integer},
    {"SHFL", SyncSpecial},
    {"SHL", Integer},
    {"SHR", Integer},
    {"ST", GlobalMemory},
    {"STG", GlobalMemory},
    {"STL", LocalMemory},
    {"STS", SharedMemory},
    {"STSM", SharedMemory},
    {"SUATOM", GlobalMemory},
    {"SULD", GlobalMemory},
    {"SUQUERY", GlobalMemory},
    {"SURED", GlobalMemory},
    {"SUST", GlobalMemory},
    {"SYNCS", SyncSpecial},
    {"TEX", GlobalMemory},
    {"TLD", GlobalMemory},
    {"TLD4", GlobalMemory},
    {"TMML", GlobalMemory},
    {"TXD", GlobalMemory},
    {"TXQ", GlobalMemory},
    {"UBLKCP", Tensor},
    {"UBLKPF", Tensor},
    {"UBLKRED", Tensor},
    {"UBMSK", Integer},
    {"UBREV", Integer},
    {"UCGABAR_ARV", SyncSpecial},
    {"UCGABAR_WAIT", SyncSpecial},
    {"UCLEA", Integer},
    {"UFLO", Integer},
    {"UIADD3", Integer},
    {"UIMAD", Integer},
    {"UISETP", Integer},
    {"ULDC", ConstantMemory},
    {"ULEA", Integer},
    {"ULEPC", Integer},
    {"ULOP", Integer},
    {"ULOP3", Integer},
    {"ULOP32I", Integer},
    {"UMOV", Integer},
    {"UP2UR", Integer},
    {"UPLOP3", Integer},
    {"UPOPC", Integer},
    {"UPRMT", Integer},
    {"UR2UP", Integer},
    {"USEL", Integer},
    {"USETMAXREG", SyncSpecial},
    {"USGXT", Integer},
    {"USHF", Integer},
    {"USHL", Integer},
    {"USHR", Integer},
    {"UTMACCTL", Tensor},
    {"UTMACMDFLUSH", Tensor},
    {"UTMALDG", Tensor},
    {"UTMAPF", Tensor},
    {"UTMAREDG", Tensor},
    {"UTMASTG", Tensor},
    {"VABSDIFF", Integer},
    {"VABSDIFF4", Integer},
    {"VHMNMX", Fp16},
    {"VIADD", Integer},
    {"VIADDMNMX", Integer},
    {"VIMNMX", Integer},
    {"VIMNMX3", Integer},
    {"VOTE", SyncSpecial},
    {"VOTEU", SyncSpecial},
    {"WARPGROUP", SyncSpecial},
    {"WARPSYNC", SyncSpecial},
    {"YIELD", ControlFlow},
};
static_assert(std::ranges::is_sorted(kSassTable, {}, &SassOpcodeClass::opcode), "kSassTable must stay sorted");

// "@!P0 IMAD.WIDE R2, ..." -> "IMAD.WIDE R2, ...": no predicate.
std::string_view withoutPredicate(std::string_view code) {
    code = support::trim(code);
    if (!code.empty() && code[0] == '@') {
        const auto space = code.find_first_of(" \t");
        code = space == std::string_view::npos ? std::string_view{} : support::trim(code.substr(space));
    }
    return code;
}

// PTX special registers: a mov from one reads the thread's place or a clock (S2R in SASS).
constexpr std::string_view kSpecialRegisters[] = {
    "%tid",
    "%ntid",
    "%ctaid",
    "%nctaid",
    "%laneid",
    "%warpid",
    "%nwarpid",
    "%smid",
    "%nsmid",
    "%gridid",
    "%clock",
    "%globaltimer",
    "%lanemask",
    "%pm",
    "%envreg",
    "%dynamic_smem",
    "%total_smem",
    "%aggr_smem",
    "%cluster",
    "%nclusterid",
    "%is_explicit_cluster",
    "%reserved_smem",
    "%current_graph_exec",
};

enum class PtxRule { Memory, Typed, Fixed };
struct PtxOpcodeClass {
    std::string_view opcode;  // the first part of the PTX opcode: "ld" of ld.global.nc.f32
    PtxRule rule;
    MixClass fixed;  // for Fixed
};
// PTX opcodes (ISA 8.x). Memory: by state space (.global, .shared, .local, .const, .param; none
// is generic: global). Typed: by the first floating-point type among the modifiers (f64: fp64,
// f32: fp32, f16/bf16 and their x2 forms: fp16), integer without one. Fixed: the class given.
constexpr PtxOpcodeClass kPtxTable[] = {
    {"abs", PtxRule::Typed, Integer},
    {"activemask", PtxRule::Fixed, SyncSpecial},
    {"add", PtxRule::Typed, Integer},
    {"addc", PtxRule::Typed, Integer},
    {"and", PtxRule::Typed, Integer},
    {"applypriority", PtxRule::Fixed, GlobalMemory},
    {"atom", PtxRule::Memory, GlobalMemory},
    {"bar", PtxRule::Fixed, SyncSpecial},
    {"barrier", PtxRule::Fixed, SyncSpecial},
    {"bfe", PtxRule::Typed, Integer},
    {"bfi", PtxRule::Typed, Integer},
    {"bfind", PtxRule::Typed, Integer},
    {"bmsk", PtxRule::Typed, Integer},
    {"bra", PtxRule::Fixed, ControlFlow},
    {"brev", PtxRule::Typed, Integer},
    {"brkpt", PtxRule::Fixed, ControlFlow},
    {"brx", PtxRule::Fixed, ControlFlow},
    {"call", PtxRule::Fixed, ControlFlow},
    {"clz", PtxRule::Typed, Integer},
    {"cnot", PtxRule::Typed, Integer},
    {"copysign", PtxRule::Typed, Integer},
    {"cos", PtxRule::Typed, Integer},
    {"cp", PtxRule::Memory, GlobalMemory},
    {"createpolicy", PtxRule::Fixed, Integer},
    {"cvt", PtxRule::Fixed, Conversion},
    {"cvta", PtxRule::Fixed, Integer},
    {"discard", PtxRule::Fixed, GlobalMemory},
    {"div", PtxRule::Typed, Integer},
    {"dp2a", PtxRule::Typed, Integer},
    {"dp4a", PtxRule::Typed, Integer},
    {"elect", PtxRule::Fixed, SyncSpecial},
    {"ex2", PtxRule::Typed, Integer},
    {"exit", PtxRule::Fixed, ControlFlow},
    {"fence", PtxRule::Fixed, SyncSpecial},
    {"fma", PtxRule::Typed, Integer},
    {"fns", PtxRule::Typed, Integer},
    {"getctarank", PtxRule::Fixed, SyncSpecial},
    {"griddepcontrol", PtxRule::Fixed, SyncSpecial},
    {"isspacep", PtxRule::Fixed, Integer},
    {"istypep", PtxRule::Fixed, GlobalMemory},
    {"ld", PtxRule::Memory, GlobalMemory},
    {"ldmatrix", PtxRule::Fixed, SharedMemory},
    {"ldu", PtxRule::Memory, GlobalMemory},
    {"lg2", PtxRule::Typed, Integer},
    {"lop3", PtxRule::Typed, Integer},
    {"mad", PtxRule::Typed, Integer},
    {"mad24", PtxRule::Typed, Integer},
    {"madc", PtxRule::Typed, Integer},
    {"mapa", PtxRule::Fixed, Integer},
    {"match", PtxRule::Fixed, SyncSpecial},
    {"max", PtxRule::Typed, Integer},
    {"mbarrier", PtxRule::Fixed, SyncSpecial},
    {"membar", PtxRule::Fixed, SyncSpecial},
    {"min", PtxRule::Typed, Integer},
    {"mma", PtxRule::Fixed, Tensor},
    {"mov", PtxRule::Fixed, Integer},  // from a special register: SyncSpecial (classifyPtx)
    {"movmatrix", PtxRule::Fixed, Tensor},
    {"mul", PtxRule::Typed, Integer},
    {"mul24", PtxRule::Typed, Integer},
    {"multimem", PtxRule::Fixed, GlobalMemory},
    {"nanosleep", PtxRule::Fixed, SyncSpecial},
    {"neg", PtxRule::Typed, Integer},
    {"not", PtxRule::Typed, Integer},
    {"or", PtxRule::Typed, Integer},
    {"pmevent", PtxRule::Fixed, SyncSpecial},
    {"popc", PtxRule::Typed, Integer},
    {"prefetch", PtxRule::Memory, GlobalMemory},
    {"prefetchu", PtxRule::Memory, GlobalMemory},
    {"prmt", PtxRule::Typed, Integer},
    {"rcp", PtxRule::Typed, Integer},
    {"red", PtxRule::Memory, GlobalMemory},
    {"redux", PtxRule::Fixed, SyncSpecial},
    {"rem", PtxRule::Typed, Integer},
    {"ret", PtxRule::Fixed, ControlFlow},
    {"rsqrt", PtxRule::Typed, Integer},
    {"sad", PtxRule::Typed, Integer},
    {"selp", PtxRule::Typed, Integer},
    {"set", PtxRule::Typed, Integer},
    {"setmaxnreg", PtxRule::Fixed, SyncSpecial},
    {"setp", PtxRule::Typed, Integer},
    {"shf", PtxRule::Typed, Integer},
    {"shfl", PtxRule::Fixed, SyncSpecial},
    {"shl", PtxRule::Typed, Integer},
    {"shr", PtxRule::Typed, Integer},
    {"sin", PtxRule::Typed, Integer},
    {"slct", PtxRule::Typed, Integer},
    {"sqrt", PtxRule::Typed, Integer},
    {"st", PtxRule::Memory, GlobalMemory},
    {"stackrestore", PtxRule::Fixed, LocalMemory},
    {"stacksave", PtxRule::Fixed, LocalMemory},
    {"stmatrix", PtxRule::Fixed, SharedMemory},
    {"sub", PtxRule::Typed, Integer},
    {"subc", PtxRule::Typed, Integer},
    {"suld", PtxRule::Fixed, GlobalMemory},
    {"suq", PtxRule::Fixed, GlobalMemory},
    {"sured", PtxRule::Fixed, GlobalMemory},
    {"sust", PtxRule::Fixed, GlobalMemory},
    {"szext", PtxRule::Typed, Integer},
    {"tanh", PtxRule::Typed, Integer},
    {"tcgen05", PtxRule::Fixed, Tensor},
    {"testp", PtxRule::Typed, Integer},
    {"tex", PtxRule::Fixed, GlobalMemory},
    {"tld4", PtxRule::Fixed, GlobalMemory},
    {"trap", PtxRule::Fixed, ControlFlow},
    {"txq", PtxRule::Fixed, GlobalMemory},
    {"vote", PtxRule::Fixed, SyncSpecial},
    {"wgmma", PtxRule::Fixed, Tensor},
    {"wmma", PtxRule::Fixed, Tensor},
    {"xor", PtxRule::Typed, Integer},
};
static_assert(std::ranges::is_sorted(kPtxTable, {}, &PtxOpcodeClass::opcode), "kPtxTable must stay sorted");

// The PTX opcode's parts: "ld.shared::cta.v2.f32" -> ld, shared::cta, v2, f32.
std::vector<std::string_view> opcodeParts(std::string_view opcode) {
    std::vector<std::string_view> parts;
    size_t start = 0;
    for (size_t dot = opcode.find('.'); dot != std::string_view::npos; dot = opcode.find('.', start)) {
        parts.push_back(opcode.substr(start, dot - start));
        start = dot + 1;
    }
    parts.push_back(opcode.substr(start));
    return parts;
}

MixClass byStateSpace(const std::vector<std::string_view>& parts) {
    const std::string_view op = parts[0];
    for (size_t k = 1; k < parts.size(); ++k) {
        const std::string_view p = parts[k].substr(0, parts[k].find("::"));
        if (op == "cp" && p == "tensor") return Tensor;  // cp.async.bulk.tensor: TMA
        if (op == "cp" && (p == "wait_group" || p == "wait_all" || p == "commit_group" || p == "mbarrier"))
            return SyncSpecial;
        // cp.async.*.shared.global copies global memory into shared: the read it waits on is global.
        if (op == "cp") continue;
        if (p == "global") return GlobalMemory;
        if (p == "shared") return SharedMemory;
        if (p == "local") return LocalMemory;
        if (p == "const") return ConstantMemory;
        // Kernel parameters live in the constant bank; st.param passes a call's arguments.
        if (p == "param") return op == "st" ? ControlFlow : ConstantMemory;
    }
    return GlobalMemory;  // generic addressing, and cp.async's global source
}

MixClass byType(const std::vector<std::string_view>& parts) {
    bool f32 = false, f16 = false;
    for (size_t k = 1; k < parts.size(); ++k) {
        const auto p = parts[k];
        if (p == "f64") return Fp64;
        f32 = f32 || p == "f32";
        f16 = f16 || p == "f16" || p == "f16x2" || p == "bf16" || p == "bf16x2";
    }
    return f32 ? Fp32 : f16 ? Fp16 : Integer;
}

}  // namespace

std::string_view mixClassName(MixClass c) {
    switch (c) {
        case GlobalMemory:
            return "global";
        case SharedMemory:
            return "shared";
        case LocalMemory:
            return "local";
        case ConstantMemory:
            return "constant";
        case Fp32:
            return "fp32";
        case Fp64:
            return "fp64";
        case Fp16:
            return "fp16";
        case Integer:
            return "integer";
        case Conversion:
            return "conversion";
        case ControlFlow:
            return "control";
        case SyncSpecial:
            return "sync";
        case Tensor:
            return "tensor";
        case Other:
            break;
    }
    return "other";
}

std::span<const SassOpcodeClass> sassOpcodeTable() {
    return kSassTable;
}

MixClass classifySass(std::string_view code) {
    code = withoutPredicate(code);
    const auto end = code.find_first_of(". \t");
    const auto opcode = code.substr(0, end);
    // Constants made in a register without a load: 0 * -0 + (a, b), and a pair zeroed.
    if (support::startsWith(code, "HFMA2.MMA ") && code.find(", -RZ, RZ, ") != std::string_view::npos) return Integer;
    if (opcode == "CS2R" && code.ends_with(", SRZ")) return Integer;
    const auto it = std::ranges::lower_bound(kSassTable, opcode, {}, &SassOpcodeClass::opcode);
    return it != std::end(kSassTable) && it->opcode == opcode ? it->mixClass : Other;
}

MixClass classifyPtx(std::string_view instruction) {
    instruction = withoutPredicate(instruction);
    const auto end = instruction.find_first_of(" \t");
    const auto parts = opcodeParts(instruction.substr(0, end));
    const auto it = std::ranges::lower_bound(kPtxTable, parts[0], {}, &PtxOpcodeClass::opcode);
    if (it == std::end(kPtxTable) || it->opcode != parts[0]) return Other;
    switch (it->rule) {
        case PtxRule::Memory:
            return byStateSpace(parts);
        case PtxRule::Typed:
            return byType(parts);
        case PtxRule::Fixed:
            break;
    }
    if (parts[0] == "mov" && end != std::string_view::npos) {
        const auto operands = instruction.substr(end);
        for (const auto reg : kSpecialRegisters)
            for (size_t at = operands.find(reg); at != std::string_view::npos; at = operands.find(reg, at + 1)) {
                const size_t after = at + reg.size();
                if (after == operands.size() || operands[after] == '.' || operands[after] == '_' ||
                    operands[after] == ';' || operands[after] == ' ' || operands[after] == ',' ||
                    (operands[after] >= '0' && operands[after] <= '9'))
                    return SyncSpecial;
            }
    }
    return it->fixed;
}

int InstructionMix::total() const {
    return std::accumulate(counts.begin(), counts.end(), 0);
}

std::vector<InstructionMix> sassMix(const SassListing& listing) {
    std::vector<InstructionMix> out;
    size_t next = 0;  // the listing's instructions are in its functions' order
    for (const auto& f : listing.functions) {
        InstructionMix mix{f.name, f.isEntry, {}};
        while (next < listing.instructions.size() && listing.instructions[next].function != f.name) ++next;
        int counted = 0;
        for (; next < listing.instructions.size() && listing.instructions[next].function == f.name; ++next)
            if (counted < f.instructions) {  // the rest is the padding readSass leaves out
                ++mix[classifySass(listing.instructions[next].code)];
                ++counted;
            }
        out.push_back(std::move(mix));
    }
    return out;
}

std::vector<InstructionMix> ptxMix(std::string_view ptx) {
    std::vector<InstructionMix> out;
    for (const auto& body : ptx::readBodies(ptx)) {
        InstructionMix mix{body.name, body.isEntry, {}};
        for (const auto& s : body.statements)
            if (s.kind == ptx::BodyStatement::Kind::Instruction) ++mix[classifyPtx(s.text)];
        out.push_back(std::move(mix));
    }
    return out;
}

}  // namespace nvpg::inspect
