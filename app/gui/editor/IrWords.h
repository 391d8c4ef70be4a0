#pragma once

#include <string_view>

namespace nvpg::gui::ir_words {

// The words of LLVM IR text that the NVVM IR lexer colours and the completions offer.
inline constexpr std::string_view kTypes[] = {"void",     "half",      "bfloat",  "float",   "double", "fp128",
                                              "x86_fp80", "ppc_fp128", "x86_mmx", "x86_amx", "label",  "metadata",
                                              "token",    "ptr",       "opaque",  "x"};

inline constexpr std::string_view kInstructions[] = {"ret",
                                                     "br",
                                                     "switch",
                                                     "indirectbr",
                                                     "invoke",
                                                     "resume",
                                                     "unreachable",
                                                     "callbr",
                                                     "cleanupret",
                                                     "catchret",
                                                     "catchswitch",
                                                     "catchpad",
                                                     "cleanuppad",
                                                     "fneg",
                                                     "add",
                                                     "fadd",
                                                     "sub",
                                                     "fsub",
                                                     "mul",
                                                     "fmul",
                                                     "udiv",
                                                     "sdiv",
                                                     "fdiv",
                                                     "urem",
                                                     "srem",
                                                     "frem",
                                                     "shl",
                                                     "lshr",
                                                     "ashr",
                                                     "and",
                                                     "or",
                                                     "xor",
                                                     "extractelement",
                                                     "insertelement",
                                                     "shufflevector",
                                                     "extractvalue",
                                                     "insertvalue",
                                                     "alloca",
                                                     "load",
                                                     "store",
                                                     "fence",
                                                     "cmpxchg",
                                                     "atomicrmw",
                                                     "getelementptr",
                                                     "trunc",
                                                     "zext",
                                                     "sext",
                                                     "fptrunc",
                                                     "fpext",
                                                     "fptoui",
                                                     "fptosi",
                                                     "uitofp",
                                                     "sitofp",
                                                     "ptrtoint",
                                                     "inttoptr",
                                                     "bitcast",
                                                     "addrspacecast",
                                                     "icmp",
                                                     "fcmp",
                                                     "phi",
                                                     "select",
                                                     "call",
                                                     "va_arg",
                                                     "landingpad",
                                                     "freeze"};

inline constexpr std::string_view kKeywords[] = {
    // module structure
    "define", "declare", "global", "constant", "attributes", "target", "datalayout", "triple", "type",
    "source_filename", "module", "asm", "section", "comdat", "align", "addrspace", "alignstack", "gc", "prefix",
    "prologue", "personality", "to", "any", "exactmatch", "largest", "nodeduplicate", "samesize", "uselistorder",
    "uselistorder_bb",
    // linkage, visibility, storage
    "private", "internal", "external", "available_externally", "linkonce", "linkonce_odr", "weak", "weak_odr", "common",
    "appending", "extern_weak", "default", "hidden", "protected", "dllimport", "dllexport", "dso_local",
    "dso_preemptable", "thread_local", "localdynamic", "initialexec", "localexec", "unnamed_addr", "local_unnamed_addr",
    "externally_initialized",
    // calling conventions
    "ccc", "fastcc", "coldcc", "ptx_kernel", "ptx_device", "cc", "tail", "musttail", "notail",
    // parameter and function attributes
    "zeroext", "signext", "inreg", "byval", "byref", "inalloca", "sret", "noalias", "nocapture", "nofree", "nest",
    "returned", "nonnull", "dereferenceable", "dereferenceable_or_null", "swiftself", "swifterror", "immarg", "noundef",
    "readnone", "readonly", "writeonly", "argmemonly", "inaccessiblememonly", "inaccessiblemem_or_argmemonly",
    "alwaysinline", "noinline", "inlinehint", "optnone", "optsize", "minsize", "nounwind", "norecurse", "noreturn",
    "nosync", "willreturn", "convergent", "cold", "hot", "builtin", "nobuiltin", "noduplicate", "speculatable",
    "speculative_load_hardening", "ssp", "sspreq", "sspstrong", "uwtable", "mustprogress", "nomerge",
    "null_pointer_is_valid", "allocsize", "memory", "elementtype",
    // instruction flags and operands
    "nuw", "nsw", "exact", "inbounds", "inrange", "volatile", "atomic", "singlethread", "syncscope", "unordered",
    "monotonic", "acquire", "release", "acq_rel", "seq_cst", "weak", "xchg", "nand", "max", "min", "umax", "umin",
    "fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc", "distinct", "cleanup", "catch", "filter",
    "within", "unwind", "from", "blockaddress", "dso_local_equivalent", "no_cfi",
    // icmp / fcmp predicates
    "eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "une", "uno",
    // constants
    "true", "false", "null", "none", "undef", "poison", "zeroinitializer", "c"};

}  // namespace nvpg::gui::ir_words
