# Fails when an #include goes against the layer order (docs/dev/architecture.md): core's folders
# and the GUI's each in their order, core Qt-free, the command line beside the GUI, not on it,
# and every include of the project's own headers naming its library (core/, gui/, cli/).
#   cmake -DROOT=<source tree> -P CheckLayers.cmake
# Each folder may include itself and the folders named after it here, nothing else; a new folder
# has to be added, which is the moment to decide where it sits.
cmake_minimum_required(VERSION 3.25)

# core/: from the bottom up.
set(NVPG_CORE_LAYERS
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

# app/gui/: from the bottom up; each may include core too. window/ composes the rest, and
# nothing below includes it.
set(NVPG_GUI_LAYERS
    "common:"
    "document:common"
    "compile:common document"
    "editor:common document"
    "help:common"
    "output:common document compile editor"
    "dialogs:common document compile editor output"
    "panels:common document compile editor output dialogs"
    "window:common document compile editor help output dialogs panels")

if(NOT ROOT)
    message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -P CheckLayers.cmake")
endif()

# Reads a table into <prefix>_dirs and <prefix>_allowed_<dir>.
macro(read_layers table prefix)
    set(${prefix}_dirs "")
    foreach(entry IN LISTS ${table})
        string(REPLACE ":" ";" parts "${entry}")
        list(GET parts 0 dir)
        list(APPEND ${prefix}_dirs "${dir}")
        list(LENGTH parts n)
        set(${prefix}_allowed_${dir} "${dir}")
        if(n GREATER 1)
            list(GET parts 1 deps)
            string(REPLACE " " ";" deps "${deps}")
            list(APPEND ${prefix}_allowed_${dir} ${deps})
        endif()
    endforeach()
endmacro()
read_layers(NVPG_CORE_LAYERS core)
read_layers(NVPG_GUI_LAYERS gui)

set(violations "")
set(checked 0)

# "core/gpu/Session.h" -> library "core", folder "gpu"; "Session.h" -> "", "".
function(split_include header lib_out dir_out)
    string(REPLACE "/" ";" parts "${header}")
    list(LENGTH parts n)
    set(lib "")
    set(dir "")
    if(n GREATER 1)
        list(GET parts 0 lib)
    endif()
    if(n GREATER 2)
        list(GET parts 1 dir)
    endif()
    set(${lib_out} "${lib}" PARENT_SCOPE)
    set(${dir_out} "${dir}" PARENT_SCOPE)
endfunction()

# Checks every include of one file of library `lib` (core, gui, cli) in folder `dir`.
function(check_file path rel lib dir)
    file(STRINGS "${path}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    set(found "")
    foreach(line IN LISTS lines)
        string(REGEX MATCH "[<\"]([^>\"]+)[>\"]" _ "${line}")
        set(header "${CMAKE_MATCH_1}")
        if(NOT lib STREQUAL "gui" AND (header MATCHES "^Q[A-Za-z]*(/|$)" OR header MATCHES "^Qsci/"))
            if(lib STREQUAL "core")
                list(APPEND found "${rel}: includes ${header}, but core is Qt-free")
            else()
                list(APPEND found "${rel}: includes ${header}, but nvpg is Qt-free")
            endif()
            continue()
        endif()
        if(line MATCHES "<" OR header MATCHES "\\.moc$")
            continue()  # system and third-party headers; moc's output
        endif()
        split_include("${header}" hlib hdir)
        if(NOT hlib MATCHES "^(core|gui|cli)$")
            list(APPEND found "${rel}: includes \"${header}\", which does not name its library (core/, gui/ or cli/)")
            continue()
        endif()
        if(lib STREQUAL "core")
            if(NOT hlib STREQUAL "core")
                list(APPEND found "${rel}: includes ${header}, which is not in core")
            elseif(NOT hdir IN_LIST core_allowed_${dir})
                list(JOIN core_allowed_${dir} ", " may)
                list(APPEND found "${rel}: includes ${header}, but core/${dir} may include only ${may}")
            endif()
        elseif(lib STREQUAL "cli")
            if(hlib STREQUAL "gui")
                list(APPEND found "${rel}: includes the GUI's ${header}")
            endif()
        elseif(lib STREQUAL "gui" AND NOT dir STREQUAL "")
            if(hlib STREQUAL "cli")
                list(APPEND found "${rel}: includes the command line's ${header}")
            elseif(hlib STREQUAL "gui" AND NOT hdir IN_LIST gui_allowed_${dir})
                list(JOIN gui_allowed_${dir} ", " may)
                list(APPEND found "${rel}: includes ${header}, but gui/${dir} may include only ${may} (and core)")
            endif()
        endif()
    endforeach()
    set(violations ${violations} ${found} PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE core_files RELATIVE "${ROOT}/core" "${ROOT}/core/*.h" "${ROOT}/core/*.cpp" "${ROOT}/core/*.inc")
foreach(rel IN LISTS core_files)
    string(FIND "${rel}" "/" slash)
    if(slash EQUAL -1)
        continue()  # core/CMakeLists.txt and friends
    endif()
    string(SUBSTRING "${rel}" 0 ${slash} dir)
    math(EXPR checked "${checked} + 1")
    if(NOT dir IN_LIST core_dirs)
        list(APPEND violations "core/${rel}: core/${dir} is not in the layer table of tests/layers/CheckLayers.cmake; add it where it belongs")
        continue()
    endif()
    check_file("${ROOT}/core/${rel}" "core/${rel}" core "${dir}")
endforeach()

file(GLOB_RECURSE gui_files RELATIVE "${ROOT}/app/gui" "${ROOT}/app/gui/*.h" "${ROOT}/app/gui/*.cpp")
foreach(rel IN LISTS gui_files)
    string(FIND "${rel}" "/" slash)
    set(dir "")
    if(NOT slash EQUAL -1)
        string(SUBSTRING "${rel}" 0 ${slash} dir)
        if(NOT dir IN_LIST gui_dirs)
            list(APPEND violations "app/gui/${rel}: gui/${dir} is not in the layer table of tests/layers/CheckLayers.cmake; add it where it belongs")
            continue()
        endif()
    endif()
    math(EXPR checked "${checked} + 1")
    check_file("${ROOT}/app/gui/${rel}" "app/gui/${rel}" gui "${dir}")
endforeach()

file(GLOB cli_files RELATIVE "${ROOT}/app/cli" "${ROOT}/app/cli/*.h" "${ROOT}/app/cli/*.cpp")
foreach(rel IN LISTS cli_files)
    math(EXPR checked "${checked} + 1")
    check_file("${ROOT}/app/cli/${rel}" "app/cli/${rel}" cli "")
endforeach()

if(checked EQUAL 0)
    message(FATAL_ERROR "no files under ${ROOT}/core or ${ROOT}/app: is ROOT right?")
endif()
list(LENGTH violations n)
if(n GREATER 0)
    list(JOIN violations "\n  " text)
    message(FATAL_ERROR "${n} include(s) against the layer order:\n  ${text}")
endif()
message(STATUS "layer order holds in ${checked} files")
