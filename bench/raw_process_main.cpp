// nvpg_bench_rawproc: the smallest process that compiles with libNVVM: dlopen, read the files,
// the plain calls, write the PTX. nvpg_bench times it beside `nvpg compile` to tell what any new
// process costs (loading libNVVM, first-use warm-up inside it) from what nvpg adds.
//   nvpg_bench_rawproc LIBNVVM MODULE.ll OUT.ptx [LIBDEVICE.bc]
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "RawNvvm.h"

namespace {

bool slurp(const char* path, std::string& out) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return static_cast<bool>(f);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4 && argc != 5) {
        std::fprintf(stderr, "usage: %s LIBNVVM MODULE.ll OUT.ptx [LIBDEVICE.bc]\n", argv[0]);
        return 2;
    }
    auto api = nvpg::bench::loadRawNvvm(argv[1]);
    if (!api) return 1;
    std::string module, libdevice, error;
    if (!slurp(argv[2], module) || (argc == 5 && !slurp(argv[4], libdevice))) {
        std::fprintf(stderr, "nvpg_bench_rawproc: cannot read the input\n");
        return 1;
    }
    auto ptx = nvpg::bench::rawCompile(*api, module, argc == 5 ? &libdevice : nullptr, error);
    if (!ptx) {
        std::fprintf(stderr, "nvpg_bench_rawproc: %s\n", error.c_str());
        return 1;
    }
    std::ofstream(argv[3], std::ios::binary) << *ptx;
    return 0;
}
