// nvpg_bench_rawproc: the smallest process that compiles with libNVVM: dlopen, read the files,
// the plain calls, write the result. The benches time it beside `nvpg compile` to tell what any
// new process costs (loading libNVVM, first-use warm-up inside it) from what nvpg adds.
//   nvpg_bench_rawproc LIBNVVM MODULE.ll OUT.ptx [LIBDEVICE.bc]
//       add, [lazy libdevice], compile with -arch=compute_90 (bench_compile's sequence)
//   nvpg_bench_rawproc --numba LIBNVVM OUT LIBDEVICE.bc MODULE.ll... [-- OPTION...]
//       numba-cuda's (and nvpg's) sequence: add each module, verify, lazily add libdevice,
//       compile, all with OPTIONs as given (-opt=3 -arch=compute_90 ...)
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "RawNvvm.h"

namespace {

bool slurp(const char* path, std::string& out) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return static_cast<bool>(f);
}

int usage(const char* self) {
    std::fprintf(stderr,
                 "usage: %s LIBNVVM MODULE.ll OUT.ptx [LIBDEVICE.bc]\n"
                 "       %s --numba LIBNVVM OUT LIBDEVICE.bc MODULE.ll... [-- OPTION...]\n",
                 self, self);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    const bool numba = argc > 1 && std::strcmp(argv[1], "--numba") == 0;
    if (numba ? argc < 6 : (argc != 4 && argc != 5)) return usage(argv[0]);
    const int first = numba ? 2 : 1;
    auto api = nvpg::bench::loadRawNvvm(argv[first]);
    if (!api) return 1;
    std::vector<std::string> modules, options;
    std::string libdevice, error;
    const char* out = nullptr;
    bool read = true;
    if (numba) {
        out = argv[3];
        read = slurp(argv[4], libdevice);
        int i = 5;
        for (; i < argc && std::strcmp(argv[i], "--") != 0; ++i) read = slurp(argv[i], modules.emplace_back()) && read;
        for (++i; i < argc; ++i) options.emplace_back(argv[i]);
    } else {
        out = argv[3];
        read = slurp(argv[2], modules.emplace_back()) && (argc != 5 || slurp(argv[4], libdevice));
        options = {"-arch=compute_90"};
    }
    if (!read || modules.empty()) {
        std::fprintf(stderr, "nvpg_bench_rawproc: cannot read the input\n");
        return 1;
    }
    const bool withLibdevice = numba || argc == 5;
    auto result = nvpg::bench::rawCompileAsNumba(*api, modules, withLibdevice ? &libdevice : nullptr, options,
                                                 /*verify=*/numba, error);
    if (!result) {
        std::fprintf(stderr, "nvpg_bench_rawproc: %s\n", error.c_str());
        return 1;
    }
    std::ofstream(out, std::ios::binary) << *result;
    return 0;
}
