// nvpg_bench_genir: writes the bench's generated module to a file, for running nvpg (or perf,
// strace, ...) on the same input by hand.
//   nvpg_bench_genir [--kernels N | --lines N] [--libdevice] OUT.ll
// --lines: the fewest kernels that make at least N lines (200000 is the large-input goal's module).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "IrGenerator.h"

int main(int argc, char** argv) {
    int kernels = 300;
    int lines = 0;
    bool libdevice = false;
    const char* out = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--kernels") && i + 1 < argc)
            kernels = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--lines") && i + 1 < argc)
            lines = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--libdevice"))
            libdevice = true;
        else if (argv[i][0] != '-' && !out)
            out = argv[i];
        else {
            std::fprintf(stderr, "usage: %s [--kernels N | --lines N] [--libdevice] OUT.ll\n", argv[0]);
            return 2;
        }
    }
    if (!out || kernels < 1) {
        std::fprintf(stderr, "usage: %s [--kernels N | --lines N] [--libdevice] OUT.ll\n", argv[0]);
        return 2;
    }
    if (lines > 0) kernels = nvpg::bench::kernelsForLines(lines, libdevice);
    std::ofstream f(out, std::ios::binary);
    f << nvpg::bench::generateModule(kernels, libdevice);
    return f ? 0 : 1;
}
