#include "nvvm/Module.h"

namespace nvpg::nvvm {

bool looksLikeBitcode(std::string_view b) {
    if (b.size() < 4) return false;
    const auto u = [&](size_t i) { return static_cast<unsigned char>(b[i]); };
    const bool raw = u(0) == 'B' && u(1) == 'C' && u(2) == 0xC0 && u(3) == 0xDE;
    const bool wrapper = u(0) == 0xDE && u(1) == 0xC0 && u(2) == 0x17 && u(3) == 0x0B;
    return raw || wrapper;
}

ModuleFormat Module::format() const {
    return looksLikeBitcode(bytes) ? ModuleFormat::Bitcode : ModuleFormat::Text;
}

}  // namespace nvpg::nvvm
