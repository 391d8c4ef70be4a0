#include "core/nvvm/Module.h"

#include <fmt/format.h>

#include "core/support/Text.h"

namespace nvpg::nvvm {

bool looksLikeBitcode(std::string_view b) {
    if (b.size() < 4) return false;
    const auto u = [&](size_t i) { return static_cast<unsigned char>(b[i]); };
    const bool raw = u(0) == 'B' && u(1) == 'C' && u(2) == 0xC0 && u(3) == 0xDE;
    const bool wrapper = u(0) == 0xDE && u(1) == 0xC0 && u(2) == 0x17 && u(3) == 0x0B;
    return raw || wrapper;
}

std::optional<std::string> moduleNameProblem(std::string_view name) {
    const auto at = support::firstControlCharacter(name);
    if (!at) return std::nullopt;
    const std::string shown = support::printable(name);
    const size_t len = static_cast<unsigned char>(name[*at]) < 0x80 ? 1 : 2;  // C1 is two bytes in UTF-8
    return fmt::format("the name \"{}\" has a control character ({} at byte {})", shown,
                       support::printable(name.substr(*at, len)), *at + 1);
}

ModuleFormat Module::format() const {
    return looksLikeBitcode(bytes) ? ModuleFormat::Bitcode : ModuleFormat::Text;
}

}  // namespace nvpg::nvvm
