#pragma once

#include <nvvm.h>

namespace nvpg::toolkit {

// libNVVM's entry points. The rest of core calls libNVVM only through this table, so a test can
// count or fail single calls by swapping a pointer, with no fake library file.
struct NvvmApi {
    nvvmResult (*version)(int*, int*) = nullptr;
    nvvmResult (*irVersion)(int*, int*, int*, int*) = nullptr;
    const char* (*getErrorString)(nvvmResult) = nullptr;
    nvvmResult (*createProgram)(nvvmProgram*) = nullptr;
    nvvmResult (*destroyProgram)(nvvmProgram*) = nullptr;
    nvvmResult (*addModuleToProgram)(nvvmProgram, const char*, size_t, const char*) = nullptr;
    // Absent before CUDA 10; libdevice is then added eagerly.
    nvvmResult (*lazyAddModuleToProgram)(nvvmProgram, const char*, size_t, const char*) = nullptr;
    nvvmResult (*compileProgram)(nvvmProgram, int, const char**) = nullptr;
    nvvmResult (*verifyProgram)(nvvmProgram, int, const char**) = nullptr;
    nvvmResult (*getCompiledResultSize)(nvvmProgram, size_t*) = nullptr;
    nvvmResult (*getCompiledResult)(nvvmProgram, char*) = nullptr;
    nvvmResult (*getProgramLogSize)(nvvmProgram, size_t*) = nullptr;
    nvvmResult (*getProgramLog)(nvvmProgram, char*) = nullptr;
};

}  // namespace nvpg::toolkit
