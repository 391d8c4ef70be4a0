# Fails when an #include goes against core's layer order (README "Architecture"), when core
# includes Qt, or when the command line includes the GUI.
#   cmake -DROOT=<source tree> -P CheckLayers.cmake
# Each core directory may include itself and the directories named after it here, nothing else;
# a new directory has to be added, which is the moment to decide where it sits.
cmake_minimum_required(VERSION 3.25)

set(NVPG_LAYERS
    "support:"
    "toolkit:support"
    "nvvm:support toolkit"
    "ptx:support toolkit"
    "lto:support toolkit nvvm"
    "inspect:support toolkit nvvm ptx"
    "gpu:support toolkit ptx"
    "workspace:support toolkit nvvm lto ptx gpu"
    "interop:support toolkit nvvm lto ptx gpu workspace"
    "pipeline:support toolkit nvvm lto ptx inspect gpu"
    "lesson:support toolkit nvvm lto ptx inspect gpu workspace pipeline"
    "export:support toolkit nvvm lto ptx gpu pipeline"
    "cache:support toolkit nvvm lto ptx inspect gpu workspace pipeline"
    "engine:support toolkit nvvm lto ptx inspect gpu workspace pipeline cache")

if(NOT ROOT)
    message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -P CheckLayers.cmake")
endif()

set(core_dirs "")
foreach(entry IN LISTS NVPG_LAYERS)
    string(REPLACE ":" ";" parts "${entry}")
    list(GET parts 0 dir)
    list(APPEND core_dirs "${dir}")
    list(LENGTH parts n)
    set(allowed_${dir} "${dir}")
    if(n GREATER 1)
        list(GET parts 1 deps)
        string(REPLACE " " ";" deps "${deps}")
        list(APPEND allowed_${dir} ${deps})
    endif()
endforeach()

set(violations "")
set(checked 0)

# The directory an include names ("gpu/Session.h" -> gpu), or "" for a same-directory one.
function(include_dir header out)
    string(FIND "${header}" "/" slash)
    if(slash EQUAL -1)
        set(${out} "" PARENT_SCOPE)
    else()
        string(SUBSTRING "${header}" 0 ${slash} d)
        set(${out} "${d}" PARENT_SCOPE)
    endif()
endfunction()

file(GLOB_RECURSE core_files RELATIVE "${ROOT}/core" "${ROOT}/core/*.h" "${ROOT}/core/*.cpp" "${ROOT}/core/*.inc")
foreach(rel IN LISTS core_files)
    include_dir("${rel}" dir)
    if(dir STREQUAL "")
        continue()  # core/CMakeLists.txt and friends
    endif()
    math(EXPR checked "${checked} + 1")
    if(NOT dir IN_LIST core_dirs)
        list(APPEND violations "core/${rel}: core/${dir} is not in the layer table of tests/layers/CheckLayers.cmake; add it where it belongs")
        continue()
    endif()
    file(STRINGS "${ROOT}/core/${rel}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line IN LISTS lines)
        string(REGEX MATCH "[<\"]([^>\"]+)[>\"]" _ "${line}")
        set(header "${CMAKE_MATCH_1}")
        if(header MATCHES "^Q[A-Za-z]*(/|$)" OR header MATCHES "^Qsci/")
            list(APPEND violations "core/${rel}: includes ${header}, but core is Qt-free")
            continue()
        endif()
        if(line MATCHES "<")
            continue()  # system and third-party headers
        endif()
        include_dir("${header}" hdir)
        if(hdir STREQUAL "")
            continue()
        endif()
        if(NOT hdir IN_LIST core_dirs)
            list(APPEND violations "core/${rel}: includes ${header}, which is not in core")
        elseif(NOT hdir IN_LIST allowed_${dir})
            list(JOIN allowed_${dir} ", " may)
            list(APPEND violations "core/${rel}: includes ${header}, but core/${dir} may include only ${may}")
        endif()
    endforeach()
endforeach()

# The command line sits beside the GUI, not on it.
file(GLOB cli_files "${ROOT}/app/cli/*.h" "${ROOT}/app/cli/*.cpp")

foreach(f IN LISTS cli_files)
    math(EXPR checked "${checked} + 1")
    file(RELATIVE_PATH rel "${ROOT}" "${f}")
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line IN LISTS lines)
        string(REGEX MATCH "[<\"]([^>\"]+)[>\"]" _ "${line}")
        set(header "${CMAKE_MATCH_1}")
        include_dir("${header}" hdir)
        if(header MATCHES "^Q[A-Za-z]*(/|$)")
            list(APPEND violations "${rel}: includes ${header}, but nvpg is Qt-free")
        elseif(NOT hdir STREQUAL "" AND IS_DIRECTORY "${ROOT}/app/gui/${hdir}" AND NOT hdir IN_LIST core_dirs)
            list(APPEND violations "${rel}: includes the GUI's ${header}")
        endif()
    endforeach()
endforeach()

if(checked EQUAL 0)
    message(FATAL_ERROR "no files under ${ROOT}/core or ${ROOT}/app/cli: is ROOT right?")
endif()
list(LENGTH violations n)
if(n GREATER 0)
    list(JOIN violations "\n  " text)
    message(FATAL_ERROR "${n} include(s) against the layer order:\n  ${text}")
endif()
message(STATUS "layer order holds in ${checked} files")
