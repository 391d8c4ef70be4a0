// nvpg.1, the man page, written from nvpg's option table (CliApp) by nvpg_manpage at build time.
#pragma once

#include <string>
#include <string_view>

#include "cli/CliApp.h"

namespace nvpg::cli {

// The page in roff (man(7)): every command and option of the table, each with its argument's
// type name, default and description as --help shows them, among the sections written here
// (description, environment, files, exit status, examples). `date` is the title line's date.
std::string manPage(const CliApp& cli, std::string_view date);

// `text` as roff text: backslashes, characters outside ASCII, and the hyphens of option names in
// it (--ftz, -g, --nvvm-flag=-foo) escaped, so that they print as the ASCII minus one types.
std::string roffText(std::string_view text);

}  // namespace nvpg::cli
