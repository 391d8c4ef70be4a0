// Base64 (RFC 4648, standard alphabet, with padding): how .nvpg files carry bitcode modules.
#pragma once

#include <string>
#include <string_view>

#include "core/support/Result.h"

namespace nvpg::support {

std::string base64Encode(std::string_view bytes);
// Whitespace (spaces, tabs, newlines) is skipped, so wrapped or hand-indented text decodes.
// The error names the offending character and its offset in `text`.
Result<std::string> base64Decode(std::string_view text);

}  // namespace nvpg::support
