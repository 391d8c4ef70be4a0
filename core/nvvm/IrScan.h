#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nvpg::nvvm {

// A light reading of NVVM IR text: function headers and a few module-level facts. It does not
// parse LLVM IR; it reads what the messages, reports and hints need.
struct IrFunction {
    std::string name;  // without '@' and quotes
    bool isDefinition = false;
    int line = 0;  // 1-based line of `define`/`declare`
    std::string returnType;
    std::vector<std::string> paramTypes;  // "float*", "i32", "%struct.S addrspace(1)*"
    std::vector<std::string> paramNames;  // one per type: "%n", "%x"; "" for an unnamed one
};

std::vector<IrFunction> scanFunctions(std::string_view ir);
// True when the IR spells pointers as `ptr` (the "modern" dialect libNVVM reads from compute_100).
bool usesOpaquePointers(std::string_view ir);
// 1-based line of the `@llvm.used` definition, if any.
std::optional<int> llvmUsedLine(std::string_view ir);

// A place where IR text names the global `name`, spelled either way LLVM writes it: `@name` or
// `@"name"` (numba quotes every name: `declare double @"__nv_log1p"(double)`).
struct SymbolUse {
    int line = 0;              // 1-based
    int column = 0;            // 1-based, of the '@'
    bool call = false;         // an instruction that calls it
    bool declaration = false;  // its `declare` line
};
std::vector<SymbolUse> symbolUses(std::string_view ir, std::string_view name);
// Where a message about `name` belongs: its first call, else its declaration, else its first use.
std::optional<SymbolUse> firstUse(std::string_view ir, std::string_view name);
// Whether a `target datalayout` string is certainly one LLVM 7 parses: every specifier of it is
// of a kind it knows (e, p, i, v, f, a, n, S, m) with sizes and alignments it takes (whole
// bytes, powers of two, preferred not below ABI). False means "not sure", not "broken".
bool dataLayoutParses(std::string_view layout);
}  // namespace nvpg::nvvm
