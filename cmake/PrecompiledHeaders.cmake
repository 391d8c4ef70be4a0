# Precompiled headers: the heavy library headers (nlohmann/json, fmt, CLI11, Qt) are parsed once
# per set of flags instead of once per source. On by default with GCC, whose PCH the compiler
# cache (cmake/CompilerCache.cmake) keys without the clone's path, so a clone elsewhere still hits.
# Off with Clang (the sanitizer build): CMake hands Clang its PCH as `-Xclang -include <absolute
# path>`, which ccache cannot make relative, so every clone would miss.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(_pch_default ON)
else()
    set(_pch_default OFF)
endif()
option(NVPG_PCH "Precompile the heavy library headers" ${_pch_default})

set(NVPG_PCH_STD <algorithm> <filesystem> <functional> <map> <memory> <optional> <string> <string_view>
    <vector>)
set(NVPG_PCH_CORE ${NVPG_PCH_STD} <nlohmann/json.hpp> <fmt/format.h>)

# nvpg_precompile(TARGET HEADERS...): TARGET's sources start from these headers.
function(nvpg_precompile target)
    if(NVPG_PCH)
        target_precompile_headers(${target} PRIVATE ${ARGN})
    endif()
endfunction()

# nvpg_pch_donor(NAME LIBS... HEADERS h...): a library of no code that only builds a PCH of
# HEADERS with the flags its LIBS give, for executables of the same flags to share
# (nvpg_reuse_pch): the test suites, one executable each.
function(nvpg_pch_donor name)
    cmake_parse_arguments(D "" "" "LIBS;HEADERS" ${ARGN})
    if(NOT NVPG_PCH)
        return()
    endif()
    file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${name}.cpp CONTENT "// The precompiled headers' own source.\n")
    add_library(${name} STATIC ${CMAKE_CURRENT_BINARY_DIR}/${name}.cpp)
    target_link_libraries(${name} PRIVATE ${D_LIBS})
    set_target_properties(${name} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
    target_precompile_headers(${name} PRIVATE ${D_HEADERS})
endfunction()

function(nvpg_reuse_pch target donor)
    if(NVPG_PCH)
        target_precompile_headers(${target} REUSE_FROM ${donor})
    endif()
endfunction()
