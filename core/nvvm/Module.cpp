#include "core/nvvm/Module.h"

#include <fmt/format.h>

#include "core/support/Text.h"

namespace nvpg::nvvm {

std::span<const ModuleFileKind> moduleFileKinds() {
    static constexpr ModuleFileKind kinds[] = {{"ll", "text"}, {"bc", "bitcode"}};
    return kinds;
}

bool isModuleFileName(std::string_view path) {
    const auto slash = path.find_last_of('/');
    const auto name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    const auto dot = name.find_last_of('.');
    if (dot == std::string_view::npos || dot == 0) return false;
    const auto suffix = name.substr(dot + 1);
    for (const auto& kind : moduleFileKinds())
        if (kind.suffix == suffix) return true;
    return false;
}

std::string moduleFileKindsText() {
    const auto kinds = moduleFileKinds();
    std::string text;
    for (size_t i = 0; i < kinds.size(); ++i) {
        if (i > 0) text += i + 1 == kinds.size() ? " or " : ", ";
        text += fmt::format(".{} ({})", kinds[i].suffix, kinds[i].what);
    }
    return text;
}

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
