// nvpg_manpage OUTPUT: writes nvpg.1 from nvpg's option table (the build runs it; see
// app/cli/CMakeLists.txt).
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "cli/ManPage.h"
#include "core/support/Files.h"
#include "core/support/Text.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: nvpg_manpage OUTPUT\n");
        return 2;
    }
    // The title line's date: the day of SOURCE_DATE_EPOCH when a reproducible build sets it, else
    // the version alone, so that two builds of one version write the same page.
    std::string date = NVPG_VERSION;
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch) {
        long long seconds = -1;
        const bool valid = nvpg::support::parseInt(epoch, seconds) && seconds >= 0;
        const std::time_t t = valid ? std::time_t(seconds) : 0;
        std::tm day{};
        if (!valid || !::gmtime_r(&t, &day)) {
            std::fprintf(stderr, "nvpg_manpage: SOURCE_DATE_EPOCH is '%s', not a number of seconds since 1970\n",
                         epoch);
            return 1;
        }
        char text[16];
        std::strftime(text, sizeof text, "%Y-%m-%d", &day);
        date = text;
    }
    const auto cli = nvpg::cli::buildCliApp();
    if (auto st = nvpg::support::writeFileAtomic(argv[1], nvpg::cli::manPage(*cli, date)); !st) {
        std::fprintf(stderr, "nvpg_manpage: %s\n", st.error().message.c_str());
        return 1;
    }
    return 0;
}
