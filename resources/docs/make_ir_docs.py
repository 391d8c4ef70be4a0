#!/usr/bin/env python3
"""Writes resources/docs/ir.json: the NVVM IR words a reader meets, in the project's own words.

LLVM's own instructions and generic intrinsics link to the LLVM Language Reference; NVVM's rules,
address spaces, llvm.nvvm.* intrinsics and metadata link to NVIDIA's NVVM IR Specification. The
facts about what each becomes in PTX are what libNVVM produces for the bundled examples.

Run:  python3 resources/docs/make_ir_docs.py      (then commit resources/docs/ir.json)
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "ir.json")
LANGREF = "https://llvm.org/docs/LangRef.html#"
DEBUG = "https://llvm.org/docs/SourceLevelDebugging.html#"
NVVM = "https://docs.nvidia.com/cuda/nvvm-ir-spec/index.html#"

entries = []


def add(key, kind, title, summary, link, source, details="", syntax="", modifiers=None):
    e = {"key": key, "kind": kind, "title": f"{key} — {title}", "summary": summary, "details": details}
    if syntax:
        e["syntax"] = syntax
    if modifiers:
        e["modifiers"] = modifiers
    e["link"] = link
    e["source"] = source
    entries.append(e)


def inst(key, title, summary, details="", syntax="", modifiers=None):
    add(key, "instruction", title, summary, LANGREF + key + "-instruction", f"LLVM Language Reference, '{key}' instruction",
        details, syntax, modifiers)


FLAGS_INT = {"nuw": "no unsigned wrap: the result is poison if the unsigned operation overflows",
             "nsw": "no signed wrap: the result is poison if the signed operation overflows"}
FMF = {"fast": "all fast-math flags: the optimizer may reassociate, ignore NaN/∞/−0 and use approximations",
       "nnan": "assume no operand or result is NaN", "ninf": "assume no operand or result is ±∞",
       "nsz": "the sign of a zero result does not matter", "arcp": "x/y may become x·(1/y)",
       "contract": "may be fused with another operation (for example into an fma)",
       "afn": "may use an approximate function", "reassoc": "may be reassociated"}

# --- Terminators -----------------------------------------------------------------------------
inst("ret", "return from a function",
     "Ends the function and hands back a value (or nothing, `ret void`). A kernel always returns void; in the PTX "
     "it becomes `ret;`.", syntax="ret <type> <value> | ret void")
inst("br", "branch",
     "Jumps to another basic block, either always (`br label %next`) or depending on an i1 condition "
     "(`br i1 %c, label %then, label %else`). In the PTX a conditional branch is a predicated `@%p bra`.",
     "The condition usually comes from an icmp or fcmp just before it, which becomes a PTX setp.",
     "br i1 <cond>, label <iftrue>, label <iffalse> | br label <dest>")
inst("switch", "multi-way branch",
     "Jumps to one of several blocks depending on an integer value, with a default block for the other values. "
     "The PTX has no jump table here: it becomes a chain of compares and branches.",
     syntax="switch <intty> <value>, label <default> [ <intty> <val>, label <dest> ... ]")
inst("unreachable", "cannot be reached",
     "Tells the optimizer that control never gets here (for example after a call that does not return); "
     "reaching it anyway is undefined behaviour.")
# --- Arithmetic --------------------------------------------------------------------------------
for key, what, ptx in [("add", "integer addition", "add.s32 / add.s64"), ("sub", "integer subtraction", "sub.s32"),
                       ("mul", "integer multiplication", "mul.lo.s32, or mad.lo with a following add")]:
    inst(key, what, f"Computes the {what} of two integers of the same type, wrapping around on overflow "
         f"(two's complement). In the PTX: {ptx}.", syntax=f"<result> = {key} [nuw] [nsw] <ty> <op1>, <op2>",
         modifiers=FLAGS_INT)
for key, what in [("udiv", "unsigned integer division"), ("sdiv", "signed integer division, rounded toward zero"),
                  ("urem", "remainder of unsigned division"), ("srem", "remainder of signed division (the sign of the dividend)")]:
    inst(key, what, f"Computes the {what}. Dividing by zero is undefined behaviour. The GPU has no divide "
         "instruction for integers: the PTX `div`/`rem` becomes a sequence of instructions in SASS, so a division by a "
         "constant power of two is better written as a shift.", syntax=f"<result> = {key} <ty> <op1>, <op2>")
for key, what, note in [("shl", "shift left", "bits shifted out are lost"),
                        ("lshr", "logical shift right", "zeros come in from the left"),
                        ("ashr", "arithmetic shift right", "copies of the sign bit come in from the left")]:
    inst(key, what, f"Shifts an integer's bits ({note}). A shift by the bit width or more gives poison.",
         syntax=f"<result> = {key} <ty> <op1>, <op2>")
for key in ("and", "or", "xor"):
    inst(key, f"bitwise {key}", f"Computes the bitwise {key.upper()} of two integers (on i1, the logical {key}). "
         f"In the PTX: {key}.b32, {key}.pred and the like.", syntax=f"<result> = {key} <ty> <op1>, <op2>")
inst("fneg", "floating-point negation", "Flips the sign of a floating-point value (also of 0 and NaN). In the PTX: neg.f32.",
     syntax="<result> = fneg [fast-math flags] <ty> <op>", modifiers=FMF)
for key, what, ptx in [("fadd", "floating-point addition", "add.f32, or part of an fma.rn.f32 when libNVVM fuses it with a multiply (option -fma=1, the default)"),
                       ("fsub", "floating-point subtraction", "sub.f32, or part of an fma"),
                       ("fmul", "floating-point multiplication", "mul.f32, or part of an fma.rn.f32 with a following fadd")]:
    inst(key, what, f"Computes the {what}, rounded to nearest even. In the PTX: {ptx}.",
         "With -ftz=1 single-precision denormals are flushed to zero (the PTX instruction gets .ftz).",
         f"<result> = {key} [fast-math flags] <ty> <op1>, <op2>", FMF)
inst("fdiv", "floating-point division",
     "Divides two floating-point values. For float, libNVVM's -prec-div option decides how: -prec-div=1 (the default) "
     "gives the correctly rounded div.rn.f32, -prec-div=0 the faster div.approx / div.full.f32. Double division is "
     "always correctly rounded (div.rn.f64).", syntax="<result> = fdiv [fast-math flags] <ty> <op1>, <op2>", modifiers=FMF)
inst("frem", "floating-point remainder",
     "The remainder of a floating-point division, with the sign of the dividend (like C's fmod). The GPU has no "
     "instruction for it: libNVVM expands it into a division, a truncation and a multiply-subtract.",
     syntax="<result> = frem [fast-math flags] <ty> <op1>, <op2>", modifiers=FMF)
# --- Vectors and aggregates -----------------------------------------------------------------------
inst("extractelement", "read one vector lane", "Reads the element at an index of a vector value.",
     syntax="<result> = extractelement <n x <ty>> <val>, <ty2> <idx>")
inst("insertelement", "write one vector lane", "Returns a vector equal to the input with one element replaced.",
     syntax="<result> = insertelement <n x <ty>> <val>, <ty> <elt>, <ty2> <idx>")
inst("shufflevector", "rearrange vector lanes", "Builds a vector from the lanes of two vectors, chosen by a constant mask.",
     syntax="<result> = shufflevector <n x <ty>> <v1>, <n x <ty>> <v2>, <m x i32> <mask>")
inst("extractvalue", "read a field of a struct or array value",
     "Reads one member of an aggregate held in a register (not in memory), for example the value half of the "
     "{ i32, i1 } pair that cmpxchg returns.", syntax="<result> = extractvalue <aggregate type> <val>, <idx>{, <idx>}*")
inst("insertvalue", "write a field of a struct or array value",
     "Returns an aggregate equal to the input with one member replaced; numba builds its array structs this way.",
     syntax="<result> = insertvalue <aggregate type> <val>, <ty> <elt>, <idx>{, <idx>}*")
# --- Memory ----------------------------------------------------------------------------------------
inst("alloca", "stack slot",
     "Reserves memory in the function's stack frame. On the GPU that is per-thread local memory (the PTX `.local` "
     "state space, addressed from %SP/%SPL): slow, so libNVVM's optimizer promotes allocas to registers when it can.",
     "The NVVM IR spec requires alloca to produce a generic (addrspace(0)) pointer; the local state space is implied.",
     "<result> = alloca <type> [, <ty> <NumElements>] [, align <alignment>]")
inst("load", "read memory",
     "Reads a value of the given type from a pointer. The pointer's address space picks the PTX instruction: "
     "ld.global for addrspace(1), ld.shared for addrspace(3), ld.const for addrspace(4), ld.local for addrspace(5), "
     "and a generic `ld` for a plain (addrspace(0)) pointer.",
     "`!invariant.load` metadata or a read-only global pointer can turn it into ld.global.nc (the read-only cache).",
     "<result> = load [volatile] <ty>, <ty>* <pointer> [, align <alignment>]",
     {"volatile": "must not be removed, merged or reordered with other volatile accesses (ld.volatile in the PTX)",
      "align": "the pointer is a multiple of this many bytes; a wrong promise is undefined behaviour"})
inst("store", "write memory",
     "Writes a value to a pointer; like load, the pointer's address space picks st.global, st.shared, st.local or a "
     "generic st.", syntax="store [volatile] <ty> <value>, <ty>* <pointer> [, align <alignment>]",
     modifiers={"volatile": "must not be removed, merged or reordered with other volatile accesses",
                "align": "the pointer is a multiple of this many bytes"})
inst("getelementptr", "address arithmetic",
     "Computes the address of an element (of an array, a struct or behind a pointer) from a base pointer and indices, "
     "without touching memory. `getelementptr inbounds float, float* %p, i64 %i` is &p[i]; in the PTX it becomes a "
     "shift or multiply of the index and an add (mul.wide.s32, add.s64).",
     "The first index steps over whole objects of the source type; later indices select array elements or struct "
     "fields (struct field indices must be i32 constants).",
     "<result> = getelementptr [inbounds] <ty>, <ty>* <ptrval>{, <ty> <idx>}*",
     {"inbounds": "the address stays inside the object the base points into; otherwise the result is poison"})
inst("fence", "memory ordering fence",
     "Orders this thread's memory accesses before and after it, with C++-style orderings (acquire, release, acq_rel, "
     "seq_cst). In the PTX it becomes a fence or membar instruction whose scope follows the syncscope.",
     syntax="fence [syncscope(\"<target-scope>\")] <ordering>")
inst("cmpxchg", "atomic compare and exchange",
     "Atomically compares the value in memory with an expected value and, if they are equal, stores a new one; "
     "returns the old value and an i1 saying whether it stored. In the PTX: atom.cas.", "",
     "<result> = cmpxchg [weak] [volatile] <ty>* <pointer>, <ty> <cmp>, <ty> <new> <success ordering> <failure ordering>")
inst("atomicrmw", "atomic read-modify-write",
     "Atomically reads a value from memory, combines it with an operand (xchg, add, sub, and, or, xor, max, min, "
     "umax, umin, fadd) and writes the result back, returning the old value. In the PTX: atom.add, atom.max, … "
     "(red.* when the old value is unused).",
     syntax="<result> = atomicrmw [volatile] <operation> <ty>* <pointer>, <ty> <value> <ordering>",
     modifiers={"xchg": "swap", "add": "integer add", "sub": "integer subtract", "and": "bitwise and",
                "or": "bitwise or", "xor": "bitwise xor", "max": "signed maximum", "min": "signed minimum",
                "umax": "unsigned maximum", "umin": "unsigned minimum", "fadd": "floating-point add"})
# --- Casts ------------------------------------------------------------------------------------------
for key, what, summary in [
        ("trunc", "integer truncation", "Keeps the low bits of an integer, dropping the high ones (i64 → i32)."),
        ("zext", "zero extension", "Widens an integer by filling the new high bits with zeros (unsigned widening)."),
        ("sext", "sign extension", "Widens an integer by copying its sign bit into the new high bits (signed widening); "
                                   "an i32 index becomes the i64 a getelementptr needs, in the PTX cvt.s64.s32 or mul.wide.s32."),
        ("fptrunc", "floating-point narrowing", "Rounds a floating-point value to a narrower type (double → float, to "
                                                "nearest even). In the PTX: cvt.rn.f32.f64."),
        ("fpext", "floating-point widening", "Widens a floating-point value exactly (float → double). In the PTX: "
                                             "cvt.f64.f32. Mixing a float with a double constant in C creates these."),
        ("fptoui", "float to unsigned integer", "Converts a floating-point value to an unsigned integer, rounding toward "
                                                "zero; out-of-range values give poison. In the PTX: cvt.rzi.u32.f32."),
        ("fptosi", "float to signed integer", "Converts a floating-point value to a signed integer, rounding toward zero; "
                                              "out-of-range values give poison. In the PTX: cvt.rzi.s32.f32."),
        ("uitofp", "unsigned integer to float", "Converts an unsigned integer to floating point, rounded to nearest even. "
                                                "In the PTX: cvt.rn.f32.u32."),
        ("sitofp", "signed integer to float", "Converts a signed integer to floating point, rounded to nearest even. "
                                              "In the PTX: cvt.rn.f32.s32."),
        ("ptrtoint", "pointer to integer", "Gives a pointer's address as an integer."),
        ("inttoptr", "integer to pointer", "Makes a pointer from an integer address."),
        ("bitcast", "reinterpret bits", "Reinterprets a value as another type of the same size (float ↔ i32, or one "
                                        "pointer type to another in typed-pointer IR); no instruction is needed in the PTX."),
        ("addrspacecast", "change a pointer's address space",
         "Converts a pointer between address spaces, for example a generic float* to a float addrspace(1)* (global). "
         "In the PTX: cvta.to.global.u64 (to a specific space) or cvta.global.u64 (back to generic).")]:
    inst(key, what, summary, syntax=f"<result> = {key} <ty> <value> to <ty2>")
# --- Other ------------------------------------------------------------------------------------------
ICMP = {"eq": "equal", "ne": "not equal", "ugt": "unsigned greater than", "uge": "unsigned greater or equal",
        "ult": "unsigned less than", "ule": "unsigned less or equal", "sgt": "signed greater than",
        "sge": "signed greater or equal", "slt": "signed less than", "sle": "signed less or equal"}
inst("icmp", "integer comparison",
     "Compares two integers (or pointers) with a predicate and gives an i1. In the PTX it becomes setp with the "
     "matching comparison: `icmp slt i32` is setp.lt.s32, `icmp uge` is setp.ge.u32.",
     syntax="<result> = icmp <cond> <ty> <op1>, <op2>", modifiers=ICMP)
FCMP = {"false": "always false", "oeq": "ordered and equal", "ogt": "ordered and greater than",
        "oge": "ordered and greater or equal", "olt": "ordered and less than", "ole": "ordered and less or equal",
        "one": "ordered and not equal", "ord": "ordered (neither is NaN)", "ueq": "unordered or equal",
        "ugt": "unordered or greater than", "uge": "unordered or greater or equal", "ult": "unordered or less than",
        "ule": "unordered or less or equal", "une": "unordered or not equal", "uno": "unordered (either is NaN)",
        "true": "always true"}
inst("fcmp", "floating-point comparison",
     "Compares two floating-point values and gives an i1. 'Ordered' predicates are false when either operand is "
     "NaN, 'unordered' ones true. In the PTX: setp.gt.f32 for ogt, setp.gtu.f32 for ugt, and so on.",
     syntax="<result> = fcmp [fast-math flags] <cond> <ty> <op1>, <op2>", modifiers=FCMP)
inst("phi", "value chosen by the incoming edge",
     "Picks a value depending on which predecessor block control came from: `phi i32 [0, %entry], [%next, %loop]` "
     "is a loop counter. It is how SSA form merges values; in the PTX it becomes register moves.",
     syntax="<result> = phi <ty> [ <val0>, <label0>], ...")
inst("select", "conditional value",
     "Chooses one of two values by an i1 condition without branching (like C's c ? a : b). In the PTX: selp, or "
     "min/max when it is a comparison of the same values.", syntax="<result> = select i1 <cond>, <ty> <val1>, <ty> <val2>")
inst("call", "function call",
     "Calls a function. Calls of llvm.* and llvm.nvvm.* intrinsics become one or a few PTX instructions; calls of "
     "libdevice's __nv_* functions are linked in and usually inlined; other device functions become PTX `call` unless "
     "libNVVM inlines them.", "", "<result> = [tail] call <ty> <fnptrval>(<args>)",
     {"tail": "a hint that the caller's frame is not needed after the call; ignored by NVPTX"})
inst("freeze", "stop poison",
     "Turns a poison or undef value into an arbitrary but fixed value. It is newer than LLVM 7, so only the modern "
     "(opaque-pointer) NVVM dialect has it.",
     syntax="<result> = freeze <ty> <val>")

# --- Keywords a reader meets ------------------------------------------------------------------------
add("define", "directive", "a function with a body",
    "Starts the definition of a function: its return type, name, parameters and body. A define becomes a PTX "
    "`.func`, or a `.entry` when nvvm.annotations marks it as a kernel.",
    LANGREF + "functions", "LLVM Language Reference, Functions",
    "Functions without internal linkage are `.visible` in the PTX; `define internal` ones are not and may be dropped when unused.",
    "define [linkage] <ResultType> @<Name>(<args>) [attrs] { ... }")
add("declare", "directive", "a function defined elsewhere",
    "Names a function without giving its body: an intrinsic (llvm.*), a libdevice function (__nv_*) or a function of "
    "another module. If nothing provides it when the program is linked, libNVVM or ptxas reports it as undefined.",
    LANGREF + "functions", "LLVM Language Reference, Functions", syntax="declare <ResultType> @<Name>(<args>)")
add("target", "directive", "target datalayout / target triple",
    "Module-level lines that say which machine the IR is for: `target datalayout` gives type sizes and alignments, "
    "`target triple` the architecture (nvptx64-nvidia-cuda).", LANGREF + "data-layout", "LLVM Language Reference, Data Layout")
add("datalayout", "directive", "sizes and alignments of types",
    "The `target datalayout` string: pointer size (p:64:64:64), the alignment of each integer, float and vector type, "
    "and the native integer widths (n16:32:64). libNVVM accepts only the NVVM layouts and refuses a module whose layout "
    "differs, for example one missing i128:128:128.",
    NVVM + "data-layout", "NVVM IR Specification, Data Layout",
    "64-bit: e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-"
    "v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64 (32-bit: p:32:32:32).",
    'target datalayout = "<layout>"')
add("triple", "directive", "the target architecture",
    "The `target triple`: nvptx64-nvidia-cuda for 64-bit pointers (what libNVVM expects today), nvptx-nvidia-cuda for "
    "32-bit ones.", NVVM + "data-layout", "NVVM IR Specification, Data Layout",
    syntax='target triple = "nvptx64-nvidia-cuda"')
add("source_filename", "directive", "where the IR came from",
    "Records the source file the module was compiled from; it has no effect on the code.",
    LANGREF + "source-filename", "LLVM Language Reference, Source Filename")
add("attributes", "directive", "an attribute group",
    "`attributes #0 = { ... }` defines a set of function attributes that functions refer to as #0. libNVVM's reader "
    "refuses attributes newer than the LLVM it is based on (\"Unknown attribute kind\").",
    LANGREF + "attribute-groups", "LLVM Language Reference, Attribute Groups")
add("global", "directive", "a global variable",
    "`@x = addrspace(3) global [256 x float] undef` defines a variable that lives for the whole program (or, in "
    "shared memory, for the block). Its address space picks the PTX state space: .global, .shared or .const.",
    LANGREF + "global-variables", "LLVM Language Reference, Global Variables",
    syntax="@<name> = [linkage] [addrspace(<n>)] global <type> <initializer>")
add("constant", "directive", "a global that is never written",
    "Like `global`, but the variable is read-only; with addrspace(4) it goes to the PTX .const state space.",
    LANGREF + "global-variables", "LLVM Language Reference, Global Variables")
add("internal", "directive", "internal linkage",
    "The symbol is local to its module: it is not .visible in the PTX, cannot be called from another module, and is "
    "dropped when nothing uses it.", LANGREF + "linkage-types", "LLVM Language Reference, Linkage Types")
add("appending", "directive", "appending linkage",
    "Arrays with this linkage are concatenated when modules are linked; only special globals such as @llvm.used "
    "have it.", LANGREF + "linkage-types", "LLVM Language Reference, Linkage Types")
add("dbg", "metadata", "debug location",
    "`!dbg !7` attaches a source location (a DILocation: line, column, scope) to an instruction, or a DISubprogram to "
    "a function. With -g or -lineinfo these become PTX .loc lines, which the app's line map uses.",
    DEBUG + "debugger-intrinsic-functions", "LLVM Source Level Debugging",
    "libNVVM needs llvm.dbg.cu, the \"Debug Info Version\" module flag and the debug pair of nvvmir.version to accept them.")
add("range", "metadata", "known value range",
    "`!range !{i32 0, i32 1024}` on a load or call promises the result lies in [lo, hi); numba puts it on the special "
    "register reads so the optimizer knows a thread index is small.", LANGREF + "range-metadata",
    "LLVM Language Reference, 'range' Metadata")
add("inbounds", "modifier", "the address stays inside its object",
    "On getelementptr: the computed address is within the object the base pointer points into (or one past its end); "
    "otherwise the result is poison. It lets the optimizer assume no wrap-around.",
    LANGREF + "getelementptr-instruction", "LLVM Language Reference, 'getelementptr' instruction")
add("nsw", "modifier", "no signed wrap", FLAGS_INT["nsw"] + ". Lets the optimizer widen and simplify index arithmetic.",
    LANGREF + "add-instruction", "LLVM Language Reference, 'add' instruction")
add("nuw", "modifier", "no unsigned wrap", FLAGS_INT["nuw"] + ".", LANGREF + "add-instruction",
    "LLVM Language Reference, 'add' instruction")
add("align", "modifier", "alignment promise",
    "`align 4` on a load, store, alloca or global: the address is a multiple of that many bytes. Vector loads such as "
    "ld.global.v4.f32 need 16-byte alignment.", LANGREF + "load-instruction", "LLVM Language Reference, 'load' instruction")
add("volatile", "modifier", "volatile access",
    "The access must happen exactly as written: not removed, merged or reordered with other volatile accesses "
    "(ld.volatile / st.volatile in the PTX).", LANGREF + "volatile-memory-accesses", "LLVM Language Reference, Volatile Memory Accesses")

# --- Address spaces ----------------------------------------------------------------------------------
AS_LINK, AS_SRC = NVVM + "address-space", "NVVM IR Specification, Address Space"
add("addrspace", "address space", "which memory a pointer points into",
    "`float addrspace(1)*` is a pointer into address space 1. NVVM numbers the GPU's memories: 0 generic, 1 global, "
    "3 shared, 4 constant, 5 local. A pointer's address space picks the PTX state space of its loads and stores "
    "(ld.global, ld.shared, …); a generic pointer needs a generic ld/st, which the hardware resolves at run time.",
    AS_LINK, AS_SRC, "addrspacecast converts between generic and a specific space (PTX cvta).", "<ty> addrspace(<n>)*")
add("addrspace(0)", "address space", "generic",
    "Address space 0, the default of a plain `float*`: a generic address that can point into global, shared, local "
    "or constant memory. Loads and stores through it are generic PTX ld/st, which work out the real space at run time.",
    AS_LINK, AS_SRC, "Kernel pointer parameters are generic in the IR; libNVVM proves most of them global and uses "
    "cvta.to.global + ld.global itself.")
add("addrspace(1)", "address space", "global memory",
    "Address space 1, device memory that every thread of every block sees and that cudaMalloc'd buffers live in; "
    "it persists across kernel launches. It becomes the PTX .global state space (ld.global, st.global).", AS_LINK, AS_SRC)
add("addrspace(2)", "address space", "not used",
    "NVVM assigns no memory to address space 2; it is skipped in the numbering, so do not use it.", AS_LINK, AS_SRC)
add("addrspace(3)", "address space", "shared memory",
    "Address space 3, the on-chip memory a thread block shares: fast, small (tens of KiB per block), living as long "
    "as the block. Variables here are declared as `@tile = addrspace(3) global [256 x float] undef`. It becomes the "
    "PTX .shared state space (ld.shared, st.shared); threads must synchronize (barrier0) before reading each "
    "other's writes.", AS_LINK, AS_SRC)
add("addrspace(4)", "address space", "constant memory",
    "Address space 4, read-only memory set by the host before the launch (64 KiB), cached and broadcast when all "
    "threads of a warp read the same address. It becomes the PTX .const state space (ld.const).", AS_LINK, AS_SRC)
add("addrspace(5)", "address space", "local memory",
    "Address space 5, memory private to one thread (its stack: allocas and register spills). It is off-chip like "
    "global memory, though cached. It becomes the PTX .local state space (ld.local, st.local).",
    AS_LINK, AS_SRC, "NVVM IR requires allocas in the generic address space; addrspace(5) pointers appear after an "
    "explicit addrspacecast.")

# --- llvm.nvvm.* intrinsics ----------------------------------------------------------------------------
SPEC_INTR = NVVM + "nvvm-specific-intrinsic-functions"
SPEC_SRC = "NVVM IR Specification, NVVM Specific Intrinsic Functions"
XYZ = {".x": "x component", ".y": "y component", ".z": "z component"}
for reg, title, what in [
        ("tid", "thread index in the block", "the index of this thread within its block (CUDA threadIdx)"),
        ("ntid", "threads per block", "the size of the block in threads (CUDA blockDim)"),
        ("ctaid", "block index in the grid", "the index of this thread's block within the grid (CUDA blockIdx)"),
        ("nctaid", "blocks per grid", "the size of the grid in blocks (CUDA gridDim)")]:
    add(f"llvm.nvvm.read.ptx.sreg.{reg}", "intrinsic", title,
        f"Reads {what}, one component per intrinsic (.x, .y, .z). In the PTX it is a `mov.u32 %r, %{reg}.x`.",
        SPEC_INTR, SPEC_SRC, "", f"declare i32 @llvm.nvvm.read.ptx.sreg.{reg}.x()", XYZ)
add("llvm.nvvm.read.ptx.sreg.laneid", "intrinsic", "lane in the warp",
    "Reads this thread's lane number within its warp, 0 to 31 (PTX %laneid).", SPEC_INTR, SPEC_SRC,
    syntax="declare i32 @llvm.nvvm.read.ptx.sreg.laneid()")
add("llvm.nvvm.read.ptx.sreg.warpsize", "intrinsic", "threads per warp",
    "Reads the warp size, 32 on every NVIDIA GPU so far (PTX WARP_SZ).", SPEC_INTR, SPEC_SRC,
    syntax="declare i32 @llvm.nvvm.read.ptx.sreg.warpsize()")
add("llvm.nvvm.read.ptx.sreg.clock", "intrinsic", "cycle counter (32-bit)",
    "Reads the SM's 32-bit cycle counter (PTX %clock), for timing code inside a kernel.", SPEC_INTR, SPEC_SRC)
add("llvm.nvvm.read.ptx.sreg.clock64", "intrinsic", "cycle counter (64-bit)",
    "Reads the SM's 64-bit cycle counter (PTX %clock64).", SPEC_INTR, SPEC_SRC)
add("llvm.nvvm.barrier0", "intrinsic", "block-wide barrier",
    "Waits until every thread of the block has reached this point, and makes their earlier shared and global memory "
    "writes visible to each other (CUDA __syncthreads()). In the PTX: bar.sync 0. The .popc/.and/.or forms also count "
    "or combine a predicate over the block.", NVVM + "nvvm-intrin-barrier", "NVVM IR Specification, Barrier and Memory Fence",
    "Every thread of the block must reach the same barrier; one inside a branch that only some threads take hangs or "
    "is undefined.", "declare void @llvm.nvvm.barrier0()",
    {".popc": "returns how many threads had a nonzero predicate", ".and": "returns whether all had it",
     ".or": "returns whether any had it"})
add("llvm.nvvm.barrier.sync", "intrinsic", "named barrier",
    "Waits at barrier number n (0–15) until the expected threads arrive (PTX barrier.sync / bar.sync n). With a thread "
    "count it synchronizes only that many threads.", NVVM + "nvvm-intrin-barrier",
    "NVVM IR Specification, Barrier and Memory Fence", syntax="declare void @llvm.nvvm.barrier.sync(i32 %id)",
    modifiers={".cnt": "takes a thread count as its second operand"})
add("llvm.nvvm.membar", "intrinsic", "memory fence",
    "Makes this thread's earlier memory writes visible before its later ones, to the block (.cta), the GPU (.gl) or "
    "the whole system (.sys). It does not wait for other threads. In the PTX: membar.cta / membar.gl / membar.sys.",
    NVVM + "nvvm-intrin-barrier", "NVVM IR Specification, Barrier and Memory Fence",
    syntax="declare void @llvm.nvvm.membar.gl()",
    modifiers={".cta": "visible to the threads of the block", ".gl": "visible to all threads of the GPU",
               ".sys": "visible to the host and other GPUs too"})
add("llvm.nvvm.atomic", "intrinsic", "NVVM atomic operations",
    "Atomic operations that LLVM's atomicrmw cannot express, such as llvm.nvvm.atomic.load.inc.32 (wrap-around "
    "increment) and scoped forms; each becomes a PTX atom.* instruction.", SPEC_INTR, SPEC_SRC,
    modifiers={".inc": "increment, wrapping to 0 past the operand", ".dec": "decrement, wrapping to the operand below 0",
               ".32": "32-bit", ".add": "add"})
add("llvm.nvvm.shfl.sync", "intrinsic", "exchange values within a warp",
    "Lets each thread of a warp read a register of another lane, without shared memory (CUDA __shfl_sync). The mask "
    "names the participating lanes. In the PTX: shfl.sync.idx/up/down/bfly.b32.", NVVM + "nvvm-intrin-warp-level-datamove",
    "NVVM IR Specification, Warp-level Data Movement",
    syntax="declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %mask, i32 %a, i32 %b, i32 %c)",
    modifiers={".idx": "read lane b", ".up": "read lane − b", ".down": "read lane + b", ".bfly": "read lane XOR b",
               ".i32": "32-bit integer value", ".f32": "32-bit float value"})
add("llvm.nvvm.shfl", "intrinsic", "warp shuffle (without a mask)",
    "The older, mask-less form of llvm.nvvm.shfl.sync; use the .sync form on Volta and newer GPUs.",
    NVVM + "nvvm-intrin-warp-level-datamove", "NVVM IR Specification, Warp-level Data Movement")
add("llvm.nvvm.vote.sync", "intrinsic", "warp vote",
    "Combines a predicate across the lanes of a warp: all, any, uni (all equal) or ballot (a bitmask of lanes). "
    "In the PTX: vote.sync.", NVVM + "nvvm-intrin-warp-level-vote", "NVVM IR Specification, Warp-level Vote",
    modifiers={".all": "true if the predicate holds in every lane", ".any": "true if it holds in some lane",
               ".uni": "true if it is the same in every lane", ".ballot": "a 32-bit mask of the lanes where it holds"})
add("llvm.nvvm.bar.warp.sync", "intrinsic", "warp barrier",
    "Waits until the lanes in the mask have all reached it (CUDA __syncwarp). In the PTX: bar.warp.sync.",
    NVVM + "nvvm-intrin-warp-level-sync", "NVVM IR Specification, Warp-level Synchronization")
add("llvm.nvvm.ldg.global", "intrinsic", "load through the read-only cache",
    "Loads from global memory through the read-only (texture) data cache (CUDA __ldg). In the PTX: ld.global.nc. "
    "The data must not be written during the kernel.", SPEC_INTR, SPEC_SRC,
    modifiers={".i": "integer", ".f": "floating point", ".p": "pointer"})
add("llvm.nvvm.isspacep", "intrinsic", "test a generic pointer's space",
    "Tells whether a generic pointer points into global, shared, constant or local memory (PTX isspacep).",
    SPEC_INTR, SPEC_SRC, modifiers={".global": "global memory", ".shared": "shared memory", ".const": "constant memory",
                                   ".local": "local memory"})
ROUNDM = {".rn": "round to nearest even", ".rz": "round toward zero", ".rm": "round down (toward −∞)",
          ".rp": "round up (toward +∞)", ".ftz": "flush single-precision denormals to zero", ".f": "float", ".d": "double",
          ".approx": "fast approximation, not correctly rounded"}
for op, what, ptx in [("fma", "fused multiply-add with an explicit rounding mode", "fma.rn.f32"),
                      ("add", "addition with an explicit rounding mode (never fused into an fma)", "add.rn.f32"),
                      ("mul", "multiplication with an explicit rounding mode (never fused into an fma)", "mul.rn.f32"),
                      ("div", "division with an explicit rounding mode, or .approx", "div.rn.f32"),
                      ("rcp", "reciprocal 1/x with an explicit rounding mode", "rcp.rn.f32"),
                      ("sqrt", "square root with an explicit rounding mode, or .approx", "sqrt.rn.f32")]:
    add(f"llvm.nvvm.{op}", "intrinsic", what,
        f"Computes the {what}; the suffix gives the rounding (.rn, .rz, .rm, .rp), .ftz and the type (.f, .d). It maps to "
        f"one PTX instruction, for example {ptx}. libdevice's __nv_* functions are built from these.",
        SPEC_INTR, SPEC_SRC, modifiers=ROUNDM)
for op, what, ptx in [("rsqrt.approx", "approximate reciprocal square root", "rsqrt.approx.f32"),
                      ("ex2.approx", "approximate 2ˣ", "ex2.approx.f32"), ("lg2.approx", "approximate log₂ x", "lg2.approx.f32"),
                      ("sin.approx", "approximate sine", "sin.approx.f32"), ("cos.approx", "approximate cosine", "cos.approx.f32")]:
    add(f"llvm.nvvm.{op}", "intrinsic", what,
        f"Computes the {what} on the special function unit: fast, a few ulp or a fixed absolute error. In the PTX: {ptx}.",
        SPEC_INTR, SPEC_SRC, modifiers=ROUNDM)
TYPES = {"f": "float", "d": "double", "i": "int", "ui": "unsigned int", "ll": "long long", "ull": "unsigned long long",
         "h": "half"}
for src, dst in [("f", "i"), ("f", "ui"), ("f", "ll"), ("f", "ull"), ("d", "i"), ("d", "ui"), ("d", "ll"), ("d", "ull"),
                 ("i", "f"), ("ui", "f"), ("ll", "f"), ("ull", "f"), ("i", "d"), ("ui", "d"), ("ll", "d"), ("ull", "d"),
                 ("d", "f"), ("f", "h")]:
    add(f"llvm.nvvm.{src}2{dst}", "intrinsic", f"convert {TYPES[src]} to {TYPES[dst]}",
        f"Converts a {TYPES[src]} to {TYPES[dst]} with the rounding mode in the suffix (.rn, .rz, .rm, .rp; .ftz flushes "
        f"denormals). In the PTX: one cvt instruction.", SPEC_INTR, SPEC_SRC, modifiers=ROUNDM)
add("__nvvm_reflect", "intrinsic", "ask for a compile option",
    "A call `__nvvm_reflect(\"__CUDA_FTZ\")` is replaced by libNVVM with the value of an option (-ftz, -prec-sqrt, the "
    "architecture) before optimization, so the untaken branch disappears. This is how one libdevice serves every "
    "option setting.", "https://docs.nvidia.com/cuda/libdevice-users-guide/basic-usage.html",
    "libdevice User's Guide, Basic Usage (Supported Reflection Parameters)",
    "Parameters libdevice.10.bc reads: __CUDA_FTZ, __CUDA_PREC_SQRT and __CUDA_ARCH.", "declare i32 @__nvvm_reflect(i8*)")

# --- Generic llvm.* intrinsics ------------------------------------------------------------------------
def llvm_intr(key, title, summary, details="", nvvm_supported=True):
    anchor = key.replace(".", "-") + "-intrinsic"
    add(key, "intrinsic", title, summary, LANGREF + anchor, f"LLVM Language Reference, '{key}.*' intrinsic", details)


llvm_intr("llvm.fma", "fused multiply-add", "x·y + z with a single rounding (the type suffix, .f32 or .f64, names the "
          "type). In the PTX: fma.rn.f32 / fma.rn.f64.")
llvm_intr("llvm.fmuladd", "multiply-add, fused if fast", "x·y + z, fused into one fma when that is faster (always on the "
          "GPU): the same PTX fma.rn as llvm.fma.")
llvm_intr("llvm.maxnum", "maximum ignoring NaN", "The larger of two floats; if one is NaN the other is returned. In the "
          "PTX: max.f32. llvm-as-14 marks its declaration with attributes libNVVM's reader does not know (\"Unknown "
          "attribute kind (62)\").")
llvm_intr("llvm.minnum", "minimum ignoring NaN", "The smaller of two floats; if one is NaN the other is returned. In the "
          "PTX: min.f32.")
llvm_intr("llvm.sqrt", "square root", "√x. For float the -prec-sqrt option decides between sqrt.rn.f32 (the default) and "
          "sqrt.approx.f32; double is always sqrt.rn.f64.")
llvm_intr("llvm.fabs", "absolute value", "|x| (PTX abs.f32).")
llvm_intr("llvm.floor", "round down", "The largest integer ≤ x, as a float (PTX cvt.rmi.f32.f32).")
llvm_intr("llvm.ceil", "round up", "The smallest integer ≥ x, as a float (PTX cvt.rpi.f32.f32).")
llvm_intr("llvm.trunc", "round toward zero", "x with its fraction dropped, as a float (PTX cvt.rzi.f32.f32).")
llvm_intr("llvm.rint", "round to nearest even", "x rounded to the nearest integer, halfway to even (PTX cvt.rni.f32.f32).")
llvm_intr("llvm.nearbyint", "round to nearest even", "Like llvm.rint (PTX cvt.rni.f32.f32).")
llvm_intr("llvm.round", "round half away from zero", "x rounded to the nearest integer, halfway cases away from zero.")
llvm_intr("llvm.copysign", "copy sign", "The magnitude of the first operand with the sign of the second.")
llvm_intr("llvm.memcpy", "copy memory", "Copies n bytes between non-overlapping buffers; libNVVM expands it into loads and "
          "stores (or a loop).")
llvm_intr("llvm.memmove", "copy possibly overlapping memory", "Copies n bytes; the buffers may overlap.")
llvm_intr("llvm.memset", "fill memory", "Sets n bytes to one byte value; libNVVM expands it into stores (or a loop).")
llvm_intr("llvm.lifetime.start", "object's lifetime begins", "Marks where an alloca'd object starts being used, so the "
          "optimizer can share stack space between objects; it produces no code.")
llvm_intr("llvm.lifetime.end", "object's lifetime ends", "Marks where an alloca'd object stops being used; no code.")
llvm_intr("llvm.ctpop", "population count", "The number of set bits (PTX popc.b32).")
llvm_intr("llvm.ctlz", "count leading zeros", "The number of zero bits above the highest set bit (PTX clz.b32).")
llvm_intr("llvm.cttz", "count trailing zeros", "The number of zero bits below the lowest set bit (PTX brev + clz).")
llvm_intr("llvm.bswap", "byte swap", "Reverses the byte order of an integer (PTX prmt).")
llvm_intr("llvm.bitreverse", "bit reverse", "Reverses the bit order of an integer (PTX brev.b32).")
llvm_intr("llvm.expect", "branch hint", "Returns its first operand and tells the optimizer the value is probably the "
          "second; no code.")
llvm_intr("llvm.donothing", "no operation", "Does nothing; no code.")
add("llvm.dbg.value", "intrinsic", "debug value of a variable",
    "Says that a source variable (a DILocalVariable) now holds this value; emitted with debug info (-g), it produces "
    "no instruction, only DWARF for the debugger.", DEBUG + "llvm-dbg-value", "LLVM Source Level Debugging, 'llvm.dbg.value'")
add("llvm.dbg.declare", "intrinsic", "debug address of a variable",
    "Says that a source variable lives at this alloca's address for the whole function; no instruction, only DWARF.",
    DEBUG + "llvm-dbg-declare", "LLVM Source Level Debugging, 'llvm.dbg.declare'")

# --- Metadata and globals ----------------------------------------------------------------------------
add("nvvm.annotations", "metadata", "which functions are kernels, and their launch limits",
    "Named metadata listing (function, property, value) triples. `!{void (float*)* @k, !\"kernel\", i32 1}` makes @k a "
    "kernel: a PTX `.entry` the host can launch. Without it a define is only a device function (`.func`), and there "
    "is nothing to run.", NVVM + "global-property-annotation", "NVVM IR Specification, Global Property Annotation",
    "Properties (NVVM IR Spec, Supported Properties): kernel, maxntidx/y/z (PTX .maxntid), reqntidx/y/z (.reqntid), "
    "minctasm (.minnctapersm), maxnreg (.maxnreg), cluster_dim_x/y/z and maxclusterrank; texture/surface/managed mark "
    "globals.", "!nvvm.annotations = !{!0}\n!0 = !{<fn type> @<kernel>, !\"kernel\", i32 1}",
    {"kernel": "the function is a kernel entry point (.entry)", "maxntidx": "at most this many threads per block in x (.maxntid)",
     "maxntidy": "at most this many threads per block in y", "maxntidz": "at most this many threads per block in z",
     "reqntidx": "exactly this many threads per block in x (.reqntid)", "reqntidy": "exactly this many in y",
     "reqntidz": "exactly this many in z", "minctasm": "at least this many blocks per SM should fit (.minnctapersm)",
     "maxnreg": "at most this many registers per thread (.maxnreg)"})
add("nvvmir.version", "metadata", "the NVVM IR version the module is written in",
    "Named metadata with the IR version pair, `!{i32 2, i32 0}`: major 2, minor 0. libNVVM checks it against the "
    "version it reads (nvvmIRVersion) and refuses a module without it or with an incompatible version. A module "
    "with debug info adds the debug-metadata version pair: `!{i32 2, i32 0, i32 3, i32 2}`.",
    NVVM + "metadata", "NVVM IR Specification, Metadata",
    "The first pair is the IR version (major, minor), the second the debug metadata version (major, minor); the "
    "app's fix inserts the pair the loaded libNVVM reports.",
    "!nvvmir.version = !{!0}\n!0 = !{i32 2, i32 0}")
add("llvm.module.flags", "metadata", "module-wide settings",
    "Named metadata with flags for the whole module, such as !{i32 2, !\"Debug Info Version\", i32 3} and "
    "!{i32 2, !\"Dwarf Version\", i32 4}; LLVM drops debug info whose \"Debug Info Version\" it does not know.",
    LANGREF + "module-flags-metadata", "LLVM Language Reference, Module Flags Metadata")
add("llvm.ident", "metadata", "the compiler that wrote the module",
    "Named metadata with the producer's identification, such as !{!\"clang version 14.0.6\"}; clang writes it. It is "
    "information only: it does not change the code that is generated.",
    LANGREF + "named-metadata", "LLVM Language Reference, Named Metadata")
add("llvm.dbg.cu", "metadata", "the compile units with debug info",
    "Named metadata listing the module's DICompileUnit nodes; it is the root of the debug information that -g turns "
    "into DWARF and -lineinfo into .loc lines.", LANGREF + "dicompileunit",
    "LLVM Language Reference, DICompileUnit")
for key, what in [("DICompileUnit", "the compile unit: source language, producer, the file and whether it is optimized"),
                  ("DIFile", "a source file name and directory"),
                  ("DISubprogram", "a source function, with its name, line and type"),
                  ("DILocation", "a source position (line, column, scope) attached to instructions through !dbg"),
                  ("DISubroutineType", "the type of a function, for the debugger"),
                  ("DIBasicType", "a basic type such as int or float, for the debugger"),
                  ("DILocalVariable", "a local variable or parameter, described for the debugger"),
                  ("DILexicalBlock", "a { } scope inside a function")]:
    add(key, "metadata", what.split(",")[0].split(" (")[0],
        f"Debug information node describing {what}. It produces no code; -g turns it into DWARF sections of the PTX.",
        LANGREF + key.lower(), "LLVM Language Reference, Specialized Metadata Nodes")
add("llvm.used", "metadata", "globals that must be kept",
    "An appending global array listing functions and variables that must survive optimization even if nothing "
    "refers to them. Link-time optimization (nvJitLink -lto) drops every kernel not listed here without an error, "
    "so an LTO program lists its kernels in @llvm.used.", NVVM + "intrinsic-global-variables",
    "NVVM IR Specification, Intrinsic Global Variables",
    "The array lives in section \"llvm.metadata\" with appending linkage; entries are bitcasts to i8*.",
    '@llvm.used = appending global [1 x i8*] [i8* bitcast (void ()* @k to i8*)], section "llvm.metadata"')
add("llvm.compiler.used", "metadata", "globals the compiler must keep",
    "Like llvm.used, but the linker may still drop the listed symbols; it only stops the optimizer from removing "
    "them.", LANGREF + "the-llvm-compiler-used-global-variable", "LLVM Language Reference, llvm.compiler.used")


def main():
    keys = [e["key"] for e in entries]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise SystemExit("duplicate keys: " + ", ".join(dup))
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"domain": "ir", "entries": entries}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{OUT}: {len(entries)} entries")


if __name__ == "__main__":
    main()
