// The PTX declaration reader and the ptxas info-log parser on arbitrary text: both take whatever
// libNVVM and nvJitLink print (or a user pastes), so neither may crash or give impossible figures.
#include <set>

#include "FuzzSupport.h"
#include "core/ptx/Ptx.h"

using namespace nvpg;
using fuzz::require;

namespace {

void checkParam(const ptx::Param& p) {
    require(p.size >= 0 && p.align >= 0 && p.arrayCount >= 0 && p.pointerAlign >= 0,
            "a parameter's size, alignment and count are not negative", p.name);
    require(!p.isPointer || p.pointerSpace.empty() || p.pointerSpace[0] == '.', "a state space is a directive");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto text = fuzz::bytesOf(data, size);
    size_t lines = 1;
    for (char c : text) lines += c == '\n';

    const auto module = ptx::readPtx(text);
    std::set<std::string> names;
    for (const auto& f : module.functions) {
        require(!f.name.empty(), "a function has a name");
        require(names.insert(f.name).second, "one Function per name", f.name);
        require(module.find(f.name) == &f, "find() gives the function of that name", f.name);
        require(f.line >= 1 && size_t(f.line) <= lines, "a function's line is in the text", f.name);
        for (const auto& p : f.params) checkParam(p);
        for (const auto& p : f.returns) checkParam(p);
        require(!f.isEntry || f.returns.empty(), "a kernel returns nothing", f.name);
    }
    size_t entries = 0;
    for (const auto* e : module.entries()) entries += e->isEntry;
    require(entries == module.entries().size(), "entries() lists kernels only");
    require(module.addressSize >= 0, "the address size is not negative");

    const auto usage = ptx::parsePtxasInfo(text);
    for (const auto& u : usage) {
        require(u.registers >= 0 && u.barriers >= 0 && u.stackFrame >= 0 && u.spillStores >= 0 && u.spillLoads >= 0 &&
                    u.sharedBytes >= 0 && u.localBytes >= 0 && u.constBytes >= 0,
                "ptxas figures are not negative", u.function);
    }
    return 0;
}
