#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nvpg::ptx {

// One parameter of a .entry or .func, as the PTX declares it.
struct Param {
    std::string name;          // "saxpy_param_0"
    std::string type;          // ".u64", ".f32", ".b8" (the element type for arrays)
    int size = 0;              // bytes in the parameter buffer: element size × array count
    int align = 0;             // .align N when given, else the element size
    int arrayCount = 0;        // N of name[N]; 0 when not an array
    bool isPointer = false;    // declared with .ptr
    std::string pointerSpace;  // ".global", ".shared", ... after .ptr; empty when none given
    int pointerAlign = 0;      // .ptr ... .align N; 0 when none given
};

// A .entry (kernel) or .func in the PTX.
struct Function {
    std::string name;
    bool isEntry = false;
    bool isVisible = false;  // .visible
    bool isExtern = false;   // .extern: declared, defined elsewhere (e.g. an unlinked __nv_ call)
    bool isWeak = false;     // .weak
    int line = 0;            // 1-based line of its declaration
    std::vector<Param> params;
    std::vector<Param> returns;  // .func's return parameters
};

struct PtxModule {
    std::string version;                   // "9.0" from .version
    std::string target;                    // "sm_90" (first of .target's list)
    std::vector<std::string> targetFlags;  // the rest of .target's list: "debug", "texmode_independent"
    int addressSize = 0;                   // from .address_size, 0 when absent
    std::vector<Function> functions;

    std::vector<const Function*> entries() const;
    const Function* find(std::string_view name) const;
};

// Reads the declarations of a PTX module; bodies are skipped. Never fails: what cannot be read
// is left out.
PtxModule readPtx(std::string_view ptx);

// ptxas figures for one function, from nvJitLink's -verbose info log.
struct ResourceUsage {
    std::string function;
    std::string arch;      // "sm_90"
    bool isEntry = false;  // "Compiling entry function"
    int registers = 0;
    int barriers = 0;
    int stackFrame = 0;   // bytes
    int spillStores = 0;  // bytes
    int spillLoads = 0;   // bytes
    int sharedBytes = 0;  // "N bytes smem"
    int localBytes = 0;   // "N bytes lmem"
    int constBytes = 0;   // sum of "N bytes cmem[K]"
};

// Parses ptxas' "info" lines as nvJitLink -verbose prints them; functions in order of appearance.
std::vector<ResourceUsage> parsePtxasInfo(std::string_view infoLog);

}  // namespace nvpg::ptx
