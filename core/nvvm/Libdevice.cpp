#include "core/nvvm/Libdevice.h"

#include <algorithm>
#include <set>

#include "core/support/Text.h"

namespace nvpg::nvvm {

namespace {

// constexpr: made at compile time, not by a static initializer before every nvpg's main.
constexpr LibdeviceFunction kTable[] = {
#include "core/nvvm/LibdeviceTable.inc"
};

bool nameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

}  // namespace

std::span<const LibdeviceFunction> libdeviceFunctions() {
    return kTable;
}

const LibdeviceFunction* findLibdeviceFunction(std::string_view name) {
    for (const auto& f : kTable)
        if (f.name == name) return &f;
    return nullptr;
}

std::vector<std::string> libdeviceFunctionsUsedBy(const std::vector<Module>& modules) {
    std::set<std::string> used;
    for (const auto& m : modules) {
        const std::string_view bytes = m.bytes;
        const bool bitcode = m.isBitcode();
        size_t pos = 0;
        while ((pos = bytes.find("__nv_", pos)) != std::string_view::npos) {
            if (!bitcode) {
                // In text a call or declaration reads @__nv_name or @"__nv_name".
                const bool symbol =
                    (pos > 0 && bytes[pos - 1] == '@') || (pos > 1 && bytes[pos - 1] == '"' && bytes[pos - 2] == '@');
                size_t end = pos;
                while (end < bytes.size() && nameChar(bytes[end])) ++end;
                if (symbol && findLibdeviceFunction(bytes.substr(pos, end - pos)))
                    used.emplace(bytes.substr(pos, end - pos));
                pos = end;
                continue;
            }
            // The string table has no separators: take the longest libdevice name found here.
            size_t best = 0;
            for (const auto& f : kTable)
                if (f.name.size() > best && bytes.substr(pos, f.name.size()) == f.name) best = f.name.size();
            if (best) used.emplace(bytes.substr(pos, best));
            pos += best ? best : 5;
        }
    }
    // What those call, transitively.
    std::vector<std::string> work(used.begin(), used.end());
    while (!work.empty()) {
        const auto name = work.back();
        work.pop_back();
        const auto* f = findLibdeviceFunction(name);
        if (!f) continue;
        for (auto callee : support::split(f->callees, ' '))
            if (!callee.empty() && used.emplace(callee).second) work.emplace_back(callee);
    }
    return {used.begin(), used.end()};
}

}  // namespace nvpg::nvvm
