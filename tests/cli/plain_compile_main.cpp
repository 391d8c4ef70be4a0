// nvpg_plain_compile: the plain libNVVM calls (tests/PlainNvvm.h) on a libNVVM named by its path,
// in a process of its own: two libNVVM releases share the soname libnvvm.so.4, so a test that
// has opened one cannot open another. The comparison tests check each side of `nvpg compare`
// against its own toolkit's plain calls with it.
//   nvpg_plain_compile LIBNVVM OUT MODULE... [-- FLAG...]
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "PlainNvvm.h"

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s LIBNVVM OUT MODULE... [-- FLAG...]\n", argv[0]);
        return 2;
    }
    void* lib = ::dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        std::fprintf(stderr, "cannot open %s: %s\n", argv[1], ::dlerror());
        return 2;
    }
    nvpg::toolkit::NvvmApi api;
    auto sym = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
    };
    sym(api.createProgram, "nvvmCreateProgram");
    sym(api.destroyProgram, "nvvmDestroyProgram");
    sym(api.addModuleToProgram, "nvvmAddModuleToProgram");
    sym(api.lazyAddModuleToProgram, "nvvmLazyAddModuleToProgram");
    sym(api.compileProgram, "nvvmCompileProgram");
    sym(api.getCompiledResultSize, "nvvmGetCompiledResultSize");
    sym(api.getCompiledResult, "nvvmGetCompiledResult");
    sym(api.getProgramLogSize, "nvvmGetProgramLogSize");
    sym(api.getProgramLog, "nvvmGetProgramLog");
    std::vector<nvpg::test::PlainModule> modules;
    std::vector<std::string> flags;
    int i = 3;
    for (; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
        std::ifstream in(argv[i], std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        modules.push_back({argv[i], ss.str(), false});
    }
    for (++i; i < argc; ++i) flags.emplace_back(argv[i]);
    const auto out = nvpg::test::plainCompile(api, modules, flags);
    std::ofstream(argv[2], std::ios::binary) << out;
    return out.rfind("ERROR", 0) == 0 ? 1 : 0;
}
